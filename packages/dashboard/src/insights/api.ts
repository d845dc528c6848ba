/** Insights: daily active users, template usage, user activity and latency over a range of days. */
import { client, unwrap } from "../api/client.ts"
import { templatesApi } from "../templates/api.ts"

const pad = (n: number) => String(Math.abs(n)).padStart(2, "0")

/** `at` as RFC 3339 in the browser's time zone, whole hours (the reports' ranges are). */
export const offsetTime = (at: Date) => {
  const offset = -at.getTimezoneOffset()
  const sign = offset >= 0 ? "+" : "-"
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:00:00${sign}${
    pad(Math.trunc(offset / 60))
  }:${pad(offset % 60)}`
}

/**
 * The last `days` days to now, as the service takes a range: from a local midnight to the next
 * whole hour (an end today may be any whole hour, not past the next one).
 */
export const lastDays = (days: number, now = new Date()) => {
  const start = new Date(now)
  start.setHours(0, 0, 0, 0)
  start.setDate(start.getDate() - (days - 1))
  const end = new Date(now)
  end.setMinutes(0, 0, 0)
  end.setHours(end.getHours() + 1)
  return { start_time: offsetTime(start), end_time: offsetTime(end) }
}

export const insightsApi = {
  daus: () =>
    unwrap(
      client.GET("/api/v2/insights/daus", {
        params: { query: { tz_offset: String(Math.round(-new Date().getTimezoneOffset() / 60)) } }
      })
    ),
  templates: (range: { start_time: string; end_time: string }) => templatesApi.insights(range),
  userActivity: (range: { start_time: string; end_time: string }) =>
    unwrap(client.GET("/api/v2/insights/user-activity", { params: { query: range } })),
  userLatency: (range: { start_time: string; end_time: string }) =>
    unwrap(client.GET("/api/v2/insights/user-latency", { params: { query: range } }))
}
