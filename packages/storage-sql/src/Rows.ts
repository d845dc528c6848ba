/**
 * Row mapping shared by both dialects. SQLite hands back timestamps as ISO
 * strings and booleans as 0/1; Postgres hands back Date and boolean. Values are
 * written in the form both accept: ISO strings, 0/1, JSON text.
 */
import {
  AllowListEntry,
  type ApiKeyRecord,
  type GitSshKeyRecord,
  type MembershipRecord,
  Organization,
  UserAppearance,
  type UserRecord,
  wireMaker
} from "@workbay/core"
import { Option } from "effect"

type Row = Record<string, unknown>

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
export const toDate = (v: unknown): Date => {
  if (v instanceof Date) return v
  if (typeof v === "string") {
    const time = isoTime(v)
    if (time !== undefined) return new StoredDate(v, time)
  }
  return new Date(v as string)
}
export const toDateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : toDate(v))
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "t" || v === "true"
export const toNumber = (v: unknown): number => (typeof v === "number" ? v : Number(v))
export const fromJson = <A>(v: unknown, fallback: A): A => {
  if (typeof v !== "string" || v === "") return (v ?? fallback) as A
  // The most common texts (empty lists and maps), without the parser.
  if (v === "{}") return {} as A
  if (v === "[]") return [] as A
  try {
    return JSON.parse(v) as A
  } catch {
    return fallback
  }
}

/** Converts a value for binding: Date to ISO text, boolean to 0/1, arrays and objects to JSON text. */
export const bind = (v: unknown): unknown => {
  if (v instanceof Date) return v.toISOString()
  if (typeof v === "boolean") return v ? 1 : 0
  if (v !== null && typeof v === "object") return JSON.stringify(v)
  return v
}

/** Columns and bound values of a record or patch (fields set to `undefined` are left out). */
export const bindRecord = (record: object): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = bind(v)
  return out
}

export const userColumns = [
  "id",
  "email",
  "username",
  "name",
  "avatar_url",
  "login_type",
  "status",
  "rbac_roles",
  "is_service_account",
  "hashed_password",
  "created_at",
  "updated_at",
  "last_seen_at",
  "deleted",
  "appearance",
  "quiet_hours_schedule",
  "hashed_one_time_passcode",
  "one_time_passcode_expires_at"
] as const

export const apiKeyColumns = [
  "id",
  "hashed_secret",
  "user_id",
  "login_type",
  "token_name",
  "scopes",
  "allow_list",
  "lifetime_seconds",
  "created_at",
  "updated_at",
  "expires_at",
  "last_used"
] as const

/** `alias.col AS prefixcol, ...` for a join that reads two tables into one row. */
export const prefixed = (alias: string, columns: ReadonlyArray<string>, prefix: string) =>
  columns.map((c) => `${alias}.${c} AS ${prefix}${c}`).join(", ")

/** The users columns of a join on `users u`, read back with `rowToUser(row, "u_")`. */
export const USER_JOIN_COLUMNS = prefixed("u", userColumns, "u_")

/** The first row through `map`, if there is one. */
export const first = <R, A>(rows: ReadonlyArray<R>, map: (r: R) => A): Option.Option<A> =>
  rows.length > 0 ? Option.some(map(rows[0]!)) : Option.none()

const makeAppearance = wireMaker(UserAppearance)
const makeOrganization = wireMaker(Organization)

/**
 * A reader of small JSON texts that repeat across rows (a user's site roles, their appearance):
 * each distinct text is parsed once, and its value, frozen, is shared by every row that has it
 * (at most `MEMO_TEXTS` texts are kept; past that the memory starts over). The values are
 * read-only records, so sharing them changes nothing a caller can see; a write to one throws.
 */
const MEMO_TEXTS = 256
const memoText = <A>(parse: (text: string) => A) => {
  const seen = new Map<string, A>()
  return (text: string): A => {
    let value = seen.get(text)
    if (value === undefined) {
      value = Object.freeze(parse(text))
      if (seen.size >= MEMO_TEXTS) seen.clear()
      seen.set(text, value)
    }
    return value
  }
}

const appearanceOf = memoText((text) => makeAppearance({ ...UserAppearance.defaults, ...fromJson<object>(text, {}) }))
/** A user's appearance: the stored settings over the defaults (most users set none: the defaults themselves). */
const toAppearance = (v: unknown): UserAppearance =>
  v === "{}" || v === undefined || v === null
    ? UserAppearance.defaults
    : typeof v === "string"
    ? appearanceOf(v)
    : makeAppearance({ ...UserAppearance.defaults, ...fromJson<object>(v, {}) })

/** Site roles read from their JSON text; most users have none: one shared (frozen) empty list. */
const NO_ROLES: ReadonlyArray<string> = Object.freeze([])
const rolesOf = memoText((text) => Object.freeze(fromJson<Array<string>>(text, [])))
const toRoles = (v: unknown): ReadonlyArray<string> =>
  v === "[]" ? NO_ROLES : typeof v === "string" ? rolesOf(v) : fromJson<Array<string>>(v, [])

/**
 * The column names of a table's records read under a prefix in a join (`u_id`, ...), made once per
 * prefix: a row's field read with a name made per read (`r[p + "id"]`) costs a string concatenation
 * and a lookup of the new string, per field and row.
 */
const prefixedNames = <C extends string>(columns: ReadonlyArray<C>) => {
  const made = new Map<string, Record<C, string>>()
  return (p: string): Record<C, string> => {
    let names = made.get(p)
    if (names === undefined) {
      names = Object.fromEntries(columns.map((c) => [c, p + c])) as Record<C, string>
      made.set(p, names)
    }
    return names
  }
}
const userNames = prefixedNames(userColumns)
const apiKeyNames = prefixedNames(apiKeyColumns)

/** A user row; `p` is the prefix of its columns in a join (`USER_JOIN_COLUMNS`: `u_`). */
export const rowToUser = (r: Row, p = ""): UserRecord => {
  const n = userNames(p)
  return {
    id: r[n.id] as string,
    email: r[n.email] as string,
    username: r[n.username] as string,
    name: r[n.name] as string,
    avatar_url: r[n.avatar_url] as string,
    login_type: r[n.login_type] as UserRecord["login_type"],
    status: r[n.status] as UserRecord["status"],
    rbac_roles: toRoles(r[n.rbac_roles]),
    is_service_account: toBool(r[n.is_service_account]),
    hashed_password: (r[n.hashed_password] as string | null) ?? null,
    created_at: toDate(r[n.created_at]),
    updated_at: toDate(r[n.updated_at]),
    last_seen_at: toDate(r[n.last_seen_at]),
    deleted: toBool(r[n.deleted]),
    appearance: toAppearance(r[n.appearance]),
    quiet_hours_schedule: (r[n.quiet_hours_schedule] as string) ?? "",
    hashed_one_time_passcode: (r[n.hashed_one_time_passcode] as string | null) ?? null,
    one_time_passcode_expires_at: toDateOrNull(r[n.one_time_passcode_expires_at])
  }
}

const makeAllowListEntry = wireMaker(AllowListEntry)
/** Every session and most tokens allow everything: their stored list (as `bind` writes it), without the parser. */
const ALLOW_ALL_TEXT = JSON.stringify([{ id: "*", type: "*" }])
const toAllowList = (v: unknown): Array<AllowListEntry> =>
  v === ALLOW_ALL_TEXT
    ? [makeAllowListEntry({ id: "*", type: "*" })]
    : fromJson<Array<{ id: string; type: AllowListEntry["type"] }>>(v, []).map((e) =>
      makeAllowListEntry({ id: e.id, type: e.type })
    )
/** The scopes of every session and of most tokens, without the parser. */
const toScopes = (v: unknown): Array<string> => v === "[\"all\"]" ? ["all"] : fromJson<Array<string>>(v, ["all"])

export const rowToApiKey = (r: Row, p = ""): ApiKeyRecord => {
  const n = apiKeyNames(p)
  return {
    id: r[n.id] as string,
    hashed_secret: r[n.hashed_secret] as string,
    user_id: r[n.user_id] as string,
    login_type: r[n.login_type] as ApiKeyRecord["login_type"],
    token_name: r[n.token_name] as string,
    scopes: toScopes(r[n.scopes]),
    allow_list: toAllowList(r[n.allow_list]),
    lifetime_seconds: toNumber(r[n.lifetime_seconds]),
    created_at: toDate(r[n.created_at]),
    updated_at: toDate(r[n.updated_at]),
    expires_at: toDate(r[n.expires_at]),
    last_used: toDate(r[n.last_used])
  }
}

export const rowToOrganization = (r: Row): Organization =>
  makeOrganization({
    id: r.id as string,
    name: r.name as string,
    display_name: r.display_name as string,
    description: r.description as string,
    icon: r.icon as string,
    is_default: toBool(r.is_default),
    created_at: toDate(r.created_at),
    updated_at: toDate(r.updated_at)
  })

export const rowToMembership = (r: Row, p = ""): MembershipRecord => ({
  organization_id: r[p + "organization_id"] as string,
  user_id: r[p + "user_id"] as string,
  roles: fromJson<Array<string>>(r[p + "roles"], []),
  created_at: toDate(r[p + "created_at"]),
  updated_at: toDate(r[p + "updated_at"])
})

export const rowToGitSshKey = (r: Row): GitSshKeyRecord => ({
  user_id: r.user_id as string,
  private_key: r.private_key as string,
  public_key: r.public_key as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at)
})
