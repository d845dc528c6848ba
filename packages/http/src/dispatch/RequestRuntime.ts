/**
 * What a request's fiber runs with: the runtime's services with the request's own over them
 * (without copying the runtime's), and the runtime's fiber refs with spans off unless wanted.
 */
import { isBuiltInTracer, overlayContext } from "@workbay/core"
import { type Context, Effect, type Exit, FiberId, FiberRef, FiberRefs, Option, Runtime } from "effect"

/**
 * `Context.add(base, tag, service)` without copying `base`: the runtime's services (about 150) are
 * looked through, not copied, so the request's context is made at once, and the request's entries
 * (its context, its actor once known, its audit) are set in it in place (core's `overlayContext`).
 */
export const requestContext = <R, I, S>(
  base: Context.Context<R>,
  tag: Context.Tag<I, S>,
  service: S
): Context.Context<R | I> => overlayContext(base, tag, service)

/** Runs a request's effect as one fiber in `context`, calling `onExit` with its outcome. */
export type RunRequest = <A, E, R>(
  context: Context.Context<R>,
  effect: Effect.Effect<A, E, R>,
  onExit: (exit: Exit.Exit<A, E>) => void
) => void

/**
 * How requests run on `runtime`: the same services and fiber refs, spans off unless `spans`
 * (default: only when the runtime has a tracer other than Effect's built-in one).
 */
export const makeRequestRunner = <R>(runtime: Runtime.Runtime<R>, spans?: boolean): RunRequest => {
  const traced = spans ?? !isBuiltInTracer(Runtime.runSync(runtime)(Effect.tracer))
  const fiberRefs = FiberRefs.updateAs(
    traced
      ? runtime.fiberRefs
      : FiberRefs.updateAs(runtime.fiberRefs, {
        fiberId: FiberId.none,
        fiberRef: FiberRef.currentTracerEnabled,
        value: false
      }),
    // A request's failure is its answer (a 500 logs its cause itself), not a fiber's unhandled error.
    { fiberId: FiberId.none, fiberRef: FiberRef.unhandledErrorLogLevel, value: Option.none() }
  )
  return (context, effect, onExit) =>
    void Runtime.runCallback(Runtime.make({ context, fiberRefs, runtimeFlags: runtime.runtimeFlags }), effect, {
      onExit
    })
}
