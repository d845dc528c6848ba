/**
 * The response schema table's rows of the insights endpoints (packages/http/src/insights/), run by
 * ../responseSchemas.ts.
 */
import { AgentReportRepo, InsightsRollup } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { perWorld, type Row, row } from "../responseSchemas.js"

/** The insights rows: bob's workspace reports a few minutes of use, a rollup pass folds them in, the reports read them. */

const HOUR = 3_600_000
const DAY = 24 * HOUR
const seed = perWorld(async (w) => {
  const now = Date.now()
  for (let i = 0; i < 5; i++) {
    await w.srv.run(Effect.flatMap(AgentReportRepo, (r) =>
      r.insertStats(randomUUID(), w.workspace.id, {
        connections_by_proto: {},
        connection_count: 1,
        connection_median_latency_ms: 12,
        rx_packets: 0,
        rx_bytes: 0,
        tx_packets: 0,
        tx_bytes: 0,
        session_count_vscode: 1,
        session_count_jetbrains: 0,
        session_count_reconnecting_pty: 0,
        session_count_ssh: 1
      }, new Date(now - (i + 1) * 60_000))))
  }
  await w.srv.run(Effect.flatMap(InsightsRollup, (r) => r.pass()))
})
const range = () => {
  const now = Date.now()
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")
  return `start_time=${iso(now - (now % DAY) - 7 * DAY)}&end_time=${iso(now - (now % HOUR) + HOUR)}`
}
export const responseRows: ReadonlyArray<Row> = [
  row("insights.daus", "GET /api/v2/insights/daus", 200, "DAUsResponse", async (w) => {
    await seed(w)
    return [await w.owner.get("/insights/daus"), await w.owner.get("/insights/daus?tz_offset=-3")]
  }),
  row("insights.templates", "GET /api/v2/insights/templates", 200, "TemplateInsightsResponse", async (w) => {
    await seed(w)
    const now = Date.now()
    const midnight = new Date(now - (now % DAY)).toISOString().replace(/\.\d{3}Z$/, "Z")
    const weeks = `start_time=${
      new Date(now - (now % DAY) - 14 * DAY).toISOString().replace(/\.\d{3}Z$/, "Z")
    }&end_time=${midnight}`
    return [
      await w.owner.get(`/insights/templates?${range()}&interval=day`),
      await w.owner.get(`/insights/templates?${weeks}&interval=week`)
    ]
  }),
  row(
    "insights.userActivity",
    "GET /api/v2/insights/user-activity",
    200,
    "UserActivityInsightsResponse",
    async (w) => {
      await seed(w)
      return w.owner.get(`/insights/user-activity?${range()}`)
    }
  ),
  row("insights.userLatency", "GET /api/v2/insights/user-latency", 200, "UserLatencyInsightsResponse", async (w) => {
    await seed(w)
    return w.owner.get(`/insights/user-latency?${range()}&template_ids=${w.template.id}`)
  }),
  row(
    "insights.userStatusCounts",
    "GET /api/v2/insights/user-status-counts",
    200,
    "GetUserStatusCountsResponse",
    async (w) => {
      await seed(w)
      return [
        await w.owner.get("/insights/user-status-counts"),
        await w.owner.get("/insights/user-status-counts?timezone=America/New_York")
      ]
    }
  ),
  row("insights.templateDaus", "GET /api/v2/templates/:template/daus", 200, "DAUsResponse", async (w) => {
    await seed(w)
    return w.owner.get(`/templates/${w.template.id}/daus?tz_offset=2`)
  })
]
