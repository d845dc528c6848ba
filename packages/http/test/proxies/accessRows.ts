/**
 * The access table's rows of the workspace proxies and regions routes (packages/http/src/proxies/), run by
 * ../accessTable.ts.
 */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = (tbl) => {
  // Workspace proxies: every user reads them and the regions (the dashboard picks a region); only
  // owners make, change and delete them.
  const newProxy = async () => {
    const r = await tbl.admin.post("/workspaceproxies", { name: `px-${Math.random().toString(36).slice(2, 10)}` })
    return r.body.proxy.id as string
  }
  const proxyCheck = (action: string, id?: string) => ({
    action,
    object: { resource_type: "workspace_proxy", ...(id === undefined ? {} : { resource_id: id }) }
  })
  return [
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
}
