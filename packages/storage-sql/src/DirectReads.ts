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
 */
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
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
 * Whether a read may run on the connection directly: no transaction is open on `sql`.
 * Transactions of every repository module are counted (Transaction.ts), wherever they were
 * opened; one opened around them (`sql.withTransaction`) is seen in the fiber's context.
 */
const directIsSafe = (sql: SqlClient.SqlClient, context: Context.Context<never>) =>
  openTransactions(sql) === 0 && Option.isNone(Context.getOption(context, SqlClient.TransactionConnection))

/**
 * Runs a read `statement` (`sql\`...\``) directly when that is safe, as {@link directReads} does,
 * its template compiled here once (`statement.compile()`), else the statement itself (the
 * ordinary path). For reads beyond the hottest few, whose SQL text is not written out: list
 * pages and what their rows read (about 25 us less a statement, and no scheduler hop from the
 * semaphore, so a page answers without suspending). Only for statements that write nothing;
 * on any other client (Postgres) it is the statement itself.
 */
export type Reads = <A extends object = Row>(
  statement: Statement.Statement<A>
) => Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>

/** The {@link Reads} of `sql`; build it once per repository module, as it reserves the connection to read on. */
export const directStatements = (sql: SqlClient.SqlClient): Effect.Effect<Reads> =>
  Effect.map(directConnection(sql), (connection): Reads => {
    const direct = Option.getOrUndefined(connection)
    if (direct === undefined) return <A extends object>(statement: Statement.Statement<A>) => statement
    return <A extends object>(statement: Statement.Statement<A>) =>
      Effect.contextWithEffect((context: Context.Context<never>) => {
        if (!directIsSafe(sql, context)) return statement
        const [text, params] = statement.compile()
        return direct.execute(text, params, undefined) as Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>
      })
  })

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
