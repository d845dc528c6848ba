/**
 * The insights rollup: background work inside the server that folds the raw usage rows (agent
 * stats reports, app opens from the connection log) into hourly rollups per user and template,
 * records users' status changes, and deletes rollups past their retention. One pass per tick
 * across replicas: a pass runs under the `TickLock` and is skipped when the stored state says a
 * pass already ran in this tick. Each hour is recomputed whole (delete and insert), so a pass
 * that repeats is harmless; the hour in progress is recomputed by every pass until it is over.
 */
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { everyInterval } from "../Periodic.js"
import { span } from "../Tracing.js"
import { TickLock } from "../workspaces/Lifecycle.js"
import { InsightsRepo, type RollupReport } from "./Insight.js"

const HOUR = 3_600_000

export const INSIGHTS_ROLLUP_LOCK = "workbay:insights-rollup"

/** Time between passes by default. */
export const DEFAULT_ROLLUP_INTERVAL: Duration.Duration = Duration.minutes(5)

/** The most hours one pass recomputes (a server that was off catches up over several passes). */
export const MAX_ROLLUP_HOURS_PER_PASS = 48

/** How long rollups are kept. */
export const INSIGHTS_ROLLUP_RETENTION_DAYS = 365

export interface InsightsRollupOptions {
  /** Time between passes. Default 5 minutes. */
  readonly interval?: Duration.DurationInput | undefined
}

export class InsightsRollup extends Effect.Service<InsightsRollup>()("@workbay/core/InsightsRollup", {
  effect: Effect.gen(function*() {
    const repo = yield* InsightsRepo
    const lock = yield* TickLock

    const runOnce = (now: number, tickMillis: number) =>
      Effect.gen(function*() {
        const state = yield* repo.state
        const tickStart = now - (now % tickMillis)
        if (Option.isSome(state) && state.value.ran_at.getTime() >= tickStart && state.value.ran_at.getTime() <= now) {
          return { ran: false, hours: 0, usageRows: 0, appRows: 0, statusChanges: 0 } satisfies RollupReport
        }
        const currentHour = now - (now % HOUR)
        const earliest = yield* repo.earliestRaw
        let from = Option.match(state, { onNone: () => currentHour, onSome: (s) => s.watermark.getTime() })
        // Hours before the oldest raw row have nothing left to fold in: keep their rollups as they are.
        if (Option.isSome(earliest)) {
          const earliestHour = earliest.value.getTime() - (earliest.value.getTime() % HOUR)
          from = Option.isNone(state) ? Math.min(from, earliestHour) : Math.max(from, earliestHour)
        }
        from = Math.min(from, currentHour)
        const last = Math.min(currentHour, from + (MAX_ROLLUP_HOURS_PER_PASS - 1) * HOUR)
        let hours = 0
        let usageRows = 0
        let appRows = 0
        for (let h = from; h <= last; h += HOUR) {
          const r = yield* repo.rollupHour(new Date(h))
          hours++
          usageRows += r.usageRows
          appRows += r.appRows
        }
        const statusChanges = yield* repo.recordStatusChanges(new Date(now))
        yield* repo.purgeBefore(new Date(currentHour - INSIGHTS_ROLLUP_RETENTION_DAYS * 24 * HOUR))
        // The last hour done stays open (it may be the hour in progress): the next pass does it again.
        yield* repo.setState({ watermark: new Date(last), ran_at: new Date(now) })
        return { ran: true, hours, usageRows, appRows, statusChanges } satisfies RollupReport
      })

    /** One pass at the clock's now, for ticks `interval` long; skipped when another replica holds the lock or ran this tick. */
    const pass = (interval: Duration.DurationInput = DEFAULT_ROLLUP_INTERVAL) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const tick = Math.max(1, Duration.toMillis(Duration.decode(interval)))
        const result = yield* lock.withTryLock(INSIGHTS_ROLLUP_LOCK, runOnce(now, tick))
        return Option.getOrElse(
          result,
          (): RollupReport => ({ ran: false, hours: 0, usageRows: 0, appRows: 0, statusChanges: 0 })
        )
      }).pipe(span("InsightsRollup.pass"))

    /** Passes forever, `interval` apart (fork it). */
    const run = (interval: Duration.DurationInput = DEFAULT_ROLLUP_INTERVAL) =>
      everyInterval(pass(interval), interval, "insights rollup")

    return { pass, run } as const
  })
}) {}

/** A layer whose fiber runs a rollup pass every `interval` until its scope closes. */
export const insightsRollupPeriodic = (
  options: InsightsRollupOptions = {}
): Layer.Layer<never, never, InsightsRollup> =>
  Layer.scopedDiscard(Effect.flatMap(InsightsRollup, (r) => Effect.forkScoped(r.run(options.interval))))
