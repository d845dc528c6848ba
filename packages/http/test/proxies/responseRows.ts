/**
 * The response schema table's rows of the workspace proxy and region endpoints (packages/http/src/proxies/), run
 * by ../responseSchemas.ts.
 */
import { type Row, row, type World } from "../responseSchemas.js"
import { uniqueName } from "../support.js"

/** A workspace proxy of the owner's, with its token. */
const newProxy = async (w: World) => {
  const r = await w.owner.post("/workspaceproxies", {
    name: uniqueName("px"),
    display_name: "Proxy",
    icon: "/emojis/1f30d.png"
  })
  if (r.status !== 201) throw new Error(`proxy: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body as { proxy: { id: string; name: string }; proxy_token: string }
}
const proxyRequest = (w: World, path: string, token: string, body: unknown) =>
  w.srv.anonymous.request("POST", path, body, { headers: { "Coder-External-Proxy-Session-Token": token } })
const REPLICA_ID = "11111111-2222-4333-8444-555555555555"

export const responseRows: ReadonlyArray<Row> = [
  // proxies: workspace proxies, regions and the proxies' registration (docs/workspace-proxies.md)
  row("workspaceProxies.list", "GET /api/v2/workspaceproxies", 200, "RegionsResponseWorkspaceProxy", async (w) => {
    const made = await newProxy(w)
    const gone = await newProxy(w)
    await w.owner.delete(`/workspaceproxies/${gone.proxy.id}`)
    await proxyRequest(w, "/workspaceproxies/me/register", made.proxy_token, {
      access_url: w.srv.url,
      replica_id: REPLICA_ID
    })
    return w.bob.client.get("/workspaceproxies")
  }),
  row(
    "workspaceProxies.create",
    "POST /api/v2/workspaceproxies",
    201,
    "UpdateWorkspaceProxyResponse",
    async (w) => w.owner.post("/workspaceproxies", { name: uniqueName("px") })
  ),
  row("workspaceProxies.get", "GET /api/v2/workspaceproxies/:workspaceproxy", 200, "WorkspaceProxy", async (w) => {
    const made = await newProxy(w)
    const gone = await newProxy(w)
    await w.owner.delete(`/workspaceproxies/${gone.proxy.id}`)
    return [
      await w.bob.client.get(`/workspaceproxies/${made.proxy.id}`),
      await w.bob.client.get("/workspaceproxies/primary"),
      await w.owner.get(`/workspaceproxies/${gone.proxy.id}`)
    ]
  }),
  row(
    "workspaceProxies.update",
    "PATCH /api/v2/workspaceproxies/:workspaceproxy",
    200,
    "UpdateWorkspaceProxyResponse",
    async (w) => {
      const made = await newProxy(w)
      return [
        await w.owner.patch(`/workspaceproxies/${made.proxy.id}`, { display_name: "Renamed", regenerate_token: true }),
        await w.owner.patch("/workspaceproxies/primary", { icon: "/emojis/1f3e0.png" })
      ]
    }
  ),
  row("workspaceProxies.delete", "DELETE /api/v2/workspaceproxies/:workspaceproxy", 200, "Response", async (w) => {
    const made = await newProxy(w)
    return w.owner.delete(`/workspaceproxies/${made.proxy.id}`)
  }),
  row("workspaceProxies.regions", "GET /api/v2/regions", 200, "RegionsResponseRegion", async (w) => {
    await newProxy(w)
    return w.bob.client.get("/regions")
  }),
  row(
    "workspaceProxyMe.register",
    "POST /api/v2/workspaceproxies/me/register",
    201,
    "RegisterWorkspaceProxyResponse",
    async (w) => {
      const made = await newProxy(w)
      return proxyRequest(w, "/workspaceproxies/me/register", made.proxy_token, {
        access_url: w.srv.url,
        wildcard_hostname: "*.px.example.com",
        derp_enabled: true,
        replica_id: REPLICA_ID,
        version: "v2.0.0"
      })
    }
  ),
  row("workspaceProxyMe.deregister", "POST /api/v2/workspaceproxies/me/deregister", 204, "none", async (w) => {
    const made = await newProxy(w)
    return proxyRequest(w, "/workspaceproxies/me/deregister", made.proxy_token, { replica_id: REPLICA_ID })
  })
]
