/** The deployment's replicas (the `ReplicaRepo` port) on @effect/sql, migration 0039. */
import { SqlClient } from "@effect/sql"
import { type ReplicaRecord, ReplicaRepo } from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { columns, date, int, type Row, text } from "../Columns.js"

const rowToReplica = columns<ReplicaRecord>("replicas", {
  id: text,
  hostname: text,
  relay_address: text,
  region_id: int,
  version: text,
  created_at: date,
  updated_at: date,
  error: text,
  database_latency: int
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  return ReplicaRepo.of({
    upsert: (r) =>
      sql`INSERT INTO replicas (id, hostname, relay_address, region_id, version, error, database_latency, created_at, updated_at)
        VALUES (${r.id}, ${r.hostname}, ${r.relay_address}, ${r.region_id}, ${r.version}, ${r.error},
          ${r.database_latency}, ${r.created_at.toISOString()}, ${r.updated_at.toISOString()})
        ON CONFLICT (id) DO UPDATE SET hostname = excluded.hostname, relay_address = excluded.relay_address,
          region_id = excluded.region_id, version = excluded.version, error = excluded.error,
          database_latency = excluded.database_latency, updated_at = excluded.updated_at`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    listActive: (since) =>
      sql<Row>`SELECT * FROM replicas WHERE updated_at >= ${since.toISOString()} ORDER BY created_at, id`.pipe(
        Effect.map((rows) => rows.map(rowToReplica)),
        Effect.orDie
      ),
    find: (id) =>
      sql<Row>`SELECT * FROM replicas WHERE id = ${id}`.pipe(
        Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(rowToReplica(rows[0]!))),
        Effect.orDie
      ),
    remove: (id, staleBefore) =>
      sql`DELETE FROM replicas WHERE id = ${id} OR updated_at < ${staleBefore.toISOString()}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )
  })
})

export const layer = Layer.effect(ReplicaRepo, make)
