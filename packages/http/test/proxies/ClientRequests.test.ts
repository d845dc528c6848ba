/**
 * The dashboard client's requests to the workspace proxies routes (packages/http/src/proxies/); see
 * ../clientRequests.ts.
 */
import { describe, expect, it } from "vitest"
import { dashboardServer } from "../clientRequests.js"
import { uniqueName } from "../support.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("workspace proxies", () => {
    it("getWorkspaceProxyRegions, getWorkspaceProxies and createWorkspaceProxy, as the proxy pages send them", async () => {
      const regions = await ctx.member.client.get("/regions")
      expect(regions.status).toBe(200)
      expect(regions.body.regions[0]).toMatchObject({ name: "primary", healthy: true })
      const created = await ctx.owner.post("/workspaceproxies", {
        name: uniqueName("dash-px"),
        display_name: "Dash",
        icon: "/emojis/1f30d.png"
      })
      expect(created.status).toBe(201)
      expect(created.body.proxy_token).toMatch(/^[0-9a-f-]{36}:[0-9a-f]{64}$/)
      const proxies = await ctx.member.client.get("/workspaceproxies")
      expect(proxies.status).toBe(200)
      expect(proxies.body.regions.map((p: { id: string }) => p.id)).toContain(created.body.proxy.id)
    })
  })
})
