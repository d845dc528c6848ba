/** Spans for service methods, without the per-call stack capture that costs ~10 us on hot paths. */
import { Effect } from "effect"

/** `Effect.withSpan(name)` with stack capture off. */
export const span =
  (name: string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withSpan(self, name, { captureStackTrace: false })
