/**
 * What an agent reports about itself (the described system's agent API: lifecycle, startup,
 * metadata, stats, script completions) and where it is stored. Reports are not user actions: they
 * are not audited. Each request schema here is a message of the agent connection
 * (docs/agents.md, "The agent connection"); the service applies one to the agent of the session.
 */
import { Clock, Context, Duration, Effect, Exit, Fiber, Option, Schema, Scope } from "effect"
import { acquireReleaseInPlace, extendInPlace } from "../ContextOverlay.js"
import { ThisReplica } from "../enterprise/Replicas.js"
import { onSignals, PubSub } from "../PubSub.js"
import { Slots } from "../Slots.js"
import { span } from "../Tracing.js"
import { publishWorkspaceChange, workspaceChannel } from "../WorkspaceChannel.js"
import type { AgentScriptResult } from "../workspaces/WorkspaceBuild.js"
import { AGENT_CONNECTION_UPDATE_SECONDS } from "../workspaces/WorkspaceWire.js"
import { AgentRepo, makeClaimInProgress } from "./Agent.js"
import type { AgentSession } from "./AgentAuth.js"

// Requests (the bodies of the agent connection's messages).

export const lifecycleStates = [
  "created",
  "starting",
  "start_timeout",
  "start_error",
  "ready",
  "shutting_down",
  "shutdown_timeout",
  "shutdown_error",
  "off"
] as const
export type LifecycleState = typeof lifecycleStates[number]

const Text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `At most ${max} characters.` }))
// Bounded so that every value fits the columns of both dialects (BIGINT, TIMESTAMPTZ).
const Count = Schema.Int.pipe(
  Schema.between(0, Number.MAX_SAFE_INTEGER, { message: () => "A count is a non-negative integer (at most 2^53 - 1)." })
)
/** A time an agent reports: an RFC 3339 date-time of the years 1 to 9999 (what both dialects' columns hold). */
export const ReportTime = Schema.Date.pipe(
  Schema.filter((d) => d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999)
).annotations({
  message: () => ({ message: "A time is an RFC 3339 date-time of the years 1 to 9999.", override: true })
})
const Time = ReportTime

/** `update_lifecycle`: the agent's lifecycle state, and when it changed (default: when received). */
export class LifecycleUpdate extends Schema.Class<LifecycleUpdate>("LifecycleUpdate")({
  state: Schema.Literal(...lifecycleStates).annotations({
    message: () => ({ message: `The state is one of ${lifecycleStates.join(", ")}.`, override: true })
  }),
  changed_at: Schema.optional(Time)
}) {}

/** `update_startup`: what the agent found at start-up. */
export class StartupUpdate extends Schema.Class<StartupUpdate>("StartupUpdate")({
  version: Text(128),
  expanded_directory: Schema.optionalWith(Text(4096), { default: () => "" }),
  subsystems: Schema.optionalWith(
    Schema.Array(Schema.Literal("envbox", "envbuilder", "exectrace")).pipe(Schema.maxItems(8)),
    { default: () => [] }
  )
}) {}

/** The most bytes of a metadata value or error kept (the described system's limit); more is cut, with an error saying so. */
export const MAX_METADATA_VALUE_BYTES = 2048
/** The most metadata keys an agent may hold. */
export const MAX_METADATA_KEYS = 128
/** The longest metadata key, and the longest value or error a report may carry (cut to MAX_METADATA_VALUE_BYTES when kept). */
export const MAX_METADATA_KEY_LENGTH = 128
export const MAX_METADATA_REPORTED_LENGTH = 64 * 1024

const MetadataItem = Schema.Struct({
  key: Text(MAX_METADATA_KEY_LENGTH).pipe(Schema.minLength(1, { message: () => "A metadata key is required." })),
  result: Schema.Struct({
    collected_at: Time,
    age: Schema.optionalWith(Count, { default: () => 0 }),
    value: Schema.optionalWith(Text(MAX_METADATA_REPORTED_LENGTH), { default: () => "" }),
    error: Schema.optionalWith(Text(MAX_METADATA_REPORTED_LENGTH), { default: () => "" })
  })
})

/** `batch_update_metadata`: values of the agent's metadata, by key. */
export class MetadataUpdate extends Schema.Class<MetadataUpdate>("MetadataUpdate")({
  metadata: Schema.Array(MetadataItem).pipe(
    Schema.maxItems(MAX_METADATA_KEYS, { message: () => `At most ${MAX_METADATA_KEYS} items.` })
  )
}) {}

/** The most protocols a stats report counts connections of, and the longest protocol name. */
export const MAX_STATS_PROTOCOLS = 32
export const MAX_STATS_PROTOCOL_LENGTH = 64

const StatsBody = Schema.Struct({
  connections_by_proto: Schema.optionalWith(
    Schema.Record({ key: Text(MAX_STATS_PROTOCOL_LENGTH), value: Count }).pipe(
      Schema.filter((r) => Object.keys(r).length <= MAX_STATS_PROTOCOLS || `At most ${MAX_STATS_PROTOCOLS} protocols.`)
    ),
    { default: () => ({}) }
  ),
  connection_count: Schema.optionalWith(Count, { default: () => 0 }),
  connection_median_latency_ms: Schema.optionalWith(Schema.Number.pipe(Schema.finite(), Schema.nonNegative()), {
    default: () => 0
  }),
  rx_packets: Schema.optionalWith(Count, { default: () => 0 }),
  rx_bytes: Schema.optionalWith(Count, { default: () => 0 }),
  tx_packets: Schema.optionalWith(Count, { default: () => 0 }),
  tx_bytes: Schema.optionalWith(Count, { default: () => 0 }),
  session_count_vscode: Schema.optionalWith(Count, { default: () => 0 }),
  session_count_jetbrains: Schema.optionalWith(Count, { default: () => 0 }),
  session_count_reconnecting_pty: Schema.optionalWith(Count, { default: () => 0 }),
  session_count_ssh: Schema.optionalWith(Count, { default: () => 0 })
})
export type AgentStats = typeof StatsBody.Type

/** `update_stats`: the agent's usage since its previous report. */
export class StatsUpdate extends Schema.Class<StatsUpdate>("StatsUpdate")({ stats: StatsBody }) {}

/** How often agents are asked to report their stats (the described system's `agent_stat_refresh_interval` default). */
export const STATS_REPORT_INTERVAL_SECONDS = 30

/** How long stats reports are kept; the connection monitor deletes older ones. */
export const STATS_RETENTION_HOURS = 24

/** `batch_update_app_health`: the health of the agent's apps, as its health checks found it. */
export class AppHealthUpdate extends Schema.Class<AppHealthUpdate>("AppHealthUpdate")({
  updates: Schema.Array(Schema.Struct({
    id: Schema.UUID.annotations({ message: () => ({ message: "An app id is a UUID.", override: true }) }),
    health: Schema.Literal("initializing", "healthy", "unhealthy")
  })).pipe(Schema.maxItems(128))
}) {}

/** `script_completed`: how a run of one of the agent's scripts ended. */
export class ScriptCompleted extends Schema.Class<ScriptCompleted>("ScriptCompleted")({
  script_id: Schema.UUID.annotations({ message: () => ({ message: "The script id is a UUID.", override: true }) }),
  started_at: Time,
  ended_at: Time,
  exit_code: Schema.Int.pipe(
    Schema.between(-(2 ** 31), 2 ** 32 - 1, { message: () => "An exit code is a 32-bit integer." })
  ),
  stage: Schema.optional(Schema.Literal("start", "stop", "cron")),
  /** When left out: `timed_out` when `timeout`, else `exit_failure` for a non-zero exit code, else `ok`. */
  status: Schema.optional(Schema.Literal("ok", "exit_failure", "timed_out", "pipes_left_open")),
  timeout: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

// Storage.

/** A stored metadata value of an agent. */
export interface AgentMetadataRecord {
  readonly key: string
  readonly value: string
  readonly error: string
  readonly collected_at: Date
  readonly age: number
}

/** The stats the deployment stats read: sums over a window and the latest report of each agent in it. */
export interface AgentStatsSummary {
  readonly rx_bytes: number
  readonly tx_bytes: number
  /** Connection median latencies (ms) of the window's reports that measured one. */
  readonly latencies: ReadonlyArray<number>
  readonly session_count_vscode: number
  readonly session_count_jetbrains: number
  readonly session_count_reconnecting_pty: number
  readonly session_count_ssh: number
}

/** A stats report as written: whose, when it was received. */
export interface AgentStatsRow {
  readonly agent_id: string
  readonly workspace_id: string
  readonly stats: AgentStats
  readonly created_at: Date
}

/** A metadata value as written: whose. */
export interface AgentMetadataRow extends AgentMetadataRecord {
  readonly agent_id: string
}

/** A refresh of an open connection as written: the agent, when, the replica holding it, its round trip (µs; null: not measured). */
export interface AgentRefreshRow {
  readonly agent_id: string
  readonly at: Date
  readonly replica_id: string
  readonly latency_us: number | null
}

/** An agent whose open connection stopped refreshing, as the monitor marked it. */
export interface OverdueAgent {
  readonly agent_id: string
  readonly workspace_id: string
}

export class AgentReportRepo extends Context.Tag("@workbay/core/AgentReportRepo")<AgentReportRepo, {
  /** The connection opened on replica `replicaId`: `first_connected_at` (once), `last_connected_at`, open, held there. */
  readonly connect: (agentId: string, now: Date, replicaId: string) => Effect.Effect<void>
  /**
   * These open connections are alive (one statement): each agent's `last_connected_at`, open, held
   * by the row's replica, with its latest round trip. A refresh older than the agent's
   * `disconnected_at` or `last_connected_at` changes nothing (it was taken before a close or a
   * newer connection, and written after); so is a row of an unknown agent.
   */
  readonly refreshMany: (rows: ReadonlyArray<AgentRefreshRow>) => Effect.Effect<void>
  /** The open connection's round trip in microseconds, alone (its first measurement). */
  readonly setLatency: (agentId: string, latencyMicros: number) => Effect.Effect<void>
  /** The connection closed: `disconnected_at`, not open, no latency. */
  readonly disconnect: (agentId: string, now: Date) => Effect.Effect<void>
  /** Marks disconnected (at `now`) at most `limit` open agents not refreshed since `before`. */
  readonly disconnectOverdue: (before: Date, now: Date, limit: number) => Effect.Effect<ReadonlyArray<OverdueAgent>>
  readonly setLifecycle: (
    agentId: string,
    state: LifecycleState,
    startedAt: Date | undefined,
    readyAt: Date | undefined,
    now: Date
  ) => Effect.Effect<void>
  readonly setStartup: (agentId: string, update: StartupUpdate, now: Date) => Effect.Effect<void>
  readonly setScriptResult: (
    agentId: string,
    scriptId: string,
    result: AgentScriptResult,
    now: Date
  ) => Effect.Effect<void>
  /** Sets the health of these apps (by id), keeping the others'. */
  readonly setAppHealth: (agentId: string, health: Readonly<Record<string, string>>, now: Date) => Effect.Effect<void>
  readonly listMetadata: (agentId: string) => Effect.Effect<ReadonlyArray<AgentMetadataRecord>>
  /** Inserts or replaces these values, by agent and key (one statement; at most one row per agent and key). */
  readonly putMetadataMany: (rows: ReadonlyArray<AgentMetadataRow>) => Effect.Effect<void>
  /** Stores one stats report. */
  readonly insertStats: (agentId: string, workspaceId: string, stats: AgentStats, now: Date) => Effect.Effect<void>
  /** Stores these stats reports (one statement). */
  readonly insertStatsMany: (rows: ReadonlyArray<AgentStatsRow>) => Effect.Effect<void>
  /** The stats reported after `since`. */
  readonly statsSince: (since: Date) => Effect.Effect<AgentStatsSummary>
  /** Deletes at most `limit` stats reports made before `before`; answers how many. */
  readonly purgeStats: (before: Date, limit: number) => Effect.Effect<number>
}>() {}

/**
 * Where the frequent reports go: stats reports, metadata values and the refreshes of open
 * connections are kept and written in batches (`ReportBatch.ts`, docs/agents.md "Batched
 * reports"). Keeping one never waits on the database unless no flusher runs.
 */
export class AgentReportBuffer extends Context.Tag("@workbay/core/AgentReportBuffer")<AgentReportBuffer, {
  readonly addStats: (agentId: string, workspaceId: string, stats: AgentStats, at: Date) => Effect.Effect<void>
  /** Values of an agent's keys: the last one of each key wins. */
  readonly addMetadata: (agentId: string, items: ReadonlyArray<AgentMetadataRecord>) => Effect.Effect<void>
  /** A refresh of the agent's open connection: its latest replaces one not yet written. */
  readonly addRefresh: (row: AgentRefreshRow) => Effect.Effect<void>
  /** The agent's connection closed here: a refresh not yet written is dropped (it would reopen it). */
  readonly forget: (agentId: string) => Effect.Effect<void>
  /** The agent's metadata values kept here and not yet written. */
  readonly pendingMetadata: (agentId: string) => ReadonlyArray<AgentMetadataRecord>
}>() {}

// The rules.

/** The status of a completed script: the reported one, else from its timeout and exit code. */
export const scriptStatus = (r: ScriptCompleted): AgentScriptResult["status"] =>
  r.status ?? (r.timeout ? "timed_out" : r.exit_code !== 0 ? "exit_failure" : "ok")

/**
 * The times a lifecycle state sets (the described system's rule): entering `starting` sets
 * `started_at`; entering `ready`, `start_timeout` or `start_error` sets `ready_at`.
 */
export const lifecycleTimes = (state: LifecycleState, at: Date): { started_at?: Date; ready_at?: Date } =>
  state === "starting"
    ? { started_at: at }
    : state === "ready" || state === "start_timeout" || state === "start_error"
    ? { ready_at: at }
    : {}

/** A value cut to `max` UTF-8 bytes (never inside a character). */
const cut = (text: string, max: number): string => {
  const bytes = Buffer.from(text, "utf8")
  return bytes.length <= max ? text : bytes.subarray(0, max).toString("utf8").replace(/\uFFFD+$/, "")
}

/** One metadata value as stored: too long a value or error is cut, and the error says so. */
export const metadataRecord = (item: MetadataUpdate["metadata"][number]): AgentMetadataRecord => {
  const { result } = item
  const valueBytes = Buffer.byteLength(result.value, "utf8")
  let error = result.error
  if (valueBytes > MAX_METADATA_VALUE_BYTES) {
    error = `value of ${valueBytes} bytes exceeded ${MAX_METADATA_VALUE_BYTES} bytes` +
      (error === "" ? "" : `; ${error}`)
  }
  return {
    key: item.key,
    value: cut(result.value, MAX_METADATA_VALUE_BYTES),
    error: cut(error, MAX_METADATA_VALUE_BYTES),
    collected_at: result.collected_at,
    age: result.age
  }
}

/** A report the service refused: answered as the request's error. */
export class ReportRefused extends Schema.TaggedError<ReportRefused>()("ReportRefused", {
  message: Schema.String,
  detail: Schema.String
}) {}

/** A connection refreshed by `AgentReports.keepRefreshed`. */
interface OpenConnection {
  readonly session: AgentSession
  readonly latencyMs: () => number | undefined
  /** Closed while its slot was being refreshed: not refreshed again. */
  closed: boolean
}

/** A connection watching for its agent's replacement (`AgentReports.closeWhenReplaced`). */
interface Watcher {
  readonly session: AgentSession
  readonly onReplaced: Effect.Effect<void>
  /** Heard it (or left): `onReplaced` runs at most once. */
  told: boolean
}

/** The connections of one workspace's agents watching for a replacement here, and the scope that follows its signals. */
interface WorkspaceWatch {
  readonly sessions: Set<Watcher>
  readonly scope: Scope.CloseableScope
}

/** The close reason of an agent's connection (rpc, coordination) once its token stopped working. */
export const AGENT_REPLACED_REASON =
  "The agent was replaced by a newer build, its workspace was deleted, or its token was replaced by a new one."

export class AgentReports extends Effect.Service<AgentReports>()("@workbay/core/AgentReports", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentReportRepo
    const replica = yield* ThisReplica
    const agents = yield* AgentRepo
    const claimInProgress = yield* makeClaimInProgress
    const pubsub = yield* PubSub
    const buffer = yield* AgentReportBuffer
    /**
     * The metadata keys each agent holds, stored or kept, for the 128-key rule without a read per
     * report: read once at the agent's first metadata report here, then grown with each accepted
     * key (keys are never removed); dropped when the agent's connection here closes.
     */
    const heldKeys = new Map<string, Set<string>>()
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const changed = (session: AgentSession) =>
      Effect.provideService(publishWorkspaceChange(session.workspace.id), PubSub, pubsub)

    const connected = (session: AgentSession) =>
      Effect.gen(function*() {
        yield* repo.connect(session.agent.id, yield* now, replica.id)
        yield* changed(session)
      }).pipe(span("AgentReports.connected"))

    /** The connection is alive, with its latest round trip in milliseconds (undefined: not measured). */
    const micros = (ms: number) => Math.round(ms * 1000)
    const refresh = (session: AgentSession, latencyMs?: number | undefined) =>
      Effect.flatMap(now, (at) =>
        buffer.addRefresh({
          agent_id: session.agent.id,
          at,
          replica_id: replica.id,
          latency_us: latencyMs === undefined ? null : micros(latencyMs)
        })).pipe(span("AgentReports.refresh"))

    /**
     * The open connections refreshed here, and the one fiber that refreshes them every
     * AGENT_CONNECTION_UPDATE_SECONDS while there is any (a timer fiber each cost memory per agent).
     * The connections are spread over slots, one slot refreshed per tick (Slots.ts): thousands of
     * refreshes at once, every period, held up every other answer of the replica.
     */
    const open = new Slots<OpenConnection>()
    let refresher: Fiber.RuntimeFiber<void> | undefined
    const refreshAll = Effect.suspend(() =>
      Effect.forEach(open.advance(), (c) => c.closed ? Effect.void : refresh(c.session, c.latencyMs()), {
        discard: true
      })
    ).pipe(
      Effect.delay(Duration.millis(AGENT_CONNECTION_UPDATE_SECONDS * 1000 / open.count)),
      Effect.forever
    )

    /**
     * Refreshes the connection of `session` (its `last_connected_at`, and its latency as
     * `latencyMs` tells it then) every AGENT_CONNECTION_UPDATE_SECONDS for the life of the scope, on
     * the fiber shared by the open connections of this replica (started by the first, stopped
     * with the last): a connection is refreshed at most that long after it opened, then that often.
     */
    const keepRefreshed = (session: AgentSession, latencyMs: () => number | undefined) =>
      acquireReleaseInPlace(
        Effect.gen(function*() {
          const c: OpenConnection = { session, latencyMs, closed: false }
          const slot = open.add(c)
          // A daemon: it outlives the connection that started it while others are open.
          if (refresher === undefined) refresher = yield* Effect.forkDaemon(Effect.interruptible(refreshAll))
          return { c, slot }
        }),
        ({ c, slot }) =>
          Effect.suspend(() => {
            c.closed = true
            open.delete(c, slot)
            if (open.size > 0 || refresher === undefined) return Effect.void
            const fiber = refresher
            refresher = undefined
            return Fiber.interruptFork(fiber)
          })
      ).pipe(Effect.asVoid)

    /** The connection's first round trip: written at once, and watchers told (the latency shows without waiting a period). */
    const measured = (session: AgentSession, latencyMs: number) =>
      Effect.zipRight(repo.setLatency(session.agent.id, micros(latencyMs)), changed(session)).pipe(
        span("AgentReports.measured")
      )

    const disconnected = (session: AgentSession) =>
      Effect.gen(function*() {
        yield* buffer.forget(session.agent.id)
        heldKeys.delete(session.agent.id)
        yield* repo.disconnect(session.agent.id, yield* now)
        yield* changed(session)
      }).pipe(span("AgentReports.disconnected"))

    const updateLifecycle = (session: AgentSession, update: LifecycleUpdate) =>
      Effect.gen(function*() {
        const at = yield* now
        const changedAt = update.changed_at ?? at
        const times = lifecycleTimes(update.state, changedAt)
        yield* repo.setLifecycle(session.agent.id, update.state, times.started_at, times.ready_at, at)
        yield* changed(session)
        return { state: update.state, changed_at: changedAt.toISOString() }
      }).pipe(span("AgentReports.updateLifecycle"))

    const updateStartup = (session: AgentSession, update: StartupUpdate) =>
      Effect.gen(function*() {
        yield* repo.setStartup(session.agent.id, update, yield* now)
        yield* changed(session)
        return { version: update.version, expanded_directory: update.expanded_directory, subsystems: update.subsystems }
      }).pipe(span("AgentReports.updateStartup"))

    const batchUpdateMetadata = (session: AgentSession, update: MetadataUpdate) =>
      Effect.gen(function*() {
        const agentId = session.agent.id
        const items = [...new Map(update.metadata.map((m) => [m.key, metadataRecord(m)] as const)).values()]
        let held = heldKeys.get(agentId)
        if (held === undefined) {
          const stored = yield* repo.listMetadata(agentId)
          // Another report of the agent may have seeded it meanwhile.
          held = heldKeys.get(agentId) ?? new Set([...stored, ...buffer.pendingMetadata(agentId)].map((m) => m.key))
          heldKeys.set(agentId, held)
        }
        const added = items.filter((m) => !held.has(m.key)).length
        if (held.size + added > MAX_METADATA_KEYS) {
          return yield* new ReportRefused({
            message: "Too many metadata keys.",
            detail:
              `An agent may hold at most ${MAX_METADATA_KEYS} metadata keys; it holds ${held.size} and this adds ${added}.`
          })
        }
        for (const m of items) held.add(m.key)
        // Written with the next flush; watchers are told then.
        yield* buffer.addMetadata(agentId, items)
        return {}
      }).pipe(span("AgentReports.batchUpdateMetadata"))

    const updateStats = (session: AgentSession, update: StatsUpdate) =>
      Effect.gen(function*() {
        // Written with the next flush, which also bumps the workspace when sessions are open.
        yield* buffer.addStats(session.agent.id, session.workspace.id, update.stats, yield* now)
        return { report_interval_seconds: STATS_REPORT_INTERVAL_SECONDS }
      }).pipe(span("AgentReports.updateStats"))

    const scriptCompleted = (session: AgentSession, report: ScriptCompleted) =>
      Effect.gen(function*() {
        const scriptId = report.script_id.toLowerCase()
        if (!session.agent.scripts.some((s) => s.id === scriptId)) {
          return yield* new ReportRefused({
            message: "Unknown script.",
            detail: `The agent has no script with id ${scriptId}.`
          })
        }
        const result: AgentScriptResult = {
          status: scriptStatus(report),
          exit_code: report.exit_code,
          started_at: report.started_at.toISOString(),
          ended_at: report.ended_at.toISOString(),
          ...(report.stage === undefined ? {} : { stage: report.stage })
        }
        yield* repo.setScriptResult(session.agent.id, scriptId, result, yield* now)
        yield* changed(session)
        return {}
      }).pipe(span("AgentReports.scriptCompleted"))

    /** The agent's metadata values by key: the stored ones, with those kept here and not yet written over them. */
    const metadata = (agentId: string) =>
      Effect.map(repo.listMetadata(agentId), (stored) => {
        const pending = buffer.pendingMetadata(agentId)
        if (pending.length === 0) return stored
        const byKey = new Map(stored.map((m) => [m.key, m] as const))
        for (const m of pending) byKey.set(m.key, m)
        return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      })

    const batchUpdateAppHealth = (session: AgentSession, update: AppHealthUpdate) =>
      Effect.gen(function*() {
        const checked = new Set(
          session.agent.apps.filter((a) => a.healthcheck !== undefined && a.healthcheck.url !== "").map((a) => a.id)
        )
        const unknown = update.updates.find((u) => !checked.has(u.id.toLowerCase()))
        if (unknown !== undefined) {
          return yield* new ReportRefused({
            message: "Unknown app.",
            detail: `The agent has no app with a health check and the id ${unknown.id}.`
          })
        }
        if (update.updates.length === 0) return {}
        yield* repo.setAppHealth(
          session.agent.id,
          Object.fromEntries(update.updates.map((u) => [u.id.toLowerCase(), u.health])),
          yield* now
        )
        yield* changed(session)
        return {}
      }).pipe(span("AgentReports.batchUpdateAppHealth"))

    /**
     * Whether the agent's token no longer works: its workspace was deleted, a newer build replaced
     * it, or its token was rotated (a new one minted by an instance identity exchange, or by the credentials route for an agent that kept none).
     */
    const replaced = (session: AgentSession) =>
      Effect.gen(function*() {
        if (yield* agents.isCurrent(session.agent.id, session.agent.auth_token_hash)) return false
        // A prebuilt workspace being claimed: its agent runs on until the claim's build takes it over.
        const found = yield* agents.findById(session.agent.id)
        return Option.isNone(found) || found.value.agent.auth_token_hash !== session.agent.auth_token_hash ||
          !(yield* claimInProgress(found.value))
      })

    /**
     * The sessions waiting to hear that their agent was replaced, by workspace: one listener on the
     * workspace's change signals here per workspace, however many connections its agents hold, and
     * no fiber between signals (an agent's agent connection and coordination connection used to race
     * a fiber and a subscription each for as long as they lived).
     */
    const watched = new Map<string, WorkspaceWatch>()
    // The checks run on the service's runtime (one for every workspace watched).
    const runtime = yield* Effect.runtime<never>()

    /** Whether `w`'s agent was replaced; when so, `w` leaves the watch and hears it, once. */
    const check = (w: Watcher) =>
      Effect.flatMap(replaced(w.session), (gone) => {
        if (!gone || w.told) return Effect.void
        w.told = true
        watched.get(w.session.workspace.id)?.sessions.delete(w)
        return w.onReplaced
      })

    /** Checks each session watching `workspaceId`'s agents. */
    const checkAll = (workspaceId: string) =>
      Effect.suspend(() => {
        const sessions = watched.get(workspaceId)?.sessions
        return sessions === undefined ? Effect.void : Effect.forEach([...sessions], check, { discard: true })
      })

    /**
     * Runs `onReplaced` once the agent's token stops working (a newer build, its workspace deleted,
     * its token rotated), for the life of the scope: checked when this completes (the workspace's
     * signals are followed first, so a change in between is not missed) and after each burst of the
     * workspace's change signals (a rotation signals too). No fiber waits between signals
     * (`onSignals`): a check runs on a fiber of its own.
     */
    const whenReplaced = (
      session: AgentSession,
      onReplaced: Effect.Effect<void>
    ): Effect.Effect<void, never, Scope.Scope> =>
      acquireReleaseInPlace(
        Effect.gen(function*() {
          const w: Watcher = { session, onReplaced, told: false }
          const workspaceId = session.workspace.id
          const entry = watched.get(workspaceId)
          if (entry !== undefined) {
            entry.sessions.add(w)
            yield* check(w)
            return w
          }
          const created: WorkspaceWatch = { sessions: new Set([w]), scope: yield* Scope.make() }
          watched.set(workspaceId, created)
          const followed = yield* Effect.exit(
            extendInPlace(
              onSignals(pubsub, workspaceChannel(workspaceId), () => checkAll(workspaceId), runtime),
              created.scope
            )
          )
          if (Exit.isFailure(followed)) {
            // A subscription that could not be made fails the sessions waiting for it.
            if (watched.get(workspaceId) === created) watched.delete(workspaceId)
            yield* Scope.close(created.scope, followed)
            return yield* Effect.failCause(followed.cause)
          }
          // This session, and any added while the channel was being followed.
          yield* checkAll(workspaceId)
          return w
        }),
        (w) =>
          Effect.suspend(() => {
            const workspaceId = w.session.workspace.id
            const entry = watched.get(workspaceId)
            w.told = true
            if (entry === undefined) return Effect.void
            entry.sessions.delete(w)
            if (entry.sessions.size > 0) return Effect.void
            watched.delete(workspaceId)
            return Scope.close(entry.scope, Exit.void)
          })
      ).pipe(Effect.asVoid)

    /**
     * {@link whenReplaced} for a connection: `close` ends it when its agent is replaced, and the
     * answer tells afterwards whether that is why it ended.
     */
    const closeWhenReplaced = (
      session: AgentSession,
      close: Effect.Effect<void>
    ): Effect.Effect<() => boolean, never, Scope.Scope> => {
      let replaced = false
      return Effect.as(
        whenReplaced(
          session,
          Effect.suspend(() => {
            replaced = true
            return close
          })
        ),
        () => replaced
      )
    }

    return {
      connected,
      closeWhenReplaced,
      batchUpdateAppHealth,
      refresh,
      measured,
      disconnected,
      keepRefreshed,
      updateLifecycle,
      updateStartup,
      batchUpdateMetadata,
      updateStats,
      scriptCompleted,
      metadata
    } as const
  })
}) {}
