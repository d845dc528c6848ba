/** The access table's rows of the insights routes (packages/http/src/insights/), run by ../accessTable.ts. */
import type { AreaRows } from "../accessTable.js"
import { newTemplate, templateCheck } from "../templates/accessFixtures.js"

export const accessRows: AreaRows = (tbl) => {
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
  return [
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
        const t = await newTemplate(tbl)
        return {
          method: "GET",
          path: `/insights/templates?${insightsRange()}&interval=day&template_ids=${t.id}`,
          check: templateCheck(tbl, "view_insights", t)
        }
      }
    },
    {
      kind: "template",
      action: "view_insights",
      route: "GET /insights/user-latency (one template)",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => {
        const t = await newTemplate(tbl)
        return {
          method: "GET",
          path: `/insights/user-latency?${insightsRange()}&template_ids=${t.id}`,
          check: templateCheck(tbl, "view_insights", t)
        }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/{template}/daus",
      expected: [200, 404, 200, 200, 404, 200, 200, 200, 200, 200],
      attempt: async () => {
        const t = await newTemplate(tbl)
        return { method: "GET", path: `/templates/${t.id}/daus`, check: templateCheck(tbl, "read", t) }
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
}
