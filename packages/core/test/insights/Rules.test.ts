/** The range rules of the insights reports, without HTTP or storage. */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  checkInterval,
  formatOffsetTime,
  intervals,
  parseInsightsRange,
  parseOffsetTime,
  zoneOffsetMinutes
} from "../../src/insights/Insight.js"

const NOW = Date.UTC(2024, 6, 10, 14, 25)
const DAY = 86_400_000

const fieldOf = (
  e: Either.Either<unknown, { validations?: ReadonlyArray<{ field: string; detail: string }> | undefined }>
) => Either.isLeft(e) ? e.left.validations?.map((v) => v.field) : "ok"

describe("insights ranges", () => {
  it("keeps the offset a time was written in", () => {
    const t = parseOffsetTime("2024-07-01T00:00:00+02:00")!
    expect(t.at.toISOString()).toBe("2024-06-30T22:00:00.000Z")
    expect(t.offsetMinutes).toBe(120)
    expect(formatOffsetTime(t.at, t.offsetMinutes)).toBe("2024-07-01T00:00:00+02:00")
    expect(formatOffsetTime(new Date(Date.UTC(2024, 0, 1)), -330)).toBe("2023-12-31T18:30:00-05:30")
    expect(parseOffsetTime("2024-02-30T00:00:00Z")).toBeUndefined()
    expect(parseOffsetTime("2024-07-01")).toBeUndefined()
    expect(parseOffsetTime("0001-01-01T00:00:00Z")!.at.getUTCFullYear()).toBe(1)
  })

  it("accepts midnights, and a whole hour of today as the end", () => {
    expect(fieldOf(parseInsightsRange("2024-07-01T00:00:00Z", "2024-07-10T15:00:00Z", NOW))).toBe("ok")
    expect(fieldOf(parseInsightsRange("2024-07-01T00:00:00+02:00", "2024-07-10T00:00:00+02:00", NOW))).toBe("ok")
  })

  it("refuses what the described system refuses, naming the field", () => {
    expect(fieldOf(parseInsightsRange("junk", "2024-07-10T00:00:00Z", NOW))).toEqual(["start_time"])
    expect(fieldOf(parseInsightsRange("0001-01-01T00:00:00Z", "2024-07-10T00:00:00Z", NOW))).toEqual(["start_time"])
    expect(fieldOf(parseInsightsRange("2024-07-01T00:00:00Z", "2024-07-10T16:00:00Z", NOW))).toEqual(["end_time"])
    expect(fieldOf(parseInsightsRange("2024-07-01T01:00:00Z", "2024-07-10T00:00:00Z", NOW))).toEqual(["start_time"])
    expect(fieldOf(parseInsightsRange("2024-07-01T00:00:00Z", "2024-07-09T13:00:00Z", NOW))).toEqual(["end_time"])
    expect(fieldOf(parseInsightsRange("2024-07-01T00:00:00Z", "2024-07-10T13:30:00Z", NOW))).toEqual(["end_time"])
    expect(fieldOf(parseInsightsRange("2024-07-05T00:00:00Z", "2024-07-01T00:00:00Z", NOW))).toEqual(["end_time"])
  })

  it("needs whole weeks, or a last week of six days, for week reports", () => {
    const range = (days: number) => ({
      start: { at: new Date(NOW - days * DAY), offsetMinutes: 0 },
      end: { at: new Date(NOW), offsetMinutes: 0 }
    })
    expect(Either.isRight(checkInterval("week", range(14)))).toBe(true)
    expect(Either.isRight(checkInterval("week", range(13)))).toBe(true)
    expect(Either.isLeft(checkInterval("week", range(10)))).toBe(true)
    expect(Either.isRight(checkInterval("day", range(10)))).toBe(true)
    expect(intervals(0, 10 * DAY, 7)).toEqual([[0, 7 * DAY], [7 * DAY, 10 * DAY]])
    // At most 1000 intervals in an answer.
    expect(Either.isLeft(checkInterval("day", range(1001)))).toBe(true)
    expect(Either.isRight(checkInterval("week", range(7 * 140)))).toBe(true)
  })

  it("reads IANA zones at a time (daylight saving included)", () => {
    expect(zoneOffsetMinutes("Europe/Berlin", new Date(Date.UTC(2024, 0, 15)))).toBe(60)
    expect(zoneOffsetMinutes("Europe/Berlin", new Date(Date.UTC(2024, 6, 15)))).toBe(120)
    expect(zoneOffsetMinutes("Asia/Kolkata", new Date(NOW))).toBe(330)
    expect(zoneOffsetMinutes("Mars/Olympus", new Date(NOW))).toBeUndefined()
  })
})
