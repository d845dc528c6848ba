/** Deleting old rows in bounded batches, so a large first purge never holds the database for long. */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Rows deleted per statement. */
export const PURGE_BATCH = 5000

/**
 * Deletes the rows of `table` whose `column` is before `before`, `PURGE_BATCH` at a time
 * (each batch its own statement, so other requests run in between); answers how many. Rows are
 * named by `key`, the table's key column (default `id`).
 */
export const purgeBefore = (
  sql: SqlClient.SqlClient,
  table: string,
  column: string,
  before: Date,
  batch: number = PURGE_BATCH,
  key = "id"
) =>
  Effect.gen(function*() {
    const t = sql(table)
    const c = sql(column)
    const k = sql(key)
    const at = before.toISOString()
    let total = 0
    for (;;) {
      const rows = yield* sql`DELETE FROM ${t} WHERE ${k} IN (
        SELECT ${k} FROM ${t} WHERE ${c} < ${at} ORDER BY ${c} LIMIT ${batch}
      ) RETURNING ${k}`
      total += rows.length
      if (rows.length < batch) return total
      yield* Effect.yieldNow()
    }
  }).pipe(Effect.orDie)
