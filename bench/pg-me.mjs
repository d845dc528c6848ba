// GET /api/v2/users/me on Postgres (issue 10, item 4): the bundled server against bare
// node:http + pg servers (bench/pg-baseline.mjs) on the same database, side by side in one run.
//
// 1. Builds the server bundle (unless --skip-build) and creates a fresh database on the server
//    --url names (default postgres://postgres@127.0.0.1:5432/postgres); drops it at the end.
// 2. Starts packages/server/dist/main.mjs --database-url <that database> (defaults otherwise:
//    10 pool connections, 2 provisioner workers), seeds the first user and logs in.
// 3. Starts one baseline per --baselines entry on the same database (see pg-baseline.mjs:
//    `one` runs Workbay's statement, `two` the key join then the memberships, `plain` three
//    queries; `one:prepared` and so on as named statements; `one:prepared:batched` also sent as
//    Workbay sends its reads, batched per turn of the event loop), checks every server answers the same body, then loads each in turn with
//    autocannon (--connections, a --warmup, then --duration seconds), for --rounds rounds.
// 4. Prints each server's best round and the ratio of Workbay's best to each baseline's best,
//    and the CPU time per request of the server process and of the database's backends during
//    the measured loads (from /proc): steadier than req/s on a shared machine.
//
//   node bench/pg-me.mjs [--duration 5 --warmup 2 --connections 50 --rounds 2]
//                        [--baselines one,plain,one:prepared] [--extra other/main.mjs] [--skip-build]
// Load goes to 127.0.0.1 only; every run is bounded in time. Nothing is written.
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import pg from "pg"
import {
  benchWork,
  buildBundle,
  bundle,
  fmt,
  freePort,
  load,
  logger,
  machineLine,
  request,
  root,
  rssMb,
  seedFirstUser
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    url: { type: "string", default: process.env.WORKBAY_BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "2" },
    baselines: { type: "string", default: "one,one:prepared,plain" },
    extra: { type: "string", multiple: true },
    "skip-build": { type: "boolean", default: false }
  }
})
const duration = Number(opts.duration)
const warmup = Number(opts.warmup)
const connections = Number(opts.connections)
const rounds = Number(opts.rounds)
const baselineModes = opts.baselines.split(",").filter((s) => s !== "")

const log = logger("pg-me")
const load0 = loadavg()
const startedAt = new Date()

if (!opts["skip-build"]) buildBundle(log)

const admin = async (fn) => {
  const client = new pg.Client({ connectionString: opts.url, connectionTimeoutMillis: 5_000 })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

const database = `workbay_bench_${randomBytes(5).toString("hex")}`
await admin((c) => c.query(`CREATE DATABASE "${database}"`))
const dbUrl = new URL(opts.url)
dbUrl.pathname = `/${database}`
log(`database ${database}`)

const { cleanup, spawn } = benchWork("workbay-pg-me-")

/** CPU time (user + system, ms) a process has used, from /proc (0 when it is gone or off Linux); 100 ticks a second. */
const cpuMs = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

/** CPU ms of each Postgres backend connected to the bench database (the server runs on this machine). */
const monitor = new pg.Client({ connectionString: opts.url })
await monitor.connect()
const backendsCpu = async () => {
  const { rows } = await monitor.query("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database])
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]))
}
const cpuDelta = (before, after) => [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0)

/** A bundled Workbay server on the bench database. */
const startWorkbay = async (entry) => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}/api/v2`
  const s = await spawn(
    [
      entry,
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--database-url",
      dbUrl.toString(),
      "--log-level",
      "warning"
    ],
    `${base}/buildinfo`,
    { env: { ...process.env, DATABASE_URL: "" } }
  )
  return { ...s, base }
}

const startBaseline = async (mode) => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}/api/v2`
  const [queries, ...flags] = mode.split(":")
  const s = await spawn(
    [
      join(root, "bench/pg-baseline.mjs"),
      "--url",
      dbUrl.toString(),
      "--port",
      String(port),
      "--queries",
      queries,
      ...(flags.includes("prepared") ? ["--prepared"] : []),
      ...(flags.includes("batched") ? ["--batched"] : [])
    ],
    `${base}/buildinfo`
  )
  return { ...s, base }
}

try {
  const workbay = await startWorkbay(bundle)
  const { auth } = await seedFirstUser(workbay.base, { name: "Bench User" })
  const servers = [{ name: "Workbay", ...workbay }]
  for (const [i, entry] of (opts.extra ?? []).entries()) {
    servers.push({ name: `extra ${i + 1}`, ...(await startWorkbay(entry)) })
  }
  for (const mode of baselineModes) {
    servers.push({ name: `bare pg (${mode})`, bare: true, ...(await startBaseline(mode)) })
  }

  // Every server answers the same user before any load.
  const answers = []
  for (const s of servers) {
    const r = await request(`${s.base}/users/me`, { headers: auth })
    if (r.status !== 200) throw new Error(`${s.name}: GET /users/me answered ${r.status}: ${JSON.stringify(r.body)}`)
    answers.push(JSON.stringify(r.body))
  }
  for (const [i, a] of answers.entries()) {
    if (a !== answers[0]) throw new Error(`${servers[i].name} answers differently:\n${a}\n${answers[0]}`)
  }
  log(`all ${servers.length} servers answer the same user`)

  const runs = new Map(servers.map((s) => [s.name, []]))
  for (let round = 1; round <= rounds; round++) {
    for (const s of servers) {
      const url = `${s.base}/users/me`
      if (warmup > 0) await load(url, { connections, duration: warmup, headers: auth })
      const [server0, db0] = [cpuMs(s.child.pid), await backendsCpu()]
      const r = await load(url, { connections, duration, headers: auth })
      const [server1, db1] = [cpuMs(s.child.pid), await backendsCpu()]
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${s.name}: ${r.non2xx} non-2xx, ${r.errors} errors`)
      r.serverUs = ((server1 - server0) * 1000) / r.total
      r.dbUs = (cpuDelta(db0, db1) * 1000) / r.total
      runs.get(s.name).push(r)
      log(
        `round ${round} ${s.name}: ${fmt(r.rps, 0)} req/s, p99 ${r.p99} ms, cpu us/req ${fmt(r.serverUs, 0)} + db ${
          fmt(r.dbUs, 0)
        }`
      )
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const best = (name) => runs.get(name).reduce((a, b) => (b.rps > a.rps ? b : a))
  const lines = [
    `GET /api/v2/users/me on Postgres, ${connections} connections, ${warmup} s warm-up + ${duration} s, best of ${rounds}`,
    machineLine(startedAt, load0),
    "",
    "| server | req/s (each round) | p50 / p99 ms | CPU us/req: server + db (median round) | RSS MB |",
    "|---|---|---|---|---|"
  ]
  for (const s of servers) {
    const b = best(s.name)
    lines.push(
      `| ${s.name} | ${fmt(b.rps, 0)} (${
        runs.get(s.name).map((r) => fmt(r.rps, 0)).join(", ")
      }) | ${b.p50} / ${b.p99} | ` +
        `${fmt(median(runs.get(s.name).map((r) => r.serverUs)), 0)} + ${
          fmt(median(runs.get(s.name).map((r) => r.dbUs)), 0)
        } | ` +
        `${fmt(rssMb(s.child.pid), 0)} |`
    )
  }
  lines.push("")
  for (const s of servers.filter((x) => !x.bare)) {
    for (const b of servers.filter((x) => x.bare)) {
      const pairs = runs.get(s.name).map((r, i) => fmt(r.rps / runs.get(b.name)[i].rps, 2)).join(", ")
      lines.push(`${s.name} / ${b.name}: ${fmt(best(s.name).rps / best(b.name).rps, 2)} (rounds: ${pairs})`)
    }
  }
  console.log(lines.join("\n"))
} finally {
  await monitor.end()
  await cleanup()
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`))
}
