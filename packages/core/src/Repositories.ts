/**
 * Repository ports. Storage packages implement them; services depend only on
 * these tags. Storage failures are defects, except a unique-key clash, which is
 * a typed {@link UniqueViolation} the services turn into a 409.
 */
import { Context, Data, type Effect, type Option } from "effect"
import type { ApiKeyRecord } from "./users/ApiKey.js"
import type { GitSshKeyRecord } from "./general/BuildInfo.js"
import type { MembershipRecord, OrganizationRecord } from "./organizations/Organization.js"
import type { UserRecord, UserStatus } from "./users/User.js"

/** A write hit a unique constraint (e.g. a duplicate username). */
export class UniqueViolation extends Data.TaggedError("UniqueViolation")<{ readonly constraint: string }> {}

export interface Page {
  readonly limit: number
  readonly offset: number
}

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
  /** Case-insensitive, live users only. */
  readonly findByUsername: (username: string) => Effect.Effect<Option.Option<UserRecord>>
  /** Case-insensitive, live users only. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<UserRecord>>
  /** Live users ordered by username; `count` is the number matching the filter. */
  readonly list: (filter: UserFilter) => Effect.Effect<{ readonly users: ReadonlyArray<UserRecord>; readonly count: number }>
  readonly update: (id: string, patch: UserPatch) => Effect.Effect<Option.Option<UserRecord>, UniqueViolation>
  /** Number of live users. */
  readonly count: Effect.Effect<number>
}>() {}

export class OrganizationRepo extends Context.Tag("@workbay/core/OrganizationRepo")<OrganizationRepo, {
  readonly insert: (org: OrganizationRecord) => Effect.Effect<void, UniqueViolation>
  readonly findById: (id: string) => Effect.Effect<Option.Option<OrganizationRecord>>
  /** Case-insensitive. */
  readonly findByName: (name: string) => Effect.Effect<Option.Option<OrganizationRecord>>
  readonly findDefault: Effect.Effect<Option.Option<OrganizationRecord>>
  /** All organizations ordered by name. */
  readonly list: Effect.Effect<ReadonlyArray<OrganizationRecord>>
  readonly update: (
    id: string,
    patch: Partial<Omit<OrganizationRecord, "id" | "created_at" | "is_default">>
  ) => Effect.Effect<Option.Option<OrganizationRecord>, UniqueViolation>
  /** Removes the organization and its memberships. */
  readonly delete: (id: string) => Effect.Effect<void>
}>() {}

export class MemberRepo extends Context.Tag("@workbay/core/MemberRepo")<MemberRepo, {
  readonly insert: (member: MembershipRecord) => Effect.Effect<void, UniqueViolation>
  readonly delete: (organizationId: string, userId: string) => Effect.Effect<boolean>
  readonly find: (organizationId: string, userId: string) => Effect.Effect<Option.Option<MembershipRecord>>
  readonly updateRoles: (organizationId: string, userId: string, roles: ReadonlyArray<string>, at: Date) => Effect.Effect<Option.Option<MembershipRecord>>
  /** Organization ids per user, for many users in one lookup. */
  readonly ofUsers: (userIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
  readonly deleteByUser: (userId: string) => Effect.Effect<void>
  /** Memberships of one user. */
  readonly ofUser: (userId: string) => Effect.Effect<ReadonlyArray<MembershipRecord>>
  /** Members of one organization with their users, ordered by username, live users only. */
  readonly list: (
    organizationId: string,
    page: Page
  ) => Effect.Effect<ReadonlyArray<{ readonly member: MembershipRecord; readonly user: UserRecord }>>
}>() {}

export interface ApiKeyFilter {
  readonly userId: string
  readonly includeExpired: boolean
  readonly now: Date
  /** Only keys of this login type (tokens are `token`). */
  readonly loginType?: string | undefined
}

export class ApiKeyRepo extends Context.Tag("@workbay/core/ApiKeyRepo")<ApiKeyRepo, {
  readonly insert: (key: ApiKeyRecord) => Effect.Effect<void, UniqueViolation>
  /** The key and its user in one lookup: the authentication hot path. */
  readonly findWithUser: (
    id: string
  ) => Effect.Effect<Option.Option<{ readonly key: ApiKeyRecord; readonly user: UserRecord }>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<ApiKeyRecord>>
  readonly findByName: (userId: string, tokenName: string) => Effect.Effect<Option.Option<ApiKeyRecord>>
  readonly list: (filter: ApiKeyFilter) => Effect.Effect<ReadonlyArray<ApiKeyRecord>>
  readonly delete: (id: string) => Effect.Effect<boolean>
  readonly deleteByUser: (userId: string) => Effect.Effect<void>
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
}>() {}

/** Runs a unit of work atomically (a database transaction). */
export class Transactions extends Context.Tag("@workbay/core/Transactions")<Transactions, {
  readonly atomic: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
