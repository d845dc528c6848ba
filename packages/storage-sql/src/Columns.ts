/**
 * Row mapping: each table's columns are described once, as readers of the values both dialects
 * hand back (SQLite: timestamps as ISO text, booleans as 0/1, BIGINT as a number; Postgres: Date
 * or ISO text, boolean, BIGINT as text; JSON columns are text on both), and the description is
 * compiled into one reader that makes the record as a single object literal, as a hand-written
 * mapper would. Checked twice: at compile time the description's readers must give the record's
 * field types (`columns<UserRecord>(...)`: a missing, extra or mistyped column is a type error),
 * and at run time each reader checks its value: null in a text column, a literal outside its
 * values, a timestamp that is not one is a defect naming the table and column ({@link RowError}),
 * never a silent cast. No Schema decoding per row: list pages read hundreds of rows, and a
 * reader is a `typeof` check or a small parse.
 */
import { Option } from "effect"

/** A row as a driver hands it back. */
export type Row = Readonly<Record<string, unknown>>

/** Reads one column's value; `column` (`table.column`) names it in the defect when the value is not one it reads. */
export type Column<A> = (value: unknown, column?: string) => A

/** A column value that its reader cannot read: a defect (the database holds what no write puts there). */
export class RowError extends Error {
  override readonly name = "RowError"
  constructor(column: string | undefined, expected: string, value: unknown) {
    super(`Column ${column ?? "(unnamed)"} holds ${show(value)}, which is not ${expected}.`)
  }
}

const show = (value: unknown): string => {
  if (value === null || value === undefined) return String(value)
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value)
  if (value instanceof Date) return `the date ${String(value)}`
  return `a ${typeof value}`
}

const fail = (column: string | undefined, expected: string, value: unknown): never => {
  throw new RowError(column, expected, value)
}

// --- Readers -----------------------------------------------------------------------------------

/**
 * The common case of a reader as JavaScript, for the compiled row readers: an expression of the
 * value's variable `v` that is the field's value, or `otherwise` (the reader's own call, which
 * reads what the expression left, or throws its defect). Written out in the row reader, it costs
 * what a hand-written mapper's field costs: a reader called per field, through a variable the
 * compiler cannot take as constant, costs a call and a check of its target.
 */
type FastPath = (v: string, otherwise: string) => string
const fastPaths = new WeakMap<Column<unknown>, FastPath>()
const withFastPath = <A>(column: Column<A>, fast: FastPath | undefined): Column<A> => {
  if (fast !== undefined) fastPaths.set(column, fast)
  return column
}

/** A text column. */
export const text: Column<string> = withFastPath(
  (v, c) => typeof v === "string" ? v : fail(c, "text", v),
  (v, otherwise) => `typeof ${v} === "string" ? ${v} : ${otherwise}`
)

/**
 * A number column (INTEGER, BIGINT, DOUBLE PRECISION): a number as it comes, a bigint (SQLite's
 * safe integers) or numeric text (Postgres' BIGINT and `count(*)`) converted.
 */
export const int: Column<number> = withFastPath((v, c) => {
  if (typeof v === "number") return v
  if (typeof v === "bigint" || (typeof v === "string" && v !== "")) {
    const n = Number(v)
    if (!Number.isNaN(n)) return n
  }
  return fail(c, "a number", v)
}, (v, otherwise) => `typeof ${v} === "number" ? ${v} : ${otherwise}`)

/** A boolean column: `true`/`false` (Postgres) or 1/0 (SQLite); a few other spellings of them (`1n`, `"t"`). */
export const bool: Column<boolean> = withFastPath((v, c) => {
  if (v === 1 || v === true) return true
  if (v === 0 || v === false) return false
  if (v === 1n || v === "1" || v === "t" || v === "true") return true
  if (v === 0n || v === "0" || v === "f" || v === "false") return false
  return fail(c, "a boolean", v)
}, (v, otherwise) => `${v} === 1 || ${v} === true ? true : ${v} === 0 || ${v} === false ? false : ${otherwise}`)

/**
 * A timestamp read from SQLite text in the form `toISOString` writes (every timestamp is written
 * so): it keeps that text, so encoding it in a response or binding it again costs no formatting
 * (`toISOString` is about 0.5 us, a user has three timestamps and a workspace a dozen). Only
 * while its time is unchanged: a Date is mutable, and a changed one formats as any other. The text
 * is trusted to be what `toISOString` wrote (true of every write; a hand-edited impossible date
 * such as February 30 would be answered as stored; text out of {@link isoTime}'s ranges is parsed
 * by `Date` and formats as any date).
 */
class StoredDate extends Date {
  readonly #iso: string
  readonly #time: number
  constructor(iso: string, time: number) {
    super(time)
    this.#iso = iso
    this.#time = time
  }
  override toISOString(): string {
    return this.getTime() === this.#time ? this.#iso : super.toISOString()
  }
}

/** The two digits of `s` at `i` as a number (NaN-free only for digits; callers check the range). */
const twoDigits = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48
const isDigit = (s: string, i: number) => {
  const c = s.charCodeAt(i)
  return c >= 48 && c <= 57
}

/** Where `YYYY-MM-DDTHH:MM:SS.mmmZ` has digits. */
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22]

/**
 * The time of `YYYY-MM-DDTHH:MM:SS.mmmZ` text, read field by field (half the cost of `Date`'s
 * parser, and a list page reads hundreds); `undefined` when it is not such text within the ranges
 * where this and `new Date(text)` agree (years 100 to 9999, months 1 to 12, days 1 to 31, hours to
 * 23, minutes and seconds to 59), which is then parsed by `Date`.
 */
const isoTime = (s: string): number | undefined => {
  if (
    s.length !== 24 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 ||
    s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90
  ) return undefined
  for (const i of DIGITS) if (!isDigit(s, i)) return undefined
  const year = twoDigits(s, 0) * 100 + twoDigits(s, 2)
  const month = twoDigits(s, 5)
  const day = twoDigits(s, 8)
  const hour = twoDigits(s, 11)
  const minute = twoDigits(s, 14)
  const second = twoDigits(s, 17)
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return undefined
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, (s.charCodeAt(20) - 48) * 100 + twoDigits(s, 21))
}

/**
 * The time of a timestamp's text as `Date`'s parser reads it (an impossible one is an invalid
 * Date, as `new Date(text)`), kept as a {@link StoredDate} when it is in `toISOString`'s form.
 */
export const toDate = (v: Date | string): Date => {
  if (typeof v !== "string") return v
  const time = isoTime(v)
  return time === undefined ? new Date(v) : new StoredDate(v, time)
}

/**
 * A timestamp column: a Date as it comes (Postgres), ISO text (SQLite, Postgres' pool reads) read
 * by {@link toDate}; anything else, or text that is no time, is a defect.
 */
export const date: Column<Date> = (v, c) => {
  if (v instanceof Date) return v
  if (typeof v === "string") {
    const time = isoTime(v)
    if (time !== undefined) return new StoredDate(v, time)
    const parsed = new Date(v)
    if (!Number.isNaN(parsed.getTime())) return parsed
  }
  return fail(c, "a timestamp", v)
}

/**
 * A JSON text column (`fallback` when NULL, empty or not JSON, as a fresh copy). The text is
 * trusted to hold an `A` (the repositories write it from one): it is parsed, not decoded. A value
 * that is not text (a JSON column a query built) is taken as it is.
 */
export const json = <A>(fallback: A): Column<A> => {
  const otherwise = freshOf(fallback)
  return (v) => {
    if (v === null || v === undefined || v === "") return otherwise()
    if (typeof v !== "string") return v as A
    // The most common texts (empty lists and maps), without the parser.
    if (v === "{}") return {} as A
    if (v === "[]") return [] as A
    try {
      return JSON.parse(v) as A
    } catch {
      return otherwise()
    }
  }
}

/** A maker of copies of `value`, so that no two records share (and a change to one alters) a fallback. */
const freshOf = <A>(value: A): () => A => {
  if (value === null || typeof value !== "object") return () => value
  if (Array.isArray(value) && value.length === 0) return () => [] as A
  if (Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0) return () => ({}) as A
  return () => structuredClone(value)
}

/**
 * A JSON text column that always holds a value (no fallback fits its type): NULL, empty or
 * malformed text is a defect. Trusted to hold an `A`, as {@link json}.
 */
export const jsonValue = <A>(): Column<A> => (v, c) => {
  if (typeof v !== "string") return v === null || v === undefined ? fail(c, "JSON text", v) : v as A
  try {
    return JSON.parse(v) as A
  } catch {
    return fail(c, "JSON text", v)
  }
}

/** A text column that holds one of `values` (a union type's values, e.g. core's `provisionerJobTypes`). */
export const literal = <const V extends ReadonlyArray<string>>(values: V): Column<V[number]> => {
  const expected = `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`
  const known: ReadonlyArray<unknown> = values
  const isValue = (v: unknown): v is V[number] => known.includes(v)
  return withFastPath(
    (v, c) => isValue(v) ? v : fail(c, expected, v),
    (v, otherwise) => `${values.map((value) => `${v} === ${JSON.stringify(value)}`).join(" || ")} ? ${v} : ${otherwise}`
  )
}

/**
 * A text column of a kind that later versions may add to (a provisioner job's type): any text,
 * typed as the kinds this version knows. A value of another kind is read as it is stored, so the
 * code that acts on it can refuse it with a message (a job of a type no executor runs fails with
 * one) instead of the row being unreadable.
 */
export const openLiteral = <const V extends ReadonlyArray<string>>(_known: V): Column<V[number]> =>
  text as Column<V[number]>

/** Whether `V` names every member of `T`: else a type naming the ones left out, which no array matches. */
type Every<T extends string, V extends ReadonlyArray<string>> = [Exclude<T, V[number]>] extends [never] ? unknown
  : { readonly missing: Exclude<T, V[number]> }

/**
 * A text column of the union `T` where core declares only the type: `literalOf<AppHealth>()([...])`.
 * The values must name every member of `T` (a compile error names one left out), so that a value
 * core allows is never read as a defect.
 */
export const literalOf =
  <T extends string>() => <const V extends ReadonlyArray<T>>(values: V & Every<T, V>): Column<T> => literal(values)

/** A bytes column (both drivers hand back a Buffer): a plain Uint8Array view of the same bytes; NULL reads as none. */
export const bytes: Column<Uint8Array> = (v, c) => {
  if (v === null || v === undefined) return new Uint8Array(0)
  return v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : fail(c, "bytes", v)
}

/** A sealed value's stored key digest (`*_key_id`): null when stored as given (NULL, or an empty string). */
export const keyId: Column<string | null> = (v, c) =>
  v === null || v === undefined || v === "" ? null : typeof v === "string" ? v : fail(c, "a key digest", v)

/** The fast path of `column` where a NULL reads as the constant `value` (given as JavaScript). */
const whenNull = (column: Column<unknown>, value: string): FastPath => {
  const fast = fastPaths.get(column)
  return (v, otherwise) =>
    `${v} === null || ${v} === undefined ? ${value} : ${fast === undefined ? otherwise : fast(v, otherwise)}`
}

/** `column`, or null when the value is NULL (or the query has no such column). */
export const nullable = <A>(column: Column<A>): Column<A | null> =>
  withFastPath((v, c) => v === null || v === undefined ? null : column(v, c), whenNull(column, "null"))

/** `column`, or `undefined` when the value is NULL (or the query has no such column): an optional field. */
export const optional = <A>(column: Column<A>): Column<A | undefined> =>
  withFastPath((v, c) => v === null || v === undefined ? undefined : column(v, c), whenNull(column, "undefined"))

/** `column`, or `value` when the value is NULL (or the query has no such column). */
export const orElse = <A>(column: Column<A>, value: A): Column<A> =>
  withFastPath(
    (v, c) => v === null || v === undefined ? value : column(v, c),
    typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? whenNull(column, JSON.stringify(value))
      : undefined
  )

/** The columns of the readers made by {@link from}. */
const sources = new WeakMap<Column<unknown>, string>()

/** A field read from the column `name` (the record names it otherwise): `organization_permissions: from("org_permissions", ...)`. */
export const from = <A>(name: string, column: Column<A>): Column<A> => {
  const read = withFastPath<A>((v, c) => column(v, c), fastPaths.get(column))
  sources.set(read, name)
  return read
}

export const nullableText: Column<string | null> = nullable(text)
export const nullableInt: Column<number | null> = nullable(int)
export const nullableDate: Column<Date | null> = nullable(date)

/** A nullable timestamp's value, for tests and ad hoc reads (NULL: null). */
export const toDateOrNull = (v: unknown): Date | null => nullableDate(v)

// --- Descriptions ------------------------------------------------------------------------------

type OptionalKeys<R> = { [K in keyof R]-?: {} extends Pick<R, K> ? K : never }[keyof R]
type RequiredKeys<R> = Exclude<keyof R, OptionalKeys<R>>

/** A reader of each of a record's fields; an optional field may be left out (the record then lacks it). */
export type Description<R> =
  & { readonly [K in RequiredKeys<R>]-?: Column<R[K]> }
  & { readonly [K in OptionalKeys<R>]?: Column<R[K]> }

/** A table's (or a query's) columns, described once: their names, and the reader of a row into an `R`. */
export interface Columns<R> {
  readonly table: string
  readonly description: Description<R>
  /** The column names, in the description's order (a field read `from` another column: that column's). */
  readonly names: ReadonlyArray<string>
  /** The record of a row. */
  readonly read: (row: Row) => R
  /** The reader of rows whose columns are named with `prefix` (`u_id`, ...: two tables read into one row by a join). */
  readonly prefixed: (prefix: string) => (row: Row) => R
  /** `alias.name, ...`, or `alias.name AS prefixname, ...` with `prefix`: a select list of these columns. */
  readonly select: (alias: string, prefix?: string) => string
}

/**
 * Describes the columns of `table` that make an `R`: `columns<UserRecord>("users", { id: text, ... })`.
 * Each field's value is its column's reader; the record's fields are the description's, in its order.
 */
export const columns = <R>(table: string, description: Description<R>): Columns<R> => {
  const entries: ReadonlyArray<readonly [string, Column<unknown>]> = Object.entries(description)
  const fields = entries.map(([field]) => field)
  const readers = entries.map(([, column]) => column)
  const names = entries.map(([field, column]) => sources.get(column) ?? field)
  if (fields.some((n) => n === "__proto__")) throw new Error(`${table}: a field may not be named __proto__.`)
  const made = new Map<string, (row: Row) => R>()
  const prefixed = (prefix: string) => {
    let read = made.get(prefix)
    if (read === undefined) {
      read = compile<R>(table, fields, names, readers, prefix)
      made.set(prefix, read)
    }
    return read
  }
  return {
    table,
    description,
    names,
    read: prefixed(""),
    prefixed,
    select: (alias, prefix) =>
      names.map((n) => prefix === undefined ? `${alias}.${n}` : `${alias}.${n} AS ${prefix}${n}`).join(", ")
  }
}

/**
 * One reader of rows: an object literal of constant keys, each field its reader's fast path
 * written out, or its call, on the row's value (as a hand-written mapper, so V8 gives every record
 * of the table one shape).
 */
const compile = <R>(
  table: string,
  fields: ReadonlyArray<string>,
  names: ReadonlyArray<string>,
  readers: ReadonlyArray<Column<unknown>>,
  prefix: string
): (row: Row) => R => {
  const labels = names.map((n) => `${table}.${n}`)
  const keys = names.map((n) => prefix + n)
  try {
    const values = keys.map((k, i) => `const v${i} = r[${JSON.stringify(k)}]`)
    const literal = fields.map((f, i) => {
      const call = `c${i}(v${i}, ${JSON.stringify(labels[i])})`
      const fast = fastPaths.get(readers[i]!)
      return `${JSON.stringify(f)}: ${fast === undefined ? call : `(${fast(`v${i}`, call)})`}`
    })
    return new Function(
      ...readers.map((_, i) => `c${i}`),
      `return (r) => {\n${values.join("\n")}\nreturn { ${literal.join(", ")} }\n}`
    )(...readers)
  } catch (e) {
    if (!(e instanceof EvalError)) throw e
  }
  // Where code generation is not allowed: the same record, field by field.
  return (row) => {
    const record: Record<string, unknown> = {}
    for (let i = 0; i < fields.length; i++) record[fields[i]!] = readers[i]!(row[keys[i]!], labels[i])
    return record as R
  }
}

/** The first row through `map`, if there is one. */
export const first = <R, A>(rows: ReadonlyArray<R>, map: (r: R) => A): Option.Option<A> =>
  rows.length > 0 ? Option.some(map(rows[0]!)) : Option.none()
