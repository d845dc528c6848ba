/**
 * Usage insights: the wire records of the insights routes, the repository port over the hourly
 * rollups (docs/insights.md), and the rules the described system applies to report ranges.
 */
import { Context, Effect, Either, Layer, type Option, Schema } from "effect"
import { BadRequest, Validation } from "../Errors.js"
import { BuildDurations } from "../templates/BuildTimeStats.js"

// Wire records.

export class DAUEntry extends Schema.Class<DAUEntry>("DAUEntry")({
  /** The day, `YYYY-MM-DD`, in the asked offset. */
  date: Schema.String,
  amount: Schema.Int
}) {}

export class DAUsResponse extends Schema.Class<DAUsResponse>("DAUsResponse")({
  entries: Schema.Array(DAUEntry),
  tz_hour_offset: Schema.Int
}) {}

export const InsightsInterval = Schema.Literal("day", "week")
export type InsightsInterval = typeof InsightsInterval.Type

export class TemplateAppUsage extends Schema.Class<TemplateAppUsage>("TemplateAppUsage")({
  template_ids: Schema.Array(Schema.String),
  type: Schema.Literal("builtin", "app"),
  display_name: Schema.String,
  slug: Schema.String,
  icon: Schema.String,
  seconds: Schema.Int,
  times_used: Schema.Int
}) {}

export class TemplateParameterUsage extends Schema.Class<TemplateParameterUsage>("TemplateParameterUsage")({
  template_ids: Schema.Array(Schema.String),
  display_name: Schema.String,
  name: Schema.String,
  type: Schema.String,
  description: Schema.String,
  options: Schema.optional(Schema.Array(Schema.Struct({
    name: Schema.String,
    description: Schema.String,
    value: Schema.String,
    icon: Schema.String
  }))),
  values: Schema.Array(Schema.Struct({ value: Schema.String, count: Schema.Int }))
}) {}

/** Times of a report are echoed in the offset the caller gave them in (the described system's). */
export class TemplateInsightsReport extends Schema.Class<TemplateInsightsReport>("TemplateInsightsReport")({
  start_time: Schema.String,
  end_time: Schema.String,
  template_ids: Schema.Array(Schema.String),
  active_users: Schema.Int,
  apps_usage: Schema.Array(TemplateAppUsage),
  parameters_usage: Schema.Array(TemplateParameterUsage)
}) {}

export class TemplateInsightsIntervalReport
  extends Schema.Class<TemplateInsightsIntervalReport>("TemplateInsightsIntervalReport")({
    start_time: Schema.String,
    end_time: Schema.String,
    template_ids: Schema.Array(Schema.String),
    interval: InsightsInterval,
    active_users: Schema.Int
  })
{}

export class TemplateInsightsResponse extends Schema.Class<TemplateInsightsResponse>("TemplateInsightsResponse")({
  report: TemplateInsightsReport,
  interval_reports: Schema.Array(TemplateInsightsIntervalReport)
}) {}

export class UserActivity extends Schema.Class<UserActivity>("UserActivity")({
  template_ids: Schema.Array(Schema.String),
  user_id: Schema.String,
  username: Schema.String,
  avatar_url: Schema.String,
  seconds: Schema.Int
}) {}

export class UserActivityInsightsResponse
  extends Schema.Class<UserActivityInsightsResponse>("UserActivityInsightsResponse")({
    report: Schema.Struct({
      start_time: Schema.String,
      end_time: Schema.String,
      template_ids: Schema.Array(Schema.String),
      users: Schema.Array(UserActivity)
    })
  })
{}

export class UserLatency extends Schema.Class<UserLatency>("UserLatency")({
  template_ids: Schema.Array(Schema.String),
  user_id: Schema.String,
  username: Schema.String,
  avatar_url: Schema.String,
  latency_ms: Schema.Struct({ p50: Schema.Number, p95: Schema.Number })
}) {}

export class UserLatencyInsightsResponse
  extends Schema.Class<UserLatencyInsightsResponse>("UserLatencyInsightsResponse")({
    report: Schema.Struct({
      start_time: Schema.String,
      end_time: Schema.String,
      template_ids: Schema.Array(Schema.String),
      users: Schema.Array(UserLatency)
    })
  })
{}

export class UserStatusChangeCount extends Schema.Class<UserStatusChangeCount>("UserStatusChangeCount")({
  date: Schema.String,
  count: Schema.Int
}) {}

export class GetUserStatusCountsResponse
  extends Schema.Class<GetUserStatusCountsResponse>("GetUserStatusCountsResponse")({
    status_counts: Schema.Record({ key: Schema.String, value: Schema.Array(UserStatusChangeCount) })
  })
{}

// Storage.

/** Minutes of use of one user on one template over a range (sums of hourly rollups). */
export interface UsageTotals {
  readonly user_id: string
  readonly template_id: string
  readonly usage_mins: number
  readonly ssh_mins: number
  readonly vscode_mins: number
  readonly jetbrains_mins: number
  readonly reconnecting_pty_mins: number
}

/** One app's use by one user on one template over a range. */
export interface AppUsageTotals {
  readonly user_id: string
  readonly template_id: string
  readonly slug: string
  readonly display_name: string
  readonly icon: string
  readonly seconds: number
  readonly times_used: number
}

/**
 * How many workspaces' latest builds of a range gave a parameter one value: per template, template
 * version (whose import defines the parameter), parameter name and value.
 */
export interface ParameterValueCount {
  readonly template_id: string
  readonly template_version_id: string
  readonly name: string
  readonly value: string
  readonly count: number
}

/** The users and templates active in one bucket of a range (bucket `n` starts `n` buckets after the range's start). */
export interface ActiveBucket {
  readonly bucket: number
  readonly users: number
  readonly template_ids: ReadonlyArray<string>
}

/** The median connection latency of one user on one template in one hour. */
export interface HourLatency {
  readonly user_id: string
  readonly template_id: string
  readonly latency_ms: number
}

export interface InsightsUser {
  readonly id: string
  readonly username: string
  readonly avatar_url: string
}

/** A recorded status of a user from `changed_at` on (`deleted` once the user is deleted). */
export interface UserStatusChange {
  readonly user_id: string
  readonly status: string
  readonly changed_at: Date
}

/** Where the rollup stands. */
export interface RollupState {
  readonly watermark: Date
  readonly ran_at: Date
}

/** What one rollup pass wrote. */
export interface RollupReport {
  /** False when another replica ran this tick already (or runs now). */
  readonly ran: boolean
  readonly hours: number
  readonly usageRows: number
  readonly appRows: number
  readonly statusChanges: number
}

/**
 * The hourly rollups and what they are made from. Reads take `[start, end)` and an optional
 * template filter (empty: every template); their cost follows the rollups, not the raw rows.
 */
export class InsightsRepo extends Context.Tag("@workbay/core/InsightsRepo")<InsightsRepo, {
  /** Recomputes the rollups of the hour starting at `hour` from the raw rows (agent stats, app opens); answers rows written. */
  readonly rollupHour: (hour: Date) => Effect.Effect<{ readonly usageRows: number; readonly appRows: number }>
  /** Records the status of every user whose status differs from the last recorded one; answers how many. */
  readonly recordStatusChanges: (now: Date) => Effect.Effect<number>
  /** The rollup's state: the start of the first hour not yet final, and when a pass last ran. */
  readonly state: Effect.Effect<Option.Option<RollupState>>
  readonly setState: (state: RollupState) => Effect.Effect<void>
  /** The time of the oldest raw usage row: an agent stats report or an app open in the connection log. */
  readonly earliestRaw: Effect.Effect<Option.Option<Date>>
  readonly usage: (
    start: Date,
    end: Date,
    templateIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<UsageTotals>>
  readonly appUsage: (
    start: Date,
    end: Date,
    templateIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<AppUsageTotals>>
  /**
   * The parameter values of each workspace's latest build created in `[start, end)`, counted (the
   * described system's parameter insights). Reads builds of the range, not the rollups.
   */
  readonly parameterUsage: (
    start: Date,
    end: Date,
    templateIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ParameterValueCount>>
  /**
   * Distinct active users and templates per bucket of `bucketMinutes` from `start` (hours are
   * counted in the bucket their start falls in); buckets without any are left out.
   */
  readonly activeByBucket: (
    start: Date,
    end: Date,
    bucketMinutes: number,
    templateIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ActiveBucket>>
  readonly latencies: (
    start: Date,
    end: Date,
    templateIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<HourLatency>>
  readonly users: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<InsightsUser>>
  /** Every recorded status change before `before`, oldest first. */
  readonly statusChanges: (before: Date) => Effect.Effect<ReadonlyArray<UserStatusChange>>
  /**
   * How long the last (at most 100) successful builds of each template that started after `since`
   * ran, in seconds, with their transition (the described system's build time stats).
   */
  readonly buildDurations: (
    templateIds: ReadonlyArray<string>,
    since: Date
  ) => Effect.Effect<
    ReadonlyArray<{ readonly template_id: string; readonly transition: string; readonly seconds: number }>
  >
  /** Deletes rollups of hours before `before`; answers how many rows. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}>() {}

// Rules.

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** A time as the caller wrote it: the instant and the offset (minutes east of UTC) it was written in. */
export interface OffsetTime {
  readonly at: Date
  readonly offsetMinutes: number
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/

/** Parses an RFC 3339 date-time keeping its offset; undefined when it is not one. */
export const parseOffsetTime = (s: string): OffsetTime | undefined => {
  const m = RFC3339.exec(s)
  if (m === null) return undefined
  const [y, mo, d, h, mi, se] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]))
  const offsetMinutes = m[9] === undefined ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]))
  if (mo! < 1 || mo! > 12 || d! < 1 || h! > 23 || mi! > 59 || se! > 59 || Math.abs(offsetMinutes) >= 24 * 60) {
    return undefined
  }
  // Date.UTC reads years below 100 as 19xx: set the year apart.
  const date = new Date(Date.UTC(2000, mo! - 1, d!, h!, mi!, se!))
  date.setUTCFullYear(y!)
  const local = date.getTime()
  if (date.getUTCDate() !== d) return undefined
  const frac = m[7] === undefined ? 0 : Math.floor(Number(m[7]) * 1000)
  return { at: new Date(local - offsetMinutes * 60_000 + frac), offsetMinutes }
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0")

/** `at` written in `offsetMinutes` as RFC 3339 (`Z` for UTC), the way the described system echoes report times. */
export const formatOffsetTime = (at: Date, offsetMinutes: number): string => {
  const local = new Date(at.getTime() + offsetMinutes * 60_000)
  const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`
  const zone = offsetMinutes === 0
    ? "Z"
    : `${offsetMinutes < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${
      pad(Math.abs(offsetMinutes) % 60)
    }`
  return `${date}T${time}${zone}`
}

/** The calendar date (`YYYY-MM-DD`) of `at` in `offsetMinutes`. */
export const localDate = (at: Date, offsetMinutes: number): string => formatOffsetTime(at, offsetMinutes).slice(0, 10)

/** The start of the hour after the one `now` is in. */
export const nextHour = (now: number) => now - (now % HOUR) + HOUR

/** Local midnight (in `offsetMinutes`) of the day `at` falls on. */
export const startOfLocalDay = (at: number, offsetMinutes: number) => {
  const local = at + offsetMinutes * 60_000
  return local - (((local % DAY) + DAY) % DAY) - offsetMinutes * 60_000
}

/** The zero time of the described system (0001-01-01T00:00:00Z). */
const ZERO_TIME = new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(1)

const invalid = (field: string, detail: string) =>
  new BadRequest({ message: "Query parameter has invalid value.", validations: [new Validation({ field, detail })] })

/** A report range: `[start, end)`, and the offset its times are echoed in. */
export interface InsightsRange {
  readonly start: OffsetTime
  readonly end: OffsetTime
}

/**
 * The described system's rules for `start_time` and `end_time`: RFC 3339, not zero, not past the
 * next whole hour, on a local midnight (except an `end_time` on today's date, which may be any
 * whole hour), and `end_time` after `start_time`.
 */
export const parseInsightsRange = (
  startTime: string,
  endTime: string,
  now: number
): Either.Either<InsightsRange, BadRequest> => {
  const parsed: Record<string, OffsetTime> = {}
  for (const [name, value] of [["start_time", startTime], ["end_time", endTime]] as const) {
    const t = parseOffsetTime(value)
    if (t === undefined) {
      return Either.left(
        invalid(name, `Query param "${name}" must be a valid date format (RFC3339): "${value.slice(0, 64)}".`)
      )
    }
    if (t.at.getTime() === ZERO_TIME) {
      return Either.left(invalid(name, `Query param "${name}" must not be zero.`))
    }
    if (t.at.getTime() > nextHour(now)) {
      return Either.left(invalid(name, `Query param "${name}" must not be in the future.`))
    }
    const local = new Date(t.at.getTime() + t.offsetMinutes * 60_000)
    const today = localDate(new Date(now), t.offsetMinutes)
    const zeroHour = name === "start_time" || localDate(t.at, t.offsetMinutes) !== today
    const [h, m, s, ms] = [
      local.getUTCHours(),
      local.getUTCMinutes(),
      local.getUTCSeconds(),
      local.getUTCMilliseconds()
    ]
    if (zeroHour && (h !== 0 || m !== 0 || s !== 0 || ms !== 0)) {
      return Either.left(invalid(name, `Query param "${name}" must have the clock set to 00:00:00.`))
    }
    if (m !== 0 || s !== 0 || ms !== 0) {
      return Either.left(invalid(name, `Query param "${name}" must have the clock set to ${pad(h)}:00:00.`))
    }
    parsed[name] = t
  }
  const start = parsed.start_time!
  const end = parsed.end_time!
  if (end.at.getTime() < start.at.getTime()) {
    return Either.left(invalid("end_time", `Query param "end_time" must be after than "start_time".`))
  }
  return Either.right({ start, end })
}

/**
 * `week` reports need the range to end in a whole week, or a last week of at least six days
 * (the described system's rule, which leaves room for a daylight saving change).
 */
export const checkInterval = (
  interval: InsightsInterval,
  range: InsightsRange
): Either.Either<InsightsInterval, BadRequest> => {
  const span = range.end.at.getTime() - range.start.at.getTime()
  // A bound of our own, so that one request cannot ask for an answer of millions of intervals.
  if (span > MAX_INTERVAL_REPORTS * (interval === "week" ? 7 : 1) * DAY) {
    return Either.left(
      invalid("start_time", `The range may hold at most ${MAX_INTERVAL_REPORTS} intervals of a ${interval}.`)
    )
  }
  if (interval === "day") return Either.right(interval)
  const rest = (range.end.at.getTime() - range.start.at.getTime()) % (7 * DAY)
  return rest === 0 || rest >= 6 * DAY
    ? Either.right(interval)
    : Either.left(invalid("interval", "Last report interval should have at least 6 days."))
}

/** The most interval reports one answer holds. */
export const MAX_INTERVAL_REPORTS = 1000

/** The intervals of `[start, end)`, `days` long (the last one cut at `end`). */
export const intervals = (start: number, end: number, days: number): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  for (let s = start; s < end; s += days * DAY) out.push([s, Math.min(s + days * DAY, end)])
  return out
}

/** A `tz_offset` in whole hours, as the described system takes it (bounded to real offsets). */
export const MAX_TZ_OFFSET_HOURS = 14

/**
 * The offset, in minutes east of UTC, of the IANA `timezone` at `at`; undefined when the name is
 * not a known zone.
 */
export const zoneOffsetMinutes = (timezone: string, at: Date): number | undefined => {
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    }).formatToParts(at)
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
    const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"))
    return Math.round((local - (at.getTime() - at.getUTCMilliseconds())) / 60_000)
  } catch {
    return undefined
  }
}

/** The templates' build durations (templates' `BuildDurations`), read from the insights' store. */
export const buildDurationsLayer: Layer.Layer<BuildDurations, never, InsightsRepo> = Layer.effect(
  BuildDurations,
  Effect.map(InsightsRepo, (repo) => BuildDurations.of({ of: repo.buildDurations }))
)
