/**
 * The plan of a query on the suite's client, one line per step, for the plan tests of both
 * dialects: SQLite's `EXPLAIN QUERY PLAN` details, Postgres' `EXPLAIN` lines. On Postgres a tiny
 * test table is scanned or sorted whatever its indexes, so `off` prices that step out (in a
 * transaction of its own, `SET LOCAL enable_<off> = off`) and the plan shows what a large table gets.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export const queryPlan = (
  text: string,
  params: ReadonlyArray<unknown> = [],
  off?: "sort" | "seqscan"
): Effect.Effect<Array<string>, unknown, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.onDialectOrElse({
      pg: () =>
        sql.withTransaction(Effect.gen(function*() {
          if (off !== undefined) yield* sql.unsafe(`SET LOCAL enable_${off} = off`)
          const rows = yield* sql.unsafe<Record<string, string>>(`EXPLAIN ${text}`, params as Array<unknown>)
          return rows.map((r) => Object.values(r)[0]!)
        })),
      orElse: () =>
        Effect.map(
          sql.unsafe<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params as Array<unknown>),
          (rows) => rows.map((r) => r.detail)
        )
    })
  })
