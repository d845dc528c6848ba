/**
 * Provisioner daemons on @effect/sql: one row per worker name, upserted when a worker starts;
 * `organization_id` NULL (the built-in workers) serves every organization. The status filter
 * is stated over `last_seen_at` and `current_job_id` with the caller's stale bound.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { type ProvisionerDaemonRecord, ProvisionerDaemonRepo, type ProvisionerDaemonStatus } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, first, json, nullableDate, nullableText, type Row, text } from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { filters } from "../Filters.js"
import { tagConditions } from "./Tags.js"

const rowToDaemon = columns<ProvisionerDaemonRecord>("provisioner_daemons", {
  id: text,
  organization_id: nullableText,
  name: text,
  provisioners: json([]),
  tags: json({}),
  created_at: date,
  last_seen_at: nullableDate,
  version: text,
  api_version: text,
  key_name: text,
  key_id: nullableText,
  host: nullableText,
  current_job_id: nullableText,
  previous_job_id: nullableText
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const f = filters(sql)
  const tags = tagConditions(sql)
  const serves = (organizationId: string) => sql`(organization_id IS NULL OR organization_id = ${organizationId})`

  const statusIs = (status: ProvisionerDaemonStatus, staleBefore: string): Statement.Fragment =>
    status === "offline"
      ? sql`(last_seen_at IS NULL OR last_seen_at < ${staleBefore})`
      : status === "busy"
      ? sql`(last_seen_at >= ${staleBefore} AND current_job_id IS NOT NULL)`
      : sql`(last_seen_at >= ${staleBefore} AND current_job_id IS NULL)`

  return ProvisionerDaemonRepo.of({
    register: (d) => {
      const row = {
        id: d.id,
        organization_id: d.organization_id,
        name: d.name,
        provisioners: JSON.stringify(d.provisioners),
        tags: JSON.stringify(d.tags),
        created_at: d.created_at.toISOString(),
        last_seen_at: d.last_seen_at?.toISOString() ?? null,
        version: d.version,
        api_version: d.api_version,
        key_name: d.key_name,
        key_id: d.key_id ?? null,
        host: d.host ?? null
      }
      // A restarted worker of the same name takes the row: new id, no current job.
      return sql`INSERT INTO provisioner_daemons ${sql.insert(row)}
        ON CONFLICT (name) DO UPDATE SET id = excluded.id, organization_id = excluded.organization_id,
          provisioners = excluded.provisioners, tags = excluded.tags, created_at = excluded.created_at,
          last_seen_at = excluded.last_seen_at, version = excluded.version, api_version = excluded.api_version,
          key_name = excluded.key_name, key_id = excluded.key_id, host = excluded.host, current_job_id = NULL`.pipe(
        Effect.orDie,
        Effect.asVoid
      )
    },

    seen: (id, now) =>
      sql`UPDATE provisioner_daemons SET last_seen_at = ${now.toISOString()} WHERE id = ${id}`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),

    started: (id, jobId, now) =>
      sql`UPDATE provisioner_daemons SET current_job_id = ${jobId}, last_seen_at = ${now.toISOString()} WHERE id = ${id}`
        .pipe(
          Effect.orDie,
          Effect.asVoid
        ),

    finished: (id, jobId, now) =>
      sql`UPDATE provisioner_daemons SET current_job_id = NULL, previous_job_id = ${jobId}, last_seen_at = ${now.toISOString()}
        WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),

    findById: (id) =>
      sql<Row>`SELECT * FROM provisioner_daemons WHERE id = ${id}`.pipe(
        Effect.orDie,
        Effect.map((rs) => first(rs, rowToDaemon))
      ),

    findByName: (name) =>
      sql<Row>`SELECT * FROM provisioner_daemons WHERE name = ${name}`.pipe(
        Effect.orDie,
        Effect.map((rs) => first(rs, rowToDaemon))
      ),

    list: (filter) => {
      const stale = filter.staleBefore.toISOString()
      return sql<Row>`SELECT * FROM provisioner_daemons WHERE ${
        f.allOf([
          serves(filter.organizationId),
          f.oneOf("id", filter.ids),
          filter.tags === undefined || Object.keys(filter.tags).length === 0
            ? undefined
            : tags.include("tags", filter.tags),
          filter.statuses === undefined || filter.statuses.length === 0
            ? undefined
            : sql.or(filter.statuses.map((s) => statusIs(s, stale)))
        ])
      } ORDER BY created_at DESC, name LIMIT ${filter.limit}`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToDaemon))
      )
    },

    serving: (organizationId) =>
      reads.mapped(
        sql<Row>`SELECT * FROM provisioner_daemons WHERE ${serves(organizationId)}`,
        (rs) => rs.map(rowToDaemon)
      ),

    purge: (olderThan) =>
      sql<
        Row
      >`DELETE FROM provisioner_daemons WHERE last_seen_at IS NULL OR last_seen_at < ${olderThan.toISOString()} RETURNING id`
        .pipe(
          Effect.orDie,
          Effect.map((rs) => rs.length)
        )
  })
})

export const layer: Layer.Layer<ProvisionerDaemonRepo, never, SqlClient.SqlClient> = Layer.effect(
  ProvisionerDaemonRepo,
  make
)
