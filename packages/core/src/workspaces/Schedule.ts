/**
 * Workspace schedules: the rules, with no HTTP and no storage. A build's deadline and max
 * deadline (the described system's `CalculateAutostop`), the next autostart on the days a
 * template allows, the rules of the schedule routes (`PUT .../autostart`, `.../ttl`,
 * `.../extend`, activity bumps) and what the lifecycle executor must do to a workspace at a tick.
 * Schedules, days of week, weeks and times to live are read by the shared Schedule.ts. Every
 * function is pure: the caller passes `now`.
 */
import { Either } from "effect"
import { BadRequest, Conflict, Validation } from "../Errors.js"
import type { WorkspaceTransition } from "../provisioners/Provisioner.js"
import { jobStatus, type ProvisionerJobRecord } from "../provisioners/ProvisionerJob.js"
import {
  maskHasDay,
  nextApplicableMonday,
  nextOccurrence,
  parseDailySchedule,
  parseWeeklySchedule,
  ScheduleError,
  startOfDay,
  startOfNextDay,
  validateTtlMs,
  wallAt
} from "../Schedule.js"
import type { TemplateRecord } from "../templates/Template.js"
import type { UserStatus } from "../users/User.js"
import type { WorkspacePatch, WorkspaceRecord } from "./Workspace.js"
import type { BuildReason, WorkspaceBuildRecord } from "./WorkspaceBuild.js"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const fail = (message: string) => Either.left(new ScheduleError({ message }))

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
