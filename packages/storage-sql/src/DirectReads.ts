/**
 * Direct reads. Every authenticated request runs the same few reads (user by id,
 * memberships of a user, key with its user), and on SQLite @effect/sql's statement
 * pipeline (span, scope, semaphore, template compilation: about 30 us a query) costs
 * ten times the query itself. So on @effect/sql-sqlite-node, which has one connection
 * and runs statements synchronously, those reads run their (cached, prepared)
 * statement on that connection directly. Only while no transaction is open: a
 * transaction holds the connection, and a read must neither see its uncommitted
 * writes nor slip into it, so then (and on any other client) reads take the ordinary
 * path, which waits for the transaction.
 *
 * On Postgres (@workbay/storage-postgres registers its pool with {@link registerPoolReads}),
 * the ordinary path costs a pool acquire, a scope, a span and a template compilation per
 * statement, several times what the driver itself costs; reads given for both dialects
 * ({@link dialectReads}) run their Postgres SQL on the pool directly instead, as prepared
 * statements. The pool never hands out a connection a transaction holds, so such a read
 * sees committed data only; a read inside the fiber's own transaction takes the ordinary
 * path, on the transaction's connection, and sees its writes.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import { Context, Effect, Option } from "effect"
import { openTransactions } from "./Transaction.js"

type Row = Record<string, any>

const SQLITE_NODE_CLIENT = Symbol.for("@effect/sql-sqlite-node/SqliteClient")

/** The connection to read on directly, when the client is SQLite on better-sqlite3 without row transforms. */
const directConnection = (sql: SqlClient.SqlClient) =>
  SQLITE_NODE_CLIENT in sql && sql.withoutTransforms() === sql
    ? Effect.map(Effect.orDie(Effect.scoped(sql.reserve)), Option.some)
    : Effect.succeed(Option.none<Connection>())

/**
 * Runs `statement` (the ordinary path), or the same SQL directly as `text` with `params`
 * when that is safe. `text` must be what `statement`'s template compiles to.
 */
export type Read = (
  text: string,
  params: ReadonlyArray<unknown>,
  statement: () => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>

/** The {@link Read} of `sql`; build it once per repository module, as it reserves the connection to read on. */
export const directReads = (sql: SqlClient.SqlClient): Effect.Effect<Read> =>
  Effect.map(directConnection(sql), (connection): Read => {
    const direct = Option.getOrUndefined(connection)
    return (text, params, statement) =>
      direct === undefined
        ? statement()
        // Transactions of every repository module are counted (Transaction.ts), wherever they were opened.
        : Effect.contextWithEffect((context: Context.Context<never>) =>
          openTransactions(sql) === 0 && Option.isNone(Context.getOption(context, SqlClient.TransactionConnection))
            ? direct.execute(text, params, undefined)
            : statement()
        )
  })

/**
 * Runs a Postgres read's SQL (`$n` placeholders) with `params` on a pool, outside any
 * transaction: what {@link registerPoolReads} registers for a client.
 */
export type PoolRead = (text: string, params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>

const poolReads = new WeakMap<SqlClient.SqlClient, PoolRead>()

/**
 * Lets reads of `sql` given for both dialects ({@link dialectReads}) run on a pool directly.
 * The pool's rows must be the ones the client's statements answer (same connections, same
 * type parsers, no row transforms). Call it before the repositories are built.
 */
export const registerPoolReads = (sql: SqlClient.SqlClient, read: PoolRead): void => void poolReads.set(sql, read)

/** A hot read's SQL as each dialect's template compiles it: SQLite's `?` and Postgres' `$n` placeholders. */
export interface ReadSql {
  readonly sqlite: string
  readonly pg: string
}

/**
 * Like {@link Read}, for a read given for both dialects: `sql.sqlite` runs as {@link directReads}
 * runs it, `sql.pg` on a registered pool (see {@link registerPoolReads}) when the fiber is in no
 * transaction; otherwise `statement`, which must compile to the same SQL.
 */
export type DialectRead = (
  sql: ReadSql,
  params: ReadonlyArray<unknown>,
  statement: () => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>

/** The {@link DialectRead} of `sql`; build it once per repository module. */
export const dialectReads = (sql: SqlClient.SqlClient): Effect.Effect<DialectRead> => {
  const pool = poolReads.get(sql)
  if (pool !== undefined) {
    return Effect.succeed((text, params, statement) =>
      Effect.contextWithEffect((context: Context.Context<never>) =>
        Option.isNone(Context.getOption(context, SqlClient.TransactionConnection))
          ? pool(text.pg, params)
          : statement()
      )
    )
  }
  return Effect.map(directReads(sql), (read): DialectRead => (text, params, statement) => read(text.sqlite, params, statement))
}
