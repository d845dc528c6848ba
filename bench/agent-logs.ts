// Agent log appends (npm run bench:agent-logs). Not a test: it measures and reports.
//
// Issue 11: "1,000 agents connected at once, each heart-beating and sending a log batch every second, on
// one server process: sustained without growing latency of ordinary API reads; agent log appends per second".
//
// The service runs in a CHILD process (this file with --serve: a SQLite file, the built-in provisioner,
// which prints each agent token it is handed so the parent can act as the agents). The parent seeds the
// first user, a template with `--per-workspace` agents in one resource and enough workspaces for
// `--agents` agents; each agent declares a log source. Then, `--over connection` (the default, what the
// reference agent does): each agent opens its agent connection (GET /workspaceagents/me/rpc, a real
// WebSocket) and every second (start times spread over the first second) sends a `heartbeat` and a
// `batch_create_logs` of `--lines` lines of 80 bytes, `--rate` times a second; `--over route`: the same
// batches as PATCH /workspaceagents/me/logs over `--connections` keep-alive HTTP connections. Meanwhile
// one reader GETs /workspaces/{id} back to back. Reported: batches and lines stored per second, the
// service's CPU per batch, the batch latency, refusals, and the read latency idle (before the load) and
// under it, per third of the run (growing latency would show as a rising p50 from third to third).
// Writes bench/results/agent-logs.md (--over route: agent-logs-route.md). Options: --agents 1000
// --per-workspace 100 --lines 10 --rate 1 --duration 20 --over connection|route --connections 100 --no-write,
// --service-prof DIR (the service's CPU profile, node --cpu-prof, written to DIR when it stops),
// --load-prof FILE (the service's CPU profile of the load alone, a .cpuprofile).
// Everything listens on and connects to 127.0.0.1 only.
import { type BuildInput, type Provisioner, workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Agent, setGlobalDispatcher } from "undici"
import WebSocket from "ws"
import { serveInChild, startChild } from "./child.js"
import {
  cpuMs,
  fmt,
  logger,
  machineLine,
  machineTemplate,
  request,
  rssMb,
  seedFirstUser,
  seedTemplate,
  SESSION_HEADER,
  sleep,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    serve: { type: "string" },
    agents: { type: "string", default: "1000" },
    "per-workspace": { type: "string", default: "100" },
    lines: { type: "string", default: "10" },
    rate: { type: "string", default: "1" },
    over: { type: "string", default: "connection" },
    duration: { type: "string", default: "20" },
    connections: { type: "string", default: "100" },
    "no-write": { type: "boolean", default: false },
    "service-prof": { type: "string" },
    "load-prof": { type: "string" },
    checkpoints: { type: "string", default: "inline" }
  }
})
const log = logger("agent-logs")

// ---- the child: the service alone in its process, printing the agent tokens it hands out ----------
if (opts.serve !== undefined) {
  const announcing: Provisioner = {
    ...workbayProvisioner,
    build: (input: BuildInput) =>
      Effect.gen(function*() {
        const perWorkspace = Number(opts["per-workspace"])
        for (let i = 0; i < perWorkspace; i++) {
          process.stdout.write(`TOKEN ${input.workspace.id} a${i} ${yield* input.agentToken(`a${i}`)}\n`)
        }
        return yield* workbayProvisioner.build(input)
      })
  }
  const workbay = await makeWorkbay(
    Sqlite.layer({ filename: opts.serve, checkpoints: opts.checkpoints === "thread" ? "thread" : "inline" }),
    { http: { rateLimits: false }, passwordHashCost: 4, retention: false, provisioners: [announcing] }
  )
  await serveInChild(workbay)
}

// ---- the parent ---------------------------------------------------------------------------------------
const perWorkspace = Number(opts["per-workspace"])
const agentCount = Number(opts.agents)
const linesPerBatch = Number(opts.lines)
const duration = Number(opts.duration) * 1000
const archive = machineTemplate(Array.from({ length: perWorkspace }, (_, i) => `a${i}`))

const tokens: Array<string> = []
const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
const sorted = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)

// Keep-alive connections shared by the simulated agents (each real agent holds one of its own).
setGlobalDispatcher(
  new Agent({ connections: Number(opts.connections), connectTimeout: 30_000, headersTimeout: 60_000 })
)

const startedAt = new Date()
const load0 = loadavg()
const dir = mkdtempSync(join(tmpdir(), "workbay-bench-agent-logs-"))
const service = await startChild(fileURLToPath(import.meta.url), [
  "--serve",
  join(dir, "workbay.db"),
  "--per-workspace",
  String(perWorkspace),
  "--checkpoints",
  opts.checkpoints
], {
  nodeArgs: opts["service-prof"] === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${opts["service-prof"]}`],
  onLine: (line) => {
    const t = /^TOKEN \S+ \S+ (\S+)$/.exec(line)
    if (t) tokens.push(t[1]!)
  }
})
const base = `http://127.0.0.1:${service.port}/api/v2`
try {
  const { orgId, auth } = await seedFirstUser(base)
  const template = await seedTemplate(base, auth, orgId, archive)
  const workspaceIds: Array<string> = []
  for (let i = 0; i * perWorkspace < agentCount; i++) {
    const ws = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: `w${i}`, template_id: template.id })
    })
    if (ws.status !== 200) throw new Error(`create: ${ws.status} ${JSON.stringify(ws.body)}`)
    workspaceIds.push(ws.body.id)
  }
  for (const id of workspaceIds) {
    for (let i = 0;; i++) {
      const w = await request(`${base}/workspaces/${id}`, { headers: auth })
      if (w.body.latest_build?.status === "running") break
      if (i > 3000) throw new Error(`not running: ${JSON.stringify(w.body.latest_build?.status)}`)
      await sleep(20)
    }
  }
  const agents = tokens.slice(0, agentCount)
  log(`${agents.length} agents in ${workspaceIds.length} workspaces`)
  const source = randomUUID()
  for (let i = 0; i < agents.length; i += 50) {
    await Promise.all(
      agents.slice(i, i + 50).map(async (token) => {
        const r = await request(`${base}/workspaceagents/me/log-source`, {
          method: "POST",
          headers: { [SESSION_HEADER]: token, "content-type": "application/json" },
          body: JSON.stringify({ id: source, display_name: "bench" })
        })
        if (r.status !== 200) throw new Error(`log-source: ${r.status} ${JSON.stringify(r.body)}`)
      })
    )
  }

  const readUrl = `${base}/workspaces/${workspaceIds[0]}`
  // The reader's own connection: not queued behind the agents' requests in the client's pool.
  const reader = new Agent({ connections: 1 })
  const readFor = async (ms: number, until?: () => boolean) => {
    const times: Array<number> = []
    const end = performance.now() + ms
    while (performance.now() < end && (until === undefined || !until())) {
      const t = performance.now()
      const r = await fetch(readUrl, { headers: auth, dispatcher: reader } as RequestInit)
      await r.arrayBuffer()
      times.push(performance.now() - t)
    }
    return times
  }
  log("idle reads")
  const idle = sorted(await readFor(5000))

  const over = opts.over === "route" ? "route" : "connection"
  const rate = Number(opts.rate)
  log(
    `load: ${agents.length} agents over the ${over}, ${rate} batch(es) of ${linesPerBatch} lines each second, for ${
      duration / 1000
    } s`
  )
  const batchTimes: Array<number> = []
  let ok = 0
  let failed = 0
  let heartbeats = 0
  const statuses = new Map<string, number>()
  const refuse = (why: string) => {
    failed++
    statuses.set(why, (statuses.get(why) ?? 0) + 1)
  }
  let stopping = false
  const line = "x".repeat(79)
  const batch = () => ({
    log_source_id: source,
    logs: Array.from(
      { length: linesPerBatch },
      () => ({ created_at: new Date().toISOString(), level: "info", output: line })
    )
  })
  const wsBase = base.replace(/^http/, "ws")

  /** An agent connection: requests by id, their answers resolved by id. */
  const openConnection = (token: string) =>
    new Promise<
      { request: (type: string, body: object) => Promise<any>; notify: (type: string) => void; close: () => void }
    >((resolve, reject) => {
      const ws = new WebSocket(`${wsBase}/workspaceagents/me/rpc`, {
        headers: { [SESSION_HEADER]: token },
        perMessageDeflate: false
      })
      const waiting = new Map<number, (answer: any) => void>()
      let next = 1
      ws.on("message", (data) => {
        const answer = JSON.parse(String(data))
        waiting.get(answer.id)?.(answer)
        waiting.delete(answer.id)
      })
      ws.once("error", reject)
      ws.once("open", () =>
        resolve({
          request: (type, body) =>
            new Promise((done) => {
              const id = next++
              waiting.set(id, done)
              ws.send(JSON.stringify({ type, id, ...body }))
            }),
          notify: (type) => ws.send(JSON.stringify({ type })),
          close: () => ws.close(1000)
        }))
      ws.on("close", () => {
        for (const done of waiting.values()) done({ error: { message: "closed" } })
        waiting.clear()
      })
    })

  const connections: Array<Awaited<ReturnType<typeof openConnection>>> = []
  if (over === "connection") {
    log("opening the agent connections")
    for (let i = 0; i < agents.length; i += 50) {
      connections.push(...await Promise.all(agents.slice(i, i + 50).map(openConnection)))
    }
  }

  const sendBatch = over === "connection"
    ? async (i: number) => {
      const answer = await connections[i]!.request("batch_create_logs", batch())
      if (answer.error !== undefined) refuse(answer.error.message)
      else if (answer.result?.log_limit_exceeded) refuse("log_limit_exceeded")
      else ok++
    }
    : async (i: number) => {
      const status = await fetch(`${base}/workspaceagents/me/logs`, {
        method: "PATCH",
        headers: { [SESSION_HEADER]: agents[i]!, "content-type": "application/json" },
        body: JSON.stringify(batch())
      }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0)
      if (status === 200) ok++
      else refuse(String(status))
    }

  const agentLoop = async (i: number, offset: number) => {
    await sleep(offset)
    let next = performance.now()
    let beat = 0
    while (!stopping) {
      if (over === "connection" && beat++ % rate === 0) {
        connections[i]!.notify("heartbeat")
        heartbeats++
      }
      const t = performance.now()
      await sendBatch(i)
      batchTimes.push(performance.now() - t)
      next += 1000 / rate
      await sleep(Math.max(0, next - performance.now()))
    }
  }
  const t0 = performance.now()
  const cpu0 = cpuMs(service.child.pid)
  const loops = agents.map((_, i) => agentLoop(i, (i * 1000) / agents.length))
  await sleep(2000) // all agents running
  const loadReads: Array<[number, number]> = []
  await service.profileWindow(opts["load-prof"], async () => {
    const end = performance.now() + duration - 2000
    while (performance.now() < end) {
      const t = performance.now()
      const r = await fetch(readUrl, { headers: auth, dispatcher: reader } as RequestInit)
      await r.arrayBuffer()
      loadReads.push([t, performance.now() - t])
    }
  })
  stopping = true
  await Promise.all(loops)
  const cpu = (cpuMs(service.child.pid) ?? NaN) - (cpu0 ?? NaN)
  const elapsed = (performance.now() - t0) / 1000
  for (const c of connections) c.close()
  const underLoad = sorted(loadReads.map(([, ms]) => ms))
  const span = (loadReads.at(-1)?.[0] ?? 0) - (loadReads[0]?.[0] ?? 0)
  const thirds = [0, 1, 2].map((k) =>
    sorted(
      loadReads.filter(([t]) =>
        t - loadReads[0]![0] >= (k * span) / 3 && t - loadReads[0]![0] < ((k + 1) * span) / 3 + (k === 2 ? 1 : 0)
      ).map(([, ms]) => ms)
    )
  )
  const patches = sorted(batchTimes)
  const rss = rssMb(service.child.pid)

  const how = over === "connection"
    ? `each holding its agent connection (a WebSocket) and sending a \`heartbeat\` and ${
      rate === 1 ? "a \`batch_create_logs\`" : `${rate} \`batch_create_logs\``
    } of
${linesPerBatch} lines (80 bytes each) every second`
    : `each PATCHing /workspaceagents/me/logs with ${
      rate === 1 ? "a batch" : `${rate} batches`
    } of ${linesPerBatch} lines (80 bytes each) every second
over ${opts.connections} keep-alive HTTP connections`
  const report = `# Agent log appends (over the ${over})

${machineLine(startedAt, load0)}

${agents.length} agents (${workspaceIds.length} workspaces of ${perWorkspace}), ${how}, for ${fmt(elapsed, 1)} s,
against one service process on SQLite (a file); the load generator is a second process on the same machine.
One reader GETs /workspaces/{id} back to back.

| figure | value |
|---|---|
| batches stored per second | ${fmt(ok / elapsed, 0)} (offered: ${agents.length * rate}) |
| lines stored per second | ${fmt((ok * linesPerBatch) / elapsed, 0)} |
| heartbeats sent | ${heartbeats} |
| service CPU per stored batch (ms; the reader's GETs and heartbeats included) | ${fmt(cpu / Math.max(1, ok), 3)} |
| batch answer p50 / p99 / max (ms) | ${fmt(quantile(patches, 0.5))} / ${fmt(quantile(patches, 0.99))} / ${
    fmt(patches.at(-1) ?? NaN)
  } |
| refused or failed batches | ${failed}${
    statuses.size > 0 ? ` (${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")})` : ""
  } |
| GET /workspaces/{id} idle p50 / p99 (ms) | ${fmt(quantile(idle, 0.5))} / ${
    fmt(quantile(idle, 0.99))
  } (${idle.length} reads) |
| GET /workspaces/{id} under load p50 / p99 (ms) | ${fmt(quantile(underLoad, 0.5))} / ${
    fmt(quantile(underLoad, 0.99))
  } (${underLoad.length} reads) |
| the same by third of the run, p50 (ms) | ${thirds.map((t) => fmt(quantile(t, 0.5))).join(" / ")} |
| service RSS after the load (MB) | ${fmt(rss, 0)} |
`
  writeReport(report, over === "route" ? "agent-logs-route.md" : "agent-logs.md", { write: !opts["no-write"], log })
} finally {
  await service.stop()
  rmSync(dir, { recursive: true, force: true })
}
