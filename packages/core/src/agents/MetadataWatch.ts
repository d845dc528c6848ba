/**
 * Watching an agent's metadata values (`GET /workspaceagents/{agent}/watch-metadata` and
 * `watch-metadata-ws`): the list at once, then again whenever new values of the agent are written
 * (each flush of the reports' batches names the agents it wrote, `AGENT_METADATA_BATCH_CHANNEL`). Each
 * list is the described system's `[]WorkspaceAgentMetadata`: the template's items first, in their
 * order, each with its latest value (a zero result until one is reported), then keys the agent
 * reported that the template does not declare. Reading needs `read` on the agent's workspace.
 */
import { Effect, Option, Stream } from "effect"
import { authorizeRead } from "../Actor.js"
import { NotFound } from "../Errors.js"
import { isUuid } from "../Ids.js"
import type { AgentMetadataItem } from "../provisioners/Provisioner.js"
import { hexId, messageNames, PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { WorkspaceSharing } from "../workspaces/Sharing.js"
import { AgentRepo } from "./Agent.js"
import { AGENT_METADATA_BATCH_CHANNEL } from "./ReportBatch.js"
import { type AgentMetadataRecord, AgentReports } from "./Reports.js"

/** The result of an item no value was reported for (Go's zero time, as the described system). */
const ZERO_RESULT = { collected_at: "0001-01-01T00:00:00Z", age: 0, value: "", error: "" }

/** The described system's `[]WorkspaceAgentMetadata`, as JSON text. */
export const metadataListJson = (
  items: ReadonlyArray<AgentMetadataItem>,
  values: ReadonlyArray<AgentMetadataRecord>
): string => {
  const byKey = new Map(values.map((v) => [v.key, v] as const))
  const result = (key: string) => {
    const v = byKey.get(key)
    return v === undefined
      ? ZERO_RESULT
      : { collected_at: v.collected_at.toISOString(), age: v.age, value: v.value, error: v.error }
  }
  const declared = new Set(items.map((i) => i.key))
  const list = [
    ...items.map((i) => ({ description: i, result: result(i.key) })),
    ...values.filter((v) => !declared.has(v.key)).map((v) => ({
      description: { key: v.key, display_name: v.key, script: "", interval: 0, timeout: 0 },
      result: result(v.key)
    }))
  ]
  return JSON.stringify(list)
}

export class AgentMetadataWatch extends Effect.Service<AgentMetadataWatch>()("@workbay/core/AgentMetadataWatch", {
  effect: Effect.gen(function*() {
    const agents = yield* AgentRepo
    const reports = yield* AgentReports
    const sharing = yield* WorkspaceSharing
    const pubsub = yield* PubSub

    /**
     * The lists of the agent `ref` names as JSON text: one at once, then one per change (an
     * unchanged list is not repeated). 404 for an agent the caller may not read.
     */
    const watch = (ref: string) =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* agents.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.workspace.deleted) return yield* NotFound.resource("Workspace agent")
        yield* authorizeRead("Workspace agent", sharing.object(found.value.workspace))
        const agent = found.value.agent
        const render = Effect.map(reports.metadata(agent.id), (values) => metadataListJson(agent.metadata, values))
        const hex = hexId(agent.id)
        return Stream.unwrapScoped(Effect.gen(function*() {
          // Subscribe first, then read: no report made in between is missed.
          const signals = yield* pubsub.subscribe(AGENT_METADATA_BATCH_CHANNEL)
          const first = yield* render
          const changes = Stream.fromQueue(signals).pipe(
            // Each flush names the agents it wrote values of, on every replica.
            Stream.filter((m) => messageNames(m, hex)),
            Stream.mapEffect(() => render)
          )
          return Stream.concat(Stream.make(first), changes).pipe(Stream.changes)
        }))
      }).pipe(span("AgentMetadataWatch.watch"))

    return { watch } as const
  })
}) {}
