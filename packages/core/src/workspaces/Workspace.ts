/**
 * Workspaces: the name's rule, the stored record, its sharing list, how authorization names it,
 * and the repository port. Rules live in the workspaces services; the wire record beside them.
 */
import { Context, Effect, Option, Schema } from "effect"
import { isUuid } from "../Ids.js"
import { type Action, type AuthzObject, objectAcl } from "../Rbac.js"
import type { NewRecord, UniqueViolation } from "../Repositories.js"
import { Settings } from "../Settings.js"
import type { AppStatusRecord, WorkspaceBuildSummary, WorkspaceStatus } from "./WorkspaceBuild.js"

/** A workspace name, as the described system's rule: letters and digits with single hyphens between, at most 32. */
export const WorkspaceName = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Name is required." }),
  Schema.maxLength(32, { message: () => "Must be at most 32 characters." }),
  Schema.pattern(/^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/, {
    message: () => "Must be alphanumeric with hyphens (no leading, trailing or double hyphens)."
  })
)

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
  /** The AI task the workspace runs (absent or null: none). */
  readonly task_id?: string | null | undefined
  /** The newest status an agent of the workspace reported for one of its apps (absent or null: none). */
  readonly latest_app_status?: AppStatusRecord | null | undefined
}

/** What a new workspace is made of: who, where and its name; every other field may be given or takes its default. */
export type NewWorkspace = NewRecord<WorkspaceRecord, "id" | "owner_id" | "organization_id" | "template_id" | "name">

/**
 * A new workspace's stored record: the one constructor every writer uses (the service, prebuilds,
 * the test factories), so a new field gets its default here once. Made at `at`, used at `at`, not
 * deleted, dormant or favorite, no schedule, no time to live, updates `never`, shared with nobody.
 */
export const newWorkspace = ({ at, ...given }: NewWorkspace): WorkspaceRecord => ({
  created_at: at,
  updated_at: at,
  deleted: false,
  autostart_schedule: "",
  ttl_ms: null,
  last_used_at: at,
  dormant_at: null,
  deleting_at: null,
  next_start_at: null,
  automatic_updates: "never",
  favorite: false,
  user_acl: {},
  group_acl: {},
  ...given
})

/** What may change on a workspace (fields left `undefined` stay). */
export type WorkspacePatch = Partial<Omit<WorkspaceRecord, "id" | "created_at" | "owner_id" | "organization_id">>

export class WorkspaceRepo extends Context.Tag("@workbay/core/WorkspaceRepo")<WorkspaceRepo, {
  /** Fails with `UniqueViolation` when the owner has an undeleted workspace of that name. */
  readonly insert: (workspace: WorkspaceRecord) => Effect.Effect<void, UniqueViolation>
  /** The workspace, deleted or not. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<WorkspaceRecord>>
  /** The workspaces of these ids, deleted or not, in no particular order (one read along the primary key). */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<WorkspaceRecord>>
  /** The owners of the template's undeleted workspaces, each once. */
  readonly ownerIdsByTemplate: (templateId: string) => Effect.Effect<ReadonlyArray<string>>
  /** The owner's workspace of that name (case-insensitive): the undeleted one, else (with `includeDeleted`) the latest deleted one. */
  readonly findByOwnerAndName: (
    ownerId: string,
    name: string,
    includeDeleted: boolean
  ) => Effect.Effect<Option.Option<WorkspaceRecord>>
  /** None when there is no workspace `id`. */
  readonly update: (id: string, patch: WorkspacePatch) => Effect.Effect<Option.Option<WorkspaceRecord>, UniqueViolation>
  /**
   * Claims a prebuilt workspace: moves the undeleted workspace `id` from `fromOwnerId` to
   * `ownerId`, renamed `name`, with `patch`, in one guarded statement (None when it is deleted or
   * no longer `fromOwnerId`'s: another claim won). Fails with `UniqueViolation` when the new owner
   * has an undeleted workspace of that name.
   */
  readonly claim: (
    id: string,
    fromOwnerId: string,
    ownerId: string,
    name: string,
    patch: WorkspacePatch
  ) => Effect.Effect<Option.Option<WorkspaceRecord>, UniqueViolation>
  /**
   * A page of workspaces matching `filter` (favorites of the requester first), how many match in
   * all, and the latest build of each workspace of the page that has one (read with the page).
   */
  readonly list: (filter: WorkspaceFilter) => Effect.Effect<{
    readonly workspaces: ReadonlyArray<WorkspaceRecord>
    readonly count: number
    readonly latestBuilds: ReadonlyArray<WorkspaceBuildSummary>
  }>
  /**
   * The sum of `daily_cost` of the latest builds of the owner's undeleted workspaces in the
   * organization whose latest build is not a stop or a delete (the credits they consume), but
   * `excludeWorkspaceId` (a workspace being rebuilt counts with its new cost).
   */
  readonly creditsConsumed: (
    organizationId: string,
    ownerId: string,
    excludeWorkspaceId?: string
  ) => Effect.Effect<number>
  /**
   * Sets `last_used_at` of the template's undeleted workspaces to `at` (a template change with
   * `update_workspace_last_used_at`).
   */
  readonly touchByTemplate: (templateId: string, at: Date) => Effect.Effect<void>
  /**
   * Dates again the deletion of the template's undeleted dormant workspaces: `dormant_at` becomes
   * `dormantAt` when given (a template change with `update_workspace_dormant_at`), and
   * `deleting_at` = `dormant_at` + `autodeleteMs` (none when 0). Answers their ids.
   */
  readonly redateDormantByTemplate: (
    templateId: string,
    autodeleteMs: number,
    dormantAt: Date | null
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Undeleted workspaces by the status of their latest build (for deployment stats). */
  readonly countByStatus: () => Effect.Effect<
    ReadonlyArray<{ readonly status: WorkspaceStatus; readonly count: number }>
  >
}>() {}

/** Who may be listed: everything, or workspaces in some organizations, owned by the user, or shared with them. */
export interface WorkspaceVisibility {
  /** True when every workspace is visible (no other field applies). */
  readonly all: boolean
  /** Organizations whose workspaces are all visible. */
  readonly organizationIds: ReadonlyArray<string>
  /**
   * The requester: their own workspaces, and (`shared`) those whose sharing list names them or
   * `groupIds`, only in the organizations they are a member of (`memberOrganizationIds`), as the
   * evaluator grants them.
   */
  readonly userId: string
  readonly groupIds: ReadonlyArray<string>
  readonly memberOrganizationIds?: ReadonlyArray<string> | undefined
  /** Whether sharing lists grant anything (the deployment's `disable_workspace_sharing` turns them off). */
  readonly shared?: boolean | undefined
}

/** The filters of a workspace listing (the `q` keys, resolved to ids). Absent filters match every workspace. */
export interface WorkspaceFilter {
  readonly visibility: WorkspaceVisibility
  /** Whose favorites come first. */
  readonly requesterId: string
  readonly ownerIds?: ReadonlyArray<string> | undefined
  readonly organizationIds?: ReadonlyArray<string> | undefined
  readonly templateIds?: ReadonlyArray<string> | undefined
  /** Case-insensitive substring of the name. */
  readonly name?: string | undefined
  readonly statuses?: ReadonlyArray<WorkspaceStatus> | undefined
  readonly outdated?: boolean | undefined
  readonly dormant?: boolean | undefined
  /** Workspaces whose latest build has an agent in this status (`connecting`, `connected`, `disconnected`, `timeout`). */
  readonly hasAgent?: string | undefined
  readonly lastUsedBefore?: Date | undefined
  readonly lastUsedAfter?: Date | undefined
  readonly hasAiTask?: boolean | undefined
  readonly deleted: boolean
  /** Only these workspace ids. */
  readonly ids?: ReadonlyArray<string> | undefined
  readonly limit: number
  readonly offset: number
}

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
  ...(sharing ? { acl: objectAcl(w.user_acl, w.group_acl, workspaceRoleActions) } : {})
})

/**
 * POST /authcheck on one workspace answers what its routes do: in the workspace's organization,
 * for its owner, with its sharing list (left out when the deployment turned sharing off). An
 * unknown (or deleted) workspace is checked as named (core AuthCheck.ts).
 */
export const workspaceAcl = (object: AuthzObject): Effect.Effect<AuthzObject, never, WorkspaceRepo | Settings> =>
  object.type !== "workspace" || object.id === undefined || !isUuid(object.id)
    ? Effect.succeed(object)
    : Effect.gen(function*() {
      const settings = yield* Settings
      const found = yield* Effect.flatMap(WorkspaceRepo, (workspaces) => workspaces.findById(object.id!))
      return Option.isNone(found) || found.value.deleted
        ? object
        : { ...object, ...workspaceObject(found.value, !settings.disableWorkspaceSharing) }
    })
export { PREBUILDS_USER_ID } from "../Identity.js"
