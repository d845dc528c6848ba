/**
 * Agent logs: the lines a workspace agent streams (its scripts' output, anything it wants its
 * users to see), each under a log source. Sources come from the agent's scripts (one per
 * script, made with the build) and from the agent itself (`POST /workspaceagents/me/log-source`).
 * An agent stores at most MAX_AGENT_LOG_BYTES; past that its appends answer 413 and the agent
 * shows `logs_overflowed`. Lines are read by (agent, id) and followed across replicas through
 * the PubSub port (`agentLogsChannel`).
 */
import { Clock, Context, Duration, Effect, Option, Schema, Stream } from "effect"
import { BadRequest, PayloadTooLarge, ResponseBody } from "../Errors.js"
import { followById } from "../Follow.js"
import { PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import type { AgentLogSourceRecord } from "../workspaces/WorkspaceBuild.js"
import { type AgentInBuild, AgentRepo } from "./Agent.js"
import { CurrentAgent } from "./AgentAuth.js"
import { agentLogLevels, type AgentLogRecord, type NewAgentLog, toAgentLog } from "./AgentLog.js"
import { Agents } from "./Agents.js"
import { ReportTime } from "./Reports.js"
import type { AgentLogsQuery, LogSourceRequest, PatchLogsRequest } from "./Requests.js"

/** What one agent may store: 1 MiB, counted as each line's UTF-8 bytes plus one for its line end. */
export const MAX_AGENT_LOG_BYTES = 1_048_576

/** Log sources one agent may declare (besides its scripts'). */
export const MAX_AGENT_LOG_SOURCES = 100

/** Lines one read answers at most; read on with `after`. */
export const AGENT_LOGS_PAGE = 10_000

export class AgentLogRepo extends Context.Tag("@workbay/core/AgentLogRepo")<AgentLogRepo, {
  /** Adds a log source to its agent; one of the same id already there is kept and answered. */
  readonly addLogSource: (source: AgentLogSourceRecord) => Effect.Effect<AgentLogSourceRecord>
  /**
   * Stores a batch when the agent has room for its `bytes` (one statement for the lines, one for
   * the counters, in one transaction); otherwise stores nothing and marks the agent overflowed.
   */
  readonly append: (
    agentId: string,
    logs: ReadonlyArray<NewAgentLog>,
    bytes: number,
    maxBytes: number
  ) => Effect.Effect<{ readonly overflowed: boolean }>
  /** Up to `limit` lines of the agent with `after < id < before`, in id order. */
  readonly list: (
    agentId: string,
    after: number,
    before: number | undefined,
    limit: number
  ) => Effect.Effect<ReadonlyArray<AgentLogRecord>>
  /** Deletes lines created before `before`; answers how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}>() {}

/** The PubSub channel of an agent's new lines: `agent_logs_` and the id's 32 hex digits. */
export const agentLogsChannel = (agentId: string): string => `agent_logs_${agentId.replaceAll("-", "").toLowerCase()}`

/** The message on an agent's channel when lines were stored. */
export const AGENT_SIGNAL_LOGS = "logs"

/**
 * `batch_create_logs` on the agent connection: the fields of `PATCH /workspaceagents/me/logs`,
 * as the described system's agents send their logs over their connection (`BatchCreateLogs`).
 */
export class BatchCreateLogs extends Schema.Class<BatchCreateLogs>("BatchCreateLogs")({
  log_source_id: Schema.UUID.annotations({
    message: () => ({ message: "The log source id is a UUID.", override: true })
  }),
  logs: Schema.Array(Schema.Struct({
    created_at: ReportTime,
    level: Schema.Literal(...agentLogLevels).annotations({
      message: () => ({ message: `Level must be one of ${agentLogLevels.join(", ")}.`, override: true })
    }),
    output: Schema.String
  }))
}) {}

export interface FollowAgentLogsOptions {
  /** Re-read without a signal this often. Default 10 seconds. */
  readonly fallback?: Duration.DurationInput | undefined
}

const encoder = new TextEncoder()
/** What a line costs of its agent's room: its UTF-8 bytes and its line end. */
export const agentLogBytes = (output: string): number => encoder.encode(output).length + 1

/** The answer of a stored batch (one value: a body of a fixed message). */
const APPENDED = new ResponseBody({ message: "Logs appended." }, true)

/** The ids of the log sources an agent has: its scripts' and those it declared. */
export const logSourceIds = (agent: AgentInBuild["agent"]): ReadonlySet<string> =>
  new Set([...agent.scripts.map((s) => s.id), ...(agent.log_sources ?? []).map((s) => s.id)])

export class AgentLogs extends Effect.Service<AgentLogs>()("@workbay/core/AgentLogs", {
  effect: Effect.gen(function*() {
    const logs = yield* AgentLogRepo
    const agentRepo = yield* AgentRepo
    const agents = yield* Agents
    const pubsub = yield* PubSub

    /** POST /workspaceagents/me/log-source: the agent's source of that id (idempotent: the first one declared stays). */
    const addLogSource = (input: typeof LogSourceRequest.Type) =>
      Effect.gen(function*() {
        const { agent } = yield* CurrentAgent
        const id = input.id.toLowerCase()
        const known = (agent.log_sources ?? []).find((s) => s.id === id)
        if (known !== undefined) return known
        if ((agent.log_sources ?? []).length >= MAX_AGENT_LOG_SOURCES) {
          return yield* BadRequest.field(
            "id",
            `An agent may declare at most ${MAX_AGENT_LOG_SOURCES} log sources.`,
            "Too many log sources."
          )
        }
        return yield* logs.addLogSource({
          id,
          workspace_agent_id: agent.id,
          created_at: new Date(yield* Clock.currentTimeMillis),
          display_name: input.display_name,
          icon: input.icon
        })
      }).pipe(span("AgentLogs.addLogSource"))

    /**
     * Whether the calling agent has the source `sourceId`. The session may be older than the
     * source (an agent connection's is as old as the connection): a source it does not know is
     * looked up again on the agent's row before it counts as unknown.
     */
    const hasSource = (agent: AgentInBuild["agent"], sourceId: string) =>
      logSourceIds(agent).has(sourceId)
        ? Effect.succeed(true)
        : Effect.map(agentRepo.findById(agent.id), (fresh) =>
          Option.isSome(fresh) && logSourceIds(fresh.value.agent).has(sourceId))

    /**
     * Stores the batch under its source, or (past the agent's room) none of it, marking the agent
     * overflowed; answers whether it was refused for that.
     */
    const store = (input: typeof PatchLogsRequest.Type) =>
      Effect.gen(function*() {
        const { agent } = yield* CurrentAgent
        if (input.logs.length === 0) {
          return yield* BadRequest.field("logs", "At least one log line is required.", "No logs provided.")
        }
        const sourceId = input.log_source_id.toLowerCase()
        if (!(yield* hasSource(agent, sourceId))) {
          return yield* BadRequest.field(
            "log_source_id",
            "The agent has no log source of this id: declare it first (POST /workspaceagents/me/log-source).",
            "Unknown log source."
          )
        }
        if (agent.logs_overflowed) {
          return { overflowed: true }
        }
        const lines: Array<NewAgentLog> = input.logs.map((l) => ({
          created_at: l.created_at,
          level: l.level,
          output: l.output,
          log_source_id: sourceId
        }))
        const bytes = lines.reduce((n, l) => n + agentLogBytes(l.output), 0)
        const { overflowed } = yield* logs.append(agent.id, lines, bytes, MAX_AGENT_LOG_BYTES)
        if (!overflowed) yield* pubsub.publish(agentLogsChannel(agent.id), AGENT_SIGNAL_LOGS)
        return { overflowed }
      })

    /**
     * PATCH /workspaceagents/me/logs: stores the batch under its source, or (past the agent's
     * room) none of it, answering 413 and marking the agent overflowed.
     */
    const append = (input: typeof PatchLogsRequest.Type) =>
      Effect.flatMap(store(input), ({ overflowed }) =>
        overflowed
          // Made only when refused: an error captures a stack trace (about 1% of a batch's CPU).
          ? Effect.fail(
            new PayloadTooLarge({
              message: "Logs limit exceeded.",
              detail: `An agent stores at most ${MAX_AGENT_LOG_BYTES} bytes of logs.`
            })
          )
          : Effect.succeed(APPENDED)).pipe(span("AgentLogs.append"))

    /**
     * `batch_create_logs` on the agent connection: {@link append}, answering
     * `{log_limit_exceeded}` (true when the batch was refused for the agent's room) as the
     * described system's `BatchCreateLogs` does, where the route answers 413.
     */
    const batchCreate = (input: BatchCreateLogs) =>
      Effect.map(store(input), ({ overflowed }) => ({ log_limit_exceeded: overflowed })).pipe(
        span("AgentLogs.batchCreate")
      )

    /** GET /workspaceagents/{agent}/logs: lines after `after` (and before `before`), at most AGENT_LOGS_PAGE. */
    const list = (agentRef: string, query: typeof AgentLogsQuery.Type = {}) =>
      Effect.gen(function*() {
        const found = yield* agents.resolve(agentRef)
        const lines = yield* logs.list(found.agent.id, query.after ?? 0, query.before, AGENT_LOGS_PAGE)
        return lines.map(toAgentLog)
      }).pipe(span("AgentLogs.list"))

    /**
     * GET /workspaceagents/{agent}/logs?follow: checks the caller may read the agent (before any
     * upgrade), then the lines after `after` and each new one, until the agent no longer belongs
     * to its workspace's latest build (a newer build, or the workspace deleted).
     */
    const follow = (agentRef: string, after = 0, options: FollowAgentLogsOptions = {}) =>
      Effect.map(agents.resolve(agentRef), (found): Stream.Stream<AgentLogRecord> => {
        const agentId = found.agent.id
        const over = Effect.map(agentRepo.isCurrent(agentId), (current) => !current)
        return followById({
          channel: agentLogsChannel(agentId),
          rowsSignal: AGENT_SIGNAL_LOGS,
          after,
          fallback: options.fallback ?? Duration.seconds(10),
          page: 500,
          read: (cursor, limit) => logs.list(agentId, cursor, undefined, limit),
          idOf: (line) => line.id,
          start: over,
          finished: over
        }).pipe(Stream.provideService(PubSub, pubsub))
      }).pipe(span("AgentLogs.follow"))

    return { addLogSource, append, batchCreate, list, follow } as const
  })
}) {}
