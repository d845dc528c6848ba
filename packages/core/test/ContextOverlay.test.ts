/**
 * Contexts that look through to another (ContextOverlay.ts): an overlay answers every service of
 * the context below and its own on top, and everything Effect does with a context (reading,
 * adding, merging, providing) sees both layers, without the overlay keeping a copy of the one below.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Scope } from "effect"
import { acquireReleaseInPlace, addFinalizerInPlace, overlayContext, scopedInPlace } from "../src/ContextOverlay.js"

class A extends Context.Tag("test/A")<A, string>() {}
class B extends Context.Tag("test/B")<B, string>() {}
class C extends Context.Tag("test/C")<C, string>() {}

describe("a context overlay", () => {
  const base = Context.make(A, "a").pipe(Context.add(B, "b"))

  it("answers the services below and its own, its own over the one below's", () => {
    const over = overlayContext(base, C, "c")
    expect([Context.get(over, A), Context.get(over, B), Context.get(over, C)]).toEqual(["a", "b", "c"])
    const shadow = overlayContext(base, B, "b2")
    expect(Context.get(shadow, B)).toBe("b2")
    expect(Context.get(base, B)).toBe("b")
    expect(shadow.unsafeMap.size).toBe(2)
    expect([...shadow.unsafeMap]).toEqual([["test/A", "a"], ["test/B", "b2"]])
    expect(over.unsafeMap.size).toBe(3)
    expect([...over.unsafeMap.keys()]).toEqual(["test/A", "test/B", "test/C"])
    expect([...over.unsafeMap.values()]).toEqual(["a", "b", "c"])
  })

  it("is copied whole by Effect's own operations, and keeps no copy of the context below", () => {
    const over = overlayContext(base, C, "c")
    const added = Context.add(over, class D extends Context.Tag("test/D")<D, string>() {}, "d")
    expect([...added.unsafeMap]).toEqual([["test/A", "a"], ["test/B", "b"], ["test/C", "c"], ["test/D", "d"]])
    const merged = Context.merge(Context.make(class E extends Context.Tag("test/E")<E, string>() {}, "e"), over)
    expect([...merged.unsafeMap.keys()].sort()).toEqual(["test/A", "test/B", "test/C", "test/E"])
    // What the overlay holds of its own: only its own entries (the rest is read from below each time).
    expect(Object.values(over.unsafeMap).filter((v) => v instanceof Map && v !== base.unsafeMap)).toEqual([])
    expect(() => over.unsafeMap.delete("test/A")).toThrow(/cannot remove/)
  })

  it.effect("scopedInPlace runs an effect with a scope over its caller's services and closes it with the outcome", () =>
    Effect.gen(function*() {
      const closed: Array<string> = []
      const result = yield* scopedInPlace(Effect.gen(function*() {
        const scope = yield* Scope.Scope
        yield* Scope.addFinalizer(scope, Effect.sync(() => closed.push("closed")))
        return yield* A
      })).pipe(Effect.provideService(A, "a"))
      expect(result).toBe("a")
      expect(closed).toEqual(["closed"])
      const failed = yield* Effect.exit(
        scopedInPlace(
          Effect.zipRight(Effect.addFinalizer(() => Effect.sync(() => closed.push("again"))), Effect.fail("no"))
        )
      )
      expect(failed).toEqual(Exit.fail("no"))
      expect(closed).toEqual(["closed", "again"])
    }))

  it.effect("scopedInPlace gives its caller's services back however the effect ends: done, failed, interrupted", () =>
    Effect.gen(function*() {
      const before = yield* Effect.context<never>()
      const hasScope = Effect.map(Effect.context<never>(), (c) => c.unsafeMap.has(Scope.Scope.key))
      expect(yield* hasScope).toBe(false)
      expect(yield* scopedInPlace(hasScope)).toBe(true)
      expect(yield* hasScope).toBe(false)
      yield* Effect.exit(scopedInPlace(Effect.fail("no")))
      expect(yield* hasScope).toBe(false)
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(
        scopedInPlace(Effect.zipRight(Deferred.succeed(started, undefined), Effect.never))
      )
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      expect(yield* hasScope).toBe(false)
      expect((yield* Effect.context<never>()).unsafeMap).toBe(before.unsafeMap)
    }))

  it.effect("acquireReleaseInPlace and addFinalizerInPlace release with the scope, in reverse order, with its outcome", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const scope = yield* Scope.make()
      const a = yield* Scope.extend(
        acquireReleaseInPlace(Effect.succeed("a"), (a, exit) => Effect.sync(() => log.push(`${a} ${exit._tag}`))),
        scope
      )
      yield* Scope.extend(addFinalizerInPlace((exit) => Effect.sync(() => log.push(`b ${exit._tag}`))), scope)
      expect(a).toBe("a")
      expect(log).toEqual([])
      yield* Scope.close(scope, Exit.fail("done"))
      expect(log).toEqual(["b Failure", "a Failure"])
    }))
})
