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
//    settings (warm-up, then the measured run), with each server process's CPU
//    time per request over the measured run, and reads the RSS after load.
// 5. List scaling: GET /api/v2/users?limit=50 with 100 users and again with
//    100,000 users (rows inserted straight into SQLite in one transaction).
// 6. Prints the results and writes them to bench/results/latest.md.
//
// Options: --duration 10 --warmup 2 --connections 50 --rounds 2
//          --list-duration 5 --list-connections 10 --list-users 100000 --restarts 3
//          --only me|list|startup --skip-build --no-write
//          --profile              CPU profiles of the Workbay process and the baseline's over their first
//                                 measured GET /users/me load: their top frames (source-mapped to the
//                                 sources) in the report, the profiles in /tmp/{workbay,baseline}-me.cpuprofile
//          --extra <bundle.mjs>   also load another build of the server (A/B), on a copy of the same data (repeatable)
//          --startup-extra <main.mjs>  also start another build (an older commit's packages/server/dist/main.mjs)
//                                 on a database it seeds itself, its restarts taking turns with Workbay's (repeatable)
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time.
import Database from "better-sqlite3"
import { randomUUID } from "node:crypto"
import { loadavg } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import {
  benchWork,
  buildBundle,
  cpuMs,
  fmt,
  freePort,
  keepCounts,
  load,
  logger,
  machineLine,
  queryPlan,
  request,
  root,
  rssMb,
  seedFirstUser,
  sequential,
  sleep,
  timeStatement,
  userInserter,
  vacuumInto,
  warmThenLoad,
  writeReport
} from "./lib.mjs"
import { startProfile } from "./profile.mjs"

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
    "startup-extra": { type: "string", multiple: true },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    profile: { type: "boolean", default: false }
  }
})
const duration = Number(opts.duration)
const warmup = Number(opts.warmup)
const connections = Number(opts.connections)
const rounds = Number(opts.rounds)
if (opts.only !== undefined && !["me", "list", "startup"].includes(opts.only)) {
  throw new Error("--only takes me, list or startup")
}
const doMe = opts.only === undefined || opts.only === "me"
const doList = opts.only === undefined || opts.only === "list"

const log = logger("bench")
const load0 = loadavg()
const startedAt = new Date()

if (!opts["skip-build"]) buildBundle(log)

const { work, cleanup, spawn, stop: stopChild, workbayDir } = benchWork("workbay-bench-")

const results = { me: undefined, list: undefined, startup: undefined }

try {
  // --- start-up and seeding --------------------------------------------------
  const workbay = await workbayDir("workbay")
  const { dbFile, base } = workbay

  let wb = await workbay.start()
  const cold = { startupMs: wb.startupMs, readyInMs: wb.readyInMs }
  log(`cold start (empty data dir): ${fmt(cold.startupMs, 0)} ms to first 200, "ready in ${cold.readyInMs} ms"`)

  const { orgId, auth } = await seedFirstUser(base, { name: "Bench User" })

  // Other builds side by side (--startup-extra): each seeded through its own API, in a folder of its own
  // (an older build may not open a database migrated by this one).
  await stopChild(wb.child)
  const others = []
  for (const [i, entry] of (opts["startup-extra"] ?? []).entries()) {
    const dir = await workbayDir(`startup-extra-${i}`, entry)
    const first = await dir.start()
    await seedFirstUser(dir.base, { name: "Bench User" })
    await stopChild(first.child)
    others.push({ entry, dir, warm: [], rssIdle: NaN })
  }
  const medianOf = (runs) => [...runs].sort((a, b) => a.startupMs - b.startupMs)[Math.floor(runs.length / 2)]

  // Restarts on the seeded database: the figure that matters for a deployment. With other builds,
  // each restart of Workbay is followed by one of each of them, so that all see the same moments.
  const warm = []
  for (let i = 0; i < Number(opts.restarts); i++) {
    if (i > 0) await stopChild(wb.child)
    wb = await workbay.start()
    warm.push({ startupMs: wb.startupMs, readyInMs: wb.readyInMs })
    for (const other of others) {
      const started = await other.dir.start()
      other.warm.push({ startupMs: started.startupMs, readyInMs: started.readyInMs })
      if (i === Number(opts.restarts) - 1) {
        await sleep(1000)
        other.rssIdle = rssMb(started.child.pid)
      }
      await stopChild(started.child)
    }
  }
  if (others.length > 0) {
    await stopChild(wb.child)
    wb = await workbay.start()
  }
  const warmMedian = medianOf(warm) ?? cold
  log(`restarts: ${warm.map((w) => `${fmt(w.startupMs, 0)} ms (ready in ${w.readyInMs} ms)`).join(", ")}`)
  await sleep(1000)
  const rssIdle = rssMb(wb.child.pid)
  log(`idle RSS after start: ${fmt(rssIdle)} MB`)
  const otherBuilds = others.map((o) => ({
    entry: o.entry,
    warm: o.warm,
    warmMedian: medianOf(o.warm),
    rssIdle: o.rssIdle
  }))
  for (const o of otherBuilds) {
    log(
      `${o.entry}: restarts ${o.warm.map((w) => `${fmt(w.startupMs, 0)} ms`).join(", ")}; idle RSS ${fmt(o.rssIdle)} MB`
    )
  }

  // The same measure for the bare baseline, as a reference for this machine at this moment.
  // The server holds its SQLite file alone (--sqlite-locking exclusive, the default): copy it while stopped.
  const baselineDb = join(work, "baseline.db")
  await stopChild(wb.child)
  vacuumInto(dbFile, baselineDb)
  wb = await workbay.start()
  const bport = await freePort()
  const baselineInspect = opts.profile ? await freePort() : undefined
  const startBaseline = () =>
    spawn(
      [
        ...(baselineInspect === undefined ? [] : [`--inspect-port=${baselineInspect}`]),
        join(root, "bench/baseline.mjs"),
        "--db",
        baselineDb,
        "--port",
        String(bport)
      ],
      `http://127.0.0.1:${bport}/api/v2/buildinfo`
    )
  const baselineStarts = []
  for (let i = 0; i < Number(opts.restarts); i++) {
    const b = await startBaseline()
    baselineStarts.push(b.startupMs)
    await stopChild(b.child)
  }
  baselineStarts.sort((a, b) => a - b)
  const baselineStartMs = baselineStarts[Math.floor(baselineStarts.length / 2)]
  log(`baseline start-up (reference): ${baselineStarts.map((t) => `${fmt(t, 0)} ms`).join(", ")}`)
  results.startup = { cold, warm, warmMedian, rssIdle, baselineStartMs, otherBuilds }

  const me = await request(`${base}/users/me`, { headers: auth })
  if (me.status !== 200) throw new Error(`GET /users/me answered ${me.status}: ${JSON.stringify(me.body)}`)

  // --- GET /users/me against the baseline ------------------------------------
  if (doMe) {
    const inspectPort = opts.profile ? await freePort() : undefined
    if (inspectPort !== undefined) {
      await stopChild(wb.child)
      wb = await workbay.start({ nodeArgs: [`--inspect-port=${inspectPort}`] })
    }
    let profile
    const baseline = await startBaseline()
    const bme = await request(`http://127.0.0.1:${bport}/api/v2/users/me`, { headers: auth })
    if (bme.status !== 200) throw new Error(`baseline GET /users/me answered ${bme.status}`)
    const same = JSON.stringify(Object.keys(bme.body).sort()) === JSON.stringify(Object.keys(me.body).sort()) &&
      bme.body.id === me.body.id &&
      JSON.stringify(bme.body.organization_ids) === JSON.stringify(me.body.organization_ids)
    if (!same) {
      log(
        "WARNING: the baseline's /users/me differs from Workbay's:",
        JSON.stringify(bme.body),
        JSON.stringify(me.body)
      )
    }
    const bodyBytes = { baseline: JSON.stringify(bme.body).length, workbay: JSON.stringify(me.body).length }

    const targets = [
      {
        name: "baseline (node:http + better-sqlite3)",
        url: `http://127.0.0.1:${bport}/api/v2/users/me`,
        pid: () => baseline.child.pid
      },
      { name: "workbay (bundled server, SQLite)", url: `${base}/users/me`, pid: () => wb.child.pid }
    ]
    const extras = []
    for (const [i, entry] of (opts.extra ?? []).entries()) {
      const extra = await workbayDir(`extra-${i}`, entry)
      await stopChild(wb.child)
      vacuumInto(dbFile, extra.dbFile)
      wb = await workbay.start()
      const started = await extra.start()
      extras.push(started)
      targets.push({ name: `extra: ${entry}`, url: `${extra.base}/users/me`, pid: () => started.child.pid })
    }
    const runs = targets.map(() => [])
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        log(
          `round ${r + 1}/${rounds}: ${t.name}: warm-up ${warmup} s, then ${duration} s at ${connections} connections`
        )
        if (warmup > 0) await load(t.url, { connections, duration: warmup, headers: auth })
        // The server process's CPU time over the measured load, per request: steadier than req/s
        // when other work shares the cores (autocannon runs in this process, not the server's).
        const profiling = inspectPort === undefined || r !== 0
          ? undefined
          : t.pid() === wb.child.pid
          ? await startProfile(wb.child.pid, inspectPort)
          : t.pid() === baseline.child.pid
          ? await startProfile(baseline.child.pid, baselineInspect)
          : undefined
        const cpu0 = cpuMs(t.pid())
        const res = await load(t.url, { connections, duration, headers: auth })
        const cpu1 = cpuMs(t.pid())
        if (profiling !== undefined) {
          const which = t.pid() === wb.child.pid ? "workbay" : "baseline"
          profile = {
            ...profile,
            [which]: await profiling.stop(`/tmp/${which === "workbay" ? "workbay-me" : "baseline-me"}.cpuprofile`)
          }
        }
        res.cpuUs = cpu0 === undefined || cpu1 === undefined ? undefined : ((cpu1 - cpu0) * 1000) / res.total
        log(
          `  ${fmt(res.rps, 0)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, CPU ${
            fmt(res.cpuUs, 0)
          } us/request, non-2xx ${res.non2xx}, errors ${res.errors}`
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
    results.me = { targets, runs, best, rssAfterLoad, baselineRss, bodyBytes, profile }
  }

  // --- list scaling ------------------------------------------------------------
  if (doList) {
    const listUrl = `${base}/users?limit=50`
    const listConnections = Number(opts["list-connections"])
    const listDuration = Number(opts["list-duration"])
    // The server holds its SQLite file alone (--sqlite-locking exclusive, the default): rows are
    // seeded and the statements timed while it is stopped, then it starts again on the file.
    let db
    let insertUser
    const openDb = () => {
      db = new Database(dbFile)
      db.pragma("busy_timeout = 5000")
      insertUser = userInserter(db)
    }
    let seeded = 0
    const seedUpTo = (total) => {
      const t = performance.now()
      const count = db.prepare("SELECT count(*) AS n FROM users").get().n
      db.transaction(() => {
        const at = new Date().toISOString()
        for (let i = count; i < total; i++) {
          const id = randomUUID()
          const n = String(++seeded).padStart(6, "0")
          insertUser(orgId, id, `user${n}`, `User ${n}`, at)
        }
        keepCounts(db, orgId)
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
      // The endpoint's count is kept (migration 0003): one row read, whatever the size.
      const count = db.prepare("SELECT name, value FROM counters WHERE name IN ('users', 'users_active')")
      return {
        pageMs: timeStatement(page, 50),
        countMs: timeStatement(count, 20),
        pagePlan: queryPlan(db, page.source),
        countPlan: queryPlan(db, count.source)
      }
    }
    const listRuns = []
    for (const total of [100, Number(opts["list-users"])]) {
      await stopChild(wb.child)
      openDb()
      seedUpTo(total)
      const sql = sqlTimes()
      db.close()
      wb = await workbay.start()
      const check = await request(listUrl, { headers: auth })
      if (check.status !== 200 || check.body.count !== total) {
        throw new Error(`GET /users answered ${check.status}, count ${check.body.count}, expected ${total}`)
      }
      const seq = await sequential(listUrl, auth, 200)
      log(`${total} users: warm-up ${warmup} s, then ${listDuration} s at ${listConnections} connections`)
      const res = await warmThenLoad(listUrl, {
        connections: listConnections,
        warmup,
        duration: listDuration,
        headers: auth
      })
      log(
        `  ${fmt(res.rps, 0)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms; one request alone: ${
          fmt(seq.median, 2)
        } ms;` +
          ` SQL page ${fmt(sql.pageMs, 3)} ms, count ${fmt(sql.countMs, 3)} ms`
      )
      listRuns.push({ total, res, seq, sql })
    }
    results.list = { runs: listRuns, connections: listConnections, duration: listDuration }
  }
  await stopChild(wb.child)
} finally {
  await cleanup()
}

// --- report --------------------------------------------------------------------
const lines = []
lines.push("# Workbay benchmark: latest results", "")
lines.push(
  machineLine(startedAt, load0),
  "",
  "Load tool: autocannon, in the bench process, to 127.0.0.1. Other work on the machine shows in the load average;",
  "numbers on a busy 2-core machine are noisy, compare the ratio rather than absolute figures.",
  ""
)
if (results.me) {
  const { targets, best, runs, rssAfterLoad, baselineRss, profile } = results.me
  const b = best[0]
  lines.push(
    `## Authenticated GET /api/v2/users/me (${connections} connections, ${warmup} s warm-up, ${duration} s measured, ` +
      `${rounds} round${rounds > 1 ? "s, best shown" : ""})`,
    "",
    "| server | req/s | p50 ms | p99 ms | max ms | ratio vs baseline | server CPU us/request |",
    "|---|---:|---:|---:|---:|---:|---:|"
  )
  for (const [i, t] of targets.entries()) {
    const r = best[i]
    lines.push(
      `| ${t.name} | ${fmt(r.rps, 0)} | ${r.p50} | ${r.p99} | ${r.max} | ${fmt(r.rps / b.rps, 2)}x | ${
        fmt(r.cpuUs, 0)
      } |`
    )
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
        ". Server CPU per request (us, user + system over the measured load): " +
        targets.map((t, i) => `${t.name.split(" ")[0]} ${runs[i].map((r) => fmt(r.cpuUs, 0)).join(", ")}`).join("; ") +
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
  if (profile !== undefined) {
    lines.push(
      "### CPU profiles over the first measured load (--profile)",
      "",
      "The Workbay process:",
      "",
      profile.workbay ?? "(none)",
      "",
      "The baseline's process:",
      "",
      profile.baseline ?? "(none)",
      ""
    )
  }
}
if (results.startup) {
  const { cold, warm, warmMedian, rssIdle, baselineStartMs, otherBuilds } = results.startup
  lines.push(
    "## Workbay process (bundled server, packages/server/dist/main.mjs)",
    "",
    "| measure | value |",
    "|---|---:|",
    `| start-up, fresh data dir (spawn → first 200 from /buildinfo) | ${
      fmt(cold.startupMs, 0)
    } ms (ready in ${cold.readyInMs} ms) |`,
    `| start-up, restart on the seeded database, median of ${warm.length} | ${
      fmt(warmMedian.startupMs, 0)
    } ms (ready in ${warmMedian.readyInMs} ms) |`,
    `| idle RSS, 1 s after start | ${fmt(rssIdle)} MB |`,
    `| reference: the bare baseline's start-up, same measure, median of ${warm.length} | ${
      fmt(baselineStartMs, 0)
    } ms |`,
    ...otherBuilds.flatMap((o) => [
      `| other build ${o.entry}: restart, median of ${o.warm.length} (taking turns with Workbay's) | ${
        fmt(o.warmMedian.startupMs, 0)
      } ms (ready in ${o.warmMedian.readyInMs} ms) |`,
      `| other build ${o.entry}: idle RSS, 1 s after start | ${fmt(o.rssIdle)} MB |`
    ]),
    ""
  )
}
if (results.list) {
  const { runs, connections: lc, duration: ld } = results.list
  lines.push(
    `## List scaling: GET /api/v2/users?limit=50 (${lc} connections, ${ld} s; "alone" = median of 200 sequential requests)`,
    "",
    "| users | req/s | p50 ms | p99 ms | one request alone ms | SQL: page of 50 ms | SQL: count ms |",
    "|---:|---:|---:|---:|---:|---:|---:|"
  )
  for (const r of runs) {
    lines.push(
      `| ${r.total.toLocaleString("en-US")} | ${fmt(r.res.rps, 0)} | ${r.res.p50} | ${r.res.p99} | ${
        fmt(r.seq.median, 2)
      } | ` +
        `${fmt(r.sql.pageMs, 3)} | ${fmt(r.sql.countMs, 3)} |`
    )
  }
  const [small, big] = runs
  if (small && big) {
    lines.push(
      "",
      `Ratio ${big.total.toLocaleString("en-US")} vs ${small.total} users: throughput ${
        fmt(big.res.rps / small.res.rps, 2)
      }x, ` +
        `single-request latency ${fmt(big.seq.median / small.seq.median, 2)}x.`,
      `Query plans at ${
        big.total.toLocaleString("en-US")
      } users: page \`${big.sql.pagePlan}\`; count \`${big.sql.countPlan}\`.`
    )
  }
  lines.push("")
}
writeReport(lines.join("\n"), "latest.md", { write: !opts["no-write"], log })
