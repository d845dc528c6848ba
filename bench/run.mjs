// Workbay benchmark (npm run bench). Not a test: it measures and reports.
//
// 1. Builds the server bundle (node scripts/build.mjs).
// 2. Start-up: spawns the bundled server on a fresh data dir (migrations run),
//    then restarts it on the seeded database; each time from spawn to the first
//    200 from GET /api/v2/buildinfo, plus the server's own "ready in" figure.
// 3. Seeds through the real API (first user, login) and reads the idle RSS.
// 4. Starts the bare baseline (bench/baseline.mjs: node:http + better-sqlite3)
//    on a copy of the same database, checks both answer GET /api/v2/users/me
//    with the same user, then loads each in turn with identical autocannon
//    settings (warm-up, then the measured run) and reads the RSS after load.
// 5. List scaling: GET /api/v2/users?limit=50 with 100 users and again with
//    100,000 users (rows inserted straight into SQLite in one transaction).
// 6. Prints the results and writes them to bench/results/latest.md.
//
// Options: --duration 10 --warmup 2 --connections 50 --rounds 2
//          --list-duration 5 --list-connections 10 --list-users 100000 --restarts 3
//          --only me|list|startup --skip-build --no-write
//          --extra <bundle.mjs>   also load another build of the server (A/B), on a copy of the same data (repeatable)
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time.
import Database from "better-sqlite3"
import { execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { fmt, freePort, load, request, rssMb, sequential, sleep, spawnServer, stop } from "./lib.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "2" },
    restarts: { type: "string", default: "3" },
    "list-duration": { type: "string", default: "5" },
    "list-connections": { type: "string", default: "10" },
    "list-users": { type: "string", default: "100000" },
    only: { type: "string" },
    extra: { type: "string", multiple: true },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false }
  }
})
const duration = Number(opts.duration)
const warmup = Number(opts.warmup)
const connections = Number(opts.connections)
const rounds = Number(opts.rounds)
if (opts.only !== undefined && !["me", "list", "startup"].includes(opts.only))
  throw new Error("--only takes me, list or startup")
const doMe = opts.only === undefined || opts.only === "me"
const doList = opts.only === undefined || opts.only === "list"

const EMAIL = "bench@example.com"
const PASSWORD = "Bench-Password-2024!x"
const SESSION_HEADER = "Service-Session-Token"
const bundle = join(root, "packages/server/dist/main.mjs")

const log = (...args) => console.error("[bench]", ...args)
const load0 = loadavg()
const startedAt = new Date()

if (!opts["skip-build"]) {
  log("building the server bundle")
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" })
}

const work = mkdtempSync(join(tmpdir(), "workbay-bench-"))
const children = new Set()
const cleanup = async () => {
  for (const c of children) await stop(c)
  rmSync(work, { recursive: true, force: true })
}
process.once("SIGINT", () => cleanup().then(() => process.exit(130)))

const startWorkbay = async (dataDir, port, entry = bundle) => {
  const s = await spawnServer(
    [entry, "--port", String(port), "--host", "127.0.0.1", "--data-dir", dataDir, "--log-level", "warning"],
    `http://127.0.0.1:${port}/api/v2/buildinfo`,
    { env: { ...process.env, DATABASE_URL: "" } }
  )
  children.add(s.child)
  const m = /ready in (\d+) ms/.exec(s.output())
  return { ...s, readyInMs: m ? Number(m[1]) : undefined }
}
const stopChild = async (child) => {
  await stop(child)
  children.delete(child)
}

const results = { me: undefined, list: undefined, startup: undefined }

try {
  // --- start-up and seeding --------------------------------------------------
  const dataDir = join(work, "workbay")
  mkdirSync(dataDir)
  const dbFile = join(dataDir, "workbay.db")
  const port = await freePort()
  const base = `http://127.0.0.1:${port}/api/v2`

  let wb = await startWorkbay(dataDir, port)
  const cold = { startupMs: wb.startupMs, readyInMs: wb.readyInMs }
  log(`cold start (empty data dir): ${fmt(cold.startupMs, 0)} ms to first 200, "ready in ${cold.readyInMs} ms"`)

  const first = await request(`${base}/users/first`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, username: "bench", name: "Bench User", password: PASSWORD })
  })
  if (first.status !== 201) throw new Error(`POST /users/first answered ${first.status}: ${JSON.stringify(first.body)}`)
  const orgId = first.body.organization_id
  const login = await request(`${base}/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD })
  })
  if (login.status !== 201) throw new Error(`POST /users/login answered ${login.status}: ${JSON.stringify(login.body)}`)
  const token = login.body.session_token
  const auth = { [SESSION_HEADER]: token }

  // Restarts on the seeded database: the figure that matters for a deployment.
  const warm = []
  for (let i = 0; i < Number(opts.restarts); i++) {
    await stopChild(wb.child)
    wb = await startWorkbay(dataDir, port)
    warm.push({ startupMs: wb.startupMs, readyInMs: wb.readyInMs })
  }
  const warmSorted = [...warm].sort((a, b) => a.startupMs - b.startupMs)
  const warmMedian = warmSorted[Math.floor(warmSorted.length / 2)] ?? cold
  log(`restarts: ${warm.map((w) => `${fmt(w.startupMs, 0)} ms (ready in ${w.readyInMs} ms)`).join(", ")}`)
  await sleep(1000)
  const rssIdle = rssMb(wb.child.pid)
  log(`idle RSS after start: ${fmt(rssIdle)} MB`)

  // The same measure for the bare baseline, as a reference for this machine at this moment.
  const baselineDb = join(work, "baseline.db")
  const src = new Database(dbFile, { readonly: true })
  src.exec(`VACUUM INTO '${baselineDb.replaceAll("'", "''")}'`)
  src.close()
  const bport = await freePort()
  const startBaseline = async () => {
    const b = await spawnServer(
      [join(root, "bench/baseline.mjs"), "--db", baselineDb, "--port", String(bport)],
      `http://127.0.0.1:${bport}/api/v2/buildinfo`
    )
    children.add(b.child)
    return b
  }
  const baselineStarts = []
  for (let i = 0; i < Number(opts.restarts); i++) {
    const b = await startBaseline()
    baselineStarts.push(b.startupMs)
    await stopChild(b.child)
  }
  baselineStarts.sort((a, b) => a - b)
  const baselineStartMs = baselineStarts[Math.floor(baselineStarts.length / 2)]
  log(`baseline start-up (reference): ${baselineStarts.map((t) => `${fmt(t, 0)} ms`).join(", ")}`)
  results.startup = { cold, warm, warmMedian, rssIdle, baselineStartMs }

  const me = await request(`${base}/users/me`, { headers: auth })
  if (me.status !== 200) throw new Error(`GET /users/me answered ${me.status}: ${JSON.stringify(me.body)}`)

  // --- GET /users/me against the baseline ------------------------------------
  if (doMe) {
    const baseline = await startBaseline()
    const bme = await request(`http://127.0.0.1:${bport}/api/v2/users/me`, { headers: auth })
    if (bme.status !== 200) throw new Error(`baseline GET /users/me answered ${bme.status}`)
    const same =
      JSON.stringify(Object.keys(bme.body).sort()) === JSON.stringify(Object.keys(me.body).sort()) &&
      bme.body.id === me.body.id &&
      JSON.stringify(bme.body.organization_ids) === JSON.stringify(me.body.organization_ids)
    if (!same)
      log(
        "WARNING: the baseline's /users/me differs from Workbay's:",
        JSON.stringify(bme.body),
        JSON.stringify(me.body)
      )
    const bodyBytes = { baseline: JSON.stringify(bme.body).length, workbay: JSON.stringify(me.body).length }

    const targets = [
      { name: "baseline (node:http + better-sqlite3)", url: `http://127.0.0.1:${bport}/api/v2/users/me` },
      { name: "workbay (bundled server, SQLite)", url: `${base}/users/me` }
    ]
    const extras = []
    for (const [i, entry] of (opts.extra ?? []).entries()) {
      const extraDir = join(work, `extra-${i}`)
      mkdirSync(extraDir)
      const copy = new Database(dbFile, { readonly: true })
      copy.exec(`VACUUM INTO '${join(extraDir, "workbay.db").replaceAll("'", "''")}'`)
      copy.close()
      const eport = await freePort()
      extras.push(await startWorkbay(extraDir, eport, entry))
      targets.push({ name: `extra: ${entry}`, url: `http://127.0.0.1:${eport}/api/v2/users/me` })
    }
    const runs = targets.map(() => [])
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        log(
          `round ${r + 1}/${rounds}: ${t.name}: warm-up ${warmup} s, then ${duration} s at ${connections} connections`
        )
        if (warmup > 0) await load(t.url, { connections, duration: warmup, headers: auth })
        const res = await load(t.url, { connections, duration, headers: auth })
        log(
          `  ${fmt(res.rps, 0)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, non-2xx ${res.non2xx}, errors ${res.errors}`
        )
        runs[i].push(res)
      }
    }
    await sleep(2000)
    const rssAfterLoad = rssMb(wb.child.pid)
    const baselineRss = rssMb(baseline.child.pid)
    log(`Workbay RSS 2 s after load: ${fmt(rssAfterLoad)} MB (baseline ${fmt(baselineRss)} MB)`)
    await stopChild(baseline.child)
    for (const e of extras) await stopChild(e.child)
    const best = runs.map((rs) => rs.reduce((a, b) => (b.rps > a.rps ? b : a)))
    results.me = { targets, runs, best, rssAfterLoad, baselineRss, bodyBytes }
  }

  // --- list scaling ------------------------------------------------------------
  if (doList) {
    const listUrl = `${base}/users?limit=50`
    const listConnections = Number(opts["list-connections"])
    const listDuration = Number(opts["list-duration"])
    const db = new Database(dbFile)
    db.pragma("busy_timeout = 5000")
    const insertUser = db.prepare(
      `INSERT INTO users (id, email, username, name, avatar_url, login_type, status, rbac_roles, is_service_account,
        hashed_password, created_at, updated_at, last_seen_at, deleted, appearance, quiet_hours_schedule)
       VALUES (?, ?, ?, ?, '', 'password', 'active', '[]', 0, NULL, ?, ?, ?, 0, '{}', '')`
    )
    const insertMember = db.prepare(
      "INSERT INTO organization_members (organization_id, user_id, roles, created_at, updated_at) VALUES (?, ?, '[]', ?, ?)"
    )
    let seeded = 0
    const seedUpTo = (total) => {
      const t = performance.now()
      const count = db.prepare("SELECT count(*) AS n FROM users").get().n
      db.transaction(() => {
        const at = new Date().toISOString()
        for (let i = count; i < total; i++) {
          const id = randomUUID()
          const n = String(++seeded).padStart(6, "0")
          insertUser.run(id, `user${n}@example.com`, `user${n}`, `User ${n}`, at, at, at)
          insertMember.run(orgId, id, at, at)
        }
      })()
      // No ANALYZE: the server never runs it, and statistics taken at 100 rows would leave the
      // server's connection with plans made for 100 rows (a full scan for the memberships lookup).
      // Fold the WAL back into the database, as SQLite does by itself over time.
      db.pragma("wal_checkpoint(TRUNCATE)")
      log(`seeded up to ${total} users in ${fmt(performance.now() - t, 0)} ms`)
    }
    /** Time of the two SQL statements of the list endpoint, run straight on better-sqlite3. */
    const sqlTimes = () => {
      const page = db.prepare("SELECT * FROM users WHERE deleted = FALSE ORDER BY lower(username) LIMIT 50 OFFSET 0")
      const count = db.prepare("SELECT count(*) AS n FROM users WHERE deleted = FALSE")
      const time = (stmt, n) => {
        stmt.all()
        const t = performance.now()
        for (let i = 0; i < n; i++) stmt.all()
        return (performance.now() - t) / n
      }
      return {
        pageMs: time(page, 50),
        countMs: time(count, 20),
        pagePlan: db
          .prepare(`EXPLAIN QUERY PLAN ${page.source}`)
          .all()
          .map((r) => r.detail)
          .join("; "),
        countPlan: db
          .prepare(`EXPLAIN QUERY PLAN ${count.source}`)
          .all()
          .map((r) => r.detail)
          .join("; ")
      }
    }
    const listRuns = []
    for (const total of [100, Number(opts["list-users"])]) {
      seedUpTo(total)
      const check = await request(listUrl, { headers: auth })
      if (check.status !== 200 || check.body.count !== total) {
        throw new Error(`GET /users answered ${check.status}, count ${check.body.count}, expected ${total}`)
      }
      const seq = await sequential(listUrl, auth, 200)
      log(`${total} users: warm-up ${warmup} s, then ${listDuration} s at ${listConnections} connections`)
      if (warmup > 0) await load(listUrl, { connections: listConnections, duration: warmup, headers: auth })
      const res = await load(listUrl, { connections: listConnections, duration: listDuration, headers: auth })
      const sql = sqlTimes()
      log(
        `  ${fmt(res.rps, 0)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms; one request alone: ${fmt(seq.median, 2)} ms;` +
          ` SQL page ${fmt(sql.pageMs, 3)} ms, count(*) ${fmt(sql.countMs, 3)} ms`
      )
      listRuns.push({ total, res, seq, sql })
    }
    db.close()
    results.list = { runs: listRuns, connections: listConnections, duration: listDuration }
  }
  await stopChild(wb.child)
} finally {
  await cleanup()
}

// --- report --------------------------------------------------------------------
const load1 = loadavg()
const lines = []
const cpu = cpus()
lines.push("# Workbay benchmark: latest results", "")
lines.push(
  `${startedAt.toISOString()} · Node ${process.version} · ${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"} · ` +
    `load average ${load0.map((l) => l.toFixed(2)).join("/")} before, ${load1.map((l) => l.toFixed(2)).join("/")} after`,
  "",
  "Load tool: autocannon, in the bench process, to 127.0.0.1. Other work on the machine shows in the load average;",
  "numbers on a busy 2-core machine are noisy, compare the ratio rather than absolute figures.",
  ""
)
if (results.me) {
  const { targets, best, runs, rssAfterLoad, baselineRss } = results.me
  const b = best[0]
  lines.push(
    `## Authenticated GET /api/v2/users/me (${connections} connections, ${warmup} s warm-up, ${duration} s measured, ` +
      `${rounds} round${rounds > 1 ? "s, best shown" : ""})`,
    "",
    "| server | req/s | p50 ms | p99 ms | max ms | ratio vs baseline |",
    "|---|---:|---:|---:|---:|---:|"
  )
  for (const [i, t] of targets.entries()) {
    const r = best[i]
    lines.push(`| ${t.name} | ${fmt(r.rps, 0)} | ${r.p50} | ${r.p99} | ${r.max} | ${fmt(r.rps / b.rps, 2)}x |`)
  }
  if (rounds > 1) {
    lines.push(
      "",
      "All rounds (req/s): " +
        targets.map((t, i) => `${t.name.split(" ")[0]} ${runs[i].map((r) => fmt(r.rps, 0)).join(", ")}`).join("; ") +
        ". Ratio to the baseline's run of the same round: " +
        targets
          .slice(1)
          .map(
            (t, i) =>
              `${t.name.split(" ")[0]} ${runs[i + 1].map((r, k) => `${fmt(r.rps / runs[0][k].rps, 2)}x`).join(", ")}`
          )
          .join("; ") +
        "."
    )
  }
  const errs = runs.flat().reduce((n, r) => n + r.errors + r.non2xx, 0)
  if (errs > 0) lines.push("", `**${errs} errors or non-2xx answers during the runs.**`)
  lines.push(
    "",
    `Workbay RSS 2 s after the load: ${fmt(rssAfterLoad)} MB (baseline process: ${fmt(baselineRss)} MB).`,
    ""
  )
}
if (results.startup) {
  const { cold, warm, warmMedian, rssIdle, baselineStartMs } = results.startup
  lines.push(
    "## Workbay process (bundled server, packages/server/dist/main.mjs)",
    "",
    "| measure | value |",
    "|---|---:|",
    `| start-up, fresh data dir (spawn → first 200 from /buildinfo) | ${fmt(cold.startupMs, 0)} ms (ready in ${cold.readyInMs} ms) |`,
    `| start-up, restart on the seeded database, median of ${warm.length} | ${fmt(warmMedian.startupMs, 0)} ms (ready in ${warmMedian.readyInMs} ms) |`,
    `| idle RSS, 1 s after start | ${fmt(rssIdle)} MB |`,
    `| reference: the bare baseline's start-up, same measure, median of ${warm.length} | ${fmt(baselineStartMs, 0)} ms |`,
    ""
  )
}
if (results.list) {
  const { runs, connections: lc, duration: ld } = results.list
  lines.push(
    `## List scaling: GET /api/v2/users?limit=50 (${lc} connections, ${ld} s; "alone" = median of 200 sequential requests)`,
    "",
    "| users | req/s | p50 ms | p99 ms | one request alone ms | SQL: page of 50 ms | SQL: count(*) ms |",
    "|---:|---:|---:|---:|---:|---:|---:|"
  )
  for (const r of runs) {
    lines.push(
      `| ${r.total.toLocaleString("en-US")} | ${fmt(r.res.rps, 0)} | ${r.res.p50} | ${r.res.p99} | ${fmt(r.seq.median, 2)} | ` +
        `${fmt(r.sql.pageMs, 3)} | ${fmt(r.sql.countMs, 3)} |`
    )
  }
  const [small, big] = runs
  if (small && big) {
    lines.push(
      "",
      `Ratio ${big.total.toLocaleString("en-US")} vs ${small.total} users: throughput ${fmt(big.res.rps / small.res.rps, 2)}x, ` +
        `single-request latency ${fmt(big.seq.median / small.seq.median, 2)}x.`,
      `Query plans at ${big.total.toLocaleString("en-US")} users: page \`${big.sql.pagePlan}\`; count \`${big.sql.countPlan}\`.`
    )
  }
  lines.push("")
}
const report = lines.join("\n")
console.log(report)
if (!opts["no-write"]) {
  mkdirSync(join(root, "bench/results"), { recursive: true })
  writeFileSync(join(root, "bench/results/latest.md"), report)
  log("written to bench/results/latest.md")
}
