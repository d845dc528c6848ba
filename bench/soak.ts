// Soak (npm run bench:soak). Not a test: it measures and reports (issue 16, item 10).
//
// Starts the standalone server (the bundle, packages/server/dist/main.mjs; SQLite in a temporary
// folder, or Postgres with --database-url, which must point at an empty database), seeds the first
// user, a template of the built-in `workbay` provisioner and --workspaces workspaces, and opens
// --watchers WebSocket watchers (GET /workspaces/{id}/watch-ws) held for the whole run. Then:
//   1. the maximum throughput of the mix: --probe-seconds of closed-loop load, --probe-connections at once;
//   2. --minutes of open-loop load at --ratio (0.7) of it, every operation started on schedule.
// The mix, by weight: reads 70 (GET /users/me, GET /workspaces?limit=25, GET /workspaces/{id},
// GET /organizations/{org}/templates), writes 25 (PUT /users/me/profile, a new name), builds 5 (POST
// /workspaces/{id}/builds, stop or start, on a workspace whose latest build ended; a workspace with a
// build still in flight is read instead). An error is a network failure, an answer of 500 or above, an
// unexpected status, or a watcher closed by the server; the run must have none. RSS (VmRSS) of the
// server every minute; its growth is the last sample against the sample at minute 5 (or at half the
// run when it is shorter than 10 minutes). The server's own Prometheus metrics are scraped at the end.
// Writes bench/results/soak.md (soak-postgres.md on Postgres). Options: --minutes 30 --ratio 0.7 --watchers 50 --workspaces 20
// --probe-seconds 20 --probe-connections 32 --database-url postgres://... --skip-build --no-write
// --profile-dir DIR (the server writes a V8 CPU profile there when it stops)
import { loadavg } from "node:os"
import { parseArgs } from "node:util"
import WebSocket from "ws"
import {
  benchWork,
  buildBundle,
  bundleIsCurrent,
  fmt,
  freePort,
  logger,
  machineLine,
  machineTemplate,
  request,
  rssMb,
  seedFirstUser,
  seedTemplate,
  sleep,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    ratio: { type: "string", default: "0.7" },
    watchers: { type: "string", default: "50" },
    workspaces: { type: "string", default: "20" },
    "probe-seconds": { type: "string", default: "20" },
    "probe-connections": { type: "string", default: "32" },
    "database-url": { type: "string", default: "" },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    "profile-dir": { type: "string", default: "" }
  }
})
const log = logger("soak")
const minutes = Number(opts.minutes)
const ratio = Number(opts.ratio)

const archive = machineTemplate()

type Headers = Record<string, string>

interface Tally {
  /** Operations started (a build operation is two requests: its read and its POST). */
  ops: number
  ok: number
  errors: number
  byKind: Record<string, number>
  latencies: Array<number>
  firstErrors: Array<string>
}
const tally = (): Tally => ({ ops: 0, ok: 0, errors: 0, byKind: {}, latencies: [], firstErrors: [] })

const main = async () => {
  const startedAt = new Date()
  const load0 = loadavg()
  if (!opts["skip-build"] && !bundleIsCurrent()) buildBundle(log)
  const work = benchWork("workbay-soak-")
  try {
    const dir = await work.workbayDir("soak")
    const metricsPort = await freePort()
    const server = await dir.start({
      args: ["--prometheus-enable", "true", "--prometheus-address", `127.0.0.1:${metricsPort}`],
      nodeArgs: opts["profile-dir"] ? ["--cpu-prof", `--cpu-prof-dir=${opts["profile-dir"]}`] : [],
      env: opts["database-url"] ? { DATABASE_URL: opts["database-url"] } : {}
    })
    const pid = server.child.pid!
    const base = dir.base
    log(`server pid ${pid} at ${base} (${opts["database-url"] ? "Postgres" : "SQLite"})`)
    const { auth, orgId } = await seedFirstUser(base)
    const json: Headers = { ...auth, "content-type": "application/json" }
    const template = await seedTemplate(base, auth, orgId, archive, "soak")
    const workspaceIds: Array<string> = []
    for (let i = 0; i < Number(opts.workspaces); i++) {
      const w = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ name: `soak-${i}`, template_id: template.id })
      })
      if (w.status !== 201 && w.status !== 200) {
        throw new Error(`create workspace: ${w.status} ${JSON.stringify(w.body)}`)
      }
      workspaceIds.push(w.body.id)
    }
    log(`seeded ${workspaceIds.length} workspaces`)

    // ---- watchers, held for the whole run ----
    let watcherErrors = 0
    let watcherMessages = 0
    let stopping = false
    const watchers: Array<WebSocket> = []
    const openWatcher = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const id = workspaceIds[i % workspaceIds.length]
        const socket = new WebSocket(`${base.replace("http:", "ws:")}/workspaces/${id}/watch-ws`, {
          headers: auth,
          perMessageDeflate: false
        })
        let opened = false
        socket.on("message", () => {
          watcherMessages++
          if (!opened) {
            opened = true
            resolve()
          }
        })
        socket.on("error", (e) => (opened ? undefined : reject(e)))
        socket.on("close", (code) => {
          if (!stopping) {
            watcherErrors++
            log(`watcher ${i} closed by the server (${code})`)
          }
        })
        watchers.push(socket)
      })
    for (let i = 0; i < Number(opts.watchers); i += 25) {
      await Promise.all(Array.from({ length: Math.min(25, Number(opts.watchers) - i) }, (_, k) => openWatcher(i + k)))
    }
    log(`${watchers.length} watchers open`)

    // ---- the mix ----
    const busy = new Set<string>()
    let writes = 0
    const call = async (t: Tally, kind: string, url: string, init: RequestInit, expected: ReadonlyArray<number>) => {
      const started = performance.now()
      try {
        const res = await fetch(url, init)
        const text = await res.text()
        t.latencies.push(performance.now() - started)
        if (!expected.includes(res.status)) {
          t.errors++
          if (t.firstErrors.length < 10) t.firstErrors.push(`${kind} ${res.status} ${text.slice(0, 200)}`)
          return undefined
        }
        t.ok++
        t.byKind[kind] = (t.byKind[kind] ?? 0) + 1
        return text
      } catch (e) {
        t.errors++
        if (t.firstErrors.length < 10) t.firstErrors.push(`${kind} ${e instanceof Error ? e.message : String(e)}`)
        return undefined
      }
    }
    const readWorkspace = async (t: Tally, id: string) => {
      const text = await call(t, "read workspace", `${base}/workspaces/${id}`, { headers: auth }, [200])
      return text === undefined ? undefined : JSON.parse(text)
    }
    const op = async (t: Tally) => {
      t.ops++
      const r = Math.random() * 100
      if (r < 20) return void await call(t, "read me", `${base}/users/me`, { headers: auth }, [200])
      if (r < 40) return void await call(t, "list workspaces", `${base}/workspaces?limit=25`, { headers: auth }, [200])
      if (r < 55) return void await readWorkspace(t, workspaceIds[Math.floor(Math.random() * workspaceIds.length)]!)
      if (r < 70) {
        return void await call(t, "list templates", `${base}/organizations/${orgId}/templates`, { headers: auth }, [
          200
        ])
      }
      if (r < 95) {
        return void await call(t, "update profile", `${base}/users/me/profile`, {
          method: "PUT",
          headers: json,
          body: JSON.stringify({ username: "bench", name: `Soak ${writes++ % 1000}` })
        }, [200])
      }
      const id = workspaceIds[Math.floor(Math.random() * workspaceIds.length)]!
      if (busy.has(id)) return void await readWorkspace(t, id)
      busy.add(id)
      try {
        const w = await readWorkspace(t, id)
        if (w === undefined) return
        const status = w.latest_build.job.status
        if (!["succeeded", "failed", "canceled"].includes(status)) return
        const transition = w.latest_build.transition === "start" && status === "succeeded" ? "stop" : "start"
        await call(t, `build ${transition}`, `${base}/workspaces/${id}/builds`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ transition })
        }, [200, 201])
      } finally {
        busy.delete(id)
      }
    }

    // ---- 1. the maximum throughput of the mix (closed loop) ----
    const probe = tally()
    const probeEnd = performance.now() + Number(opts["probe-seconds"]) * 1000
    await Promise.all(Array.from({ length: Number(opts["probe-connections"]) }, async () => {
      while (performance.now() < probeEnd) await op(probe)
    }))
    const maxRps = probe.ops / Number(opts["probe-seconds"])
    const rate = maxRps * ratio
    log(`maximum ${fmt(maxRps)} ops/s (${probe.errors} errors); soaking at ${fmt(rate)} ops/s for ${minutes} min`)

    // ---- 2. the soak (open loop at `rate`) ----
    const soak = tally()
    const samples: Array<
      {
        minute: number
        rssMb: number
        ops: number
        errors: number
        p50: number
        p99: number
        inFlight: number
        late: number
      }
    > = []
    let inFlight = 0
    let late = 0
    const maxInFlight = 256
    const soakStart = performance.now()
    const soakEnd = soakStart + minutes * 60_000
    let scheduled = 0
    let minuteOps = 0
    let minuteErrors = 0
    let nextSample = soakStart + 60_000
    const percentile = (xs: Array<number>, p: number) => {
      if (xs.length === 0) return NaN
      const s = [...xs].sort((a, b) => a - b)
      return s[Math.min(s.length - 1, Math.floor(p * s.length))]!
    }
    const sample = (now: number) => {
      const minute = Math.round((now - soakStart) / 60_000)
      const lat = soak.latencies.splice(0)
      const row = {
        minute,
        rssMb: rssMb(pid) ?? NaN,
        ops: soak.ok + soak.errors - minuteOps,
        errors: soak.errors - minuteErrors,
        p50: percentile(lat, 0.5),
        p99: percentile(lat, 0.99),
        inFlight,
        late
      }
      minuteOps = soak.ok + soak.errors
      minuteErrors = soak.errors
      samples.push(row)
      log(
        `minute ${row.minute}: rss ${fmt(row.rssMb)} MB, ${row.ops} requests, ${row.errors} errors, p50 ${
          fmt(row.p50)
        } ms, p99 ${fmt(row.p99)} ms`
      )
    }
    samples.push({ minute: 0, rssMb: rssMb(pid) ?? NaN, ops: 0, errors: 0, p50: NaN, p99: NaN, inFlight: 0, late: 0 })
    while (true) {
      const now = performance.now()
      if (now >= nextSample) {
        sample(now)
        nextSample += 60_000
      }
      if (now >= soakEnd) break
      const due = Math.floor(((now - soakStart) / 1000) * rate)
      while (scheduled < due) {
        scheduled++
        if (inFlight >= maxInFlight) {
          late++
          continue
        }
        inFlight++
        void op(soak).finally(() => inFlight--)
      }
      await sleep(5)
    }
    while (inFlight > 0) await sleep(10)
    if (samples[samples.length - 1]!.minute < minutes) sample(performance.now())

    // ---- the server's own metrics ----
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text())
    const series = (name: string) =>
      scrape.split("\n").filter((l) => l.startsWith(name) && !l.startsWith("#")).map((l) => ({
        labels: l.slice(name.length, l.lastIndexOf(" ")),
        value: Number(l.slice(l.lastIndexOf(" ") + 1))
      }))
    const processed = series("coderd_api_requests_processed_total")
    const served = processed.reduce((n, s) => n + s.value, 0)
    const served5xx = processed.filter((s) => /code="5/.test(s.labels)).reduce((n, s) => n + s.value, 0)
    const jobs = series("coderd_provisionerd_job_timings_seconds_count").reduce((n, s) => n + s.value, 0)
    const queries = series("coderd_db_query_latencies_seconds_count").reduce((n, s) => n + s.value, 0)

    stopping = true
    for (const w of watchers) w.close()
    await work.stop(server.child)

    // ---- the report ----
    const baselineMinute = minutes >= 10 ? 5 : Math.max(1, Math.floor(minutes / 2))
    const baseline = samples.find((s) => s.minute === baselineMinute) ?? samples[1] ?? samples[0]!
    const last = samples[samples.length - 1]!
    const growth = (last.rssMb - baseline.rssMb) / baseline.rssMb
    const errors = soak.errors + watcherErrors
    const pass = errors === 0 && growth < 0.1
    const report = [
      "# Soak",
      "",
      machineLine(startedAt, load0),
      "",
      `Standalone server on ${
        opts["database-url"] ? "Postgres" : "SQLite"
      }; ${workspaceIds.length} workspaces of the built-in workbay provisioner, ` +
      `${watchers.length} WebSocket watchers held open. Mix: reads 70, profile writes 25, builds 5 (by weight).`,
      "",
      `- Maximum throughput of the mix: **${fmt(maxRps)} ops/s** (${opts["probe-seconds"]} s closed loop, ${
        opts["probe-connections"]
      } at once; ${probe.errors} errors).`,
      `- Soak: **${minutes} min at ${fmt(rate)} ops/s** (${ratio * 100}% of it), open loop: ${soak.ops} operations ` +
      `(${soak.ok + soak.errors} requests), ${late} not started because ${maxInFlight} were in flight; achieved ${
        fmt(soak.ops / (minutes * 60))
      } ops/s.`,
      `- Errors: **${soak.errors}** requests, **${watcherErrors}** watchers closed by the server (${watcherMessages} watch messages received).`,
      `- RSS: ${fmt(samples[0]!.rssMb)} MB at the start, ${fmt(baseline.rssMb)} MB at minute ${baseline.minute}, ${
        fmt(last.rssMb)
      } MB at minute ${last.minute}: ` +
      `growth **${fmt(growth * 100)}%** after minute ${baseline.minute} (limit 10%).`,
      `- The server's metrics: ${served} requests counted (${served5xx} with a 5xx code), ${jobs} provisioner jobs timed, ${queries} database statements timed.`,
      `- Operations by kind: ${
        Object.entries({ ...probe.byKind }).map(([k]) => `${k} ${soak.byKind[k] ?? 0}`).join(", ")
      }.`,
      `- **${pass ? "PASS" : "FAIL"}** (0 errors and RSS growth under 10%).`,
      ...(soak.firstErrors.length > 0 ? ["", "First errors:", "", ...soak.firstErrors.map((e) => `- ${e}`)] : []),
      "",
      "| minute | RSS MB | requests | errors | p50 ms | p99 ms | operations not started (total) |",
      "|---:|---:|---:|---:|---:|---:|---:|",
      ...samples.map((s) =>
        `| ${s.minute} | ${fmt(s.rssMb)} | ${s.ops} | ${s.errors} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${s.late} |`
      ),
      ""
    ].join("\n")
    writeReport(report, opts["database-url"] ? "soak-postgres.md" : "soak.md", { write: !opts["no-write"], log })
    process.exitCode = pass ? 0 : 1
  } finally {
    await work.cleanup()
  }
}

await main()
