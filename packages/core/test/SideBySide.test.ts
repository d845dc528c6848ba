/**
 * Reads side by side (SideBySide.ts): at once by default, in turn under a storage layer that says
 * its reads never wait (`readsInTurn`), which reaches the runtime built from a layer it is merged into.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, FiberRef, Layer, ManagedRuntime } from "effect"
import { ReadsAtOnce, readsInTurn, sideBySide } from "../src/SideBySide.js"

/** Two reads that log their start and end, yielding between them. */
const logged = (log: Array<string>, name: string, value: number) =>
  Effect.gen(function*() {
    log.push(`start ${name}`)
    yield* Effect.yieldNow()
    log.push(`end ${name}`)
    return value
  })

class Repo extends Context.Tag("test/Repo")<Repo, { readonly n: number }>() {}

describe("sideBySide", () => {
  it.effect("runs reads at once by default: each may wait for the other to start", () =>
    Effect.gen(function*() {
      const a = yield* Deferred.make<void>()
      const b = yield* Deferred.make<void>()
      const [x, y] = yield* sideBySide([
        Effect.zipRight(Deferred.succeed(a, undefined), Effect.as(Deferred.await(b), 1)),
        Effect.zipRight(Deferred.succeed(b, undefined), Effect.as(Deferred.await(a), "two"))
      ])
      expect([x, y]).toEqual([1, "two"])
    }))

  it.effect("runs reads in turn, in order, where the storage's reads never wait", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const values = yield* sideBySide([logged(log, "a", 1), logged(log, "b", 2), logged(log, "c", 3)]).pipe(
        Effect.locally(ReadsAtOnce, false)
      )
      expect(values).toEqual([1, 2, 3])
      expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"])
    }))

  it.effect("fails with the first read's failure, in turn or at once", () =>
    Effect.gen(function*() {
      for (const atOnce of [true, false]) {
        const exit = yield* Effect.exit(
          sideBySide([Effect.succeed(1), Effect.fail("gone" as const)]).pipe(Effect.locally(ReadsAtOnce, atOnce))
        )
        expect(exit).toEqual(Exit.fail("gone"))
      }
    }))

  it.effect("in turn: each run answers an array of its own; no reads answer none; a failure runs no later read", () =>
    Effect.gen(function*() {
      let n = 0
      const round = sideBySide([Effect.sync(() => ++n), Effect.sync(() => ++n)]).pipe(
        Effect.locally(ReadsAtOnce, false)
      )
      const first = yield* round
      const second = yield* round
      expect(first).toEqual([1, 2])
      expect(second).toEqual([3, 4])
      expect(yield* sideBySide([] as ReadonlyArray<Effect.Effect<number>>).pipe(Effect.locally(ReadsAtOnce, false)))
        .toEqual([])
      let ran = false
      const exit = yield* Effect.exit(
        sideBySide([Effect.fail("gone" as const), Effect.sync(() => (ran = true))]).pipe(
          Effect.locally(ReadsAtOnce, false)
        )
      )
      expect(exit).toEqual(Exit.fail("gone"))
      expect(ran).toBe(false)
    }))

  it("reaches the runtime of a layer `readsInTurn` is merged into, and only that one", async () => {
    const repo = Layer.succeed(Repo, { n: 1 })
    const inTurn = ManagedRuntime.make(Layer.merge(repo, readsInTurn))
    const atOnce = ManagedRuntime.make(repo)
    try {
      expect(await inTurn.runPromise(FiberRef.get(ReadsAtOnce))).toBe(false)
      expect(await atOnce.runPromise(FiberRef.get(ReadsAtOnce))).toBe(true)
    } finally {
      await inTurn.dispose()
      await atOnce.dispose()
    }
  })
})
