/**
 * An agent's own part of the workspace page: its metadata, live (the template's `metadata` items,
 * `/workspaceagents/{id}/watch-metadata-ws`, each message the whole list); while it is connected,
 * "Open in VS Code" (on the person's own workspace) and its machine's listening ports with their
 * links and share buttons; and its logs on demand (a `<details>`, so nothing is followed until a
 * person asks), live (`/workspaceagents/{id}/logs?follow=true`, each message an array of lines),
 * grouped by their source (the agent's scripts).
 */
import { useEffect, useRef, useState } from "react"
import { type Schemas, watch } from "../api/client.ts"
import { JobLogs, type LogFrames } from "../ui/JobLogs.tsx"
import { Time } from "../ui/Time.tsx"
import { useMe } from "../users/session.ts"
import { AgentPorts } from "./AgentPorts.tsx"
import type { Workspace, WorkspaceAgent } from "./api.ts"
import { OpenInVsCode } from "./OpenInVsCode.tsx"

type AgentLog = Schemas["WorkspaceAgentLog"]

/** One item of the metadata watch (the described system's WorkspaceAgentMetadata). */
interface AgentMetadata {
  readonly description: { readonly key: string; readonly display_name: string; readonly interval: number }
  readonly result: { readonly value: string; readonly error: string; readonly collected_at: string }
}

const AgentMetadataList = ({ agent }: { agent: WorkspaceAgent }) => {
  const [items, setItems] = useState<ReadonlyArray<AgentMetadata> | undefined>(undefined)
  useEffect(
    () =>
      watch<ReadonlyArray<AgentMetadata>>(
        `/workspaceagents/${encodeURIComponent(agent.id)}/watch-metadata-ws`,
        setItems
      ),
    [agent.id]
  )
  if (items === undefined) return <p role="status">Loading the metadata…</p>
  if (items.length === 0) return <p className="empty">This agent reports no metadata.</p>
  return (
    <div role="group" aria-label={`Metadata of ${agent.name}`}>
      <dl className="facts">
        {items.map((m) => (
          <div key={m.description.key} className="contents">
            <dt>{m.description.display_name !== "" ? m.description.display_name : m.description.key}</dt>
            <dd>
              {m.result.error !== "" ? <span className="error">{m.result.error}</span> : m.result.value.trim() || "—"}
              {m.result.collected_at === "" ? null : (
                <span className="hint">
                  {" "}(<Time value={m.result.collected_at} />)
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

export const AgentDetails = ({ workspace, agent }: { workspace: Workspace; agent: WorkspaceAgent }) => {
  const [open, setOpen] = useState(false)
  const me = useMe().data
  // The sources as the workspace last said (its watch keeps them current); read at each message.
  const sources = useRef(new Map<string, string>())
  sources.current = new Map(agent.log_sources.map((s) => [s.id, s.display_name]))
  const frames: LogFrames = (message) =>
    (message as ReadonlyArray<AgentLog>).map((l) => ({
      created_at: l.created_at,
      output: l.output,
      log_level: l.level,
      stage: sources.current.get(l.source_id) ?? "Agent"
    }))
  const connected = agent.status === "connected"
  return (
    <section className="agent-details" aria-label={`Agent ${agent.name}`}>
      <h4>Metadata of {agent.name}</h4>
      <AgentMetadataList agent={agent} />
      {connected && me?.id === workspace.owner_id
        ? <OpenInVsCode workspace={workspace} agent={agent} />
        : null}
      {connected ? <AgentPorts workspace={workspace} agent={agent} /> : null}
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>Show the logs of {agent.name}</summary>
        {open
          ? (
            <JobLogs
              path={`/workspaceagents/${encodeURIComponent(agent.id)}/logs`}
              label={`Logs of ${agent.name}`}
              frames={frames}
            />
          )
          : null}
      </details>
    </section>
  )
}
