/** The Organizations service: organizations and their members. */
import { Clock, Effect, Option } from "effect"
import { allowed, authorize, authorizeRead, CurrentActor, decision, rolesBeyondActor } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Conflict, NotFound, ResponseBody, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import {
  type Action,
  actions,
  isBuiltInRole,
  isOrganizationRole,
  organizationRoles,
  type ResourceKind,
  resourceKinds,
  roles as roleDefinitions
} from "../Rbac.js"
import { Transactions } from "../Repositories.js"
import type { SearchPageQuery } from "../Requests.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { type MembershipRecord, UserRepo } from "../users/Repositories.js"
import { RolePermission } from "../users/User.js"
import { toSlimRole, type UserRecord } from "../users/User.js"
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  roleChanges,
  rolesRefused,
  toAssignableRole,
  unknownRoles,
  Users
} from "../users/Users.js"
import { putNonEmpty, type WireProps } from "../Wire.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { type CustomRolePermission, type CustomRoleRecord, CustomRoleRepo, definitionOf, Role } from "./CustomRole.js"
import { memberFilter } from "./MemberQuery.js"
import {
  Organization,
  OrganizationMember,
  type OrganizationRecord,
  orgObject,
  PaginatedMembers,
  type ShareableWorkspaceOwners,
  WorkspaceSharingSettings
} from "./Organization.js"
import { MemberRepo, OrganizationRepo } from "./Repositories.js"
import type {
  CreateOrganizationRequest,
  CustomRoleRequest,
  ListMembersQuery,
  PermissionRequest,
  UpdateOrganizationRequest,
  UpdateWorkspaceSharingSettingsRequest
} from "./Requests.js"

/** `{organization}` may be this word (or the nil UUID) to mean the default organization, as in Coder. */
export const DEFAULT_ORGANIZATION_ALIAS = "default"
const NIL_UUID = "00000000-0000-0000-0000-000000000000"

const reservedName = (name: string) =>
  BadRequest.field("name", `Organization name "${name}" is reserved.`, "Validation failed.")

const nameConflict = (name: string) =>
  new Conflict({
    message: `Organization named "${name}" already exists.`,
    validations: [new Validation({ field: "name", detail: "This name is in use." })]
  })

const slimRole = (name: string, organizationId: string, custom?: ReadonlyMap<string, string>) =>
  toSlimRole(name, roleDefinitions.get(name)?.display_name ?? custom?.get(name) ?? name, organizationId)

/**
 * A member as answered; `custom` holds the display names of the organization's custom roles the
 * member holds (a role that no longer exists shows its name).
 */
export const toMember = (m: MembershipRecord, u: UserRecord, custom?: ReadonlyMap<string, string>) => {
  const props: WireProps<typeof OrganizationMember> = {
    organization_id: m.organization_id,
    user_id: u.id,
    username: u.username,
    email: u.email,
    global_roles: u.rbac_roles.map((r) => slimRole(r, "")),
    roles: m.roles.map((r) => slimRole(r, m.organization_id, custom)),
    created_at: m.created_at,
    updated_at: m.updated_at
  }
  putNonEmpty(props, "name", u.name)
  putNonEmpty(props, "avatar_url", u.avatar_url)
  return new OrganizationMember(props, true)
}

/** How audit entries name an organization and a membership. */
export const orgResource = (o: OrganizationRecord) => ({
  type: "organization",
  id: o.id,
  target: o.name,
  organizationId: o.id,
  icon: o.icon
})
export const memberResource = (o: OrganizationRecord, u: UserRecord) => ({
  type: "organization_member",
  id: u.id,
  target: u.username,
  organizationId: o.id
})

/** How authorization names an organization: it belongs to itself. */
export { orgObject }

const ROLE_NAME = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/

/** The described system's name rule for roles (codersdk.NameValid); undefined when valid. */
export const roleNameProblem = (name: string): string | undefined =>
  name.length > 32 ?
    "must be <= 32 characters"
    : name.length < 1 ?
    "must be >= 1 character"
    : ROLE_NAME.test(name)
    ? undefined
    : "must be alphanumeric with hyphens"

/** What is wrong with one permission of a custom role, as the described system checks it; undefined when valid. */
const permissionProblem = (p: typeof PermissionRequest.Type): string | undefined => {
  if (p.negate === true) {
    return `invalid permission for action="${p.action}" type="${p.resource_type}", no negative permissions`
  }
  if (p.action === "*" || p.resource_type === "*") {
    return `invalid permission for action="${p.action}" type="${p.resource_type}", no wildcard symbols`
  }
  if (!(resourceKinds as ReadonlyArray<string>).includes(p.resource_type)) {
    return `unknown resource type "${p.resource_type}"`
  }
  if (!(actions as ReadonlyArray<string>).includes(p.action)) return `unknown action "${p.action}"`
  return undefined
}

const roleNotFound = (name: string) =>
  new NotFound({ message: `No custom role with the name ${name} found`, detail: "no role found" })

/** How audit entries name a custom role (resource type `custom_role`, as the described system). */
const customRoleResource = (r: CustomRoleRecord) => ({
  type: "custom_role",
  id: r.id,
  target: r.name,
  organizationId: r.organization_id
})

const roleAudit = (r: CustomRoleRecord) => ({
  name: r.name,
  display_name: r.display_name,
  org_permissions: r.organization_permissions.map((p) => `${p.resource_type}:${p.action}`)
})

/** The wire form of a custom role (the described system's Role). */
export const toRole = (r: CustomRoleRecord): Role =>
  new Role({
    name: r.name,
    organization_id: r.organization_id,
    display_name: r.display_name,
    site_permissions: [],
    organization_permissions: r.organization_permissions.map((p) => new RolePermission(p, true)),
    user_permissions: []
  }, true)

export class Organizations extends Effect.Service<Organizations>()("@workbay/core/Organizations", {
  effect: Effect.gen(function*() {
    const orgs = yield* OrganizationRepo
    const members = yield* MemberRepo
    const userRepo = yield* UserRepo
    const settings = yield* Settings
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const users = yield* Users
    const customRoles = yield* CustomRoleRepo
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Resolves `{organization}`: an id, a name (case-insensitive), or `default`.
     * An organization the caller's roles may not read answers exactly like a missing one (404).
     * The token's scopes and allow-list are checked on the route's own action, not here.
     */
    const resolve = (ref: string) =>
      Effect.gen(function*() {
        // Made only when answered: an error validates its fields and captures a stack (about 20 us).
        const notFound = () =>
          new NotFound({
            message: `Organization "${ref}" not found.`,
            detail: "Provide either the organization id or name."
          })
        const found = ref === DEFAULT_ORGANIZATION_ALIAS || ref === NIL_UUID
          ? yield* orgs.findDefault
          : isUuid(ref)
          ? yield* orgs.findById(ref.toLowerCase())
          : yield* orgs.findByName(ref)
        if (Option.isNone(found)) return yield* notFound()
        const org = found.value
        if ((yield* decision("read", orgObject(org))) === "roles") return yield* notFound()
        return org
      })

    const list = Effect.gen(function*() {
      const all = yield* orgs.list
      const visible: Array<OrganizationRecord> = []
      for (const org of all) {
        if (yield* allowed("read", orgObject(org))) visible.push(org)
      }
      return visible.map((o) => new Organization(o))
    }).pipe(span("Organizations.list"))

    const create = (input: typeof CreateOrganizationRequest.Type) =>
      Effect.gen(function*() {
        yield* authorize("create", { type: "organization" })
        if (input.name.toLowerCase() === DEFAULT_ORGANIZATION_ALIAS) return yield* reservedName(input.name)
        const actor = yield* CurrentActor
        const at = yield* now
        const org = new Organization({
          id: yield* ids.uuid,
          name: input.name,
          display_name: input.display_name && input.display_name !== "" ? input.display_name : input.name,
          description: input.description ?? "",
          icon: input.icon ?? "",
          is_default: false,
          created_at: at,
          updated_at: at
        })
        yield* tx.atomic(Effect.gen(function*() {
          yield* orgs.insert(org).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(nameConflict(input.name))))
          // The creator becomes a member so the new organization is usable at once.
          yield* members.insert({
            organization_id: org.id,
            user_id: actor.user.id,
            roles: [],
            created_at: at,
            updated_at: at
          })
            .pipe(Effect.orDie)
        }))
        yield* auditResource(orgResource(org), undefined, org)
        return org
      }).pipe(span("Organizations.create"))

    /** Empty `name` and `display_name` leave them unchanged (Coder's rule); `description` and `icon` may be cleared. */
    const update = (ref: string, input: typeof UpdateOrganizationRequest.Type) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorize("update", orgObject(org))
        const name = input.name === undefined || input.name === "" ? undefined : input.name
        const displayName = input.display_name === undefined || input.display_name === ""
          ? undefined
          : input.display_name
        if (name !== undefined && name !== org.name) {
          if (org.is_default) return yield* BadRequest.field("name", "The default organization cannot be renamed.")
          if (name.toLowerCase() === DEFAULT_ORGANIZATION_ALIAS) return yield* reservedName(name)
        }
        const patch = {
          ...(name !== undefined ? { name } : {}),
          ...(displayName !== undefined ? { display_name: displayName } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.icon !== undefined ? { icon: input.icon } : {}),
          updated_at: yield* now
        }
        const updated = yield* orgs.update(org.id, patch).pipe(
          Effect.catchTag("UniqueViolation", () => Effect.fail(nameConflict(name ?? org.name)))
        )
        // Gone between the lookup and the write: deleted concurrently.
        if (Option.isNone(updated)) return yield* NotFound.resource("Organization")
        yield* auditResource(orgResource(updated.value), org, updated.value)
        return new Organization(updated.value)
      }).pipe(span("Organizations.update"))

    const remove = (ref: string) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorize("delete", orgObject(org))
        if (org.is_default) return yield* new BadRequest({ message: "Default organization cannot be deleted." })
        yield* orgs.delete(org.id)
        yield* auditResource(orgResource(org), org)
        return new ResponseBody({ message: "Organization deleted." }, true)
      }).pipe(span("Organizations.delete"))

    /** Display names of the custom roles `memberships` of `orgId` hold: one read, none without custom roles. */
    const customDisplayNames = (orgId: string, memberships: ReadonlyArray<MembershipRecord>) => {
      const names = new Set<string>()
      for (const m of memberships) for (const r of m.roles) if (!isBuiltInRole(r)) names.add(r)
      if (names.size === 0) return Effect.succeed(undefined)
      return Effect.map(
        customRoles.findMany([...names].map((name) => ({ organizationId: orgId, name }))),
        (found): ReadonlyMap<string, string> => new Map(found.map((r) => [r.name, r.display_name]))
      )
    }

    const listMembers = (ref: string, page?: typeof ListMembersQuery.Type) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorizeRead("Organization", { type: "organization_member", orgId: org.id })
        const rows = yield* members.list(org.id, {
          limit: Math.min(page?.limit && page.limit > 0 ? page.limit : MAX_PAGE_SIZE, MAX_PAGE_SIZE),
          offset: page?.offset ?? 0
        })
        const custom = yield* customDisplayNames(org.id, rows.map((r) => r.member))
        return rows.map((r) => toMember(r.member, r.user, custom))
      }).pipe(span("Organizations.listMembers"))

    /**
     * GET /organizations/{organization}/paginated-members: a page of members by user id (the
     * membership key, so a page costs the same at any size) and the count of those matching `q`
     * (the user search terms of `GET /groups/{group}/members`). `limit` 0 or absent is the
     * default page.
     */
    const paginatedMembers = (ref: string, input: typeof SearchPageQuery.Type) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorizeRead("Organization", { type: "organization_member", orgId: org.id })
        const filter = yield* memberFilter(userRepo, input)
        const page = yield* members.page(org.id, filter)
        const custom = yield* customDisplayNames(org.id, page.members.map((r) => r.member))
        return new PaginatedMembers({
          members: page.members.map((r) => toMember(r.member, r.user, custom)),
          count: page.count
        }, true)
      }).pipe(span("Organizations.paginatedMembers"))

    const sharingSettings = (owners: ShareableWorkspaceOwners) => {
      const globally = settings.disableWorkspaceSharing
      const effective = globally ? "none" : owners
      return new WorkspaceSharingSettings({
        sharing_globally_disabled: globally,
        sharing_disabled: effective === "none",
        shareable_workspace_owners: effective
      }, true)
    }

    /**
     * GET /organizations/{organization}/settings/workspace-sharing: whose workspaces may be shared
     * in the organization (`none` while the deployment turned sharing off). Whoever may read the
     * organization may read it.
     */
    const getWorkspaceSharing = (ref: string) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorizeRead("Organization", orgObject(org))
        const owners = yield* orgs.findWorkspaceSharing(org.id)
        if (Option.isNone(owners)) return yield* NotFound.resource("Organization")
        return sharingSettings(owners.value)
      }).pipe(span("Organizations.getWorkspaceSharing"))

    /**
     * PATCH /organizations/{organization}/settings/workspace-sharing: `update` on the
     * organization. A mode that narrows sharing clears the lists it no longer allows, as the
     * described system does, so no entry keeps granting; the route then refuses new ones.
     */
    const setWorkspaceSharing = (ref: string, input: typeof UpdateWorkspaceSharingSettingsRequest.Type) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorize("update", orgObject(org))
        const owners: ShareableWorkspaceOwners =
          input.shareable_workspace_owners !== undefined && input.shareable_workspace_owners !== ""
            ? input.shareable_workspace_owners
            : input.sharing_disabled === true
            ? "none"
            : "everyone"
        const before = yield* orgs.findWorkspaceSharing(org.id)
        if (Option.isNone(before)) return yield* NotFound.resource("Organization")
        const cleared = yield* orgs.setWorkspaceSharing(org.id, owners, yield* now)
        if (Option.isNone(cleared)) return yield* NotFound.resource("Organization")
        for (const id of cleared.value) yield* publishWorkspaceChange(id)
        yield* auditResource(orgResource(org), { shareable_workspace_owners: before.value }, {
          shareable_workspace_owners: owners
        })
        return sharingSettings(owners)
      }).pipe(span("Organizations.setWorkspaceSharing"))

    const getMember = (ref: string, userRef: string) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        const user = yield* users.resolveVisible(userRef)
        yield* authorizeRead("Organization member", { type: "organization_member", orgId: org.id, ownerId: user.id })
        const m = yield* members.find(org.id, user.id)
        if (Option.isNone(m)) return yield* NotFound.resource("Organization member")
        return toMember(m.value, user, yield* customDisplayNames(org.id, [m.value]))
      })

    const addMember = (ref: string, userRef: string) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        const user = yield* users.resolveVisible(userRef)
        yield* authorize("create", { type: "organization_member", orgId: org.id })
        const at = yield* now
        const m: MembershipRecord = {
          organization_id: org.id,
          user_id: user.id,
          roles: [],
          created_at: at,
          updated_at: at
        }
        yield* members.insert(m).pipe(
          Effect.catchTag("UniqueViolation", () =>
            Effect.fail(new Conflict({ message: `User "${user.username}" is already a member of this organization.` })))
        )
        yield* auditResource(memberResource(org, user), undefined, m)
        return toMember(m, user)
      }).pipe(span("Organizations.addMember"))

    const removeMember = (ref: string, userRef: string) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        const user = yield* users.resolveVisible(userRef)
        yield* authorize("delete", { type: "organization_member", orgId: org.id })
        const membership = yield* members.find(org.id, user.id)
        if (Option.isNone(membership)) return yield* NotFound.resource("Organization member")
        if (org.is_default) {
          return yield* new BadRequest({ message: "Users cannot be removed from the default organization." })
        }
        const actor = yield* CurrentActor
        if (user.id === actor.user.id) {
          return yield* new BadRequest({ message: "You cannot remove yourself from an organization." })
        }
        if (!(yield* members.delete(org.id, user.id))) return yield* NotFound.resource("Organization member")
        yield* auditResource(memberResource(org, user), membership.value)
      }).pipe(span("Organizations.removeMember"))

    /**
     * PUT /organizations/{organization}/members/{user}/roles: replaces the member's explicit
     * organization roles (`organization-member` is implicit and ignored). The user must be a
     * member (else 404); the caller needs `assign` (and `unassign` to take roles away) on
     * `assign_org_role` in the organization, may only add or remove roles they could assign
     * there, and cannot change their own.
     */
    const setMemberRoles = (ref: string, userRef: string, wanted: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        const user = yield* users.resolveVisible(userRef)
        const membership = yield* members.find(org.id, user.id)
        if (Option.isNone(membership)) return yield* NotFound.resource("Organization member")
        const actor = yield* CurrentActor
        if (user.id === actor.user.id) {
          return yield* new BadRequest({ message: "You cannot change your own organization roles." })
        }
        yield* authorize("assign", { type: "assign_org_role", orgId: org.id })
        const next = [...new Set(wanted)].filter((role) => role !== "organization-member")
        // Names that are not built in must be custom roles of this organization (one read).
        const custom = next.filter((role) => !isBuiltInRole(role))
        const before = membership.value.roles
        const customNames = new Set(
          (yield* customRoles.findMany([...new Set([...custom, ...before.filter((r) => !isBuiltInRole(r))])]
            .map((name) => ({ organizationId: org.id, name })))).map((r) => r.name)
        )
        const unknown = next.filter((role) => !isOrganizationRole(role) && !customNames.has(role))
        if (unknown.length > 0) return yield* unknownRoles(unknown, "organization")
        const { added, removed } = roleChanges(before, next)
        if (removed.length > 0) yield* authorize("unassign", { type: "assign_org_role", orgId: org.id })
        const deniedAdd = yield* rolesBeyondActor(added, org.id)
        // A stale name (a role that no longer exists) may be removed by whoever may unassign.
        const deniedRemove = yield* rolesBeyondActor(
          removed.filter((r) => roleDefinitions.has(r) || customNames.has(r)),
          org.id
        )
        if (deniedAdd.length > 0 || deniedRemove.length > 0) return yield* rolesRefused(deniedAdd, deniedRemove)
        const updated = added.length === 0 && removed.length === 0
          ? membership
          : yield* members.updateRoles(org.id, user.id, next, yield* now)
        // Removed concurrently between the lookup and the write.
        if (Option.isNone(updated)) return yield* NotFound.resource("Organization member")
        yield* auditResource(memberResource(org, user), { roles: before }, { roles: updated.value.roles })
        return toMember(updated.value, user, yield* customDisplayNames(org.id, [updated.value]))
      }).pipe(span("Organizations.setMemberRoles"))

    /** GET /organizations/{organization}/members/roles: its roles, each marked assignable or not. */
    const assignableRoles = (ref: string) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorize("read", { type: "assign_org_role", orgId: org.id })
        const mayAssign = yield* allowed("assign", { type: "assign_org_role", orgId: org.id })
        const custom = (yield* customRoles.list(org.id)).map(definitionOf)
        const beyond = yield* rolesBeyondActor([...organizationRoles, ...custom].map((r) => r.name), org.id)
        return [
          ...organizationRoles.map((role) => toAssignableRole(role, org.id, mayAssign && !beyond.includes(role.name))),
          ...custom.map((role) => toAssignableRole(role, org.id, mayAssign && !beyond.includes(role.name), false))
        ]
      }).pipe(span("Organizations.assignableRoles"))

    /** The checks of a custom role request, one validation per bad field; the message is the first's. */
    const checkRole = (orgId: string, input: typeof CustomRoleRequest.Type) =>
      Effect.gen(function*() {
        const problems: Array<{ readonly field: string; readonly message: string; readonly detail: string }> = []
        if (isBuiltInRole(input.name)) {
          problems.push({
            field: "name",
            message: "Reserved role name",
            detail: `"${input.name}" is a reserved role name, and not allowed to be used`
          })
        } else {
          const bad = roleNameProblem(input.name)
          if (bad !== undefined) problems.push({ field: "name", message: "Invalid role name", detail: bad })
        }
        if ((input.site_permissions?.length ?? 0) > 0) {
          problems.push({
            field: "site_permissions",
            message: "Invalid request, not allowed to assign site wide permissions for an organization role.",
            detail: "organization scoped roles may not contain site wide permissions"
          })
        }
        if ((input.user_permissions?.length ?? 0) > 0) {
          problems.push({
            field: "user_permissions",
            message: "Invalid request, not allowed to assign user permissions for an organization role.",
            detail: "organization scoped roles may not contain user permissions"
          })
        }
        const perms = input.organization_permissions ?? []
        for (let i = 0; i < perms.length; i++) {
          const p = perms[i]!
          const bad = permissionProblem(p) ??
            ((yield* allowed(p.action as Action, { type: p.resource_type as ResourceKind, orgId }))
              ? undefined
              : `invalid permission for action="${p.action}" type="${p.resource_type}", not allowed to grant this permission`)
          if (bad !== undefined) {
            problems.push({
              field: `organization_permissions.${i}`,
              message: "Failed to update role permissions",
              detail: bad
            })
          }
        }
        if (problems.length > 0) {
          return yield* new BadRequest({
            message: problems[0]!.message,
            validations: problems.map((p) => new Validation({ field: p.field, detail: p.detail }))
          })
        }
        return perms.map((p): CustomRolePermission => ({
          negate: false,
          resource_type: p.resource_type,
          action: p.action
        }))
      })

    /** POST /organizations/{organization}/members/roles: a new custom role (409 when the name is taken). */
    const createRole = (ref: string, input: typeof CustomRoleRequest.Type) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorize("create", { type: "assign_org_role", orgId: org.id })
        const permissions = yield* checkRole(org.id, input)
        const at = yield* now
        const record: CustomRoleRecord = {
          id: yield* ids.uuid,
          organization_id: org.id,
          name: input.name,
          display_name: input.display_name ?? "",
          organization_permissions: permissions,
          created_at: at,
          updated_at: at
        }
        yield* customRoles.insert(record).pipe(
          Effect.catchTag("UniqueViolation", () =>
            Effect.fail(
              new Conflict({
                message: `A custom role named "${input.name}" already exists in this organization.`,
                validations: [new Validation({ field: "name", detail: "This name is in use." })]
              })
            ))
        )
        yield* auditResource(customRoleResource(record), undefined, roleAudit(record))
        return toRole(record)
      }).pipe(span("Organizations.createRole"))

    /** PUT /organizations/{organization}/members/roles: replaces a custom role's display name and permissions. */
    const updateRole = (ref: string, input: typeof CustomRoleRequest.Type) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorize("update", { type: "assign_org_role", orgId: org.id })
        const permissions = yield* checkRole(org.id, input)
        const before = yield* customRoles.find(org.id, input.name)
        if (Option.isNone(before)) return yield* roleNotFound(input.name)
        const updated = yield* customRoles.update(org.id, input.name, {
          display_name: input.display_name ?? "",
          organization_permissions: permissions,
          updated_at: yield* now
        })
        if (Option.isNone(updated)) return yield* roleNotFound(input.name)
        yield* auditResource(customRoleResource(updated.value), roleAudit(before.value), roleAudit(updated.value))
        return toRole(updated.value)
      }).pipe(span("Organizations.updateRole"))

    /** DELETE /organizations/{organization}/members/roles/{roleName}: removes the role, and takes it off its members. */
    const deleteRole = (ref: string, name: string) =>
      Effect.gen(function*() {
        const org = yield* resolve(ref)
        yield* authorize("delete", { type: "assign_org_role", orgId: org.id })
        if (isBuiltInRole(name)) {
          return yield* BadRequest.field(
            "roleName",
            `"${name}" is a reserved role name, and not allowed to be used`,
            "Reserved role name"
          )
        }
        const before = yield* customRoles.find(org.id, name)
        if (Option.isNone(before)) return yield* roleNotFound(name)
        if (!(yield* customRoles.delete(org.id, name, yield* now))) return yield* roleNotFound(name)
        yield* auditResource(customRoleResource(before.value), roleAudit(before.value))
      }).pipe(span("Organizations.deleteRole"))

    /* The organizations of a user (routes of the users' group). */

    /** GET /users/{user}/organizations: the user's organizations that the caller may read, oldest first. */
    const organizationsOf = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* users.resolveVisible(ref)
        const found = yield* orgs.findByIds(yield* users.organizationIdsOf(user.id))
        const visible: Array<Organization> = []
        for (const o of [...found].sort((a, b) => a.created_at.getTime() - b.created_at.getTime())) {
          if (yield* allowed("read", orgObject(o))) visible.push(new Organization(o))
        }
        return visible
      }).pipe(span("Users.organizations"))

    /** GET /users/{user}/organizations/{organizationname}: one of them by name; 404 for any other. */
    const organizationOf = (ref: string, name: string) =>
      Effect.gen(function*() {
        const user = yield* users.resolveVisible(ref)
        const found = Option.getOrUndefined(yield* orgs.findByName(name))
        const member = found !== undefined && (yield* users.organizationIdsOf(user.id)).includes(found.id)
        if (!member || !(yield* allowed("read", orgObject(found!)))) return yield* NotFound.resource("Organization")
        return new Organization(found!)
      }).pipe(span("Users.organization"))

    return {
      resolve,
      organizationsOf,
      organizationOf,
      list,
      create,
      update,
      delete: remove,
      listMembers,
      paginatedMembers,
      getWorkspaceSharing,
      setWorkspaceSharing,
      getMember,
      addMember,
      removeMember,
      setMemberRoles,
      assignableRoles,
      createRole,
      updateRole,
      deleteRole,
      get: (ref: string) =>
        Effect.flatMap(resolve(ref), (o) => Effect.as(authorizeRead("Organization", orgObject(o)), new Organization(o)))
          .pipe(span("Organizations.get")),
      defaultPageSize: DEFAULT_PAGE_SIZE
    } as const
  }),
  dependencies: [Users.Default]
}) {}
