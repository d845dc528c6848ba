/**
 * A workspace's autostart schedule as the form edits it (days of the week, a time, a time zone)
 * and as the service stores it, a weekly cron line `CRON_TZ=<zone> <minute> <hour> * * <days>`
 * (the described system's). Pure (test/components/Parameters.test.tsx).
 */

export const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const

export interface Autostart {
  /** Days of the week, 0 for Sunday. */
  readonly days: ReadonlyArray<number>
  /** "HH:MM", 24 hours. */
  readonly time: string
  readonly timezone: string
}

/** The cron line of `a`: days listed in order, `*` for every day. */
export const toCron = (a: Autostart) => {
  const [h = "0", m = "0"] = a.time.split(":")
  const days = [...new Set(a.days)].sort((x, y) => x - y)
  const dow = days.length === 7 ? "*" : days.join(",")
  return `CRON_TZ=${a.timezone} ${Number(m)} ${Number(h)} * * ${dow}`
}

const dayList = (field: string): Array<number> | undefined => {
  if (field === "*") return [0, 1, 2, 3, 4, 5, 6]
  const out = new Set<number>()
  for (const part of field.split(",")) {
    const range = /^(\d)(?:-(\d))?$/.exec(part)
    if (range === null) return undefined
    const from = Number(range[1])
    const to = range[2] === undefined ? from : Number(range[2])
    for (let d = from; d <= to; d++) out.add(d % 7)
  }
  return [...out].sort((a, b) => a - b)
}

/** The form's view of a cron line, or undefined when it is not one minute and hour on some days. */
export const fromCron = (cron: string | undefined, fallbackZone = "UTC"): Autostart | undefined => {
  if (cron === undefined || cron.trim() === "") return undefined
  const parts = cron.trim().split(/\s+/)
  let timezone = fallbackZone
  if (parts[0]?.startsWith("CRON_TZ=")) timezone = parts.shift()!.slice("CRON_TZ=".length)
  if (parts.length !== 5) return undefined
  const [m, h, , , dow] = parts as [string, string, string, string, string]
  if (!/^\d+$/.test(m) || !/^\d+$/.test(h)) return undefined
  const days = dayList(dow)
  if (days === undefined) return undefined
  return { days, time: `${h.padStart(2, "0")}:${m.padStart(2, "0")}`, timezone }
}

/** "Monday, Wednesday at 09:30 (Europe/Paris)", "Every day at ...", "Weekdays at ...". */
export const describe = (a: Autostart) => {
  const key = a.days.join(",")
  const days = key === "0,1,2,3,4,5,6"
    ? "Every day"
    : key === "1,2,3,4,5"
    ? "Weekdays"
    : a.days.map((d) => DAYS[d]).join(", ")
  return `${days} at ${a.time} (${a.timezone})`
}

/** "8 hours", "90 minutes", "1 hour". */
export const describeTtl = (ms: number) => {
  const minutes = Math.round(ms / 60_000)
  if (minutes % 60 === 0) return `${minutes / 60} ${minutes === 60 ? "hour" : "hours"}`
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`
}
