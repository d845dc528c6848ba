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
 * A named read is its own query object (pg's `Submittable`, {@link PreparedRead}) rather than a
 * `pg.Query`: pg describes the result of every execution (a RowDescription message, then the
 * parser of each column looked up and a template row built: more than the rows themselves for
 * the key read's 31 columns) and parses every timestamp into a `Date` that the response formats
 * back. A prepared statement's result cannot change on its connection (Postgres refuses to run it
 * instead, which renames it as above), so its columns are described once per connection, with
 * the Parse, and later executions only bind and execute; rows are made by a function generated
 * for those columns (constant keys), and a UTC timestamp is handed on as its ISO text
 * (`YYYY-MM-DDTHH:MM:SS.mmmZ`, the form SQLite stores), which storage-sql's `toDate` reads
 * without a parser and answers without formatting. Any other timestamp text goes through the
 * pool's parser, as do all other types. About 40% less of the driver's CPU for the key read.
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

/** What {@link PreparedRead} uses of pg's connection (pg/lib/connection.js). */
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
  close(msg: { readonly type: "S"; readonly name: string }): void
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
    n < 22 || n > 29 || n === 23 || s.charCodeAt(10) !== 32 || s.charCodeAt(n - 3) !== 43 || s.charCodeAt(n - 2) !== 48 ||
    s.charCodeAt(n - 1) !== 48 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 || (s.charCodeAt(0) === 48 && s.charCodeAt(1) === 48)
  ) return undefined
  if (n > 22) {
    if (s.charCodeAt(19) !== 46) return undefined
    for (let i = 20; i < n - 3; i++) if (!isDigitAt(s, i)) return undefined
  }
  const fraction = n === 22 ? "000" : n === 24 ? s.slice(20, 21) + "00" : n === 25 ? s.slice(20, 22) + "0" : s.slice(20, 23)
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
        `return (v) => ({ ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}] === null ? null : p[${i}](v[${i}])`).join(", ")} })`
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
        value: v === null || v === undefined ? null : parsers[i]!(v), writable: true, enumerable: true, configurable: true
      })
    }
    return row
  }
}

/** The row makers of each connection's named statements, learned from the statement's first run there. */
const makersOf = new WeakMap<WireConnection, Map<string, RowMaker>>()

/**
 * A named statement's run, as a query pg's client runs (a `Submittable`: pg calls `submit` when
 * the connection is free, then the `handle*` methods with the server's messages, then `callback`).
 * Parses the statement on a connection that has not (as `pg.Query` does), describes its result
 * only then, and reads the rows with the maker learned from that description.
 */
class PreparedRead {
  callback: ((error: unknown, result?: { readonly rows: ReadonlyArray<Row> }) => void) | undefined
  private readonly rows: Array<Row> = []
  private makers: Map<string, RowMaker> | undefined
  private make: RowMaker | undefined
  private failure: unknown = undefined
  private done = false
  constructor(
    readonly name: string,
    readonly text: string,
    private readonly values: ReadonlyArray<unknown>,
    private readonly types: TypeParsers
  ) {}

  submit(connection: WireConnection): null {
    let makers = makersOf.get(connection)
    if (makers === undefined) {
      makers = new Map()
      makersOf.set(connection, makers)
    }
    this.makers = makers
    this.make = makers.get(this.name)
    connection.stream.cork?.()
    try {
      if (connection.parsedStatements[this.name] === undefined && connection.submittedNamedStatements[this.name] === undefined) {
        connection.parse({ text: this.text, name: this.name })
        connection.submittedNamedStatements[this.name] = this.text
      }
      try {
        connection.bind({ portal: "", statement: this.name, values: this.values, valueMapper: prepareValue })
      } catch (error) {
        // A value pg cannot send (as pg.Query handles it): the statement is closed, the error answered.
        connection.close({ type: "S", name: this.name })
        connection.sync()
        this.handleError(error)
        return null
      }
      if (this.make === undefined) connection.describe({ type: "P", name: "" })
      connection.execute({ portal: "" })
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }

  handleRowDescription(msg: { readonly fields: ReadonlyArray<Field> }): void {
    this.make = rowMaker(msg.fields, this.types)
    this.makers!.set(this.name, this.make)
  }

  handleDataRow(msg: { readonly fields: ReadonlyArray<string | null> }): void {
    if (this.failure !== undefined) return
    try {
      // Always described by now: on this connection before, or in this run.
      this.rows.push(this.make!(msg.fields))
    } catch (error) {
      this.failure = error
    }
  }

  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: WireConnection): void {
    connection.sendCopyFail("No source stream defined")
  }
  handleCopyData(): void {}

  handleError(error: unknown): void {
    this.finish(this.failure ?? error)
  }

  handleReadyForQuery(): void {
    this.finish(this.failure)
  }

  private finish(error: unknown): void {
    if (this.done) return
    this.done = true
    if (error !== undefined) this.callback?.(error)
    else this.callback?.(null, { rows: this.rows })
  }
}

/** The pool's type parsers: its own `types`, else pg's. */
const typesOf = (pool: pg.Pool): TypeParsers => (pool.options as { types?: TypeParsers }).types ?? pg.types

const run = (pool: pg.Pool, types: TypeParsers, statement: Statement, params: ReadonlyArray<unknown>) =>
  Effect.async<ReadonlyArray<Row>, { readonly cause: unknown }>((resume) => {
    if (statement.name !== undefined) {
      // pool.query takes a Submittable as any query (its types declare only the promise form).
      ;(pool.query as (q: PreparedRead, cb: (e: unknown, r?: { rows: ReadonlyArray<Row> }) => void) => void)(
        new PreparedRead(statement.name, statement.text, params, types),
        (cause, result) => resume(cause ? Effect.fail({ cause }) : Effect.succeed(result!.rows))
      )
      return
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
  const types = typesOf(pool)
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
    return run(pool, types, statement, params).pipe(
      Effect.catchIf(
        (e) => statement.name !== undefined && (e.cause as { code?: unknown } | null)?.code === RESULT_TYPE_CHANGED,
        () =>
          Effect.suspend(() => {
            if (statements.get(text) === statement) {
              renames++
              statements.set(text, { name: named(text), text })
            }
            return run(pool, types, statementOf(text), params)
          })
      ),
      Effect.mapError(toSqlError)
    )
  }
}
