/** The dashboard client's requests to the insights routes (packages/http/src/insights/); see ../clientRequests.ts. */
import { describe, expect, it } from "vitest"
import { dashboardServer } from "../clientRequests.js"
import { portShareTemplate } from "../workspaces/portShareFixtures.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("insights", () => {
    it("the insights pages' requests: DAUs, template insights, user activity and latency, status counts", async () => {
      const template = await portShareTemplate(ctx.srv, ctx.owner, {
        organizationId: ctx.orgId,
        createdBy: ctx.ownerId
      })
      const now = Date.now()
      const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")
      const day = 86_400_000
      const range = { start_time: iso(now - (now % day) - 7 * day), end_time: iso(now - (now % 3_600_000) + 3_600_000) }
      // getDeploymentDAUs and getInsightsUserStatusCounts send Math.trunc(getTimezoneOffset() / 60) as they are.
      for (
        const path of [
          "/insights/daus?tz_offset=0",
          "/insights/daus?tz_offset=8",
          "/insights/daus?tz_offset=-5",
          `/templates/${template.id}/daus`,
          "/insights/user-status-counts?tz_offset=0",
          "/insights/user-status-counts?tz_offset=-2",
          // getInsightsUserLatency, getInsightsUserActivity, getInsightsTemplate: URLSearchParams of their filters.
          `/insights/user-latency?${new URLSearchParams({ ...range, template_ids: template.id })}`,
          `/insights/user-activity?${new URLSearchParams({ ...range, template_ids: template.id })}`,
          `/insights/user-activity?${new URLSearchParams({ ...range, template_ids: "" })}`,
          `/insights/templates?${new URLSearchParams({ ...range, template_ids: template.id, interval: "day" })}`,
          `/insights/templates?${new URLSearchParams({ ...range, template_ids: "", interval: "day" })}`
        ]
      ) {
        const r = await ctx.owner.get(path)
        expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200)
      }
    })
  })
})
