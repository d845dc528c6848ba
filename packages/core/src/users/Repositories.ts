/** Repository ports of the users area: users, API keys, git SSH keys, login conversions. */
import { Context, type Effect, type Option } from "effect"
import type { RoleDefinition } from "../Rbac.js"
import type { Page, UniqueViolation } from "../Repositories.js"
import type { ApiKeyRecord } from "./ApiKey.js"
import type { GitSshKeyRecord } from "./GitSshKey.js"
import type { StoredPreferences } from "./Preferences.js"
import type { UserRecord, UserStatus } from "./User.js"

/** A membership of a user in an organization, with its explicit organization roles. */
export interface MembershipRecord {
  readonly organization_id: string
  readonly user_id: string
  readonly roles: ReadonlyArray<string>
  readonly created_at: Date
  readonly updated_at: Date
}

/**
 * What the users area needs of the organizations and groups above it: a user's memberships, the
 * default organization, and what a caller's subject carries (group ids, custom role definitions).
 * The groups area gives it (groups/UserMemberships.ts, over the organizations' and groups' ports),
 * through the assembly.
 */
export class UserMemberships extends Context.Tag("@workbay/core/UserMemberships")<UserMemberships, {
  /** Memberships of one user. */
  readonly ofUser: (userId: string) => Effect.Effect<ReadonlyArray<MembershipRecord>>
  /** Organization ids per user, for many users in one lookup. */
  readonly ofUsers: (userIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
  readonly insert: (member: MembershipRecord) => Effect.Effect<void, UniqueViolation>
  readonly deleteByUser: (userId: string) => Effect.Effect<void>
  /** The default organization's id, when there is one. */
  readonly defaultOrganizationId: Effect.Effect<Option.Option<string>>
  readonly organizationExists: (id: string) => Effect.Effect<boolean>
  /** The default organization's id; the built-in one (`coder`) is created with `id` at `at` when there is none. */
  readonly ensureDefaultOrganization: (id: string, at: Date) => Effect.Effect<string, UniqueViolation>
  /** The ids of the groups the user is a member of. */
  readonly groupIdsOf: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** The definitions of the custom roles among `orgRoles`, by organization and name. */
  readonly customRoles: (
    orgRoles: ReadonlyMap<string, ReadonlyArray<string>>
  ) => Effect.Effect<ReadonlyMap<string, ReadonlyMap<string, RoleDefinition>>>
}>() {}

export interface UserFilter extends Page {
  /** Free text: matches username or email (case-insensitive substring). */
  readonly search?: string | undefined
  readonly username?: string | undefined
  readonly email?: string | undefined
  readonly status?: UserStatus | undefined
  /** A site role; `member` matches everyone. */
  readonly role?: string | undefined
  readonly loginType?: string | undefined
  /** Keyset cursor: only users ordered after this user. */
  readonly afterId?: string | undefined
  /** Only members of this organization. */
  readonly organizationId?: string | undefined
}

export type UserPatch = Partial<Omit<UserRecord, "id" | "created_at">>

export class UserRepo extends Context.Tag("@workbay/core/UserRepo")<UserRepo, {
  readonly insert: (user: UserRecord) => Effect.Effect<void, UniqueViolation>
  readonly findById: (id: string) => Effect.Effect<Option.Option<UserRecord>>
  /**
   * `findById` that, inside a transaction, holds the user's row until it ends (Postgres `FOR SHARE`;
   * SQLite's transactions are serial): a change of the user's row (a password change, a reset, a
   * deletion) and a transaction that issues credentials on the user's behalf are then ordered, so
   * the change's revocation sees every credential issued before it.
   */
  readonly lockById: (id: string) => Effect.Effect<Option.Option<UserRecord>>
  /** The users of these ids that exist, deleted ones included, in any order (one read for a page). */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<UserRecord>>
  /** Case-insensitive, live users only. */
  readonly findByUsername: (username: string) => Effect.Effect<Option.Option<UserRecord>>
  /** Case-insensitive, live users only. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<UserRecord>>
  /** Live users ordered by username; `count` is the number matching the filter. */
  readonly list: (
    filter: UserFilter
  ) => Effect.Effect<{ readonly users: ReadonlyArray<UserRecord>; readonly count: number }>
  readonly update: (id: string, patch: UserPatch) => Effect.Effect<Option.Option<UserRecord>, UniqueViolation>
  /** Number of live users. */
  readonly count: Effect.Effect<number>
  /** The preference settings the user set (an object; `{}` when none), or none for an unknown user. */
  readonly findPreferences: (id: string) => Effect.Effect<Option.Option<Readonly<Record<string, unknown>>>>
  /** Replaces the stored preference settings; answers whether the user exists. */
  readonly setPreferences: (id: string, preferences: StoredPreferences, at: Date) => Effect.Effect<boolean>
}>() {}

export interface ApiKeyFilter {
  readonly userId: string
  readonly includeExpired: boolean
  readonly now: Date
  /** Only tokens (keys of login type `token`), not sessions. */
  readonly tokensOnly?: boolean | undefined
}

export interface TokenFilter {
  readonly includeExpired: boolean
  readonly now: Date
}

/** A token and its owner's username. */
export interface TokenWithOwner {
  readonly key: ApiKeyRecord
  readonly username: string
}

export class ApiKeyRepo extends Context.Tag("@workbay/core/ApiKeyRepo")<ApiKeyRepo, {
  readonly insert: (key: ApiKeyRecord) => Effect.Effect<void, UniqueViolation>
  /**
   * The key and its user in one lookup: the authentication hot path. A storage that reads the
   * user's memberships in the same read (both SQL storages do) answers them too, oldest first, as
   * `MemberRepo.ofUser` orders them; otherwise they are read when needed.
   */
  readonly findWithUser: (
    id: string
  ) => Effect.Effect<
    Option.Option<{
      readonly key: ApiKeyRecord
      readonly user: UserRecord
      readonly memberships?: ReadonlyArray<Pick<MembershipRecord, "organization_id" | "roles">> | undefined
    }>
  >
  readonly findById: (id: string) => Effect.Effect<Option.Option<ApiKeyRecord>>
  readonly findByName: (userId: string, tokenName: string) => Effect.Effect<Option.Option<ApiKeyRecord>>
  readonly list: (filter: ApiKeyFilter) => Effect.Effect<ReadonlyArray<ApiKeyRecord>>
  /**
   * Every user's tokens (login type `token`), newest first, each with its owner's username:
   * the described system's `include_all`, which lists them unpaged. Sessions are never read.
   */
  readonly listAllTokens: (filter: TokenFilter) => Effect.Effect<ReadonlyArray<TokenWithOwner>>
  readonly delete: (id: string) => Effect.Effect<boolean>
  /**
   * Moves the key's expiry to `at` unless it already expired by then; answers the key as stored
   * afterwards (none when it is gone).
   */
  readonly expire: (id: string, at: Date) => Effect.Effect<Option.Option<ApiKeyRecord>>
  /**
   * Ends every credential of the user in one transaction: their keys of every login type
   * (sessions, tokens, OAuth2 access tokens), and the OAuth2 refresh tokens and unredeemed codes
   * that would mint new ones (as the described system's keys take their OAuth2 tokens with them).
   * Answers how many usable (not yet rotated) OAuth2 refresh tokens went.
   */
  readonly deleteByUser: (userId: string) => Effect.Effect<number>
  /** Records use and, for sessions, a refreshed expiry. */
  readonly touch: (id: string, lastUsed: Date, expiresAt: Date) => Effect.Effect<void>
  /** Deletes keys that expired before `before` (retention); answers how many. */
  readonly purgeExpiredBefore: (before: Date) => Effect.Effect<number>
}>() {}

export class GitSshKeyRepo extends Context.Tag("@workbay/core/GitSshKeyRepo")<GitSshKeyRepo, {
  readonly find: (userId: string) => Effect.Effect<Option.Option<GitSshKeyRecord>>
  readonly upsert: (key: GitSshKeyRecord) => Effect.Effect<void>
}>() {}

export interface LoginConversionRecord {
  readonly state_string: string
  readonly user_id: string
  readonly to_type: string
  readonly expires_at: Date
  readonly created_at: Date
}

export class LoginConversionRepo extends Context.Tag("@workbay/core/LoginConversionRepo")<LoginConversionRepo, {
  readonly insert: (record: LoginConversionRecord) => Effect.Effect<void>
  readonly findByState: (state: string) => Effect.Effect<Option.Option<LoginConversionRecord>>
  /** Removes a used conversion: its state string works once. */
  readonly delete: (state: string) => Effect.Effect<void>
}>() {}
