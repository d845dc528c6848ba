import { useQuery } from "@tanstack/react-query"
import { useMemo } from "react"
import { ErrorMessage } from "../ui/Form.tsx"
import { lastDays } from "./api.ts"
import { Chart } from "./Chart.tsx"
import { dausQuery, templateInsightsQuery, userActivityQuery, userLatencyQuery } from "./queries.ts"
import "./styles.css"

const DAYS = 7
const day = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" })
/** "2026-11-25" (a calendar date) as "Nov 25", without a time zone shift. */
const dateLabel = (date: string) => day.format(new Date(`${date.slice(0, 10)}T12:00:00`))
const minutes = (seconds: number) => Math.round(seconds / 6) / 10

/**
 * The deployment's insights: daily active users (`GET /insights/daus`), template usage (`GET
 * /insights/templates`: active users per day), user activity (`GET /insights/user-activity`:
 * minutes per user) and latency (`GET /insights/user-latency`: p50 and p95 per user), over the
 * last seven days. Each is a chart with its figures in a table.
 */
export const InsightsPage = () => {
  const range = useMemo(() => lastDays(DAYS), [])
  const daus = useQuery(dausQuery)
  const templates = useQuery(templateInsightsQuery(range))
  const activity = useQuery(userActivityQuery(range))
  const latency = useQuery(userLatencyQuery(range))
  const dauEntries = (daus.data?.entries ?? []).slice(-30)
  return (
    <>
      <h1>Insights</h1>
      <p className="hint">The last {DAYS} days (daily active users: the last 30 days).</p>
      <div className="charts">
        <section aria-labelledby="daus">
          <h2 id="daus">Daily active users</h2>
          <ErrorMessage error={daus.error} />
          {daus.data === undefined ? <p role="status">Loading…</p> : (
            <Chart
              title="Daily active users"
              categoryLabel="Day"
              categories={dauEntries.map((e) => dateLabel(e.date))}
              series={[{ label: "Active users", values: dauEntries.map((e) => e.amount) }]}
              kind="line"
            />
          )}
        </section>
        <section aria-labelledby="templates">
          <h2 id="templates">Template usage</h2>
          <ErrorMessage error={templates.error} />
          {templates.data === undefined ? <p role="status">Loading…</p> : (
            <>
              <p>
                {templates.data.report.active_users} active{" "}
                {templates.data.report.active_users === 1 ? "user" : "users"} of the templates in all
              </p>
              <Chart
                title="Template usage: active users per day"
                categoryLabel="Day"
                categories={templates.data.interval_reports.map((r) => dateLabel(r.start_time))}
                series={[{ label: "Active users", values: templates.data.interval_reports.map((r) => r.active_users) }]}
                kind="bars"
              />
            </>
          )}
        </section>
        <section aria-labelledby="activity">
          <h2 id="activity">User activity</h2>
          <ErrorMessage error={activity.error} />
          {activity.data === undefined ? <p role="status">Loading…</p> : activity.data.report.users.length === 0
            ? <p className="empty">No activity in these days.</p>
            : (
              <Chart
                title="User activity: minutes in workspaces"
                categoryLabel="User"
                categories={activity.data.report.users.map((u) => u.username)}
                series={[{
                  label: "Minutes",
                  values: activity.data.report.users.map((u) =>
                    minutes(u.seconds)
                  )
                }]}
                kind="bars"
                unit=" min"
              />
            )}
        </section>
        <section aria-labelledby="latency">
          <h2 id="latency">User latency</h2>
          <ErrorMessage error={latency.error} />
          {latency.data === undefined ? <p role="status">Loading…</p> : latency.data.report.users.length === 0
            ? <p className="empty">No connections in these days.</p>
            : (
              <Chart
                title="User latency (milliseconds)"
                categoryLabel="User"
                categories={latency.data.report.users.map((u) => u.username)}
                series={[
                  { label: "p50", values: latency.data.report.users.map((u) => Math.round(u.latency_ms.p50)) },
                  { label: "p95", values: latency.data.report.users.map((u) => Math.round(u.latency_ms.p95)) }
                ]}
                kind="bars"
                unit=" ms"
              />
            )}
        </section>
      </div>
    </>
  )
}
