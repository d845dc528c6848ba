/**
 * The Insights service: the reports of `/insights/*` and `/templates/{template}/daus`, read from
 * the hourly rollups (docs/insights.md). Who may read what follows the described system: the
 * deployment DAUs need the deployment config (403 otherwise); template reports need
 * `view_insights` on templates, deployment-wide or on every template asked for (404 otherwise);
 * user status counts need reading users (403 otherwise).
 */
import { Clock, Effect, Option } from "effect"
import { authorize, authorizeRead, decision } from "../Actor.js"
import { NotFound } from "../Errors.js"
import { BadRequest, Validation } from "../Errors.js"
import { percentile } from "../general/Deployment.js"
import { isUuid } from "../Ids.js"
import { templateObject, TemplateRepo } from "../templates/Template.js"
import { TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { markdownToPlaintext, TemplateVersionParameterOption } from "../templates/TemplateVersionWire.js"
import { span } from "../Tracing.js"
import {
  checkInterval,
  DAUEntry,
  DAUsResponse,
  formatOffsetTime,
  GetUserStatusCountsResponse,
  type InsightsRange,
  InsightsRepo,
  intervals,
  localDate,
  nextHour,
  type ParameterValueCount,
  parseInsightsRange,
  startOfLocalDay,
  TemplateAppUsage,
  TemplateInsightsIntervalReport,
  TemplateInsightsReport,
  TemplateInsightsResponse,
  TemplateParameterUsage,
  UserActivity,
  UserActivityInsightsResponse,
  UserLatency,
  UserLatencyInsightsResponse,
  UserStatusChangeCount,
  zoneOffsetMinutes
} from "./Insight.js"
import type { InsightsRangeQuery, TemplateInsightsQuery, UserStatusCountsQuery } from "./Requests.js"

const DAY = 86_400_000

/** How many days the DAU and status count series cover before today (the described system's 60). */
export const INSIGHTS_SERIES_DAYS = 60

/** The built-in apps every template has, as the described system lists them. */
const builtinApps = [
  { slug: "vscode", display_name: "Visual Studio Code", icon: "/icon/code.svg", key: "vscode_mins" },
  { slug: "jetbrains", display_name: "JetBrains", icon: "/icon/intellij.svg", key: "jetbrains_mins" },
  { slug: "reconnecting-pty", display_name: "Web Terminal", icon: "/icon/terminal.svg", key: "reconnecting_pty_mins" },
  { slug: "ssh", display_name: "SSH", icon: "/icon/terminal.svg", key: "ssh_mins" }
] as const

const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort()

/** The user statuses the counts report. */
export const countedStatuses = ["active", "dormant", "suspended"] as const

export class Insights extends Effect.Service<Insights>()("@workbay/core/Insights", {
  effect: Effect.gen(function*() {
    const repo = yield* InsightsRepo
    const templates = yield* TemplateRepo
    const versions = yield* TemplateVersionRepo

    /**
     * The described system's parameter usage: values counted per parameter definition (name, type,
     * display name, description, options), each definition taken from the version whose import
     * declared it; a value of a parameter its version does not declare is left out. Sorted by
     * definition, then value.
     */
    const parametersUsage = (counts: ReadonlyArray<ParameterValueCount>) =>
      Effect.gen(function*() {
        const versionIds = [...new Set(counts.map((c) => c.template_version_id))]
        const found = yield* Effect.forEach(versionIds, (id) => versions.findById(id), { concurrency: 8 })
        const declared = new Map(
          found.flatMap((v) => Option.isSome(v) ? [[v.value.id, v.value.import_result?.parameters ?? []] as const] : [])
        )
        const byDefinition = new Map<string, {
          name: string
          type: string
          display_name: string
          description: string
          options: ReadonlyArray<{ name: string; description: string; value: string; icon: string }>
          templates: Set<string>
          values: Map<string, number>
        }>()
        for (const c of counts) {
          const p = declared.get(c.template_version_id)?.find((d) => d.name === c.name)
          if (p === undefined) continue
          const key = JSON.stringify([p.name, p.type, p.display_name, p.description, p.options])
          let e = byDefinition.get(key)
          if (e === undefined) {
            byDefinition.set(
              key,
              e = {
                name: p.name,
                type: p.type,
                display_name: p.display_name,
                description: p.description,
                options: p.options,
                templates: new Set(),
                values: new Map()
              }
            )
          }
          e.templates.add(c.template_id)
          e.values.set(c.value, (e.values.get(c.value) ?? 0) + c.count)
        }
        const cmp = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0
        return [...byDefinition.entries()]
          .sort(([, a], [, b]) =>
            cmp(a.name, b.name) || cmp(a.type, b.type) || cmp(a.display_name, b.display_name) ||
            cmp(a.description, b.description)
          )
          .map(([, e]) =>
            new TemplateParameterUsage({
              template_ids: sorted(e.templates),
              display_name: e.display_name,
              name: e.name,
              type: e.type,
              description: markdownToPlaintext(e.description),
              ...(e.options.length > 0
                ? { options: e.options.map((o) => new TemplateVersionParameterOption(o, true)) }
                : {}),
              values: [...e.values.entries()].sort(([a], [b]) => cmp(a, b)).map(([value, count]) => ({ value, count }))
            })
          )
      })

    /**
     * `view_insights` on templates: deployment-wide, or else on each template asked for; a caller
     * without it answers 404, as the described system does.
     */
    const authorizeInsights = (templateIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        if ((yield* decision("view_insights", { type: "template" })) === "allowed") return
        if (templateIds.length === 0) return yield* NotFound.resource("Insights")
        const found = yield* templates.findByIds(templateIds)
        for (const id of templateIds) {
          const t = found.find((f) => f.id === id)
          if (t === undefined || t.deleted) return yield* NotFound.resource("Template")
          yield* authorizeRead("Template", templateObject(t), "view_insights")
        }
      })

    const range = (q: typeof InsightsRangeQuery.Type) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => parseInsightsRange(q.start_time, q.end_time, now))

    const ids = (q: typeof InsightsRangeQuery.Type) => sorted((q.template_ids ?? []).map((id) => id.toLowerCase()))

    const bounds = (r: InsightsRange) => [r.start.at, r.end.at] as const
    const echo = (r: InsightsRange, at: Date | number) => formatOffsetTime(new Date(at), r.start.offsetMinutes)

    /** Distinct users per day of the last 60 days up to the next hour, in a fixed offset. */
    const daus = (offsetHours: number, templateIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const offsetMinutes = offsetHours * 60
        const end = nextHour(now)
        const start = startOfLocalDay(end, offsetMinutes) - INSIGHTS_SERIES_DAYS * DAY
        const buckets = new Map(
          (yield* repo.activeByBucket(new Date(start), new Date(end), 1440, templateIds)).map((b) => [b.bucket, b])
        )
        const entries = intervals(start, end, 1).map(([s], i) =>
          new DAUEntry({ date: localDate(new Date(s), offsetMinutes), amount: buckets.get(i)?.users ?? 0 })
        )
        return new DAUsResponse({ entries, tz_hour_offset: offsetHours })
      })

    const deploymentDaus = (tzOffset: number) =>
      Effect.zipRight(authorize("read", { type: "deployment_config" }), daus(tzOffset, [])).pipe(
        span("Insights.deploymentDaus")
      )

    const templateDaus = (ref: string, tzOffset: number) =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* templates.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.deleted) return yield* NotFound.resource("Template")
        yield* authorizeRead("Template", templateObject(found.value))
        return yield* daus(tzOffset, [found.value.id])
      }).pipe(span("Insights.templateDaus"))

    const templatesReport = (q: typeof TemplateInsightsQuery.Type) =>
      Effect.gen(function*() {
        const templateIds = ids(q)
        const r = yield* range(q)
        const interval = yield* checkInterval(q.interval, r)
        yield* authorizeInsights(templateIds)
        const [start, end] = bounds(r)
        const days = interval === "week" ? 7 : 1
        const [usage, apps, active, parameters] = yield* Effect.all([
          repo.usage(start, end, templateIds),
          repo.appUsage(start, end, templateIds),
          repo.activeByBucket(start, end, days * 1440, templateIds),
          Effect.flatMap(repo.parameterUsage(start, end, templateIds), parametersUsage)
        ])
        const buckets = new Map(active.map((b) => [b.bucket, b]))
        const usageTemplates = sorted(usage.map((u) => u.template_id))
        const appsUsage: Array<TemplateAppUsage> = builtinApps.map((b) =>
          new TemplateAppUsage({
            template_ids: sorted(usage.filter((u) => u[b.key] > 0).map((u) => u.template_id)),
            type: "builtin",
            display_name: b.display_name,
            slug: b.slug,
            icon: b.icon,
            seconds: usage.reduce((sum, u) => sum + u[b.key], 0) * 60,
            times_used: 0
          })
        )
        const byApp = new Map<
          string,
          { slug: string; display_name: string; icon: string; templates: Set<string>; seconds: number; times: number }
        >()
        for (const a of apps) {
          const key = `${a.slug}\u0000${a.display_name}\u0000${a.icon}`
          let e = byApp.get(key)
          if (e === undefined) {
            byApp.set(
              key,
              e = {
                slug: a.slug,
                display_name: a.display_name,
                icon: a.icon,
                templates: new Set(),
                seconds: 0,
                times: 0
              }
            )
          }
          e.templates.add(a.template_id)
          e.seconds += a.seconds
          e.times += a.times_used
        }
        const appEntries = [...byApp.values()].sort((a, b) =>
          a.slug.localeCompare(b.slug) || a.display_name.localeCompare(b.display_name) || a.icon.localeCompare(b.icon)
        )
        for (const e of appEntries) {
          appsUsage.push(
            new TemplateAppUsage({
              template_ids: sorted(e.templates),
              type: "app",
              display_name: e.display_name,
              slug: e.slug,
              icon: e.icon,
              seconds: e.seconds,
              times_used: e.times
            })
          )
        }
        const activeUsers = new Set([
          ...usage.filter((u) => u.usage_mins > 0).map((u) => u.user_id),
          ...apps.map((a) => a.user_id)
        ])
        const report = new TemplateInsightsReport({
          start_time: q.start_time,
          end_time: q.end_time,
          template_ids: sorted([...usageTemplates, ...apps.map((a) => a.template_id)]),
          active_users: activeUsers.size,
          apps_usage: appsUsage,
          parameters_usage: parameters
        })
        const interval_reports = intervals(start.getTime(), end.getTime(), days).map(([s, e], i) =>
          new TemplateInsightsIntervalReport({
            start_time: echo(r, s),
            end_time: echo(r, e),
            template_ids: sorted(buckets.get(i)?.template_ids ?? []),
            interval,
            active_users: buckets.get(i)?.users ?? 0
          })
        )
        return new TemplateInsightsResponse({ report, interval_reports })
      }).pipe(span("Insights.templates"))

    const userActivity = (q: typeof InsightsRangeQuery.Type) =>
      Effect.gen(function*() {
        const templateIds = ids(q)
        const r = yield* range(q)
        yield* authorizeInsights(templateIds)
        const [start, end] = bounds(r)
        const usage = (yield* repo.usage(start, end, templateIds)).filter((u) => u.usage_mins > 0)
        const byUser = new Map<string, { templates: Set<string>; mins: number }>()
        for (const u of usage) {
          let e = byUser.get(u.user_id)
          if (e === undefined) byUser.set(u.user_id, e = { templates: new Set(), mins: 0 })
          e.templates.add(u.template_id)
          e.mins += u.usage_mins
        }
        const users = new Map((yield* repo.users([...byUser.keys()])).map((u) => [u.id, u]))
        const rows = [...byUser.entries()].map(([id, e]) =>
          new UserActivity({
            template_ids: sorted(e.templates),
            user_id: id,
            username: users.get(id)?.username ?? "",
            avatar_url: users.get(id)?.avatar_url ?? "",
            seconds: e.mins * 60
          })
        ).sort((a, b) => b.seconds - a.seconds || a.username.localeCompare(b.username))
        return new UserActivityInsightsResponse({
          report: {
            start_time: q.start_time,
            end_time: q.end_time,
            template_ids: sorted(usage.map((u) => u.template_id)),
            users: rows
          }
        })
      }).pipe(span("Insights.userActivity"))

    const userLatency = (q: typeof InsightsRangeQuery.Type) =>
      Effect.gen(function*() {
        const templateIds = ids(q)
        const r = yield* range(q)
        yield* authorizeInsights(templateIds)
        const [start, end] = bounds(r)
        const latencies = yield* repo.latencies(start, end, templateIds)
        const byUser = new Map<string, { templates: Set<string>; values: Array<number> }>()
        for (const l of latencies) {
          let e = byUser.get(l.user_id)
          if (e === undefined) byUser.set(l.user_id, e = { templates: new Set(), values: [] })
          e.templates.add(l.template_id)
          e.values.push(l.latency_ms)
        }
        const users = new Map((yield* repo.users([...byUser.keys()])).map((u) => [u.id, u]))
        const rows = [...byUser.entries()].map(([id, e]) =>
          new UserLatency({
            template_ids: sorted(e.templates),
            user_id: id,
            username: users.get(id)?.username ?? "",
            avatar_url: users.get(id)?.avatar_url ?? "",
            latency_ms: { p50: percentile(e.values, 0.5), p95: percentile(e.values, 0.95) }
          })
        ).sort((a, b) => a.username.localeCompare(b.username))
        return new UserLatencyInsightsResponse({
          report: {
            start_time: q.start_time,
            end_time: q.end_time,
            template_ids: sorted(latencies.map((l) => l.template_id)),
            users: rows
          }
        })
      }).pipe(span("Insights.userLatency"))

    /**
     * How many users were in each status at the end of each day of the last 60 days (in the
     * caller's zone), from the recorded status changes.
     */
    const userStatusCounts = (q: typeof UserStatusCountsQuery.Type) =>
      Effect.gen(function*() {
        yield* authorize("read", { type: "user" })
        const now = yield* Clock.currentTimeMillis
        let offsetMinutes = (q.tz_offset ?? 0) * 60
        if (q.timezone !== undefined && q.timezone !== "") {
          if ((q.tz_offset ?? 0) !== 0) {
            return yield* new BadRequest({
              message: "Provide either \"timezone\" or \"tz_offset\", not both.",
              validations: [
                new Validation({ field: "tz_offset", detail: "Leave tz_offset out when timezone is given." })
              ]
            })
          }
          const zone = zoneOffsetMinutes(q.timezone, new Date(now))
          if (zone === undefined) {
            return yield* new BadRequest({
              message: "Invalid timezone.",
              validations: [
                new Validation({ field: "timezone", detail: "Must be an IANA time zone name, such as Europe/Berlin." })
              ]
            })
          }
          offsetMinutes = zone
        }
        const end = nextHour(now)
        const start = startOfLocalDay(end, offsetMinutes) - INSIGHTS_SERIES_DAYS * DAY
        const changes = yield* repo.statusChanges(new Date(end))
        const days = intervals(start, end, 1)
        const counts: Record<string, Array<UserStatusChangeCount>> = {}
        for (const s of countedStatuses) counts[s] = []
        const current = new Map<string, string>()
        let i = 0
        for (const [s, e] of days) {
          while (i < changes.length && changes[i]!.changed_at.getTime() < e) {
            current.set(changes[i]!.user_id, changes[i]!.status)
            i++
          }
          const n: Record<string, number> = {}
          for (const status of current.values()) n[status] = (n[status] ?? 0) + 1
          for (const status of countedStatuses) {
            counts[status]!.push(
              new UserStatusChangeCount({ date: formatOffsetTime(new Date(s), offsetMinutes), count: n[status] ?? 0 })
            )
          }
        }
        return new GetUserStatusCountsResponse({ status_counts: counts })
      }).pipe(span("Insights.userStatusCounts"))

    return {
      deploymentDaus,
      templateDaus,
      templates: templatesReport,
      userActivity,
      userLatency,
      userStatusCounts
    } as const
  })
}) {}
