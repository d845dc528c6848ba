/**
 * What a request's fiber runs with: the runtime's services with the request's own over them
 * (without copying the runtime's), and the runtime's fiber refs with spans off unless wanted.
 */
import { isBuiltInTracer } from "@workbay/core"
import { Context, Effect, type Exit, FiberId, FiberRef, FiberRefs, Option, Runtime } from "effect"

/**
 * The services of one request: the runtime's, with the request's own on top. Effect's
 * `Context.add` copies the whole map of the runtime's services (about 60, some 2 us a request);
 * this map looks through to them instead, so it is made at once, and the request's entries
 * (its context, its actor once known, its audit) are set in it in place. Everything Effect does
 * with a context's map (get, has, size, iteration, copying into a new context) sees both layers.
 */
class RequestServices extends Map<string, unknown> {
  /** Both layers as one native map, made when something iterates (Effect copying the context), until the next set. */
  private flat: Map<string, unknown> | undefined
  constructor(private readonly base: ReadonlyMap<string, unknown>) {
    super()
  }
  private all(): Map<string, unknown> {
    if (this.flat === undefined) {
      const flat = new Map(this.base)
      for (const [key, value] of super.entries()) flat.set(key, value)
      this.flat = flat
    }
    return this.flat
  }
  override get(key: string): unknown {
    return super.has(key) ? super.get(key) : this.base.get(key)
  }
  override has(key: string): boolean {
    return super.has(key) || this.base.has(key)
  }
  override set(key: string, value: unknown): this {
    this.flat = undefined
    return super.set(key, value)
  }
  override delete(key: string): boolean {
    if (this.base.has(key)) throw new Error("A request cannot remove a service of the runtime.")
    this.flat = undefined
    return super.delete(key)
  }
  override get size(): number {
    return this.all().size
  }
  override entries(): MapIterator<[string, unknown]> {
    return this.all().entries()
  }
  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.all().entries()
  }
  override keys(): MapIterator<string> {
    return this.all().keys()
  }
  override values(): MapIterator<unknown> {
    return this.all().values()
  }
  override forEach(f: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.all()) f.call(thisArg, value, key, this)
  }
}

/** `Context.add(base, tag, service)` without copying `base` (see {@link RequestServices}). */
export const requestContext = <R, I, S>(
  base: Context.Context<R>,
  tag: Context.Tag<I, S>,
  service: S
): Context.Context<R | I> => {
  const services = new RequestServices(base.unsafeMap)
  services.set(tag.key, service)
  return Context.unsafeMake(services)
}

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
