/**
 * Workspace schedules: the rules, with no HTTP and no storage. Autostart cron schedules
 * (`CRON_TZ=<zone> <min> <hour> * * <dow>`) and quiet-hours schedules, a build's deadline and
 * max deadline (the described system's `CalculateAutostop`), the rules of the schedule routes
 * (`PUT .../autostart`, `.../ttl`, `.../extend`, activity bumps) and what the lifecycle
 * executor must do to a workspace at a tick. Every function is pure: the caller passes `now`.
 *
 * Days-of-week masks are the templates' (bit 0 = Monday ... bit 6 = Sunday). Cron day-of-week
 * values are cron's (0 = Sunday ... 6 = Saturday). Times of day are read in the schedule's own
 * time zone, so daylight-saving changes move the instant, never the wall-clock time.
 */
import { Data, Either } from "effect"
import { BadRequest, Conflict, Validation } from "../Errors.js"
import type { WorkspaceTransition } from "../templates/Provisioner.js"
import { jobStatus, type ProvisionerJobRecord } from "../templates/ProvisionerJob.js"
import type { TemplateRecord } from "../templates/Template.js"
import type { UserStatus } from "../users/User.js"
import type { WorkspacePatch, WorkspaceRecord } from "./Workspace.js"
import type { BuildReason, WorkspaceBuildRecord } from "./WorkspaceBuild.js"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

// ---------------------------------------------------------------------------------------------
// Time zones: wall-clock dates and the instants they name

const formatters = new Map<string, Intl.DateTimeFormat>()
const formatterFor = (zone: string) => {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formatters.set(zone, f)
  }
  return f
}

/** A wall-clock reading in some zone. `weekday` is cron's (0 = Sunday). */
interface Wall {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly weekday: number
}

const wallAt = (ms: number, zone: string): Wall => {
  const p: Record<string, number> = {}
  for (const part of formatterFor(zone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") p[part.type] = Number(part.value)
  }
  const year = p["year"]!, month = p["month"]!, day = p["day"]!
  return {
    year,
    month,
    day,
    hour: p["hour"]! % 24,
    minute: p["minute"]!,
    second: p["second"]!,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay()
  }
}

/** The zone's offset from UTC at instant `ms`, in milliseconds. */
const offsetAt = (ms: number, zone: string) => {
  const w = wallAt(ms, zone)
  const whole = ms - (((ms % 1000) + 1000) % 1000)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole
}

/**
 * The instant the zone's clocks read `y-m-d h:min`: the first one when they read it twice
 * (clocks going back), `null` when they never do (clocks going forward).
 */
const instantOfWall = (zone: string, y: number, m: number, d: number, h: number, min: number): number | null => {
  const guess = Date.UTC(y, m - 1, d, h, min)
  const offsets = new Set([offsetAt(guess - DAY, zone), offsetAt(guess, zone), offsetAt(guess + DAY, zone)])
  let best: number | null = null
  for (const offset of offsets) {
    const candidate = guess - offset
    const w = wallAt(candidate, zone)
    const civil = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute)
    if (civil === guess && (best === null || candidate < best)) best = candidate
  }
  return best
}

/** As {@link instantOfWall}, but a time the clocks skip reads as the offset before the jump does (02:30 becomes 03:30). */
const instantOfWallLenient = (zone: string, y: number, m: number, d: number, h: number, min: number): number =>
  instantOfWall(zone, y, m, d, h, min) ??
    Date.UTC(y, m - 1, d, h, min) - offsetAt(Date.UTC(y, m - 1, d, h, min) - DAY, zone)

/** The start of the zone's calendar day holding `ms`. */
const startOfDay = (ms: number, zone: string) => {
  const w = wallAt(ms, zone)
  return instantOfWallLenient(zone, w.year, w.month, w.day, 0, 0)
}

/** The start of the zone's calendar day after the one holding `ms`. */
const startOfNextDay = (ms: number, zone: string) => {
  const w = wallAt(ms, zone)
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1))
  return instantOfWallLenient(zone, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, 0)
}

/** Whether this runtime knows `zone` as an IANA time zone name. */
export const isTimeZone = (zone: string): boolean => {
  // Offsets such as "+05:00" are accepted by some engines but are no zone names.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false
  try {
    formatterFor(zone)
    return true
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// Cron schedules

/** A parsed schedule: the fields cron would match, in its time zone. */
export interface CronSchedule {
  /** The schedule as given. */
  readonly raw: string
  /** The IANA zone its times are read in (`UTC` when the schedule names none). */
  readonly timezone: string
  /** The five cron fields, without the `CRON_TZ=` prefix. */
  readonly cron: string
  readonly minutes: ReadonlyArray<number>
  readonly hours: ReadonlyArray<number>
  /** Cron days of week (0 = Sunday). */
  readonly daysOfWeek: ReadonlySet<number>
}

const dowNames: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 }

const atoi = (s: string): number | string =>
  /^[+-]?\d+$/.test(s) ? Number(s) : `strconv.Atoi: parsing "${s}": invalid syntax`

const parseInt_ = (s: string, names?: Record<string, number>): number | string => {
  const named = names?.[s.toLowerCase()]
  if (named !== undefined) return named
  const n = atoi(s)
  if (typeof n === "string") return `failed to parse int from ${s}: ${n}`
  if (n < 0) return `negative number (${n}) not allowed: ${s}`
  return n
}

/** Expands one cron field as robfig/cron (the described system's parser) reads it, or says why it cannot. */
const parseField = (
  field: string,
  min: number,
  max: number,
  names?: Record<string, number>
): Array<number> | string => {
  const values = new Set<number>()
  for (const expr of field.split(",")) {
    const rangeAndStep = expr.split("/")
    const lowAndHigh = rangeAndStep[0]!.split("-")
    let start: number, end: number
    if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
      start = min
      end = max
    } else {
      const s = parseInt_(lowAndHigh[0]!, names)
      if (typeof s === "string") return s
      start = s
      if (lowAndHigh.length === 1) end = s
      else if (lowAndHigh.length === 2) {
        const e = parseInt_(lowAndHigh[1]!, names)
        if (typeof e === "string") return e
        end = e
      } else return `too many hyphens: ${expr}`
    }
    let step = 1
    if (rangeAndStep.length === 2) {
      const s = parseInt_(rangeAndStep[1]!)
      if (typeof s === "string") return s
      step = s
      // "N/step" means "N-max/step".
      if (lowAndHigh.length === 1 && lowAndHigh[0] !== "*" && lowAndHigh[0] !== "?") end = max
    } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`
    if (start < min) return `beginning of range (${start}) below minimum (${min}): ${expr}`
    if (end > max) return `end of range (${end}) above maximum (${max}): ${expr}`
    if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`
    if (step === 0) return `step of range should be a positive number: ${expr}`
    for (let v = start; v <= end; v += step) values.add(v)
  }
  return [...values].sort((a, b) => a - b)
}

/** Why a schedule cannot be read; the message is the described system's. */
export class ScheduleError extends Data.TaggedError("ScheduleError")<{ readonly message: string }> {}

const fail = (message: string) => Either.left(new ScheduleError({ message }))

const parseSchedule = (raw: string): Either.Either<CronSchedule, ScheduleError> => {
  // Without a zone the schedule is read in UTC, never in the server's local zone.
  const spec = raw.startsWith("CRON_TZ=") ? raw : `CRON_TZ=UTC ${raw}`
  const space = spec.indexOf(" ")
  const timezone = spec.slice("CRON_TZ=".length, space) || "UTC"
  if (timezone === "Local") return fail("parse schedule: schedules scoped to time.Local are not supported")
  if (!isTimeZone(timezone)) {
    return fail(`parse schedule: provided bad location ${timezone}: unknown time zone ${timezone}`)
  }
  const fields = spec.slice(space).trim().split(/\s+/).filter((f) => f !== "")
  if (fields.length !== 5) {
    return fail(`parse schedule: expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`)
  }
  const minutes = parseField(fields[0]!, 0, 59)
  if (typeof minutes === "string") return fail(`parse schedule: ${minutes}`)
  const hours = parseField(fields[1]!, 0, 23)
  if (typeof hours === "string") return fail(`parse schedule: ${hours}`)
  const dow = parseField(fields[4]!, 0, 6, dowNames)
  if (typeof dow === "string") return fail(`parse schedule: ${dow}`)
  return Either.right({ raw, timezone, cron: fields.join(" "), minutes, hours, daysOfWeek: new Set(dow) })
}

const fieldsOf = (raw: string) => {
  const parts = raw.trim().split(/\s+/).filter((p) => p !== "")
  if (parts.length < 5) return null
  return parts.length === 6 ? parts.slice(1) : parts
}

const expectedFields = "expected schedule to consist of 5 fields with an optional CRON_TZ=<timezone> prefix"

/**
 * Parses a weekly schedule (autostart): `[CRON_TZ=<zone>] <minute> <hour> * * <day-of-week>`.
 * Day of month and month must be `*`; without `CRON_TZ` the times are UTC.
 */
export const parseWeeklySchedule = (raw: string): Either.Either<CronSchedule, ScheduleError> => {
  const parts = fieldsOf(raw)
  if (parts === null) return fail(`validate weekly schedule: ${expectedFields}`)
  if (parts[2] !== "*" || parts[3] !== "*") {
    return fail("validate weekly schedule: expected day-of-month and month to be *")
  }
  return parseSchedule(raw)
}

/** Parses a daily schedule (quiet hours): `[CRON_TZ=<zone>] <minute> <hour> * * *`. */
export const parseDailySchedule = (raw: string): Either.Either<CronSchedule, ScheduleError> => {
  const parts = fieldsOf(raw)
  if (parts === null) return fail(`validate daily schedule: ${expectedFields}`)
  if (parts[2] !== "*" || parts[3] !== "*" || parts[4] !== "*") {
    return fail("validate daily schedule: expected day-of-month, month and day-of-week to be *")
  }
  return parseSchedule(raw)
}

/**
 * The first time after `after` (strictly) that the schedule names, read in its zone. A time
 * the zone's clocks skip that day is not taken (the next matching one is); a time they read
 * twice is taken once, at its first reading. `null` when none comes within two weeks.
 */
export const nextOccurrence = (schedule: CronSchedule, after: Date): Date | null => {
  const t = after.getTime()
  const first = wallAt(t, schedule.timezone)
  for (let i = 0; i < 15; i++) {
    const date = new Date(Date.UTC(first.year, first.month - 1, first.day + i))
    if (!schedule.daysOfWeek.has(date.getUTCDay())) continue
    for (const hour of schedule.hours) {
      for (const minute of schedule.minutes) {
        const at = instantOfWall(
          schedule.timezone,
          date.getUTCFullYear(),
          date.getUTCMonth() + 1,
          date.getUTCDate(),
          hour,
          minute
        )
        if (at !== null && at > t) return new Date(at)
      }
    }
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// Days of week and weeks

/** Every day: the mask templates allow autostart on when they restrict nothing. */
export const ALL_DAYS = 0b1111111

/** Whether the template mask (bit 0 = Monday) holds cron day `weekday` (0 = Sunday). */
export const maskHasDay = (mask: number, weekday: number): boolean => (mask & (1 << ((weekday + 6) % 7))) !== 0

/** The first Monday of 2023, from which every-n-weeks requirements count (in each zone). */
export const AUTOSTOP_EPOCH = { year: 2023, month: 1, day: 2 } as const

const epochDay = Date.UTC(AUTOSTOP_EPOCH.year, AUTOSTOP_EPOCH.month - 1, AUTOSTOP_EPOCH.day)

/** Whole weeks between the epoch's Monday and the zone's calendar day holding `at`, counted in calendar days so DST cannot shift it. */
export const weeksSinceEpoch = (at: Date, zone: string): Either.Either<number, ScheduleError> => {
  const epoch = instantOfWallLenient(zone, AUTOSTOP_EPOCH.year, AUTOSTOP_EPOCH.month, AUTOSTOP_EPOCH.day, 0, 0)
  if (at.getTime() < epoch) {
    return fail("coder server system clock is incorrect, cannot calculate template autostop requirement")
  }
  const w = wallAt(at.getTime(), zone)
  const days = Math.round((Date.UTC(w.year, w.month - 1, w.day) - epochDay) / DAY)
  return Either.right(Math.floor(days / 7))
}

/** Midnight of the Monday of week `n` since the epoch, in `zone`. */
export const mondayOfWeek = (zone: string, n: number): Date => {
  const d = new Date(epochDay + n * 7 * DAY)
  return new Date(instantOfWallLenient(zone, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), 0, 0))
}

/** `at` when its week counts (its number divides by `n`), else midnight of the Monday of the next week that does. */
export const nextApplicableMonday = (at: Date, n: number, zone: string): Either.Either<Date, ScheduleError> =>
  Either.map(weeksSinceEpoch(at, zone), (week) => {
    const remainder = week % n
    return remainder === 0 ? at : mondayOfWeek(zone, week + (n - remainder))
  })

// ---------------------------------------------------------------------------------------------
// Autostart

/**
 * The schedule's next time after `after` and whether the template allows autostart on its day
 * (read in the schedule's zone). `null` when the schedule cannot be read.
 */
export const nextAutostart = (
  schedule: string,
  after: Date,
  allowedDays: number
): { readonly at: Date; readonly allowed: boolean } | null => {
  const parsed = parseWeeklySchedule(schedule)
  if (Either.isLeft(parsed)) return null
  const at = nextOccurrence(parsed.right, after)
  if (at === null) return null
  return { at, allowed: maskHasDay(allowedDays, wallAt(at.getTime(), parsed.right.timezone).weekday) }
}

/** The schedule's next time after `after` on a day the template allows; `null` when none comes within a week. */
export const nextAllowedAutostart = (schedule: string, after: Date, allowedDays: number): Date | null => {
  let next = after
  while (next.getTime() - after.getTime() < 7 * DAY) {
    const found = nextAutostart(schedule, next, allowedDays)
    if (found === null) return null
    if (found.allowed) return found.at
    next = found.at
  }
  return null
}

/** A workspace's `next_start_at`: its next allowed autostart after `now`, `null` without a schedule. */
export const nextStartAt = (
  workspace: Pick<WorkspaceRecord, "autostart_schedule">,
  template: Pick<TemplateRecord, "autostart_requirement_days_of_week">,
  now: Date
): Date | null =>
  workspace.autostart_schedule === ""
    ? null
    : nextAllowedAutostart(workspace.autostart_schedule, now, template.autostart_requirement_days_of_week)

// ---------------------------------------------------------------------------------------------
// Deadlines

/** A start build's deadline (stop when idle until then) and max deadline (stop by then whatever the activity); `null` for none. */
export interface AutostopTime {
  readonly deadline: Date | null
  readonly max_deadline: Date | null
}

/** Within this long before a required stop, the build skips it for the next one. */
export const AUTOSTOP_REQUIREMENT_LEEWAY_MS = 2 * HOUR
/** Looking for the next quiet-hours window starts this long before midnight, so a window at midnight counts. */
export const AUTOSTOP_REQUIREMENT_BUFFER_MS = 15 * MINUTE

export type AutostopTemplate = Pick<
  TemplateRecord,
  | "allow_user_autostop"
  | "default_ttl_ms"
  | "autostop_requirement_days_of_week"
  | "autostop_requirement_weeks"
  | "autostart_requirement_days_of_week"
>

export interface AutostopInput {
  /** When the build's job completed. */
  readonly now: Date
  /** Only start builds get deadlines. */
  readonly transition: WorkspaceTransition
  readonly workspace: Pick<WorkspaceRecord, "ttl_ms" | "autostart_schedule">
  readonly template: AutostopTemplate
  /** The owner's quiet-hours schedule (theirs, or the deployment's default); `""` for none. */
  readonly quietHoursSchedule: string
}

/**
 * A build's deadline and max deadline, as the described system's `CalculateAutostop`:
 * - deadline: now + the workspace's ttl (the template's default ttl when the template forbids
 *   users their own); when that passes the next allowed autostart, the autostart + ttl;
 * - max deadline, when the template requires stops on some days: the owner's next quiet-hours
 *   window on a required day (in the quiet hours' zone), skipping a window less than two hours
 *   away; with every-n-weeks requirements, only in weeks whose number since 2023-01-02 divides by n;
 * - the deadline never falls after the max deadline.
 */
export const calculateAutostop = (input: AutostopInput): Either.Either<AutostopTime, ScheduleError> => {
  const { now, template, workspace } = input
  if (input.transition !== "start") return Either.right({ deadline: null, max_deadline: null })
  const t = now.getTime()
  const ttl = template.allow_user_autostop ? (workspace.ttl_ms ?? 0) : Math.max(0, template.default_ttl_ms)
  let deadline: number | null = null
  if (ttl > 0) {
    deadline = t + ttl
    if (workspace.autostart_schedule !== "") {
      // Started late in the evening with a morning autostart: the user expects a full day from the autostart.
      const next = nextAutostart(workspace.autostart_schedule, now, template.autostart_requirement_days_of_week)
      if (next !== null && next.allowed && deadline > next.at.getTime()) deadline = next.at.getTime() + ttl
    }
  }
  let maxDeadline: number | null = null
  if (template.autostop_requirement_days_of_week !== 0 && input.quietHoursSchedule !== "") {
    const parsed = parseDailySchedule(input.quietHoursSchedule)
    if (Either.isLeft(parsed)) return Either.left(parsed.left)
    const quiet = parsed.right
    const zone = quiet.timezone
    let stopDay = startOfDay(t + AUTOSTOP_REQUIREMENT_LEEWAY_MS, zone)
    if (template.autostop_requirement_weeks > 1) {
      const monday = nextApplicableMonday(new Date(stopDay), template.autostop_requirement_weeks, zone)
      if (Either.isLeft(monday)) {
        return fail(`determine start of stop week: get current week number: ${monday.left.message}`)
      }
      stopDay = monday.right.getTime()
    }
    // A window that has passed or is under two hours away bounces to the next day's.
    const first = nextOccurrence(quiet, new Date(stopDay - AUTOSTOP_REQUIREMENT_BUFFER_MS))
    if (first === null || first.getTime() < t + AUTOSTOP_REQUIREMENT_LEEWAY_MS) stopDay = startOfNextDay(stopDay, zone)
    for (let i = 0;; i++) {
      if (i === 7) return fail("could not find suitable day for template autostop requirement in the next 7 days")
      if (maskHasDay(template.autostop_requirement_days_of_week, wallAt(stopDay, zone).weekday)) break
      stopDay = startOfNextDay(stopDay, zone)
    }
    const checkFrom = stopDay < t + HOUR ? t + HOUR : stopDay - AUTOSTOP_REQUIREMENT_BUFFER_MS
    const max = nextOccurrence(quiet, new Date(checkFrom))
    if (max === null) {
      return fail(
        `could not find next occurrence of template autostop requirement in user quiet hours schedule, checked from time "${
          new Date(checkFrom).toISOString()
        }"`
      )
    }
    maxDeadline = max.getTime()
  }
  if (maxDeadline !== null && (deadline === null || maxDeadline < deadline)) deadline = maxDeadline
  if ((deadline !== null && deadline < t) || (maxDeadline !== null && maxDeadline < t)) {
    return fail("deadline calculation error, computed deadline or max deadline is in the past for workspace build")
  }
  return Either.right({
    deadline: deadline === null ? null : new Date(deadline),
    max_deadline: maxDeadline === null ? null : new Date(maxDeadline)
  })
}

// ---------------------------------------------------------------------------------------------
// The schedule routes

/** Shortest time to live a user may set. */
export const TTL_MIN_MS = MINUTE
/** Longest time to live a user may set. */
export const TTL_MAX_MS = 30 * DAY

/**
 * A requested `ttl_ms`, truncated to whole minutes: `null`/0 is the template's default ttl
 * (`templateDefaultMs`, none when 0). Refused below one minute and above 30 days.
 */
export const validateTtlMs = (
  ttlMs: number | null | undefined,
  templateDefaultMs = 0
): Either.Either<number | null, ScheduleError> => {
  if (ttlMs === null || ttlMs === undefined || ttlMs === 0) {
    return Either.right(templateDefaultMs === 0 ? null : templateDefaultMs)
  }
  const truncated = Math.trunc(ttlMs / MINUTE) * MINUTE
  if (truncated < TTL_MIN_MS) return fail("time until shutdown must be at least one minute")
  if (truncated > TTL_MAX_MS) return fail("time until shutdown must be less than 30 days")
  return Either.right(truncated)
}

/**
 * `PUT /workspaces/{workspace}/ttl`: the workspace's new `ttl_ms` (`null`: no autostop; 0 does
 * not mean the template's default here). Refused when the template forbids users their own.
 * When the ttl is cleared, the latest build, if a start, loses its deadline (its max deadline stays).
 */
export const ttlUpdate = (
  template: Pick<TemplateRecord, "allow_user_autostop">,
  ttlMs: number | null | undefined
): Either.Either<number | null, BadRequest> => {
  const refuse = (detail: string) =>
    new BadRequest({
      message: "Error updating workspace time until shutdown.",
      validations: [new Validation({ field: "ttl_ms", detail })]
    })
  if (!template.allow_user_autostop) {
    return Either.left(refuse("Custom autostop TTL is not allowed for workspaces using this template."))
  }
  return Either.mapLeft(validateTtlMs(ttlMs, 0), (e) => refuse(e.message))
}

/**
 * `PUT /workspaces/{workspace}/autostart`: the stored schedule (`""` for none) and the
 * workspace's `next_start_at`. The schedule is validated first, then the template must allow
 * autostart (even to clear it).
 */
export const autostartUpdate = (
  template: Pick<TemplateRecord, "allow_user_autostart" | "autostart_requirement_days_of_week">,
  schedule: string | null | undefined,
  now: Date
): Either.Either<{ readonly autostart_schedule: string; readonly next_start_at: Date | null }, BadRequest> => {
  const raw = schedule ?? ""
  if (raw !== "") {
    const parsed = parseWeeklySchedule(raw)
    if (Either.isLeft(parsed)) {
      return Either.left(BadRequest.field("schedule", parsed.left.message, "Invalid autostart schedule."))
    }
  }
  if (!template.allow_user_autostart) {
    const why = "Autostart is not allowed for workspaces using this template."
    return Either.left(BadRequest.field("schedule", why, why))
  }
  return Either.right({
    autostart_schedule: raw,
    next_start_at: raw === "" ? null : nextAllowedAutostart(raw, now, template.autostart_requirement_days_of_week)
  })
}

/** A schedule given on workspace creation: `""` for none, else it must read as a weekly schedule. */
export const validateAutostartSchedule = (
  schedule: string | null | undefined
): Either.Either<string, ScheduleError> => {
  const raw = schedule ?? ""
  if (raw === "") return Either.right("")
  return Either.map(parseWeeklySchedule(raw), () => raw)
}

/** Go's RFC 3339 form of a time in UTC (whole seconds). */
const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z")

export interface ExtendInput {
  readonly now: Date
  readonly build: Pick<WorkspaceBuildRecord, "transition" | "deadline" | "max_deadline">
  /** When the build's job completed; `null` while it runs. */
  readonly jobCompletedAt: Date | null
  readonly requested: Date
}

/**
 * `PUT /workspaces/{workspace}/extend`: the build's new deadline and the answer's message.
 * 409 unless the latest build is a finished start with a deadline; 400 when the new deadline
 * is under 30 minutes away (29, as the described system checks), before the build finished,
 * or after the max deadline.
 */
export const extendDeadline = (
  input: ExtendInput
): Either.Either<{ readonly deadline: Date; readonly message: string }, BadRequest | Conflict> => {
  const { build, requested } = input
  if (build.transition !== "start") {
    return Either.left(new Conflict({ message: `Workspace must be started, current status: ${build.transition}` }))
  }
  if (input.jobCompletedAt === null) return Either.left(new Conflict({ message: "Workspace is still building!" }))
  if (build.deadline === null) return Either.left(new Conflict({ message: "Workspace shutdown is manual." }))
  if (requested.getTime() < input.now.getTime() + 29 * MINUTE) {
    return Either.left(
      new BadRequest({ message: "Cannot extend workspace: new deadline must be at least 30 minutes in the future" })
    )
  }
  if (requested.getTime() < input.jobCompletedAt.getTime()) {
    return Either.left(
      new BadRequest({ message: "Cannot extend workspace: new deadline must be before workspace start time" })
    )
  }
  if (build.max_deadline !== null && requested.getTime() > build.max_deadline.getTime()) {
    return Either.left(new BadRequest({ message: "Cannot extend workspace beyond max deadline." }))
  }
  return Either.right({ deadline: requested, message: `Deadline updated to ${rfc3339(requested)}.` })
}

export interface ActivityBumpInput {
  readonly now: Date
  readonly build: Pick<WorkspaceBuildRecord, "transition" | "deadline" | "max_deadline">
  readonly jobCompleted: boolean
  readonly workspace: Pick<WorkspaceRecord, "ttl_ms" | "autostart_schedule">
  readonly template: Pick<
    TemplateRecord,
    "activity_bump_ms" | "allow_user_autostop" | "default_ttl_ms" | "autostart_requirement_days_of_week"
  >
}

/**
 * Activity on a running workspace: its latest build's new deadline, or `null` to leave it.
 * The deadline moves to now + the template's activity bump, never earlier than it was and never
 * past the max deadline; when that would cross the next allowed autostart, to the autostart +
 * the ttl instead. Only finished start builds with a deadline are bumped, only when the
 * template bumps, and only once 5% of the bump has elapsed (deadline - 95% of it is past).
 */
export const activityBump = (input: ActivityBumpInput): Date | null => {
  const { build, template, workspace } = input
  const t = input.now.getTime()
  if (!input.jobCompleted || build.transition !== "start" || build.deadline === null) return null
  if (template.activity_bump_ms <= 0) return null
  let next: number | null = null
  if (workspace.autostart_schedule !== "") {
    const found = nextAutostart(workspace.autostart_schedule, input.now, template.autostart_requirement_days_of_week)
    if (found !== null && found.allowed) next = found.at.getTime()
  }
  let interval: number | null = template.activity_bump_ms
  if (next !== null && t + template.activity_bump_ms > next && next > t) {
    const ttl = template.allow_user_autostop ? workspace.ttl_ms : template.default_ttl_ms
    interval = ttl === null ? null : next - t + ttl
  }
  if (interval === null || interval <= 0) return null
  const deadline = build.deadline.getTime()
  if (!(deadline - interval * 0.95 < t)) return null
  let bumped = Math.max(deadline, t + interval)
  if (build.max_deadline !== null) bumped = Math.min(bumped, build.max_deadline.getTime())
  return bumped === deadline ? null : new Date(bumped)
}

// ---------------------------------------------------------------------------------------------
// The lifecycle executor's decisions

/** Which rule moved the workspace. Failed stops build with reason `autostop`, as the described system's do. */
export type LifecycleRule = "autostart" | "autostop" | "failedstop" | "dormancy" | "autodelete"

/** A build the executor starts, as the workspace's owner. */
export interface LifecycleBuild {
  readonly transition: WorkspaceTransition
  readonly reason: BuildReason
  /** Build the template's active version (autostart with automatic updates, or a template requiring it). */
  readonly activeVersion: boolean
}

export interface LifecycleDecision {
  readonly rule: LifecycleRule
  /** `null` when the workspace only changes (a stopped workspace going dormant). */
  readonly build: LifecycleBuild | null
  /** What to store on the workspace along with the build. */
  readonly patch: WorkspacePatch
}

export interface LifecycleInput {
  /** The tick (the executor truncates it to the minute). */
  readonly now: Date
  readonly workspace: Pick<
    WorkspaceRecord,
    | "deleted"
    | "autostart_schedule"
    | "automatic_updates"
    | "last_used_at"
    | "dormant_at"
    | "deleting_at"
    | "next_start_at"
  >
  readonly latestBuild: Pick<WorkspaceBuildRecord, "transition" | "created_at" | "deadline">
  readonly job: Pick<ProvisionerJobRecord, "started_at" | "canceled_at" | "completed_at" | "error">
  readonly template: Pick<
    TemplateRecord,
    | "allow_user_autostart"
    | "autostart_requirement_days_of_week"
    | "failure_ttl_ms"
    | "time_til_dormant_ms"
    | "time_til_dormant_autodelete_ms"
    | "require_active_version"
  >
  readonly ownerStatus: UserStatus
}

/** How long a failed delete waits before the executor tries again. */
export const AUTODELETE_RETRY_MS = DAY

/**
 * For each rule that can fire on this state, the first instant (ms) from which it does, in the
 * described system's order. Each rule's condition on the time is `now >= instant` (a strict
 * `now > x` is `now >= x + 1`), so {@link nextTransition} and {@link lifecycleDueAt} read the
 * same thresholds and cannot disagree.
 */
const ruleTimes = (input: Omit<LifecycleInput, "now">): ReadonlyArray<readonly [LifecycleRule, number]> => {
  const { job, latestBuild: build, template, workspace } = input
  const status = jobStatus(job)
  // Nothing while the latest build's job is unfinished (a build could not start); its end is a change.
  if (workspace.deleted || status === "pending" || status === "running" || status === "canceling") return []
  const failed = status === "failed"
  const dormant = workspace.dormant_at !== null
  const times: Array<readonly [LifecycleRule, number]> = []

  // Autostop: past the deadline, or at once when the owner is suspended.
  if (!failed && !dormant && build.transition === "start") {
    if (input.ownerStatus === "suspended") times.push(["autostop", Number.NEGATIVE_INFINITY])
    else if (build.deadline !== null) times.push(["autostop", build.deadline.getTime()])
  }

  // Autostart: the schedule's first allowed time after the stop build, once `next_start_at` has
  // come too (a schedule set after a missed time waits for its next one; none stored: no wait).
  if (
    input.ownerStatus === "active" && !failed && !dormant && build.transition === "stop" &&
    template.allow_user_autostart && workspace.autostart_schedule !== ""
  ) {
    const next = nextAllowedAutostart(
      workspace.autostart_schedule,
      build.created_at,
      template.autostart_requirement_days_of_week
    )
    if (next !== null) {
      times.push([
        "autostart",
        Math.max(next.getTime(), workspace.next_start_at?.getTime() ?? Number.NEGATIVE_INFINITY)
      ])
    }
  }

  // Failed stop: a failed start left alone longer than the template's failure ttl.
  if (template.failure_ttl_ms > 0 && failed && build.transition === "start" && job.completed_at !== null) {
    times.push(["failedstop", job.completed_at.getTime() + template.failure_ttl_ms + 1])
  }

  // Dormancy: unused longer than the template's time til dormant.
  if (!dormant && template.time_til_dormant_ms > 0) {
    times.push(["dormancy", workspace.last_used_at.getTime() + template.time_til_dormant_ms + 1])
  }

  // Autodelete: dormant past deleting_at; a failed delete is retried a day after it failed.
  if (dormant && workspace.deleting_at !== null && template.time_til_dormant_autodelete_ms > 0) {
    const after = workspace.deleting_at.getTime() + 1
    if (build.transition === "delete" && failed) {
      if (job.completed_at !== null) {
        times.push(["autodelete", Math.max(after, job.completed_at.getTime() + AUTODELETE_RETRY_MS + 1)])
      }
    } else times.push(["autodelete", after])
  }
  return times
}

/**
 * What the lifecycle executor must do to a workspace now, in the described system's order
 * (`getNextTransition`): autostop, autostart, failed stop, dormancy, autodelete; `null` for
 * nothing. Nothing happens while the latest build's job is unfinished (a build could not start).
 */
export const nextTransition = (input: LifecycleInput): LifecycleDecision | null => {
  const t = input.now.getTime()
  const due = ruleTimes(input).find(([, from]) => from <= t)
  if (due === undefined) return null
  const stop = (reason: BuildReason): LifecycleBuild => ({ transition: "stop", reason, activeVersion: false })
  switch (due[0]) {
    case "autostop":
      return { rule: "autostop", build: stop("autostop"), patch: {} }
    case "autostart": {
      const activeVersion = input.template.require_active_version || input.workspace.automatic_updates === "always"
      return { rule: "autostart", build: { transition: "start", reason: "autostart", activeVersion }, patch: {} }
    }
    case "failedstop":
      return { rule: "failedstop", build: stop("autostop"), patch: {} }
    case "dormancy":
      // A running workspace is also stopped.
      return {
        rule: "dormancy",
        build: input.latestBuild.transition === "start" ? stop("dormancy") : null,
        patch: dormancyPatch(true, input.template, new Date(t))
      }
    case "autodelete":
      return {
        rule: "autodelete",
        build: { transition: "delete", reason: "autodelete", activeVersion: false },
        patch: {}
      }
  }
}

/**
 * When the lifecycle executor next has to look at this workspace: the first `now` for which
 * {@link nextTransition} decides something (before it, it decides nothing; from it on, it
 * does), the epoch for "at once" (an owner suspended while the workspace runs), `null` when no
 * time would do (nothing can happen until the workspace, its latest build or job, its template
 * or its owner changes). Storages keep it on the workspace so that a tick reads only the
 * workspaces due (docs/workspaces.md "How a tick finds its workspaces").
 */
export const lifecycleDueAt = (input: Omit<LifecycleInput, "now">): Date | null => {
  const times = ruleTimes(input)
  if (times.length === 0) return null
  return new Date(Math.max(0, Math.min(...times.map(([, from]) => from))))
}

/**
 * What `dormant_at`/`deleting_at`/`last_used_at` become when a workspace is made dormant or
 * active (`PUT /workspaces/{workspace}/dormant`, the executor's dormancy): dormant sets
 * `deleting_at` to dormant_at + the template's autodelete time (none when 0); active clears
 * both and sets `last_used_at` to now, so the workspace does not go dormant again at once.
 */
export const dormancyPatch = (
  dormant: boolean,
  template: Pick<TemplateRecord, "time_til_dormant_autodelete_ms">,
  now: Date
): WorkspacePatch =>
  dormant
    ? {
      dormant_at: now,
      deleting_at: template.time_til_dormant_autodelete_ms > 0
        ? new Date(now.getTime() + template.time_til_dormant_autodelete_ms)
        : null
    }
    : { dormant_at: null, deleting_at: null, last_used_at: now }
