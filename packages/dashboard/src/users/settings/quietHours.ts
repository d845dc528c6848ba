/**
 * Quiet hours as a person sets them (a time of day and a time zone) and as the service keeps
 * them: a daily cron schedule, `CRON_TZ=<zone> <minute> <hour> * * *`.
 */

/** The schedule of a daily start at `time` ("HH:MM") in `timezone`, or an error in words. */
export const toSchedule = (time: string, timezone: string): { schedule: string } | { error: string } => {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(time.trim())
  if (m === null) return { error: "The start time must be a time of day, such as 22:00." }
  if (!isTimeZone(timezone)) return { error: `${timezone === "" ? "The time zone" : timezone} is not a time zone.` }
  return { schedule: `CRON_TZ=${timezone} ${Number(m[2])} ${Number(m[1])} * * *` }
}

/** The time ("HH:MM") and time zone of a daily schedule, or undefined when it is not one. */
export const fromSchedule = (schedule: string): { time: string; timezone: string } | undefined => {
  const m = /^(?:CRON_TZ=(\S+)\s+)?(\d{1,2})\s+(\d{1,2})\s+\*\s+\*\s+\*$/.exec(schedule.trim())
  if (m === null) return undefined
  const minute = Number(m[2])
  const hour = Number(m[3])
  if (minute > 59 || hour > 23) return undefined
  return { time: `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`, timezone: m[1] ?? "UTC" }
}

export const isTimeZone = (zone: string) => {
  if (zone === "") return false
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** The time zones to choose from: the browser's list, with UTC and `current` always in it. */
export const timeZones = (current: string): ReadonlyArray<string> => {
  const intl = Intl as { supportedValuesOf?: (key: "timeZone") => Array<string> }
  const zones = new Set(intl.supportedValuesOf?.("timeZone") ?? [])
  zones.add("UTC")
  if (current !== "") zones.add(current)
  return [...zones].sort()
}

/** The browser's own time zone (the default for a user who never chose one). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"
