/**
 * STUB (interface only) written by the tasks helper so the tasks area compiles before the convo
 * helper's branch is merged. The lead replaces this whole file with convo's
 * `packages/core/src/tasks/Conversation.ts`; nothing here is meant to survive the merge. It keeps
 * the agreed signatures; the stand-in keeps entries in memory and never reaches an agent.
 */
import { Clock, Effect, Schema } from "effect"
import { HttpApiSchema } from "@effect/platform"

/** One entry of a task's conversation. */
export interface TaskLogEntry {
  readonly id: number
  readonly type: "input" | "output"
  readonly content: string
  readonly time: Date
}

/** No connection of the task's agent is open (STUB: convo defines the real one). */
export class TaskAgentUnavailable extends Schema.TaggedError<TaskAgentUnavailable>()(
  "TaskAgentUnavailable",
  { message: Schema.String, detail: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 409 })
) {}

export class TaskConversation extends Effect.Service<TaskConversation>()("@workbay/core/TaskConversation", {
  effect: Effect.sync(() => {
    const byWorkspace = new Map<string, Array<TaskLogEntry>>()
    let next = 1
    const append = (workspaceId: string, content: string) =>
      Effect.map(Clock.currentTimeMillis, (ms) => {
        const entry: TaskLogEntry = { id: next++, type: "input", content, time: new Date(ms) }
        const list = byWorkspace.get(workspaceId) ?? []
        list.push(entry)
        byWorkspace.set(workspaceId, list)
        return entry
      })
    // The stand-in records the input without reaching the agent.
    const send = (input: { readonly workspaceId: string; readonly agentId: string; readonly content: string }) =>
      append(input.workspaceId, input.content) as Effect.Effect<TaskLogEntry, TaskAgentUnavailable>
    const logs = (input: { readonly workspaceId: string; readonly live: boolean }) =>
      Effect.map(Clock.currentTimeMillis, (ms) => ({
        logs: [...(byWorkspace.get(input.workspaceId) ?? [])] as ReadonlyArray<TaskLogEntry>,
        snapshot: !input.live,
        ...(input.live ? {} : { snapshot_at: new Date(ms) })
      }) as { logs: ReadonlyArray<TaskLogEntry>; snapshot: boolean; snapshot_at?: Date })
    const recordInput = (input: { readonly workspaceId: string; readonly content: string }) =>
      Effect.asVoid(append(input.workspaceId, input.content))
    return { send, logs, recordInput } as const
  })
}) {}
