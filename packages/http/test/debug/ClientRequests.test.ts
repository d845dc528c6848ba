/** The dashboard client's requests to the health routes (packages/http/src/debug/); see ../clientRequests.ts. */
import { describe, expect, it } from "vitest"
import { dashboardServer } from "../clientRequests.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("health", () => {
    it("getHealth: the health page's report, cached and forced", async () => {
      for (const path of ["/debug/health?force=false", "/debug/health?force=true"]) {
        expect((await ctx.owner.get(path)).status, path).toBe(200)
      }
    })

    it("getHealthSettings and updateHealthSettings: the health page's dismiss and restore", async () => {
      const current = await ctx.owner.get("/debug/health/settings")
      expect(current.status).toBe(200)
      const dismissed = await ctx.owner.put("/debug/health/settings", {
        dismissed_healthchecks: [...current.body.dismissed_healthchecks, "AccessURL"]
      })
      expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200)
      expect(
        (await ctx.owner.put("/debug/health/settings", { dismissed_healthchecks: current.body.dismissed_healthchecks }))
          .status
      ).toBe(200)
    })
  })
})
