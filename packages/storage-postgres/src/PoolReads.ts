/**
 * The hot reads straight on the pool (see storage-sql's DirectReads.ts, which decides when:
 * outside the fiber's own transaction only). `pool.query` takes an idle connection, runs the
 * statement and gives the connection back; the pool never hands out one a transaction holds,
 * so these reads see committed data only.
 *
 * Each read is a named (prepared) statement: every connection parses and plans it once, then
 * only binds and executes it, which halves what Postgres spends on a key lookup. Except a text
 * with `*`: a prepared `SELECT *` keeps the column list it was planned with, and after a
 * migration adds a column (another replica upgrading first) Postgres refuses it ("cached plan
 * must not change result type") on that connection for good. Such texts go unnamed.
 */
import { SqlError } from "@effect/sql"
import type { PoolRead } from "@workbay/storage-sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import type pg from "pg"

type Statement = { readonly name?: string; readonly text: string }

/** Per text, its statement; the texts are the repositories' constants, so this stays small. */
const statements = new Map<string, Statement>()

const statementOf = (text: string): Statement => {
  let statement = statements.get(text)
  if (statement === undefined) {
    statement = text.includes("*")
      ? { text }
      : { name: `workbay_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`, text }
    statements.set(text, statement)
  }
  return statement
}

/** The {@link PoolRead} of `pool`, for `registerPoolReads`. */
export const poolRead = (pool: pg.Pool): PoolRead => (text, params) => {
  const statement = statementOf(text)
  return Effect.async<ReadonlyArray<Record<string, any>>, SqlError.SqlError>((resume) => {
    // pg writes `values` into the config it is given: a fresh one per query.
    pool.query<Record<string, any>>({ ...statement, values: params as Array<unknown> }, (cause, result) => {
      resume(
        cause
          ? Effect.fail(new SqlError.SqlError({ cause, message: "Failed to execute statement" }))
          : Effect.succeed(result.rows)
      )
    })
  })
}
