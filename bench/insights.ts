// Insights reports over many raw agent stats (npm run bench:insights). Not a test: it measures and reports.
//
// Issue 15: "/insights/templates and /insights/user-activity over 90 days with 10,000,000 raw agent stats
// answer within 2x of the same report over 1,000."
//
// In one process, on a SQLite file: the first user through the API, then `--workspaces` workspaces (one
// owner each, spread over 5 templates) written directly, then the raw agent stats seeded directly by SQL
// (a recursive CTE: `--raw` rows spread evenly over the 90 days and the workspaces, each with an SSH
// session open and a latency), then every hour of the 90 days folded by the rollup (`rollupHour`, what the
// periodic pass does hour by hour), timed. Then each report is asked `--requests` times over HTTP (after
// a warm-up) and its median and p95 latency reported. Run once with `--raw 1000` and once with the large
// count; the default runs both and compares. Writes bench/results/insights.md unless --no-write.
// Options: --raw 10000000 --small 1000 --workspaces 50 --requests 40 --no-write.
import { SqlClient } from "@effect/sql"
import { InsightsRepo } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { loadavg } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { fmt, logger, machineLine, SESSION_HEADER, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    raw: { type: "string", default: "10000000" },
    small: { type: "string", default: "1000" },
    workspaces: { type: "string", default: "50" },
    requests: { type: "string", default: "40" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("insights")
const startedAt = new Date()
const load0 = loadavg()
const HOUR = 3_600_000
const DAY = 24 * HOUR

interface Measured {
  readonly raw: number
  readonly seedSeconds: number
  readonly rollupSeconds: number
  readonly usageRows: number
  readonly reports: Record<string, { p50: number; p95: number }>
}

const percentileOf = (values: ReadonlyArray<number>, p: number) => {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!
}

const measure = async (raw: number): Promise<Measured> => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-insights-"))
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const workbay = await makeWorkbay(Sqlite.layer({ filename: join(dir, "bench.db") }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    agentMonitor: false,
    insightsRollup: false,
    lifecycle: false,
    workers: false,
    settings: { accessUrl: url }
  })
  workbay.attach(server)
  try {
    const api = `${url}/api/v2`
    const first = await (await fetch(`${api}/users/first`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.com", username: "bench", password: "Bench-Password-2024!x" })
    })).json() as { user_id: string; organization_id: string }
    const login = await (await fetch(`${api}/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.com", password: "Bench-Password-2024!x" })
    })).json() as { session_token: string }
    const headers = { [SESSION_HEADER]: login.session_token }
    const now = Date.now()
    const end = now - (now % DAY)
    const start = end - 90 * DAY
    const workspaces = Number(opts.workspaces)
    const run = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient | InsightsRepo>) =>
      workbay.run(Effect.orDie(effect) as Effect.Effect<A>)

    const seedStarted = performance.now()
    await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const t = new Date(start).toISOString()
      const org = first.organization_id
      const templates: Array<string> = []
      for (let i = 0; i < 5; i++) {
        const id = randomUUID()
        templates.push(id)
        yield* sql`INSERT INTO templates (id, created_at, updated_at, organization_id, name, provisioner, active_version_id, created_by)
          VALUES (${id}, ${t}, ${t}, ${org}, ${`tpl-${i}`}, 'workbay', ${randomUUID()}, ${first.user_id})`
      }
      for (let i = 0; i < workspaces; i++) {
        const user = randomUUID()
        yield* sql`INSERT INTO users (id, email, username, login_type, status, created_at, updated_at, last_seen_at)
          VALUES (${user}, ${`u${i}@example.com`}, ${`u${i}`}, 'password', 'active', ${t}, ${t}, ${t})`
        yield* sql`INSERT INTO workspaces (id, created_at, updated_at, owner_id, organization_id, template_id, name, last_used_at)
          VALUES (${`00000000-0000-4000-8000-${
          String(i).padStart(12, "0")
        }`}, ${t}, ${t}, ${user}, ${org}, ${templates[i % 5]!}, ${`ws-${i}`}, ${t})`
      }
      // Row x: workspace x % W, at start + floor(x / W) * step seconds (evenly over the 90 days).
      const step = (90 * 86_400) / Math.ceil(raw / workspaces)
      yield* sql.unsafe(`INSERT INTO workspace_agent_stats (created_at, agent_id, workspace_id, connection_count,
          connection_median_latency_ms, session_count_ssh, rx_bytes, tx_bytes)
        WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x + 1 < ${raw})
        SELECT strftime('%Y-%m-%dT%H:%M:%S.000Z', ${
        start / 1000
      } + CAST((x / ${workspaces}) * ${step} AS INTEGER), 'unixepoch'),
          'agent-' || (x % ${workspaces}),
          '00000000-0000-4000-8000-' || substr('000000000000' || (x % ${workspaces}), -12),
          1, 10 + (x % 40), 1, 1000, 1000
        FROM n`)
    }))
    const seedSeconds = (performance.now() - seedStarted) / 1000
    log(`${raw} raw rows seeded in ${fmt(seedSeconds)} s`)

    const rollupStarted = performance.now()
    let usageRows = 0
    await run(Effect.gen(function*() {
      const repo = yield* InsightsRepo
      for (let h = start; h < end; h += HOUR) usageRows += (yield* repo.rollupHour(new Date(h))).usageRows
    }))
    const rollupSeconds = (performance.now() - rollupStarted) / 1000
    log(`2160 hours folded into ${usageRows} hourly rows in ${fmt(rollupSeconds)} s`)

    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")
    const range = `start_time=${iso(start)}&end_time=${iso(end)}`
    const paths: Record<string, string> = {
      "/insights/templates (interval=day)": `/insights/templates?${range}&interval=day`,
      "/insights/templates (interval=week, 84 days)": `/insights/templates?start_time=${iso(end - 84 * DAY)}&end_time=${
        iso(end)
      }&interval=week`,
      "/insights/user-activity": `/insights/user-activity?${range}`
    }
    const reports: Record<string, { p50: number; p95: number }> = {}
    for (const [name, path] of Object.entries(paths)) {
      const times: Array<number> = []
      for (let i = 0; i < 5 + Number(opts.requests); i++) {
        const began = performance.now()
        // The server closes idle keep-alive sockets while the rollup runs: one retry on a stale one.
        const r = await fetch(`${api}${path}`, { headers }).catch(() => fetch(`${api}${path}`, { headers }))
        const body = await r.text()
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${body}`)
        if (i >= 5) times.push(performance.now() - began)
      }
      reports[name] = { p50: percentileOf(times, 0.5), p95: percentileOf(times, 0.95) }
      log(`${raw} raw: ${name} p50 ${fmt(reports[name]!.p50)} ms, p95 ${fmt(reports[name]!.p95)} ms`)
    }
    return { raw, seedSeconds, rollupSeconds, usageRows, reports }
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await workbay.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

const small = await measure(Number(opts.small))
const large = await measure(Number(opts.raw))
const lines = [
  "# Insights reports over raw agent stats",
  "",
  machineLine(startedAt, load0),
  "",
  `SQLite file, ${opts.workspaces} workspaces (one owner each) on 5 templates, raw stats evenly over 90 days;`,
  "every hour folded by `rollupHour`, then each report asked over HTTP (median and p95 of",
  `${opts.requests} requests after 5 warm-up ones).`,
  "",
  "| raw rows | seed (s) | rollup of 2160 hours (s) | hourly rows |",
  "|---:|---:|---:|---:|",
  ...[small, large].map((m) => `| ${m.raw} | ${fmt(m.seedSeconds)} | ${fmt(m.rollupSeconds)} | ${m.usageRows} |`),
  "",
  `| report | p50 at ${small.raw} (ms) | p50 at ${large.raw} (ms) | ratio | p95 at ${small.raw} | p95 at ${large.raw} |`,
  "|---|---:|---:|---:|---:|---:|",
  ...Object.keys(small.reports).map((name) => {
    const a = small.reports[name]!
    const b = large.reports[name]!
    return `| ${name} | ${fmt(a.p50, 2)} | ${fmt(b.p50, 2)} | ${fmt(b.p50 / a.p50, 2)}x | ${fmt(a.p95, 2)} | ${
      fmt(b.p95, 2)
    } |`
  }),
  ""
]
writeReport(lines.join("\n"), "insights.md", { write: !opts["no-write"], log })
