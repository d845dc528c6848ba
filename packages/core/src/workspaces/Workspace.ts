/**
 * Workspaces: the stored record, its sharing list, how authorization names it, and the
 * repository port. Rules live in the workspaces services; the wire record beside them.
 */
import { Context, type Effect, type Option } from "effect"
import type { Action, AuthzObject } from "../Rbac.js"
import type { UniqueViolation } from "../Repositories.js"

export type AutomaticUpdates = "always" | "never"
export const automaticUpdatesValues: ReadonlyArray<AutomaticUpdates> = ["always", "never"]

/** Roles a workspace's sharing list grants (spec: `admin`, `use`). */
export type WorkspaceRole = "admin" | "use"
export const workspaceRoles: ReadonlyArray<WorkspaceRole> = ["admin", "use"]

/** A workspace's sharing list: user ids and group ids to their role. */
export type WorkspaceAcl = Readonly<Record<string, WorkspaceRole>>

/** Actions each sharing role grants: `use` reads, starts, stops and connects; `admin` also updates and shares. */
export const workspaceRoleActions: Readonly<Record<WorkspaceRole, ReadonlyArray<Action>>> = {
  use: ["read", "start", "stop", "ssh", "application_connect"],
  admin: ["read", "start", "stop", "ssh", "application_connect", "update", "share"]
}

/** A stored workspace. */
export interface WorkspaceRecord {
  readonly id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly owner_id: string
  readonly organization_id: string
  readonly template_id: string
  readonly deleted: boolean
  readonly name: string
  /** A cron schedule (`CRON_TZ=... m h * * dow`); `""` when none. */
  readonly autostart_schedule: string
  /** `null` when the workspace has no time to live (no autostop). */
  readonly ttl_ms: number | null
  readonly last_used_at: Date
  readonly dormant_at: Date | null
  readonly deleting_at: Date | null
  readonly next_start_at: Date | null
  readonly automatic_updates: AutomaticUpdates
  readonly favorite: boolean
  readonly user_acl: WorkspaceAcl
  readonly group_acl: WorkspaceAcl
}

/** What may change on a workspace (fields left `undefined` stay). */
export type WorkspacePatch = Partial<Omit<WorkspaceRecord, "id" | "created_at" | "owner_id" | "organization_id">>

export class WorkspaceRepo extends Context.Tag("@workbay/core/WorkspaceRepo")<WorkspaceRepo, {
  /** Fails with `UniqueViolation` when the owner has an undeleted workspace of that name. */
  readonly insert: (workspace: WorkspaceRecord) => Effect.Effect<void, UniqueViolation>
  /** The workspace, deleted or not. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<WorkspaceRecord>>
  /** The owner's workspace of that name (case-insensitive): the undeleted one, else (with `includeDeleted`) the latest deleted one. */
  readonly findByOwnerAndName: (ownerId: string, name: string, includeDeleted: boolean) => Effect.Effect<Option.Option<WorkspaceRecord>>
  /** None when there is no workspace `id`. */
  readonly update: (id: string, patch: WorkspacePatch) => Effect.Effect<Option.Option<WorkspaceRecord>, UniqueViolation>
}>() {}

const aclActions = (acl: WorkspaceAcl): Record<string, ReadonlyArray<Action>> =>
  Object.fromEntries(Object.entries(acl).map(([id, role]) => [id, workspaceRoleActions[role] ?? []]))

/**
 * How authorization names a workspace: its organization, its owner and its sharing list. With
 * `sharing` false (the deployment's `disable_workspace_sharing`) the list is left out, so it
 * grants nothing (`WorkspaceSharing.object` passes the setting).
 */
export const workspaceObject = (
  w: Pick<WorkspaceRecord, "id" | "organization_id" | "owner_id" | "user_acl" | "group_acl">,
  sharing = true
): AuthzObject => ({
  type: "workspace",
  id: w.id,
  orgId: w.organization_id,
  ownerId: w.owner_id,
  ...(sharing ? { acl: { users: aclActions(w.user_acl), groups: aclActions(w.group_acl) } } : {})
})
