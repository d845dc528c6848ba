/**
 * A task's conversation (the `TaskLogRepo` port) on @effect/sql (migration 0019): one row per entry,
 * read by (workspace, id). An append is one transaction: the INSERT of the batch, then one DELETE of
 * the workspace's entries past the cap (counted and summed newest first with window functions,
 * which both dialects have). A task's log snapshot (migration 0046) is one row per task, upserted.
 */
import { SqlClient } from "@effect/sql"
import { type StoredTaskLogSnapshot, type TaskLogEntry, TaskLogRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, first, from, int, literalOf, type Row, text } from "../Columns.js"
import { transaction } from "../Transaction.js"

const rowToEntry = columns<TaskLogEntry>("task_log_entries", {
  id: int,
  type: literalOf<TaskLogEntry["type"]>()(["input", "output"]),
  content: text,
  time: from("created_at", date)
}).read

const rowToSnapshot = columns<StoredTaskLogSnapshot>("task_log_snapshots", {
  snapshot: from("log_snapshot", text),
  created_at: date
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)

  return TaskLogRepo.of({
    append: (workspaceId, entries, cap) =>
      entries.length === 0 ? Effect.succeed([]) : withTransaction(Effect.gen(function*() {
        const rows = yield* sql<Row>`INSERT INTO task_log_entries ${
          sql.insert(entries.map((e) => ({
            workspace_id: workspaceId,
            type: e.type,
            content: e.content,
            bytes: e.bytes,
            created_at: e.time.toISOString()
          })))
        } RETURNING id, type, content, created_at`
        yield* sql`DELETE FROM task_log_entries WHERE workspace_id = ${workspaceId} AND id IN (
          SELECT id FROM (
            SELECT id, SUM(bytes) OVER (ORDER BY id DESC) AS total, ROW_NUMBER() OVER (ORDER BY id DESC) AS n
            FROM task_log_entries WHERE workspace_id = ${workspaceId}
          ) kept WHERE kept.total > ${cap.bytes} OR kept.n > ${cap.entries})`
        return rows.map(rowToEntry).sort((a, b) => a.id - b.id)
      })).pipe(Effect.orDie),

    list: (workspaceId) =>
      sql<
        Row
      >`SELECT id, type, content, created_at FROM task_log_entries WHERE workspace_id = ${workspaceId} ORDER BY id`
        .pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map(rowToEntry))
        ),

    find: (workspaceId, id) =>
      sql<
        Row
      >`SELECT id, type, content, created_at FROM task_log_entries WHERE workspace_id = ${workspaceId} AND id = ${id}`
        .pipe(
          Effect.orDie,
          Effect.map((rows) => first(rows, rowToEntry))
        ),

    remove: (workspaceId, id) =>
      Effect.asVoid(Effect.orDie(sql`DELETE FROM task_log_entries WHERE workspace_id = ${workspaceId} AND id = ${id}`)),

    saveSnapshot: (taskId, snapshot, at) =>
      Effect.asVoid(Effect.orDie(
        sql`INSERT INTO task_log_snapshots (task_id, log_snapshot, created_at)
          VALUES (${taskId}, ${snapshot}, ${at.toISOString()})
          ON CONFLICT (task_id) DO UPDATE SET log_snapshot = excluded.log_snapshot, created_at = excluded.created_at`
      )),

    findSnapshot: (taskId) =>
      sql<Row>`SELECT log_snapshot, created_at FROM task_log_snapshots WHERE task_id = ${taskId}`.pipe(
        Effect.orDie,
        Effect.map((rows) => first(rows, rowToSnapshot))
      )
  })
})

export const layer: Layer.Layer<TaskLogRepo, never, SqlClient.SqlClient> = Layer.effect(TaskLogRepo, make)
