/**
 * Schedules, with no HTTP and no storage: the one place cron schedules, days of week, weeks and
 * times to live are read and checked, for users (quiet hours), workspaces (autostart, ttl) and
 * templates (autostop and autostart requirements) alike. Its refusals are the described system's
 * messages (its `coderd/schedule/cron` package, robfig/cron's parser, `validWorkspaceSchedule`
 * and `validWorkspaceTTLMillis`). Every function is pure: the caller passes `now`.
 *
 * Schedules are `[CRON_TZ=<zone>] <minute> <hour> <day-of-month> <month> <day-of-week>`, read as
 * robfig/cron reads them; weekly ones (autostart) need day of month and month `*`, daily ones
 * (quiet hours) day of week too. Without `CRON_TZ` the times are UTC. Times of day are read in
 * the schedule's own time zone, so daylight-saving changes move the instant, never the wall-clock
 * time. Days-of-week masks are the templates' (bit 0 = Monday ... bit 6 = Sunday); cron
 * day-of-week values are cron's (0 = Sunday ... 6 = Saturday).
 */
import { Data, Either } from "effect"

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
export interface Wall {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly weekday: number
}

export const wallAt = (ms: number, zone: string): Wall => {
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
export const instantOfWallLenient = (zone: string, y: number, m: number, d: number, h: number, min: number): number =>
  instantOfWall(zone, y, m, d, h, min) ??
    Date.UTC(y, m - 1, d, h, min) - offsetAt(Date.UTC(y, m - 1, d, h, min) - DAY, zone)

/** The start of the zone's calendar day holding `ms`. */
export const startOfDay = (ms: number, zone: string) => {
  const w = wallAt(ms, zone)
  return instantOfWallLenient(zone, w.year, w.month, w.day, 0, 0)
}

/** The start of the zone's calendar day after the one holding `ms`. */
export const startOfNextDay = (ms: number, zone: string) => {
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

/** A quiet-hours schedule: its schedule, its zone, its one time of day (`HH:MM`) and its next start after `now`. */
export interface QuietHours {
  readonly schedule: CronSchedule
  readonly timezone: string
  readonly time: string
  readonly next: Date
}

/**
 * Reads a quiet-hours schedule, as the described system's user quiet-hours store does: a daily
 * schedule naming one time of day (plain minute and hour fields). Surrounding space is ignored.
 */
export const parseQuietHoursSchedule = (raw: string, now: Date): Either.Either<QuietHours, ScheduleError> => {
  const text = raw.trim()
  const parsed = parseDailySchedule(text)
  if (Either.isLeft(parsed)) return fail(`parse daily schedule ${JSON.stringify(text)}: ${parsed.left.message}`)
  const [minute, hour] = parsed.right.cron.split(" ")
  // The described system formats the two fields as a time of day; anything but numbers is not one.
  if (!/^\d{1,2}$/.test(minute!) || !/^\d{1,2}$/.test(hour!)) {
    return fail(`daily schedule ${JSON.stringify(text)} has more than one time: cron(${minute} ${hour})`)
  }
  const next = nextOccurrence(parsed.right, now)!
  return Either.right({
    schedule: parsed.right,
    timezone: parsed.right.timezone,
    time: `${hour!.padStart(2, "0")}:${minute!.padStart(2, "0")}`,
    next
  })
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

/** Days of the week as the described system names them, in the order of its bit masks (bit 0 = Monday). */
export const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const
export type Weekday = (typeof weekdays)[number]

/** The names of the days set in `mask`, Monday first. */
export const daysOfMask = (mask: number): Array<Weekday> => weekdays.filter((_, i) => (mask & (1 << i)) !== 0)

/** The bit mask of day names (already validated, lowercase). */
export const maskOfDays = (days: ReadonlyArray<string>): number =>
  days.reduce((mask, d) => mask | (1 << weekdays.indexOf(d as Weekday)), 0)

/** What is wrong with a list of day names (any case), or `undefined` when nothing is. */
export const weekdaysProblem = (days: ReadonlyArray<string>): string | undefined => {
  const bad = days.filter((d) => !(weekdays as ReadonlyArray<string>).includes(d.toLowerCase()))
  if (bad.length > 0) {
    return `Invalid day${bad.length === 1 ? "" : "s"} of week: ${bad.map((d) => `"${d}"`).join(", ")}.`
  }
  if (new Set(days.map((d) => d.toLowerCase())).size !== days.length) return "A day of week cannot be listed twice."
  return undefined
}

/** The most weeks between required restarts (the described system's limit). */
export const MAX_AUTOSTOP_WEEKS = 16

// ---------------------------------------------------------------------------------------------
// Times to live and the schedules workspaces are given

/** Shortest time to live a user may set. */
export const TTL_MIN_MS = MINUTE
/** Longest time to live a user may set. */
export const TTL_MAX_MS = 30 * DAY

/** Why a time to live (already whole minutes, or as given) is refused, or `undefined` when it is not. */
export const ttlProblem = (ttlMs: number): string | undefined =>
  ttlMs < TTL_MIN_MS
    ? "time until shutdown must be at least one minute"
    : ttlMs > TTL_MAX_MS
    ? "time until shutdown must be less than 30 days"
    : undefined

/**
 * A requested `ttl_ms`, truncated to whole minutes: `null`/0 is the template's default ttl
 * (`templateDefaultMs`, none when 0). Refused below one minute and above 30 days
 * (the described system's `validWorkspaceTTLMillis`).
 */
export const validateTtlMs = (
  ttlMs: number | null | undefined,
  templateDefaultMs = 0
): Either.Either<number | null, ScheduleError> => {
  if (ttlMs === null || ttlMs === undefined || ttlMs === 0) {
    return Either.right(templateDefaultMs === 0 ? null : templateDefaultMs)
  }
  const truncated = Math.trunc(ttlMs / MINUTE) * MINUTE
  const problem = ttlProblem(truncated)
  return problem === undefined ? Either.right(truncated) : fail(problem)
}

/**
 * An autostart schedule as given: `""` for none, else it must read as a weekly schedule (the
 * described system's `validWorkspaceSchedule`).
 */ export const validateAutostartSchedule = (
  schedule: string | null | undefined
): Either.Either<string, ScheduleError> => {
  const raw = schedule ?? ""
  if (raw === "") return Either.right("")
  return Either.map(parseWeeklySchedule(raw), () => raw)
}
