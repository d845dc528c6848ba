/**
 * `schedule show|start|stop|extend`: as the described system's cli/schedule.go. A start schedule
 * is `<start-time> [day-of-week] [location]` (`9:30AM Mon-Fri Europe/Dublin`), sent as the cron
 * expression the API takes (`CRON_TZ=Europe/Dublin 30 9 * * Mon-Fri`); a stop schedule is a
 * duration after each start (the workspace's TTL); `extend` moves the running build's deadline to
 * now plus a duration. `manual` turns a schedule off.
 */
import { type Schemas, unwrap } from "@workbay/client"
import type { Context } from "../Context.js"
import { usageError } from "../Errors.js"
import { sumOfUnits } from "../Flags.js"
import { workspaceOf } from "../Lookup.js"
import { printJson, printTable } from "../Output.js"

type Workspace = Schemas["Workspace"]

/** The zone the command runs in: `TZ`, else the system's, else UTC. */
const localZone = () => process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"

const isZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** `9:30AM`, `9:30pm`, `09:30`, `17:00` as hours and minutes. */
const parseStartTime = (text: string): { readonly hour: number; readonly minute: number } => {
  const m = /^(\d{1,2}):(\d{2})\s*([ap]m)?$/i.exec(text.trim())
  const bad = () => usageError(`The start time is hh:mm (24-hour) or hh:mm{AM|PM}, not "${text}".`)
  if (m === null) throw bad()
  let hour = Number(m[1])
  const minute = Number(m[2])
  const half = m[3]?.toLowerCase()
  if (half !== undefined) {
    if (hour < 1 || hour > 12) throw bad()
    hour = (hour % 12) + (half === "pm" ? 12 : 0)
  }
  if (hour > 23 || minute > 59) throw bad()
  return { hour, minute }
}

const DAY = "(?:[0-6]|sun|mon|tue|wed|thu|fri|sat)"
const DAYS = new RegExp(`^(?:\\*|${DAY}(?:-${DAY})?(?:,${DAY}(?:-${DAY})?)*)$`, "i")

/** `<start-time> [day-of-week] [location]` as the API's cron expression. */
export const parseStartSchedule = (args: ReadonlyArray<string>): string => {
  if (args.length === 0 || args.length > 3) {
    throw usageError("A start schedule is <start-time> [day-of-week] [location], or manual.")
  }
  const { hour, minute } = parseStartTime(args[0]!)
  let days = "*"
  let zone: string | undefined
  for (const arg of args.slice(1)) {
    if (DAYS.test(arg) && days === "*" && zone === undefined) days = arg
    else if (zone === undefined && isZone(arg)) zone = arg
    else throw usageError(`"${arg}" is neither days of the week (Mon-Fri, 1,3,5) nor a time zone (Europe/Dublin).`)
  }
  return `CRON_TZ=${zone ?? localZone()} ${minute} ${hour} * * ${days}`
}

/** `3h2m`, `3h`, `90m`, `2` (minutes) in milliseconds. */
export const parseScheduleDuration = (text: string): number => {
  const trimmed = text.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 60_000
  // Whole numbers of each unit, as the described system's.
  const ms = trimmed.includes(".") ? undefined : sumOfUnits(trimmed, { h: 3_600_000, m: 60_000, s: 1000 })
  if (ms === undefined) throw usageError(`A duration is like 3h2m, 3h, 90m or 2 (minutes), not "${text}".`)
  return ms
}

const TWELVE_HOUR = (hour: number, minute: number) =>
  `${hour % 12 === 0 ? 12 : hour % 12}:${String(minute).padStart(2, "0")}${hour < 12 ? "AM" : "PM"}`

/** `CRON_TZ=Europe/Dublin 30 9 * * Mon-Fri` as `9:30AM Mon-Fri (Europe/Dublin)`; else as it is. */
export const humanizeSchedule = (cron: string): string => {
  const m = /^(?:CRON_TZ=(\S+)\s+)?(\d{1,2})\s+(\d{1,2})\s+\*\s+\*\s+(\S+)$/.exec(cron.trim())
  if (m === null) return cron
  const days = m[4] === "*" ? "daily" : m[4]!
  return `${TWELVE_HOUR(Number(m[3]), Number(m[2]))} ${days}${m[1] === undefined ? "" : ` (${m[1]})`}`
}

/** `8h`, `1h30m`, `45m` (seconds dropped). */
const durationDisplay = (ms: number) => {
  const minutes = Math.floor(ms / 60_000)
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return h === 0 ? `${m}m` : m === 0 ? `${h}h` : `${h}h${m}m`
}

/** A time in the command's zone: `Mon Jan 2 9:30AM UTC`. */
const timeDisplay = (time: string) => {
  const d = new Date(time)
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: localZone(),
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hour12: true,
    timeZoneName: "short"
  }).formatToParts(d)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ""
  return `${get("weekday")} ${get("month")} ${get("day")} ${get("hour")}:${get("minute")}${get("dayPeriod")} ${
    get("timeZoneName")
  }`
}

export interface ScheduleRow {
  readonly workspace: string
  readonly starts_at: string
  readonly starts_next: string
  readonly stops_after: string
  readonly stops_next: string
}

export const scheduleRowOf = (w: Workspace): ScheduleRow => {
  const schedule = w.autostart_schedule ?? ""
  const ttl = w.ttl_ms ?? 0
  const deadline = w.latest_build.deadline
  return {
    workspace: `${w.owner_name}/${w.name}`,
    starts_at: schedule === "" ? "" : humanizeSchedule(schedule),
    starts_next: schedule === "" || w.next_start_at == null ? "" : timeDisplay(w.next_start_at),
    stops_after: ttl > 0 ? durationDisplay(ttl) : "",
    stops_next: ttl > 0 && w.latest_build.transition === "start" && deadline != null && deadline !== ""
      ? timeDisplay(deadline)
      : ""
  }
}

const printSchedules = (ctx: Context, workspaces: ReadonlyArray<Workspace>) => {
  const rows = workspaces.map(scheduleRowOf).sort((a, b) => a.workspace.localeCompare(b.workspace))
  if (ctx.output === "json") return printJson(rows)
  printTable(
    ["workspace", "starts at", "starts next", "stops after", "stops next"],
    rows.map((r) => [r.workspace, r.starts_at, r.starts_next, r.stops_after, r.stops_next]),
    "schedules"
  )
}

export const show = async (
  ctx: Context,
  ident: string | undefined,
  flags: { readonly all?: boolean; readonly search?: string }
) => {
  const client = ctx.client()
  if (ident !== undefined) return printSchedules(ctx, [await workspaceOf(client, ident)])
  const q = [flags.all === true ? "" : "owner:me", flags.search ?? ""].filter((s) => s !== "").join(" ")
  const { workspaces } = await unwrap(
    client.rest.GET("/api/v2/workspaces", { params: { query: q === "" ? {} : { q } } })
  )
  printSchedules(ctx, workspaces)
}

export const start = async (ctx: Context, ident: string, args: ReadonlyArray<string>) => {
  const client = ctx.client()
  const schedule = args.length === 1 && args[0] === "manual" ? null : parseStartSchedule(args)
  const w = await workspaceOf(client, ident)
  await unwrap(
    client.rest.PUT("/api/v2/workspaces/{workspace}/autostart", {
      params: { path: { workspace: w.id } },
      body: { schedule }
    })
  )
  printSchedules(ctx, [await workspaceOf(client, ident)])
}

export const stop = async (ctx: Context, ident: string, duration: string) => {
  const client = ctx.client()
  const ttl = duration === "manual" ? null : parseScheduleDuration(duration)
  const w = await workspaceOf(client, ident)
  await unwrap(
    client.rest.PUT("/api/v2/workspaces/{workspace}/ttl", {
      params: { path: { workspace: w.id } },
      body: { ttl_ms: ttl }
    })
  )
  printSchedules(ctx, [await workspaceOf(client, ident)])
}

export const extend = async (ctx: Context, ident: string, duration: string) => {
  const client = ctx.client()
  const ms = parseScheduleDuration(duration)
  const w = await workspaceOf(client, ident)
  if (ms < 29 * 60_000) {
    process.stdout.write("Please specify a duration of at least 30 minutes.\n")
    return
  }
  await unwrap(
    client.rest.PUT("/api/v2/workspaces/{workspace}/extend", {
      params: { path: { workspace: w.id } },
      body: { deadline: new Date(Date.now() + ms).toISOString() }
    })
  )
  printSchedules(ctx, [await workspaceOf(client, ident)])
}
