/** The audit log on @effect/sql: append, newest-first pages, capped counts, purge by age. */
import { SqlClient } from "@effect/sql"
import { type AuditLogFilter, type AuditLogRecord, AuditLogRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, int, json, text } from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { cappedCount, filters, newestFirst } from "../Filters.js"
import { purgeBefore } from "../Purge.js"
import { bindRecord, rowToOrganization, rowToUser } from "../Rows.js"

export const rowToAuditLog = columns<AuditLogRecord>("audit_logs", {
  id: text,
  time: date,
  user_id: text,
  organization_id: text,
  ip: text,
  user_agent: text,
  request_id: text,
  action: text,
  resource_type: text,
  resource_id: text,
  resource_target: text,
  resource_icon: text,
  diff: json<AuditLogRecord["diff"]>({}),
  status_code: int,
  additional_fields: json({}),
  description: text,
  build_reason: text
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)

  const { allOf, equals, oneOf, userWith } = filters(sql)

  const where = (f: AuditLogFilter) =>
    allOf([
      equals("resource_type", f.resourceType),
      equals("resource_id", f.resourceId),
      equals("action", f.action),
      equals("resource_target", f.resourceTarget),
      oneOf("user_id", f.userIds),
      // By the entry's user, deleted users included (their usernames may have been taken since).
      userWith("user_id", "username", f.username),
      userWith("user_id", "email", f.email),
      oneOf("organization_id", f.organizationIds),
      f.dateFrom === undefined ? undefined : sql`time >= ${f.dateFrom.toISOString()}`,
      f.dateTo === undefined ? undefined : sql`time < ${f.dateTo.toISOString()}`,
      equals("build_reason", f.buildReason),
      equals("request_id", f.requestId)
    ])

  return AuditLogRepo.of({
    insert: (e) => sql`INSERT INTO audit_logs ${sql.insert(bindRecord(e))}`.pipe(Effect.orDie, Effect.asVoid),
    list: (f) =>
      newestFirst(sql, reads, "audit_logs", "time", where(f), f).pipe(Effect.map((rs) => rs.map(rowToAuditLog))),
    count: (f, cap) => cappedCount(sql, reads, "audit_logs", where(f), cap),
    purgeBefore: (before) => purgeBefore(sql, "audit_logs", "time", before),
    usersByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(sql`SELECT * FROM users WHERE ${sql.in("id", ids)}`, (rs) => rs.map(rowToUser)),
    organizationsByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(sql`SELECT * FROM organizations WHERE ${sql.in("id", ids)}`, (rs) => rs.map(rowToOrganization))
  })
})

export const layer: Layer.Layer<AuditLogRepo, never, SqlClient.SqlClient> = Layer.effect(AuditLogRepo, make)
