/**
 * What several areas share of rows: the column descriptions (Columns.ts) of the identity tables
 * that other areas join (users, API keys, organizations, memberships, git SSH keys), and `bind`,
 * the form values are written in. Values are written in the form both dialects accept: ISO
 * strings, 0/1, JSON text.
 */
import {
  AllowListEntry,
  ApiKeyLoginType,
  type ApiKeyRecord,
  type GitSshKeyRecord,
  LoginType,
  type MembershipRecord,
  Organization,
  UserAppearance,
  type UserRecord,
  UserStatus,
  wireMaker
} from "@workbay/core"
import {
  bool,
  type Column,
  columns,
  date,
  int,
  json,
  literal,
  nullableDate,
  nullableText,
  orElse,
  type Row,
  text
} from "./Columns.js"

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

const settings = json<object>({})
const appearanceOf = memoText((text) => makeAppearance({ ...UserAppearance.defaults, ...settings(text) }))
/** A user's appearance: the stored settings over the defaults (most users set none: the defaults themselves). */
const appearance: Column<UserAppearance> = (v) =>
  v === "{}" || v === undefined || v === null
    ? UserAppearance.defaults
    : typeof v === "string"
    ? appearanceOf(v)
    : makeAppearance({ ...UserAppearance.defaults, ...settings(v) })

/** Explicit roles: a JSON list of role names. */
export const roleNames = json<Array<string>>([])
/** Site roles read from their JSON text; most users have none: one shared (frozen) empty list. */
const NO_ROLES: ReadonlyArray<string> = Object.freeze([])
const rolesOf = memoText((text) => Object.freeze(roleNames(text)))
const siteRoles: Column<ReadonlyArray<string>> = (v) =>
  v === "[]" ? NO_ROLES : typeof v === "string" ? rolesOf(v) : roleNames(v)

export const userColumns = columns<UserRecord>("users", {
  id: text,
  email: text,
  username: text,
  name: text,
  avatar_url: text,
  login_type: literal(LoginType.literals),
  status: literal(UserStatus.literals),
  rbac_roles: siteRoles,
  is_service_account: bool,
  hashed_password: nullableText,
  created_at: date,
  updated_at: date,
  last_seen_at: date,
  deleted: bool,
  appearance,
  quiet_hours_schedule: orElse(text, ""),
  hashed_one_time_passcode: nullableText,
  one_time_passcode_expires_at: nullableDate
})

/** A user row. */
export const rowToUser = userColumns.read
/** The users columns of a join on `users u`, read back with {@link rowToJoinedUser}. */
export const USER_JOIN_COLUMNS = userColumns.select("u", "u_")
/** The user of a row that joined `users u` by {@link USER_JOIN_COLUMNS}. */
export const rowToJoinedUser = userColumns.prefixed("u_")

const makeAllowListEntry = wireMaker(AllowListEntry)
/** Every session and most tokens allow everything: their stored list (as `bind` writes it), without the parser. */
const ALLOW_ALL_TEXT = JSON.stringify([{ id: "*", type: "*" }])
const allowListEntries = json<Array<{ id: string; type: AllowListEntry["type"] }>>([])
const allowList: Column<Array<AllowListEntry>> = (v, c) =>
  v === ALLOW_ALL_TEXT
    ? [makeAllowListEntry({ id: "*", type: "*" })]
    : allowListEntries(v, c).map((e) => makeAllowListEntry({ id: e.id, type: e.type }))
/** The scopes of every session and of most tokens, without the parser. */
const scopeList = json<Array<string>>(["all"])
const scopes: Column<Array<string>> = (v, c) => v === "[\"all\"]" ? ["all"] : scopeList(v, c)

export const apiKeyColumns = columns<ApiKeyRecord>("api_keys", {
  id: text,
  hashed_secret: text,
  user_id: text,
  login_type: literal(ApiKeyLoginType.literals),
  token_name: text,
  scopes,
  allow_list: allowList,
  lifetime_seconds: int,
  created_at: date,
  updated_at: date,
  expires_at: date,
  last_used: date
})
export const rowToApiKey = apiKeyColumns.read

const organizationColumns = columns<ConstructorParameters<typeof Organization>[0]>("organizations", {
  id: text,
  name: text,
  display_name: text,
  description: text,
  icon: text,
  is_default: bool,
  created_at: date,
  updated_at: date
})
export const rowToOrganization = (r: Row): Organization => makeOrganization(organizationColumns.read(r))

export const membershipColumns = columns<MembershipRecord>("organization_members", {
  organization_id: text,
  user_id: text,
  roles: roleNames,
  created_at: date,
  updated_at: date
})
export const rowToMembership = membershipColumns.read

export const rowToGitSshKey = columns<GitSshKeyRecord>("gitsshkeys", {
  user_id: text,
  private_key: text,
  public_key: text,
  created_at: date,
  updated_at: date
}).read
