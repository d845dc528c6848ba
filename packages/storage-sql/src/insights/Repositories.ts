/**
 * The insights rollups (the `InsightsRepo` port), on @effect/sql. An hour is folded from the raw
 * rows of that hour alone (agent stats along `workspace_agent_stats_created`, app opens along
 * `connection_logs_connect_time`) into `insights_usage_hourly` and `insights_app_usage_hourly`,
 * keyed by whole hours since the epoch; reports sum the rollups of a range in SQL, so what they
 * read grows with users and hours, never with raw rows.
 */
import { SqlClient } from "@effect/sql"
import {
  type AppUsageTotals,
  BUILD_TIME_STATS_BUILDS,
  type HourLatency,
  InsightsRepo,
  type InsightsUser,
  type ParameterValueCount,
  type UsageTotals,
  type UserStatusChange
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { columns, date, int, nullableDate, orElse, type Row, text } from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { latestBuildJoin } from "../LatestBuild.js"
import { transaction } from "../Transaction.js"

const rowToUsage = columns<UsageTotals>("insights_usage", {
  user_id: text,
  template_id: text,
  usage_mins: int,
  ssh_mins: int,
  vscode_mins: int,
  jetbrains_mins: int,
  reconnecting_pty_mins: int
}).read

const rowToAppUsage = columns<AppUsageTotals>("insights_app_usage", {
  user_id: text,
  template_id: text,
  slug: text,
  display_name: text,
  icon: text,
  seconds: int,
  times_used: int
}).read

const rowToParameterCount = columns<ParameterValueCount>("workspace_build_parameters", {
  template_id: text,
  template_version_id: text,
  name: text,
  value: text,
  count: int
}).read

const rowToLatency = columns<HourLatency>("insights_usage_hourly", {
  user_id: text,
  template_id: text,
  latency_ms: int
}).read

const rowToUser = columns<InsightsUser>("users", { id: text, username: text, avatar_url: orElse(text, "") }).read

const rowToStatusChange = columns<UserStatusChange>("user_status_changes", {
  user_id: text,
  status: text,
  changed_at: date
}).read

/** An app open of the hour (`connection_logs` of `workspace_app` type, with the workspace's template). */
const rowToOpen = columns<{
  readonly user_id: string
  readonly template_id: string
  readonly slug: string
  readonly connect_time: Date
  readonly disconnect_time: Date | null
  readonly workspace_id: string
  readonly agent_name: string
}>("connection_logs", {
  user_id: text,
  template_id: text,
  slug: text,
  connect_time: date,
  disconnect_time: nullableDate,
  workspace_id: text,
  agent_name: text
}).read

const HOUR = 3_600_000
const INSERT_BATCH = 500

const median = (values: ReadonlyArray<number>) => {
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** The slug, display name and icon of each app in an agent's `apps` JSON (malformed entries skipped). */
const parseApps = (json: unknown): ReadonlyArray<{ slug: string; display_name: string; icon: string }> => {
  let apps: unknown
  try {
    apps = typeof json === "string" ? JSON.parse(json) : json
  } catch {
    return []
  }
  if (!Array.isArray(apps)) return []
  return apps.flatMap((a) =>
    typeof a === "object" && a !== null && typeof a.slug === "string"
      ? [{
        slug: a.slug,
        display_name: typeof a.display_name === "string" ? a.display_name : "",
        icon: typeof a.icon === "string" ? a.icon : ""
      }]
      : []
  )
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const inTransaction = transaction(sql)
  const orDie = Effect.orDie
  const iso = (d: Date | number) => new Date(d).toISOString()
  const isPg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
  // The minute a stats report falls in, as a value to group by.
  const minute = sql.literal(isPg ? "date_trunc('minute', s.created_at)" : "substr(s.created_at, 1, 16)")
  const hourOf = (d: Date) => Math.floor(d.getTime() / HOUR)
  /** Hours `[start, end)` as rollup keys: the hours whose start is inside the range. */
  const hours = (start: Date, end: Date) =>
    [Math.ceil(start.getTime() / HOUR), Math.ceil(end.getTime() / HOUR)] as const
  /**
   * The rows of `[start, end)` as one source: whole UTC days inside the range from the daily
   * table, the hours at its edges from the hourly one (`columns` are read from both).
   */
  const source = (
    table: "usage" | "app_usage",
    columns: string,
    start: Date,
    end: Date,
    templateIds: ReadonlyArray<string>,
    where = ""
  ) => {
    const [a, b] = hours(start, end)
    const dA = Math.ceil(a / 24)
    const dB = Math.floor(b / 24)
    const cols = sql.literal(columns)
    const extra = sql.literal(where === "" ? "" : `AND ${where}`)
    const hourly = sql(`insights_${table}_hourly`)
    const daily = sql(`insights_${table}_daily`)
    const hoursOf = (from: number, to: number) =>
      sql`SELECT ${cols}, hour AS at_hour FROM ${hourly} WHERE hour >= ${from} AND hour < ${to} ${extra} ${
        templateFilter(templateIds)
      }`
    if (dA >= dB) return hoursOf(a, b)
    // Each edge its own range scan (an OR of two ranges would read every hour between them).
    const parts = [
      sql`SELECT ${cols}, day * 24 AS at_hour FROM ${daily} WHERE day >= ${dA} AND day < ${dB} ${extra} ${
        templateFilter(templateIds)
      }`
    ]
    if (a < dA * 24) parts.push(hoursOf(a, dA * 24))
    if (dB * 24 < b) parts.push(hoursOf(dB * 24, b))
    return sql.join(" UNION ALL ", false)(parts)
  }
  const templateFilter = (templateIds: ReadonlyArray<string>) =>
    templateIds.length === 0 ? sql`` : sql`AND template_id IN ${sql.in(templateIds)}`

  const insertAll = (table: string, rows: ReadonlyArray<Record<string, unknown>>) =>
    Effect.forEach(
      Array.from({ length: Math.ceil(rows.length / INSERT_BATCH) }, (_, i) =>
        rows.slice(i * INSERT_BATCH, (i + 1) * INSERT_BATCH)),
      (batch) =>
        sql`INSERT INTO ${sql(table)} ${sql.insert(batch as Array<Record<string, unknown>>)}`,
      { discard: true }
    )

  const rollupHour = (hour: Date) =>
    Effect.gen(function*() {
      const h = hourOf(hour)
      const from = iso(h * HOUR)
      const to = iso((h + 1) * HOUR)
      // Minutes with at least one report of an open session (or connection), per user and template.
      const minutes = yield* sql<Row>`SELECT user_id, template_id, COUNT(*) AS usage_mins, SUM(ssh) AS ssh_mins,
          SUM(vscode) AS vscode_mins, SUM(jetbrains) AS jetbrains_mins, SUM(rpty) AS reconnecting_pty_mins
        FROM (SELECT w.owner_id AS user_id, w.template_id AS template_id, ${minute} AS minute,
            MAX(CASE WHEN s.session_count_ssh > 0 THEN 1 ELSE 0 END) AS ssh,
            MAX(CASE WHEN s.session_count_vscode > 0 THEN 1 ELSE 0 END) AS vscode,
            MAX(CASE WHEN s.session_count_jetbrains > 0 THEN 1 ELSE 0 END) AS jetbrains,
            MAX(CASE WHEN s.session_count_reconnecting_pty > 0 THEN 1 ELSE 0 END) AS rpty
          FROM workspace_agent_stats s JOIN workspaces w ON w.id = s.workspace_id
          WHERE s.created_at >= ${from} AND s.created_at < ${to}
            AND (s.connection_count > 0 OR s.session_count_ssh > 0 OR s.session_count_vscode > 0
              OR s.session_count_jetbrains > 0 OR s.session_count_reconnecting_pty > 0)
          GROUP BY w.owner_id, w.template_id, ${minute}) m
        GROUP BY user_id, template_id`
      const latencyRows = yield* sql<Row>`SELECT w.owner_id AS user_id, w.template_id AS template_id,
          s.connection_median_latency_ms AS ms
        FROM workspace_agent_stats s JOIN workspaces w ON w.id = s.workspace_id
        WHERE s.created_at >= ${from} AND s.created_at < ${to} AND s.connection_median_latency_ms > 0`
      const latencies = new Map<string, Array<number>>()
      for (const r of latencyRows) {
        const key = `${text(r.user_id, "workspaces.owner_id")}\u0000${text(r.template_id, "workspaces.template_id")}`
        const list = latencies.get(key) ?? []
        list.push(int(r.ms, "workspace_agent_stats.connection_median_latency_ms"))
        latencies.set(key, list)
      }
      const usage = new Map<string, Record<string, unknown>>()
      for (const r of minutes.map(rowToUsage)) {
        usage.set(`${r.user_id}\u0000${r.template_id}`, { hour: h, ...r, latency_ms: null })
      }
      for (const [key, values] of latencies) {
        const [user_id, template_id] = key.split("\u0000")
        const row = usage.get(key) ?? {
          hour: h,
          user_id,
          template_id,
          usage_mins: 0,
          ssh_mins: 0,
          vscode_mins: 0,
          jetbrains_mins: 0,
          reconnecting_pty_mins: 0
        }
        usage.set(key, { ...row, latency_ms: median(values) })
      }
      // App opens (the connection log's workspace_app entries) by the user who opened them.
      const opens = yield* sql<
        Row
      >`SELECT COALESCE(c.user_id, c.workspace_owner_id) AS user_id, w.template_id AS template_id,
          c.slug_or_port AS slug, c.connect_time AS connect_time, c.disconnect_time AS disconnect_time,
          c.workspace_id AS workspace_id, c.agent_name AS agent_name
        FROM connection_logs c JOIN workspaces w ON w.id = c.workspace_id
        WHERE c.connect_time >= ${from} AND c.connect_time < ${to} AND c.type = 'workspace_app'`
      // The apps' display names and icons, as the agents of the workspaces' latest builds declare them.
      const declared = new Map<string, { display_name: string; icon: string }>()
      if (opens.length > 0) {
        const agents = yield* sql<
          Row
        >`SELECT DISTINCT c.workspace_id AS workspace_id, c.agent_name AS agent_name, a.apps AS apps
          FROM connection_logs c
          ${latestBuildJoin(sql, "c.workspace_id")}
          JOIN workspace_resources r ON r.job_id = b.job_id
          JOIN workspace_agents a ON a.resource_id = r.id AND a.name = c.agent_name
          WHERE c.connect_time >= ${from} AND c.connect_time < ${to} AND c.type = 'workspace_app'`
        for (const a of agents) {
          const agent = `${text(a.workspace_id, "connection_logs.workspace_id")}\u0000${
            text(a.agent_name, "connection_logs.agent_name")
          }`
          for (const app of parseApps(a.apps)) {
            declared.set(`${agent}\u0000${app.slug}`, {
              display_name: app.display_name,
              icon: app.icon
            })
          }
        }
      }
      const apps = new Map<string, Record<string, unknown> & { seconds: number; times_used: number }>()
      for (const o of opens.map(rowToOpen)) {
        const key = `${o.user_id}\u0000${o.template_id}\u0000${o.slug}`
        const names = declared.get(`${o.workspace_id}\u0000${o.agent_name}\u0000${o.slug}`)
        const row = apps.get(key) ?? {
          hour: h,
          user_id: o.user_id,
          template_id: o.template_id,
          slug: o.slug,
          display_name: names?.display_name || o.slug,
          icon: names?.icon ?? "",
          seconds: 0,
          times_used: 0
        }
        // An open counts a minute, or how long it lasted when the log knows.
        const started = o.connect_time.getTime()
        const ended = o.disconnect_time === null ? started + 60_000 : o.disconnect_time.getTime()
        row.seconds += Math.max(60, Math.round((ended - started) / 1000))
        row.times_used += 1
        apps.set(key, row)
      }
      yield* inTransaction(Effect.gen(function*() {
        yield* sql`DELETE FROM insights_usage_hourly WHERE hour = ${h}`
        yield* sql`DELETE FROM insights_app_usage_hourly WHERE hour = ${h}`
        yield* insertAll("insights_usage_hourly", [...usage.values()])
        yield* insertAll("insights_app_usage_hourly", [...apps.values()])
        // The hour's day, refolded from its hours.
        const day = Math.floor(h / 24)
        yield* sql`DELETE FROM insights_usage_daily WHERE day = ${day}`
        yield* sql`DELETE FROM insights_app_usage_daily WHERE day = ${day}`
        yield* sql`INSERT INTO insights_usage_daily (day, user_id, template_id, usage_mins, ssh_mins, vscode_mins, jetbrains_mins,
            reconnecting_pty_mins)
          SELECT ${day}, user_id, template_id, SUM(usage_mins), SUM(ssh_mins), SUM(vscode_mins), SUM(jetbrains_mins), SUM(reconnecting_pty_mins)
          FROM insights_usage_hourly WHERE hour >= ${day * 24} AND hour < ${day * 24 + 24} AND usage_mins > 0
          GROUP BY user_id, template_id`
        yield* sql`INSERT INTO insights_app_usage_daily (day, user_id, template_id, slug, display_name, icon, seconds, times_used)
          SELECT ${day}, user_id, template_id, slug, MAX(display_name), MAX(icon), SUM(seconds), SUM(times_used)
          FROM insights_app_usage_hourly WHERE hour >= ${day * 24} AND hour < ${day * 24 + 24}
          GROUP BY user_id, template_id, slug`
      }))
      return { usageRows: usage.size, appRows: apps.size }
    }).pipe(orDie)

  return InsightsRepo.of({
    rollupHour,
    recordStatusChanges: (now) =>
      inTransaction(Effect.gen(function*() {
        const current = sql.literal("CASE WHEN u.deleted = TRUE THEN 'deleted' ELSE u.status END")
        // A user seen for the first time has had their status since they were made; a change since is dated now.
        // System users (the prebuilds user) are not counted.
        const changed = yield* sql<Row>`INSERT INTO user_status_changes (user_id, status, changed_at)
          SELECT u.id, ${current}, CASE WHEN l.user_id IS NULL THEN u.created_at ELSE ${iso(now)} END
          FROM users u LEFT JOIN user_status_latest l ON l.user_id = u.id
          WHERE u.is_system = FALSE AND (l.user_id IS NULL OR l.status <> ${current}) RETURNING user_id`
        yield* sql`INSERT INTO user_status_latest (user_id, status)
          SELECT u.id, ${current} FROM users u WHERE u.is_system = FALSE
          ON CONFLICT (user_id) DO UPDATE SET status = excluded.status`
        return changed.length
      })).pipe(orDie),
    state: sql<Row>`SELECT watermark, ran_at FROM insights_rollup_state WHERE id = 1`.pipe(
      Effect.map((rows) =>
        rows.length === 0
          ? Option.none()
          : Option.some({
            watermark: date(rows[0]!.watermark, "insights_rollup_state.watermark"),
            ran_at: date(rows[0]!.ran_at, "insights_rollup_state.ran_at")
          })
      ),
      orDie
    ),
    setState: (s) =>
      Effect.asVoid(
        orDie(
          sql`INSERT INTO insights_rollup_state (id, watermark, ran_at) VALUES (1, ${iso(s.watermark)}, ${
            iso(s.ran_at)
          })
        ON CONFLICT (id) DO UPDATE SET watermark = excluded.watermark, ran_at = excluded.ran_at`
        )
      ),
    // Each read walks its time index from the oldest row and stops at the first that counts.
    earliestRaw: Effect.zipWith(
      sql<Row>`SELECT created_at AS t FROM workspace_agent_stats ORDER BY created_at LIMIT 1`,
      sql<
        Row
      >`SELECT connect_time AS t FROM connection_logs WHERE type = 'workspace_app' ORDER BY connect_time LIMIT 1`,
      (stats, opens) => {
        const times = [...stats, ...opens].flatMap((r) =>
          r.t === null || r.t === undefined ? [] : [date(r.t, "created_at").getTime()]
        )
        return times.length === 0 ? Option.none<Date>() : Option.some(new Date(Math.min(...times)))
      }
    ).pipe(orDie),
    usage: (start, end, templateIds) => {
      const rows = source(
        "usage",
        "user_id, template_id, usage_mins, ssh_mins, vscode_mins, jetbrains_mins, reconnecting_pty_mins",
        start,
        end,
        templateIds
      )
      return sql<Row>`SELECT user_id, template_id, SUM(usage_mins) AS usage_mins, SUM(ssh_mins) AS ssh_mins,
          SUM(vscode_mins) AS vscode_mins, SUM(jetbrains_mins) AS jetbrains_mins, SUM(reconnecting_pty_mins) AS reconnecting_pty_mins
        FROM (${rows}) x GROUP BY user_id, template_id`.pipe(
        Effect.map((rows) => rows.map(rowToUsage)),
        orDie
      )
    },
    parameterUsage: (start, end, templateIds) =>
      sql<Row>`WITH latest AS (
          SELECT v.template_id AS template_id, b.workspace_id AS workspace_id, max(b.build_number) AS n
          FROM workspace_builds b JOIN template_versions v ON v.id = b.template_version_id
          WHERE b.created_at >= ${iso(start)} AND b.created_at < ${iso(end)}
            ${templateIds.length === 0 ? sql`` : sql`AND v.template_id IN ${sql.in(templateIds)}`}
          GROUP BY v.template_id, b.workspace_id
        )
        SELECT l.template_id AS template_id, b.template_version_id AS template_version_id, p.name AS name, p.value AS value,
          count(*) AS count
        FROM latest l
        JOIN workspace_builds b ON b.workspace_id = l.workspace_id AND b.build_number = l.n
        JOIN workspace_build_parameters p ON p.workspace_build_id = b.id
        GROUP BY l.template_id, b.template_version_id, p.name, p.value`.pipe(
        Effect.map((rows) => rows.map(rowToParameterCount)),
        orDie
      ),
    appUsage: (start, end, templateIds) => {
      const rows = source(
        "app_usage",
        "user_id, template_id, slug, display_name, icon, seconds, times_used",
        start,
        end,
        templateIds
      )
      return sql<
        Row
      >`SELECT user_id, template_id, slug, display_name, icon, SUM(seconds) AS seconds, SUM(times_used) AS times_used
        FROM (${rows}) x GROUP BY user_id, template_id, slug, display_name, icon`.pipe(
        Effect.map((rows) => rows.map(rowToAppUsage)),
        orDie
      )
    },
    activeByBucket: (start, end, bucketMinutes, templateIds) =>
      Effect.gen(function*() {
        const [a, b] = hours(start, end)
        const startMinute = Math.floor(start.getTime() / 60_000)
        const size = Math.max(1, Math.floor(bucketMinutes))
        const bucket = sql.literal(`((at_hour * 60 - ${startMinute}) / ${size})`)
        // Days fit the buckets when both start on a UTC midnight: then whole days are read a row per day.
        const byDay = startMinute % 1440 === 0 && size % 1440 === 0
        const active = byDay
          ? sql`SELECT at_hour, user_id, template_id FROM (${
            source("usage", "user_id, template_id", start, end, templateIds, "usage_mins > 0")
          }) u
            UNION SELECT at_hour, user_id, template_id FROM (${
            source("app_usage", "user_id, template_id", start, end, templateIds)
          }) p`
          : sql`SELECT hour AS at_hour, user_id, template_id FROM insights_usage_hourly
              WHERE hour >= ${a} AND hour < ${b} AND usage_mins > 0 ${templateFilter(templateIds)}
            UNION SELECT hour AS at_hour, user_id, template_id FROM insights_app_usage_hourly
              WHERE hour >= ${a} AND hour < ${b} ${templateFilter(templateIds)}`
        // One read: a row per bucket, user and template (bounded by users, templates and buckets).
        const rows = yield* sql<Row>`SELECT DISTINCT ${bucket} AS bucket, user_id, template_id FROM (${active}) x`
        const byBucket = new Map<number, { users: Set<string>; templates: Set<string> }>()
        for (const r of rows) {
          const n = int(r.bucket, "bucket")
          let e = byBucket.get(n)
          if (e === undefined) byBucket.set(n, e = { users: new Set(), templates: new Set() })
          e.users.add(text(r.user_id, "insights_usage.user_id"))
          e.templates.add(text(r.template_id, "insights_usage.template_id"))
        }
        return [...byBucket.entries()].map(([n, e]) => ({
          bucket: n,
          users: e.users.size,
          template_ids: [...e.templates]
        }))
      }).pipe(orDie),
    latencies: (start, end, templateIds) => {
      const [a, b] = hours(start, end)
      return sql<Row>`SELECT user_id, template_id, latency_ms FROM insights_usage_hourly
        WHERE hour >= ${a} AND hour < ${b} AND latency_ms IS NOT NULL ${templateFilter(templateIds)}`.pipe(
        Effect.map((rows) => rows.map(rowToLatency)),
        orDie
      )
    },
    users: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql<Row>`SELECT id, username, avatar_url FROM users WHERE id IN ${sql.in(ids)}`.pipe(
          Effect.map((rows) => rows.map(rowToUser)),
          orDie
        ),
    statusChanges: (before) =>
      sql<Row>`SELECT user_id, status, changed_at FROM user_status_changes WHERE changed_at < ${
        iso(before)
      } ORDER BY changed_at`.pipe(
        Effect.map((rows) => rows.map(rowToStatusChange)),
        orDie
      ),
    buildDurations: (templateIds, since) =>
      // The newest successful builds of each template are kept as they succeed (at most
      // BUILD_TIME_STATS_BUILDS each, migration 0031): a template's stats read those rows only.
      templateIds.length === 0
        ? Effect.succeed([])
        // Read directly where the storage can (a template's page reads it at every request).
        : reads.mapped(
          sql<Row>`SELECT template_id, transition, started_at, completed_at FROM (
            SELECT template_id, transition, started_at, completed_at,
              ROW_NUMBER() OVER (PARTITION BY template_id ORDER BY build_created_at DESC, build_id DESC) AS rn
            FROM template_build_times WHERE template_id IN ${sql.in(templateIds)}) x
          WHERE rn <= ${BUILD_TIME_STATS_BUILDS} AND started_at > ${iso(since)}`,
          (rows) =>
            rows.map((r) => ({
              template_id: text(r.template_id, "template_build_times.template_id"),
              transition: text(r.transition, "template_build_times.transition"),
              seconds: Math.max(
                0,
                (date(r.completed_at, "template_build_times.completed_at").getTime() -
                  date(r.started_at, "template_build_times.started_at").getTime()) / 1000
              )
            }))
        ),
    purgeBefore: (before) =>
      Effect.gen(function*() {
        const h = hourOf(before)
        const a = yield* sql<Row>`DELETE FROM insights_usage_hourly WHERE hour < ${h} RETURNING hour`
        const b = yield* sql<Row>`DELETE FROM insights_app_usage_hourly WHERE hour < ${h} RETURNING hour`
        yield* sql`DELETE FROM insights_usage_daily WHERE day < ${Math.floor(h / 24)}`
        yield* sql`DELETE FROM insights_app_usage_daily WHERE day < ${Math.floor(h / 24)}`
        return a.length + b.length
      }).pipe(orDie)
  })
})

export const layer: Layer.Layer<InsightsRepo, never, SqlClient.SqlClient> = Layer.effect(InsightsRepo, make)
