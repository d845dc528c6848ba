/** Groups: the wire forms (group, group AI budget, workspace quota), the stored record and the repository port. */
import { Context, type Effect, type Option, Schema } from "effect"
import type { MemberFilter } from "../organizations/Repositories.js"
import type { UniqueViolation } from "../Repositories.js"
import { ReducedUser, usernamePattern, type UserRecord } from "../users/User.js"
import { omitEmpty } from "../Wire.js"

/** The group every organization has: its members are the organization's members. Its id is the organization's id. */
export const EVERYONE_GROUP_NAME = "Everyone"

export const GroupSource = Schema.Literal("oidc", "user")
export type GroupSource = typeof GroupSource.Type

/** A group with its members (those the caller may read) and its real size; the avatar is absent when empty. */
export class Group extends Schema.Class<Group>("Group")({
  avatar_url: omitEmpty(Schema.String),
  display_name: Schema.String,
  id: Schema.UUID,
  members: Schema.Array(ReducedUser),
  name: Schema.String,
  organization_display_name: Schema.String,
  organization_id: Schema.UUID,
  organization_name: Schema.String,
  quota_allowance: Schema.Int,
  source: GroupSource,
  total_member_count: Schema.Int
}) {}

/** A page of a group's members. */
export class GroupMembersPage extends Schema.Class<GroupMembersPage>("GroupMembersResponse")({
  count: Schema.Int,
  users: Schema.Array(ReducedUser)
}) {}

/**
 * A group as the paginated organization listing answers it: no member roster, only the real
 * size (the members are read a page at a time from the group's members listing).
 */
export class PaginatedGroup extends Schema.Class<PaginatedGroup>("PaginatedGroup")({
  avatar_url: omitEmpty(Schema.String),
  display_name: Schema.String,
  id: Schema.UUID,
  name: Schema.String,
  organization_display_name: Schema.String,
  organization_id: Schema.UUID,
  organization_name: Schema.String,
  quota_allowance: Schema.Int,
  source: GroupSource,
  total_member_count: Schema.Int
}) {}

/** A page of an organization's groups and the number of groups matching the search. */
export class PaginatedGroupsPage extends Schema.Class<PaginatedGroupsPage>("PaginatedGroupsResponse")({
  count: Schema.Int,
  groups: Schema.Array(PaginatedGroup)
}) {}

/** A group's AI spend limit, in millionths of the currency unit. */
export class GroupAiBudget extends Schema.Class<GroupAiBudget>("GroupAIBudget")({
  created_at: Schema.Date,
  group_id: Schema.UUID,
  spend_limit_micros: Schema.Int,
  updated_at: Schema.Date
}) {}

/** Deprecated per-user quota: the sum of the allowances of the user's groups, and what their workspaces use. */
export class WorkspaceQuota extends Schema.Class<WorkspaceQuota>("WorkspaceQuota")({
  budget: Schema.Int,
  credits_consumed: Schema.Int
}) {}

/** Group name rules: those of usernames (1-32 alphanumerics with single inner hyphens). */
export const GroupName = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Name is required." }),
  Schema.maxLength(32, { message: () => "Name must be at most 32 characters." }),
  Schema.pattern(usernamePattern, {
    message: () => "Name must be alphanumeric with single hyphens, not starting or ending with a hyphen."
  })
)

/** Whether a string could be a group name (used where `{group}` is an id or a name). */
export const isGroupName = (s: string) => s.length >= 1 && s.length <= 32 && usernamePattern.test(s)

/** The stored group, with the names of its organization. */
export interface GroupRecord {
  readonly id: string
  readonly organization_id: string
  readonly name: string
  readonly display_name: string
  readonly avatar_url: string
  readonly quota_allowance: number
  readonly source: GroupSource
  /** Kept by the repositories with every membership change: the group's size in one row read. */
  readonly member_count: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly organization_name: string
  readonly organization_display_name: string
}

/** A group row as inserted (the organization's names come from its row). */
export type NewGroup = Omit<GroupRecord, "member_count" | "organization_name" | "organization_display_name">

export type GroupPatch = Partial<Pick<GroupRecord, "name" | "display_name" | "avatar_url" | "quota_allowance">> & {
  readonly updated_at: Date
}

/** Whether a group is its organization's Everyone group. */
export const isEveryoneGroup = (g: Pick<GroupRecord, "id" | "organization_id">) => g.id === g.organization_id

export interface GroupFilter {
  readonly organizationId?: string | undefined
  /** Only groups this user belongs to (Everyone groups of their organizations included). */
  readonly hasMemberId?: string | undefined
  readonly ids?: ReadonlyArray<string> | undefined
}

/** An organization member listing's filter, and: */
export interface GroupMemberFilter extends MemberFilter {
  /** Only this user (a caller who may read only their own membership). */
  readonly userId?: string | undefined
}

export interface GroupPageFilter {
  readonly organizationId: string
  /** Free text: substring of the name or display name (case-insensitive). */
  readonly search?: string | undefined
  /** Keyset cursor: only groups whose name sorts after this group's (case-insensitive). */
  readonly afterId?: string | undefined
  readonly limit: number
  readonly offset: number
}

/** The group, as the repository needs it to find its members (Everyone's are the organization's). */
export type GroupRef = Pick<GroupRecord, "id" | "organization_id">

export class GroupRepo extends Context.Tag("@workbay/core/GroupRepo")<GroupRepo, {
  readonly insert: (group: NewGroup) => Effect.Effect<void, UniqueViolation>
  readonly findById: (id: string) => Effect.Effect<Option.Option<GroupRecord>>
  /** The groups of these ids that exist, in any order (one read for a page). */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<GroupRecord>>
  /** The organization's group of this name (case-insensitive), along the unique index of the names. */
  readonly findByOrganizationAndName: (
    organizationId: string,
    name: string
  ) => Effect.Effect<Option.Option<GroupRecord>>
  /** Every group with this name (case-insensitive), in any organization. */
  readonly findByName: (name: string) => Effect.Effect<ReadonlyArray<GroupRecord>>
  /**
   * A page of one organization's groups ordered by name (case-insensitive; names are unique per
   * organization), along the index of `(organization_id, lower(name))`. `count` is the number
   * matching the search (without cursor and page); without a search it is kept (one row read).
   */
  readonly listPage: (
    filter: GroupPageFilter
  ) => Effect.Effect<{ readonly groups: ReadonlyArray<GroupRecord>; readonly count: number }>
  /** Groups ordered by name (case-insensitive), then id. */
  readonly list: (filter: GroupFilter) => Effect.Effect<ReadonlyArray<GroupRecord>>
  readonly update: (id: string, patch: GroupPatch) => Effect.Effect<Option.Option<GroupRecord>, UniqueViolation>
  /** Removes the group, its members and its AI budget. */
  readonly delete: (id: string) => Effect.Effect<boolean>
  /**
   * Adds those of `userIds` who are members of the group's organization and not yet of the
   * group; answers the ids actually added. `member_count` moves in the same transaction.
   */
  readonly addMembers: (
    group: GroupRef,
    userIds: ReadonlyArray<string>,
    at: Date
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Removes those of `userIds` who are members; answers the ids actually removed. */
  readonly removeMembers: (group: GroupRef, userIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** Ids of the groups the user was added to (not the Everyone groups, whose ids are their organizations' ids). */
  readonly groupIdsOf: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Which of `userIds` are members of the group. */
  readonly membersAmong: (group: GroupRef, userIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** Every live member (or only `onlyUserId`), ordered by user id. */
  readonly members: (group: GroupRef, onlyUserId?: string) => Effect.Effect<ReadonlyArray<UserRecord>>
  /**
   * A page of live members ordered by user id. `count` is the number matching the filter
   * (without cursor and page); without a filter it is the group's kept `member_count`.
   */
  readonly listMembers: (
    group: GroupRef,
    filter: GroupMemberFilter
  ) => Effect.Effect<{ readonly users: ReadonlyArray<UserRecord>; readonly count: number }>
  /** Sum of `quota_allowance` over the user's groups, Everyone groups of their organizations included. */
  readonly quotaAllowance: (userId: string) => Effect.Effect<number>
  /**
   * Sum of `quota_allowance` over the user's groups in one organization, its Everyone group
   * included when the user is a member; 0 for a user outside it.
   */
  readonly quotaAllowanceIn: (organizationId: string, userId: string) => Effect.Effect<number>
  /**
   * Whether any group of the organization, its Everyone group included, has a `quota_allowance`
   * above 0: from then on quotas apply there (docs/workspaces.md, Quotas).
   */
  readonly quotasOn: (organizationId: string) => Effect.Effect<boolean>
  readonly findBudget: (groupId: string) => Effect.Effect<Option.Option<GroupAiBudget>>
  /** Sets the budget (keeping `created_at` of an existing one); answers the stored budget. */
  readonly upsertBudget: (budget: GroupAiBudget) => Effect.Effect<GroupAiBudget>
  readonly deleteBudget: (groupId: string) => Effect.Effect<boolean>
}>() {}
