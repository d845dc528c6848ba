/**
 * Contexts that look through to another instead of copying it. Effect's `Context.add` (and
 * `Effect.scoped`, `Effect.provideService`, which merge) copies the whole map of services, about
 * 150 entries and some 7 KB; a request's or a long-lived session's context made that way holds its
 * copy as long as it lives (docs/agents.md, "The server's memory per agent").
 */
import { Context, Effect, type Exit, FiberRef, Scope } from "effect"

/**
 * A map of services over `base`: its own entries on top, every other key read from `base`, so it
 * is made at once. Everything Effect does with a context's map (get, has, size, iteration, copying
 * into a new context) sees both layers. Iterating walks both layers each time rather than keeping
 * a merged copy: a context lives as long as its session, and a kept copy of some 7 KB per overlay
 * was most of what an agent's sessions held (bench/results/agent-memory.md).
 */
class OverlayServices extends Map<string, unknown> {
  constructor(private readonly base: ReadonlyMap<string, unknown>) {
    super()
  }
  private *both(): Generator<[string, unknown], undefined, unknown> {
    for (const [key, value] of this.base) yield [key, super.has(key) ? super.get(key) : value]
    for (const [key, value] of super.entries()) if (!this.base.has(key)) yield [key, value]
    return undefined
  }
  override get(key: string): unknown {
    return super.has(key) ? super.get(key) : this.base.get(key)
  }
  override has(key: string): boolean {
    return super.has(key) || this.base.has(key)
  }
  override delete(key: string): boolean {
    if (this.base.has(key)) throw new Error("An overlay cannot remove a service of the context below it.")
    return super.delete(key)
  }
  override get size(): number {
    let own = 0
    for (const key of super.keys()) if (!this.base.has(key)) own++
    return this.base.size + own
  }
  override entries(): MapIterator<[string, unknown]> {
    return this.both() as MapIterator<[string, unknown]>
  }
  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.both() as MapIterator<[string, unknown]>
  }
  override keys(): MapIterator<string> {
    const both = this.both()
    return (function*() {
      for (const [key] of both) yield key
      return undefined
    })() as MapIterator<string>
  }
  override values(): MapIterator<unknown> {
    const both = this.both()
    return (function*() {
      for (const [, value] of both) yield value
      return undefined
    })() as MapIterator<unknown>
  }
  override forEach(f: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.both()) f.call(thisArg, value, key, this)
  }
}

/** `Context.add(base, tag, service)` without copying `base`'s map (the new context looks through to it). */
export const overlayContext = <R, I, S>(
  base: Context.Context<R>,
  tag: Context.Tag<I, S>,
  service: S
): Context.Context<R | I> => {
  const services = new OverlayServices(base.unsafeMap)
  services.set(tag.key, service)
  return Context.unsafeMake(services)
}

/**
 * `Effect.scoped` without copying the context: `effect` runs with a new scope over its caller's
 * services (looked through, not copied), and the scope closes with its outcome. For the long-lived
 * sessions (an agent's connections), where each copy would be held as long as the session lives.
 */
export const scopedInPlace = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, Scope.Scope>> =>
  Effect.flatMap(Scope.make(), (scope) =>
    // The fiber's services are set, and set back, in place: providing them (Effect.mapInputContext)
    // holds four more frames on the fiber's stack for as long as the session lives.
    Effect.flatMap(FiberRef.get(FiberRef.currentContext), (outer) =>
      Effect.onExit(
        Effect.zipRight(
          FiberRef.set(FiberRef.currentContext, overlayContext(outer, Scope.Scope, scope)),
          effect as Effect.Effect<A, E, never>
        ),
        (exit) => Effect.zipRight(FiberRef.set(FiberRef.currentContext, outer), Scope.close(scope, exit))
      )))

/**
 * `Scope.extend(effect, scope)` without copying the context (Effect's merges a context holding the
 * scope into the caller's, copying every service): for what a long-lived scope holds, whose
 * finalizers keep the context they were added in as long as the scope lives.
 */
export const extendInPlace = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  scope: Scope.Scope
): Effect.Effect<A, E, Exclude<R, Scope.Scope>> =>
  Effect.mapInputContext(
    effect,
    (context: Context.Context<Exclude<R, Scope.Scope>>) =>
      overlayContext(context, Scope.Scope, scope) as Context.Context<R>
  )

/**
 * `Effect.addFinalizer` without a copy of the adding fiber's refs: Effect's keeps one with each
 * finalizer (some 300 to 900 bytes, as long as the scope lives), to run it with them; this one runs
 * with the refs of the fiber that closes the scope. For finalizers that only undo bookkeeping
 * (remove a listener, leave a registry, close a scope), in what lives as long as a connection.
 */
export const addFinalizerInPlace = (
  finalizer: (exit: Exit.Exit<unknown, unknown>) => Effect.Effect<unknown>
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.flatMap(Scope.Scope, (scope) => Scope.addFinalizerExit(scope, finalizer))

/** `Effect.acquireRelease` with its release added by {@link addFinalizerInPlace} (it needs no service). */
export const acquireReleaseInPlace = <A, E, R>(
  acquire: Effect.Effect<A, E, R>,
  release: (a: A, exit: Exit.Exit<unknown, unknown>) => Effect.Effect<unknown>
): Effect.Effect<A, E, R | Scope.Scope> =>
  Effect.uninterruptible(
    Effect.flatMap(acquire, (a) => Effect.as(addFinalizerInPlace((exit) => release(a, exit)), a))
  )
