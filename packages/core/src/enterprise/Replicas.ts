/**
 * The replicas of the deployment (docs/agents.md, "Several replicas"): each process that serves
 * the API registers itself in the `replicas` table with its **relay address**, the address the
 * other replicas reach it at, and keeps its row fresh. A request that needs an agent whose
 * connection another replica holds (a terminal, a tunnel, SSH, an app, listening ports) is relayed
 * to that replica's address (http's `Relay.ts`). Relayed requests carry the deployment's relay
 * secret (`site_configs` `replica_relay_secret`, made once, as the described system's DERP mesh
 * key), by which a replica trusts the client address a relay names and never relays again.
 * `GET /replicas` lists the replicas seen within REPLICA_STALE_SECONDS.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { authorize } from "../Actor.js"
import { newUuid } from "../Ids.js"
import { everyInterval } from "../Periodic.js"
import { span } from "../Tracing.js"
import { LicenseRepo } from "./License.js"

/** How often a replica refreshes its row. */
export const REPLICA_REFRESH_SECONDS = 10
/** A replica whose row was not refreshed for this long counts as gone (listed no more, never relayed to). */
export const REPLICA_STALE_SECONDS = 30
/** The `site_configs` key of the secret relayed requests carry. */
export const RELAY_SECRET_KEY = "replica_relay_secret"

/** A stored replica. */
export interface ReplicaRecord {
  readonly id: string
  readonly hostname: string
  readonly relay_address: string
  readonly region_id: number
  readonly version: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly error: string
  /** The last refresh's database round trip, in microseconds. */
  readonly database_latency: number
}

/** A replica as the API answers it (codersdk `Replica`). */
export class Replica extends Schema.Class<Replica>("Replica")({
  id: Schema.String,
  hostname: Schema.String,
  created_at: Schema.Date,
  relay_address: Schema.String,
  region_id: Schema.Int,
  error: Schema.String,
  database_latency: Schema.Int
}) {}

export class ReplicaRepo extends Context.Tag("@workbay/core/ReplicaRepo")<ReplicaRepo, {
  /** Creates or refreshes the replica's row (one statement). */
  readonly upsert: (replica: ReplicaRecord) => Effect.Effect<void>
  /** Replicas refreshed at or after `since`, oldest first. */
  readonly listActive: (since: Date) => Effect.Effect<ReadonlyArray<ReplicaRecord>>
  readonly find: (id: string) => Effect.Effect<Option.Option<ReplicaRecord>>
  /** Removes the replica's row (a clean stop), and rows not refreshed since `staleBefore`. */
  readonly remove: (id: string, staleBefore: Date) => Effect.Effect<void>
}>() {}

/** This process as a replica: its id, where the others reach it, and the deployment's relay secret. */
export interface ThisReplicaShape {
  readonly id: string
  /** `http://host:port` the other replicas reach this one at; "" when it takes no relayed requests. */
  readonly relayAddress: string
  readonly relaySecret: string
}

export class ThisReplica extends Context.Tag("@workbay/core/ThisReplica")<ThisReplica, ThisReplicaShape>() {
  /** This process's identity: a new id, `relayAddress`, and the deployment's relay secret (made once, stored). */
  static readonly layer = (relayAddress = ""): Layer.Layer<ThisReplica, never, LicenseRepo> =>
    Layer.effect(
      ThisReplica,
      Effect.map(
        Effect.flatMap(LicenseRepo, (repo) => repo.initSiteConfig(RELAY_SECRET_KEY, randomBytes(32).toString("hex"))),
        (relaySecret) => ({ id: newUuid(), relayAddress, relaySecret })
      )
    )
}

export class Replicas extends Effect.Service<Replicas>()("@workbay/core/Replicas", {
  effect: Effect.gen(function*() {
    const repo = yield* ReplicaRepo
    const self = yield* ThisReplica
    const createdAt = new Date(yield* Clock.currentTimeMillis)
    const staleBefore = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms - REPLICA_STALE_SECONDS * 1000))

    /** The last refresh's round trip (microseconds), written with the next one: one statement a refresh. */
    let lastLatency = 0
    /** Writes this replica's row now (at start, then every REPLICA_REFRESH_SECONDS). */
    const refresh = Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      yield* repo.upsert({
        id: self.id,
        hostname: hostname(),
        relay_address: self.relayAddress,
        region_id: 0,
        version: "",
        created_at: createdAt,
        updated_at: new Date(started),
        error: "",
        database_latency: lastLatency
      })
      lastLatency = Math.max(0, Math.round(((yield* Clock.currentTimeMillis) - started) * 1000))
    }).pipe(span("Replicas.refresh"))

    /** The address of a live replica other than this one, by id; none when it is this one, gone or has none. */
    const relayAddressOf = (id: string) =>
      Effect.gen(function*() {
        if (id === self.id) return Option.none<string>()
        const found = yield* repo.find(id)
        if (Option.isNone(found)) return Option.none<string>()
        const r = found.value
        if (r.relay_address === "" || r.updated_at < (yield* staleBefore)) return Option.none<string>()
        return Option.some(r.relay_address)
      })

    /** GET /replicas: the live replicas (owners; `replicas:read`). */
    const list = Effect.gen(function*() {
      yield* authorize("read", { type: "replicas" })
      const rows = yield* repo.listActive(yield* staleBefore)
      return rows.map((r) =>
        new Replica({
          id: r.id,
          hostname: r.hostname,
          created_at: r.created_at,
          relay_address: r.relay_address,
          region_id: r.region_id,
          error: r.error,
          database_latency: r.database_latency
        }, true)
      )
    }).pipe(span("Replicas.list"))

    /** Removes this replica's row (a clean stop), and those long gone. */
    const leave = Effect.flatMap(staleBefore, (before) => repo.remove(self.id, before))

    return { self, refresh, relayAddressOf, list, leave } as const
  })
}) {}

/** Registers this replica while the layer lives: its row written at once, refreshed, removed at the end. */
export const replicaRegistration: Layer.Layer<never, never, Replicas> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const replicas = yield* Replicas
    yield* replicas.refresh
    yield* Effect.addFinalizer(() => replicas.leave)
    yield* Effect.forkScoped(
      Effect.delay(
        everyInterval(replicas.refresh, `${REPLICA_REFRESH_SECONDS} seconds`, "The replica's refresh"),
        `${REPLICA_REFRESH_SECONDS} seconds`
      )
    )
  })
)
