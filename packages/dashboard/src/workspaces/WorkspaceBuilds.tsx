/**
 * The workspace's builds (`GET /workspaces/{id}/builds`, newest first), fetched again when the
 * watched workspace's latest build changes (a new build, or its status), each with its log on
 * demand; and the latest build's timings (`GET /workspacebuilds/{id}/timings`), fetched again when
 * its job ends.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { ErrorMessage } from "../ui/Form.tsx"
import { JobLogs } from "../ui/JobLogs.tsx"
import { Time } from "../ui/Time.tsx"
import type { Workspace, WorkspaceBuild } from "./api.ts"
import { BuildTimeline } from "./BuildTimeline.tsx"
import { capitalized } from "./hooks.ts"
import { buildsQuery, timingsQuery, workspaceKeys } from "./queries.ts"

export const WorkspaceBuilds = ({ workspace: w }: { workspace: Workspace }) => {
  const builds = useQuery(buildsQuery(w.id))
  const queryClient = useQueryClient()
  const latest = `${w.latest_build.id}:${w.latest_build.status}`
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: workspaceKeys.builds(w.id) })
  }, [latest])
  const [open, setOpen] = useState<string | undefined>(undefined)
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Build history</h2>
      <ErrorMessage error={builds.error} />
      {builds.data === undefined ? null : (
        <ol className="builds" aria-label="Builds">
          {builds.data.map((b) => (
            <li key={b.id}>
              <div className="build">
                <span className="number">#{b.build_number}</span>
                <span>{capitalized(b.transition)}</span>
                <span className={`status status-${b.status}`}>{capitalized(b.status)}</span>
                <span className="hint">
                  by {b.initiator_name}, <Time value={b.created_at} />
                </span>
                <button
                  type="button"
                  className="secondary"
                  aria-expanded={open === b.id}
                  aria-controls={`build-log-${b.id}`}
                  onClick={() => setOpen(open === b.id ? undefined : b.id)}
                >
                  {open === b.id ? "Hide" : "Show"} logs of build #{b.build_number}
                </button>
              </div>
              {open === b.id
                ? (
                  <div id={`build-log-${b.id}`}>
                    <JobLogs path={`/workspacebuilds/${b.id}/logs`} label={`Logs of build #${b.build_number}`} />
                  </div>
                )
                : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

const seconds = (from: string, to: string) => {
  const ms = new Date(to).getTime() - new Date(from).getTime()
  return Number.isFinite(ms) && ms >= 0 ? `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s` : "—"
}

export const WorkspaceTimings = ({ build }: { build: WorkspaceBuild }) => {
  const done = build.job.completed_at !== undefined
  const timings = useQuery({ ...timingsQuery(build.id, done), enabled: done })
  const rows = [
    ...(timings.data?.provisioner_timings ?? []).map((t) => ({
      key: `p-${t.stage}-${t.resource}-${t.action}-${t.started_at}`,
      stage: t.stage,
      what: [...new Set([t.source, t.resource, t.action].filter((x) => x !== ""))].join(": "),
      started: t.started_at,
      ended: t.ended_at
    })),
    ...(timings.data?.agent_connection_timings ?? []).map((t) => ({
      key: `c-${t.workspace_agent_id}-${t.started_at}`,
      stage: t.stage,
      what: `${t.workspace_agent_name} connected`,
      started: t.started_at,
      ended: t.ended_at
    })),
    ...(timings.data?.agent_script_timings ?? []).map((t) => ({
      key: `s-${t.workspace_agent_id}-${t.display_name}-${t.started_at}`,
      stage: t.stage,
      what: `${t.workspace_agent_name}: ${t.display_name} (${t.status})`,
      started: t.started_at,
      ended: t.ended_at
    }))
  ]
  return (
    <section aria-labelledby="timings-heading">
      <h2 id="timings-heading">Timings of build #{build.build_number}</h2>
      <ErrorMessage error={timings.error} />
      {!done ? <p className="hint">When the build ends.</p> : rows.length === 0
        ? <p className="empty">{timings.isPending ? "Loading…" : "No timings recorded."}</p>
        : (
          <>
            <BuildTimeline title={`Timeline of build #${build.build_number}`} steps={rows} />
            <table>
              <caption className="visually-hidden">Timings of build #{build.build_number}</caption>
              <thead>
                <tr>
                  <th scope="col">Stage</th>
                  <th scope="col">Step</th>
                  <th scope="col">Duration</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key}>
                    <td>{capitalized(r.stage)}</td>
                    <th scope="row">{r.what}</th>
                    <td>{seconds(r.started, r.ended)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
    </section>
  )
}
