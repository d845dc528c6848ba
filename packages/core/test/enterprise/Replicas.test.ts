/**
 * The replicas' registry without HTTP (docs/agents.md, "Several replicas"), on an in-memory SQLite
 * database with the TestClock: a replica's row is written at start and refreshed every 10 s by its
 * registration; another replica relays to it while it is fresh, not once it was not refreshed for
 * 30 s (a replica that died) nor after it left (its row removed when its scope closes); a replica
 * never relays to itself or to one without an address.
 */
import { describe, expect, it } from "@effect/vitest"
import { REPLICA_STALE_SECONDS, replicaRegistration, ReplicaRepo, Replicas, ThisReplica } from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import { Duration, Effect, Exit, Layer, Option, Scope } from "effect"
import * as TestClock from "effect/TestClock"

const T0 = Date.UTC(2026, 0, 1)
const replica = (id: string, relayAddress: string) =>
  Replicas.Default.pipe(Layer.provide(Layer.succeed(ThisReplica, { id, relayAddress, relaySecret: "s" })))

describe("the replicas' registry", () => {
  it.effect("registers at start, refreshes every 10 s, is relayed to while fresh, and leaves", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const storage = Layer.succeedContext(yield* Layer.build(Sqlite.layerMemory))
      const repo = Effect.provide(ReplicaRepo, storage)
      // Replica A, registered in a scope of its own; B asks where A is.
      const aScope = yield* Scope.make()
      const a = yield* Layer.buildWithScope(
        Layer.provideMerge(replicaRegistration, replica("a", "http://10.0.0.1:3000")).pipe(Layer.provide(storage)),
        aScope
      )
      const b = yield* Effect.provide(Replicas, Layer.provide(replica("b", "http://10.0.0.2:3000"), storage))
      expect(Option.getOrUndefined(yield* b.relayAddressOf("a"))).toBe("http://10.0.0.1:3000")
      const row = () => Effect.flatMap(repo, (r) => r.find("a"))
      expect(Option.getOrThrow(yield* row()).updated_at.getTime()).toBe(T0)

      // Every 10 s its refresh moves updated_at on, so it stays fresh well past 30 s.
      yield* TestClock.adjust(Duration.seconds(45))
      expect(Option.getOrThrow(yield* row()).updated_at.getTime()).toBe(T0 + 40_000)
      expect(Option.isSome(yield* b.relayAddressOf("a"))).toBe(true)

      // Not to itself; not to an unknown replica.
      expect(Option.isNone(yield* Effect.flatMap(Effect.provide(Replicas, a), (r) => r.relayAddressOf("a")))).toBe(
        true
      )
      expect(Option.isNone(yield* b.relayAddressOf("nobody"))).toBe(true)

      // Leaving removes its row: nobody relays to it any more.
      yield* Scope.close(aScope, Exit.void)
      expect(Option.isNone(yield* row())).toBe(true)
      expect(Option.isNone(yield* b.relayAddressOf("a"))).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("a replica that stopped refreshing (it died) is not relayed to after 30 s; one without an address never", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const storage = Layer.succeedContext(yield* Layer.build(Sqlite.layerMemory))
      const b = yield* Effect.provide(Replicas, Layer.provide(replica("b", ""), storage))
      const upsert = (id: string, relay_address: string) =>
        Effect.flatMap(Effect.provide(ReplicaRepo, storage), (r) =>
          r.upsert({
            id,
            hostname: "h",
            relay_address,
            region_id: 0,
            version: "",
            created_at: new Date(T0),
            updated_at: new Date(T0),
            error: "",
            database_latency: 0
          }))
      yield* upsert("dead", "http://10.0.0.9:3000")
      yield* upsert("quiet", "")
      expect(Option.isSome(yield* b.relayAddressOf("dead"))).toBe(true)
      expect(Option.isNone(yield* b.relayAddressOf("quiet"))).toBe(true)
      yield* TestClock.adjust(Duration.seconds(REPLICA_STALE_SECONDS + 1))
      expect(Option.isNone(yield* b.relayAddressOf("dead"))).toBe(true)
    }).pipe(Effect.scoped))
})
