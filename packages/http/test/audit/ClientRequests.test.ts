/**
 * The dashboard client's requests to the audit and connection log routes (packages/http/src/audit/); see
 * ../clientRequests.ts.
 */
import { describe, expect, it } from "vitest"
import { dashboardServer, expectAnswered } from "../clientRequests.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("audit", () => {
    it("getAuditLogs and getConnectionLogs: a page, with and without a search", async () => {
      expect((await ctx.owner.get("/audit?limit=25&offset=0")).status).toBe(200)
      const searched = `/audit?limit=25&offset=0&q=${encodeURIComponent("resource_type:user")}`
      expect((await ctx.owner.get(searched)).status).toBe(200)
      expect((await ctx.owner.get("/connectionlog?limit=25&offset=0")).status).toBe(200)
    })

    it("an empty query value is not given", async () => {
      await expectAnswered(ctx.owner, ["/audit?limit=25&offset=&q=", "/connectionlog?limit=25&offset=&q="])
    })
  })
})
