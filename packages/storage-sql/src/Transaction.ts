/**
 * Transactions every repository module opens, counted per client. On SQLite the hot
 * reads may bypass @effect/sql (see Repositories.ts); they must not while any
 * transaction holds the single connection, wherever it was opened.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const open = new WeakMap<SqlClient.SqlClient, { n: number }>()

const counterOf = (sql: SqlClient.SqlClient) => {
  let counter = open.get(sql)
  if (counter === undefined) {
    counter = { n: 0 }
    open.set(sql, counter)
  }
  return counter
}

/** The number of transactions open on `sql` through {@link transaction}. */
export const openTransactions = (sql: SqlClient.SqlClient): number => counterOf(sql).n

/** `sql.withTransaction`, counted: use it instead of calling `withTransaction` directly. */
export const transaction = (sql: SqlClient.SqlClient) => {
  const counter = counterOf(sql)
  return <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => void counter.n++),
      () => sql.withTransaction(effect),
      () => Effect.sync(() => void counter.n--)
    )
}
