/** The connection log on @effect/sql: connect/disconnect upserts, newest-first pages, capped counts, purge by age. */
import { SqlClient } from "@effect/sql"
import { type ConnectionLogFilter, type ConnectionLogRecord, ConnectionLogRepo, connectionTypes } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, literal, nullableDate, nullableInt, nullableText, text } from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { cappedCount, filters, newestFirst } from "../Filters.js"
import { purgeBefore } from "../Purge.js"
import { bindRecord } from "../Rows.js"

export const rowToConnectionLog = columns<ConnectionLogRecord>("connection_logs", {
  id: text,
  connect_time: date,
  organization_id: text,
  workspace_owner_id: text,
  workspace_id: text,
  workspace_name: text,
  agent_name: text,
  type: literal(connectionTypes),
  ip: text,
  code: nullableInt,
  user_agent: text,
  user_id: nullableText,
  slug_or_port: text,
  connection_id: nullableText,
  disconnect_time: nullableDate,
  disconnect_reason: text
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)

  const { allOf, equals, oneOf, userWith } = filters(sql)

  const where = (f: ConnectionLogFilter) =>
    allOf([
      oneOf("organization_id", f.organizationIds),
      equals("workspace_owner_id", f.workspaceOwnerId),
      userWith("workspace_owner_id", "username", f.workspaceOwner),
      userWith("workspace_owner_id", "email", f.workspaceOwnerEmail),
      equals("type", f.type),
      userWith("user_id", "username", f.username),
      userWith("user_id", "email", f.userEmail),
      f.connectedAfter === undefined ? undefined : sql`connect_time >= ${f.connectedAfter.toISOString()}`,
      f.connectedBefore === undefined ? undefined : sql`connect_time <= ${f.connectedBefore.toISOString()}`,
      equals("workspace_id", f.workspaceId),
      equals("connection_id", f.connectionId),
      // Web connections have no close time: they are neither ongoing nor completed.
      f.status === "ongoing"
        ? sql`disconnect_time IS NULL AND type NOT IN ('workspace_app', 'port_forwarding')`
        : undefined,
      f.status === "completed"
        ? sql`disconnect_time IS NOT NULL AND type NOT IN ('workspace_app', 'port_forwarding')`
        : undefined
    ])

  const insertRow = (e: ConnectionLogRecord) => sql.insert(bindRecord(e))

  return ConnectionLogRepo.of({
    // The unique key (connection_id, workspace_id, agent_name) pairs a session's events; web
    // entries have no connection id, and NULLs never conflict, so each is a row of its own.
    upsert: (e, status) =>
      (status === "connected"
        ? sql`INSERT INTO connection_logs ${insertRow(e)}
            ON CONFLICT (connection_id, workspace_id, agent_name) DO UPDATE SET
              connect_time = CASE WHEN excluded.connect_time < connection_logs.connect_time
                THEN excluded.connect_time ELSE connection_logs.connect_time END
            RETURNING *`
        : sql`INSERT INTO connection_logs ${insertRow(e)}
            ON CONFLICT (connection_id, workspace_id, agent_name) DO UPDATE SET
              disconnect_time = CASE WHEN connection_logs.disconnect_time IS NULL
                THEN excluded.disconnect_time ELSE connection_logs.disconnect_time END,
              disconnect_reason = CASE WHEN connection_logs.disconnect_time IS NULL
                THEN excluded.disconnect_reason ELSE connection_logs.disconnect_reason END,
              code = CASE WHEN connection_logs.disconnect_time IS NULL
                THEN excluded.code ELSE connection_logs.code END
            RETURNING *`).pipe(Effect.orDie, Effect.map((rs) => rowToConnectionLog(rs[0]!))),
    list: (f) =>
      newestFirst(sql, reads, "connection_logs", "connect_time", where(f), f).pipe(
        Effect.map((rs) => rs.map(rowToConnectionLog))
      ),
    count: (f, cap) => cappedCount(sql, reads, "connection_logs", where(f), cap),
    purgeBefore: (before) => purgeBefore(sql, "connection_logs", "connect_time", before)
  })
})

export const layer: Layer.Layer<ConnectionLogRepo, never, SqlClient.SqlClient> = Layer.effect(ConnectionLogRepo, make)
