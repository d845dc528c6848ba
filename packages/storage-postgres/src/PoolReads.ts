/**
 * The hot reads straight on the pool (see storage-sql's DirectReads.ts, which decides when:
 * outside the fiber's own transaction only). `pool.query` takes an idle connection, runs the
 * statement and gives the connection back; the pool never hands out one a transaction holds,
 * so these reads see committed data only.
 *
 * Each read is a named (prepared) statement: every connection parses and plans it once, then
 * only binds and executes it, which more than halves what Postgres spends on the key read.
 * Except a text with `*`: a prepared `SELECT *` keeps the column list it was planned with, and
 * once a migration adds a column (another replica upgrading first) Postgres refuses it on that
 * connection ("cached plan must not change result type"). The same refusal after the type of
 * a listed column changed gives the text a new name, parsed afresh on every connection, and
 * the read is retried once (the pool closes a connection a query failed on, so the old name
 * goes with it).
 */
import { SqlError } from "@effect/sql"
import type { PoolRead } from "@workbay/storage-sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import type pg from "pg"

type Row = Record<string, any>
type Statement = { readonly name?: string; readonly text: string }

/** Postgres' feature_not_supported, which a prepared statement whose result type changed fails with. */
const RESULT_TYPE_CHANGED = "0A000"

const run = (pool: pg.Pool, statement: Statement, params: ReadonlyArray<unknown>) =>
  Effect.async<ReadonlyArray<Row>, { readonly cause: unknown }>((resume) => {
    // pg writes `values` into the config it is given: a fresh one per query.
    pool.query<Row>({ ...statement, values: params as Array<unknown> }, (cause, result) => {
      resume(cause ? Effect.fail({ cause }) : Effect.succeed(result.rows))
    })
  })

const toSqlError = (e: { readonly cause: unknown }) =>
  new SqlError.SqlError({ cause: e.cause, message: "Failed to execute statement" })

/**
 * The {@link PoolRead} of `pool`, for `registerPoolReads`. `prepared: false` runs every read
 * unnamed, for connection poolers that cannot keep prepared statements (PgBouncer's transaction
 * mode before 1.21).
 */
export const poolRead = (pool: pg.Pool, prepared = true): PoolRead => {
  /** Per text, its statement; the texts are the repositories' constants, so this stays small. */
  const statements = new Map<string, Statement>()
  let renames = 0
  const named = (text: string) =>
    `workbay_${createHash("sha256").update(text).digest("hex").slice(0, 24)}${renames === 0 ? "" : `_${renames}`}`
  const statementOf = (text: string): Statement => {
    let statement = statements.get(text)
    if (statement === undefined) {
      statement = !prepared || text.includes("*") ? { text } : { name: named(text), text }
      statements.set(text, statement)
    }
    return statement
  }
  return (text, params) => {
    const statement = statementOf(text)
    return run(pool, statement, params).pipe(
      Effect.catchIf(
        (e) => statement.name !== undefined && (e.cause as { code?: unknown } | null)?.code === RESULT_TYPE_CHANGED,
        () =>
          Effect.suspend(() => {
            if (statements.get(text) === statement) {
              renames++
              statements.set(text, { name: named(text), text })
            }
            return run(pool, statementOf(text), params)
          })
      ),
      Effect.mapError(toSqlError)
    )
  }
}
