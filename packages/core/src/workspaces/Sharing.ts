/**
 * Sharing a workspace: its access list (users and groups of its organization with the role
 * `admin` or `use`), read, changed and cleared through `/workspaces/{workspace}/acl`, and the
 * `shared_with` list of the Workspace record. The roles are rules of the one evaluator
 * (`workspaceRoleActions`, `workspaceObject`); the deployment setting `disable_workspace_sharing`
 * refuses these routes and takes the lists out of authorization.
 */
import { Effect, Option, Schema } from "effect"
import { authorize, authorizeRead, authorizeVisible } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, Validation } from "../Errors.js"
import { Group, GroupRepo } from "../groups/Group.js"
import { Groups, toGroup } from "../groups/Groups.js"
import { isUuid } from "../Ids.js"
import { MemberRepo, OrganizationRepo } from "../organizations/Repositories.js"
import type { AuthzObject } from "../Rbac.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { MinimalUser } from "../users/User.js"
import { omitEmpty, putNonEmpty, wireMaker, type WireProps } from "../Wire.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import type { UpdateWorkspaceACL } from "./Requests.js"
import {
  type WorkspaceAcl,
  workspaceObject,
  type WorkspaceRecord,
  WorkspaceRepo,
  type WorkspaceRole,
  workspaceRoles
} from "./Workspace.js"

export const WorkspaceRoleSchema = Schema.Literal("admin", "use")

/** A user of a workspace's access list: the user (minimal form) and their role. */
export class WorkspaceUser extends Schema.Class<WorkspaceUser>("WorkspaceUser")({
  ...MinimalUser.fields,
  role: WorkspaceRoleSchema
}) {}

/** A group of a workspace's access list: the group and its role. */
export class WorkspaceGroup extends Schema.Class<WorkspaceGroup>("WorkspaceGroup")({
  ...Group.fields,
  role: WorkspaceRoleSchema
}) {}

/** A workspace's access list, as the described system names it (`users`, and `group` in the singular). */
export class WorkspaceACL extends Schema.Class<WorkspaceACL>("WorkspaceACL")({
  users: Schema.Array(WorkspaceUser),
  group: Schema.Array(WorkspaceGroup)
}) {}

/** One entry of a Workspace record's `shared_with`. */
export class SharedWorkspaceActor extends Schema.Class<SharedWorkspaceActor>("SharedWorkspaceActor")({
  actor_type: Schema.Literal("group", "user"),
  avatar_url: omitEmpty(Schema.String),
  id: Schema.UUID,
  name: Schema.String,
  roles: Schema.Array(WorkspaceRoleSchema)
}) {}

const makeSharedActor = wireMaker(SharedWorkspaceActor)

/** The `shared_with` of a workspace shared with no one. */
const noneShared: ReadonlyArray<SharedWorkspaceActor> = []

/** How audit entries name a workspace. */
const workspaceAuditResource = (w: Pick<WorkspaceRecord, "id" | "name" | "organization_id">) => ({
  type: "workspace",
  id: w.id,
  target: w.name,
  organizationId: w.organization_id
})

const ROLE_VALUES: ReadonlyArray<string> = [...workspaceRoles, ""]

/** The 403 of the sharing routes when the deployment turned sharing off. */
export const sharingDisabled = () =>
  new Forbidden({
    message: "Workspace sharing is disabled for this deployment.",
    detail: "The deployment setting disable_workspace_sharing is on."
  })

const apply = (acl: WorkspaceAcl, entries: ReadonlyArray<readonly [string, string]>): WorkspaceAcl => {
  const next: Record<string, WorkspaceRole> = { ...acl }
  for (const [rawId, role] of entries) {
    const id = rawId.toLowerCase()
    if (role === "") delete next[id]
    else next[id] = role as WorkspaceRole
  }
  return next
}

export class WorkspaceSharing extends Effect.Service<WorkspaceSharing>()("@workbay/core/WorkspaceSharing", {
  effect: Effect.gen(function*() {
    const workspaces = yield* WorkspaceRepo
    const userRepo = yield* UserRepo
    const groupRepo = yield* GroupRepo
    const members = yield* MemberRepo
    const orgRepo = yield* OrganizationRepo
    const groups = yield* Groups
    const settings = yield* Settings
    const tx = yield* Transactions
    const enabled = !settings.disableWorkspaceSharing

    /** How authorization names `w` under this deployment's settings: without its list when sharing is off. */
    const object = (
      w: Pick<WorkspaceRecord, "id" | "organization_id" | "owner_id" | "user_acl" | "group_acl">
    ): AuthzObject => workspaceObject(w, enabled)

    /**
     * Resolves `{workspace}` (an id). A deleted workspace, or one the caller may not read,
     * answers 404. For reads a token that does not cover reading it answers 403; for changes
     * the token is asked about the change itself, next.
     */
    const resolve = (ref: string, mode: "read" | "act") =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* workspaces.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.deleted) return yield* NotFound.resource("Workspace")
        const w = found.value
        yield* mode === "read" ? authorizeRead("Workspace", object(w)) : authorizeVisible("Workspace", object(w))
        return w
      })

    /** The group of an entry: with the members the caller may read, or none when the caller may not read the group. */
    const groupOf = (id: string) =>
      Effect.gen(function*() {
        const visible = yield* Effect.option(groups.get(id))
        if (Option.isSome(visible)) return Option.some(visible.value)
        return Option.map(yield* groupRepo.findById(id), (g) => toGroup(g, []))
      })

    /** GET /workspaces/{workspace}/acl: every user and group of the list with their role. */
    const getAcl = (ref: string) =>
      Effect.gen(function*() {
        const w = yield* resolve(ref, "read")
        if (!enabled) return yield* sharingDisabled()
        const users: Array<WorkspaceUser> = []
        for (const [id, role] of Object.entries(w.user_acl)) {
          const u = yield* userRepo.findById(id)
          if (Option.isNone(u) || u.value.deleted) continue
          const props: WireProps<typeof WorkspaceUser> = { id: u.value.id, username: u.value.username, role }
          putNonEmpty(props, "name", u.value.name)
          putNonEmpty(props, "avatar_url", u.value.avatar_url)
          users.push(new WorkspaceUser(props, true))
        }
        users.sort((a, b) => a.username.localeCompare(b.username))
        const groupList: Array<WorkspaceGroup> = []
        for (const [id, role] of Object.entries(w.group_acl)) {
          const g = yield* groupOf(id)
          if (Option.isSome(g)) groupList.push(new WorkspaceGroup({ ...g.value, role }, true))
        }
        groupList.sort((a, b) => a.name.localeCompare(b.name))
        return new WorkspaceACL({ users, group: groupList }, true)
      }).pipe(span("WorkspaceSharing.getAcl"))

    /** The problems of a PATCH body, one validation per bad entry. */
    const problemsOf = (
      w: WorkspaceRecord,
      userEntries: ReadonlyArray<[string, string]>,
      groupEntries: ReadonlyArray<[string, string]>
    ) =>
      Effect.gen(function*() {
        const problems: Array<Validation> = []
        const badRole = (field: string, id: string, role: string) =>
          new Validation({
            field,
            detail: `Role "${role}" of "${id}" is not a valid workspace role: use admin, use or "" (remove).`
          })
        const candidates = userEntries.filter(([id, role]) => role !== "" && isUuid(id)).map(([id]) => id.toLowerCase())
        const orgsOf = candidates.length === 0
          ? new Map<string, ReadonlyArray<string>>()
          : yield* members.ofUsers(candidates)
        for (const [id, role] of userEntries) {
          if (!ROLE_VALUES.includes(role)) problems.push(badRole("user_roles", id, role))
          // Removing needs no check: the user may be gone since the entry was made.
          else if (role === "") continue
          else if (!isUuid(id)) {
            problems.push(new Validation({ field: "user_roles", detail: `"${id}" is not a valid UUID.` }))
          } else if (id.toLowerCase() === w.owner_id) {
            problems.push(
              new Validation({
                field: "user_roles",
                detail: "The workspace's owner cannot be given a role on their own workspace."
              })
            )
          } else {
            const u = yield* userRepo.findById(id.toLowerCase())
            if (Option.isNone(u) || u.value.deleted) {
              problems.push(new Validation({ field: "user_roles", detail: `User with ID ${id} does not exist.` }))
            } else if (!(orgsOf.get(u.value.id) ?? []).includes(w.organization_id)) {
              problems.push(
                new Validation({
                  field: "user_roles",
                  detail: `User "${u.value.username}" is not a member of the workspace's organization.`
                })
              )
            }
          }
        }
        for (const [id, role] of groupEntries) {
          if (!ROLE_VALUES.includes(role)) problems.push(badRole("group_roles", id, role))
          else if (role === "") continue
          else if (!isUuid(id)) {
            problems.push(new Validation({ field: "group_roles", detail: `"${id}" is not a valid UUID.` }))
          } else {
            const g = yield* groupRepo.findById(id.toLowerCase())
            if (Option.isNone(g)) {
              problems.push(new Validation({ field: "group_roles", detail: `Group with ID ${id} does not exist.` }))
            } else if (g.value.organization_id !== w.organization_id) {
              problems.push(
                new Validation({
                  field: "group_roles",
                  detail: `Group "${g.value.name}" is not a group of the workspace's organization.`
                })
              )
            }
          }
        }
        return problems
      })

    /** Stores new lists for `w` (read again inside the transaction) and audits the change. */
    const store = (
      w: WorkspaceRecord,
      change: (current: WorkspaceRecord) => Pick<WorkspaceRecord, "user_acl" | "group_acl">
    ) =>
      Effect.gen(function*() {
        const result = yield* tx.atomic(Effect.gen(function*() {
          const current = yield* workspaces.findById(w.id)
          if (Option.isNone(current) || current.value.deleted) return Option.none()
          const updated = yield* workspaces.update(w.id, change(current.value)).pipe(
            // Only the lists change: no name clash can come from it.
            Effect.catchTag("UniqueViolation", (e) => Effect.die(e))
          )
          return Option.map(updated, (u) => ({ before: current.value, after: u }))
        }))
        if (Option.isNone(result)) return yield* NotFound.resource("Workspace")
        const { after, before } = result.value
        yield* auditResource(
          workspaceAuditResource(w),
          { user_acl: before.user_acl, group_acl: before.group_acl },
          { user_acl: after.user_acl, group_acl: after.group_acl }
        )
        yield* publishWorkspaceChange(w.id)
      })

    /**
     * The organization's `shareable_workspace_owners` (PATCH .../settings/workspace-sharing):
     * `none` refuses every change of a list, `service_accounts` those of workspaces not owned by
     * a service account.
     */
    const organizationAllows = (w: WorkspaceRecord) =>
      Effect.gen(function*() {
        const owners = Option.getOrElse(
          yield* orgRepo.findWorkspaceSharing(w.organization_id),
          () => "everyone" as const
        )
        if (owners === "everyone") return
        if (owners === "service_accounts") {
          const owner = yield* userRepo.findById(w.owner_id)
          if (Option.isSome(owner) && owner.value.is_service_account) return
          return yield* new Forbidden({
            message: "Workspace sharing is limited to service accounts' workspaces in this organization.",
            detail: "The organization's shareable_workspace_owners is service_accounts."
          })
        }
        return yield* new Forbidden({
          message: "Workspace sharing is disabled for this organization.",
          detail: "The organization's shareable_workspace_owners is none."
        })
      })

    /** The checks every change of the list makes: visible, sharing on, and `share` on the workspace. */
    const forChange = (ref: string) =>
      Effect.gen(function*() {
        const w = yield* resolve(ref, "act")
        if (!enabled) return yield* sharingDisabled()
        yield* authorize("share", object(w))
        yield* organizationAllows(w)
        return w
      })

    /** PATCH /workspaces/{workspace}/acl: sets (or with `""` removes) entries; each bad entry is one validation. */
    const updateAcl = (ref: string, input: typeof UpdateWorkspaceACL.Type) =>
      Effect.gen(function*() {
        const w = yield* forChange(ref)
        const userEntries = Object.entries(input.user_roles ?? {})
        const groupEntries = Object.entries(input.group_roles ?? {})
        const problems = yield* problemsOf(w, userEntries, groupEntries)
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid request to update workspace ACL.", validations: problems })
        }
        yield* store(w, (current) => ({
          user_acl: apply(current.user_acl, userEntries),
          group_acl: apply(current.group_acl, groupEntries)
        }))
      }).pipe(span("WorkspaceSharing.updateAcl"))

    /** DELETE /workspaces/{workspace}/acl: clears every user and group entry. */
    const deleteAcl = (ref: string) =>
      Effect.gen(function*() {
        const w = yield* forChange(ref)
        yield* store(w, () => ({ user_acl: {}, group_acl: {} }))
      }).pipe(span("WorkspaceSharing.deleteAcl"))

    /**
     * The `shared_with` lists of Workspace records, in the order of `ws`: users, then groups,
     * each with its role; the users and the groups of all of them read once. Entries of users
     * or groups that no longer exist are left out; with sharing off the lists grant nothing and
     * are empty.
     */
    const sharedWithAll = (ws: ReadonlyArray<Pick<WorkspaceRecord, "user_acl" | "group_acl">>) =>
      Effect.gen(function*() {
        if (!enabled) return ws.map(() => noneShared)
        const userIds = new Set<string>()
        const groupIds = new Set<string>()
        for (const w of ws) {
          for (const id in w.user_acl) userIds.add(id)
          for (const id in w.group_acl) groupIds.add(id)
        }
        // No entries (most lists): nothing to read.
        if (userIds.size === 0 && groupIds.size === 0) return ws.map(() => noneShared)
        const users = new Map((userIds.size === 0 ? [] : yield* userRepo.findByIds([...userIds])).map((u) => [u.id, u]))
        const groups = new Map(
          (groupIds.size === 0 ? [] : yield* groupRepo.findByIds([...groupIds])).map((g) => [g.id, g])
        )
        return ws.map((w) => {
          const out: Array<SharedWorkspaceActor> = []
          for (const [id, role] of Object.entries(w.user_acl)) {
            const u = users.get(id)
            if (u === undefined || u.deleted) continue
            const props: WireProps<typeof SharedWorkspaceActor> = {
              actor_type: "user",
              id,
              name: u.name,
              roles: [role]
            }
            putNonEmpty(props, "avatar_url", u.avatar_url)
            out.push(makeSharedActor(props))
          }
          for (const [id, role] of Object.entries(w.group_acl)) {
            const g = groups.get(id)
            if (g === undefined) continue
            const props: WireProps<typeof SharedWorkspaceActor> = {
              actor_type: "group",
              id,
              name: g.name,
              roles: [role]
            }
            putNonEmpty(props, "avatar_url", g.avatar_url)
            out.push(makeSharedActor(props))
          }
          return out as ReadonlyArray<SharedWorkspaceActor>
        })
      }).pipe(span("WorkspaceSharing.sharedWith"))

    /**
     * The `shared_with` list of a workspace: its access list's users and groups with their role.
     * Entries of users or groups that no longer exist are left out; with sharing off the list
     * grants nothing and is empty.
     */
    const sharedWith = (w: Pick<WorkspaceRecord, "user_acl" | "group_acl">) =>
      Effect.map(sharedWithAll([w]), (all) => all[0]!)

    return { object, resolve, getAcl, updateAcl, deleteAcl, sharedWith, sharedWithAll, enabled } as const
  }),
  dependencies: [Groups.Default]
}) {}
