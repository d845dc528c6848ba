/**
 * The access table's rows of the workspaces, builds, sharing, port sharing and schedules routes
 * (packages/http/src/workspaces/), run by ../accessTable.ts.
 */
import type { AreaRows, Row } from "../accessTable.js"
import { makeTemplate } from "../templates/fixtures.js"
import { type MadeWorkspace, READ, routeWorkspaces, wsCheck } from "./accessFixtures.js"
import { portShareTemplate, seedWorkspace } from "./portShareFixtures.js"
import { makeWorkspace, setWorkspaceAcl } from "./sharingFixtures.js"

export const accessRows: AreaRows = (tbl) => {
  const { unique } = tbl
  /** The template workspaces of `org` are made from (once). */
  let workspaceTemplate: Promise<{ id: string }> | undefined
  /** A workspace of `someone` in `org`, with the sharing list given (written directly: the route would refuse non-members). */
  const newWorkspace = async (
    userAcl: Record<string, "admin" | "use"> = {},
    groupAcl: Record<string, "admin" | "use"> = {}
  ) => {
    workspaceTemplate ??= makeTemplate(tbl.srv, tbl.admin, {
      organizationId: tbl.org.id,
      createdBy: tbl.adminId,
      name: unique("tbl-ws-tpl")
    })
    const t = await workspaceTemplate
    return makeWorkspace(tbl.srv, {
      organizationId: tbl.org.id,
      ownerId: tbl.someone,
      templateId: t.id,
      userAcl,
      groupAcl
    })
  }
  /** A workspace of `someone` in `org` with a build (watching reads it whole). */
  const builtWorkspace = async (userAcl: Record<string, "admin" | "use"> = {}) => {
    portShareTpl ??= portShareTemplate(tbl.srv, tbl.admin, {
      organizationId: tbl.org.id,
      createdBy: tbl.adminId,
      maxLevel: "public"
    })
    return seedWorkspace(tbl.srv, {
      ownerId: tbl.someone,
      organizationId: tbl.org.id,
      template: await portShareTpl,
      userAcl
    })
  }
  const workspaceCheck = (action: string, w: { id: string }) => ({
    action,
    object: { resource_type: "workspace", resource_id: w.id }
  })
  const aclPath = (w: { id: string }) => `/workspaces/${w.id}/acl`
  /** A change of the list that changes nothing: removing an entry that is not there. */
  const noopChange = () => ({ group_roles: { [tbl.org.id]: "" } })

  // Workspaces of another user: the roles give reading to template admins and organization
  // template admins, sharing to owners and organization admins; the workspace's own list gives
  // its entries `use` (reading, no sharing) or `admin` (also sharing), to members of the
  // workspace's organization only: site roles outside `org` get nothing from an entry.
  // Port sharing: reading needs `read` on the workspace, sharing and unsharing `update` (site
  // template admins and organization template admins read every workspace of their scope).
  /** A workspace of `someone` in `org`, with agent `main`, on a template whose ports may be shared publicly. */
  let portShareTpl: Promise<{ id: string; active_version_id: string }> | undefined
  const portShareWorkspace = async () => {
    portShareTpl ??= portShareTemplate(tbl.srv, tbl.admin, {
      organizationId: tbl.org.id,
      createdBy: tbl.adminId,
      maxLevel: "public"
    })
    return seedWorkspace(tbl.srv, { ownerId: tbl.someone, organizationId: tbl.org.id, template: await portShareTpl })
  }
  const portShareCheck = (action: string, ws: { id: string }) => ({
    action,
    object: { resource_type: "workspace", resource_id: ws.id, owner_id: tbl.someone, organization_id: tbl.org.id }
  })
  // Workspaces and builds, through their own routes: workspaces of `someone` (a plain member of
  // `org`) made by the setup owner from a template Everyone may use. Owners and organization
  // admins may do everything; template admins (site or of `org`) read them, their builds and the
  // provisioner state, and change nothing; every other role sees none of them (404).
  const { built, ownTemplate, routeWorkspace, readOnly } = routeWorkspaces(tbl)
  const createCheck = () => ({
    action: "create",
    object: { resource_type: "workspace", organization_id: tbl.org.id, owner_id: tbl.someone }
  })
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
  return [
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
        const w = await newWorkspace({}, { [tbl.org.id]: "admin" })
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
    },
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
      // Reading a workspace's moves is reading the workspace; asking for one needs more (Moves.test.ts).
      kind: "workspace",
      action: "read",
      route: "GET /workspaces/{workspace}/moves",
      expected: [200, 404, 404, 200, 404, 200, 404, 404, 404, 200],
      attempt: async () => {
        const ws = await newWorkspace()
        return { method: "GET", path: `/workspaces/${ws.id}/moves` }
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
        const shared = await tbl.admin.post(`/workspaces/${ws.id}/port-share`, {
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
    },
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
          path: `/organizations/${tbl.org.id}/members/${tbl.someone}/workspaces`,
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
          path: `/users/${tbl.someone}/workspaces`,
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
            object: { resource_type: "workspace", organization_id: tbl.defaultOrg, owner_id: who.id }
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
        path: `/organizations/${tbl.org.id}/members/me/workspaces/available-users`,
        check: {
          action: "create",
          object: { resource_type: "workspace", organization_id: tbl.org.id, owner_id: who.id }
        }
      })
    },
    readRow("GET /workspaces/{workspace}", (w) => `/workspaces/${w.id}`),
    readRow("GET /users/{user}/workspace/{workspacename}", (w) => `/users/${tbl.someone}/workspace/${w.name}`),
    readRow("GET /workspaces/{workspace}/builds", (w) => `/workspaces/${w.id}/builds`),
    readRow("GET /workspacebuilds/{workspacebuild}", (w) => `/workspacebuilds/${w.buildId}`),
    readRow(
      "GET /users/{user}/workspace/{workspacename}/builds/{buildnumber}",
      (w) => `/users/${tbl.someone}/workspace/${w.name}/builds/1`
    ),
    readRow("GET /workspacebuilds/{workspacebuild}/logs", (w) => `/workspacebuilds/${w.buildId}/logs`),
    readRow("GET /workspacebuilds/{workspacebuild}/resources", (w) => `/workspacebuilds/${w.buildId}/resources`),
    readRow("GET /workspacebuilds/{workspacebuild}/parameters", (w) => `/workspacebuilds/${w.buildId}/parameters`),
    readRow("GET /workspacebuilds/{workspacebuild}/timings", (w) => `/workspacebuilds/${w.buildId}/timings`),
    readRow("GET /workspaces/{workspace}/timings", (w) => `/workspaces/${w.id}/timings`),
    readRow("GET /workspaces/{workspace}/resolve-autostart", (w) => `/workspaces/${w.id}/resolve-autostart`),
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
        const w = await routeWorkspace({ owner: who.id, orgId: tbl.defaultOrg })
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
        const w = await routeWorkspace({ owner: who.id, orgId: tbl.defaultOrg })
        return { method: "PUT", path: `/workspaces/${w.id}/favorite`, check: wsCheck("update", w) }
      }
    },
    {
      kind: "workspace",
      action: "update",
      route: "DELETE /workspaces/{workspace}/favorite (their own)",
      expected: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const w = await routeWorkspace({ owner: who.id, orgId: tbl.defaultOrg })
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
        await setWorkspaceAcl(tbl.srv, w.id, { [who.id]: "use" })
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
        await setWorkspaceAcl(tbl.srv, w.id, { [who.id]: "admin" })
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
        await setWorkspaceAcl(tbl.srv, w.id, { [who.id]: "admin" })
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
        await setWorkspaceAcl(tbl.srv, w.id, { [who.id]: "use" })
        const d = await tbl.admin.put(`/workspaces/${w.id}/dormant`, { dormant: true })
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
        await setWorkspaceAcl(tbl.srv, w.id, { [who.id]: "use" })
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
        await setWorkspaceAcl(tbl.srv, w.id, { [who.id]: "admin" })
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
}
