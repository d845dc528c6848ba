/**
 * Templates' build time stats (`build_time_stats`): p50 and p95 of their recent successful builds
 * per transition. The durations come through the `BuildDurations` port, which the insights area
 * gives (insights/Insight.ts `buildDurationsLayer`) from its store.
 */
import { Context, type Effect } from "effect"

/** Reads how long recent builds of templates ran. */
export class BuildDurations extends Context.Tag("@workbay/core/BuildDurations")<BuildDurations, {
  /**
   * How long the last (at most `BUILD_TIME_STATS_BUILDS`) successful builds of each template that
   * started after `since` ran, in seconds, with their transition.
   */
  readonly of: (
    templateIds: ReadonlyArray<string>,
    since: Date
  ) => Effect.Effect<
    ReadonlyArray<{ readonly template_id: string; readonly transition: string; readonly seconds: number }>
  >
}>() {}

/** The described system's `percentile_disc`: the first value whose cumulative share reaches `p`; undefined without values. */
export const percentileDisc = (values: ReadonlyArray<number>, p: number): number | undefined => {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]
}

/** How far back build time stats look. */
export const BUILD_TIME_STATS_DAYS = 30
/** How many of a template's newest successful builds the build time stats read. */
export const BUILD_TIME_STATS_BUILDS = 100

/** Build time stats per template: p50 and p95 in milliseconds per transition, absent without builds. */
export const buildTimeStats = (
  rows: ReadonlyArray<{ readonly template_id: string; readonly transition: string; readonly seconds: number }>
): Map<string, Record<string, { p50?: number; p95?: number }>> => {
  const byTemplate = new Map<string, Map<string, Array<number>>>()
  for (const r of rows) {
    const t = byTemplate.get(r.template_id) ?? new Map<string, Array<number>>()
    const list = t.get(r.transition) ?? []
    list.push(r.seconds)
    t.set(r.transition, list)
    byTemplate.set(r.template_id, t)
  }
  const out = new Map<string, Record<string, { p50?: number; p95?: number }>>()
  for (const [templateId, transitions] of byTemplate) {
    const stats: Record<string, { p50?: number; p95?: number }> = {}
    for (const [transition, seconds] of transitions) {
      stats[transition] = {
        p50: Math.round(percentileDisc(seconds, 0.5)! * 1000),
        p95: Math.round(percentileDisc(seconds, 0.95)! * 1000)
      }
    }
    out.set(templateId, stats)
  }
  return out
}
