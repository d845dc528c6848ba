/**
 * Transactions every repository module opens, counted per client. On SQLite the hot
 * reads may bypass @effect/sql (see DirectReads.ts); they must not while any
 * transaction holds the single connection, wherever it was opened.
 */
import { SqlClient, SqlError } from "@effect/sql"
import { Transactions } from "@workbay/core"
import { Effect, FiberRef, Layer } from "effect"

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

/** What runs when the fiber's outermost counted transaction ends; undefined outside one. */
const transactionEnd = FiberRef.unsafeMake<Array<() => void> | undefined>(undefined)

/**
 * Calls `f` when the fiber's outermost transaction ends, committed or rolled back (at once
 * outside a transaction): what a cache of committed rows drops again, so that a read by another
 * fiber before the commit (Postgres: another connection) is not kept.
 */
export const afterTransaction = (f: () => void): Effect.Effect<void> =>
  Effect.flatMap(
    FiberRef.get(transactionEnd),
    (pending) => Effect.sync(() => pending === undefined ? f() : void pending.push(f))
  )

/** `sql.withTransaction`, counted: use it instead of calling `withTransaction` directly. */
export const transaction = (sql: SqlClient.SqlClient) => {
  const counter = counterOf(sql)
  return <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => void counter.n++),
      () =>
        Effect.flatMap(FiberRef.get(transactionEnd), (outer) => {
          if (outer !== undefined) return sql.withTransaction(effect)
          const pending: Array<() => void> = []
          return Effect.ensuring(
            Effect.locally(sql.withTransaction(effect), transactionEnd, pending),
            Effect.sync(() => {
              for (const f of pending) f()
            })
          )
        }),
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
