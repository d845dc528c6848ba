// Tailnet node updates to watching clients (npm run bench:tailnet). Not a test: it measures and reports.
//
// Issue 11: "tailnet node updates delivered to 500 watching clients, p99 under 200 ms".
//
// The service runs in a CHILD process (this file with --serve: a SQLite file, or with --postgres a fresh
// Postgres database on 127.0.0.1:5432, created here and dropped at the end; the built-in provisioner,
// which prints each agent token it hands out so this process can act as the agents). Run it on the built
// packages (`npm run build:packages`; the npm script does both), as the service is deployed: under tsx's
// source loading the same work costs more.
// This process seeds, through the API, the first user and `--users` more (created by the owner, each
// logged in), a template with `--per-workspace` agents in one resource, and workspaces of those users
// (made by the owner for them) up to `--agents` agents. Then:
// - each agent opens GET /workspaceagents/me/coordinate with its token (a real WebSocket) and publishes its
//   node (`{"type":"node"}`) every second, start times spread over the second; the node carries the
//   agent's sequence number and the publish time on this process's clock (`bench_seq`, `bench_t`);
// - `--clients` clients open GET /tailnet, each with its user's session token (client i belongs to user
//   i mod users), publish their own node, and subscribe to 1-5 agents of that user (fixed pseudo-random
//   choice); the bench waits for every `subscribed`;
// - after `--warmup` seconds of updates, the measured window of `--duration` seconds: every `peer_update`
//   a client receives of an update published in the window is one delivery, its latency the receipt
//   time minus `bench_t` (same clock: agents and clients are in this process, so the figures include
//   this process's own queueing of receipts). Updates stop at the window's end; deliveries are awaited
//   for `--grace` seconds more.
// Reported: p50/p90/p99/max delivery latency, deliveries per second, the service's CPU per delivery (and
// on Postgres its database backends' CPU), the service's event loop delay over the window (a loop that
// stalls while the service's CPU is low means the machine's cores are taken by other work), and whether every expected delivery (each update of the
// window times the clients following that agent) arrived: missing ones, duplicates, and updates a client
// skipped (the outbox keeps only the latest node of an agent for a client that reads slowly).
// Writes its section (SQLite or Postgres) of bench/results/tailnet.md, the other kept. Options: --agents 100 --per-workspace 5
// --users 5 --clients 500 --warmup 5 --duration 20 --grace 5 --postgres --pg-url URL --no-write,
// --load-prof FILE (the service's CPU profile of the measured window, a .cpuprofile).
// Everything listens on and connects to 127.0.0.1 only; every run is bounded in time.
import { type BuildInput, type Provisioner, workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import pg from "pg"
import WebSocket from "ws"
import { serveInChild, startChild } from "./child.js"
import {
  cpuMs,
  fmt,
  logger,
  machineLine,
  machineTemplate,
  request,
  root,
  rssMb,
  seedFirstUser,
  seedTemplate,
  SESSION_HEADER,
  sleep
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    serve: { type: "string" },
    "serve-pg": { type: "string" },
    agents: { type: "string", default: "100" },
    "per-workspace": { type: "string", default: "5" },
    users: { type: "string", default: "5" },
    clients: { type: "string", default: "500" },
    warmup: { type: "string", default: "5" },
    duration: { type: "string", default: "20" },
    grace: { type: "string", default: "5" },
    postgres: { type: "boolean", default: false },
    "pg-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    "load-prof": { type: "string" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("tailnet")

// ---- the child: the service alone in its process, printing the agent tokens it hands out ----------
if (opts.serve !== undefined || opts["serve-pg"] !== undefined) {
  const announcing: Provisioner = {
    ...workbayProvisioner,
    build: (input: BuildInput) =>
      Effect.gen(function*() {
        for (let i = 0; i < Number(opts["per-workspace"]); i++) {
          process.stdout.write(`TOKEN ${input.workspace.id} a${i} ${yield* input.agentToken(`a${i}`)}\n`)
        }
        return yield* workbayProvisioner.build(input)
      })
  }
  const storage = opts.serve !== undefined
    ? (await import("@workbay/storage-sqlite")).layer({ filename: opts.serve })
    : (await import("@workbay/storage-postgres")).layer({ url: opts["serve-pg"]! })
  const workbay = await makeWorkbay(storage, {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    provisioners: [announcing]
  })
  // The event loop's delay over the measured window, asked for by the parent ("eld-reset", "eld-report").
  // And its garbage collector's pauses over the window: their total and the longest.
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  let gcTotal = 0
  let gcMax = 0
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcTotal += e.duration
      gcMax = Math.max(gcMax, e.duration)
    }
  }).observe({ entryTypes: ["gc"] })
  process.on("message", (m: unknown) => {
    if (m === "eld-reset") {
      delay.reset()
      gcTotal = gcMax = 0
    }
    if (m === "eld-report") {
      const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage()
      process.send?.({
        eld: {
          p50: delay.percentile(50) / 1e6,
          p99: delay.percentile(99) / 1e6,
          max: delay.max / 1e6,
          gcTotal,
          gcMax,
          heapUsed,
          heapTotal,
          external,
          arrayBuffers
        }
      })
    }
  })
  await serveInChild(workbay)
}

// ---- the parent ---------------------------------------------------------------------------------------
const perWorkspace = Number(opts["per-workspace"])
const agentCount = Number(opts.agents)
const userCount = Number(opts.users)
const clientCount = Number(opts.clients)
const warmup = Number(opts.warmup) * 1000
const duration = Number(opts.duration) * 1000
const grace = Number(opts.grace) * 1000
const archive = machineTemplate(Array.from({ length: perWorkspace }, (_, i) => `a${i}`))
type Headers = Record<string, string>
const json = (auth: Headers) => ({ ...auth, "content-type": "application/json" })
const quantile = (sorted: ArrayLike<number>, q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!

/** A fixed pseudo-random sequence (mulberry32), so every run picks the same subscriptions. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** CPU ms of each Postgres backend connected to `database` (the server runs on this machine). */
const backendsCpu = async (monitor: pg.Client, database: string) => {
  const { rows } = await monitor.query("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database])
  return new Map<number, number>(rows.map((r: { pid: number }) => [r.pid, cpuMs(r.pid) ?? 0]))
}
const cpuDelta = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0)

/** Opens a WebSocket with `headers`; resolves once open. */
const open = (url: string, headers: Headers) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url, { headers, perMessageDeflate: false })
    ws.once("error", reject)
    ws.once("open", () => resolve(ws))
  })

const startedAt = new Date()
const load0 = loadavg()
const dir = mkdtempSync(join(tmpdir(), "workbay-bench-tailnet-"))
const pgAdmin = opts.postgres ? new pg.Client({ connectionString: opts["pg-url"] }) : undefined
const pgDatabase = `workbay_bench_tailnet_${randomBytes(4).toString("hex")}`
let pgUrl: string | undefined
if (pgAdmin !== undefined) {
  await pgAdmin.connect()
  await pgAdmin.query(`CREATE DATABASE ${pgDatabase}`)
  const u = new URL(opts["pg-url"])
  u.pathname = `/${pgDatabase}`
  pgUrl = u.toString()
}
const tokens = new Map<string, string>() // `${workspaceId}/${agentName}` -> token
let service: Awaited<ReturnType<typeof startChild>> | undefined
const sockets: Array<WebSocket> = []
try {
  service = await startChild(fileURLToPath(import.meta.url), [
    ...(pgUrl === undefined ? ["--serve", join(dir, "workbay.db")] : ["--serve-pg", pgUrl]),
    "--per-workspace",
    String(perWorkspace)
  ], {
    onLine: (line) => {
      const t = /^TOKEN (\S+) (\S+) (\S+)$/.exec(line)
      if (t) tokens.set(`${t[1]}/${t[2]}`, t[3]!)
    }
  })
  const base = `http://127.0.0.1:${service.port}/api/v2`
  const wsBase = base.replace(/^http/, "ws")

  // ---- seeding, through the API ----
  const { orgId, auth } = await seedFirstUser(base)
  const template = await seedTemplate(base, auth, orgId, archive)
  const users: Array<{ id: string; auth: Headers }> = []
  for (let u = 0; u < userCount; u++) {
    const password = `Tailnet-Bench-${u}-2024!x`
    const created = await request(`${base}/users`, {
      method: "POST",
      headers: json(auth),
      body: JSON.stringify({
        email: `t${u}@example.com`,
        username: `t${u}`,
        password,
        login_type: "password",
        organization_ids: [orgId]
      })
    })
    if (created.status !== 201) throw new Error(`POST /users: ${created.status} ${JSON.stringify(created.body)}`)
    const login = await request(`${base}/users/login`, {
      method: "POST",
      headers: json({}),
      body: JSON.stringify({ email: `t${u}@example.com`, password })
    })
    if (login.status !== 201) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`)
    users.push({ id: created.body.id, auth: { [SESSION_HEADER]: login.body.session_token } })
  }
  const workspaces: Array<{ id: string; user: number }> = []
  for (let i = 0; i * perWorkspace < agentCount; i++) {
    const user = i % userCount
    const ws = await request(`${base}/organizations/${orgId}/members/${users[user]!.id}/workspaces`, {
      method: "POST",
      headers: json(auth),
      body: JSON.stringify({ name: `w${i}`, template_id: template.id })
    })
    if (ws.status !== 200 && ws.status !== 201) throw new Error(`create: ${ws.status} ${JSON.stringify(ws.body)}`)
    workspaces.push({ id: ws.body.id, user })
  }
  // Each agent: its id, token and owner (from the running workspace's record).
  const agents: Array<{ id: string; token: string; user: number }> = []
  for (const w of workspaces) {
    for (let i = 0;; i++) {
      const got = await request(`${base}/workspaces/${w.id}`, { headers: auth })
      if (got.body.latest_build?.status === "running") {
        for (const a of (got.body.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])) {
          const token = tokens.get(`${w.id}/${a.name}`)
          if (token === undefined) throw new Error(`no token for ${w.id}/${a.name}`)
          agents.push({ id: a.id, token, user: w.user })
        }
        break
      }
      if (i > 3000) throw new Error(`not running: ${JSON.stringify(got.body.latest_build?.status)}`)
      await sleep(20)
    }
  }
  agents.splice(agentCount)
  const byUser = Array.from({ length: userCount }, (_, u) => agents.flatMap((a, i) => (a.user === u ? [i] : [])))
  log(`${agents.length} agents in ${workspaces.length} workspaces of ${userCount} users`)

  // ---- the run's state ----
  let measuring = false
  let windowStart = Infinity
  let windowEnd = Infinity
  /** Per agent: publish time of each sequence number, and whether it fell in the window. */
  const published: Array<Map<number, { t: number; measured: boolean }>> = agents.map(() => new Map())
  const latencies: Array<number> = []
  let duplicates = 0
  let skipped = 0
  let errors = 0
  /** Per client: per agent index, the last sequence received, and the measured ones received. */
  const clientState: Array<Map<number, { last: number; got: Set<number> }>> = []

  // ---- the agents' connections ----
  log("opening the agents' coordination connections")
  const agentSockets: Array<WebSocket> = []
  for (let i = 0; i < agents.length; i += 50) {
    agentSockets.push(
      ...await Promise.all(
        agents.slice(i, i + 50).map(async (a) => {
          const ws = await open(`${wsBase}/workspaceagents/me/coordinate`, { [SESSION_HEADER]: a.token })
          ws.on("message", (data) => {
            if (String(data).includes(`"type":"error"`)) errors++
          })
          return ws
        })
      )
    )
  }
  sockets.push(...agentSockets)

  // ---- the clients ----
  log(`opening ${clientCount} clients on /tailnet`)
  const pick = random(11)
  const follows: Array<Array<number>> = []
  // Client c belongs to the c-th user (in turn) of those owning agents.
  const owners = byUser.flatMap((pool, u) => (pool.length > 0 ? [u] : []))
  const ownerOf = (c: number) => owners[c % owners.length]!
  for (let c = 0; c < clientCount; c++) {
    const pool = byUser[ownerOf(c)]!
    const n = Math.min(pool.length, 1 + Math.floor(pick() * 5))
    const chosen = new Set<number>()
    while (chosen.size < n) chosen.add(pool[Math.floor(pick() * pool.length)]!)
    follows.push([...chosen])
  }
  const agentIndex = new Map(agents.map((a, i) => [a.id, i]))
  const openClient = async (c: number) => {
    const state = new Map<number, { last: number; got: Set<number> }>()
    clientState[c] = state
    const ws = await open(`${wsBase}/tailnet`, users[ownerOf(c)]!.auth)
    let pending = follows[c]!.length
    const subscribed = new Promise<void>((resolve) => {
      ws.on("message", (data) => {
        const now = performance.now()
        const m = JSON.parse(String(data))
        if (m.type === "subscribed") {
          if (--pending === 0) resolve()
          return
        }
        if (m.type === "error") {
          errors++
          return
        }
        if (m.type !== "peer_update" || m.kind !== "node") return
        const i = agentIndex.get(m.agent_id)!
        const seq = m.node.bench_seq as number
        let s = state.get(i)
        if (s === undefined) state.set(i, s = { last: -1, got: new Set() })
        if (seq <= s.last) duplicates++
        else if (s.last >= 0 && seq > s.last + 1) skipped += seq - s.last - 1
        s.last = Math.max(s.last, seq)
        const p = published[i]!.get(seq)
        if (p?.measured) {
          s.got.add(seq)
          latencies.push(now - p.t)
        }
      })
    })
    ws.send(
      JSON.stringify({
        type: "node",
        node: { id: 100000 + c, key: `nodekey:${c.toString(16).padStart(64, "0")}`, preferred_derp: 999 }
      })
    )
    for (const i of follows[c]!) ws.send(JSON.stringify({ type: "subscribe", agent_id: agents[i]!.id }))
    await subscribed
    return ws
  }
  const clientSockets: Array<WebSocket> = []
  for (let c = 0; c < clientCount; c += 50) {
    clientSockets.push(
      ...await Promise.all(Array.from({ length: Math.min(50, clientCount - c) }, (_, k) => openClient(c + k)))
    )
  }
  sockets.push(...clientSockets)
  const followers = agents.map(() => 0)
  for (const f of follows) for (const i of f) followers[i]!++
  const subscriptions = follows.reduce((n, f) => n + f.length, 0)
  log(
    `${clientCount} clients, ${subscriptions} subscriptions (followers per agent ${Math.min(...followers)}-${
      Math.max(...followers)
    })`
  )

  // ---- idle: every connection open, no updates (pings, the workers' polling) ----
  const idleMs = 5000
  const idle0 = cpuMs(service.child.pid)
  await sleep(idleMs)
  const idleCpu = (cpuMs(service.child.pid) ?? NaN) - (idle0 ?? NaN)

  // ---- the updates ----
  let stopping = false
  const nodeBase = (i: number) => ({
    id: i + 1,
    key: `nodekey:${i.toString(16).padStart(64, "0")}`,
    disco: `discokey:${i.toString(16).padStart(64, "1")}`,
    preferred_derp: 999,
    derp_latency: { "999-v4": 0.01 },
    derp_forced_websockets: {},
    addresses: [`fd7a:115c:a1e0::${i + 1}/128`],
    allowed_ips: [`fd7a:115c:a1e0::${i + 1}/128`],
    endpoints: ["192.0.2.1:41641"]
  })
  let sent = 0
  const agentLoop = async (i: number, offset: number) => {
    await sleep(offset)
    let next = performance.now()
    let seq = 0
    const ws = agentSockets[i]!
    const fixed = nodeBase(i)
    while (!stopping) {
      const t = performance.now()
      const measured = measuring && t >= windowStart && t < windowEnd
      published[i]!.set(seq, { t, measured })
      ws.send(
        JSON.stringify({
          type: "node",
          node: { ...fixed, as_of: new Date().toISOString(), bench_seq: seq, bench_t: t }
        })
      )
      if (measured) sent++
      seq++
      next += 1000
      await sleep(Math.max(0, next - performance.now()))
    }
  }
  log(`updates: every agent once a second; ${warmup / 1000} s warm-up, ${duration / 1000} s measured`)
  const loops = agents.map((_, i) => agentLoop(i, (i * 1000) / agents.length))
  await sleep(warmup)
  const monitor = pgUrl === undefined ? undefined : new pg.Client({ connectionString: opts["pg-url"] })
  await monitor?.connect()
  const cpu0 = cpuMs(service.child.pid)
  const db0 = monitor === undefined ? undefined : await backendsCpu(monitor, pgDatabase)
  service.child.send("eld-reset")
  await service.profileWindow(opts["load-prof"], async () => {
    windowStart = performance.now()
    windowEnd = windowStart + duration
    measuring = true
    await sleep(duration)
  })
  const cpu = (cpuMs(service.child.pid) ?? NaN) - (cpu0 ?? NaN)
  const eld = await new Promise<
    {
      p50: number
      p99: number
      max: number
      gcTotal: number
      gcMax: number
      heapUsed: number
      heapTotal: number
      external: number
      arrayBuffers: number
    }
  >((resolve) => {
    const onMessage = (m: any) => {
      if (m?.eld === undefined) return
      service!.child.off("message", onMessage)
      resolve(m.eld)
    }
    service!.child.on("message", onMessage)
    service!.child.send("eld-report")
  })
  const dbCpu = monitor === undefined || db0 === undefined
    ? undefined
    : cpuDelta(db0, await backendsCpu(monitor, pgDatabase))
  stopping = true
  await Promise.all(loops)
  // Deliveries of the window's last updates: wait until all arrived, or the grace period ends.
  let expected = 0
  for (const f of follows) {
    for (const i of f) for (const p of published[i]!.values()) if (p.measured) expected++
  }
  const graceEnd = performance.now() + grace
  while (performance.now() < graceEnd && latencies.length < expected) await sleep(50)
  const rss = rssMb(service.child.pid)
  await monitor?.end()

  // ---- the report ----
  const got = latencies.length
  const missingByClient = follows.map((f, c) =>
    f.reduce(
      (n, i) => n + [...published[i]!].filter(([seq, p]) => p.measured && !clientState[c]!.get(i)?.got.has(seq)).length,
      0
    )
  )
  const missing = missingByClient.reduce((a, b) => a + b, 0)
  const clientsComplete = missingByClient.filter((n) => n === 0).length
  const sorted = Float64Array.from(latencies).sort()
  const seconds = duration / 1000
  const storage = pgUrl === undefined
    ? "SQLite (a file)"
    : "Postgres 127.0.0.1:5432 (a fresh database; PubSub on LISTEN/NOTIFY)"
  const section = pgUrl === undefined ? "## SQLite" : "## Postgres"
  const report = `${section}

${machineLine(startedAt, load0)}

One service process on ${storage}, built packages; the agents and clients are a second process (\`ws\`)
on the same 2 cores. ${agents.length} agents (${workspaces.length} workspaces of ${perWorkspace} agents, owned by ${userCount}
users) each on GET /workspaceagents/me/coordinate, publishing its node once a second; ${clientCount} clients on
GET /tailnet, each following 1-5 agents of its user (${subscriptions} subscriptions, ${Math.min(...followers)}-${
    Math.max(...followers)
  } per agent).
${warmup / 1000} s warm-up, then ${seconds} s measured. Latency: a client's receipt of the \`peer_update\` minus the
agent's send, on the bench process's clock (so it includes that process's own queueing).

| figure | value |
|---|---|
| updates published in the window | ${sent} (${fmt(sent / seconds, 0)}/s) |
| deliveries expected / received | ${expected} / ${got} |
| every expected update arrived | ${
    missing === 0 ? "yes" : `no: ${missing} missing`
  } (${clientsComplete} of ${clientCount} clients got all theirs) |
| duplicates / skipped (coalesced) updates | ${duplicates} / ${skipped} |
| error messages | ${errors} |
| deliveries per second | ${fmt(got / seconds, 0)} |
| delivery latency p50 / p90 / p99 / max (ms) | ${fmt(quantile(sorted, 0.5))} / ${fmt(quantile(sorted, 0.9))} / **${
    fmt(quantile(sorted, 0.99))
  }** / ${fmt(sorted.at(-1) ?? NaN)} |
| p99 < 200 ms | ${quantile(sorted, 0.99) < 200 ? "met" : "not met"} |
| service event loop delay in the window p50 / p99 / max (ms) | ${fmt(eld.p50)} / ${fmt(eld.p99)} / ${fmt(eld.max)} |
| service GC pauses in the window: total / longest (ms) | ${fmt(eld.gcTotal, 0)} / ${fmt(eld.gcMax)} |
| service CPU in the window | ${fmt(cpu, 0)} ms (${fmt((cpu / duration) * 100, 0)}% of one core) |
| service CPU idle, every connection open, no updates | ${fmt((idleCpu / idleMs) * 100, 0)}% of one core |
| service CPU per delivery (us): all / above idle | ${fmt((cpu * 1000) / Math.max(1, got), 1)} / ${
    fmt(((cpu - (idleCpu * duration) / idleMs) * 1000) / Math.max(1, got), 1)
  } |
${
    dbCpu === undefined
      ? ""
      : `| database backends' CPU in the window | ${fmt(dbCpu, 0)} ms (${
        fmt((dbCpu * 1000) / Math.max(1, sent), 1)
      } us per published update) |\n`
  }| service RSS after the run; at the window's end heap used / heap total / external (MB) | ${fmt(rss, 0)}; ${
    fmt(eld.heapUsed / 2 ** 20, 0)
  } / ${fmt(eld.heapTotal / 2 ** 20, 0)} / ${fmt(eld.external / 2 ** 20, 0)} |
`
  console.log(report)
  if (!opts["no-write"]) {
    // bench/results/tailnet.md: this run's section replaces the last one of the same storage; the rest is kept.
    const file = join(root, "bench/results/tailnet.md")
    const before = existsSync(file)
      ? readFileSync(file, "utf8")
      : "# Tailnet node updates to watching clients (npm run bench:tailnet)\n\n"
    const at = before.indexOf(`${section}\n`)
    const end = at < 0 ? -1 : before.indexOf("\n## ", at + section.length)
    const next = at < 0
      ? `${before.trimEnd()}\n\n${report}`
      : `${before.slice(0, at)}${report}${end < 0 ? "" : before.slice(end)}`
    writeFileSync(file, next)
    log(`written to ${file}`)
  }
} finally {
  for (const ws of sockets) ws.terminate()
  await service?.stop()
  rmSync(dir, { recursive: true, force: true })
  if (pgAdmin !== undefined) {
    await pgAdmin.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`).catch(() => undefined)
    await pgAdmin.end()
  }
}
