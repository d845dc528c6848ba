/**
 * Schedule rules: cron parsing, next autostart in a zone across DST changes, deadlines and max
 * deadlines (the described system's own CalculateAutostop cases), the schedule routes' rules and
 * every branch of the lifecycle executor's decision. Every time is fixed; nothing waits.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import {
  nextApplicableMonday,
  nextOccurrence,
  parseDailySchedule,
  parseWeeklySchedule,
  validateAutostartSchedule,
  validateTtlMs,
  weeksSinceEpoch
} from "../../src/Schedule.js"
import {
  activityBump,
  type ActivityBumpInput,
  autostartUpdate,
  type AutostopInput,
  calculateAutostop,
  dormancyPatch,
  extendDeadline,
  type ExtendInput,
  lifecycleDueAt,
  type LifecycleInput,
  nextAllowedAutostart,
  nextAutostart,
  nextStartAt,
  nextTransition,
  ttlUpdate
} from "../../src/workspaces/Schedule.js"

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const at = (iso: string) => new Date(iso)

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`)
  return e.right
}
const left = <A, E>(e: Either.Either<A, E>): E => {
  if (Either.isRight(e)) throw new Error(`expected Left, got ${JSON.stringify(e.right)}`)
  return e.left
}

// Bit 0 = Monday ... bit 6 = Sunday.
const MON = 1, TUE = 2, WED = 4, SAT = 32, SUN = 64, ALL = 127

describe("weekly schedules", () => {
  it("reads minute, hour and day of week in the named zone", () => {
    const s = right(parseWeeklySchedule("CRON_TZ=Europe/Dublin 30 9 * * 1-5"))
    expect(s.timezone).toBe("Europe/Dublin")
    expect(s.cron).toBe("30 9 * * 1-5")
    expect(s.minutes).toEqual([30])
    expect(s.hours).toEqual([9])
    expect([...s.daysOfWeek].sort()).toEqual([1, 2, 3, 4, 5])
  })

  it("reads times in UTC without CRON_TZ", () => {
    expect(right(parseWeeklySchedule("30 9 * * *")).timezone).toBe("UTC")
  })

  it("reads lists, steps and day names", () => {
    const s = right(parseWeeklySchedule("CRON_TZ=UTC 0,30 */6 * * MON-WED,sat"))
    expect(s.minutes).toEqual([0, 30])
    expect(s.hours).toEqual([0, 6, 12, 18])
    expect([...s.daysOfWeek].sort()).toEqual([1, 2, 3, 6])
  })

  it.each([
    ["30 9 1 * 1", "validate weekly schedule: expected day-of-month and month to be *"],
    ["30 9 * 1 1", "validate weekly schedule: expected day-of-month and month to be *"],
    [
      "30 9 *",
      "validate weekly schedule: expected schedule to consist of 5 fields with an optional CRON_TZ=<timezone> prefix"
    ],
    [
      "CRON_TZ=Mars/Olympus 30 9 * * *",
      "parse schedule: provided bad location Mars/Olympus: unknown time zone Mars/Olympus"
    ],
    ["CRON_TZ=+05:00 30 9 * * *", "parse schedule: provided bad location +05:00: unknown time zone +05:00"],
    ["CRON_TZ=Local 30 9 * * *", "parse schedule: schedules scoped to time.Local are not supported"],
    ["61 9 * * *", "parse schedule: end of range (61) above maximum (59): 61"],
    ["0 24 * * *", "parse schedule: end of range (24) above maximum (23): 24"],
    ["0 9 * * 7", "parse schedule: end of range (7) above maximum (6): 7"],
    ["0 9 * * 5-2", "parse schedule: beginning of range (5) beyond end of range (2): 5-2"],
    ["x 9 * * *", "parse schedule: failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"],
    ["0 9 * * 1-2-3", "parse schedule: too many hyphens: 1-2-3"],
    ["*/0 9 * * *", "parse schedule: step of range should be a positive number: */0"],
    ["0 * * * * *", "parse schedule: expected exactly 5 fields, found 6: [0 * * * * *]"],
    ["CRON_TZ=UTC 0 9 * * * *", "validate weekly schedule: expected day-of-month and month to be *"]
  ])("refuses %s", (raw, message) => {
    expect(left(parseWeeklySchedule(raw)).message).toBe(message)
  })

  it("daily schedules refuse a day of week", () => {
    expect(left(parseDailySchedule("CRON_TZ=UTC 0 0 * * 1")).message).toBe(
      "validate daily schedule: expected day-of-month, month and day-of-week to be *"
    )
    expect(right(parseDailySchedule("CRON_TZ=Australia/Sydney 0 0 * * *")).timezone).toBe("Australia/Sydney")
  })
})

describe("next occurrence", () => {
  const next = (raw: string, after: string) => nextOccurrence(right(parseWeeklySchedule(raw)), at(after))?.toISOString()

  it("reads the wall clock of the schedule's zone, winter and summer", () => {
    expect(next("CRON_TZ=America/New_York 30 9 * * *", "2024-01-10T00:00:00Z")).toBe("2024-01-10T14:30:00.000Z")
    expect(next("CRON_TZ=America/New_York 30 9 * * *", "2024-07-10T00:00:00Z")).toBe("2024-07-10T13:30:00.000Z")
  })

  it("is strictly after the given time", () => {
    expect(next("CRON_TZ=UTC 0 9 * * *", "2024-01-10T09:00:00Z")).toBe("2024-01-11T09:00:00.000Z")
    expect(next("CRON_TZ=UTC 0 9 * * *", "2024-01-10T08:59:59Z")).toBe("2024-01-10T09:00:00.000Z")
  })

  it("keeps 9:00 at 9:00 across the spring DST change", () => {
    // Saturday 9:00 EST is 14:00Z; Sunday 9:00 EDT is 13:00Z.
    expect(next("CRON_TZ=America/New_York 0 9 * * *", "2024-03-09T13:00:00Z")).toBe("2024-03-09T14:00:00.000Z")
    expect(next("CRON_TZ=America/New_York 0 9 * * *", "2024-03-09T15:00:00Z")).toBe("2024-03-10T13:00:00.000Z")
  })

  it("skips a time the clocks jump over", () => {
    // 2:30 does not exist in New York on 2024-03-10.
    expect(next("CRON_TZ=America/New_York 30 2 * * *", "2024-03-09T08:00:00Z")).toBe("2024-03-11T06:30:00.000Z")
  })

  it("takes a time the clocks read twice once, at its first reading", () => {
    // 1:30 happens at 05:30Z (EDT) and 06:30Z (EST) in New York on 2024-11-03.
    expect(next("CRON_TZ=America/New_York 30 1 * * *", "2024-11-03T00:00:00Z")).toBe("2024-11-03T05:30:00.000Z")
    expect(next("CRON_TZ=America/New_York 30 1 * * *", "2024-11-03T05:30:00Z")).toBe("2024-11-04T06:30:00.000Z")
  })

  it("matches days of week in the schedule's zone", () => {
    // Monday 8:00 in Auckland is Sunday 19:00Z.
    expect(next("CRON_TZ=Pacific/Auckland 0 8 * * 1", "2024-01-06T00:00:00Z")).toBe("2024-01-07T19:00:00.000Z")
  })
})

describe("autostart", () => {
  it("says whether the next time falls on an allowed day, and finds the next allowed one", () => {
    // 2024-01-01 is a Monday; weekdays at 9:00 UTC; only Mondays allowed.
    const schedule = "CRON_TZ=UTC 00 09 * * 1-5"
    const from = at("2024-01-01T10:00:00Z")
    const found = nextAutostart(schedule, from, MON)
    expect(found?.at.toISOString()).toBe("2024-01-02T09:00:00.000Z")
    expect(found?.allowed).toBe(false)
    expect(nextAllowedAutostart(schedule, from, MON)?.toISOString()).toBe("2024-01-08T09:00:00.000Z")
  })

  it("skips disallowed days of a daily schedule", () => {
    // Wednesday 2024-01-03; weekends only.
    expect(nextAllowedAutostart("CRON_TZ=UTC 0 9 * * *", at("2024-01-03T12:00:00Z"), SAT | SUN)?.toISOString())
      .toBe("2024-01-06T09:00:00.000Z")
  })

  it("reads the allowed day in the schedule's zone", () => {
    // Monday 8:00 in Auckland is Sunday in UTC; Mondays are allowed.
    const found = nextAutostart("CRON_TZ=Pacific/Auckland 0 8 * * *", at("2024-01-07T12:00:00Z"), MON)
    expect(found?.at.toISOString()).toBe("2024-01-07T19:00:00.000Z")
    expect(found?.allowed).toBe(true)
  })

  it("finds nothing when no day is allowed or the schedule is bad", () => {
    expect(nextAllowedAutostart("CRON_TZ=UTC 0 9 * * *", at("2024-01-03T12:00:00Z"), 0)).toBeNull()
    expect(nextAutostart("0 9 1 * *", at("2024-01-03T12:00:00Z"), ALL)).toBeNull()
  })

  it("next_start_at follows the schedule and the template's days", () => {
    const now = at("2024-01-03T12:00:00Z")
    expect(nextStartAt({ autostart_schedule: "" }, { autostart_requirement_days_of_week: ALL }, now)).toBeNull()
    expect(
      nextStartAt({ autostart_schedule: "CRON_TZ=UTC 0 9 * * *" }, { autostart_requirement_days_of_week: SAT }, now)
        ?.toISOString()
    ).toBe("2024-01-06T09:00:00.000Z")
  })

  it("PUT autostart stores the schedule with its next start", () => {
    const template = { allow_user_autostart: true, autostart_requirement_days_of_week: ALL }
    const ok = right(autostartUpdate(template, "CRON_TZ=Europe/Paris 0 8 * * 1-5", at("2024-01-05T12:00:00Z")))
    expect(ok.autostart_schedule).toBe("CRON_TZ=Europe/Paris 0 8 * * 1-5")
    expect(ok.next_start_at?.toISOString()).toBe("2024-01-08T07:00:00.000Z")
    expect(right(autostartUpdate(template, "", at("2024-01-05T12:00:00Z")))).toEqual({
      autostart_schedule: "",
      next_start_at: null
    })
    expect(right(autostartUpdate(template, null, at("2024-01-05T12:00:00Z"))).autostart_schedule).toBe("")
  })

  it("PUT autostart refuses a bad schedule, then a template without user autostart", () => {
    const bad = left(
      autostartUpdate({ allow_user_autostart: true, autostart_requirement_days_of_week: ALL }, "0 9 1 * *", new Date(0))
    )
    expect(bad.message).toBe("Invalid autostart schedule.")
    expect(bad.validations).toEqual([{
      field: "schedule",
      detail: "validate weekly schedule: expected day-of-month and month to be *"
    }])
    const refused = left(
      autostartUpdate({ allow_user_autostart: false, autostart_requirement_days_of_week: ALL }, "", new Date(0))
    )
    expect(refused.message).toBe("Autostart is not allowed for workspaces using this template.")
    expect(refused.validations?.[0]?.field).toBe("schedule")
  })

  it("a schedule on creation is empty or weekly", () => {
    expect(right(validateAutostartSchedule(undefined))).toBe("")
    expect(right(validateAutostartSchedule("CRON_TZ=UTC 0 9 * * 1"))).toBe("CRON_TZ=UTC 0 9 * * 1")
    expect(Either.isLeft(validateAutostartSchedule("nope"))).toBe(true)
  })
})

describe("weeks since the epoch", () => {
  it("counts calendar weeks from Monday 2023-01-02 in the zone", () => {
    expect(right(weeksSinceEpoch(at("2023-01-02T00:00:00Z"), "UTC"))).toBe(0)
    expect(right(weeksSinceEpoch(at("2023-01-08T23:59:59Z"), "UTC"))).toBe(0)
    expect(right(weeksSinceEpoch(at("2023-01-09T00:00:00Z"), "UTC"))).toBe(1)
    // Wednesday 2023-02-08 is in week 5; in Sydney it is already Wednesday at 13:00Z the day before.
    expect(right(weeksSinceEpoch(at("2023-02-08T00:00:00Z"), "UTC"))).toBe(5)
    expect(right(weeksSinceEpoch(at("2023-02-05T13:30:00Z"), "Australia/Sydney"))).toBe(5)
    expect(right(weeksSinceEpoch(at("2023-02-05T13:30:00Z"), "UTC"))).toBe(4)
  })

  it("refuses a time before the epoch", () => {
    expect(left(weeksSinceEpoch(at("2023-01-01T23:00:00Z"), "UTC")).message).toContain("system clock is incorrect")
  })

  it("counts across DST changes without losing a week", () => {
    // Every Monday of 2024 and 2025 in New York and Sydney is one more week than the one before.
    for (const zone of ["America/New_York", "Australia/Sydney"]) {
      let previous = right(weeksSinceEpoch(at("2024-01-01T12:00:00Z"), zone))
      for (let i = 1; i < 104; i++) {
        const week = right(weeksSinceEpoch(new Date(Date.parse("2024-01-01T12:00:00Z") + i * 7 * DAY), zone))
        expect(week).toBe(previous + 1)
        previous = week
      }
    }
  })

  it("moves to the Monday of the next applicable week", () => {
    // Week 5 is not a fortnight week; week 6 starts Monday 2023-02-13.
    expect(right(nextApplicableMonday(at("2023-02-08T00:00:00Z"), 2, "UTC")).toISOString()).toBe(
      "2023-02-13T00:00:00.000Z"
    )
    expect(right(nextApplicableMonday(at("2023-02-08T00:00:00Z"), 5, "UTC")).toISOString()).toBe(
      "2023-02-08T00:00:00.000Z"
    )
    expect(right(nextApplicableMonday(at("2023-02-08T00:00:00Z"), 3, "Australia/Sydney")).toISOString())
      .toBe("2023-02-12T13:00:00.000Z")
  })
})

describe("calculateAutostop", () => {
  const sydney = "CRON_TZ=Australia/Sydney 0 0 * * *"
  const wednesdayMidnightUTC = "2023-02-08T00:00:00Z"
  const saturdayMidnightSydney = "2023-02-10T13:00:00.000Z"
  const saturdayMidnightSydneyNextWeek = "2023-02-17T13:00:00.000Z"
  const fridayEveningSydney = "2023-02-10T11:00:00Z"

  const base: AutostopInput = {
    now: at("2024-05-01T12:00:00Z"),
    transition: "start",
    workspace: { ttl_ms: null, autostart_schedule: "" },
    template: {
      allow_user_autostop: true,
      default_ttl_ms: 0,
      autostop_requirement_days_of_week: 0,
      autostop_requirement_weeks: 1,
      autostart_requirement_days_of_week: ALL
    },
    quietHoursSchedule: ""
  }
  const calc = (over: {
    now?: string
    ttl?: number | null
    autostart?: string
    allowAutostop?: boolean
    defaultTtl?: number
    days?: number
    weeks?: number
    quiet?: string
    transition?: "start" | "stop" | "delete"
  }) =>
    calculateAutostop({
      now: over.now === undefined ? base.now : at(over.now),
      transition: over.transition ?? "start",
      workspace: { ttl_ms: over.ttl ?? null, autostart_schedule: over.autostart ?? "" },
      template: {
        ...base.template,
        allow_user_autostop: over.allowAutostop ?? true,
        default_ttl_ms: over.defaultTtl ?? 0,
        autostop_requirement_days_of_week: over.days ?? 0,
        autostop_requirement_weeks: over.weeks ?? 1
      },
      quietHoursSchedule: over.quiet ?? ""
    })
  const iso = (r: { deadline: Date | null; max_deadline: Date | null }) => ({
    deadline: r.deadline?.toISOString() ?? null,
    max_deadline: r.max_deadline?.toISOString() ?? null
  })
  const both = (t: string) => ({ deadline: t, max_deadline: t })

  it("without ttl or requirement there is no deadline", () => {
    expect(iso(right(calc({})))).toEqual({ deadline: null, max_deadline: null })
  })

  it("only start builds get deadlines", () => {
    expect(iso(right(calc({ ttl: HOUR, transition: "stop" })))).toEqual({ deadline: null, max_deadline: null })
    expect(iso(right(calc({ ttl: HOUR, transition: "delete", days: ALL, quiet: sydney })))).toEqual({
      deadline: null,
      max_deadline: null
    })
  })

  it("the workspace ttl sets the deadline", () => {
    expect(iso(right(calc({ ttl: HOUR })))).toEqual({ deadline: "2024-05-01T13:00:00.000Z", max_deadline: null })
  })

  it("the template default is ignored when users may set their own", () => {
    expect(iso(right(calc({ defaultTtl: HOUR })))).toEqual({ deadline: null, max_deadline: null })
    expect(iso(right(calc({ defaultTtl: 2 * HOUR, ttl: HOUR }))).deadline).toBe("2024-05-01T13:00:00.000Z")
  })

  it("the template default replaces the workspace ttl when users may not set their own", () => {
    expect(iso(right(calc({ allowAutostop: false, defaultTtl: 3 * HOUR, ttl: 4 * HOUR }))).deadline).toBe(
      "2024-05-01T15:00:00.000Z"
    )
    expect(iso(right(calc({ allowAutostop: false, defaultTtl: 0, ttl: 4 * HOUR }))).deadline).toBeNull()
  })

  it("the max deadline is the next quiet hours on a required day", () => {
    expect(iso(right(calc({ now: wednesdayMidnightUTC, days: SAT, weeks: 0, quiet: sydney })))).toEqual(
      both(saturdayMidnightSydney)
    )
  })

  it("a required stop less than two hours away moves to the next one", () => {
    const now = new Date(Date.parse(saturdayMidnightSydney) - 59 * MIN).toISOString()
    expect(iso(right(calc({ now, days: SAT, weeks: 1, quiet: sydney })))).toEqual(both(saturdayMidnightSydneyNextWeek))
  })

  it("a required stop exactly two hours away is kept", () => {
    expect(iso(right(calc({ now: fridayEveningSydney, days: ALL, weeks: 0, quiet: sydney })))).toEqual(
      both(saturdayMidnightSydney)
    )
  })

  it("every second and third week counts from the epoch", () => {
    const nextWeek = new Date(Date.parse(wednesdayMidnightUTC) + 7 * DAY).toISOString()
    expect(iso(right(calc({ now: wednesdayMidnightUTC, days: SAT, weeks: 2, quiet: sydney })))).toEqual(
      both(saturdayMidnightSydneyNextWeek)
    )
    expect(iso(right(calc({ now: nextWeek, days: SAT, weeks: 2, quiet: sydney })))).toEqual(
      both(saturdayMidnightSydneyNextWeek)
    )
    expect(iso(right(calc({ now: wednesdayMidnightUTC, days: SAT, weeks: 3, quiet: sydney })))).toEqual(
      both(saturdayMidnightSydneyNextWeek)
    )
    expect(iso(right(calc({ now: nextWeek, days: SAT, weeks: 3, quiet: sydney })))).toEqual(
      both(saturdayMidnightSydneyNextWeek)
    )
  })

  it("the requirement caps the workspace ttl and the template default", () => {
    expect(iso(right(calc({ now: fridayEveningSydney, days: SAT, quiet: sydney, ttl: 3 * HOUR })))).toEqual(
      both(saturdayMidnightSydney)
    )
    expect(iso(right(calc({ now: fridayEveningSydney, days: SAT, quiet: sydney, defaultTtl: 3 * HOUR }))))
      .toEqual(both(saturdayMidnightSydney))
    // A ttl shorter than the way to the quiet hours stays.
    expect(iso(right(calc({ now: fridayEveningSydney, days: SAT, quiet: sydney, ttl: HOUR })))).toEqual({
      deadline: "2023-02-10T12:00:00.000Z",
      max_deadline: saturdayMidnightSydney
    })
  })

  it("no quiet hours means no max deadline", () => {
    expect(iso(right(calc({ days: SAT, ttl: HOUR }))).max_deadline).toBeNull()
  })

  it("refuses a time before the epoch with every-n-weeks", () => {
    const e = left(calc({ now: "2023-01-01T10:59:59Z", days: SAT, weeks: 2, quiet: sydney }))
    expect(e.message).toContain("coder server system clock is incorrect")
  })

  it("refuses unreadable quiet hours", () => {
    expect(Either.isLeft(calc({ days: SAT, quiet: "CRON_TZ=Nowhere/Land 0 0 * * *" }))).toBe(true)
  })

  describe("daylight saving (Sydney)", () => {
    it("during DST", () => {
      expect(iso(right(calc({ now: "2023-10-03T13:00:00Z", days: SAT, quiet: sydney })))).toEqual(
        both("2023-10-06T13:00:00.000Z")
      )
    })
    it("DST starts mid-week", () => {
      expect(iso(right(calc({ now: "2023-09-30T14:00:00Z", days: SAT, quiet: sydney })))).toEqual(
        both("2023-10-06T13:00:00.000Z")
      )
    })
    it("DST ends mid-week", () => {
      expect(iso(right(calc({ now: "2024-04-06T13:00:00Z", days: SAT, quiet: sydney })))).toEqual(
        both("2024-04-12T14:00:00.000Z")
      )
    })
    it("quiet hours the clocks skip move to the next day's", () => {
      const r = calc({ now: "2023-09-29T14:00:00Z", days: SUN, quiet: "CRON_TZ=Australia/Sydney 30 2 * * *" })
      expect(iso(right(r))).toEqual(both("2023-10-01T15:30:00.000Z"))
    })
    it("quiet hours on the day the clocks go back", () => {
      const r = calc({ now: "2024-04-05T13:00:00Z", days: SUN, quiet: "CRON_TZ=Australia/Sydney 30 3 * * *" })
      expect(iso(right(r))).toEqual(both("2024-04-06T17:30:00.000Z"))
    })
  })

  describe("a deadline crossing the next autostart", () => {
    // Wednesday 2024-02-14 21:45 in Chicago (CST), autostart daily at 9:00, 12 hour ttl.
    const evening = "2024-02-15T03:45:00Z"
    const autostart = "CRON_TZ=America/Chicago 0 9 * * *"
    it("runs a full ttl from the autostart", () => {
      expect(iso(right(calc({ now: evening, allowAutostop: false, defaultTtl: 12 * HOUR, ttl: 12 * HOUR, autostart }))))
        .toEqual({ deadline: "2024-02-16T03:00:00.000Z", max_deadline: null })
    })
    it("is left alone when it stops before the autostart", () => {
      expect(
        iso(right(calc({ now: "2024-02-15T02:30:00Z", allowAutostop: false, defaultTtl: 12 * HOUR, autostart })))
          .deadline
      )
        .toBe("2024-02-15T14:30:00.000Z")
    })
    it("is capped by an early max deadline", () => {
      const r = calc({
        now: evening,
        allowAutostop: false,
        defaultTtl: 12 * HOUR,
        autostart,
        days: ALL,
        weeks: 0,
        quiet: "CRON_TZ=America/Chicago 0 6 * * *"
      })
      expect(iso(right(r))).toEqual(both("2024-02-15T12:00:00.000Z"))
    })
    it("is capped by a max deadline after the autostart", () => {
      const r = calc({
        now: evening,
        allowAutostop: false,
        defaultTtl: 12 * HOUR,
        autostart,
        days: ALL,
        weeks: 0,
        quiet: "CRON_TZ=America/Chicago 0 11 * * *"
      })
      expect(iso(right(r))).toEqual(both("2024-02-15T17:00:00.000Z"))
    })
    it("ignores an autostart on a day the template disallows", () => {
      const r = calculateAutostop({
        ...base,
        now: at(evening),
        workspace: { ttl_ms: 12 * HOUR, autostart_schedule: autostart },
        template: { ...base.template, autostart_requirement_days_of_week: MON }
      })
      expect(right(r).deadline?.toISOString()).toBe("2024-02-15T15:45:00.000Z")
    })
  })
})

describe("ttl", () => {
  it("truncates to whole minutes and bounds it", () => {
    expect(right(validateTtlMs(90_500))).toBe(MIN)
    expect(right(validateTtlMs(null))).toBeNull()
    expect(right(validateTtlMs(0, 2 * HOUR))).toBe(2 * HOUR)
    expect(right(validateTtlMs(30 * DAY))).toBe(30 * DAY)
    expect(left(validateTtlMs(59_999)).message).toBe("time until shutdown must be at least one minute")
    expect(left(validateTtlMs(-5 * MIN)).message).toBe("time until shutdown must be at least one minute")
    expect(left(validateTtlMs(30 * DAY + MIN)).message).toBe("time until shutdown must be less than 30 days")
  })

  it("PUT ttl: 0 clears it, the template may forbid it", () => {
    expect(right(ttlUpdate({ allow_user_autostop: true }, 0))).toBeNull()
    expect(right(ttlUpdate({ allow_user_autostop: true }, 2 * HOUR))).toBe(2 * HOUR)
    const forbidden = left(ttlUpdate({ allow_user_autostop: false }, HOUR))
    expect(forbidden.message).toBe("Error updating workspace time until shutdown.")
    expect(forbidden.validations).toEqual([
      { field: "ttl_ms", detail: "Custom autostop TTL is not allowed for workspaces using this template." }
    ])
    expect(left(ttlUpdate({ allow_user_autostop: true }, 1)).validations?.[0]?.detail)
      .toBe("time until shutdown must be at least one minute")
  })
})

describe("extend", () => {
  const now = at("2024-05-01T12:00:00Z")
  const build: ExtendInput["build"] = {
    transition: "start",
    deadline: at("2024-05-01T13:00:00Z"),
    max_deadline: at("2024-05-01T20:00:00Z")
  }
  const extend = (
    requested: string,
    over: Partial<typeof build> = {},
    completed: Date | null = at("2024-05-01T11:00:00Z")
  ) => extendDeadline({ now, build: { ...build, ...over }, jobCompletedAt: completed, requested: at(requested) })

  it("moves the deadline and says so", () => {
    expect(right(extend("2024-05-01T15:00:00.250Z"))).toEqual({
      deadline: at("2024-05-01T15:00:00.250Z"),
      message: "Deadline updated to 2024-05-01T15:00:00Z."
    })
    expect(right(extend("2024-05-01T20:00:00Z")).deadline.toISOString()).toBe("2024-05-01T20:00:00.000Z")
    expect(right(extend("2024-05-02T20:00:00Z", { max_deadline: null })).deadline.toISOString()).toBe(
      "2024-05-02T20:00:00.000Z"
    )
  })

  it("may shorten the deadline to 29 minutes ahead", () => {
    expect(Either.isRight(extend("2024-05-01T12:29:00Z"))).toBe(true)
    expect(left(extend("2024-05-01T12:28:59Z")).message).toBe(
      "Cannot extend workspace: new deadline must be at least 30 minutes in the future"
    )
  })

  it("refuses a deadline past the max deadline", () => {
    const e = left(extend("2024-05-01T20:00:01Z"))
    expect(e._tag).toBe("BadRequest")
    expect(e.message).toBe("Cannot extend workspace beyond max deadline.")
  })

  it("conflicts unless the workspace runs with a deadline", () => {
    const stopped = left(extend("2024-05-01T15:00:00Z", { transition: "stop" }))
    expect(stopped._tag).toBe("Conflict")
    expect(stopped.message).toBe("Workspace must be started, current status: stop")
    expect(left(extend("2024-05-01T15:00:00Z", {}, null)).message).toBe("Workspace is still building!")
    expect(left(extend("2024-05-01T15:00:00Z", { deadline: null })).message).toBe("Workspace shutdown is manual.")
  })
})

describe("activity bump", () => {
  const now = at("2024-01-10T08:30:00Z")
  const input = (over: {
    deadline?: Date | null
    max?: Date | null
    bump?: number
    transition?: "start" | "stop"
    completed?: boolean
    autostart?: string
    ttl?: number | null
    allowAutostop?: boolean
  }): ActivityBumpInput => ({
    now,
    build: {
      transition: over.transition ?? "start",
      deadline: over.deadline === undefined ? new Date(now.getTime() + 10 * MIN) : over.deadline,
      max_deadline: over.max ?? null
    },
    jobCompleted: over.completed ?? true,
    workspace: { ttl_ms: over.ttl === undefined ? 8 * HOUR : over.ttl, autostart_schedule: over.autostart ?? "" },
    template: {
      activity_bump_ms: over.bump ?? HOUR,
      allow_user_autostop: over.allowAutostop ?? true,
      default_ttl_ms: 4 * HOUR,
      autostart_requirement_days_of_week: ALL
    }
  })

  it("moves the deadline to now + the bump", () => {
    expect(activityBump(input({}))?.toISOString()).toBe("2024-01-10T09:30:00.000Z")
  })

  it("waits until 5% of the bump has elapsed", () => {
    expect(activityBump(input({ deadline: new Date(now.getTime() + 57 * MIN - 1) }))?.toISOString()).toBe(
      "2024-01-10T09:30:00.000Z"
    )
    expect(activityBump(input({ deadline: new Date(now.getTime() + 57 * MIN) }))).toBeNull()
  })

  it("never passes the max deadline", () => {
    expect(activityBump(input({ max: at("2024-01-10T09:00:00Z") }))?.toISOString()).toBe("2024-01-10T09:00:00.000Z")
  })

  it("crossing the next autostart runs a full ttl from it", () => {
    const autostart = "CRON_TZ=UTC 0 9 * * *"
    expect(activityBump(input({ autostart }))?.toISOString()).toBe("2024-01-10T17:00:00.000Z")
    expect(activityBump(input({ autostart, allowAutostop: false }))?.toISOString()).toBe("2024-01-10T13:00:00.000Z")
    expect(activityBump(input({ autostart, ttl: null }))).toBeNull()
  })

  it("leaves builds that are not running with a deadline", () => {
    expect(activityBump(input({ bump: 0 }))).toBeNull()
    expect(activityBump(input({ transition: "stop" }))).toBeNull()
    expect(activityBump(input({ completed: false }))).toBeNull()
    expect(activityBump(input({ deadline: null }))).toBeNull()
  })
})

describe("lifecycle decisions", () => {
  const now = at("2024-01-02T09:00:00Z")
  const done = {
    started_at: at("2024-01-01T10:00:00Z"),
    canceled_at: null,
    completed_at: at("2024-01-01T10:01:00Z"),
    error: ""
  }
  const base: LifecycleInput = {
    now,
    workspace: {
      deleted: false,
      autostart_schedule: "",
      automatic_updates: "never",
      last_used_at: at("2024-01-01T10:00:00Z"),
      dormant_at: null,
      deleting_at: null,
      next_start_at: null
    },
    latestBuild: { transition: "start", created_at: at("2024-01-01T10:00:00Z"), deadline: null },
    job: done,
    template: {
      allow_user_autostart: true,
      autostart_requirement_days_of_week: ALL,
      failure_ttl_ms: 0,
      time_til_dormant_ms: 0,
      time_til_dormant_autodelete_ms: 0,
      require_active_version: false
    },
    ownerStatus: "active"
  }
  type Over = {
    now?: Date
    workspace?: Partial<LifecycleInput["workspace"]>
    latestBuild?: Partial<LifecycleInput["latestBuild"]>
    job?: Partial<LifecycleInput["job"]>
    template?: Partial<LifecycleInput["template"]>
    ownerStatus?: "active" | "suspended"
  }
  const decide = (o: Over) =>
    nextTransition({
      now: o.now ?? base.now,
      workspace: { ...base.workspace, ...o.workspace },
      latestBuild: { ...base.latestBuild, ...o.latestBuild },
      job: { ...base.job, ...o.job },
      template: { ...base.template, ...o.template },
      ownerStatus: o.ownerStatus ?? base.ownerStatus
    })
  const failedJob = { error: "boom" }

  it("does nothing to a healthy running workspace", () => {
    expect(decide({})).toBeNull()
    expect(decide({ latestBuild: { deadline: at("2024-01-02T09:00:01Z") } })).toBeNull()
  })

  describe("autostop", () => {
    it("stops a running workspace at its deadline", () => {
      expect(decide({ latestBuild: { deadline: now } })).toEqual({
        rule: "autostop",
        build: { transition: "stop", reason: "autostop", activeVersion: false },
        patch: {}
      })
    })
    it("stops a suspended owner's running workspace", () => {
      expect(decide({ ownerStatus: "suspended" })?.rule).toBe("autostop")
    })
    it("leaves failed, dormant and stopped workspaces", () => {
      expect(decide({ latestBuild: { deadline: now }, job: failedJob })).toBeNull()
      expect(decide({ latestBuild: { deadline: now }, workspace: { dormant_at: at("2024-01-02T00:00:00Z") } }))
        .toBeNull()
      expect(decide({ latestBuild: { deadline: now, transition: "stop" } })).toBeNull()
    })
  })

  describe("autostart", () => {
    // Stopped Monday 2024-01-01 10:00; the schedule's first time after that is Tuesday 9:00.
    const stopped: Over = {
      latestBuild: { transition: "stop" },
      workspace: { autostart_schedule: "CRON_TZ=UTC 0 9 * * *" }
    }
    const start = (o: Over) =>
      decide({
        ...stopped,
        ...o,
        latestBuild: { ...stopped.latestBuild, ...o.latestBuild },
        workspace: { ...stopped.workspace, ...o.workspace }
      })

    it("starts a stopped workspace when its schedule comes", () => {
      expect(start({ now: at("2024-01-02T08:59:00Z") })).toBeNull()
      expect(start({})).toEqual({
        rule: "autostart",
        build: { transition: "start", reason: "autostart", activeVersion: false },
        patch: {}
      })
      // A missed time still starts it on a later tick.
      expect(start({ now: at("2024-01-02T09:07:00Z") })?.rule).toBe("autostart")
    })
    it("builds the active version with automatic updates or a template requiring it", () => {
      expect(start({ workspace: { automatic_updates: "always" } })?.build?.activeVersion).toBe(true)
      expect(start({ template: { require_active_version: true } })?.build?.activeVersion).toBe(true)
    })
    it("waits for an allowed day", () => {
      // Tuesday is not allowed, Wednesday is.
      expect(start({ template: { autostart_requirement_days_of_week: WED } })).toBeNull()
      expect(start({ now: at("2024-01-03T09:00:00Z"), template: { autostart_requirement_days_of_week: WED } })?.rule)
        .toBe("autostart")
      expect(start({ template: { autostart_requirement_days_of_week: TUE } })?.rule).toBe("autostart")
    })
    it("waits for next_start_at: a schedule set after a missed time starts at its next one", () => {
      // The schedule was set Tuesday at noon, after Tuesday's 9:00: its next start is Wednesday's.
      const later = { next_start_at: at("2024-01-03T09:00:00Z") }
      expect(start({ now: at("2024-01-02T12:00:00Z"), workspace: later })).toBeNull()
      expect(start({ now: at("2024-01-03T09:00:00Z"), workspace: later })?.rule).toBe("autostart")
      // One that passed while the workspace ran does not hold it back.
      expect(start({ workspace: { next_start_at: at("2023-12-31T09:00:00Z") } })?.rule).toBe("autostart")
    })
    it("does not start when the template, the owner, the last build or dormancy forbid it", () => {
      expect(start({ template: { allow_user_autostart: false } })).toBeNull()
      expect(start({ ownerStatus: "suspended" })).toBeNull()
      expect(start({ job: failedJob })).toBeNull()
      expect(start({ workspace: { dormant_at: at("2024-01-01T12:00:00Z") } })).toBeNull()
      expect(start({ workspace: { autostart_schedule: "" } })).toBeNull()
      expect(start({ latestBuild: { transition: "delete" } })).toBeNull()
    })
  })

  describe("failed stop", () => {
    const failedAt = at("2024-01-02T07:00:00Z")
    it("stops a failed start after the failure ttl, as an autostop", () => {
      const d = decide({ job: { ...failedJob, completed_at: failedAt }, template: { failure_ttl_ms: HOUR } })
      expect(d).toEqual({
        rule: "failedstop",
        build: { transition: "stop", reason: "autostop", activeVersion: false },
        patch: {}
      })
    })
    it("waits out the failure ttl, and needs one", () => {
      expect(decide({ job: { ...failedJob, completed_at: failedAt }, template: { failure_ttl_ms: 2 * HOUR } }))
        .toBeNull()
      expect(decide({ job: { ...failedJob, completed_at: failedAt } })).toBeNull()
      expect(
        decide({
          job: { ...failedJob, completed_at: failedAt },
          latestBuild: { transition: "stop" },
          template: { failure_ttl_ms: HOUR }
        })
      )
        .toBeNull()
    })
  })

  describe("dormancy", () => {
    const unused = { last_used_at: new Date(now.getTime() - 8 * DAY) }
    it("makes an unused stopped workspace dormant without a build", () => {
      const d = decide({
        workspace: unused,
        latestBuild: { transition: "stop" },
        template: { time_til_dormant_ms: 7 * DAY }
      })
      expect(d).toEqual({ rule: "dormancy", build: null, patch: { dormant_at: now, deleting_at: null } })
    })
    it("stops an unused running workspace and sets when it will be deleted", () => {
      const d = decide({
        workspace: unused,
        template: { time_til_dormant_ms: 7 * DAY, time_til_dormant_autodelete_ms: 30 * DAY }
      })
      expect(d).toEqual({
        rule: "dormancy",
        build: { transition: "stop", reason: "dormancy", activeVersion: false },
        patch: { dormant_at: now, deleting_at: new Date(now.getTime() + 30 * DAY) }
      })
    })
    it("leaves a workspace used recently enough, or a template without dormancy", () => {
      expect(
        decide({
          workspace: { last_used_at: new Date(now.getTime() - 7 * DAY) },
          template: { time_til_dormant_ms: 7 * DAY }
        })
      )
        .toBeNull()
      expect(decide({ workspace: unused })).toBeNull()
    })
  })

  describe("autodelete", () => {
    const dormant = { dormant_at: at("2023-12-01T00:00:00Z"), deleting_at: at("2024-01-01T00:00:00Z") }
    const template = { time_til_dormant_autodelete_ms: 31 * DAY }
    it("deletes a dormant workspace past deleting_at", () => {
      expect(decide({ workspace: dormant, latestBuild: { transition: "stop" }, template })).toEqual({
        rule: "autodelete",
        build: { transition: "delete", reason: "autodelete", activeVersion: false },
        patch: {}
      })
    })
    it("waits for deleting_at and needs the template's autodelete", () => {
      expect(decide({ workspace: { ...dormant, deleting_at: at("2024-01-03T00:00:00Z") }, template })).toBeNull()
      expect(decide({ workspace: dormant })).toBeNull()
    })
    it("retries a failed delete a day after it failed", () => {
      const failedDelete = (hoursAgo: number): Over => ({
        workspace: dormant,
        template,
        latestBuild: { transition: "delete" },
        job: { ...failedJob, completed_at: new Date(now.getTime() - hoursAgo * HOUR) }
      })
      expect(decide(failedDelete(2))).toBeNull()
      expect(decide(failedDelete(25))?.rule).toBe("autodelete")
    })
  })

  it("does nothing while a job runs or to a deleted workspace", () => {
    expect(decide({ latestBuild: { deadline: now }, job: { completed_at: null } })).toBeNull()
    expect(decide({ latestBuild: { deadline: now }, job: { started_at: null, completed_at: null } })).toBeNull()
    expect(decide({ latestBuild: { deadline: now }, job: { completed_at: null, canceled_at: now } })).toBeNull()
    expect(decide({ latestBuild: { deadline: now }, workspace: { deleted: true } })).toBeNull()
  })

  describe("when the executor must look again (lifecycleDueAt)", () => {
    const dueOf = (o: Over) => {
      const { now: _, ...input } = { ...base, ...o } as LifecycleInput
      return lifecycleDueAt({
        ...input,
        workspace: { ...base.workspace, ...o.workspace },
        latestBuild: { ...base.latestBuild, ...o.latestBuild },
        job: { ...base.job, ...o.job },
        template: { ...base.template, ...o.template }
      })
    }
    it("is the deadline of a running workspace, at once for a suspended owner, none without a rule", () => {
      expect(dueOf({ latestBuild: { deadline: at("2024-01-02T10:00:00Z") } })).toEqual(at("2024-01-02T10:00:00Z"))
      expect(dueOf({ ownerStatus: "suspended" })).toEqual(new Date(0))
      expect(dueOf({})).toBeNull()
      expect(dueOf({ job: { completed_at: null } })).toBeNull()
    })
    it("is the later of the schedule's time after the stop and next_start_at", () => {
      const stopped: Over = {
        latestBuild: { transition: "stop" },
        workspace: { autostart_schedule: "CRON_TZ=UTC 0 9 * * *" }
      }
      expect(dueOf(stopped)).toEqual(at("2024-01-02T09:00:00Z"))
      expect(dueOf({ ...stopped, workspace: { ...stopped.workspace, next_start_at: at("2024-01-03T09:00:00Z") } }))
        .toEqual(at("2024-01-03T09:00:00Z"))
    })
    it("is the first of the rules that can fire, strictly after a threshold", () => {
      expect(dueOf({ template: { time_til_dormant_ms: 7 * DAY } })).toEqual(
        new Date(at("2024-01-01T10:00:00Z").getTime() + 7 * DAY + 1)
      )
      expect(
        dueOf({ latestBuild: { deadline: at("2024-01-09T00:00:00Z") }, template: { time_til_dormant_ms: 7 * DAY } })
      )
        .toEqual(new Date(at("2024-01-01T10:00:00Z").getTime() + 7 * DAY + 1))
    })

    // Any state: before its due time nothing is decided, from it on something is; none: never.
    const T = at("2024-01-10T00:00:00Z").getTime()
    const time = fc.integer({ min: -20 * 24 * 60, max: 20 * 24 * 60 }).map((m) => new Date(T + m * MIN))
    const maybe = <A>(a: fc.Arbitrary<A>) => fc.option(a, { nil: null })
    const state = fc.record({
      workspace: fc.record({
        deleted: fc.constantFrom(false, false, false, false, true),
        autostart_schedule: fc.constantFrom(
          "",
          "CRON_TZ=UTC 0 9 * * *",
          "CRON_TZ=Europe/Paris 30 7 * * 1-5",
          "0 22 * * 0"
        ),
        automatic_updates: fc.constantFrom("always" as const, "never" as const),
        last_used_at: time,
        dormant_at: maybe(time),
        deleting_at: maybe(time),
        next_start_at: maybe(time)
      }),
      latestBuild: fc.record({
        transition: fc.constantFrom("start" as const, "stop" as const, "delete" as const),
        created_at: time,
        deadline: maybe(time)
      }),
      job: fc.record({
        started_at: maybe(time),
        canceled_at: maybe(time),
        completed_at: maybe(time),
        error: fc.constantFrom("", "boom")
      }),
      template: fc.record({
        allow_user_autostart: fc.boolean(),
        autostart_requirement_days_of_week: fc.constantFrom(ALL, MON | WED, SAT | SUN, 0),
        failure_ttl_ms: fc.constantFrom(0, HOUR, DAY),
        time_til_dormant_ms: fc.constantFrom(0, DAY, 7 * DAY),
        time_til_dormant_autodelete_ms: fc.constantFrom(0, DAY, 7 * DAY),
        require_active_version: fc.boolean()
      }),
      ownerStatus: fc.constantFrom("active" as const, "suspended" as const)
    })
    it("is exactly the first tick at which nextTransition decides something", () => {
      fc.assert(
        fc.property(state, fc.array(time, { minLength: 1, maxLength: 8 }), (input, nows) => {
          const due = lifecycleDueAt(input)
          const decides = (now: Date) => nextTransition({ ...input, now }) !== null
          if (due === null) return nows.every((now) => !decides(now))
          if (!decides(due)) return false
          if (due.getTime() > 0 && decides(new Date(due.getTime() - 1))) return false
          return nows.every((now) => decides(now) === (now.getTime() >= due.getTime()))
        }),
        { numRuns: 2000 }
      )
    })
  })

  it("dormancy patches: dormant schedules deletion, active resets use", () => {
    expect(dormancyPatch(true, { time_til_dormant_autodelete_ms: DAY }, now)).toEqual({
      dormant_at: now,
      deleting_at: new Date(now.getTime() + DAY)
    })
    expect(dormancyPatch(false, { time_til_dormant_autodelete_ms: DAY }, now)).toEqual({
      dormant_at: null,
      deleting_at: null,
      last_used_at: now
    })
  })
})
