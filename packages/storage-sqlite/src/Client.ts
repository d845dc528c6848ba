/**
 * The SQLite client: @effect/sql's `SqlClient` (its `make`: statements, transactions,
 * spans, the compiler) over one better-sqlite3 connection, like @effect/sql-sqlite-node,
 * with what that driver keeps out of reach:
 *
 * - Prepared statements are kept in plain `Map`s by SQL text (the driver's `Cache` hashes
 *   the whole text and reads the clock on every statement: 1.5 us for an 830-character read).
 * - A reading statement whose column names make a plain object (no name twice, none an array
 *   index or `__proto__`) reads its rows as arrays of values and makes each row with one
 *   function generated for those names: better-sqlite3 makes row objects through V8's API,
 *   one property set per column (about 0.25 us a value), twice what the values cost.
 * - The connection is given to storage-sql's direct reads (`registerDirectReads`), which run a
 *   read on it synchronously, without @effect/sql's pipeline, when no transaction holds it.
 *
 * Like the driver: one connection, statements run synchronously, a semaphore of one permit
 * in front of it (a transaction holds it to its end), WAL unless `disableWAL`.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, SqlError, Statement } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import { isWriteStatement, Metrics, type MetricsShape, secondsSince } from "@workbay/core"
import { registerDirectReads } from "@workbay/storage-sql"
import Sqlite from "better-sqlite3"
import { Context, Effect, Layer, Scope, Stream } from "effect"
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"

type Row = Record<string, unknown>

export interface SqliteClientConfig {
  /** A file path, or `:memory:`. */
  readonly filename: string
  readonly readonly?: boolean | undefined
  /** Keep SQLite's rollback journal instead of switching the file to WAL. */
  readonly disableWAL?: boolean | undefined
  /** Prepared statements kept per mode (plain or safe integers, rows or values); the oldest goes first. 512 unless set. */
  readonly prepareCacheSize?: number | undefined
  /**
   * Where WAL checkpoints run. `"thread"`: in a worker thread with a connection of its own,
   * every `checkpointIntervalMs` (SQLite's PASSIVE checkpoints, which never wait for this
   * connection), so that copying the log back into the file and its fsync never block the event
   * loop; the connection's automatic checkpoints are turned off while the thread runs. `"inline"`
   * (SQLite's default): the commit that fills the log past 1,000 pages checkpoints, on the event
   * loop (the default: the thread costs about 16 MB of memory). `:memory:`, read-only and
   * rollback-journal databases have no checkpoints to move; under `locking_mode = EXCLUSIVE` no
   * second connection may open the file, so keep `"inline"` there.
   */
  readonly checkpoints?: "thread" | "inline" | undefined
  /** How often the checkpoint thread checkpoints; 250 ms unless set. */
  readonly checkpointIntervalMs?: number | undefined
}

interface Prepared {
  readonly statement: Sqlite.Statement
  readonly reader: boolean
  /** Makes a row from its values (the statement reads values), or `undefined` (it reads objects). */
  readonly make: ((values: ReadonlyArray<unknown>) => Row) | undefined
}

/** Row makers by column names (statements differing only in their IN lists share one). */
const makers = new Map<string, (values: ReadonlyArray<unknown>) => Row>()

const isIndexName = (name: string) => /^(?:0|[1-9][0-9]*)$/.test(name)

/** The row maker for `names`, or `undefined` when they make no plain object. */
const makerOf = (names: ReadonlyArray<string>): Prepared["make"] => {
  if (new Set(names).size !== names.length || names.some((n) => n === "__proto__" || isIndexName(n))) return undefined
  const signature = names.join("\u0000")
  let make = makers.get(signature)
  if (make === undefined) {
    try {
      make = new Function("v", `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(", ")} }`) as (
        values: ReadonlyArray<unknown>
      ) => Row
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

const sqlError = (message: string) => (cause: unknown) =>
  cause instanceof SqlError.SqlError ? cause : new SqlError.SqlError({ cause, message })
const prepareError = sqlError("Failed to prepare statement")
const executeError = sqlError("Failed to execute statement")

/** The statements of @effect/sql's transactions, which it runs unprepared. */
const TRANSACTION_CONTROL = /^(?:BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i

/** Modes a statement is prepared in: bit 0 safe integers, bit 1 values (rows as arrays). */
const SAFE = 1
const VALUES = 2

/** The connection's prepared statements and the synchronous runs every path shares. */
const statementsOf = (db: Sqlite.Database, capacity: number) => {
  const caches = [
    new Map<string, Prepared>(),
    new Map<string, Prepared>(),
    new Map<string, Prepared>(),
    new Map<string, Prepared>()
  ]

  const prepareNew = (sql: string, mode: number): Prepared => {
    let statement: Sqlite.Statement
    try {
      statement = db.prepare(sql)
    } catch (cause) {
      throw prepareError(cause)
    }
    if (mode & SAFE) statement.safeIntegers(true)
    if (!statement.reader) return { statement, reader: false, make: undefined }
    if (mode & VALUES) {
      statement.raw(true)
      return { statement, reader: true, make: undefined }
    }
    const make = makerOf(statement.columns().map((c) => c.name))
    if (make !== undefined) statement.raw(true)
    return { statement, reader: true, make }
  }

  const prepared = (sql: string, mode: number): Prepared => {
    const cache = caches[mode]!
    let entry = cache.get(sql)
    if (entry === undefined) {
      entry = prepareNew(sql, mode)
      if (cache.size >= capacity) cache.delete(cache.keys().next().value!)
      cache.set(sql, entry)
    }
    return entry
  }

  const runRows = ({ make, reader, statement }: Prepared, params: ReadonlyArray<unknown>): ReadonlyArray<Row> => {
    try {
      if (!reader) {
        statement.run(...params)
        return []
      }
      if (make === undefined) return statement.all(...params) as Array<Row>
      const values = statement.all(...params) as Array<ReadonlyArray<unknown>>
      const rows = new Array<Row>(values.length)
      for (let i = 0; i < values.length; i++) rows[i] = make(values[i]!)
      return rows
    } catch (cause) {
      throw executeError(cause)
    }
  }

  return {
    /** A statement's rows (nothing for one that reads none). Throws a `SqlError`. */
    rows: (sql: string, params: ReadonlyArray<unknown>, safeIntegers: boolean) =>
      runRows(prepared(sql, safeIntegers ? SAFE : 0), params),
    /** A statement's rows as arrays of values. Throws a `SqlError`. */
    values: (
      sql: string,
      params: ReadonlyArray<unknown>,
      safeIntegers: boolean
    ): ReadonlyArray<ReadonlyArray<unknown>> => {
      const { reader, statement } = prepared(sql, (safeIntegers ? SAFE : 0) | VALUES)
      try {
        if (reader) return statement.all(...params) as Array<ReadonlyArray<unknown>>
        statement.run(...params)
        return []
      } catch (cause) {
        throw executeError(cause)
      }
    },
    /** What better-sqlite3's `run` answers (changes, last row id), or the rows of a statement that reads. Throws a `SqlError`. */
    raw: (sql: string, params: ReadonlyArray<unknown>, safeIntegers: boolean): unknown => {
      const entry = prepared(sql, safeIntegers ? SAFE : 0)
      if (entry.reader) return runRows(entry, params)
      try {
        return entry.statement.run(...params)
      } catch (cause) {
        throw executeError(cause)
      }
    },
    /**
     * Runs `sql` prepared for this run only, except transaction control (BEGIN, COMMIT, ROLLBACK,
     * savepoints: the few texts @effect/sql's transactions run unprepared), kept like any
     * statement: preparing BEGIN and COMMIT for every transaction was 1% of a log batch's CPU.
     * Throws a `SqlError`.
     */
    unprepared: (sql: string, params: ReadonlyArray<unknown>, safeIntegers: boolean) => {
      if (TRANSACTION_CONTROL.test(sql)) return runRows(prepared(sql, safeIntegers ? SAFE : 0), params)
      let statement: Sqlite.Statement
      try {
        statement = db.prepare(sql)
      } catch (cause) {
        throw prepareError(cause)
      }
      if (safeIntegers) statement.safeIntegers(true)
      return runRows({ statement, reader: statement.reader, make: undefined }, params)
    }
  }
}

/**
 * The statements, each run timed into `metrics` (metrics on only): every path (the client's, the
 * direct reads) runs through them, synchronously, so the time is the statement's alone.
 */
const timedStatements = (
  statements: ReturnType<typeof statementsOf>,
  metrics: MetricsShape
): ReturnType<typeof statementsOf> => {
  const timed =
    <A>(run: (sql: string, params: ReadonlyArray<unknown>, safeIntegers: boolean) => A) =>
    (sql: string, params: ReadonlyArray<unknown>, safeIntegers: boolean): A => {
      const started = performance.now()
      try {
        return run(sql, params, safeIntegers)
      } finally {
        metrics.databaseQuery(secondsSince(started), isWriteStatement(sql))
      }
    }
  return {
    rows: timed(statements.rows),
    values: timed(statements.values),
    raw: timed(statements.raw),
    unprepared: timed(statements.unprepared)
  }
}

/** Runs a synchronous step of the connection in the fiber: its `SqlError` fails the effect. */
const inFiber = <A>(run: (safeIntegers: boolean) => A): Effect.Effect<A, SqlError.SqlError> =>
  Effect.withFiberRuntime((fiber) => {
    try {
      return Effect.succeed(run(Context.get(fiber.currentContext, SqlClient.SafeIntegers)))
    } catch (cause) {
      return Effect.fail(executeError(cause))
    }
  })

/**
 * The checkpoint thread (see `SqliteClientConfig.checkpoints`): a worker with its own connection
 * that runs `wal_checkpoint(PASSIVE)` on an interval, until the scope closes (before the main
 * connection does). Should it fail, the main connection checkpoints by itself again.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
const db = new Database(workerData.filename, { fileMustExist: true })
const timer = setInterval(() => db.pragma("wal_checkpoint(PASSIVE)"), workerData.intervalMs)
parentPort.on("message", () => {
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

const checkpointThread = (db: Sqlite.Database, filename: string, intervalMs: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      db.pragma("wal_autocheckpoint = 0")
      const worker = new Worker(CHECKPOINTER, {
        eval: true,
        workerData: { driver: createRequire(import.meta.url).resolve("better-sqlite3"), filename, intervalMs }
      })
      worker.unref()
      let stopping = false
      const fallBack = () => {
        if (!stopping && db.open) db.pragma("wal_autocheckpoint = 1000")
      }
      worker.on("error", fallBack)
      worker.on("exit", fallBack)
      return { worker, stop: () => (stopping = true) }
    }),
    ({ stop, worker }) =>
      Effect.promise(() => {
        stop()
        const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()))
        worker.postMessage("stop")
        return Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5000).unref())]).then(() =>
          worker.terminate()
        ).then(() => {
          if (db.open) db.pragma("wal_autocheckpoint = 1000")
        })
      })
  )

/** The client, its connection open until the scope closes. */
export const make = (config: SqliteClientConfig) =>
  Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.try({
        try: () => new Sqlite(config.filename, { readonly: config.readonly ?? false }),
        catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to open the database" })
      }),
      (db) => Effect.sync(() => db.close())
    )
    const wal = config.disableWAL !== true && config.readonly !== true && config.filename !== ":memory:" &&
      config.filename !== ""
    if (config.disableWAL !== true && config.readonly !== true) db.pragma("journal_mode = WAL")
    if (wal && config.checkpoints === "thread") {
      yield* checkpointThread(db, config.filename, config.checkpointIntervalMs ?? 250)
    }
    const metrics = yield* Metrics
    const statements = metrics.enabled
      ? timedStatements(statementsOf(db, config.prepareCacheSize ?? 512), metrics)
      : statementsOf(db, config.prepareCacheSize ?? 512)

    const connection: Connection = {
      execute: (sql, params, transformRows) =>
        inFiber((safe) => {
          const rows = statements.rows(sql, params, safe)
          return transformRows === undefined ? rows : transformRows(rows as Array<object>)
        }),
      executeRaw: (sql, params) => inFiber((safe) => statements.raw(sql, params, safe)),
      executeValues: (sql, params) => inFiber((safe) => statements.values(sql, params, safe)),
      executeUnprepared: (sql, params, transformRows) =>
        inFiber((safe) => {
          const rows = statements.unprepared(sql, params ?? [], safe)
          return transformRows === undefined ? rows : transformRows(rows as Array<object>)
        }),
      executeStream: (sql, params, transformRows) =>
        Stream.fromIterableEffect(inFiber((safe) => {
          const rows = statements.rows(sql, params, safe)
          return transformRows === undefined ? rows : transformRows(rows as Array<object>)
        }))
    }

    const semaphore = yield* Effect.makeSemaphore(1)
    const acquirer = semaphore.withPermits(1)(Effect.succeed(connection))
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(
          restore(semaphore.take(1)),
          Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1)))
        ),
        connection
      )
    )
    const client = yield* SqlClient.make({
      acquirer,
      compiler: Statement.makeCompilerSqlite(),
      transactionAcquirer,
      spanAttributes: [["db.system.name", "sqlite"]]
    })
    registerDirectReads(client, statements.rows)
    return client
  })

/** `SqlClient` on the SQLite database `config` names. */
export const layer = (config: SqliteClientConfig): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> =>
  Layer.scoped(SqlClient.SqlClient, make(config)).pipe(Layer.provide(Reactivity.layer))
