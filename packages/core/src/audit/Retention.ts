/**
 * Retention: deletes what the deployment keeps only for a while. Audit entries older than
 * `retentionAuditLogs`, connection log entries that connected before `retentionConnectionLogs`,
 * API keys that expired more than `retentionApiKeys` ago, and agent log lines created before
 * `retentionWorkspaceAgentLogs`, and per-account sign-in failure counts idle for a day
 * (`LOGIN_FAILURES_KEPT`, whatever the settings). A retention of 0 keeps forever.
 * `Retention.periodic` runs the purge when it starts and then every interval (default one
 * hour). Replicas sharing a Postgres database purge one at a time: a periodic purge runs under
 * the `TickLock` ("retention"), and a replica that finds it held skips that purge (the holder is
 * doing it; the deletes are idempotent besides).
 */
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { AgentLogRepo } from "../agents/Logs.js"
import { everyInterval } from "../Periodic.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { LOGIN_FAILURES_KEPT, LoginThrottleRepo } from "../users/LoginThrottle.js"
import { ApiKeyRepo } from "../users/Repositories.js"
import { TickLock } from "../workspaces/Lifecycle.js"
import { AuditLogRepo } from "./AuditLog.js"
import { ConnectionLogRepo } from "./ConnectionLog.js"

/** How many rows one purge deleted. */
export interface PurgeReport {
  readonly auditLogs: number
  readonly connectionLogs: number
  readonly apiKeys: number
  readonly agentLogs: number
  readonly loginFailures: number
}

export interface RetentionOptions {
  /** Time between purges. Default one hour. */
  readonly interval?: Duration.DurationInput | undefined
}

export const DEFAULT_RETENTION_INTERVAL: Duration.Duration = Duration.hours(1)

export class Retention extends Effect.Service<Retention>()("@workbay/core/Retention", {
  effect: Effect.gen(function*() {
    const audit = yield* AuditLogRepo
    const connections = yield* ConnectionLogRepo
    const keys = yield* ApiKeyRepo
    const agentLogs = yield* AgentLogRepo
    const loginFailures = yield* LoginThrottleRepo
    const settings = yield* Settings
    const lock = yield* TickLock

    /** `now - retention`, or undefined when the retention keeps forever (0, or not finite). */
    const cutoff = (now: number, retention: Duration.Duration): Date | undefined => {
      const ms = Duration.toMillis(retention)
      return Number.isFinite(ms) && ms > 0 ? new Date(now - ms) : undefined
    }
    const purge = (before: Date | undefined, run: (before: Date) => Effect.Effect<number>) =>
      before === undefined ? Effect.succeed(0) : run(before)

    /** One purge of the five kinds, each by its own retention, at the clock's now. */
    const purgeOnce: Effect.Effect<PurgeReport> = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      return {
        auditLogs: yield* purge(cutoff(now, settings.retentionAuditLogs), audit.purgeBefore),
        connectionLogs: yield* purge(cutoff(now, settings.retentionConnectionLogs), connections.purgeBefore),
        apiKeys: yield* purge(cutoff(now, settings.retentionApiKeys), keys.purgeExpiredBefore),
        agentLogs: yield* purge(cutoff(now, settings.retentionWorkspaceAgentLogs), agentLogs.purgeBefore),
        loginFailures: yield* purge(cutoff(now, LOGIN_FAILURES_KEPT), loginFailures.purgeIdleBefore)
      }
    }).pipe(span("Retention.purgeOnce"))

    /** `purgeOnce` unless another process is purging (None then). */
    const purgeOnceLocked: Effect.Effect<Option.Option<PurgeReport>> = lock.withTryLock("retention", purgeOnce)

    return { purgeOnce, purgeOnceLocked } as const
  })
}) {
  /**
   * A layer whose fiber purges at start and then every `interval`, until the layer's scope
   * closes. A failed purge is logged and the next one runs on time.
   */
  static readonly periodic = (options: RetentionOptions = {}): Layer.Layer<never, never, Retention> =>
    Layer.scopedDiscard(
      Effect.flatMap(Retention, (retention) =>
        retention.purgeOnceLocked.pipe(
          Effect.tap(Option.match({
            onNone: () => Effect.void,
            onSome: (r) =>
              r.auditLogs + r.connectionLogs + r.apiKeys + r.agentLogs + r.loginFailures > 0
                ? Effect.logInfo(
                  `Retention purge deleted ${r.auditLogs} audit entries, ${r.connectionLogs} connection log entries, ${r.apiKeys} expired API keys, ${r.agentLogs} agent log lines, ${r.loginFailures} idle sign-in failure counts.`
                )
                : Effect.void
          })),
          (purge) => everyInterval(purge, options.interval ?? DEFAULT_RETENTION_INTERVAL, "Retention purge"),
          Effect.forkScoped
        ))
    )
}
