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
 * Rows read as values. better-sqlite3 makes each row object through V8's API, one property set
 * per column (about 0.25 us a value, null or not: a page of 25 agents costs 170 us, more than
 * the query); the same rows as arrays of values cost half that, and an object made from an array
 * by a function generated for the column names (constant keys, one object literal) costs almost
 * nothing. So the column names of a statement's rows are learned from its first rows read as
 * objects (per SQL text and connection), and later runs of that text read values and make the
 * same rows from them. Texts whose rows are not such objects (two columns of one name, a name
 * that is an array index or `__proto__`) keep reading objects; a run whose width differs from the
 * learned names (never, for one text on one schema) falls back to objects too. Reading values
 * costs about 1.5 us more a statement in @effect/sql-sqlite-node, so a text whose last run read
 * fewer than {@link VALUES_AT_LEAST} values (a row of a few columns) reads objects.
 *
 * The values run under their own text (a trailing comment: its own prepared statement), since
 * @effect/sql-sqlite-node switches a statement to values and back around the read: the statement
 * the object reads use is never the one switched.
 */
const VALUES_TEXT = " /* values */"
const VALUES_AT_LEAST = 24

interface Shape {
  readonly width: number
  readonly make: (values: ReadonlyArray<unknown>) => Row
  /** Whether the last run read at least `VALUES_AT_LEAST` values: the next reads values. */
  wide: boolean
}

/** Learned shapes per connection, by SQL text (`null`: read objects). Cleared past `MAX_TEXTS`. */
const shapesOf = new WeakMap<Connection, Map<string, Shape | null>>()
const MAX_TEXTS = 4096
/** Row makers by column names (texts differing only in their IN lists share one). */
const makers = new Map<string, Shape["make"]>()

const isIndexName = (name: string) => /^(?:0|[1-9][0-9]*)$/.test(name)

const makerOf = (names: ReadonlyArray<string>): Shape["make"] => {
  const signature = names.join("\u0000")
  let make = makers.get(signature)
  if (make === undefined) {
    try {
      make = new Function("v", `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(", ")} }`) as Shape["make"]
    } catch (e) {
      if (!(e instanceof EvalError)) throw e
      // Where code generation is not allowed: the same object, key by key.
      make = (values) => {
        const row: Row = {}
        for (let i = 0; i < names.length; i++) row[names[i]!] = values[i]
        return row
      }
    }
    makers.set(signature, make)
  }
  return make
}

const learn = (shapes: Map<string, Shape | null>, text: string, rows: ReadonlyArray<Row>) => {
  if (rows.length === 0) return
  if (shapes.size >= MAX_TEXTS) shapes.clear()
  const names = Object.keys(rows[0]!)
  shapes.set(
    text,
    names.some((n) => n === "__proto__" || isIndexName(n))
      ? null
      : { width: names.length, make: makerOf(names), wide: rows.length * names.length >= VALUES_AT_LEAST }
  )
}

/** Runs a read's `text` with `params` on `direct`: as values made into rows once its shape is known, else as objects. */
const runDirect = (
  direct: Connection,
  text: string,
  params: ReadonlyArray<unknown>,
  context: Context.Context<never>
): Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError> => {
  let shapes = shapesOf.get(direct)
  if (shapes === undefined) {
    shapes = new Map()
    shapesOf.set(direct, shapes)
  }
  const shape = shapes.get(text)
  // Values are read without safe integers: with them asked for, objects.
  if (shape === null || Context.get(context, SqlClient.SafeIntegers)) return direct.execute(text, params, undefined)
  if (shape === undefined) {
    const known = shapes
    return Effect.map(direct.execute(text, params, undefined), (rows) => {
      learn(known, text, rows)
      return rows
    })
  }
  if (!shape.wide) {
    return Effect.map(direct.execute(text, params, undefined), (rows) => {
      shape.wide = rows.length * shape.width >= VALUES_AT_LEAST
      return rows
    })
  }
  return Effect.flatMap(direct.executeValues(text + VALUES_TEXT, params), (values) => {
    if (values.length > 0 && values[0]!.length !== shape.width) {
      shapes.set(text, null)
      return direct.execute(text, params, undefined)
    }
    shape.wide = values.length * shape.width >= VALUES_AT_LEAST
    const rows = new Array<Row>(values.length)
    for (let i = 0; i < values.length; i++) rows[i] = shape.make(values[i]!)
    return Effect.succeed(rows)
  })
}

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
        return runDirect(direct, text, params, context) as Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>
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
            ? runDirect(direct, text, params, context)
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
 * type parsers, no row transforms), except that a timestamp may come as its ISO text (as
 * SQLite's do), which the row mappers read alike (`toDate` in Rows.ts). Call it before the
 * repositories are built.
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
