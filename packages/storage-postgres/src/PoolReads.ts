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
 *
 * Named reads do not go through `pg.Query`, which has Postgres describe the result of every
 * execution (a RowDescription message, then the parser of each column looked up and a template
 * row built: more than the rows themselves for the key read's 31 columns) and parses every
 * timestamp into a `Date` that the response formats back. A prepared statement's result cannot
 * change on its connection (Postgres refuses to run it instead, which renames it as above), so
 * its columns are described once per connection, with the Parse, and later executions only bind
 * and execute; rows are made by a function generated for those columns (constant keys), and a
 * UTC timestamp is handed on as its ISO text (`YYYY-MM-DDTHH:MM:SS.mmmZ`, the form SQLite
 * stores), which storage-sql's `toDate` reads without a parser and answers without formatting.
 * Any other timestamp text goes through the pool's parser, as do all other types.
 *
 * And they are batched ({@link batcher}, {@link ReadBatch}): the named reads asked for in one turn
 * of the event loop go to the server in one write per connection (at most {@link MAX_BATCH} a
 * write) and their answers come back in one read, instead of a write, a read and a wake-up of
 * the server process each. On a loaded server that halves both the driver's and Postgres' CPU
 * per read; an unloaded one sends batches of one, a turn of the loop later.
 */
import { SqlError } from "@effect/sql"
import type { PoolRead } from "@workbay/storage-sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import pg from "pg"
import { prepareValue } from "pg/lib/utils.js"

type Row = Record<string, any>
type Statement = { readonly name?: string; readonly text: string }

/** Postgres' feature_not_supported, which a prepared statement whose result type changed fails with. */
const RESULT_TYPE_CHANGED = "0A000"

/** Postgres' type id of `timestamptz`. */
const TIMESTAMPTZ = 1184

type Parser = (text: string) => unknown
type TypeParsers = { readonly getTypeParser: (oid: number, format: "text") => Parser }

/** A column as a RowDescription message describes it. */
interface Field {
  readonly name: string
  readonly dataTypeID: number
}

/** What {@link ReadBatch} uses of pg's connection (pg/lib/connection.js). */
interface WireConnection {
  readonly stream: { cork?: () => void; uncork?: () => void }
  readonly parsedStatements: Record<string, string | undefined>
  readonly submittedNamedStatements: Record<string, string | undefined>
  parse(query: { readonly text: string; readonly name: string }): void
  bind(config: {
    readonly portal: string
    readonly statement: string
    readonly values: ReadonlyArray<unknown>
    readonly valueMapper: (value: unknown) => unknown
  }): void
  describe(msg: { readonly type: "P"; readonly name: string }): void
  execute(config: { readonly portal: string }): void
  sync(): void
  sendCopyFail(message: string): void
}

const isDigitAt = (s: string, i: number) => {
  const c = s.charCodeAt(i)
  return c >= 48 && c <= 57
}

/**
 * Postgres' text of a UTC timestamp (`YYYY-MM-DD HH:MM:SS[.f{1,6}]+00`, DateStyle ISO) as
 * `toISOString` writes the same time: milliseconds as the first three digits of the fraction, as
 * pg's parser truncates them. `undefined` for any other text (another offset or DateStyle, years
 * before 100, BC, infinity): the pool's parser reads those.
 */
export const utcTimestampIso = (s: string): string | undefined => {
  const n = s.length
  if (
    n < 22 || n > 29 || n === 23 || s.charCodeAt(10) !== 32 || s.charCodeAt(n - 3) !== 43 ||
    s.charCodeAt(n - 2) !== 48 ||
    s.charCodeAt(n - 1) !== 48 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 || (s.charCodeAt(0) === 48 && s.charCodeAt(1) === 48)
  ) return undefined
  if (n > 22) {
    if (s.charCodeAt(19) !== 46) return undefined
    for (let i = 20; i < n - 3; i++) if (!isDigitAt(s, i)) return undefined
  }
  const fraction = n === 22
    ? "000"
    : n === 24
    ? s.slice(20, 21) + "00"
    : n === 25
    ? s.slice(20, 22) + "0"
    : s.slice(20, 23)
  return `${s.slice(0, 10)}T${s.slice(11, 19)}.${fraction}Z`
}

/** A timestamptz column: UTC text as ISO text, anything else through `parse`. */
const timestamp = (parse: Parser): Parser => (text) => utcTimestampIso(text) ?? parse(text)

/** Makes a row from a DataRow message's values (text, or null). */
type RowMaker = (values: ReadonlyArray<string | null>) => Row

const rowMaker = (fields: ReadonlyArray<Field>, types: TypeParsers): RowMaker => {
  const parsers = fields.map((f) => {
    const parse = types.getTypeParser(f.dataTypeID, "text")
    return f.dataTypeID === TIMESTAMPTZ ? timestamp(parse) : parse
  })
  const names = fields.map((f) => f.name)
  if (!names.includes("__proto__")) {
    try {
      // One object literal with constant keys, as pg's rows have them (a later column of the same name wins).
      return new Function(
        "p",
        `return (v) => ({ ${
          names.map((n, i) => `${JSON.stringify(n)}: v[${i}] === null ? null : p[${i}](v[${i}])`).join(", ")
        } })`
      )(parsers) as RowMaker
    } catch (e) {
      if (!(e instanceof EvalError)) throw e
    }
  }
  // Where code generation is not allowed, or a column is named `__proto__`: the same row, key by key.
  return (values) => {
    const row: Row = {}
    for (let i = 0; i < names.length; i++) {
      const v = values[i]
      Object.defineProperty(row, names[i]!, {
        value: v === null || v === undefined ? null : parsers[i]!(v),
        writable: true,
        enumerable: true,
        configurable: true
      })
    }
    return row
  }
}

/** The row makers of each connection's named statements, learned from the statement's first run there. */
const makersOf = new WeakMap<WireConnection, Map<string, RowMaker>>()

/** A named read waiting for its rows: `done` is called once, with an error or the rows. */
interface PendingRead {
  readonly name: string
  readonly text: string
  readonly values: ReadonlyArray<unknown>
  readonly done: (error: unknown, rows?: ReadonlyArray<Row>) => void
}

/**
 * Named reads run together on one connection, as one query pg's client runs (a `Submittable`:
 * pg calls `submit` when the connection is free, then the `handle*` methods with the server's
 * messages). `submit` writes every read's Bind and Execute (with a Parse for a statement the
 * connection has not parsed, and a Describe for one whose columns it has not described) and one
 * Sync, in one write; each read is answered at its CommandComplete, with the rows made by the
 * maker learned from its statement's description on that connection.
 *
 * The reads share the implicit transaction up to the Sync, but each statement still reads what
 * was committed when it started (READ COMMITTED; under a stricter default isolation they share
 * the first one's snapshot, taken after every request of the batch arrived). An error ends that transaction: the failing
 * read gets it, the reads after it (which Postgres skipped) are given to `retry`, and pg's pool
 * drops the connection, as after any failed query.
 */
class ReadBatch {
  callback: ((error: unknown) => void) | undefined
  private index = 0
  private rows: Array<Row> = []
  private failure: unknown = undefined
  private done = false
  private makers: Map<string, RowMaker> | undefined
  constructor(
    private readonly reads: ReadonlyArray<PendingRead>,
    private readonly types: TypeParsers,
    private readonly retry: (reads: ReadonlyArray<PendingRead>) => void
  ) {}

  /** The reads neither answered nor sent again: all of them until the batch runs. */
  unanswered(): ReadonlyArray<PendingRead> {
    return this.reads.slice(this.index)
  }

  submit(connection: WireConnection): null {
    let makers = makersOf.get(connection)
    if (makers === undefined) {
      makers = new Map()
      makersOf.set(connection, makers)
    }
    this.makers = makers
    let described: Set<string> | undefined
    connection.stream.cork?.()
    try {
      for (const read of this.reads) {
        if (
          connection.parsedStatements[read.name] === undefined &&
          connection.submittedNamedStatements[read.name] === undefined
        ) {
          connection.parse({ text: read.text, name: read.name })
          connection.submittedNamedStatements[read.name] = read.text
        }
        // Values were mapped when the read was queued (`prepareValue`): binding cannot fail here.
        connection.bind({ portal: "", statement: read.name, values: read.values, valueMapper: identity })
        if (!makers.has(read.name) && !described?.has(read.name)) {
          connection.describe({ type: "P", name: "" })
          ;(described ??= new Set()).add(read.name)
        }
        connection.execute({ portal: "" })
      }
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }

  handleRowDescription(msg: { readonly fields: ReadonlyArray<Field> }): void {
    this.makers!.set(this.reads[this.index]!.name, rowMaker(msg.fields, this.types))
  }

  handleDataRow(msg: { readonly fields: ReadonlyArray<string | null> }): void {
    if (this.failure !== undefined) return
    try {
      // Described by now: on this connection before, or in this batch before its rows.
      this.rows.push(this.makers!.get(this.reads[this.index]!.name)!(msg.fields))
    } catch (error) {
      this.failure = error
    }
  }

  handleCommandComplete(): void {
    const read = this.reads[this.index++]
    if (read === undefined) return
    const rows = this.rows
    const failure = this.failure
    this.rows = []
    this.failure = undefined
    if (failure !== undefined) read.done(failure)
    else read.done(undefined, rows)
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete()
  }
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: WireConnection): void {
    connection.sendCopyFail("No source stream defined")
  }
  handleCopyData(): void {}

  handleError(error: unknown): void {
    if (this.done) return
    this.done = true
    this.reads[this.index]?.done(this.failure ?? error)
    const skipped = this.reads.slice(this.index + 1)
    this.index = this.reads.length
    // The pool drops the connection (its state after an error is not worth trusting).
    this.callback?.(error)
    if (skipped.length > 0) this.retry(skipped)
  }

  handleReadyForQuery(): void {
    if (this.done) return
    this.done = true
    // Every read answered at its CommandComplete; any left (never, short of a protocol surprise) run again.
    const left = this.reads.slice(this.index)
    this.index = this.reads.length
    this.callback?.(null)
    if (left.length > 0) this.retry(left)
  }
}

const identity = (value: unknown) => value

/** The pool's type parsers: its own `types`, else pg's. */
const typesOf = (pool: pg.Pool): TypeParsers => (pool.options as { types?: TypeParsers }).types ?? pg.types

/** At most this many reads in one batch; more queued at once go to several connections. */
const MAX_BATCH = 16

/**
 * Named reads queued until the event loop's check phase (`setImmediate`), then sent in batches
 * ({@link ReadBatch}): the reads of every request that arrived in one turn of the loop go out in
 * one write per connection and come back in one read, instead of a write and a read each.
 */
const batcher = (pool: pg.Pool, types: TypeParsers) => {
  let queue: Array<PendingRead> = []
  let scheduled = false
  const send = (reads: ReadonlyArray<PendingRead>) => {
    const batch = new ReadBatch(reads, types, enqueueAll) // pool.query takes a Submittable as any query (its types declare only the promise form).
    ;(pool.query as (q: ReadBatch, cb: (error: unknown) => void) => void)(batch, (error) => {
      // A connection that could not be had (or a write that threw) fails the reads the batch has not answered.
      if (error !== undefined && error !== null) { for (const read of batch.unanswered()) read.done(error) }
    })
  }
  const flush = () => {
    scheduled = false
    const reads = queue
    queue = []
    const batches = Math.ceil(reads.length / MAX_BATCH)
    const size = Math.ceil(reads.length / batches)
    for (let i = 0; i < reads.length; i += size) send(reads.slice(i, i + size))
  }
  const enqueueAll = (reads: ReadonlyArray<PendingRead>) => {
    for (const read of reads) queue.push(read)
    if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }
  return (read: PendingRead) => enqueueAll([read])
}

const run = (
  pool: pg.Pool,
  enqueue: (read: PendingRead) => void,
  statement: Statement,
  params: ReadonlyArray<unknown>
) =>
  Effect.async<ReadonlyArray<Row>, { readonly cause: unknown }>((resume) => {
    if (statement.name !== undefined) {
      let values: Array<unknown>
      try {
        values = params.map(prepareValue)
      } catch (cause) {
        // A value pg cannot send (a `toPostgres` that throws): this read fails, not its batch.
        return resume(Effect.fail({ cause }))
      }
      let answered = false
      return enqueue({
        name: statement.name,
        text: statement.text,
        values,
        done: (cause, rows) => {
          if (answered) return
          answered = true
          resume(cause !== undefined ? Effect.fail({ cause }) : Effect.succeed(rows!))
        }
      })
    }
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
  const enqueue = batcher(pool, typesOf(pool))
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
    return run(pool, enqueue, statement, params).pipe(
      Effect.catchIf(
        (e) => statement.name !== undefined && (e.cause as { code?: unknown } | null)?.code === RESULT_TYPE_CHANGED,
        () =>
          Effect.suspend(() => {
            if (statements.get(text) === statement) {
              renames++
              statements.set(text, { name: named(text), text })
            }
            return run(pool, enqueue, statementOf(text), params)
          })
      ),
      Effect.mapError(toSqlError)
    )
  }
}
