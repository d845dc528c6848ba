/** The insights' query keys and queries, each report over a range of days (`lastDays`). */
import { queryOptions } from "@tanstack/react-query"
import { insightsApi as api } from "./api.ts"

type Range = { start_time: string; end_time: string }

export const insightsKeys = {
  daus: ["insights", "daus"] as const,
  templates: (range: Range) => ["insights", "templates", range] as const,
  activity: (range: Range) => ["insights", "activity", range] as const,
  latency: (range: Range) => ["insights", "latency", range] as const
}

export const dausQuery = queryOptions({ queryKey: insightsKeys.daus, queryFn: api.daus })

export const templateInsightsQuery = (range: Range) =>
  queryOptions({ queryKey: insightsKeys.templates(range), queryFn: () => api.templates(range) })

export const userActivityQuery = (range: Range) =>
  queryOptions({ queryKey: insightsKeys.activity(range), queryFn: () => api.userActivity(range) })

export const userLatencyQuery = (range: Range) =>
  queryOptions({ queryKey: insightsKeys.latency(range), queryFn: () => api.userLatency(range) })
