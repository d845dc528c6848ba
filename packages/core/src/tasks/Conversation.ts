/**
 * A task's conversation (docs/tasks.md, "The conversation"): the input sent to the task's agent and
 * the output the agent reports, stored per workspace as numbered log entries.
 *
 * Input reaches the agent over its open connection (`GET /workspaceagents/me/rpc`, the
 * `task_input` notification) on whichever replica holds it: `send` stores the entry and publishes
 * its id on the agent's channel (`taskinput_` and the agent id's hex digits); each connection of
 * that agent, on any replica, subscribed to the channel, reads the entry, sends it and acknowledges
 * it on the agent's ack channel (`taskack_`). Without an acknowledgement within
 * TASK_INPUT_ACK_SECONDS the entry is removed and the send fails. The agent reports output with
 * the `append_task_log` message (`TaskLogAppend`).
 *
 * Stored entries are bounded: the newest TASK_LOG_KEEP_ENTRIES of a workspace, and of those only
 * the newest whose contents add up to at most TASK_LOG_KEEP_BYTES (UTF-8); older ones are deleted
 * as new ones arrive. An entry's content is at most MAX_TASK_LOG_CONTENT characters.
 */
import { HttpApiSchema } from "@effect/platform"
import { Clock, Context, Duration, Effect, Layer, Option, type Queue, Schema, type Scope } from "effect"
import { AgentRepo } from "../agents/Agent.js"
import type { AgentSession } from "../agents/AgentAuth.js"
import { AgentTaskLog, MAX_TASK_LOG_CONTENT, type TaskLogAppend } from "../agents/TaskLog.js"
import { Validation } from "../Errors.js"
import { onSignals, PubSub, PUBSUB_RESYNC } from "../PubSub.js"
import { span } from "../Tracing.js"
import { agentStatus } from "../workspaces/WorkspaceWire.js"

/** One entry of a task's conversation (the wire record's fields). */
export interface TaskLogEntry {
  readonly id: number
  readonly type: "input" | "output"
  readonly content: string
  readonly time: Date
}

/** One message of an uploaded AgentAPI conversation. */
export interface AgentApiSnapshotMessage {
  readonly id: number
  readonly role: "user" | "agent"
  readonly content: string
  readonly time: Date
}

/**
 * The entries of a stored snapshot envelope (`{format: "agentapi", data: {messages}}`): the user's
 * messages as `input`, the agent's as `output`, as the described system converts them; none for
 * an envelope it cannot read.
 */
const snapshotMessages = (text: string): ReadonlyArray<TaskLogEntry> | undefined => {
  try {
    const envelope = JSON.parse(text) as { format?: unknown; data?: { messages?: unknown } }
    if (envelope.format !== "agentapi" || !Array.isArray(envelope.data?.messages)) return undefined
    return (envelope.data.messages as ReadonlyArray<Record<string, unknown>>).map((m) => ({
      id: Number(m.id),
      type: m.role === "user" ? "input" as const : "output" as const,
      content: String(m.content),
      time: new Date(String(m.time))
    }))
  } catch {
    return undefined
  }
}

/** How long `send` waits for a connection of the agent to acknowledge the input. */
export const TASK_INPUT_ACK_SECONDS = 5

/** Entries kept per workspace: the newest this many. */
export const TASK_LOG_KEEP_ENTRIES = 1000

/** Bytes kept per workspace: the newest entries whose contents add up to at most this (UTF-8). */
export const TASK_LOG_KEEP_BYTES = 1024 * 1024

/** An entry to store. */
export interface TaskLogEntryInput {
  readonly type: "input" | "output"
  readonly content: string
  readonly time: Date
  /** The content's UTF-8 length. */
  readonly bytes: number
}

/** How much of a workspace's conversation to keep. */
export interface TaskLogCap {
  readonly entries: number
  readonly bytes: number
}

export class TaskLogRepo extends Context.Tag("@workbay/core/TaskLogRepo")<TaskLogRepo, {
  /**
   * Stores `entries` (in order, with growing ids) on the workspace, then deletes its oldest entries
   * beyond `cap`; answers the stored entries.
   */
  readonly append: (
    workspaceId: string,
    entries: ReadonlyArray<TaskLogEntryInput>,
    cap: TaskLogCap
  ) => Effect.Effect<ReadonlyArray<TaskLogEntry>>
  /** The workspace's entries, oldest first. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<TaskLogEntry>>
  /** One entry of the workspace. */
  readonly find: (workspaceId: string, id: number) => Effect.Effect<Option.Option<TaskLogEntry>>
  /** Deletes one entry of the workspace (input no connection took). */
  readonly remove: (workspaceId: string, id: number) => Effect.Effect<void>
  /** Stores the task's log snapshot (JSON text), replacing the one it had. */
  readonly saveSnapshot: (taskId: string, snapshot: string, at: Date) => Effect.Effect<void>
  /** The task's log snapshot, if its agent uploaded one. */
  readonly findSnapshot: (taskId: string) => Effect.Effect<Option.Option<StoredTaskLogSnapshot>>
}>() {}

/** A task's stored log snapshot: the envelope `{format, data}` as JSON text, and when it was uploaded. */
export interface StoredTaskLogSnapshot {
  readonly snapshot: string
  readonly created_at: Date
}

/**
 * 409: the task's agent has no open connection (it has not connected yet, its connection was
 * lost or closed, or it no longer belongs to the workspace's latest build), so input cannot reach it.
 * The described system answers 409 for a task that is not active yet or paused, and 502 when it
 * cannot dial the agent; here the connection's state is known, so the conflict it is.
 */
export class TaskAgentUnavailable extends Schema.TaggedError<TaskAgentUnavailable>()(
  "TaskAgentUnavailable",
  {
    message: Schema.String,
    detail: Schema.optional(Schema.String),
    validations: Schema.optional(Schema.Array(Validation))
  },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The `task_input` notification the server sends an agent: one input entry. */
export interface TaskInputMessage {
  readonly type: "task_input"
  readonly entry_id: number
  readonly content: string
  readonly time: string
}

const hex = (id: string) => id.replaceAll("-", "").toLowerCase()

/** The PubSub channel of input for an agent: `taskinput_` and the id's 32 hex digits. */
export const taskInputChannel = (agentId: string): string => `taskinput_${hex(agentId)}`

/** The PubSub channel where an agent's connections acknowledge input they sent: `taskack_` and the id's 32 hex digits. */
export const taskAckChannel = (agentId: string): string => `taskack_${hex(agentId)}`

const cap: TaskLogCap = { entries: TASK_LOG_KEEP_ENTRIES, bytes: TASK_LOG_KEEP_BYTES }

const entryInput = (type: "input" | "output", content: string, time: Date): TaskLogEntryInput => {
  const kept = content.length > MAX_TASK_LOG_CONTENT ? content.slice(0, MAX_TASK_LOG_CONTENT) : content
  return { type, content: kept, time, bytes: Buffer.byteLength(kept, "utf8") }
}

export class TaskConversation extends Effect.Service<TaskConversation>()("@workbay/core/TaskConversation", {
  effect: Effect.gen(function*() {
    const repo = yield* TaskLogRepo
    const agents = yield* AgentRepo
    const pubsub = yield* PubSub
    // Task input is forwarded on the service's runtime (one for every agent followed).
    const runtime = yield* Effect.runtime<never>()
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const unavailable = (detail: string) =>
      new TaskAgentUnavailable({ message: "The task's agent is not connected.", detail })

    /** Whether the agent can take input now: of the workspace's latest build, with an open connection. */
    const reachable = (workspaceId: string, agentId: string, at: Date) =>
      Effect.gen(function*() {
        const found = yield* agents.findById(agentId)
        if (Option.isNone(found) || found.value.workspace.id !== workspaceId) {
          return yield* unavailable("The agent does not belong to the task's workspace.")
        }
        const { agent, build, latest_build_number, workspace } = found.value
        if (workspace.deleted || build.build_number !== latest_build_number) {
          return yield* unavailable("The agent belongs to an older build of the workspace; start the task again.")
        }
        const status = agentStatus(agent, at.getTime())
        if (status !== "connected") {
          return yield* unavailable(`The agent is ${status}; input can be sent once it is connected.`)
        }
      })

    /** Waits for `id` on the ack queue; none when TASK_INPUT_ACK_SECONDS pass first. */
    const acknowledged = (acks: Queue.Dequeue<string>, id: number) =>
      Effect.gen(function*() {
        let ack = yield* acks.take
        while (ack !== String(id)) ack = yield* acks.take
      }).pipe(Effect.timeoutOption(Duration.seconds(TASK_INPUT_ACK_SECONDS)))

    /**
     * Delivers input to the agent's open connection (any replica) and records it as an `input`
     * entry; fails with TaskAgentUnavailable, recording nothing, when the agent has no open
     * connection (by its connection state, or as no connection acknowledged it in time).
     */
    const send = (input: { readonly workspaceId: string; readonly agentId: string; readonly content: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* reachable(input.workspaceId, input.agentId, at)
        const [entry] = yield* repo.append(input.workspaceId, [entryInput("input", input.content, at)], cap)
        // Subscribed to acknowledgements first, then published: an early one is not missed.
        const acks = yield* pubsub.subscribe(taskAckChannel(input.agentId))
        yield* pubsub.publish(taskInputChannel(input.agentId), String(entry!.id))
        if (Option.isNone(yield* acknowledged(acks, entry!.id))) {
          yield* repo.remove(input.workspaceId, entry!.id)
          return yield* unavailable(
            `No connection of the agent took the input within ${TASK_INPUT_ACK_SECONDS} s: its connection was lost without a close.`
          )
        }
        return entry!
      }).pipe(Effect.scoped, span("TaskConversation.send"))

    /** Records an `input` entry without delivering it (the prompt a task starts with, or a changed prompt). */
    const recordInput = (input: { readonly workspaceId: string; readonly content: string }) =>
      Effect.gen(function*() {
        yield* repo.append(input.workspaceId, [entryInput("input", input.content, yield* now)], cap)
      }).pipe(span("TaskConversation.recordInput"))

    /**
     * The conversation, oldest first. Not `live` (the workspace is not running): `snapshot` is true,
     * and the answer is the task's uploaded log snapshot (`taskId`, docs/tasks.md "Log snapshots")
     * with `snapshot_at` its upload time, when there is one no older than the newest stored entry;
     * otherwise the stored entries, with `snapshot_at` the newest entry's time (absent when there
     * is none).
     */
    const logs = (input: { readonly workspaceId: string; readonly taskId?: string; readonly live: boolean }) =>
      Effect.gen(function*() {
        const entries = yield* repo.list(input.workspaceId)
        const newest = entries.at(-1)
        const answer: { logs: ReadonlyArray<TaskLogEntry>; snapshot: boolean; snapshot_at?: Date } = input.live
            || newest === undefined
          ? { logs: entries, snapshot: !input.live }
          : { logs: entries, snapshot: true, snapshot_at: newest.time }
        if (input.live || input.taskId === undefined) return answer
        const stored = yield* repo.findSnapshot(input.taskId)
        if (Option.isNone(stored)) return answer
        if (newest !== undefined && stored.value.created_at.getTime() < newest.time.getTime()) return answer
        const messages = snapshotMessages(stored.value.snapshot)
        if (messages === undefined) return answer
        return { logs: messages, snapshot: true, snapshot_at: stored.value.created_at }
      }).pipe(span("TaskConversation.logs"))

    /** Stores the task's log snapshot (the envelope `{format, data}`), replacing the one it had. */
    const saveSnapshot = (taskId: string, format: "agentapi", messages: ReadonlyArray<AgentApiSnapshotMessage>) =>
      Effect.gen(function*() {
        const envelope = JSON.stringify({
          format,
          data: { messages: messages.map((m) => ({ ...m, time: m.time.toISOString() })) }
        })
        yield* repo.saveSnapshot(taskId, envelope, yield* now)
      }).pipe(span("TaskConversation.saveSnapshot"))

    /** `append_task_log`: stores the output entries the agent of `session` reports on its workspace. */
    const append = (session: AgentSession, report: TaskLogAppend) =>
      Effect.gen(function*() {
        if (report.entries.length === 0) return { ids: [] as ReadonlyArray<number> }
        const at = yield* now
        const stored = yield* repo.append(
          session.workspace.id,
          report.entries.map((e) => entryInput(e.type, e.content, e.time ?? at)),
          cap
        )
        return { ids: stored.map((e) => e.id) }
      }).pipe(span("TaskConversation.append"))

    /**
     * Sends the `task_input` notifications for the agent of `session` with `sendText`, and
     * acknowledges each, for the life of the scope: subscribed when the effect completes, so input
     * sent afterwards is not missed.
     */
    const forward = (
      session: AgentSession,
      sendText: (text: string) => Effect.Effect<void>
    ): Effect.Effect<void, never, Scope.Scope> =>
      onSignals(
        pubsub,
        taskInputChannel(session.agent.id),
        (messages) =>
          Effect.forEach(messages, (message) =>
            Effect.gen(function*() {
              // A resync says signals may be lost; what was lost cannot be told apart, so it is skipped.
              if (message === PUBSUB_RESYNC || !/^\d{1,15}$/.test(message)) return
              const found = yield* repo.find(session.workspace.id, Number(message))
              if (Option.isNone(found)) return
              const entry = found.value
              yield* sendText(JSON.stringify(
                {
                  type: "task_input",
                  entry_id: entry.id,
                  content: entry.content,
                  time: entry.time.toISOString()
                } satisfies TaskInputMessage
              ))
              yield* pubsub.publish(taskAckChannel(session.agent.id), message)
            }).pipe(
              // A failed read or send costs that input (its sender gets no ack), not the forwarding.
              Effect.catchAllCause((cause) => Effect.logError("forwarding task input failed", cause))
            )),
        runtime
      )

    return { send, logs, saveSnapshot, recordInput, append, forward } as const
  })
}) {}

/** The task conversation as the agent connection carries it (agents' `AgentTaskLog`). */
export const agentTaskLogLayer: Layer.Layer<AgentTaskLog, never, TaskConversation> = Layer.effect(
  AgentTaskLog,
  Effect.map(TaskConversation, (c) => AgentTaskLog.of({ append: c.append, forward: c.forward }))
)
