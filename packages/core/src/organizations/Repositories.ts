/** Repository ports of the organizations area: organizations and their members. */
import { Context, type Effect, type Option } from "effect"
import type { Page, UniqueViolation } from "../Repositories.js"
import type { MembershipRecord } from "../users/Repositories.js"
import type { UserRecord, UserStatus } from "../users/User.js"
import type { OrganizationRecord, ShareableWorkspaceOwners } from "./Organization.js"

export class OrganizationRepo extends Context.Tag("@workbay/core/OrganizationRepo")<OrganizationRepo, {
  readonly insert: (org: OrganizationRecord) => Effect.Effect<void, UniqueViolation>
  readonly findById: (id: string) => Effect.Effect<Option.Option<OrganizationRecord>>
  /** The organizations of these ids that exist, in any order (one read for a page). */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<OrganizationRecord>>
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
  /** Whose workspaces the organization lets be shared; none for an unknown organization. */
  readonly findWorkspaceSharing: (id: string) => Effect.Effect<Option.Option<ShareableWorkspaceOwners>>
  /**
   * Sets whose workspaces may be shared and, in the same transaction, clears the sharing lists
   * that no longer may exist: every workspace's of the organization for `none`, those of
   * workspaces not owned by a service account for `service_accounts`. Answers the ids of the
   * workspaces whose lists were cleared; none for an unknown organization.
   */
  readonly setWorkspaceSharing: (
    id: string,
    owners: ShareableWorkspaceOwners,
    at: Date
  ) => Effect.Effect<Option.Option<ReadonlyArray<string>>>
}>() {}

/** Which members a page of `GET /organizations/{organization}/paginated-members` holds. */
export interface MemberFilter {
  /** Free text: substring of username, email or name (case-insensitive). */
  readonly search?: string | undefined
  readonly username?: string | undefined
  readonly email?: string | undefined
  readonly status?: UserStatus | undefined
  readonly loginType?: string | undefined
  /** Keyset cursor: only members whose user id sorts after this one. */
  readonly afterId?: string | undefined
  readonly limit: number
  readonly offset: number
}

export class MemberRepo extends Context.Tag("@workbay/core/MemberRepo")<MemberRepo, {
  readonly insert: (member: MembershipRecord) => Effect.Effect<void, UniqueViolation>
  readonly delete: (organizationId: string, userId: string) => Effect.Effect<boolean>
  readonly find: (organizationId: string, userId: string) => Effect.Effect<Option.Option<MembershipRecord>>
  readonly updateRoles: (
    organizationId: string,
    userId: string,
    roles: ReadonlyArray<string>,
    at: Date
  ) => Effect.Effect<Option.Option<MembershipRecord>>
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
  /**
   * A page of one organization's live members with their users, ordered by user id (along the
   * membership key), and how many members match the filter: without a filter the count kept in
   * the organization's Everyone group, one row at any size.
   */
  readonly page: (
    organizationId: string,
    filter: MemberFilter
  ) => Effect.Effect<{
    readonly members: ReadonlyArray<{ readonly member: MembershipRecord; readonly user: UserRecord }>
    readonly count: number
  }>
}>() {}
