/** Background work that runs again and again inside the server (sweeps, purges, the notifier). */
import { type Duration, Effect } from "effect"

/**
 * Runs `effect` forever, `interval` apart (the wait starts when a run ends). A failed run is
 * logged as "`what` failed" with its cause, and the next one runs on time. Fork it in a scope.
 */
export const everyInterval = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  interval: Duration.DurationInput,
  what: string
): Effect.Effect<never, never, R> =>
  effect.pipe(
    Effect.catchAllCause((cause) => Effect.logError(`${what} failed`, cause)),
    Effect.zipRight(Effect.sleep(interval)),
    Effect.forever
  )
