/**
 * A task's conversation on the agent connection (Connection.ts): the agent's `append_task_log`
 * messages and the `task_input` notifications it is sent. The tasks area keeps the conversation
 * and gives the `AgentTaskLog` port (tasks/Conversation.ts `agentTaskLogLayer`), through the assembly.
 */
import { Context, type Effect, Schema, type Scope } from "effect"
import type { AgentSession } from "./AgentAuth.js"
import { ReportTime } from "./Reports.js"

/** The most characters of one entry's content (input longer than this is cut when stored). */
export const MAX_TASK_LOG_CONTENT = 64 * 1024

/** The most entries one `append_task_log` message may carry. */
export const MAX_TASK_LOG_APPEND = 100

/** `append_task_log`: entries of the task's conversation that the agent reports (output only; input is recorded when sent). */
export class TaskLogAppend extends Schema.Class<TaskLogAppend>("TaskLogAppend")({
  entries: Schema.Array(Schema.Struct({
    type: Schema.optionalWith(
      Schema.Literal("output").annotations({
        message: () => ({
          message: "An agent reports output entries; input entries are recorded when input is sent.",
          override: true
        })
      }),
      { default: () => "output" as const }
    ),
    content: Schema.String.pipe(
      Schema.maxLength(MAX_TASK_LOG_CONTENT, { message: () => `At most ${MAX_TASK_LOG_CONTENT} characters.` }),
      // No text column stores NUL (Postgres refuses it).
      Schema.filter((c) => !c.includes("\u0000") || "Must not contain NUL characters.")
    ),
    time: Schema.optional(ReportTime)
  })).pipe(Schema.maxItems(MAX_TASK_LOG_APPEND, { message: () => `At most ${MAX_TASK_LOG_APPEND} entries.` }))
}) {}

/** Where the agent connection hands a task's conversation. */
export class AgentTaskLog extends Context.Tag("@workbay/core/AgentTaskLog")<AgentTaskLog, {
  /** `append_task_log`: stores the output entries the agent of `session` reports on its workspace. */
  readonly append: (
    session: AgentSession,
    report: TaskLogAppend
  ) => Effect.Effect<{ readonly ids: ReadonlyArray<number> }>
  /** Sends the agent of `session` its `task_input` notifications with `sendText`, for the life of the scope. */
  readonly forward: (
    session: AgentSession,
    sendText: (text: string) => Effect.Effect<void>
  ) => Effect.Effect<void, never, Scope.Scope>
}>() {}
