/**
 * Spans for service methods, without the per-call stack capture that costs ~10 us on hot paths,
 * and without any cost when tracing is off (the HTTP layer turns it off unless someone collects
 * spans): `Effect.withSpan` would still make a no-op span and copy the fiber's whole context to
 * hold it, about 6 us a call.
 */
import { Effect, FiberRef } from "effect"

/** `Effect.withSpan(name)` with stack capture off; `self` as it is while tracing is off. */
export const span = (name: string) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) =>
    fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(self, name, { captureStackTrace: false }) : self
  )
