/** Provisioner keys on @effect/sql: one row per key, the secret's hash only. */
import { SqlClient } from "@effect/sql"
import { type ProvisionerKeyRecord, ProvisionerKeyRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, first, json, type Row, text } from "../Columns.js"
import { bind } from "../Rows.js"
import { unique } from "../Unique.js"

const rowToKey = columns<ProvisionerKeyRecord>("provisioner_keys", {
  id: text,
  organization_id: text,
  name: text,
  hashed_secret: text,
  tags: json({}),
  created_at: date
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const one = (rs: ReadonlyArray<Row>) => first(rs, rowToKey)

  return ProvisionerKeyRepo.of({
    insert: (k) =>
      unique(sql`INSERT INTO provisioner_keys (id, organization_id, name, hashed_secret, tags, created_at)
        VALUES (${k.id}, ${k.organization_id}, ${k.name}, ${k.hashed_secret}, ${JSON.stringify(k.tags)}, ${
        bind(k.created_at)
      })`)
        .pipe(Effect.asVoid),
    listByOrganization: (organizationId) =>
      sql<Row>`SELECT * FROM provisioner_keys WHERE organization_id = ${organizationId} ORDER BY created_at, id`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToKey))
      ),
    findByName: (organizationId, name) =>
      sql<
        Row
      >`SELECT * FROM provisioner_keys WHERE organization_id = ${organizationId} AND lower(name) = ${name.toLowerCase()}`
        .pipe(Effect.orDie, Effect.map(one)),
    findById: (id) => sql<Row>`SELECT * FROM provisioner_keys WHERE id = ${id}`.pipe(Effect.orDie, Effect.map(one)),
    findByHashedSecret: (hashed) =>
      sql<Row>`SELECT * FROM provisioner_keys WHERE hashed_secret = ${hashed}`.pipe(Effect.orDie, Effect.map(one)),
    delete: (id) =>
      sql<Row>`DELETE FROM provisioner_keys WHERE id = ${id} RETURNING id`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.length > 0)
      )
  })
})

export const layer: Layer.Layer<ProvisionerKeyRepo, never, SqlClient.SqlClient> = Layer.effect(ProvisionerKeyRepo, make)
