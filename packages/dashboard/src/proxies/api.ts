/** Workspace proxies (administrators): `/workspaceproxies`. */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type WorkspaceProxy = Schemas["WorkspaceProxy"]

const proxy = (id: string) => ({ params: { path: { workspaceproxy: id } } })

export const proxiesApi = {
  list: async () => (await unwrap(client.GET("/api/v2/workspaceproxies"))).regions,
  create: (body: { name: string; display_name: string; icon: string }) =>
    unwrap(client.POST("/api/v2/workspaceproxies", { body })),
  /** A new token for the proxy (the old one stops working): answered once. */
  regenerateToken: (p: WorkspaceProxy) =>
    unwrap(
      client.PATCH("/api/v2/workspaceproxies/{workspaceproxy}", {
        ...proxy(p.id),
        body: { id: p.id, name: p.name, display_name: p.display_name, icon: p.icon_url, regenerate_token: true }
      })
    ),
  remove: (id: string) => unwrap(client.DELETE("/api/v2/workspaceproxies/{workspaceproxy}", proxy(id)))
}
