/**
 * The `TickLock` contract on a storage: one holder of a key at a time, free again once the
 * holder is done (or failed), and, where storages are shared by replicas, across replicas.
 */
import { describe, expect, it } from "@effect/vitest"
import { TickLock } from "@workbay/core"
import { Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

const tryLock = <A, R>(key: string, effect: Effect.Effect<A, never, R>) =>
  Effect.flatMap(TickLock, (lock) => lock.withTryLock(key, effect))

/**
 * `makeStorage` gives one storage; `makeReplica`, when given, gives another layer on the same
 * database (another process's pool), for the cross-replica test.
 */
export const tickLockSuite = (
  name: string,
  makeStorage: StorageFactory,
  options: SuiteOptions & {
    readonly makeReplicas?: () => readonly [ReturnType<StorageFactory>, ReturnType<StorageFactory>]
  } = {}
) =>
  describe.skipIf(options.skip === true)(`TickLock on ${name}`, () => {
    it.live("a held key refuses a second holder until it is released", () =>
      Effect.gen(function*() {
        const inner = yield* tryLock("tick", tryLock("tick", Effect.succeed("inner")))
        expect(inner).toEqual(Option.some(Option.none()))
        const other = yield* tryLock("tick", tryLock("another", Effect.succeed("other key")))
        expect(other).toEqual(Option.some(Option.some("other key")))
        expect(yield* tryLock("tick", Effect.succeed("again"))).toEqual(Option.some("again"))
      }).pipe(Effect.provide(makeStorage())))

    it.live("a failure releases the key", () =>
      Effect.gen(function*() {
        const failed = yield* Effect.exit(
          Effect.flatMap(TickLock, (lock) => lock.withTryLock("tick", Effect.fail("boom")))
        )
        expect(Exit.isFailure(failed)).toBe(true)
        expect(yield* tryLock("tick", Effect.succeed("free"))).toEqual(Option.some("free"))
      }).pipe(Effect.provide(makeStorage())))

    if (options.makeReplicas !== undefined) {
      const makeReplicas = options.makeReplicas
      it.scopedLive("replicas on one database take turns", () =>
        Effect.gen(function*() {
          const scope = yield* Effect.scope
          const [a, b] = makeReplicas()
          const first = yield* Layer.buildWithScope(a, scope)
          const second = yield* Layer.buildWithScope(b, scope)
          const holding = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const holder = yield* Effect.fork(
            tryLock(
              "tick",
              Deferred.succeed(holding, undefined).pipe(Effect.zipRight(Deferred.await(release)), Effect.as("a"))
            )
              .pipe(Effect.provide(first))
          )
          yield* Deferred.await(holding)
          expect(yield* tryLock("tick", Effect.succeed("b")).pipe(Effect.provide(second))).toEqual(Option.none())
          yield* Deferred.succeed(release, undefined)
          expect(yield* Fiber.join(holder)).toEqual(Option.some("a"))
          expect(yield* tryLock("tick", Effect.succeed("b")).pipe(Effect.provide(second))).toEqual(Option.some("b"))
        }))
    }
  })
