/**
 * The shared schedule rules (src/Schedule.ts) as users, workspaces and templates use them:
 * quiet-hours schedules, times to live and day lists, each refusal in one wording. Cron parsing
 * itself and the next occurrence across DST changes are in workspaces/Schedule.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  ALL_DAYS,
  daysOfMask,
  maskOfDays,
  parseQuietHoursSchedule,
  ttlProblem,
  validateTtlMs,
  weekdaysProblem
} from "../src/Schedule.js"

const now = new Date("2024-05-06T07:08:09Z")
const message = <A>(e: Either.Either<A, { readonly message: string }>) =>
  Either.isLeft(e) ? e.left.message : `accepted: ${JSON.stringify(e.right)}`

describe("quiet-hours schedules", () => {
  it("reads the zone, the one time of day and the next start", () => {
    const q = parseQuietHoursSchedule(" CRON_TZ=Europe/Berlin 5 9 * * * ", now)
    expect(Either.isRight(q)).toBe(true)
    if (Either.isRight(q)) {
      expect(q.right.timezone).toBe("Europe/Berlin")
      expect(q.right.time).toBe("09:05")
      // 09:05 in Berlin (UTC+2) was 07:05 UTC, three minutes before now: the next is tomorrow's.
      expect(q.right.next.toISOString()).toBe("2024-05-07T07:05:00.000Z")
    }
  })

  it("refuses with the described system's messages", () => {
    expect(message(parseQuietHoursSchedule("", now))).toBe(
      "parse daily schedule \"\": validate daily schedule: expected schedule to consist of 5 fields with an optional CRON_TZ=<timezone> prefix"
    )
    expect(message(parseQuietHoursSchedule("0 9 * * 1-5", now))).toBe(
      "parse daily schedule \"0 9 * * 1-5\": validate daily schedule: expected day-of-month, month and day-of-week to be *"
    )
    expect(message(parseQuietHoursSchedule("0 9-17 * * *", now))).toBe(
      "daily schedule \"0 9-17 * * *\" has more than one time: cron(0 9-17)"
    )
    expect(message(parseQuietHoursSchedule("*/5 9 * * *", now))).toBe(
      "daily schedule \"*/5 9 * * *\" has more than one time: cron(*/5 9)"
    )
  })
})

describe("times to live", () => {
  it("bounds them to one minute and 30 days, in one wording for create and the ttl route", () => {
    expect(ttlProblem(59_999)).toBe("time until shutdown must be at least one minute")
    expect(ttlProblem(60_000)).toBeUndefined()
    expect(ttlProblem(30 * 86_400_000)).toBeUndefined()
    expect(ttlProblem(30 * 86_400_000 + 1)).toBe("time until shutdown must be less than 30 days")
    expect(message(validateTtlMs(90_500))).toBe("accepted: 60000")
  })
})

describe("days of week", () => {
  it("maps names to the templates' masks and back, and says what is wrong with a list", () => {
    expect(maskOfDays(["monday", "sunday"])).toBe(0b1000001)
    expect(daysOfMask(ALL_DAYS)).toHaveLength(7)
    expect(weekdaysProblem(["Monday", "friday"])).toBeUndefined()
    expect(weekdaysProblem(["funday"])).toBe("Invalid day of week: \"funday\".")
    expect(weekdaysProblem(["x", "y"])).toBe("Invalid days of week: \"x\", \"y\".")
    expect(weekdaysProblem(["monday", "Monday"])).toBe("A day of week cannot be listed twice.")
  })
})
