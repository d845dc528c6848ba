// Helpers shared by the benchmarks: free ports, spawning and waiting for
// servers, reading a process's resident set, and driving autocannon; and the
// steps every bench script takes (build, work folder, the bundled server, the
// first user, copies of its database, the report).
import autocannon from "autocannon"
import Database from "better-sqlite3"
import { zipSync } from "fflate"
import { execFileSync, spawn } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root, and the bundled server every bench loads. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..")
export const bundle = join(root, "packages/server/dist/main.mjs")

/** The first user every bench seeds through the API, and the header its session token goes in. */
export const BENCH_EMAIL = "bench@example.com"
export const BENCH_PASSWORD = "Bench-Password-2024!x"
export const SESSION_HEADER = "Service-Session-Token"

/** `log(...)` to stderr, each line tagged `[tag]`. */
export const logger = (tag) => (...args) => console.error(`[${tag}]`, ...args)

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A port free on 127.0.0.1 right now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status), or undefined off Linux. */
export const rssMb = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m ? Number(m[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

/** A process's CPU time (user + system) in milliseconds, from /proc; undefined where there is none. */
export const cpuMs = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
    // After the command: state is field 3, utime field 14 and stime field 15 (1-based, in clock ticks of 10 ms).
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

/** The machine's CPU time (ms): `busy` (all but idle and I/O wait, over every core) and `total`, from /proc/stat. */
export const machineCpuMs = () => {
  const [, ...f] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/)
  const ticks = f.map(Number)
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0)
  return { busy: (total - ticks[3] - ticks[4]) * 10, total: total * 10 }
}

/** The CPU time (ms) of `pid` and of every live process below it. */
export const treeCpuMs = (pid) => {
  const children = new Map()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // Gone meanwhile.
    }
  }
  const walk = (p) => (cpuMs(p) ?? 0) + (children.get(p) ?? []).reduce((s, c) => s + walk(c), 0)
  return walk(pid)
}

/** One request; resolves to { status, body } (never rejects on HTTP errors). */
export const request = async (url, init = {}) => {
  const res = await fetch(url, init)
  const text = await res.text()
  let body
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: res.status, body }
}

/**
 * Spawns `node args...` and polls `readyUrl` every 5 ms until it answers 200.
 * Resolves with the child, the time from spawn to the first 200 (ms), and the
 * child's stdout so far. Fails after `timeoutMs`.
 */
export const spawnServer = async (args, readyUrl, { env = process.env, timeoutMs = 20_000 } = {}) => {
  const t0 = performance.now()
  // A benchmark sends far more than any client's share of requests as one user: rate limits off
  // (their cost per request, about a microsecond, is in docs/configuration.md).
  const child = spawn(process.execPath, args, {
    env: { WORKBAY_DANGEROUS_DISABLE_RATE_LIMITS: "true", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (d) => (output += d))
  child.stderr.on("data", (d) => (output += d))
  let exited = false
  child.once("exit", () => (exited = true))
  while (true) {
    if (exited) throw new Error(`Server exited before it was ready:\n${output}`)
    if (performance.now() - t0 > timeoutMs) {
      child.kill("SIGKILL")
      throw new Error(`Server not ready after ${timeoutMs} ms:\n${output}`)
    }
    try {
      const res = await fetch(readyUrl)
      await res.arrayBuffer()
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    await sleep(5)
  }
  const startupMs = performance.now() - t0
  // The "ready in" line is printed right after listen; give it a moment to arrive.
  for (let i = 0; i < 50 && !/ready in/.test(output) && args.some((a) => a.includes("main.mjs")); i++) await sleep(10)
  return { child, startupMs, output: () => output }
}

/** Stops a child we spawned (SIGTERM, then SIGKILL after 3 s). */
export const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGTERM")
  })

/**
 * Runs autocannon against a 127.0.0.1 url and returns the figures we report. `requests`
 * (autocannon's: method, path, body, `setupRequest`) varies what each request sends.
 */
export const load = (url, { connections, duration, headers = {}, requests }) => {
  if (!new URL(url).hostname.startsWith("127.")) throw new Error(`Load goes to 127.0.0.1 only, not ${url}`)
  return new Promise((resolve, reject) => {
    const options = {
      url,
      connections,
      duration,
      headers,
      timeout: 10,
      ...(requests === undefined ? {} : { requests })
    }
    autocannon(options, (error, result) => {
      if (error) return reject(error)
      resolve({
        rps: result.requests.average,
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
        total: result.requests.total,
        non2xx: result.non2xx,
        statusCodes: Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])
        ),
        errors: result.errors + result.timeouts
      })
    })
  })
}

/** Latency of `n` sequential requests (ms): median and p99. No concurrency: the cost of one request. */
export const sequential = async (url, headers, n) => {
  const times = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    const res = await fetch(url, { headers })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return { median: times[Math.floor(n / 2)], p99: times[Math.min(n - 1, Math.floor(n * 0.99))] }
}

export const fmt = (n, digits = 1) => (n === undefined || n === null || Number.isNaN(n) ? "n/a" : n.toFixed(digits))

/** Whether the bundle is current (the rule `npm start` uses). */
export { bundleIsCurrent } from "../scripts/bundle.mjs"

/** Builds the server bundle (node scripts/build.mjs), saying so first. */
export const buildBundle = (log, message = "building the server bundle") => {
  log(message)
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" })
}

/**
 * A temporary work folder (under the OS temp folder, named `prefix…`) and the servers a bench
 * spawns. `cleanup()` stops every server still running and removes the folder; Ctrl-C does the same.
 */
export const benchWork = (prefix) => {
  const work = mkdtempSync(join(tmpdir(), prefix))
  const children = new Set()
  const cleanup = async () => {
    for (const c of children) await stop(c)
    rmSync(work, { recursive: true, force: true })
  }
  process.once("SIGINT", () => cleanup().then(() => process.exit(130)))

  /** spawnServer, remembered for cleanup. */
  const spawnTracked = async (args, readyUrl, options) => {
    const s = await spawnServer(args, readyUrl, options)
    children.add(s.child)
    return s
  }
  /** Stops a server spawned here. */
  const stopTracked = async (child) => {
    await stop(child)
    children.delete(child)
  }

  /**
   * A fresh data folder `name` in the work folder and a free port for a bundled server (`entry`);
   * `start()` spawns it there, answering the spawn with the server's own "ready in" figure.
   * `start({ args, nodeArgs, env })` adds server flags, Node flags (before the entry) and variables.
   */
  const workbayDir = async (name, entry = bundle) => {
    const dataDir = join(work, name)
    mkdirSync(dataDir)
    const port = await freePort()
    const base = `http://127.0.0.1:${port}/api/v2`
    const start = async ({ args = [], nodeArgs = [], env = {} } = {}) => {
      const s = await spawnTracked(
        [
          ...nodeArgs,
          entry,
          "--port",
          String(port),
          "--host",
          "127.0.0.1",
          "--data-dir",
          dataDir,
          "--log-level",
          "warning",
          ...args
        ],
        `${base}/buildinfo`,
        { env: { ...process.env, DATABASE_URL: "", ...env } }
      )
      const m = /ready in (\d+) ms/.exec(s.output())
      return { ...s, readyInMs: m ? Number(m[1]) : undefined }
    }
    return { dataDir, dbFile: join(dataDir, "workbay.db"), port, base, start }
  }

  return { work, cleanup, spawn: spawnTracked, stop: stopTracked, workbayDir }
}

/** A JSON POST (see `request`). */
const postJson = (url, body) =>
  request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })

/**
 * Seeds the first user through the API of the server at `base` (POST /users/first, with `name` when
 * given) and logs in as them. Answers their ids and the headers that authenticate as them.
 */
export const seedFirstUser = async (base, { name } = {}) => {
  const first = await postJson(`${base}/users/first`, {
    email: BENCH_EMAIL,
    username: "bench",
    ...(name === undefined ? {} : { name }),
    password: BENCH_PASSWORD
  })
  if (first.status !== 201) throw new Error(`POST /users/first answered ${first.status}: ${JSON.stringify(first.body)}`)
  const login = await postJson(`${base}/users/login`, { email: BENCH_EMAIL, password: BENCH_PASSWORD })
  if (login.status !== 201) throw new Error(`POST /users/login answered ${login.status}: ${JSON.stringify(login.body)}`)
  return {
    userId: first.body.user_id,
    orgId: first.body.organization_id,
    auth: { [SESSION_HEADER]: login.body.session_token }
  }
}

/**
 * Makes a template of the built-in `workbay` provisioner through the API of the server at `base`:
 * uploads `archive` (a zip), creates the version, waits for its import, creates the template
 * `name`. Answers the template.
 */
/**
 * The archive of the smallest template of the built-in `workbay` provisioner: one machine `box`
 * with one agent of each of `agents` (default one, `main`).
 */
export const machineTemplate = (agents = ["main"]) =>
  zipSync({
    "template.yaml": new TextEncoder().encode(
      `resources:\n  - name: box\n    type: machine\n    agents:\n${agents.map((a) => `      - name: ${a}\n`).join("")}`
    )
  })

export const seedTemplate = async (base, auth, orgId, archive, name = "bench") => {
  const json = { ...auth, "content-type": "application/json" }
  const up = await request(`${base}/files`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/zip" },
    body: archive
  })
  if (up.status !== 201 && up.status !== 200) throw new Error(`upload: ${up.status} ${JSON.stringify(up.body)}`)
  const version = await request(`${base}/organizations/${orgId}/templateversions`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ storage_method: "file", file_id: up.body.hash, provisioner: "workbay", tags: {} })
  })
  if (version.status !== 201) throw new Error(`version: ${version.status} ${JSON.stringify(version.body)}`)
  for (let i = 0;; i++) {
    const v = await request(`${base}/templateversions/${version.body.id}`, { headers: auth })
    if (v.body.job.status === "succeeded") break
    if (i > 500) throw new Error(`the import did not finish: ${JSON.stringify(v.body.job)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const template = await request(`${base}/organizations/${orgId}/templates`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name, template_version_id: version.body.id })
  })
  if (template.status !== 201) throw new Error(`template: ${template.status} ${JSON.stringify(template.body)}`)
  return template.body
}

/** Copies the SQLite database `file` to `copy` (VACUUM INTO), for a second server on the same data. */
export const vacuumInto = (file, copy) => {
  const src = new Database(file, { readonly: true })
  src.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`)
  src.close()
}

/**
 * Prepares the insert of a user straight into the SQLite file (the columns the server writes),
 * with their membership of an organization: `insert(orgId, id, username, name, at)`.
 */
export const userInserter = (db) => {
  const insertUser = db.prepare(
    `INSERT INTO users (id, email, username, name, avatar_url, login_type, status, rbac_roles, is_service_account,
      hashed_password, created_at, updated_at, last_seen_at, deleted, appearance, quiet_hours_schedule)
     VALUES (?, ?, ?, ?, '', 'password', 'active', '[]', 0, NULL, ?, ?, ?, 0, '{}', '')`
  )
  const insertMember = db.prepare(
    "INSERT INTO organization_members (organization_id, user_id, roles, created_at, updated_at) VALUES (?, ?, '[]', ?, ?)"
  )
  return (orgId, id, username, name, at) => {
    insertUser.run(id, `${username}@example.com`, username, name, at, at, at)
    insertMember.run(orgId, id, at, at)
  }
}

/**
 * Sets the counts the repositories keep (users, active users, the Everyone group of
 * `orgId`) after rows were inserted around them, as a bulk import must.
 */
export const keepCounts = (db, orgId) => {
  db.prepare("UPDATE counters SET value = (SELECT count(*) FROM users WHERE deleted = 0) WHERE name = 'users'").run()
  db.prepare(
    "UPDATE counters SET value = (SELECT count(*) FROM users WHERE deleted = 0 AND status = 'active') WHERE name = 'users_active'"
  ).run()
  db.prepare(
    "UPDATE groups SET member_count = (SELECT count(*) FROM organization_members WHERE organization_id = ?) WHERE id = ?"
  ).run(orgId, orgId)
}

/**
 * Copies of a workspace straight into the SQLite file: its latest build, job, resources and agents with
 * new ids, and the workspace counters kept. `clone(i, columns)` inserts copy `i`, named `ws-<i>`, with
 * `columns` replacing the copied workspace row's (its owner, say).
 */
export const workspaceCloner = (db, workspaceId) => {
  const w = db.prepare("SELECT * FROM workspaces WHERE id = ?").get(workspaceId)
  const b = db.prepare("SELECT * FROM workspace_builds WHERE workspace_id = ? ORDER BY build_number DESC LIMIT 1")
    .get(workspaceId)
  const j = db.prepare("SELECT * FROM provisioner_jobs WHERE id = ?").get(b.job_id)
  delete j.job_status // generated
  const resources = db.prepare("SELECT * FROM workspace_resources WHERE job_id = ?").all(j.id)
  const agents = db.prepare(
    "SELECT * FROM workspace_agents WHERE resource_id IN (SELECT id FROM workspace_resources WHERE job_id = ?)"
  ).all(j.id)
  const insertOf = (table, row) =>
    db.prepare(
      `INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row).map(() => "?").join(", ")})`
    )
  const [iw, ib, ij] = [insertOf("workspaces", w), insertOf("workspace_builds", b), insertOf("provisioner_jobs", j)]
  const ir = resources.length > 0 ? insertOf("workspace_resources", resources[0]) : undefined
  const ia = agents.length > 0 ? insertOf("workspace_agents", agents[0]) : undefined
  const bump = db.prepare(
    "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = counters.value + 1"
  )
  return (i, columns = {}) => {
    const [wid, jid, bid] = [randomUUID(), randomUUID(), randomUUID()]
    const input = JSON.parse(j.input)
    input.workspace_build_id = bid
    ij.run(...Object.values({ ...j, id: jid, input: JSON.stringify(input) }))
    const row = { ...w, id: wid, name: `ws-${i}`, favorite: 0, list_rank: 0, ...columns }
    iw.run(...Object.values(row))
    ib.run(...Object.values({ ...b, id: bid, workspace_id: wid, job_id: jid }))
    const resourceIds = new Map()
    for (const r of resources) {
      const rid = randomUUID()
      resourceIds.set(r.id, rid)
      ir.run(...Object.values({ ...r, id: rid, job_id: jid }))
    }
    for (const a of agents) {
      ia.run(
        ...Object.values({
          ...a,
          id: randomUUID(),
          resource_id: resourceIds.get(a.resource_id),
          auth_token_hash: randomBytes(32).toString("hex")
        })
      )
    }
    bump.run("workspaces")
    bump.run(`workspaces:${row.owner_id}`)
  }
}

/** Mean time (ms) of `n` runs of a prepared statement on better-sqlite3, after one unmeasured run. */
export const timeStatement = (stmt, n, args = []) => {
  stmt.all(...args)
  const t = performance.now()
  for (let i = 0; i < n; i++) stmt.all(...args)
  return (performance.now() - t) / n
}

/** SQLite's query plan of `sql`, one line. */
export const queryPlan = (db, sql, args = []) =>
  db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...args)
    .map((r) => r.detail)
    .join("; ")

/**
 * A warm-up load of `warmup` seconds (none at 0), then the measured load (see `load`); with `pid`,
 * the server process's CPU time per request over the measured load (`cpuUs`, user + system from
 * /proc, in microseconds), as bench/run.mjs reads it. With `around`, called just before the
 * measured load, the function it answers is called just after it and its answer kept as `profile`.
 */
export const warmThenLoad = async (url, { connections, warmup, duration, headers, requests, pid, around }) => {
  if (warmup > 0) await load(url, { connections, duration: warmup, headers, requests })
  const after = around === undefined ? undefined : await around()
  const cpu0 = pid === undefined ? undefined : cpuMs(pid)
  const res = await load(url, { connections, duration, headers, requests })
  const cpu1 = pid === undefined ? undefined : cpuMs(pid)
  if (after !== undefined) res.profile = await after()
  res.cpuUs = cpu0 === undefined || cpu1 === undefined ? undefined : ((cpu1 - cpu0) * 1000) / res.total
  return res
}

/**
 * The table of a page measured at several sizes (`results`: `{size, alone, loaded, plan}` in order
 * of size), its header naming the size `noun`; then the ratios of the largest to the smallest and
 * the page's plan at the largest. Answers the report's lines.
 */
export const scalingTable = (noun, results) => {
  const lines = [
    `| ${noun} | alone p50 (ms) | alone p99 (ms) | under load (req/s) | load p99 (ms) |`,
    "|---|---|---|---|---|"
  ]
  for (const r of results) {
    lines.push(
      `| ${r.size.toLocaleString("en")} | ${fmt(r.alone.median, 2)} | ${fmt(r.alone.p99, 2)} | ${
        fmt(r.loaded.rps, 0)
      } | ${fmt(r.loaded.p99, 0)} |`
    )
  }
  if (results.length >= 2) {
    const [small, big] = [results[0], results[results.length - 1]]
    lines.push(
      "",
      `Ratios largest/smallest: alone p50 ${fmt(big.alone.median / small.alone.median, 2)}x, ` +
        `alone p99 ${fmt(big.alone.p99 / small.alone.p99, 2)}x, req/s ${fmt(big.loaded.rps / small.loaded.rps, 2)}x.`
    )
    lines.push("", `Plan of the page at ${big.size.toLocaleString("en")}: \`${big.plan}\``)
  }
  return lines
}

/** The machine line of a report: start time, Node, CPUs, and the load average `load0` before and now after. */
export const machineLine = (startedAt, load0) => {
  const load1 = loadavg()
  const cpu = cpus()
  return (
    `${startedAt.toISOString()} · Node ${process.version} · ${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"} · ` +
    `load average ${load0.map((l) => l.toFixed(2)).join("/")} before, ${load1.map((l) => l.toFixed(2)).join("/")} after`
  )
}

/** Prints the report, and writes it to bench/results/`name` unless `write` is false. */
export const writeReport = (report, name, { write, log }) => {
  console.log(report)
  if (write) {
    mkdirSync(join(root, "bench/results"), { recursive: true })
    writeFileSync(join(root, `bench/results/${name}`), report)
    log(`written to bench/results/${name}`)
  }
}

/** A users row as the service answers a reduced user (see bare/wire.mjs). */
export { reducedUserJson } from "./bare/wire.mjs"
