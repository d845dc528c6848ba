/**
 * The agent connection (`GET /workspaceagents/me/rpc`): JSON messages over a WebSocket, where the
 * described system speaks dRPC. Each message is a JSON object with a `type`; one with an `id` is a
 * request, answered by `{id, result}` or `{id, error: {message, detail}}`; one without is a
 * notification, answered only when it fails (`{id: null, error}`). Messages are handled one at a
 * time, in order. See docs/agents.md, "The agent connection".
 *
 * The connection's state: opening it sets the agent's `first_connected_at` (once) and
 * `last_connected_at`; while open, `last_connected_at` is refreshed every
 * AGENT_CONNECTION_UPDATE_SECONDS (a timer, not a write per message; written with the other
 * agents' refreshes at the next flush of the reports' batches, `ReportBatch.ts`); closing sets
 * `disconnected_at`. A connection that vanished without a close is found by the
 * {@link AgentConnectionMonitor}.
 */
import { Clock, Duration, Effect, Either, Layer, Option, ParseResult, Schema } from "effect"
import { addFinalizerInPlace, scopedInPlace } from "../ContextOverlay.js"
import type { BadRequest } from "../Errors.js"
import { lazily } from "../Lazily.js"
import { everyInterval } from "../Periodic.js"
import { PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { TickLock } from "../workspaces/Lifecycle.js"
import { AGENT_CONNECTION_UPDATE_SECONDS, AGENT_INACTIVE_DISCONNECT_SECONDS } from "../workspaces/WorkspaceWire.js"
import { CurrentAgent } from "./AgentAuth.js"
import { AgentLogs, BatchCreateLogs } from "./Logs.js"
import { AgentManifest, AgentManifests } from "./Manifest.js"
import { AgentReportBatch } from "./ReportBatch.js"
import { decodeMetadataUpdate, decodeStatsUpdate } from "./ReportDecoding.js"
import {
  AgentReportRepo,
  AgentReports,
  AppHealthUpdate,
  LifecycleUpdate,
  type ReportRefused,
  ScriptCompleted,
  StartupUpdate,
  STATS_RETENTION_HOURS
} from "./Reports.js"
import { AgentTaskLog, TaskLogAppend } from "./TaskLog.js"

/**
 * The two directions of an agent connection, as the transport gives them: `receive` for a session
 * that takes the messages itself (`serveAgentConnection`), none when the transport hands each
 * message to the handler `openAgentConnection` gives.
 */
export interface AgentChannel extends AgentChannelOut {
  /** The peer's next text message, in order; `undefined` once the connection closed. */
  readonly receive: Effect.Effect<string | undefined>
}

/** What an open agent connection needs of its transport besides the messages it is handed. */
export interface AgentChannelOut {
  /**
   * Takes a message that is not the protocol's (true), before the protocol sees it: the frames of
   * the app tunnel the same connection carries (`withAppTunnel`). Absent: every message is.
   */
  readonly intercept?: ((text: string) => boolean) | undefined
  /** Sends one text message; a closed connection drops it. */
  readonly send: (text: string) => Effect.Effect<void>
  /**
   * The round trip of the transport's next keep-alive ping in milliseconds; `undefined` once the
   * connection closed. Absent: the transport measures none (the agent shows no latency).
   */
  readonly nextRoundTrip?: Effect.Effect<number | undefined> | undefined
  /**
   * The round trip of the transport's latest answered ping, read at each refresh, so that no fiber
   * waits on every ping. Absent: a fiber follows `nextRoundTrip` for the later ones.
   */
  readonly latestRoundTrip?: (() => number | undefined) | undefined
  /**
   * Ends the connection because its agent was replaced: the transport closes it (with
   * `AGENT_REPLACED_REASON`) and `receive` answers `undefined` once the messages already
   * received were taken.
   */
  readonly closeReplaced: Effect.Effect<void>
}

/** An open agent connection (`openAgentConnection`). */
export interface OpenAgentConnection<R> {
  /** Answers one message of the peer (given in order, one at a time); none once the agent was replaced. */
  readonly handle: (text: string) => Effect.Effect<void, never, R>
  /** Whether the agent was replaced (its connection is then being closed). */
  readonly replaced: () => boolean
}

/** An error answer's body. */
export interface RpcError {
  readonly message: string
  readonly detail: string
}

/** The message types of the agent connection. */
export const agentMessageTypes = [
  "get_manifest",
  "update_lifecycle",
  "update_startup",
  "batch_update_metadata",
  "update_stats",
  "script_completed",
  "batch_update_app_health",
  "batch_create_logs",
  "append_task_log",
  "heartbeat",
  "ping"
] as const

const encodeManifest = lazily(() => Schema.encodeSync(AgentManifest))

/** A decoding failure as an error answer: one `path: message` per bad field. */
const invalid = (error: ParseResult.ParseError): RpcError => ({
  message: "Validation failed.",
  detail: ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => `${issue.path.length === 0 ? "(message)" : issue.path.join(".")}: ${issue.message}`)
    .join("; ")
})

const decoders = {
  update_lifecycle: lazily(() => Schema.decodeUnknownEither(LifecycleUpdate, { errors: "all" })),
  update_startup: lazily(() => Schema.decodeUnknownEither(StartupUpdate, { errors: "all" })),
  // The periodic reports, most of an agent's messages: without Schema's walk when valid (ReportDecoding.ts).
  batch_update_metadata: decodeMetadataUpdate,
  update_stats: decodeStatsUpdate,
  script_completed: lazily(() => Schema.decodeUnknownEither(ScriptCompleted, { errors: "all" })),
  batch_update_app_health: lazily(() => Schema.decodeUnknownEither(AppHealthUpdate, { errors: "all" })),
  batch_create_logs: lazily(() => Schema.decodeUnknownEither(BatchCreateLogs, { errors: "all" })),
  append_task_log: lazily(() => Schema.decodeUnknownEither(TaskLogAppend, { errors: "all" }))
}

/** What answering the agent connection's messages needs. */
export type AgentConnectionServices = CurrentAgent | AgentReports | AgentManifests | AgentLogs | AgentTaskLog

type Handled = Effect.Effect<unknown, RpcError, AgentConnectionServices>

/** A refused request (its validations as `field: detail`) as an error answer. */
const refusedAnswer = (e: BadRequest): RpcError => ({
  message: e.message,
  detail: e.validations === undefined || e.validations.length === 0
    ? (e.detail ?? "")
    : e.validations.map((v) => `${v.field}: ${v.detail}`).join("; ")
})

/** Decodes `message` with `decode` and applies it. */
const decoded = <A>(
  decode: (u: unknown) => Either.Either<A, ParseResult.ParseError>,
  message: unknown,
  apply: (reports: AgentReports, session: CurrentAgent["Type"], value: A) => Effect.Effect<unknown, ReportRefused>
): Handled =>
  Either.match(decode(message), {
    onLeft: (e) => Effect.fail(invalid(e)),
    onRight: (value) =>
      Effect.gen(function*() {
        const reports = yield* AgentReports
        const session = yield* CurrentAgent
        return yield* Effect.mapError(
          apply(reports, session, value),
          (e): RpcError => ({ message: e.message, detail: e.detail })
        )
      })
  })

/**
 * The fields of a message wrapped as the described system's requests wrap them
 * (`update_lifecycle {lifecycle: {...}}`, `update_startup {startup: {...}}`,
 * `script_completed {timing: {...}}`): both forms are accepted, the flat one documented.
 */
const wrappers: Readonly<Record<string, string>> = {
  update_lifecycle: "lifecycle",
  update_startup: "startup",
  script_completed: "timing"
}

const unwrap = (type: string, message: unknown): unknown => {
  const key = wrappers[type]
  if (key === undefined || message === null || typeof message !== "object") return message
  const inner = (message as Record<string, unknown>)[key]
  return inner !== null && typeof inner === "object" && !Array.isArray(inner) ? inner : message
}

/** The answer (result) of one message, or its error. */
export const handleAgentMessage = (type: string, raw: unknown): Handled => {
  const message = unwrap(type, raw)
  switch (type) {
    case "get_manifest":
      return Effect.flatMap(AgentManifests, (m) => Effect.map(m.manifest, encodeManifest))
    case "update_lifecycle":
      return decoded(decoders.update_lifecycle, message, (r, s, v) => r.updateLifecycle(s, v))
    case "update_startup":
      return decoded(decoders.update_startup, message, (r, s, v) => r.updateStartup(s, v))
    case "batch_update_metadata":
      return decoded(decoders.batch_update_metadata, message, (r, s, v) => r.batchUpdateMetadata(s, v))
    case "update_stats":
      return decoded(decoders.update_stats, message, (r, s, v) => r.updateStats(s, v))
    case "script_completed":
      return decoded(decoders.script_completed, message, (r, s, v) => r.scriptCompleted(s, v))
    case "batch_update_app_health":
      return decoded(decoders.batch_update_app_health, message, (r, s, v) => r.batchUpdateAppHealth(s, v))
    case "batch_create_logs":
      return Either.match(decoders.batch_create_logs(message), {
        onLeft: (e) => Effect.fail(invalid(e)),
        onRight: (batch) => Effect.flatMap(AgentLogs, (l) => Effect.mapError(l.batchCreate(batch), refusedAnswer))
      })
    case "append_task_log":
      return Either.match(decoders.append_task_log(message), {
        onLeft: (e) => Effect.fail(invalid(e)),
        onRight: (value) =>
          Effect.flatMap(
            Effect.all([AgentTaskLog, CurrentAgent]),
            ([conversation, session]) => conversation.append(session, value)
          )
      })
    case "heartbeat":
    case "ping":
      // The connection's liveness is kept by its timer and the transport's pings: nothing to write.
      return Effect.succeed({})
    default:
      return Effect.fail({
        message: "Unknown message type.",
        detail: `The type "${type.slice(0, 64)}" is not one of ${agentMessageTypes.join(", ")}.`
      })
  }
}

type Id = string | number | null

/** The answer to one text message, or nothing (a notification that succeeded). */
export const answerAgentText = (text: string): Effect.Effect<string | undefined, never, AgentConnectionServices> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    return Effect.succeed(
      errorAnswer(null, { message: "The message is not JSON.", detail: String((e as Error).message) })
    )
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return Effect.succeed(
      errorAnswer(null, { message: "A message is a JSON object.", detail: "The message is not a JSON object." })
    )
  }
  const message = parsed as Record<string, unknown>
  const rawId = message.id
  const hasId = rawId !== undefined && rawId !== null
  if (hasId && typeof rawId !== "string" && typeof rawId !== "number") {
    return Effect.succeed(
      errorAnswer(null, { message: "Validation failed.", detail: "id: An id is a string or a number." })
    )
  }
  const id: Id = hasId ? (rawId as string | number) : null
  if (typeof message.type !== "string") {
    return Effect.succeed(
      errorAnswer(id, { message: "Validation failed.", detail: "type: A message has a string type." })
    )
  }
  return handleAgentMessage(message.type, message).pipe(
    Effect.match({
      onFailure: (error) => errorAnswer(id, error),
      onSuccess: (result) => (hasId ? JSON.stringify({ id, result }) : undefined)
    }),
    // A defect is the service's fault, not the agent's: answered, logged, and the connection kept.
    Effect.catchAllDefect((defect) =>
      Effect.as(
        Effect.logError("an agent message failed", defect),
        errorAnswer(id, {
          message: "An internal error occurred.",
          detail: "The report was not stored; send it again later."
        })
      )
    )
  )
}

const errorAnswer = (id: Id, error: RpcError): string => JSON.stringify({ id, error })

/**
 * Opens one agent connection for the life of the scope: marks the agent connected, refreshes it
 * every AGENT_CONNECTION_UPDATE_SECONDS, and marks it disconnected when the scope closes (however it
 * closes); gives what answers each message. Once the agent's token stops working (a newer build
 * replaced the agent, or its workspace was deleted) the connection is closed ("replaced") and no
 * message is answered. A transport that hands each message over needs no fiber between messages.
 */
export const openAgentConnection = (channel: AgentChannelOut) =>
  Effect.gen(function*() {
    const reports = yield* AgentReports
    const session = yield* CurrentAgent
    // Task input sent to this agent (from any replica) goes out as `task_input` notifications;
    // subscribed before the agent counts as connected, so no input accepted for it is missed.
    yield* Effect.flatMap(AgentTaskLog, (c) => c.forward(session, channel.send))
    yield* reports.connected(session)
    // Added first of what follows, so run last: once nothing refreshes the connection any more.
    yield* addFinalizerInPlace(() => reports.disconnected(session))
    // The latest round trip (the agent's latency, docs/agents.md): the first one written at once, the
    // others with each refresh.
    let latencyMs: number | undefined
    const nextRoundTrip = channel.nextRoundTrip
    const latestRoundTrip = channel.latestRoundTrip
    if (nextRoundTrip !== undefined) {
      // With `latestRoundTrip` this fiber ends at the first round trip; the refreshes read the latest.
      yield* Effect.gen(function*() {
        while (true) {
          const ms = yield* nextRoundTrip
          if (ms === undefined) return
          const first = latencyMs === undefined
          latencyMs = ms
          if (first) yield* reports.measured(session, ms)
          if (latestRoundTrip !== undefined) return
        }
      }).pipe(Effect.forkScoped)
    }
    yield* reports.keepRefreshed(session, () => latestRoundTrip?.() ?? latencyMs)
    // The replacement (the agent's build replaced or its workspace deleted: its token stops working)
    // closes the connection, which ends the messages: no fiber of its own per connection.
    const replaced = yield* reports.closeWhenReplaced(session, channel.closeReplaced)
    const intercept = channel.intercept
    const handle = (text: string) =>
      replaced() || intercept?.(text) === true ? Effect.void : Effect.flatMap(
        answerAgentText(text),
        (answer) => answer === undefined ? Effect.void : channel.send(answer)
      )
    const open: OpenAgentConnection<Effect.Effect.Context<ReturnType<typeof answerAgentText>>> = { handle, replaced }
    return open
  }).pipe(span("AgentConnection.open"))

/**
 * Serves one agent connection until its incoming messages end (`openAgentConnection`, with a
 * fiber that takes the messages): "replaced" once the agent's token stopped working, else "closed"
 * when the peer's messages end.
 */
export const serveAgentConnection = (channel: AgentChannel) =>
  Effect.gen(function*() {
    const open = yield* openAgentConnection(channel)
    // A plain receive loop (a Stream's pull machinery cost about a tenth of a batch's CPU).
    while (!open.replaced()) {
      const text = yield* channel.receive
      if (text === undefined) break
      yield* open.handle(text)
    }
    const outcome: "replaced" | "closed" = open.replaced() ? "replaced" : "closed"
    return outcome
  }).pipe(scopedInPlace, span("AgentConnection.serve"))

// The monitor of vanished connections.

/** The lock key of the monitor's sweep. */
export const AGENT_MONITOR_LOCK = "workbay:agent-connection-monitor"

/** How many overdue agents one sweep marks, and how many old stats reports it deletes, at most. */
export const AGENT_MONITOR_BATCH = 1000

/** What one sweep did. */
export interface AgentSweep {
  /** False when another replica was sweeping. */
  readonly ran: boolean
  /** The agents marked disconnected. */
  readonly disconnected: ReadonlyArray<string>
  /** Stats reports deleted (past their retention). */
  readonly purgedStats: number
}

/**
 * Finds agents whose connection vanished without a close (their `last_connected_at` is older than
 * AGENT_INACTIVE_DISCONNECT_SECONDS while they count as open) and marks them disconnected, and
 * deletes stats reports past their retention. One replica sweeps at a time (the `TickLock`); each
 * update re-checks its condition, so a sweep that overlaps a refresh never marks a live agent.
 * A sweep first writes this replica's kept refreshes; other replicas' are at most one flush
 * interval (1 s) old, far inside the 30 s.
 */
export class AgentConnectionMonitor
  extends Effect.Service<AgentConnectionMonitor>()("@workbay/core/AgentConnectionMonitor", {
    effect: Effect.gen(function*() {
      const repo = yield* AgentReportRepo
      const lock = yield* TickLock
      const pubsub = yield* PubSub
      const batch = yield* AgentReportBatch

      const sweepOnce = (now: Date) =>
        Effect.gen(function*() {
          const overdue = yield* repo.disconnectOverdue(
            new Date(now.getTime() - AGENT_INACTIVE_DISCONNECT_SECONDS * 1000),
            now,
            AGENT_MONITOR_BATCH
          )
          for (const workspaceId of new Set(overdue.map((o) => o.workspace_id))) {
            yield* Effect.provideService(publishWorkspaceChange(workspaceId), PubSub, pubsub)
          }
          const purgedStats = yield* repo.purgeStats(
            new Date(now.getTime() - STATS_RETENTION_HOURS * 3_600_000),
            AGENT_MONITOR_BATCH
          )
          return { ran: true, disconnected: overdue.map((o) => o.agent_id), purgedStats } satisfies AgentSweep
        })

      const sweep = Effect.gen(function*() {
        // This replica's refreshes not yet written go first: a live agent is never swept for a refresh in a buffer.
        yield* batch.flush
        const now = new Date(yield* Clock.currentTimeMillis)
        const result = yield* lock.withTryLock(AGENT_MONITOR_LOCK, sweepOnce(now))
        return Option.getOrElse(result, (): AgentSweep => ({ ran: false, disconnected: [], purgedStats: 0 }))
      }).pipe(Effect.withSpan("AgentConnectionMonitor.sweep"))

      /** Sweeps forever, `interval` apart (fork it). */
      const run = (interval: Duration.DurationInput = Duration.seconds(AGENT_CONNECTION_UPDATE_SECONDS)) =>
        everyInterval(sweep, interval, "agent connection sweep")

      return { sweep, run } as const
    })
  })
{}

/** Options of the agent connection monitor's background work. */
export interface AgentMonitorOptions {
  /** Time between sweeps. Default AGENT_CONNECTION_UPDATE_SECONDS. */
  readonly interval?: Duration.DurationInput | undefined
}

/** A layer whose fiber sweeps every `interval` until its scope closes. */
export const agentConnectionMonitorPeriodic = (
  options: AgentMonitorOptions = {}
): Layer.Layer<never, never, AgentConnectionMonitor> =>
  Layer.scopedDiscard(Effect.flatMap(AgentConnectionMonitor, (m) => Effect.forkScoped(m.run(options.interval))))
