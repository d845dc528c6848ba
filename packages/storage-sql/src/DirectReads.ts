/**
 * Direct reads. Every authenticated request runs the same few reads (user by id,
 * memberships of a user, key with its user), and @effect/sql's statement pipeline
 * (span, scope, semaphore, template compilation: about 30 us a query on SQLite) costs
 * ten times the query itself. So a storage whose client can run a read synchronously
 * on its one connection (@workbay/storage-sqlite registers it with {@link registerDirectReads})
 * has those reads run there directly. Only while no transaction is open: a transaction
 * holds the connection, and a read must neither see its uncommitted writes nor slip into
 * it, so then (and on any other client) reads take the ordinary path, which waits for the
 * transaction.
 *
 * While spans are collected (docs/tracing.md: an embedder's tracer, or the server's `--trace`),
 * a read that skips the pipeline records the `sql.execute` span the pipeline would have (see
 * {@link traced}), so that a trace shows every statement whichever path ran it.
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
import { collectsSpans } from "@workbay/core"
import { Context, Effect, type Fiber, Option } from "effect"
import { makeStatementText } from "./StatementText.js"
import { openTransactions } from "./Transaction.js"

type Row = Record<string, any>

/**
 * Runs a read's SQL (`?` placeholders) with `params` on a client's connection synchronously,
 * answering the rows its statements answer (`safeIntegers`: as `SqlClient.SafeIntegers` asks).
 * Throws a `SqlError`.
 */
export type SyncRead = (text: string, params: ReadonlyArray<unknown>, safeIntegers: boolean) => ReadonlyArray<Row>

/** A direct client's read, and its statements' texts made once per shape (StatementText.ts). */
interface Direct {
  readonly read: SyncRead
  readonly textOf: ReturnType<typeof makeStatementText>
}

const directs = new WeakMap<SqlClient.SqlClient, Direct>()

/**
 * Lets reads of `sql` run on its connection directly ({@link directReads}, {@link directStatements}):
 * for a client of one connection that runs statements synchronously, with no row transforms.
 * Call it before the repositories are built.
 */
export const registerDirectReads = (sql: SqlClient.SqlClient, read: SyncRead): void =>
  void directs.set(sql, { read, textOf: makeStatementText() })

/**
 * `run`, a statement of `text` run outside @effect/sql's pipeline, in the span that pipeline
 * records: `sql.execute`, with the dialect and the statement's text (its placeholders, never its
 * values); `db.operation.name` is `direct` where the pipeline's say `execute`.
 */
const traced = <A, E>(system: string, text: string, run: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.useSpan("sql.execute", {
    kind: "client",
    captureStackTrace: false,
    attributes: { "db.system.name": system, "db.operation.name": "direct", "db.query.text": text }
  }, () => run)

/** Runs `text` with `params` by `read`, its `SqlError` failing the effect. */
const runNow = (
  read: SyncRead,
  text: string,
  params: ReadonlyArray<unknown>,
  context: Context.Context<never>
): Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError> => {
  try {
    return Effect.succeed(read(text, params, Context.get(context, SqlClient.SafeIntegers)))
  } catch (cause) {
    return Effect.fail(cause as SqlError.SqlError)
  }
}

/** {@link runNow} in `fiber`, in its span while spans are collected. */
const runDirect = (
  read: SyncRead,
  text: string,
  params: ReadonlyArray<unknown>,
  fiber: Fiber.RuntimeFiber<unknown, unknown>
): Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError> =>
  collectsSpans(fiber)
    ? traced("sqlite", text, Effect.suspend(() => runNow(read, text, params, fiber.currentContext)))
    : runNow(read, text, params, fiber.currentContext)

/**
 * Whether a read may run on the connection directly: no transaction is open on `sql`.
 * Transactions of every repository module are counted (Transaction.ts), wherever they were
 * opened; one opened around them (`sql.withTransaction`) is seen in the fiber's context.
 */
const directIsSafe = (sql: SqlClient.SqlClient, fiber: Fiber.RuntimeFiber<unknown, unknown>) =>
  openTransactions(sql) === 0 && Option.isNone(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))

/**
 * Runs a read `statement` (`sql\`...\``) directly when that is safe, as {@link directReads} does,
 * its text made once per shape (StatementText.ts), else the statement itself (the
 * ordinary path). For reads beyond the hottest few, whose SQL text is not written out: list
 * pages and what their rows read (about 25 us less a statement, and no scheduler hop from the
 * semaphore, so a page answers without suspending). Only for statements that write nothing;
 * on any other client (Postgres) it is the statement itself.
 */
export interface Reads {
  <A extends object = Row>(statement: Statement.Statement<A>): Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>
  /**
   * `Effect.orDie(reads(statement)).pipe(Effect.map(f))`: the rows made into `f(rows)`, a failure
   * of the database (or of `f`) a defect. Where the statement runs directly this is two steps of
   * the fiber instead of six (a workspace read runs eight such reads).
   */
  readonly mapped: <A extends object, B>(
    statement: Statement.Statement<A>,
    f: (rows: ReadonlyArray<A>) => B
  ) => Effect.Effect<B>
}

/** {@link Reads.mapped} by the ordinary path. */
const mappedPlain = <A extends object, B>(
  statement: Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>,
  f: (rows: ReadonlyArray<A>) => B
): Effect.Effect<B> => Effect.map(Effect.orDie(statement), f)

/** The statements themselves: the {@link Reads} of a client with no direct path. */
const plainReads: Reads = Object.assign(
  <A extends object>(statement: Statement.Statement<A>) => statement,
  { mapped: mappedPlain }
)

/**
 * {@link Reads.mapped} of `text` run directly in `fiber`: `f` of its rows, at once; in the span
 * while spans are collected.
 */
const mappedDirect = <A extends object, B>(
  read: SyncRead,
  text: string,
  params: ReadonlyArray<unknown>,
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
  f: (rows: ReadonlyArray<A>) => B
): Effect.Effect<B> => {
  if (collectsSpans(fiber)) {
    return mappedPlain(runDirect(read, text, params, fiber) as Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>, f)
  }
  try {
    return Effect.succeed(
      f(read(text, params, Context.get(fiber.currentContext, SqlClient.SafeIntegers)) as ReadonlyArray<A>)
    )
  } catch (cause) {
    return Effect.die(cause)
  }
}

/**
 * The {@link Reads} of a direct client: a statement runs on its connection directly (its text made
 * once per shape) when `runsDirect` says so for the fiber, else it is the statement itself.
 */
const readsWhen = (
  { read, textOf }: Direct,
  runsDirect: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => boolean
): Reads =>
  Object.assign(
    <A extends object>(statement: Statement.Statement<A>) =>
      Effect.withFiberRuntime<ReadonlyArray<A>, SqlError.SqlError>((fiber) => {
        if (!runsDirect(fiber)) return statement
        const [text, params] = textOf(statement)
        return runDirect(read, text, params, fiber) as Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>
      }),
    {
      mapped: <A extends object, B>(statement: Statement.Statement<A>, f: (rows: ReadonlyArray<A>) => B) =>
        Effect.withFiberRuntime<B>((fiber) => {
          if (!runsDirect(fiber)) return mappedPlain(statement, f)
          const [text, params] = textOf(statement)
          return mappedDirect(read, text, params, fiber, f)
        })
    }
  )

/** The {@link Reads} of `sql`; build it once per repository module. */
export const directStatements = (sql: SqlClient.SqlClient): Effect.Effect<Reads> =>
  Effect.sync((): Reads => {
    const found = directs.get(sql)
    return found === undefined ? plainReads : readsWhen(found, (fiber) => directIsSafe(sql, fiber))
  })

/**
 * Statements of a fiber inside its own transaction (reads and writes): on a client with direct
 * reads (SQLite's one connection), while the fiber holds the transaction, the statement runs on
 * that connection directly, which is the transaction's; the fiber holds it, so nothing else runs
 * on it meanwhile. Outside a transaction, or on any other client, it is the statement itself.
 * For hot writes in a transaction (the agent log appends of a group commit): @effect/sql's path
 * costs a span, a scope and a context copy a statement, more than SQLite's work.
 */
export const transactionStatements = (sql: SqlClient.SqlClient): Effect.Effect<Reads> =>
  Effect.sync((): Reads => {
    const found = directs.get(sql)
    return found === undefined ? plainReads : readsWhen(
      found,
      (fiber) => Option.isSome(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))
    )
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

/** The {@link Read} of `sql`; build it once per repository module. */
export const directReads = (sql: SqlClient.SqlClient): Effect.Effect<Read> =>
  Effect.sync((): Read => {
    const direct = directs.get(sql)?.read
    return (text, params, statement) =>
      direct === undefined
        ? statement()
        : Effect.withFiberRuntime((fiber) =>
          directIsSafe(sql, fiber) ? runDirect(direct, text, params, fiber) : statement()
        )
  })

/**
 * Runs a Postgres read's SQL (`$n` placeholders) with `params` on a pool, outside any
 * transaction: what {@link registerPoolReads} registers for a client.
 */
export type PoolRead = (
  text: string,
  params: ReadonlyArray<unknown>
) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>

const poolReads = new WeakMap<SqlClient.SqlClient, PoolRead>()

/**
 * Lets reads of `sql` given for both dialects ({@link dialectReads}) run on a pool directly.
 * The pool's rows must be the ones the client's statements answer (same connections, same
 * type parsers, no row transforms), except that a timestamp may come as its ISO text (as
 * SQLite's do), which the row readers read alike (`date` in Columns.ts). Call it before the
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
      Effect.withFiberRuntime((fiber) =>
        Option.isNone(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))
          ? collectsSpans(fiber) ? traced("postgresql", text.pg, pool(text.pg, params)) : pool(text.pg, params)
          : statement()
      )
    )
  }
  return Effect.map(
    directReads(sql),
    (read): DialectRead => (text, params, statement) => read(text.sqlite, params, statement)
  )
}
