/**
 * Spans for service methods, without the per-call stack capture that costs ~10 us on hot paths,
 * and without any cost when tracing is off (the HTTP layer turns it off unless someone collects
 * spans): `Effect.withSpan` would still make a no-op span and copy the fiber's whole context to
 * hold it, about 6 us a call. See docs/tracing.md.
 */
import { Effect, type Fiber, FiberRef, type Tracer } from "effect"

/** Effect's built-in tracer: its spans go nowhere (nobody collects them). */
const builtInTracer = Effect.runSync(Effect.tracer)

/** Whether `tracer` is Effect's built-in one, whose spans nobody collects. */
export const isBuiltInTracer = (tracer: Tracer.Tracer): boolean => tracer === builtInTracer

/**
 * Whether `fiber` records spans someone collects: tracing is on in it and its tracer is not
 * Effect's built-in one (an embedder's, or the standalone server's with `--trace`).
 */
export const collectsSpans = (fiber: Fiber.RuntimeFiber<unknown, unknown>): boolean =>
  fiber.getFiberRef(FiberRef.currentTracerEnabled) && fiber.currentTracer !== builtInTracer

/**
 * `Effect.withSpan(name)` with stack capture off; `self` as it is while tracing is off.
 * `attributes` (never a secret: they are exported as they are) are recorded on the span.
 */
export const span =
  (name: string, attributes?: Record<string, unknown>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiberRuntime((fiber) =>
      fiber.getFiberRef(FiberRef.currentTracerEnabled)
        ? Effect.withSpan(
          self,
          name,
          attributes === undefined ? { captureStackTrace: false } : { captureStackTrace: false, attributes }
        )
        : self
    )
