/**
 * Provisioner hosts on @effect/sql: one row per host of an organization, its latest capacity
 * report. Reports are written in batches (ProvisionerHosts.ts): one INSERT of many rows, each
 * replacing its host's figures and keeping its `first_seen_at`. Placement reads an organization's
 * connected and drained hosts at most once a second per replica (`listForPlacement`).
 */
import { SqlClient } from "@effect/sql"
import { type ProvisionerHostRecord, ProvisionerHostRepo, type ProvisionerTags } from "@workbay/core"
import { Effect, Layer } from "effect"
import { bool, type Column, columns, date, first, int, json, nullableInt, type Row, text } from "../Columns.js"
import { bind } from "../Rows.js"

/**
 * A JSON column whose few distinct texts repeat across rows (a fleet's hosts share a handful of
 * tag sets and types): each text parsed once, its value frozen and shared (placement reads every
 * connected host of an organization each second; at most 256 texts are kept, then it starts over).
 */
const sharedJson = <A extends object>(fallback: A): Column<A> => {
  const parse = json(fallback)
  const seen = new Map<string, A>()
  return (v, c) => {
    if (typeof v !== "string") return parse(v, c)
    let value = seen.get(v)
    if (value === undefined) {
      value = Object.freeze(parse(v, c))
      if (seen.size >= 256) seen.clear()
      seen.set(v, value)
    }
    return value
  }
}

const rowToHost = columns<ProvisionerHostRecord>("provisioner_hosts", {
  organization_id: text,
  name: text,
  tags: sharedJson<ProvisionerTags>({}),
  provisioners: sharedJson<ReadonlyArray<string>>([]),
  version: text,
  cpus: int,
  cpus_promised: int,
  memory_bytes: int,
  memory_promised_bytes: int,
  containers: int,
  disk_free_bytes: nullableInt,
  first_seen_at: date,
  reported_at: date,
  draining: bool
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  return ProvisionerHostRepo.of({
    upsertMany: (hosts) => {
      if (hosts.length === 0) return Effect.void
      const rows = hosts.map((h) => ({
        organization_id: h.organization_id,
        name: h.name,
        tags: JSON.stringify(h.tags),
        provisioners: JSON.stringify(h.provisioners),
        version: h.version,
        cpus: h.cpus,
        cpus_promised: h.cpus_promised,
        memory_bytes: h.memory_bytes,
        memory_promised_bytes: h.memory_promised_bytes,
        containers: h.containers,
        disk_free_bytes: h.disk_free_bytes,
        first_seen_at: h.first_seen_at.toISOString(),
        reported_at: h.reported_at.toISOString()
      }))
      return sql`INSERT INTO provisioner_hosts ${sql.insert(rows)}
        ON CONFLICT (organization_id, name) DO UPDATE SET tags = excluded.tags,
          provisioners = excluded.provisioners, version = excluded.version, cpus = excluded.cpus,
          cpus_promised = excluded.cpus_promised, memory_bytes = excluded.memory_bytes,
          memory_promised_bytes = excluded.memory_promised_bytes, containers = excluded.containers,
          disk_free_bytes = excluded.disk_free_bytes, reported_at = excluded.reported_at
        WHERE provisioner_hosts.reported_at <= excluded.reported_at`.pipe(Effect.orDie, Effect.asVoid)
    },

    list: (organizationId) =>
      sql<Row>`SELECT * FROM provisioner_hosts WHERE organization_id = ${organizationId} ORDER BY name`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToHost))
      ),

    listForPlacement: (organizationId, reportedSince) =>
      sql<Row>`SELECT * FROM provisioner_hosts WHERE organization_id = ${organizationId}
        AND (reported_at >= ${reportedSince.toISOString()} OR draining = ${bind(true)})`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToHost))
      ),

    setDraining: (organizationId, name, draining) =>
      sql<Row>`UPDATE provisioner_hosts SET draining = ${bind(draining)}
        WHERE organization_id = ${organizationId} AND name = ${name} RETURNING *`.pipe(
        Effect.orDie,
        Effect.map((rs) => first(rs, rowToHost))
      ),

    purge: (olderThan) =>
      sql<Row>`DELETE FROM provisioner_hosts WHERE reported_at < ${olderThan.toISOString()} RETURNING name`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.length)
      ),

    find: (organizationId, name) =>
      sql<Row>`SELECT * FROM provisioner_hosts WHERE organization_id = ${organizationId} AND name = ${name}`.pipe(
        Effect.orDie,
        Effect.map((rs) => first(rs, rowToHost))
      )
  })
})

export const layer: Layer.Layer<ProvisionerHostRepo, never, SqlClient.SqlClient> = Layer.effect(
  ProvisionerHostRepo,
  make
)
