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

/**
 * `runtime` with spans off unless `spans` (default: only when it has a tracer other than Effect's
 * built-in one): what the fibers that outlive a request run on (a WebSocket's or an event stream's
 * session). With spans on, each `span` of a session's calls makes a span and copies the fiber's
 * whole context (some 7 KB) to hold it, for as long as the call runs: a connected agent's sessions
 * held two such copies at all times.
 */
export const sessionRuntime = <R>(runtime: Runtime.Runtime<R>, spans?: boolean): Runtime.Runtime<R> =>
  spans ?? !isBuiltInTracer(Runtime.runSync(runtime)(Effect.tracer))
    ? runtime
    : Runtime.make({
      context: runtime.context,
      fiberRefs: FiberRefs.updateAs(runtime.fiberRefs, {
        fiberId: FiberId.none,
        fiberRef: FiberRef.currentTracerEnabled,
        value: false
      }),
      runtimeFlags: runtime.runtimeFlags
    })

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
  const fiberRefs = FiberRefs.updateAs(
    sessionRuntime(runtime, spans).fiberRefs,
    // A request's failure is its answer (a 500 logs its cause itself), not a fiber's unhandled error.
    { fiberId: FiberId.none, fiberRef: FiberRef.unhandledErrorLogLevel, value: Option.none() }
  )
  return (context, effect, onExit) =>
    void Runtime.runCallback(Runtime.make({ context, fiberRefs, runtimeFlags: runtime.runtimeFlags }), effect, {
      onExit
    })
}
