/** The audit log on @effect/sql: append, newest-first pages, capped counts, purge by age. */
import { SqlClient, type Statement } from "@effect/sql"
import { AuditLogRepo, type AuditLogFilter, type AuditLogRecord } from "@workbay/core"
import { Effect, Layer } from "effect"
import { bind, fromJson, rowToOrganization, rowToUser, toDate, toNumber } from "./Rows.js"
import { purgeBefore } from "./Purge.js"

type Row = Record<string, unknown>

export const rowToAuditLog = (r: Row): AuditLogRecord => ({
  id: r.id as string,
  time: toDate(r.time),
  user_id: r.user_id as string,
  organization_id: r.organization_id as string,
  ip: r.ip as string,
  user_agent: r.user_agent as string,
  request_id: r.request_id as string,
  action: r.action as string,
  resource_type: r.resource_type as string,
  resource_id: r.resource_id as string,
  resource_target: r.resource_target as string,
  resource_icon: r.resource_icon as string,
  diff: fromJson(r.diff, {}),
  status_code: toNumber(r.status_code),
  additional_fields: fromJson(r.additional_fields, {}),
  description: r.description as string,
  build_reason: r.build_reason as string
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const where = (f: AuditLogFilter) => {
    const parts: Array<Statement.Fragment> = []
    if (f.resourceType !== undefined) parts.push(sql`resource_type = ${f.resourceType}`)
    if (f.resourceId !== undefined) parts.push(sql`resource_id = ${f.resourceId}`)
    if (f.action !== undefined) parts.push(sql`action = ${f.action}`)
    if (f.resourceTarget !== undefined) parts.push(sql`resource_target = ${f.resourceTarget}`)
    if (f.userIds !== undefined) parts.push(f.userIds.length === 0 ? sql`1 = 0` : sql.in("user_id", f.userIds))
    // By the entry's user, deleted users included (their usernames may have been taken since).
    if (f.username !== undefined) parts.push(sql`user_id IN (SELECT id FROM users WHERE lower(username) = lower(${f.username}))`)
    if (f.email !== undefined) parts.push(sql`user_id IN (SELECT id FROM users WHERE lower(email) = lower(${f.email}))`)
    if (f.organizationIds !== undefined) {
      parts.push(f.organizationIds.length === 0 ? sql`1 = 0` : sql.in("organization_id", f.organizationIds))
    }
    if (f.dateFrom !== undefined) parts.push(sql`time >= ${f.dateFrom.toISOString()}`)
    if (f.dateTo !== undefined) parts.push(sql`time < ${f.dateTo.toISOString()}`)
    if (f.buildReason !== undefined) parts.push(sql`build_reason = ${f.buildReason}`)
    if (f.requestId !== undefined) parts.push(sql`request_id = ${f.requestId}`)
    return parts.length === 0 ? sql`1 = 1` : sql.and(parts)
  }

  return AuditLogRepo.of({
    insert: (e) => {
      const row: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(e)) row[k] = bind(v)
      return sql`INSERT INTO audit_logs ${sql.insert(row)}`.pipe(Effect.orDie, Effect.asVoid)
    },
    // Newest first along the (time, id) index: a page costs the same at any table size.
    list: (f) =>
      sql`SELECT * FROM audit_logs WHERE ${where(f)} ORDER BY time DESC, id DESC LIMIT ${f.limit} OFFSET ${f.offset}`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToAuditLog))
      ),
    // Counting stops after cap + 1 rows, so the count costs at most that many index entries.
    count: (f, cap) =>
      sql<{ n: number | string }>`SELECT count(*) AS n FROM (SELECT 1 FROM audit_logs WHERE ${where(f)} LIMIT ${cap + 1}) capped`.pipe(
        Effect.orDie,
        Effect.map((rs) => Number(rs[0]!.n))
      ),
    purgeBefore: (before) => purgeBefore(sql, "audit_logs", "time", before),
    usersByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql`SELECT * FROM users WHERE ${sql.in("id", ids)}`.pipe(Effect.orDie, Effect.map((rs) => rs.map((r) => rowToUser(r)))),
    organizationsByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql`SELECT * FROM organizations WHERE ${sql.in("id", ids)}`.pipe(Effect.orDie, Effect.map((rs) => rs.map(rowToOrganization)))
  })
})

export const layer: Layer.Layer<AuditLogRepo, never, SqlClient.SqlClient> = Layer.effect(AuditLogRepo, make)
