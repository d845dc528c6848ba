// Agent log appends (npm run bench:agent-logs). Not a test: it measures and reports.
//
// Issue 11: "1,000 agents connected at once, each ... sending a log batch every second, on one server
// process: sustained without growing latency of ordinary API reads; agent log appends per second".
// This bench covers the log half (heartbeats are another area's).
//
// The service runs in a CHILD process (this file with --serve: a SQLite file, the built-in provisioner,
// which prints each agent token it is handed so the parent can act as the agents). The parent seeds the
// first user, a template with `--per-workspace` agents in one resource and enough workspaces for
// `--agents` agents; each agent declares a log source, then every second (start times spread over the
// first second) PATCHes /workspaceagents/me/logs with `--lines` lines of 80 bytes. Meanwhile one reader
// GETs /workspaces/{id} back to back. Reported: batches and lines stored per second, the PATCH latency,
// non-200 answers, and the read latency idle (before the load) and under it.
// Writes bench/results/agent-logs.md. Options: --agents 1000 --per-workspace 100 --lines 10 --duration 20
// --connections 100 (the load generator's keep-alive connections) --no-write,
// --service-prof DIR (the service's CPU profile, node --cpu-prof, written to DIR when it stops). Everything listens on and connects to 127.0.0.1 only.
import { type BuildInput, type Provisioner, workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { zipSync } from "fflate"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Agent, setGlobalDispatcher } from "undici"
import { serveInChild, startChild } from "./child.js"
// @ts-expect-error plain JavaScript helpers of the benches
import { cpuMs, fmt, logger, machineLine, request, rssMb, seedFirstUser, seedTemplate, SESSION_HEADER, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    serve: { type: "string" },
    agents: { type: "string", default: "1000" },
    "per-workspace": { type: "string", default: "100" },
    lines: { type: "string", default: "10" },
    duration: { type: "string", default: "20" },
    connections: { type: "string", default: "100" },
    "no-write": { type: "boolean", default: false },
    "service-prof": { type: "string" }
  }
})
const log = logger("agent-logs")
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- the child: the service alone in its process, printing the agent tokens it hands out ----------
if (opts.serve !== undefined) {
  const announcing: Provisioner = {
    ...workbayProvisioner,
    build: (input: BuildInput) => {
      const perWorkspace = Number(opts["per-workspace"])
      for (let i = 0; i < perWorkspace; i++) process.stdout.write(`TOKEN ${input.workspace.id} a${i} ${input.agentToken(`a${i}`)}\n`)
      return workbayProvisioner.build(input)
    }
  }
  const workbay = await makeWorkbay(Sqlite.layer({ filename: opts.serve }), {
    passwordHashCost: 4, retention: false, provisioners: [announcing]
  })
  await serveInChild(workbay)
}

// ---- the parent ---------------------------------------------------------------------------------------
const perWorkspace = Number(opts["per-workspace"])
const agentCount = Number(opts.agents)
const linesPerBatch = Number(opts.lines)
const duration = Number(opts.duration) * 1000
const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
${Array.from({ length: perWorkspace }, (_, i) => `      - name: a${i}\n`).join("")}`
const archive = zipSync({ "template.yaml": new TextEncoder().encode(TEMPLATE) })

const tokens: Array<string> = []
const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
const sorted = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)

// Keep-alive connections shared by the simulated agents (each real agent holds one of its own).
setGlobalDispatcher(new Agent({ connections: Number(opts.connections), connectTimeout: 30_000, headersTimeout: 60_000 }))

const startedAt = new Date()
const load0 = loadavg()
const dir = mkdtempSync(join(tmpdir(), "workbay-bench-agent-logs-"))
const service = await startChild(fileURLToPath(import.meta.url), ["--serve", join(dir, "workbay.db"), "--per-workspace", String(perWorkspace)], {
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
      method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ name: `w${i}`, template_id: template.id })
    })
    if (ws.status !== 200) throw new Error(`create: ${ws.status} ${JSON.stringify(ws.body)}`)
    workspaceIds.push(ws.body.id)
  }
  for (const id of workspaceIds) {
    for (let i = 0; ; i++) {
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
    await Promise.all(agents.slice(i, i + 50).map(async (token) => {
      const r = await request(`${base}/workspaceagents/me/log-source`, {
        method: "POST", headers: { [SESSION_HEADER]: token, "content-type": "application/json" },
        body: JSON.stringify({ id: source, display_name: "bench" })
      })
      if (r.status !== 200) throw new Error(`log-source: ${r.status} ${JSON.stringify(r.body)}`)
    }))
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

  log(`load: ${agents.length} agents, a batch of ${linesPerBatch} lines each second, for ${duration / 1000} s`)
  const patchTimes: Array<number> = []
  let ok = 0
  let failed = 0
  const statuses = new Map<number, number>()
  let stopping = false
  const line = "x".repeat(79)
  const agentLoop = async (token: string, offset: number) => {
    await sleep(offset)
    let next = performance.now()
    while (!stopping) {
      const body = JSON.stringify({
        log_source_id: source, logs: Array.from({ length: linesPerBatch }, () => ({ created_at: new Date().toISOString(), level: "info", output: line }))
      })
      const t = performance.now()
      const status = await fetch(`${base}/workspaceagents/me/logs`, {
        method: "PATCH", headers: { [SESSION_HEADER]: token, "content-type": "application/json" }, body
      }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0)
      patchTimes.push(performance.now() - t)
      if (status === 200) ok++
      else {
        failed++
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
      }
      next += 1000
      await sleep(Math.max(0, next - performance.now()))
    }
  }
  const t0 = performance.now()
  const cpu0 = cpuMs(service.child.pid)
  const loops = agents.map((token, i) => agentLoop(token, (i * 1000) / agents.length))
  await sleep(2000) // all agents running
  const underLoad = sorted(await readFor(duration - 2000))
  stopping = true
  await Promise.all(loops)
  const cpu = (cpuMs(service.child.pid) ?? NaN) - (cpu0 ?? NaN)
  const elapsed = (performance.now() - t0) / 1000
  const patches = sorted(patchTimes)
  const rss = rssMb(service.child.pid)

  const report = `# Agent log appends

${machineLine(startedAt, load0)}

${agents.length} agents (${workspaceIds.length} workspaces of ${perWorkspace}), each PATCHing /workspaceagents/me/logs with a batch of
${linesPerBatch} lines (80 bytes each) every second for ${fmt(elapsed, 1)} s, against one service process on SQLite (a file);
the load generator is a second process on the same machine, over ${opts.connections} keep-alive connections. One reader GETs /workspaces/{id} back to back.

| figure | value |
|---|---|
| batches stored per second | ${fmt(ok / elapsed, 0)} (target: ${agents.length}) |
| lines stored per second | ${fmt((ok * linesPerBatch) / elapsed, 0)} |
| PATCH p50 / p99 / max (ms) | ${fmt(quantile(patches, 0.5))} / ${fmt(quantile(patches, 0.99))} / ${fmt(patches.at(-1) ?? NaN)} |
| service CPU per stored batch (ms; the reader's GETs included) | ${fmt(cpu / Math.max(1, ok), 3)} |
| non-200 answers (0: no answer) | ${failed}${statuses.size > 0 ? ` (${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")})` : ""} |
| GET /workspaces/{id} idle p50 / p99 (ms) | ${fmt(quantile(idle, 0.5))} / ${fmt(quantile(idle, 0.99))} (${idle.length} reads) |
| GET /workspaces/{id} under load p50 / p99 (ms) | ${fmt(quantile(underLoad, 0.5))} / ${fmt(quantile(underLoad, 0.99))} (${underLoad.length} reads) |
| service RSS after the load (MB) | ${fmt(rss, 0)} |
`
  writeReport(report, "agent-logs.md", { write: !opts["no-write"], log })
} finally {
  await service.stop()
  rmSync(dir, { recursive: true, force: true })
}
