/**
 * Roles and permissions, in one place. A permission is a resource kind from the
 * spec's list, an action and a scope: site-wide, inside one organization, or on
 * things the actor owns. Every service asks {@link decide} (through `Actor.ts`) before
 * it reads or changes anything; handlers and SQL hold no permission logic.
 */

/** Resource kinds of the spec (allow-list `type`, authcheck `resource_type`). */
export const resourceKinds = [
  "*",
  "ai_model_price",
  "ai_provider",
  "ai_seat",
  "aibridge_interception",
  "api_key",
  "assign_org_role",
  "assign_role",
  "audit_log",
  "boundary_usage",
  "chat",
  "connection_log",
  "crypto_key",
  "debug_info",
  "deployment_config",
  "deployment_stats",
  "file",
  "group",
  "group_member",
  "idpsync_settings",
  "inbox_notification",
  "license",
  "notification_message",
  "notification_preference",
  "notification_template",
  "oauth2_app",
  "oauth2_app_code_token",
  "oauth2_app_secret",
  "organization",
  "organization_member",
  "prebuilt_workspace",
  "provisioner_daemon",
  "provisioner_jobs",
  "replicas",
  "system",
  "tailnet_coordinator",
  "task",
  "template",
  "usage_event",
  "user",
  "user_secret",
  "user_skill",
  "webpush_subscription",
  "workspace",
  "workspace_agent_devcontainers",
  "workspace_agent_resource_monitor",
  "workspace_dormant",
  "workspace_proxy"
] as const
export type ResourceKind = (typeof resourceKinds)[number]

/** Actions a permission can grant. */
export const actions = [
  "create",
  "read",
  "update",
  "delete",
  "read_personal",
  "update_personal",
  "assign",
  "unassign",
  "use",
  "start",
  "stop",
  "ssh",
  "application_connect",
  "share",
  "view_insights",
  "create_agent",
  "delete_agent",
  "update_agent"
] as const
export type Action = (typeof actions)[number]

type Grant = readonly [ResourceKind, ReadonlyArray<Action> | "*"]

/** A role: what it grants site-wide, inside its organization, and on what the holder owns. */
export interface RoleDefinition {
  readonly name: string
  readonly display_name: string
  /** `site` roles are assigned on the user; `organization` roles on a membership. */
  readonly scope: "site" | "organization"
  readonly site: ReadonlyArray<Grant>
  readonly org: ReadonlyArray<Grant>
  readonly user: ReadonlyArray<Grant>
  /** Roles a holder of this role may assign to others. */
  readonly assignable: ReadonlyArray<string>
  /** Whether a holder may assign custom organization roles (owners and organization admins, as the described system). */
  readonly assignsCustom?: boolean
}

/**
 * What a member may do with what they own. Workspaces are not in the site `member` role's
 * list but in `organization-member`'s (as the described system): a workspace is owned inside
 * its organization, so owning one grants nothing to a user who is not a member there.
 */
const ownedEverywhere: ReadonlyArray<Grant> = [
  ["user", ["read", "read_personal", "update_personal"]],
  // A member may see their own membership of a group.
  ["group_member", ["read"]],
  ["api_key", "*"],
  ["user_secret", "*"],
  ["user_skill", "*"],
  ["inbox_notification", "*"],
  ["notification_preference", "*"],
  ["webpush_subscription", "*"],
  ["task", "*"],
  ["chat", "*"],
  // A member uploads archives (templates' sources) and reads their own uploads.
  ["file", ["create", "read"]],
  // A user's grants to OAuth2 apps (codes and tokens): theirs to make, see and revoke.
  ["oauth2_app_code_token", "*"]
]

/** What an organization member may do with what they own inside the organization. */
const ownedInOrganization: ReadonlyArray<Grant> = [...ownedEverywhere, ["workspace", "*"]]

const siteRoleList: ReadonlyArray<RoleDefinition> = [
  {
    name: "owner",
    display_name: "Owner",
    scope: "site",
    site: [["*", "*"]],
    org: [],
    user: [],
    assignable: [
      "owner",
      "member",
      "auditor",
      "template-admin",
      "user-admin",
      "organization-admin",
      "organization-member",
      "organization-auditor",
      "organization-user-admin",
      "organization-template-admin"
    ],
    assignsCustom: true
  },
  {
    name: "member",
    display_name: "Member",
    scope: "site",
    site: [
      ["user", ["read"]],
      ["assign_role", ["read"]],
      ["workspace_proxy", ["read"]],
      ["oauth2_app", ["read"]],
      ["provisioner_daemon", ["read"]],
      // Every user reads the notification templates (their preferences page lists them).
      ["notification_template", ["read"]]
    ],
    org: [],
    user: ownedEverywhere,
    assignable: []
  },
  {
    name: "auditor",
    display_name: "Auditor",
    scope: "site",
    site: [
      ["audit_log", ["read"]],
      ["connection_log", ["read"]],
      ["user", ["read"]],
      ["group", ["read"]],
      ["group_member", ["read"]],
      ["organization", ["read"]],
      ["organization_member", ["read"]],
      ["template", ["read", "view_insights"]],
      ["deployment_stats", ["read"]],
      ["deployment_config", ["read"]]
    ],
    org: [],
    user: [],
    assignable: []
  },
  {
    name: "template-admin",
    display_name: "Template Admin",
    scope: "site",
    site: [
      ["template", "*"],
      ["file", "*"],
      ["workspace", ["read"]],
      ["provisioner_jobs", ["read"]],
      ["provisioner_daemon", "*"],
      ["user", ["read"]],
      ["group", ["read"]],
      ["group_member", ["read"]],
      ["organization", ["read"]],
      ["organization_member", ["read"]]
    ],
    org: [],
    user: [],
    assignable: []
  },
  {
    name: "user-admin",
    display_name: "User Admin",
    scope: "site",
    site: [
      ["user", "*"],
      ["group", "*"],
      ["group_member", "*"],
      ["organization", ["read"]],
      ["organization_member", "*"],
      ["assign_role", ["read", "assign", "unassign"]],
      ["assign_org_role", "*"],
      ["idpsync_settings", "*"]
    ],
    org: [],
    user: [],
    // Everything below the top role of each level (owner, organization-admin), in every organization.
    assignable: [
      "member",
      "auditor",
      "template-admin",
      "user-admin",
      "organization-member",
      "organization-auditor",
      "organization-user-admin",
      "organization-template-admin"
    ]
  }
]

const orgRoleList: ReadonlyArray<RoleDefinition> = [
  {
    name: "organization-admin",
    display_name: "Organization Admin",
    scope: "organization",
    site: [],
    org: [["*", "*"]],
    user: [],
    assignable: [
      "organization-admin",
      "organization-member",
      "organization-auditor",
      "organization-user-admin",
      "organization-template-admin"
    ],
    assignsCustom: true
  },
  {
    name: "organization-member",
    display_name: "Organization Member",
    scope: "organization",
    site: [],
    org: [
      // No template grant: members reach templates through the template's access list, where
      // new templates list the organization's Everyone group with `use` (as the described system).
      ["organization", ["read"]],
      ["organization_member", ["read"]],
      ["group", ["read"]],
      ["provisioner_daemon", ["read"]],
      ["assign_org_role", ["read"]]
    ],
    user: ownedInOrganization,
    assignable: []
  },
  {
    name: "organization-auditor",
    display_name: "Organization Auditor",
    scope: "organization",
    site: [],
    org: [
      ["audit_log", ["read"]],
      ["connection_log", ["read"]],
      ["organization", ["read"]],
      ["organization_member", ["read"]],
      ["group", ["read"]],
      ["group_member", ["read"]],
      ["template", ["read", "view_insights"]]
    ],
    user: [],
    assignable: []
  },
  {
    name: "organization-user-admin",
    display_name: "Organization User Admin",
    scope: "organization",
    site: [],
    org: [
      ["organization", ["read"]],
      ["organization_member", "*"],
      ["group", "*"],
      ["group_member", "*"],
      ["assign_org_role", ["read", "assign", "unassign"]],
      ["idpsync_settings", ["read", "update"]]
    ],
    user: [],
    // Like the site user-admin: every organization role but the admin one.
    assignable: [
      "organization-member",
      "organization-auditor",
      "organization-user-admin",
      "organization-template-admin"
    ]
  },
  {
    name: "organization-template-admin",
    display_name: "Organization Template Admin",
    scope: "organization",
    site: [],
    org: [
      ["organization", ["read"]],
      ["organization_member", ["read"]],
      ["template", "*"],
      ["file", "*"],
      ["provisioner_jobs", ["read"]],
      ["group", ["read"]],
      ["workspace", ["read"]]
    ],
    user: [],
    assignable: []
  }
]

/** Every role by name. */
export const roles: ReadonlyMap<string, RoleDefinition> = new Map(
  [...siteRoleList, ...orgRoleList].map((r) => [r.name, r])
)
export const siteRoles = siteRoleList
export const organizationRoles = orgRoleList

/** The site roles a user can be given explicitly (`member` is implicit for everyone). */
export const isSiteRole = (name: string) => siteRoleList.some((r) => r.name === name && r.name !== "member")
export const isOrganizationRole = (name: string) =>
  orgRoleList.some((r) => r.name === name && r.name !== "organization-member")

/** Who is asking: the user, their site roles and their roles per organization. */
export interface Subject {
  readonly userId: string
  /** Explicit site roles; `member` is always added. */
  readonly siteRoles: ReadonlyArray<string>
  /** Explicit organization roles per organization id; membership implies `organization-member`. */
  readonly orgRoles: ReadonlyMap<string, ReadonlyArray<string>>
  /**
   * The scopes of the token in use (absent: unrestricted). `all` grants whatever the roles
   * grant; `application_connect` only connecting to workspace applications; `<kind>:<action>`
   * (either part may be `*`) that one permission.
   */
  readonly scopes?: ReadonlyArray<string> | undefined
  /** The token's allow-list (absent or empty: unrestricted); `*` matches any type or id. */
  readonly allowList?: ReadonlyArray<{ readonly type: string; readonly id: string }> | undefined
  /**
   * Ids of the groups the user was added to (absent: none known). The Everyone group of each
   * organization in `orgRoles` counts without being listed: its id is the organization's id.
   */
  readonly groupIds?: ReadonlyArray<string> | undefined
  /**
   * The custom organization roles the subject holds, by organization id and role name (absent:
   * none loaded). Loaded once per request from the subject's memberships, only when a membership
   * names a role that is not built in (`Actor.customRoles`).
   */
  readonly customRoles?: ReadonlyMap<string, ReadonlyMap<string, RoleDefinition>> | undefined
}

/** What is being acted on. */
export interface AuthzObject {
  readonly type: ResourceKind
  readonly id?: string | undefined
  readonly orgId?: string | undefined
  readonly ownerId?: string | undefined
  /** True when the check passes if the action is allowed in any organization. */
  readonly anyOrg?: boolean | undefined
  /** The object's own access list (templates): actions granted to users and groups by id. */
  readonly acl?: ObjectAcl | undefined
}

/** Actions an object's access list grants, by user id and by group id. */
export interface ObjectAcl {
  readonly users: Readonly<Record<string, ReadonlyArray<Action>>>
  readonly groups: Readonly<Record<string, ReadonlyArray<Action>>>
}

/** An object's access list from its stored role maps (user id or group id to role) and what each role grants. */
export const objectAcl = <Role extends string>(
  users: Readonly<Record<string, Role>>,
  groups: Readonly<Record<string, Role>>,
  roleActions: Readonly<Record<Role, ReadonlyArray<Action>>>
): ObjectAcl => {
  const actionsOf = (acl: Readonly<Record<string, Role>>) =>
    Object.fromEntries(Object.entries(acl).map(([id, role]) => [id, roleActions[role as Role] ?? []]))
  return { users: actionsOf(users), groups: actionsOf(groups) }
}

const grants = (list: ReadonlyArray<Grant>, type: ResourceKind, action: Action): boolean => {
  for (const [kind, acts] of list) {
    if ((kind === "*" || kind === type) && (acts === "*" || acts.includes(action))) return true
  }
  return false
}

const roleGrants = (
  role: RoleDefinition | undefined,
  subject: Subject,
  action: Action,
  object: AuthzObject,
  inOrg: boolean
): boolean => {
  if (role === undefined) return false
  if (grants(role.site, object.type, action)) return true
  if (inOrg && grants(role.org, object.type, action)) return true
  const owns = object.ownerId !== undefined && object.ownerId === subject.userId
  // Owner-scoped grants of an organization role apply only inside that organization.
  if (owns && (role.scope === "site" || inOrg) && grants(role.user, object.type, action)) return true
  return false
}

/** Whether one scope name grants `action` on resources of kind `type`. */
export const scopeGrants = (scope: string, action: Action, type: ResourceKind): boolean => {
  if (scope === "all") return true
  if (scope === "application_connect") return type === "workspace" && action === "application_connect"
  const i = scope.indexOf(":")
  if (i < 0) return false
  const kind = scope.slice(0, i)
  const act = scope.slice(i + 1)
  return (kind === "*" || kind === type) && (act === "*" || act === action)
}

/** Whether a scope name is one a token may carry: `all`, `application_connect` or `<kind>:<action>`. */
export const isScope = (scope: string): boolean => {
  if (scope === "all" || scope === "application_connect") return true
  const i = scope.indexOf(":")
  if (i < 0) return false
  const kind = scope.slice(0, i)
  const act = scope.slice(i + 1)
  return (resourceKinds as ReadonlyArray<string>).includes(kind) &&
    (act === "*" || (actions as ReadonlyArray<string>).includes(act))
}

/** Resource kinds whose scopes are offered for external keys (GET /auth/scopes), with their actions. */
const externalScopeKinds: ReadonlyArray<readonly [ResourceKind, ReadonlyArray<Action>]> = [
  ["api_key", ["create", "read", "update", "delete"]],
  ["audit_log", ["read"]],
  ["connection_log", ["read"]],
  ["file", ["create", "read"]],
  ["group", ["create", "read", "update", "delete"]],
  ["group_member", ["read"]],
  ["inbox_notification", ["read", "update"]],
  ["organization", ["create", "read", "update", "delete"]],
  ["organization_member", ["create", "read", "update", "delete"]],
  ["provisioner_jobs", ["read"]],
  ["task", ["create", "read", "update", "delete"]],
  ["template", ["create", "read", "update", "delete", "use", "view_insights"]],
  ["user", ["create", "read", "read_personal", "update", "update_personal", "delete"]],
  ["workspace", ["create", "read", "update", "delete", "start", "stop", "ssh", "application_connect", "share"]],
  ["workspace_proxy", ["read"]]
]

/** Scope names usable for external keys, served by GET /auth/scopes. */
export const externalScopes: ReadonlyArray<string> = [
  "all",
  "application_connect",
  ...externalScopeKinds.flatMap(([kind, acts]) => [`${kind}:*`, ...acts.map((a) => `${kind}:${a}`)])
]

/**
 * Whether the token in use permits `action` on `object`, whatever the roles say: every
 * scope-listed permission and every allow-list entry narrows, never widens, what the
 * owner may do. An allow-list entry `{type, id}` covers objects of that kind (`*`: any kind)
 * with that id (`*`: any id). An object without an id (a listing, a creation) is covered
 * only by an entry whose id is `*`: a token limited to one user cannot list users or make new ones.
 */
export const tokenAllows = (subject: Subject, action: Action, object: AuthzObject): boolean => {
  const scopes = subject.scopes
  if (scopes !== undefined && !scopes.includes("all") && !scopes.some((s) => scopeGrants(s, action, object.type))) {
    return false
  }
  const list = subject.allowList
  if (list === undefined || list.length === 0) return true
  for (const e of list) {
    if (
      (e.type === "*" || e.type === object.type) && (e.id === "*" || (object.id !== undefined && e.id === object.id))
    ) {
      return true
    }
  }
  return false
}

/** A token's limits: its scopes and allow-list. */
export interface TokenLimits {
  readonly scopes: ReadonlyArray<string>
  readonly allowList: ReadonlyArray<{ readonly type: string; readonly id: string }>
}

const unlimitedList = (list: TokenLimits["allowList"]) =>
  list.length === 0 || list.some((e) => e.type === "*" && e.id === "*")

/** Whether scope `scope` grants nothing `parent`'s scopes do not. */
const scopeWithin = (scope: string, parent: ReadonlyArray<string>): boolean => {
  if (parent.includes("all")) return true
  if (scope === "all") return false
  if (scope === "application_connect") return parent.some((p) => scopeGrants(p, "application_connect", "workspace"))
  const i = scope.indexOf(":")
  const kind = scope.slice(0, i)
  const act = scope.slice(i + 1)
  return parent.some((p) => {
    if (p === "application_connect") return kind === "workspace" && act === "application_connect"
    const j = p.indexOf(":")
    const pk = p.slice(0, j)
    const pa = p.slice(j + 1)
    return (pk === "*" || pk === kind) && (pa === "*" || pa === act)
  })
}

/**
 * Whether a token with limits `child` can do nothing a token with limits `parent` cannot:
 * a token may only mint keys within its own scopes and allow-list, so a narrow token can
 * never be turned into a wide one.
 */
export const tokenWithin = (child: TokenLimits, parent: TokenLimits): boolean => {
  if (!child.scopes.every((s) => scopeWithin(s, parent.scopes))) return false
  if (unlimitedList(parent.allowList)) return true
  if (unlimitedList(child.allowList)) return false
  return child.allowList.every((c) =>
    parent.allowList.some((p) => (p.type === "*" || p.type === c.type) && (p.id === "*" || p.id === c.id))
  )
}

/**
 * Whether the object's access list grants `action` to `subject`: through the user's own entry,
 * an entry of a group they were added to, or the Everyone group of an organization they are a
 * member of. Entries of an object that belongs to an organization count only for members of
 * that organization (as the described system's evaluator): a user who left it, or was never in
 * it, gets nothing from a stale or smuggled entry. Like a role, an entry only grants; the
 * token's limits still narrow it.
 */
export const aclAllows = (subject: Subject, action: Action, object: AuthzObject): boolean => {
  const acl = object.acl
  if (acl === undefined) return false
  if (object.orgId !== undefined && !subject.orgRoles.has(object.orgId)) return false
  if (Object.hasOwn(acl.users, subject.userId) && acl.users[subject.userId]!.includes(action)) return true
  for (const [groupId, acts] of Object.entries(acl.groups)) {
    if (!acts.includes(action)) continue
    if (subject.orgRoles.has(groupId) || subject.groupIds?.includes(groupId) === true) return true
  }
  return false
}

/** Whether `object`'s access list names groups whose membership is not known from `orgRoles` alone. */
export const aclNeedsGroups = (object: AuthzObject): boolean =>
  object.acl !== undefined && Object.keys(object.acl.groups).length > 0

/** Whether the roles of `subject` (or the object's access list) grant `action` on `object`, ignoring the token's limits. */
export const rolesAllow = (subject: Subject, action: Action, object: AuthzObject): boolean => {
  if (aclAllows(subject, action, object)) return true
  for (const name of ["member", ...subject.siteRoles]) {
    if (roleGrants(roles.get(name), subject, action, object, false)) return true
  }
  // A check of an owned object naming no organization ("may I update my own workspaces?", as
  // dashboards ask) counts the owner grants of membership: true when the subject is a member somewhere.
  if (
    object.orgId === undefined && object.anyOrg !== true && object.ownerId !== undefined &&
    object.ownerId === subject.userId && subject.orgRoles.size > 0 && grants(ownedInOrganization, object.type, action)
  ) return true
  const orgIds = object.anyOrg === true ? [...subject.orgRoles.keys()] : object.orgId ? [object.orgId] : []
  for (const orgId of orgIds) {
    const orgRoles = subject.orgRoles.get(orgId)
    if (orgRoles === undefined) continue
    // Object.assign, not a spread: a spread copy that adds a key is V8's slow path (see Actor.ts).
    const scoped: AuthzObject = Object.assign({}, object, { orgId })
    for (const name of ["organization-member", ...orgRoles]) {
      const role = roles.get(name) ?? subject.customRoles?.get(orgId)?.get(name)
      if (roleGrants(role, subject, action, scoped, true)) return true
    }
  }
  return false
}

/**
 * Why a check passes or fails: `allowed`, refused by the `roles`, or refused by the `token`
 * (its scopes or allow-list) although the roles would allow it. Reads refused by the roles
 * answer 404 (the object stays hidden); refused by the token, 403 (the owner knows it exists).
 */
export type Decision = "allowed" | "roles" | "token"

export const decide = (subject: Subject, action: Action, object: AuthzObject): Decision =>
  !rolesAllow(subject, action, object) ? "roles" : tokenAllows(subject, action, object) ? "allowed" : "token"

/** Whether `subject` may perform `action` on `object`. Pure: no I/O, no clock. */
export const can = (subject: Subject, action: Action, object: AuthzObject): boolean =>
  tokenAllows(subject, action, object) && rolesAllow(subject, action, object)

/**
 * Whether a holder of `subject`'s roles may assign (or remove) `role`: never a role above
 * their own. Site roles count everywhere; organization roles only in their organization
 * (`orgId`). The token's limits do not matter here: the caller also needs `assign` or
 * `unassign` on `assign_role` / `assign_org_role`, which is checked with them.
 */
export const canAssign = (subject: Subject, role: string, orgId?: string): boolean => {
  const held = [...subject.siteRoles, ...(orgId ? subject.orgRoles.get(orgId) ?? [] : [])]
  // A custom organization role (any name that is not built in): owners and organization admins
  // hand it out, as the described system.
  if (!roles.has(role)) return held.some((h) => roles.get(h)?.assignsCustom === true)
  return held.some((h) => roles.get(h)?.assignable.includes(role) === true)
}

/** Whether `name` is a built-in role (site or organization), reserved for custom roles. */
export const isBuiltInRole = (name: string) => roles.has(name)

/**
 * A custom organization role as the evaluator holds it: organization permissions only, as the
 * described system allows for organization roles.
 */
export const customRoleDefinition = (
  name: string,
  displayName: string,
  orgPermissions: ReadonlyArray<{ readonly resource_type: string; readonly action: string }>
): RoleDefinition => ({
  name,
  display_name: displayName,
  scope: "organization",
  site: [],
  org: orgPermissions.map((
    p
  ): Grant => [p.resource_type as ResourceKind, p.action === "*" ? "*" : [p.action as Action]]),
  user: [],
  assignable: []
})

/** The roles of `wanted` that `subject` may not assign or remove (see {@link canAssign}). */
export const unassignable = (subject: Subject, wanted: ReadonlyArray<string>, orgId?: string): ReadonlyArray<string> =>
  wanted.filter((role) => !canAssign(subject, role, orgId))

/** One permission of a role as the roles listings show it (`action` `*`: every action). */
export interface Permission {
  readonly negate: boolean
  readonly resource_type: ResourceKind
  readonly action: Action | "*"
}

const permissionsOf = (list: ReadonlyArray<Grant>): ReadonlyArray<Permission> =>
  list.flatMap(([kind, acts]): ReadonlyArray<Permission> =>
    acts === "*"
      ? [{ negate: false, resource_type: kind, action: "*" }]
      : acts.map((action) => ({ negate: false, resource_type: kind, action }))
  )

/** What a role grants, site-wide, in its organization and on what the holder owns. */
export const permissions = (role: RoleDefinition) => ({
  site: permissionsOf(role.site),
  organization: permissionsOf(role.org),
  user: permissionsOf(role.user)
})
