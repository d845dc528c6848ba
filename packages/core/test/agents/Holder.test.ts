/**
 * The one rule of where a request for an agent is served (streams, apps, listening ports;
 * docs/agents.md, "Several replicas"): here when this process holds the agent's connection; else
 * relayed to the live holder's relay address; else 502, and never for a request already relayed.
 */
import { describe, expect, it } from "@effect/vitest"
import { agentHolder, type ReplicaRecord, ReplicaRepo, Replicas, ThisReplica } from "@workbay/core"
import { Effect, Exit, Layer, Option } from "effect"

const SELF = "11111111-1111-4111-8111-111111111111"
const OTHER = "22222222-2222-4222-8222-222222222222"
const SILENT = "33333333-3333-4333-8333-333333333333"
const STALE = "44444444-4444-4444-8444-444444444444"

const row = (id: string, relay_address: string, updated_at: Date): ReplicaRecord => ({
  id,
  hostname: "h",
  relay_address,
  region_id: 0,
  version: "",
  created_at: updated_at,
  updated_at,
  error: "",
  database_latency: 0
})

/** This replica (SELF), a live one with an address, a live one with none, one gone. */
const layer = Replicas.Default.pipe(
  Layer.provide(Layer.succeed(ThisReplica, { id: SELF, relayAddress: "http://self:1", relaySecret: "s" })),
  Layer.provide(Layer.effect(
    ReplicaRepo,
    Effect.sync(() => {
      // The TestClock stands at 0: a row refreshed then is live, one refreshed a minute before is gone.
      const now = new Date(0)
      const rows = new Map([
        [SELF, row(SELF, "http://self:1", now)],
        [OTHER, row(OTHER, "http://other:2", now)],
        [SILENT, row(SILENT, "", now)],
        [STALE, row(STALE, "http://stale:4", new Date(-60_000))]
      ])
      return {
        upsert: () => Effect.void,
        listActive: () => Effect.succeed([...rows.values()]),
        find: (id: string) => Effect.succeed(Option.fromNullable(rows.get(id))),
        remove: () => Effect.void
      }
    })
  ))
)

const where = (holder: string | null | undefined, connectedHere: boolean, relayed: boolean) =>
  Effect.exit(agentHolder({ last_connected_replica_id: holder }, { connectedHere, relayed }))

describe("agentHolder", () => {
  it.effect("here when this process holds the connection, relayed or not", () =>
    Effect.gen(function*() {
      expect(yield* where(OTHER, true, false)).toEqual(Exit.succeed({ _tag: "Here" }))
      expect(yield* where(null, true, true)).toEqual(Exit.succeed({ _tag: "Here" }))
    }).pipe(Effect.provide(layer)))

  it.effect("relayed to the live holder's address", () =>
    Effect.gen(function*() {
      expect(yield* where(OTHER, false, false)).toEqual(Exit.succeed({ _tag: "Relay", address: "http://other:2" }))
    }).pipe(Effect.provide(layer)))

  it.effect("502 with no holder to relay to, and never a second relay", () =>
    Effect.gen(function*() {
      for (
        const [holder, relayed] of [
          [OTHER, true],
          [null, false],
          [undefined, false],
          [SELF, false],
          [SILENT, false],
          [STALE, false],
          ["55555555-5555-4555-8555-555555555555", false]
        ] as const
      ) {
        const exit = yield* where(holder, false, relayed)
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isFailure(exit)) {
          expect(JSON.stringify(exit.cause)).toContain(
            "The workspace agent is connected to another replica of the service, which cannot be reached."
          )
        }
      }
    }).pipe(Effect.provide(layer)))
})
