/**
 * Transactions every repository module opens, counted per client. On SQLite the hot
 * reads may bypass @effect/sql (see DirectReads.ts); they must not while any
 * transaction holds the single connection, wherever it was opened.
 */
import { SqlClient, SqlError } from "@effect/sql"
import { Transactions } from "@workbay/core"
import { Effect, Layer } from "effect"

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

const SqlErrorClass = SqlError.SqlError

/** The `Transactions` port: a unit of work in one counted transaction; SQL errors in it are defects. */
export const transactionsLayer: Layer.Layer<Transactions, never, SqlClient.SqlClient> = Layer.effect(
  Transactions,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const withTransaction = transaction(sql)
    return Transactions.of({
      atomic: (effect) =>
        withTransaction(effect).pipe(
          Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlErrorClass, Effect.die)
        ) as typeof effect
    })
  })
)
