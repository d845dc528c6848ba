/**
 * The role table: for every site and organization role, each resource kind and action is
 * tried through the real route that performs it, and POST /authcheck must answer the same.
 * One server; one user per role, made through the API (organization roles through the
 * member-roles route) and a member of the organization `org` when the role is an
 * organization role; every case runs in sequence on fresh fixtures where it changes state.
 *
 * Expected statuses follow the rule of docs/authorization.md: a refused action answers 403,
 * or 404 when the caller may not even see the thing (an organization they are not in).
 * WebSocket routes are tried with a real handshake (101 when it opens). An agent's own route
 * (authenticated by the agent's token, never by a user's session) answers 401 to every role, and
 * authcheck is not asked there: no role's permission decides it.
 */
import { ProvisionerJobs } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deliver } from "./notifications/InboxFixtures.js"
import {
  addMemberWithRoles,
  type Client,
  createOrganization,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  STRONG_PASSWORD
} from "./support.js"
import { makeTemplate, makeVersion } from "./templates/fixtures.js"
import { runJobs } from "./templates/versions.js"
import { connect, refusal, type WsResult } from "./websocket.js"
import { FREE_TEMPLATE, makeTemplate as importTemplate } from "./workspaces/fixtures.js"
import { portShareTemplate, seedWorkspace } from "./workspaces/portShareFixtures.js"
import { makeWorkspace, setWorkspaceAcl } from "./workspaces/sharingFixtures.js"

/** The status of a streaming GET (server-sent events); the stream is dropped once the status is in. */
const streamStatus = async (client: Client, path: string) => {
  const controller = new AbortController()
  const r = await fetch(`${client.baseUrl}${path}`, {
    headers: { [SESSION_HEADER]: client.token! },
    signal: controller.signal
  })
  const body = r.status === 200 ? undefined : await r.json()
  controller.abort()
  return { status: r.status, body }
}

/** The status of a WebSocket handshake (101 when it opened; the socket is closed at once). */
const upgradeStatus = async (wsUrl: string, client: Client, path: string) => {
  try {
    const ws = await connect(`${wsUrl}/api/v2${path}`, { [SESSION_HEADER]: client.token! })
    ws.socket.close(1000)
    await ws.closed
    return { status: 101, body: undefined }
  } catch (e) {
    const r = await refusal(Promise.reject(e))
    return { status: r.status, body: r.body }
  }
}

const ROLES = [
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
] as const
type Role = (typeof ROLES)[number]
const isOrgRole = (role: Role) => role.startsWith("organization-")

interface RoleUser {
  readonly role: Role
  readonly client: Client
  readonly id: string
}

/** What one case sends, and the authorization check that must agree with it. */
interface Attempt {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly body?: unknown
  /** A raw body (an uploaded file) instead of JSON. */
  readonly raw?: { readonly text: string; readonly contentType: string }
  /** The answer is a stream (server-sent events): only its status is read. */
  readonly stream?: true
  /** A WebSocket route: the handshake's status is read (101 when opened), and the socket closed. */
  readonly websocket?: true
  /** What POST /authcheck must answer alike; absent for a route no user's role decides (an agent's own). */
  readonly check?: { readonly action: string; readonly object: Record<string, unknown> }
}

interface Row {
  readonly kind: string
  readonly action: string
  readonly route: string
  /** Expected status per role, in the order of ROLES. */
  readonly expected: readonly [number, number, number, number, number, number, number, number, number, number]
  readonly attempt: (who: RoleUser) => Promise<Attempt>
}

describe("access table", () => {
  let srv: ServiceTestServer
  let admin: Client
  let org: { id: string; name: string }
  let someone: string
  let group: string
  let groupName: string
  let adminId: string
  /** A file the setup owner uploaded. */
  let file: string
  /** A provisioner job of `org` (of a type no worker serves, so it stays pending). */
  let job: string
  /** The default organization, which every user is a member of. */
  let defaultOrg: string
  /** A template version (of no template) in `org`, made by the setup owner from a file of theirs. */
  let version: string
  const users = new Map<Role, RoleUser>()
  let counter = 0
  const unique = (prefix: string) => `${prefix}-${++counter}`

  /** A plain user made by the setup owner (no session needed). */
  const plainUser = async () => {
    const name = unique("tbl-user")
    const r = await admin.post("/users", { email: `${name}@example.com`, username: name, password: STRONG_PASSWORD })
    if (r.status !== 201) throw new Error(`user: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.id as string
  }

  /** A plain member of `org`. */
  const orgMember = async () => {
    const id = await plainUser()
    await addMemberWithRoles(admin, org.id, id)
    return id
  }

  /** A custom role of `org`, made by the setup owner; answers its name. */
  let customRoles = 0
  const customRole = async () => {
    const name = `tbl-role-${++customRoles}`
    const r = await admin.post(`/organizations/${org.id}/members/roles`, { name })
    if (r.status !== 200) throw new Error(`custom role: ${r.status} ${JSON.stringify(r.body)}`)
    return name
  }

  const newGroup = async () => {
    const r = await admin.post(`/organizations/${org.id}/groups`, { name: unique("tbl-group") })
    if (r.status !== 201) throw new Error(`group: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.id as string
  }

  beforeAll(async () => {
    ;({ srv, owner: admin, ownerId: adminId, orgId: defaultOrg } = await startWithOwner({
      settings: { allowWorkspaceRenames: true }
    }))
    org = await createOrganization(admin, "table-org")
    for (const role of ROLES) {
      const siteRoles = role === "member" || isOrgRole(role) ? [] : [role]
      const made = await createUser(admin, { username: `tbl-${role}`, roles: siteRoles })
      if (isOrgRole(role)) {
        await addMemberWithRoles(admin, org.id, made.user.id, role === "organization-member" ? [] : [role])
      }
      users.set(role, { role, client: made.client, id: made.user.id })
    }
    someone = await orgMember()
    group = await newGroup()
    groupName = (await admin.get(`/groups/${group}`)).body.name
    const up = await admin.request("POST", "/files", undefined, {
      raw: "the owner's archive",
      headers: { "content-type": "application/x-tar" }
    })
    if (up.status !== 201) throw new Error(`file: ${up.status} ${JSON.stringify(up.body)}`)
    file = up.body.hash
    job = await srv.run(Effect.flatMap(ProvisionerJobs, (jobs) =>
      jobs.enqueue({
        organization_id: org.id,
        initiator_id: adminId,
        provisioner: "terraform",
        type: "template_version_import",
        file_id: file,
        input: {},
        tags: {}
      }))).then((j) => j.id)
    const source = await admin.request("POST", "/files", undefined, {
      raw: "the version's archive",
      headers: { "content-type": "application/x-tar" }
    })
    const v = await admin.post(`/organizations/${org.id}/templateversions`, {
      storage_method: "file",
      file_id: source.body.hash,
      provisioner: "workbay"
    })
    if (v.status !== 201) throw new Error(`version: ${v.status} ${JSON.stringify(v.body)}`)
    version = v.body.id
  })
  afterAll(() => srv.close())

  /** Flipped by the health settings row so that each owner attempt changes them. */
  let flip = false

  //                      own  mem  aud  tad  uad  oadm omem oaud ousr otad
  let rows: ReadonlyArray<Row> = [
    {
      kind: "user",
      action: "read",
      route: "GET /users/{user}",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/users/${someone}`,
        check: { action: "read", object: { resource_type: "user", resource_id: someone } }
      })
    },
    {
      kind: "user",
      action: "read_personal",
      route: "GET /users/{user}/appearance",
      expected: [200, 404, 404, 404, 200, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${someone}/appearance`,
        check: { action: "read_personal", object: { resource_type: "user", resource_id: someone } }
      })
    },
    {
      kind: "user",
      action: "read_personal",
      route: "GET /users/{user}/preferences",
      expected: [200, 404, 404, 404, 200, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${someone}/preferences`,
        check: { action: "read_personal", object: { resource_type: "user", resource_id: someone } }
      })
    },
    {
      kind: "user",
      action: "update",
      route: "PUT /users/{user}/preferences",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PUT",
        path: `/users/${someone}/preferences`,
        body: { collapse_assistant_steps: true },
        check: { action: "update", object: { resource_type: "user", resource_id: someone } }
      })
    },
    {
      kind: "user",
      action: "create",
      route: "POST /users",
      expected: [201, 403, 403, 403, 201, 403, 403, 403, 403, 403],
      attempt: async () => {
        const name = unique("tbl-new")
        return {
          method: "POST",
          path: "/users",
          body: { email: `${name}@example.com`, username: name, password: STRONG_PASSWORD },
          check: { action: "create", object: { resource_type: "user" } }
        }
      }
    },
    {
      kind: "user",
      action: "update",
      route: "PUT /users/{user}/status/suspend",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => {
        const victim = await plainUser()
        return {
          method: "PUT",
          path: `/users/${victim}/status/suspend`,
          check: { action: "update", object: { resource_type: "user", resource_id: victim } }
        }
      }
    },
    {
      kind: "user",
      action: "delete",
      route: "DELETE /users/{user}",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => {
        const victim = await plainUser()
        return {
          method: "DELETE",
          path: `/users/${victim}`,
          check: { action: "delete", object: { resource_type: "user", resource_id: victim } }
        }
      }
    },
    {
      kind: "organization",
      action: "read",
      route: "GET /organizations/{organization}",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}`,
        check: { action: "read", object: { resource_type: "organization", resource_id: org.id } }
      })
    },
    {
      kind: "organization",
      action: "create",
      route: "POST /organizations",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: "/organizations",
        body: { name: unique("tbl-org") },
        check: { action: "create", object: { resource_type: "organization" } }
      })
    },
    {
      kind: "organization",
      action: "update",
      route: "PATCH /organizations/{organization}",
      expected: [200, 404, 403, 403, 403, 200, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/organizations/${org.id}`,
        body: { display_name: unique("Table") },
        check: { action: "update", object: { resource_type: "organization", resource_id: org.id } }
      })
    },
    {
      kind: "organization",
      action: "delete",
      route: "DELETE /organizations/{organization}",
      expected: [200, 404, 403, 403, 403, 200, 403, 403, 403, 403],
      attempt: async (who) => {
        // A fresh organization in which an organization role holds the same role.
        const doomed = await createOrganization(admin, unique("tbl-doomed"))
        if (isOrgRole(who.role)) {
          await addMemberWithRoles(admin, doomed.id, who.id, who.role === "organization-member" ? [] : [who.role])
        }
        return {
          method: "DELETE",
          path: `/organizations/${doomed.id}`,
          check: { action: "delete", object: { resource_type: "organization", resource_id: doomed.id } }
        }
      }
    },
    {
      kind: "organization_member",
      action: "read",
      route: "GET /organizations/{organization}/members/{user}",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/members/${someone}`,
        check: {
          action: "read",
          object: { resource_type: "organization_member", organization_id: org.id, owner_id: someone }
        }
      })
    },
    {
      kind: "organization_member",
      action: "read",
      route: "GET /organizations/{organization}/paginated-members",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/paginated-members?limit=5`,
        check: { action: "read", object: { resource_type: "organization_member", organization_id: org.id } }
      })
    },
    {
      kind: "organization",
      action: "read",
      route: "GET /organizations/{organization}/settings/workspace-sharing",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/settings/workspace-sharing`,
        check: { action: "read", object: { resource_type: "organization", resource_id: org.id } }
      })
    },
    {
      kind: "organization",
      action: "update",
      route: "PATCH /organizations/{organization}/settings/workspace-sharing",
      expected: [200, 404, 403, 403, 403, 200, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/organizations/${org.id}/settings/workspace-sharing`,
        body: { shareable_workspace_owners: "everyone" },
        check: { action: "update", object: { resource_type: "organization", resource_id: org.id } }
      })
    },
    {
      kind: "idpsync_settings",
      action: "read",
      route: "GET /settings/idpsync/organization",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/settings/idpsync/organization",
        check: { action: "read", object: { resource_type: "idpsync_settings" } }
      })
    },
    {
      kind: "idpsync_settings",
      action: "update",
      route: "PATCH /settings/idpsync/organization/config",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PATCH",
        path: "/settings/idpsync/organization/config",
        body: { field: "", assign_default: true },
        check: { action: "update", object: { resource_type: "idpsync_settings" } }
      })
    },
    {
      kind: "idpsync_settings",
      action: "read",
      route: "GET /organizations/{organization}/settings/idpsync/groups",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/settings/idpsync/groups`,
        check: { action: "read", object: { resource_type: "idpsync_settings", organization_id: org.id } }
      })
    },
    {
      kind: "idpsync_settings",
      action: "update",
      route: "PATCH /organizations/{organization}/settings/idpsync/roles/config",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/organizations/${org.id}/settings/idpsync/roles/config`,
        body: { field: "" },
        check: { action: "update", object: { resource_type: "idpsync_settings", organization_id: org.id } }
      })
    },
    {
      kind: "organization_member",
      action: "create",
      route: "POST /organizations/{organization}/members/{user}",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => {
        const joiner = await plainUser()
        return {
          method: "POST",
          path: `/organizations/${org.id}/members/${joiner}`,
          check: { action: "create", object: { resource_type: "organization_member", organization_id: org.id } }
        }
      }
    },
    {
      kind: "organization_member",
      action: "delete",
      route: "DELETE /organizations/{organization}/members/{user}",
      expected: [204, 404, 403, 403, 204, 204, 403, 403, 204, 403],
      attempt: async () => {
        const leaver = await orgMember()
        return {
          method: "DELETE",
          path: `/organizations/${org.id}/members/${leaver}`,
          check: { action: "delete", object: { resource_type: "organization_member", organization_id: org.id } }
        }
      }
    },
    {
      kind: "assign_role",
      action: "read",
      route: "GET /users/roles",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: "/users/roles",
        check: { action: "read", object: { resource_type: "assign_role" } }
      })
    },
    {
      kind: "assign_role",
      action: "assign",
      route: "PUT /users/{user}/roles",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => {
        const target = await plainUser()
        return {
          method: "PUT",
          path: `/users/${target}/roles`,
          body: { roles: ["auditor"] },
          check: { action: "assign", object: { resource_type: "assign_role" } }
        }
      }
    },
    {
      kind: "assign_org_role",
      action: "read",
      route: "GET /organizations/{organization}/members/roles",
      expected: [200, 404, 403, 403, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/members/roles`,
        check: { action: "read", object: { resource_type: "assign_org_role", organization_id: org.id } }
      })
    },
    {
      kind: "assign_org_role",
      action: "assign",
      route: "PUT /organizations/{organization}/members/{user}/roles",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => {
        const target = await orgMember()
        return {
          method: "PUT",
          path: `/organizations/${org.id}/members/${target}/roles`,
          body: { roles: ["organization-auditor"] },
          check: { action: "assign", object: { resource_type: "assign_org_role", organization_id: org.id } }
        }
      }
    },
    {
      kind: "assign_org_role",
      action: "create",
      route: "POST /organizations/{organization}/members/roles",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: `/organizations/${org.id}/members/roles`,
        body: {
          name: `tbl-role-${++customRoles}`,
          organization_permissions: [{ resource_type: "group", action: "read" }]
        },
        check: { action: "create", object: { resource_type: "assign_org_role", organization_id: org.id } }
      })
    },
    {
      kind: "assign_org_role",
      action: "update",
      route: "PUT /organizations/{organization}/members/roles",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 403, 403],
      attempt: async () => {
        const name = await customRole()
        return {
          method: "PUT",
          path: `/organizations/${org.id}/members/roles`,
          body: { name, display_name: "Changed", organization_permissions: [] },
          check: { action: "update", object: { resource_type: "assign_org_role", organization_id: org.id } }
        }
      }
    },
    {
      kind: "assign_org_role",
      action: "delete",
      route: "DELETE /organizations/{organization}/members/roles/{roleName}",
      expected: [204, 404, 403, 403, 204, 204, 403, 403, 403, 403],
      attempt: async () => {
        const name = await customRole()
        return {
          method: "DELETE",
          path: `/organizations/${org.id}/members/roles/${name}`,
          check: { action: "delete", object: { resource_type: "assign_org_role", organization_id: org.id } }
        }
      }
    },
    {
      kind: "api_key",
      action: "create",
      route: "POST /users/{user}/keys/tokens (another user)",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: `/users/${someone}/keys/tokens`,
        body: {},
        check: { action: "create", object: { resource_type: "api_key", owner_id: someone } }
      })
    },
    {
      kind: "api_key",
      action: "read",
      route: "GET /users/{user}/keys/tokens (another user)",
      expected: [200, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${someone}/keys/tokens`,
        check: { action: "read", object: { resource_type: "api_key", owner_id: someone } }
      })
    },
    {
      kind: "api_key",
      action: "update",
      route: "PUT /users/{user}/keys/{keyid}/expire (another user)",
      expected: [204, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => {
        const key = (await admin.post(`/users/${someone}/keys`)).body.key as string
        return {
          method: "PUT",
          path: `/users/${someone}/keys/${key.split("-")[0]}/expire`,
          check: { action: "update", object: { resource_type: "api_key", owner_id: someone } }
        }
      }
    },
    {
      kind: "audit_log",
      action: "read",
      route: "GET /audit",
      expected: [200, 403, 200, 403, 403, 200, 403, 200, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/audit?limit=5",
        check: { action: "read", object: { resource_type: "audit_log", any_org: true } }
      })
    },
    {
      kind: "connection_log",
      action: "read",
      route: "GET /connectionlog",
      expected: [200, 403, 200, 403, 403, 200, 403, 200, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/connectionlog?limit=5",
        check: { action: "read", object: { resource_type: "connection_log", any_org: true } }
      })
    },
    {
      kind: "deployment_config",
      action: "read",
      route: "GET /deployment/config",
      expected: [200, 403, 200, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/deployment/config",
        check: { action: "read", object: { resource_type: "deployment_config" } }
      })
    },
    {
      kind: "debug_info",
      action: "read",
      route: "GET /debug/health",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/debug/health",
        check: { action: "read", object: { resource_type: "debug_info" } }
      })
    },
    {
      // The debug routes are owners' (`debug_info`), then the settings are `deployment_config`'s.
      kind: "debug_info",
      action: "read",
      route: "GET /debug/health/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/debug/health/settings",
        check: { action: "read", object: { resource_type: "debug_info" } }
      })
    },
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /debug/health/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        // A change each time (200, not 204): the owner's row flips the stored sections.
        method: "PUT",
        path: "/debug/health/settings",
        body: { dismissed_healthchecks: [(flip = !flip) ? "DERP" : "WorkspaceProxy"] },
        check: { action: "update", object: { resource_type: "deployment_config" } }
      })
    },
    {
      kind: "group",
      action: "create",
      route: "POST /organizations/{organization}/groups",
      expected: [201, 404, 403, 403, 201, 201, 403, 403, 201, 403],
      attempt: async () => ({
        method: "POST",
        path: `/organizations/${org.id}/groups`,
        body: { name: unique("tbl-made") },
        check: { action: "create", object: { resource_type: "group", organization_id: org.id } }
      })
    },
    {
      kind: "group",
      action: "read",
      route: "GET /groups/{group}",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/groups/${group}`,
        check: { action: "read", object: { resource_type: "group", resource_id: group, organization_id: org.id } }
      })
    },
    {
      kind: "group",
      action: "read",
      route: "GET /organizations/{organization}/paginated-groups",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/paginated-groups`,
        check: { action: "read", object: { resource_type: "group", organization_id: org.id } }
      })
    },
    {
      kind: "group",
      action: "read",
      route: "GET /organizations/{organization}/groups/{groupName}/members",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/groups/${groupName}/members`,
        check: { action: "read", object: { resource_type: "group", resource_id: group, organization_id: org.id } }
      })
    },
    {
      kind: "group",
      action: "update",
      route: "PATCH /groups/{group}",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/groups/${group}`,
        body: { display_name: unique("Group") },
        check: { action: "update", object: { resource_type: "group", resource_id: group, organization_id: org.id } }
      })
    },
    {
      kind: "group",
      action: "delete",
      route: "DELETE /groups/{group}",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => {
        const doomed = await newGroup()
        return {
          method: "DELETE",
          path: `/groups/${doomed}`,
          check: { action: "delete", object: { resource_type: "group", resource_id: doomed, organization_id: org.id } }
        }
      }
    }
  ]

  // Files have no organization: only site-wide file readers see another user's file.
  const fileRows: ReadonlyArray<Row> = [
    {
      kind: "file",
      action: "create",
      route: "POST /files",
      expected: [201, 201, 201, 201, 201, 201, 201, 201, 201, 201],
      attempt: async (who) => ({
        method: "POST",
        path: "/files",
        raw: { text: unique("archive"), contentType: "application/x-tar" },
        check: { action: "create", object: { resource_type: "file", owner_id: who.id } }
      })
    },
    {
      kind: "file",
      action: "read",
      route: "GET /files/{fileID} (another user's)",
      expected: [200, 404, 404, 200, 404, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/files/${file}`,
        check: { action: "read", object: { resource_type: "file", resource_id: file, owner_id: adminId } }
      })
    }
  ]
  rows = [...rows, ...fileRows]

  //                      own  mem  aud  tad  uad  oadm omem oaud ousr otad
  const provisioningRows: ReadonlyArray<Row> = [
    {
      kind: "provisioner_jobs",
      action: "read",
      route: "GET /organizations/{organization}/provisionerjobs",
      expected: [200, 404, 403, 200, 403, 200, 403, 403, 403, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/provisionerjobs`,
        check: { action: "read", object: { resource_type: "provisioner_jobs", organization_id: org.id } }
      })
    },
    {
      kind: "provisioner_jobs",
      action: "read",
      route: "GET /organizations/{organization}/provisionerjobs/{job}",
      expected: [200, 404, 404, 200, 404, 200, 404, 404, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/provisionerjobs/${job}`,
        check: { action: "read", object: { resource_type: "provisioner_jobs", organization_id: org.id } }
      })
    },
    {
      // Every user may read daemons (site members too); the default organization, which all are in.
      kind: "provisioner_daemon",
      action: "read",
      route: "GET /organizations/{organization}/provisionerdaemons",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${defaultOrg}/provisionerdaemons`,
        check: { action: "read", object: { resource_type: "provisioner_daemon", organization_id: defaultOrg } }
      })
    }
  ]
  rows = [...rows, ...provisioningRows]
  /** A template of `org` made by the setup owner; the Everyone group may use it unless `private`. */
  const newTemplate = (isPrivate = false) =>
    makeTemplate(srv, admin, {
      organizationId: org.id,
      createdBy: adminId,
      name: unique("tbl-tpl"),
      body: isPrivate ? { disable_everyone_group_access: true } : {}
    })
  const templateCheck = (action: string, t: { id: string }) => ({
    action,
    object: { resource_type: "template", resource_id: t.id, organization_id: org.id }
  })

  // Templates: organization members reach them through the Everyone group's `use` entry, not
  // through a role; a private template only its organization's template readers see.
  const templateRows: ReadonlyArray<Row> = [
    {
      kind: "template",
      action: "create",
      route: "POST /organizations/{organization}/templates",
      expected: [201, 404, 403, 201, 403, 201, 403, 403, 403, 201],
      attempt: async () => {
        const version = await makeVersion(srv, { organizationId: org.id, createdBy: adminId })
        return {
          method: "POST",
          path: `/organizations/${org.id}/templates`,
          body: { name: unique("tbl-tpl"), template_version_id: version.id },
          check: { action: "create", object: { resource_type: "template", organization_id: org.id } }
        }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/{template} (Everyone may use it)",
      expected: [200, 404, 200, 200, 404, 200, 200, 200, 200, 200],
      attempt: async () => {
        const t = await newTemplate()
        return { method: "GET", path: `/templates/${t.id}`, check: templateCheck("read", t) }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/{template} (private)",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => {
        const t = await newTemplate(true)
        return { method: "GET", path: `/templates/${t.id}`, check: templateCheck("read", t) }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /organizations/{organization}/templates/examples",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${org.id}/templates/examples`,
        check: { action: "read", object: { resource_type: "template", organization_id: org.id } }
      })
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/examples (templates of any organization)",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: "/templates/examples",
        check: { action: "read", object: { resource_type: "template", any_org: true } }
      })
    },
    {
      kind: "template",
      action: "update",
      route: "PATCH /templates/{template}",
      expected: [200, 404, 403, 200, 404, 200, 403, 403, 403, 200],
      attempt: async () => {
        const t = await newTemplate()
        return {
          method: "PATCH",
          path: `/templates/${t.id}`,
          body: { display_name: unique("Tpl") },
          check: templateCheck("update", t)
        }
      }
    },
    {
      kind: "template",
      action: "update",
      route: "PATCH /templates/{template}/acl",
      expected: [200, 404, 403, 200, 404, 200, 403, 403, 403, 200],
      attempt: async () => {
        const t = await newTemplate()
        return {
          method: "PATCH",
          path: `/templates/${t.id}/acl`,
          body: { group_perms: { [org.id]: "" } },
          check: templateCheck("update", t)
        }
      }
    },
    {
      kind: "template",
      action: "delete",
      route: "DELETE /templates/{template}",
      expected: [200, 404, 403, 200, 404, 200, 403, 403, 403, 200],
      attempt: async () => {
        const t = await newTemplate()
        return { method: "DELETE", path: `/templates/${t.id}`, check: templateCheck("delete", t) }
      }
    }
  ]
  rows = [...rows, ...templateRows]

  // Template versions of no template are the `template` resource of their organization.
  const versionRows: ReadonlyArray<Row> = [
    {
      kind: "template",
      action: "create",
      route: "POST /organizations/{organization}/templateversions",
      expected: [201, 404, 403, 201, 403, 201, 403, 403, 403, 201],
      attempt: async (who) => {
        const up = await who.client.request("POST", "/files", undefined, {
          raw: unique("version archive"),
          headers: { "content-type": "application/x-tar" }
        })
        return {
          method: "POST",
          path: `/organizations/${org.id}/templateversions`,
          body: { storage_method: "file", file_id: up.body.hash, provisioner: "none-here", tags: {} },
          check: { action: "create", object: { resource_type: "template", organization_id: org.id } }
        }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templateversions/{templateversion}",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/templateversions/${version}`,
        check: { action: "read", object: { resource_type: "template", organization_id: org.id } }
      })
    },
    {
      kind: "template",
      action: "read",
      route: "POST /templateversions/{templateversion}/dynamic-parameters/evaluate",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "POST",
        path: `/templateversions/${version}/dynamic-parameters/evaluate`,
        body: { id: 1, inputs: {} },
        check: { action: "read", object: { resource_type: "template", organization_id: org.id } }
      })
    },
    ...(["parameters", "schema"] as const).map((route): Row => ({
      kind: "template",
      action: "read",
      route: `GET /templateversions/{templateversion}/${route} (removed: [])`,
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/templateversions/${version}/${route}`,
        check: { action: "read", object: { resource_type: "template", organization_id: org.id } }
      })
    })),
    {
      kind: "template",
      action: "update",
      route: "PATCH /templateversions/{templateversion}",
      expected: [200, 404, 403, 200, 404, 200, 404, 403, 404, 200],
      attempt: async () => ({
        method: "PATCH",
        path: `/templateversions/${version}`,
        body: { message: unique("message") },
        check: { action: "update", object: { resource_type: "template", organization_id: org.id } }
      })
    }
  ]
  rows = [...rows, ...versionRows]

  /** The template workspaces of `org` are made from (once). */
  let workspaceTemplate: Promise<{ id: string }> | undefined
  /** A workspace of `someone` in `org`, with the sharing list given (written directly: the route would refuse non-members). */
  const newWorkspace = async (
    userAcl: Record<string, "admin" | "use"> = {},
    groupAcl: Record<string, "admin" | "use"> = {}
  ) => {
    workspaceTemplate ??= makeTemplate(srv, admin, {
      organizationId: org.id,
      createdBy: adminId,
      name: unique("tbl-ws-tpl")
    })
    const t = await workspaceTemplate
    return makeWorkspace(srv, { organizationId: org.id, ownerId: someone, templateId: t.id, userAcl, groupAcl })
  }
  /** A workspace of `someone` in `org` with a build (watching reads it whole). */
  const builtWorkspace = async (userAcl: Record<string, "admin" | "use"> = {}) => {
    portShareTpl ??= portShareTemplate(srv, admin, { organizationId: org.id, createdBy: adminId, maxLevel: "public" })
    return seedWorkspace(srv, { ownerId: someone, organizationId: org.id, template: await portShareTpl, userAcl })
  }
  const workspaceCheck = (action: string, w: { id: string }) => ({
    action,
    object: { resource_type: "workspace", resource_id: w.id }
  })
  const aclPath = (w: { id: string }) => `/workspaces/${w.id}/acl`
  /** A change of the list that changes nothing: removing an entry that is not there. */
  const noopChange = () => ({ group_roles: { [org.id]: "" } })

  // Workspaces of another user: the roles give reading to template admins and organization
  // template admins, sharing to owners and organization admins; the workspace's own list gives
  // its entries `use` (reading, no sharing) or `admin` (also sharing), to members of the
  // workspace's organization only: site roles outside `org` get nothing from an entry.
  const workspaceRows: ReadonlyArray<Row> = [
    {
      kind: "workspace",
      action: "read",
      route: "GET /workspaces/{workspace}/acl (not shared)",
      expected: [200, 404, 404, 200, 404, 200, 404, 404, 404, 200],
      attempt: async () => {
        const w = await newWorkspace()
        return { method: "GET", path: aclPath(w), check: workspaceCheck("read", w) }
      }
    },
    {
      kind: "workspace",
      action: "read",
      route: "GET /workspaces/{workspace}/watch (not shared)",
      expected: [200, 404, 404, 200, 404, 200, 404, 404, 404, 200],
      attempt: async () => {
        const w = await builtWorkspace()
        return { method: "GET", path: `/workspaces/${w.id}/watch`, stream: true, check: workspaceCheck("read", w) }
      }
    },
    {
      kind: "workspace",
      action: "read",
      route: "GET /workspaces/{workspace}/watch (shared with the caller: use)",
      expected: [200, 404, 404, 200, 404, 200, 200, 200, 200, 200],
      attempt: async (who) => {
        const w = await builtWorkspace({ [who.id]: "use" })
        return { method: "GET", path: `/workspaces/${w.id}/watch`, stream: true, check: workspaceCheck("read", w) }
      }
    },
    {
      kind: "workspace",
      action: "read",
      route: "GET /workspaces/{workspace}/acl (shared with the caller: use)",
      expected: [200, 404, 404, 200, 404, 200, 200, 200, 200, 200],
      attempt: async (who) => {
        const w = await newWorkspace({ [who.id]: "use" })
        return { method: "GET", path: aclPath(w), check: workspaceCheck("read", w) }
      }
    },
    {
      kind: "workspace",
      action: "share",
      route: "PATCH /workspaces/{workspace}/acl (shared with the caller: use)",
      expected: [204, 404, 404, 403, 404, 204, 403, 403, 403, 403],
      attempt: async (who) => {
        const w = await newWorkspace({ [who.id]: "use" })
        return { method: "PATCH", path: aclPath(w), body: noopChange(), check: workspaceCheck("share", w) }
      }
    },
    {
      kind: "workspace",
      action: "share",
      route: "PATCH /workspaces/{workspace}/acl (shared with the caller: admin)",
      expected: [204, 404, 404, 403, 404, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const w = await newWorkspace({ [who.id]: "admin" })
        return { method: "PATCH", path: aclPath(w), body: noopChange(), check: workspaceCheck("share", w) }
      }
    },
    {
      kind: "workspace",
      action: "share",
      route: "PATCH /workspaces/{workspace}/acl (the Everyone group: admin)",
      expected: [204, 404, 404, 403, 404, 204, 204, 204, 204, 204],
      attempt: async () => {
        const w = await newWorkspace({}, { [org.id]: "admin" })
        return { method: "PATCH", path: aclPath(w), body: { user_roles: {} }, check: workspaceCheck("share", w) }
      }
    },
    {
      kind: "workspace",
      action: "share",
      route: "DELETE /workspaces/{workspace}/acl (not shared)",
      expected: [204, 404, 404, 403, 404, 204, 404, 404, 404, 403],
      attempt: async () => {
        const w = await newWorkspace()
        return { method: "DELETE", path: aclPath(w), check: workspaceCheck("share", w) }
      }
    }
  ]
  rows = [...rows, ...workspaceRows]
  // Port sharing: reading needs `read` on the workspace, sharing and unsharing `update` (site
  // template admins and organization template admins read every workspace of their scope).
  /** A workspace of `someone` in `org`, with agent `main`, on a template whose ports may be shared publicly. */
  let portShareTpl: Promise<{ id: string; active_version_id: string }> | undefined
  const portShareWorkspace = async () => {
    portShareTpl ??= portShareTemplate(srv, admin, { organizationId: org.id, createdBy: adminId, maxLevel: "public" })
    return seedWorkspace(srv, { ownerId: someone, organizationId: org.id, template: await portShareTpl })
  }
  const portShareCheck = (action: string, ws: { id: string }) => ({
    action,
    object: { resource_type: "workspace", resource_id: ws.id, owner_id: someone, organization_id: org.id }
  })
  const portShareRows: ReadonlyArray<Row> = [
    {
      kind: "workspace",
      action: "read",
      route: "GET /workspaces/{workspace}/port-share",
      expected: [200, 404, 404, 200, 404, 200, 404, 404, 404, 200],
      attempt: async () => {
        const ws = await portShareWorkspace()
        return { method: "GET", path: `/workspaces/${ws.id}/port-share`, check: portShareCheck("read", ws) }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "POST /workspaces/{workspace}/port-share",
      expected: [200, 404, 404, 403, 404, 200, 404, 404, 404, 403],
      attempt: async () => {
        const ws = await portShareWorkspace()
        return {
          method: "POST",
          path: `/workspaces/${ws.id}/port-share`,
          body: { agent_name: "main", port: 8080, share_level: "authenticated", protocol: "http" },
          check: portShareCheck("update", ws)
        }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "DELETE /workspaces/{workspace}/port-share",
      expected: [200, 404, 404, 403, 404, 200, 404, 404, 404, 403],
      attempt: async () => {
        const ws = await portShareWorkspace()
        const shared = await admin.post(`/workspaces/${ws.id}/port-share`, {
          agent_name: "main",
          port: 8080,
          share_level: "public",
          protocol: "http"
        })
        if (shared.status !== 200) throw new Error(`port share: ${shared.status} ${JSON.stringify(shared.body)}`)
        return {
          method: "DELETE",
          path: `/workspaces/${ws.id}/port-share`,
          body: { agent_name: "main", port: 8080 },
          check: portShareCheck("update", ws)
        }
      }
    }
  ]
  rows = [...rows, ...portShareRows]

  // AI tasks of `someone` in `org`: their owner, organization admins and owners only (read,
  // update: a pause, delete); everyone else does not see them.
  let aiVersion: Promise<string> | undefined
  const newTask = async () => {
    aiVersion ??= importTemplate(
      srv,
      admin,
      org.id,
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n" +
        "        apps:\n          - slug: claude\n            command: claude\nai_task:\n  app: claude\n"
    ).then((t) => t.active_version_id)
    const r = await admin.post(`/tasks/${someone}`, { input: "Tidy up", template_version_id: await aiVersion })
    if (r.status !== 201) throw new Error(`task: ${r.status} ${JSON.stringify(r.body)}`)
    await runJobs(srv)
    return r.body as { id: string }
  }
  const taskCheck = (action: string, t: { id: string }) => ({
    action,
    object: { resource_type: "task", resource_id: t.id, owner_id: someone, organization_id: org.id }
  })
  const taskRows: ReadonlyArray<Row> = [
    {
      kind: "task",
      action: "read",
      route: "GET /tasks/{user}/{task}",
      expected: [200, 404, 404, 404, 404, 200, 404, 404, 404, 404],
      attempt: async () => {
        const t = await newTask()
        return { method: "GET", path: `/tasks/${someone}/${t.id}`, check: taskCheck("read", t) }
      }
    },
    {
      kind: "task",
      action: "update",
      route: "POST /tasks/{user}/{task}/pause",
      expected: [202, 404, 404, 404, 404, 202, 404, 404, 404, 404],
      attempt: async () => {
        const t = await newTask()
        return { method: "POST", path: `/tasks/${someone}/${t.id}/pause`, check: taskCheck("update", t) }
      }
    },
    {
      kind: "task",
      action: "delete",
      route: "DELETE /tasks/{user}/{task}",
      expected: [202, 404, 404, 404, 404, 202, 404, 404, 404, 404],
      attempt: async () => {
        const t = await newTask()
        return { method: "DELETE", path: `/tasks/${someone}/${t.id}`, check: taskCheck("delete", t) }
      }
    }
  ]
  rows = [...rows, ...taskRows]

  // Notifications: every user reads the templates; owners change a template's method and the
  // notifier's settings; preferences are their user's (and owners'), hidden from everyone else.
  const testTemplate = "c425f63e-716a-4bf4-ae24-78348f706c3f"
  const notificationRows: ReadonlyArray<Row> = [
    {
      kind: "notification_template",
      action: "read",
      route: "GET /notifications/templates/system",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: "/notifications/templates/system",
        check: { action: "read", object: { resource_type: "notification_template" } }
      })
    },
    {
      kind: "notification_template",
      action: "update",
      route: "PUT /notifications/templates/{id}/method",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        await admin.put(`/notifications/templates/${testTemplate}/method`, { method: "" })
        return {
          method: "PUT",
          path: `/notifications/templates/${testTemplate}/method`,
          body: { method: "webhook" },
          check: { action: "update", object: { resource_type: "notification_template", resource_id: testTemplate } }
        }
      }
    },
    {
      // As the described system's dbauthz `UpsertPrebuildsSettings` (reading them checks nothing).
      kind: "deployment_config",
      action: "update",
      route: "PUT /prebuilds/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        await admin.put("/prebuilds/settings", { reconciliation_paused: false })
        return {
          method: "PUT",
          path: "/prebuilds/settings",
          body: { reconciliation_paused: true },
          check: { action: "update", object: { resource_type: "deployment_config" } }
        }
      }
    },
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /notifications/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        await admin.put("/notifications/settings", { notifier_paused: false })
        return {
          method: "PUT",
          path: "/notifications/settings",
          body: { notifier_paused: true },
          check: { action: "update", object: { resource_type: "deployment_config" } }
        }
      }
    },
    {
      kind: "notification_preference",
      action: "read",
      route: "GET /users/{user}/notifications/preferences",
      expected: [200, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${someone}/notifications/preferences`,
        check: {
          action: "read",
          object: { resource_type: "notification_preference", resource_id: someone, owner_id: someone }
        }
      })
    },
    {
      kind: "notification_preference",
      action: "update",
      route: "PUT /users/{user}/notifications/preferences",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PUT",
        path: `/users/${someone}/notifications/preferences`,
        body: { template_disabled_map: { [testTemplate]: true } },
        check: {
          action: "update",
          object: { resource_type: "notification_preference", resource_id: someone, owner_id: someone }
        }
      })
    }
  ]
  rows = [...rows, ...notificationRows]

  // Workspaces and builds, through their own routes: workspaces of `someone` (a plain member of
  // `org`) made by the setup owner from a template Everyone may use. Owners and organization
  // admins may do everything; template admins (site or of `org`) read them, their builds and the
  // provisioner state, and change nothing; every other role sees none of them (404).
  /** A template of `org` the built-in workers build (once). */
  let builtTemplate: Promise<{ id: string }> | undefined
  const built = () => (builtTemplate ??= importTemplate(srv, admin, org.id, FREE_TEMPLATE))
  /** A template of `org` whose builds nobody runs (their jobs stay pending), once. */
  let idleTemplate: Promise<{ id: string }> | undefined
  const idle = () => (idleTemplate ??= makeTemplate(srv, admin, {
    organizationId: org.id,
    createdBy: adminId,
    name: unique("tbl-idle-tpl")
  }))
  interface MadeWorkspace {
    readonly id: string
    readonly name: string
    readonly buildId: string
    readonly templateId: string
  }
  /** A workspace of `owner` (default `someone`) in `orgId`, created by the setup owner through the route; built unless `pending`. */
  const routeWorkspace = async (
    options: { pending?: boolean; owner?: string; orgId?: string; body?: Record<string, unknown> } = {}
  ): Promise<MadeWorkspace> => {
    const orgId = options.orgId ?? org.id
    const t = options.pending === true ? await idle() : orgId === org.id ? await built() : await ownTemplate()
    const r = await admin.post(`/organizations/${orgId}/members/${options.owner ?? someone}/workspaces`, {
      name: unique("tbl-ws"),
      template_id: t.id,
      ...options.body
    })
    if (r.status !== 200) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`)
    if (options.pending !== true) await runJobs(srv)
    return { id: r.body.id, name: r.body.name, buildId: r.body.latest_build.id, templateId: t.id }
  }
  /** A template of the default organization (where every role's user is a member), for their own workspaces. */
  let defaultTemplate: Promise<{ id: string }> | undefined
  const ownTemplate = () => (defaultTemplate ??= importTemplate(srv, admin, defaultOrg, FREE_TEMPLATE))
  /** One built workspace of `someone` for the rows that only read. */
  let shared: Promise<MadeWorkspace> | undefined
  const readOnly = () => (shared ??= routeWorkspace())
  const wsCheck = (action: string, w: { id: string }) => ({
    action,
    object: { resource_type: "workspace", resource_id: w.id }
  })
  const createCheck = () => ({
    action: "create",
    object: { resource_type: "workspace", organization_id: org.id, owner_id: someone }
  })
  const READ: Row["expected"] = [200, 404, 404, 200, 404, 200, 404, 404, 404, 200]
  /** A read row on the shared workspace or its first build. */
  const readRow = (route: string, path: (w: MadeWorkspace) => string): Row => ({
    kind: "workspace",
    action: "read",
    route,
    expected: READ,
    attempt: async () => {
      const w = await readOnly()
      return { method: "GET", path: path(w), check: wsCheck("read", w) }
    }
  })
  /** A read row of the shared workspace's agent (its latest build's first). */
  const agentReadRow = (route: string, suffix: string): Row => ({
    kind: "workspace",
    action: "read",
    route,
    expected: READ,
    attempt: async () => {
      const w = await readOnly()
      const agent =
        (await admin.get(`/workspaces/${w.id}`)).body.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
      return { method: "GET", path: `/workspaceagents/${agent.id}/${suffix}`, check: wsCheck("read", w) }
    }
  })
  /** A build of `transition` on a fresh built workspace of `someone`. */
  const buildRow = (
    action: "start" | "stop" | "delete",
    body: Record<string, unknown> = {},
    route = `POST /workspaces/{workspace}/builds (${action})`
  ): Row => ({
    kind: "workspace",
    action,
    route,
    expected: [200, 404, 404, 403, 404, 200, 404, 404, 404, 403],
    attempt: async () => {
      const w = await routeWorkspace()
      return {
        method: "POST",
        path: `/workspaces/${w.id}/builds`,
        body: { transition: action, ...body },
        check: wsCheck(action, w)
      }
    }
  })
  /** A schedule route on a fresh built workspace of `someone` (made with `create` added to its body). */
  const scheduleRow = (
    method: "PUT" | "POST",
    route: string,
    body: () => Record<string, unknown>,
    ok = 204,
    create: Record<string, unknown> = {}
  ): Row => ({
    kind: "workspace",
    action: "update",
    route: `${method} /workspaces/{workspace}/${route}`,
    expected: [ok, 404, 404, 403, 404, ok, 404, 404, 404, 403],
    attempt: async () => {
      const w = await routeWorkspace({ body: create })
      return { method, path: `/workspaces/${w.id}/${route}`, body: body(), check: wsCheck("update", w) }
    }
  })
  const workspaceRouteRows: ReadonlyArray<Row> = [
    {
      // Who may not read the template is told it does not exist (400 on template_id), as the described system does.
      kind: "workspace",
      action: "create",
      route: "POST /organizations/{organization}/members/{user}/workspaces (for someone else)",
      expected: [200, 404, 403, 403, 400, 200, 403, 403, 403, 403],
      attempt: async () => {
        const t = await built()
        return {
          method: "POST",
          path: `/organizations/${org.id}/members/${someone}/workspaces`,
          body: { name: unique("tbl-new-ws"), template_id: t.id },
          check: createCheck()
        }
      }
    },
    {
      kind: "workspace",
      action: "create",
      route: "POST /users/{user}/workspaces (for someone else)",
      expected: [200, 400, 403, 403, 400, 200, 403, 403, 403, 403],
      attempt: async () => {
        const t = await built()
        return {
          method: "POST",
          path: `/users/${someone}/workspaces`,
          body: { name: unique("tbl-new-ws"), template_id: t.id },
          check: createCheck()
        }
      }
    },
    {
      kind: "workspace",
      action: "create",
      route: "POST /users/me/workspaces (their own, in the default organization)",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => {
        const t = await ownTemplate()
        return {
          method: "POST",
          path: "/users/me/workspaces",
          body: { name: unique("tbl-own-ws"), template_id: t.id },
          check: {
            action: "create",
            object: { resource_type: "workspace", organization_id: defaultOrg, owner_id: who.id }
          }
        }
      }
    },
    {
      kind: "workspace",
      action: "create",
      route: "GET /organizations/{organization}/members/me/workspaces/available-users",
      expected: [200, 404, 403, 403, 403, 200, 200, 200, 200, 200],
      attempt: async (who) => ({
        method: "GET",
        path: `/organizations/${org.id}/members/me/workspaces/available-users`,
        check: { action: "create", object: { resource_type: "workspace", organization_id: org.id, owner_id: who.id } }
      })
    },
    readRow("GET /workspaces/{workspace}", (w) => `/workspaces/${w.id}`),
    readRow("GET /users/{user}/workspace/{workspacename}", (w) => `/users/${someone}/workspace/${w.name}`),
    readRow("GET /workspaces/{workspace}/builds", (w) => `/workspaces/${w.id}/builds`),
    readRow("GET /workspacebuilds/{workspacebuild}", (w) => `/workspacebuilds/${w.buildId}`),
    readRow(
      "GET /users/{user}/workspace/{workspacename}/builds/{buildnumber}",
      (w) => `/users/${someone}/workspace/${w.name}/builds/1`
    ),
    readRow("GET /workspacebuilds/{workspacebuild}/logs", (w) => `/workspacebuilds/${w.buildId}/logs`),
    readRow("GET /workspacebuilds/{workspacebuild}/resources", (w) => `/workspacebuilds/${w.buildId}/resources`),
    readRow("GET /workspacebuilds/{workspacebuild}/parameters", (w) => `/workspacebuilds/${w.buildId}/parameters`),
    readRow("GET /workspacebuilds/{workspacebuild}/timings", (w) => `/workspacebuilds/${w.buildId}/timings`),
    readRow("GET /workspaces/{workspace}/timings", (w) => `/workspaces/${w.id}/timings`),
    readRow("GET /workspaces/{workspace}/resolve-autostart", (w) => `/workspaces/${w.id}/resolve-autostart`),
    agentReadRow("GET /workspaceagents/{workspaceagent}/connection", "connection"),
    agentReadRow("GET /workspaceagents/{workspaceagent}/startup-logs", "startup-logs"),
    {
      kind: "template",
      action: "update",
      route: "GET /workspacebuilds/{workspacebuild}/state (template administrators only)",
      expected: [200, 404, 404, 200, 404, 200, 404, 404, 404, 200],
      attempt: async () => {
        const w = await readOnly()
        return {
          method: "GET",
          path: `/workspacebuilds/${w.buildId}/state`,
          check: { action: "update", object: { resource_type: "template", resource_id: w.templateId } }
        }
      }
    },
    {
      kind: "template",
      action: "update",
      route: "PUT /workspacebuilds/{workspacebuild}/state (template administrators only)",
      expected: [204, 404, 404, 204, 404, 204, 404, 404, 404, 204],
      attempt: async () => {
        const w = await readOnly()
        return {
          method: "PUT",
          path: `/workspacebuilds/${w.buildId}/state`,
          body: { state: "" },
          check: { action: "update", object: { resource_type: "template", resource_id: w.templateId } }
        }
      }
    },
    {
      kind: "workspace",
      action: "read",
      route: "GET /workspaces/{workspace} (their own)",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => {
        const w = await routeWorkspace({ owner: who.id, orgId: defaultOrg })
        return { method: "GET", path: `/workspaces/${w.id}`, check: wsCheck("read", w) }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "PATCH /workspaces/{workspace} (rename)",
      expected: [204, 404, 404, 403, 404, 204, 404, 404, 404, 403],
      attempt: async () => {
        const w = await routeWorkspace({ pending: true })
        return {
          method: "PATCH",
          path: `/workspaces/${w.id}`,
          body: { name: unique("tbl-renamed") },
          check: wsCheck("update", w)
        }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "PUT /workspaces/{workspace}/favorite (their own)",
      expected: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const w = await routeWorkspace({ owner: who.id, orgId: defaultOrg })
        return { method: "PUT", path: `/workspaces/${w.id}/favorite`, check: wsCheck("update", w) }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "DELETE /workspaces/{workspace}/favorite (their own)",
      expected: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const w = await routeWorkspace({ owner: who.id, orgId: defaultOrg })
        return { method: "DELETE", path: `/workspaces/${w.id}/favorite`, check: wsCheck("update", w) }
      }
    },
    buildRow("start"),
    buildRow("stop"),
    buildRow("delete"),
    buildRow("delete", { orphan: true }, "POST /workspaces/{workspace}/builds (orphan delete)"),
    // Shared workspaces: `use` starts and stops, `admin` also updates, neither deletes; entries
    // count for members of the workspace's organization only.
    {
      kind: "workspace",
      action: "stop",
      route: "POST /workspaces/{workspace}/builds (stop; shared with the caller: use)",
      expected: [200, 404, 404, 403, 404, 200, 200, 200, 200, 200],
      attempt: async (who) => {
        const w = await routeWorkspace()
        await setWorkspaceAcl(srv, w.id, { [who.id]: "use" })
        return {
          method: "POST",
          path: `/workspaces/${w.id}/builds`,
          body: { transition: "stop" },
          check: wsCheck("stop", w)
        }
      }
    },
    {
      kind: "workspace",
      action: "delete",
      route: "POST /workspaces/{workspace}/builds (delete; shared with the caller: admin)",
      expected: [200, 404, 404, 403, 404, 200, 403, 403, 403, 403],
      attempt: async (who) => {
        const w = await routeWorkspace()
        await setWorkspaceAcl(srv, w.id, { [who.id]: "admin" })
        return {
          method: "POST",
          path: `/workspaces/${w.id}/builds`,
          body: { transition: "delete" },
          check: wsCheck("delete", w)
        }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "PATCH /workspaces/{workspace} (rename; shared with the caller: admin)",
      expected: [204, 404, 404, 403, 404, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const w = await routeWorkspace({ pending: true })
        await setWorkspaceAcl(srv, w.id, { [who.id]: "admin" })
        return {
          method: "PATCH",
          path: `/workspaces/${w.id}`,
          body: { name: unique("tbl-renamed") },
          check: wsCheck("update", w)
        }
      }
    },
    // Schedules: `update` on the workspace (readers who may not update are refused with 403).
    scheduleRow("PUT", "autostart", () => ({ schedule: "CRON_TZ=UTC 30 9 * * 1-5" })),
    scheduleRow("PUT", "ttl", () => ({ ttl_ms: 2 * 3_600_000 })),
    scheduleRow("PUT", "extend", () => ({ deadline: new Date(Date.now() + 2 * 3_600_000).toISOString() }), 200, {
      ttl_ms: 3_600_000
    }),
    scheduleRow("PUT", "autoupdates", () => ({ automatic_updates: "always" })),
    scheduleRow("PUT", "dormant", () => ({ dormant: true }), 200),
    scheduleRow("POST", "usage", () => ({})),
    {
      // Starting a dormant workspace wakes it: `update`, which a `use` share lacks.
      kind: "workspace",
      action: "update",
      route: "POST /workspaces/{workspace}/builds (start a dormant workspace; shared with the caller: use)",
      expected: [200, 404, 404, 403, 404, 200, 403, 403, 403, 403],
      attempt: async (who) => {
        const w = await routeWorkspace()
        await setWorkspaceAcl(srv, w.id, { [who.id]: "use" })
        const d = await admin.put(`/workspaces/${w.id}/dormant`, { dormant: true })
        if (d.status !== 200) throw new Error(`dormant: ${d.status} ${JSON.stringify(d.body)}`)
        return {
          method: "POST",
          path: `/workspaces/${w.id}/builds`,
          body: { transition: "start" },
          check: wsCheck("update", w)
        }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "PUT /workspaces/{workspace}/ttl (shared with the caller: use)",
      expected: [204, 404, 404, 403, 404, 204, 403, 403, 403, 403],
      attempt: async (who) => {
        const w = await routeWorkspace()
        await setWorkspaceAcl(srv, w.id, { [who.id]: "use" })
        return {
          method: "PUT",
          path: `/workspaces/${w.id}/ttl`,
          body: { ttl_ms: 3_600_000 },
          check: wsCheck("update", w)
        }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "PUT /workspaces/{workspace}/autostart (shared with the caller: admin)",
      expected: [204, 404, 404, 403, 404, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const w = await routeWorkspace()
        await setWorkspaceAcl(srv, w.id, { [who.id]: "admin" })
        return {
          method: "PUT",
          path: `/workspaces/${w.id}/autostart`,
          body: { schedule: "" },
          check: wsCheck("update", w)
        }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "PATCH /workspacebuilds/{workspacebuild}/cancel",
      expected: [200, 404, 404, 403, 404, 200, 404, 404, 404, 403],
      attempt: async () => {
        const w = await routeWorkspace({ pending: true })
        return {
          method: "PATCH",
          path: `/workspacebuilds/${w.buildId}/cancel?expect_status=pending`,
          check: wsCheck("update", w)
        }
      }
    }
  ]
  rows = [...rows, ...workspaceRouteRows]

  // The routes that reach an agent over its connection (docs/agents.md, "Dev containers" and
  // "Coordination"): a workspace of `someone` whose external agent is connected for the whole table,
  // answering `containers_request`s as the reference agent does. Who may read the workspace lists
  // and watches its containers; removing or recreating a dev container and coordinating with the
  // agent need `ssh` on the workspace (owners and organization admins here; 404 for the rest, template
  // admins included). The watch and the coordination are WebSockets: 101 when opened.
  const DEVCONTAINER = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"
  let liveAgent: Promise<{ workspace: { id: string }; agentId: string }> | undefined
  const agentSockets: Array<WsResult> = []
  const connectedAgent = () => (liveAgent ??= (async () => {
    const t = await importTemplate(
      srv,
      admin,
      org.id,
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n        external: true\n"
    )
    const r = await admin.post(`/organizations/${org.id}/members/${someone}/workspaces`, {
      name: unique("tbl-agent-ws"),
      template_id: t.id
    })
    if (r.status !== 200) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`)
    await runJobs(srv)
    const built = await admin.get(`/workspaces/${r.body.id}`)
    const agentId: string = built.body.latest_build.resources.flatMap((x: any) => x.agents ?? [])[0].id
    const credentials = await admin.get(`/workspaces/${r.body.id}/external-agent/main/credentials`)
    if (credentials.status !== 200) throw new Error(`credentials: ${JSON.stringify(credentials.body)}`)
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      [SESSION_HEADER]: credentials.body.agent_token
    })
    agentSockets.push(ws)
    ws.socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type !== "containers_request") return
      const answer = (status: number, body?: unknown) =>
        ws.socket.send(JSON.stringify({ type: "containers_response", request_id: m.request_id, status, body }))
      if (m.action === "list") return answer(200, { devcontainers: [], containers: [] })
      if (m.action === "delete") return answer(204)
      return answer(202, { message: "Devcontainer recreation initiated", detail: "Recreation has started." })
    })
    for (let i = 0; i < 200; i++) {
      if ((await admin.get(`/workspaceagents/${agentId}`)).body.status === "connected") break
      await new Promise((done) => setTimeout(done, 20))
    }
    return { workspace: { id: r.body.id as string }, agentId }
  })())
  afterAll(() => {
    for (const ws of agentSockets) ws.socket.close(1000)
  })
  const SSH: Row["expected"] = [0, 404, 404, 404, 404, 0, 404, 404, 404, 404]
  const sshExpected = (ok: number) => SSH.map((s) => (s === 0 ? ok : s)) as unknown as Row["expected"]
  const agentRow = (
    route: string,
    action: "read" | "ssh",
    ok: number,
    attempt: (agentId: string) => Pick<Attempt, "method" | "path" | "websocket">
  ): Row => ({
    kind: "workspace",
    action,
    route,
    expected: action === "read" ? READ.map((s) => (s === 200 ? ok : s)) as unknown as Row["expected"] : sshExpected(ok),
    attempt: async () => {
      const { workspace, agentId } = await connectedAgent()
      return { ...attempt(agentId), check: wsCheck(action, workspace) }
    }
  })
  /** A task of `someone`, once, for the agent's own route. */
  let snapshotTask: Promise<{ id: string }> | undefined
  const agentRouteRows: ReadonlyArray<Row> = [
    agentRow("GET /workspaceagents/{workspaceagent}/containers", "read", 200, (id) => ({
      method: "GET",
      path: `/workspaceagents/${id}/containers`
    })),
    agentRow("GET /workspaceagents/{workspaceagent}/containers/watch", "read", 101, (id) => ({
      method: "GET",
      path: `/workspaceagents/${id}/containers/watch`,
      websocket: true
    })),
    agentRow("DELETE /workspaceagents/{workspaceagent}/containers/devcontainers/{devcontainer}", "ssh", 204, (id) => ({
      method: "DELETE",
      path: `/workspaceagents/${id}/containers/devcontainers/${DEVCONTAINER}`
    })),
    agentRow(
      "POST /workspaceagents/{workspaceagent}/containers/devcontainers/{devcontainer}/recreate",
      "ssh",
      202,
      (id) => ({ method: "POST", path: `/workspaceagents/${id}/containers/devcontainers/${DEVCONTAINER}/recreate` })
    ),
    agentRow("GET /workspaceagents/{workspaceagent}/coordinate", "ssh", 101, (id) => ({
      method: "GET",
      path: `/workspaceagents/${id}/coordinate`,
      websocket: true
    })),
    {
      // The agent's own route: its token authenticates it, never a user's session (401 for every
      // role, as the described system), so no role's permission decides it and authcheck is not asked.
      kind: "task",
      action: "(agent token)",
      route: "POST /workspaceagents/me/tasks/{task}/log-snapshot",
      expected: [401, 401, 401, 401, 401, 401, 401, 401, 401, 401],
      attempt: async () => {
        const t = await (snapshotTask ??= newTask())
        return {
          method: "POST",
          path: `/workspaceagents/me/tasks/${t.id}/log-snapshot?format=agentapi`,
          body: { messages: [{ id: 0, role: "user", content: "Tidy up", time: "2030-01-01T10:00:00Z" }] }
        }
      }
    },
    {
      // The agent's reinitialization events (docs/prebuilds.md): its token only, as above.
      kind: "workspace_agent",
      action: "(agent token)",
      route: "GET /workspaceagents/me/reinit",
      expected: [401, 401, 401, 401, 401, 401, 401, 401, 401, 401],
      attempt: async () => ({ method: "GET", path: "/workspaceagents/me/reinit" })
    }
  ]
  rows = [...rows, ...agentRouteRows]

  // The inbox: every role reads and changes the notifications of its own inbox (a user owns
  // them); another user's answers 404 to everyone (packages/http/test/notifications/Inbox.test.ts),
  // a case the evaluator's roles do not decide (the routes work on the caller's inbox only).
  const inboxCheck = (action: string, who: RoleUser, id?: string) => ({
    action,
    object: { resource_type: "inbox_notification", owner_id: who.id, ...(id === undefined ? {} : { resource_id: id }) }
  })
  const inboxRows: ReadonlyArray<Row> = [
    {
      kind: "inbox_notification",
      action: "read",
      route: "GET /notifications/inbox",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => ({ method: "GET", path: "/notifications/inbox", check: inboxCheck("read", who) })
    },
    {
      kind: "inbox_notification",
      action: "update",
      route: "PUT /notifications/inbox/{id}/read-status",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => {
        const n = await deliver(srv, who.id)
        return {
          method: "PUT",
          path: `/notifications/inbox/${n.id}/read-status`,
          body: { is_read: true },
          check: inboxCheck("update", who, n.id)
        }
      }
    },
    {
      kind: "inbox_notification",
      action: "update",
      route: "PUT /notifications/inbox/mark-all-as-read",
      expected: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
      attempt: async (who) => ({
        method: "PUT",
        path: "/notifications/inbox/mark-all-as-read",
        check: inboxCheck("update", who)
      })
    }
  ]
  rows = [...rows, ...inboxRows]

  // OAuth2 apps: every user reads them (the consent page names them); only owners change them and
  // their secrets (a secret list is hidden: 404). A user's grants to apps are their own to revoke.
  const newApp = async () => {
    const r = await admin.post("/oauth2-provider/apps", {
      name: `app-${Math.random().toString(36).slice(2, 10)}`,
      callback_url: "https://app.example.com/cb"
    })
    return r.body.id as string
  }
  const oauth2Rows: ReadonlyArray<Row> = [
    {
      kind: "oauth2_app",
      action: "read",
      route: "GET /oauth2-provider/apps/{app}",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "GET",
          path: `/oauth2-provider/apps/${id}`,
          check: { action: "read", object: { resource_type: "oauth2_app", resource_id: id } }
        }
      }
    },
    {
      kind: "oauth2_app",
      action: "create",
      route: "POST /oauth2-provider/apps",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: "/oauth2-provider/apps",
        body: { name: `app-${Math.random().toString(36).slice(2, 10)}`, callback_url: "https://app.example.com/cb" },
        check: { action: "create", object: { resource_type: "oauth2_app" } }
      })
    },
    {
      kind: "oauth2_app",
      action: "update",
      route: "PUT /oauth2-provider/apps/{app}",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "PUT",
          path: `/oauth2-provider/apps/${id}`,
          body: { name: "renamed", callback_url: "https://app.example.com/cb" },
          check: { action: "update", object: { resource_type: "oauth2_app", resource_id: id } }
        }
      }
    },
    {
      kind: "oauth2_app",
      action: "delete",
      route: "DELETE /oauth2-provider/apps/{app}",
      expected: [204, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "DELETE",
          path: `/oauth2-provider/apps/${id}`,
          check: { action: "delete", object: { resource_type: "oauth2_app", resource_id: id } }
        }
      }
    },
    {
      kind: "oauth2_app_secret",
      action: "read",
      route: "GET /oauth2-provider/apps/{app}/secrets",
      expected: [200, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "GET",
          path: `/oauth2-provider/apps/${id}/secrets`,
          check: { action: "read", object: { resource_type: "oauth2_app_secret" } }
        }
      }
    },
    {
      kind: "oauth2_app_secret",
      action: "create",
      route: "POST /oauth2-provider/apps/{app}/secrets",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "POST",
          path: `/oauth2-provider/apps/${id}/secrets`,
          check: { action: "create", object: { resource_type: "oauth2_app_secret" } }
        }
      }
    },
    {
      kind: "oauth2_app_secret",
      action: "delete",
      route: "DELETE /oauth2-provider/apps/{app}/secrets/{secret}",
      expected: [204, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        const secret = await admin.post(`/oauth2-provider/apps/${id}/secrets`)
        return {
          method: "DELETE",
          path: `/oauth2-provider/apps/${id}/secrets/${secret.body.id}`,
          check: { action: "delete", object: { resource_type: "oauth2_app_secret" } }
        }
      }
    },
    {
      kind: "deployment_config",
      action: "read",
      route: "GET /oauth2-provider/settings",
      expected: [200, 403, 200, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/oauth2-provider/settings",
        check: { action: "read", object: { resource_type: "deployment_config" } }
      })
    },
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /oauth2-provider/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        // Registration stays open: the other rows and files register clients.
        method: "PUT",
        path: "/oauth2-provider/settings",
        body: { dynamic_client_registration_enabled: true },
        check: { action: "update", object: { resource_type: "deployment_config" } }
      })
    },
    {
      kind: "oauth2_app_code_token",
      action: "delete",
      route: "DELETE /oauth2/tokens?client_id=",
      expected: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const id = await newApp()
        return {
          method: "DELETE",
          path: `/oauth2/tokens?client_id=${id}`,
          check: { action: "delete", object: { resource_type: "oauth2_app_code_token", owner_id: who.id } }
        }
      }
    }
  ]
  rows = [...rows, ...oauth2Rows]
  // External auth: every user reads their own links (their user's read_personal).
  const externalAuthRows: ReadonlyArray<Row> = [
    {
      kind: "user",
      action: "read_personal",
      route: "GET /external-auth",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => ({
        method: "GET",
        path: "/external-auth",
        check: { action: "read_personal", object: { resource_type: "user", owner_id: who.id, resource_id: who.id } }
      })
    }
  ]
  rows = [...rows, ...externalAuthRows]
  // Appearance: owners change it (deployment_config update); every user reads it. Licenses are
  // tried in enterprise/Enterprise.test.ts, on a server with a license key.
  const enterpriseRows: ReadonlyArray<Row> = [
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /appearance",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PUT",
        path: "/appearance",
        body: { application_name: "Table" },
        check: { action: "update", object: { resource_type: "deployment_config" } }
      })
    }
  ]
  rows = [...rows, ...enterpriseRows]

  // Insights: the deployment DAUs read the deployment config; template reports need view_insights
  // on templates, deployment-wide (no template_ids) or on each template named; status counts read users.
  // The organization auditor views the insights of its organization's templates, as in the described system.
  const insightsRange = () => {
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")
    return `start_time=${iso(now - (now % 86_400_000) - 86_400_000)}&end_time=${
      iso(now - (now % 3_600_000) + 3_600_000)
    }`
  }
  const insightsRows: ReadonlyArray<Row> = [
    {
      kind: "deployment_config",
      action: "read",
      route: "GET /insights/daus",
      expected: [200, 403, 200, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/insights/daus?tz_offset=0",
        check: { action: "read", object: { resource_type: "deployment_config" } }
      })
    },
    {
      kind: "template",
      action: "view_insights",
      route: "GET /insights/user-activity (every template)",
      expected: [200, 404, 200, 200, 404, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/insights/user-activity?${insightsRange()}`,
        check: { action: "view_insights", object: { resource_type: "template" } }
      })
    },
    {
      kind: "template",
      action: "view_insights",
      route: "GET /insights/templates (one template)",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => {
        const t = await newTemplate()
        return {
          method: "GET",
          path: `/insights/templates?${insightsRange()}&interval=day&template_ids=${t.id}`,
          check: templateCheck("view_insights", t)
        }
      }
    },
    {
      kind: "template",
      action: "view_insights",
      route: "GET /insights/user-latency (one template)",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => {
        const t = await newTemplate()
        return {
          method: "GET",
          path: `/insights/user-latency?${insightsRange()}&template_ids=${t.id}`,
          check: templateCheck("view_insights", t)
        }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/{template}/daus",
      expected: [200, 404, 200, 200, 404, 200, 200, 200, 200, 200],
      attempt: async () => {
        const t = await newTemplate()
        return { method: "GET", path: `/templates/${t.id}/daus`, check: templateCheck("read", t) }
      }
    },
    {
      kind: "user",
      action: "read",
      route: "GET /insights/user-status-counts",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: "/insights/user-status-counts?tz_offset=0",
        check: { action: "read", object: { resource_type: "user" } }
      })
    }
  ]
  rows = [...rows, ...insightsRows]
  // Workspace proxies: every user reads them and the regions (the dashboard picks a region); only
  // owners make, change and delete them.
  const newProxy = async () => {
    const r = await admin.post("/workspaceproxies", { name: `px-${Math.random().toString(36).slice(2, 10)}` })
    return r.body.proxy.id as string
  }
  const proxyCheck = (action: string, id?: string) => ({
    action,
    object: { resource_type: "workspace_proxy", ...(id === undefined ? {} : { resource_id: id }) }
  })
  const proxyRows: ReadonlyArray<Row> = [
    {
      kind: "workspace_proxy",
      action: "read",
      route: "GET /workspaceproxies",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({ method: "GET", path: "/workspaceproxies", check: proxyCheck("read") })
    },
    {
      kind: "workspace_proxy",
      action: "read",
      route: "GET /regions",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({ method: "GET", path: "/regions", check: proxyCheck("read") })
    },
    {
      kind: "workspace_proxy",
      action: "read",
      route: "GET /workspaceproxies/{workspaceproxy}",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => {
        const id = await newProxy()
        return { method: "GET", path: `/workspaceproxies/${id}`, check: proxyCheck("read", id) }
      }
    },
    {
      kind: "workspace_proxy",
      action: "create",
      route: "POST /workspaceproxies",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: "/workspaceproxies",
        body: { name: `px-${Math.random().toString(36).slice(2, 10)}` },
        check: proxyCheck("create")
      })
    },
    {
      kind: "workspace_proxy",
      action: "update",
      route: "PATCH /workspaceproxies/{workspaceproxy}",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newProxy()
        return {
          method: "PATCH",
          path: `/workspaceproxies/${id}`,
          body: { display_name: "Renamed" },
          check: proxyCheck("update", id)
        }
      }
    },
    {
      kind: "workspace_proxy",
      action: "delete",
      route: "DELETE /workspaceproxies/{workspaceproxy}",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newProxy()
        return { method: "DELETE", path: `/workspaceproxies/${id}`, check: proxyCheck("delete", id) }
      }
    }
  ]
  rows = [...rows, ...proxyRows]
  // Provisioner keys: made and deleted with `provisioner_daemon` rights in the organization.
  const newKey = async () => {
    const name = `key-${Math.random().toString(36).slice(2, 10)}`
    const r = await admin.post(`/organizations/${org.id}/provisionerkeys`, { name })
    if (r.status !== 201) throw new Error(`key: ${r.status} ${JSON.stringify(r.body)}`)
    return name
  }
  const keyCheck = (action: string) => ({
    action,
    object: { resource_type: "provisioner_daemon", organization_id: org.id }
  })
  const provisionerKeyRows: ReadonlyArray<Row> = [
    {
      kind: "provisioner_daemon",
      action: "create",
      route: "POST /organizations/{organization}/provisionerkeys",
      expected: [201, 404, 403, 201, 403, 201, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: `/organizations/${org.id}/provisionerkeys`,
        body: { name: `key-${Math.random().toString(36).slice(2, 10)}` },
        check: keyCheck("create")
      })
    },
    {
      // Every user reads daemons and so the keys' names and tags (never their secrets), as in the
      // described system; the default organization, which all are in.
      kind: "provisioner_daemon",
      action: "read",
      route: "GET /organizations/{organization}/provisionerkeys",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${defaultOrg}/provisionerkeys`,
        check: { action: "read", object: { resource_type: "provisioner_daemon", organization_id: defaultOrg } }
      })
    },
    {
      kind: "provisioner_daemon",
      action: "read",
      route: "GET /organizations/{organization}/provisionerkeys/daemons",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${defaultOrg}/provisionerkeys/daemons`,
        check: { action: "read", object: { resource_type: "provisioner_daemon", organization_id: defaultOrg } }
      })
    },
    {
      kind: "provisioner_daemon",
      action: "delete",
      route: "DELETE /organizations/{organization}/provisionerkeys/{provisionerkey}",
      expected: [204, 404, 403, 204, 403, 204, 403, 403, 403, 403],
      attempt: async () => {
        const name = await newKey()
        return { method: "DELETE", path: `/organizations/${org.id}/provisionerkeys/${name}`, check: keyCheck("delete") }
      }
    }
  ]
  rows = [...rows, ...provisionerKeyRows]

  // The list answers each role the workspaces it may read: the same as authcheck's `read`.
  describe("GET /workspaces shows each role what it may read", () => {
    ROLES.forEach((role, index) => {
      it(`${role}: ${READ[index] === 200 ? "sees" : "does not see"} someone's workspace`, async () => {
        const who = users.get(role)!
        const w = await readOnly()
        const r = await who.client.get(`/workspaces?q=${encodeURIComponent(`name:${w.name}`)}`)
        expect(r.status, JSON.stringify(r.body)).toBe(200)
        const seen = (r.body.workspaces as Array<{ id: string }>).some((x) => x.id === w.id)
        const answer = await who.client.post("/authcheck", { checks: { read: wsCheck("read", w) } })
        expect(seen).toBe(READ[index] === 200)
        expect(answer.body.read).toBe(seen)
        expect(r.body.count).toBe(r.body.workspaces.length)
      })
    })
  })

  it("covers every role, and every resource kind the issue names", () => {
    const kinds = new Set(rows.map((r) => r.kind))
    for (
      const kind of [
        "user",
        "organization",
        "organization_member",
        "assign_role",
        "assign_org_role",
        "api_key",
        "audit_log",
        "group",
        "template",
        "workspace"
      ]
    ) {
      expect(kinds.has(kind), kind).toBe(true)
    }
    for (const row of rows) expect(row.expected).toHaveLength(ROLES.length)
  })

  for (const row of rows) {
    describe(`${row.kind} ${row.action} (${row.route})`, () => {
      ROLES.forEach((role, index) => {
        const status = row.expected[index]!
        it(`${role}: ${status < 300 ? "allowed" : "refused"} (${status})`, async () => {
          const who = users.get(role)!
          const attempt = await row.attempt(who)
          const answer = attempt.check === undefined
            ? undefined
            : await who.client.post("/authcheck", { checks: { case: attempt.check } })
          if (answer !== undefined) expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          const r = attempt.websocket === true
            ? await upgradeStatus(srv.wsUrl, who.client, attempt.path)
            : attempt.stream === true
            ? await streamStatus(who.client, attempt.path)
            : attempt.raw === undefined
            ? await who.client.request(attempt.method, attempt.path, attempt.body)
            : await who.client.request(attempt.method, attempt.path, undefined, {
              raw: attempt.raw.text,
              headers: { "content-type": attempt.raw.contentType }
            })
          expect(r.status, `${attempt.method} ${attempt.path} -> ${JSON.stringify(r.body)}`).toBe(status)
          if (answer !== undefined) {
            expect(answer.body.case, `authcheck ${JSON.stringify(attempt.check)}`).toBe(status < 300)
          }
        })
      })
    })
  }
})
