/**
 * A template's insights (`/templates/:template/insights`): the last week's report
 * (`GET /insights/templates?template_ids=&start_time=&end_time=&interval=day`) as tables: active
 * users per day, the apps' use, the parameters' values. Figures only; charts are drawn elsewhere.
 */
import { useQuery } from "@tanstack/react-query"
import { ErrorMessage } from "../ui/Form.tsx"
import { insightsQuery } from "./queries.ts"
import { useTemplate } from "./Template.tsx"

const DAY = 24 * 3_600_000
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")

/**
 * The range the service takes for the last `days` days: from a UTC midnight, to the next whole
 * hour (the latest end it accepts).
 */
export const insightsRange = (days: number, now = Date.now()) => {
  const today = Math.floor(now / DAY) * DAY
  return { start: iso(today - days * DAY), end: iso(Math.ceil(now / 3_600_000) * 3_600_000) }
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" })

const duration = (seconds: number) =>
  seconds < 60
    ? `${seconds} s`
    : seconds < 3600
    ? `${Math.round(seconds / 60)} min`
    : `${Math.round((seconds / 3600) * 10) / 10} h`

export const InsightsPage = () => {
  const t = useTemplate()
  const range = insightsRange(7)
  const report = useQuery(insightsQuery(t.id, range))
  const r = report.data
  return (
    <>
      <h2>Insights</h2>
      <p className="hint">The last 7 days (UTC).</p>
      <ErrorMessage error={report.error} />
      {report.isPending ? <p role="status">Loading the insights…</p> : null}
      {r === undefined ? null : (
        <>
          <dl className="facts">
            <dt>Active users</dt>
            <dd>{r.report.active_users}</dd>
          </dl>
          <table>
            <caption>Active users per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Active users</th>
              </tr>
            </thead>
            <tbody>
              {r.interval_reports.map((i) => (
                <tr key={i.start_time}>
                  <th scope="row">
                    <time dateTime={i.start_time}>{dayFormat.format(new Date(i.start_time))}</time>
                  </th>
                  <td>{i.active_users}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table>
            <caption>Use of apps</caption>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Time used</th>
                <th scope="col">Times opened</th>
              </tr>
            </thead>
            <tbody>
              {r.report.apps_usage.map((a) => (
                <tr key={`${a.type}:${a.slug}`}>
                  <th scope="row">{a.display_name === "" ? a.slug : a.display_name}</th>
                  <td>{duration(a.seconds)}</td>
                  <td>{a.type === "builtin" ? "—" : a.times_used}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {r.report.parameters_usage.length === 0 ?
            <p className="empty">No parameter values used in this period.</p> :
            (
              <table>
                <caption>Parameter values used</caption>
                <thead>
                  <tr>
                    <th scope="col">Parameter</th>
                    <th scope="col">Value</th>
                    <th scope="col">Workspaces</th>
                  </tr>
                </thead>
                <tbody>
                  {r.report.parameters_usage.flatMap((p) =>
                    p.values.map((v) => (
                      <tr key={`${p.name}=${v.value}`}>
                        <th scope="row">{p.display_name === "" ? p.name : p.display_name}</th>
                        <td>{v.value}</td>
                        <td>{v.count}</td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            )}
        </>
      )}
    </>
  )
}
