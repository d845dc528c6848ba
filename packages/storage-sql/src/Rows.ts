/**
 * Row mapping shared by both dialects. SQLite hands back timestamps as ISO
 * strings and booleans as 0/1; Postgres hands back Date and boolean. Values are
 * written in the form both accept: ISO strings, 0/1, JSON text.
 */
import {
  AllowListEntry, type ApiKeyRecord, type GitSshKeyRecord, type MembershipRecord, Organization, UserAppearance, type UserRecord,
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
 * such as February 30 would be answered as stored).
 */
class StoredDate extends Date {
  readonly #iso: string
  readonly #time: number
  constructor(iso: string) {
    super(iso)
    this.#iso = iso
    this.#time = this.getTime()
  }
  override toISOString(): string {
    return this.getTime() === this.#time ? this.#iso : super.toISOString()
  }
}

/** `YYYY-MM-DDTHH:MM:SS.mmmZ`: the 24 characters of `toISOString` for years 0 to 9999. */
const isIsoText = (s: string): boolean =>
  s.length === 24 && s.charCodeAt(10) === 84 && s.charCodeAt(19) === 46 && s.charCodeAt(23) === 90

export const toDate = (v: unknown): Date =>
  v instanceof Date ? v : typeof v === "string" && isIsoText(v) ? new StoredDate(v) : new Date(v as string)
export const toDateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : toDate(v))
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "t" || v === "true"
export const toNumber = (v: unknown): number => (typeof v === "number" ? v : Number(v))
export const fromJson = <A>(v: unknown, fallback: A): A => {
  if (typeof v !== "string" || v === "") return (v ?? fallback) as A
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
  "id", "email", "username", "name", "avatar_url", "login_type", "status", "rbac_roles", "is_service_account",
  "hashed_password", "created_at", "updated_at", "last_seen_at", "deleted", "appearance", "quiet_hours_schedule",
  "hashed_one_time_passcode", "one_time_passcode_expires_at"
] as const

export const apiKeyColumns = [
  "id", "hashed_secret", "user_id", "login_type", "token_name", "scopes", "allow_list", "lifetime_seconds",
  "created_at", "updated_at", "expires_at", "last_used"
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

/** A user's appearance: the stored settings over the defaults (most users set none: the defaults themselves). */
const toAppearance = (v: unknown): UserAppearance =>
  v === "{}" || v === undefined || v === null ? UserAppearance.defaults : makeAppearance({ ...UserAppearance.defaults, ...fromJson<object>(v, {}) })

export const rowToUser = (r: Row, p = ""): UserRecord => ({
  id: r[p + "id"] as string,
  email: r[p + "email"] as string,
  username: r[p + "username"] as string,
  name: r[p + "name"] as string,
  avatar_url: r[p + "avatar_url"] as string,
  login_type: r[p + "login_type"] as UserRecord["login_type"],
  status: r[p + "status"] as UserRecord["status"],
  rbac_roles: fromJson<Array<string>>(r[p + "rbac_roles"], []),
  is_service_account: toBool(r[p + "is_service_account"]),
  hashed_password: (r[p + "hashed_password"] as string | null) ?? null,
  created_at: toDate(r[p + "created_at"]),
  updated_at: toDate(r[p + "updated_at"]),
  last_seen_at: toDate(r[p + "last_seen_at"]),
  deleted: toBool(r[p + "deleted"]),
  appearance: toAppearance(r[p + "appearance"]),
  quiet_hours_schedule: (r[p + "quiet_hours_schedule"] as string) ?? "",
  hashed_one_time_passcode: (r[p + "hashed_one_time_passcode"] as string | null) ?? null,
  one_time_passcode_expires_at: toDateOrNull(r[p + "one_time_passcode_expires_at"])
})

export const rowToApiKey = (r: Row, p = ""): ApiKeyRecord => ({
  id: r[p + "id"] as string,
  hashed_secret: r[p + "hashed_secret"] as string,
  user_id: r[p + "user_id"] as string,
  login_type: r[p + "login_type"] as ApiKeyRecord["login_type"],
  token_name: r[p + "token_name"] as string,
  scopes: fromJson<Array<string>>(r[p + "scopes"], ["all"]),
  allow_list: fromJson<Array<{ id: string; type: AllowListEntry["type"] }>>(r[p + "allow_list"], []).map(
    (e) => new AllowListEntry(e, true)
  ),
  lifetime_seconds: toNumber(r[p + "lifetime_seconds"]),
  created_at: toDate(r[p + "created_at"]),
  updated_at: toDate(r[p + "updated_at"]),
  expires_at: toDate(r[p + "expires_at"]),
  last_used: toDate(r[p + "last_used"])
})

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
