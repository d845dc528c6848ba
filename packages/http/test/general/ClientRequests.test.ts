/**
 * The dashboard client's requests to the deployment and general routes (packages/http/src/general/); see
 * ../clientRequests.ts.
 */
import { describe, expect, it } from "vitest"
import { dashboardServer } from "../clientRequests.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("deployment and general", () => {
    it("the deployment and build reads", async () => {
      for (
        const path of [
          "/buildinfo",
          "/updatecheck",
          "/deployment/config",
          "/deployment/ssh",
          "/deployment/stats",
          "/experiments",
          "/experiments/available"
        ]
      ) {
        expect((await ctx.owner.get(path)).status, path).toBe(200)
      }
    })

    it("a CSP report, as a browser sends it", async () => {
      const r = await ctx.member.client.request("POST", "/csp/reports", undefined, {
        raw: JSON.stringify({
          "csp-report": { "document-uri": "http://localhost/", "violated-directive": "img-src", "blocked-uri": "data" }
        }),
        headers: { "content-type": "application/csp-report" }
      })
      expect(r.status).toBe(200)
    })
  })
})
