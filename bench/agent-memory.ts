// The server's memory per connected agent (issue 44, item 3: under 50 KB). Not a test: it measures and reports.
//
//   node --import tsx bench/agent-memory.ts --agents 500
//
// Three processes, so that the only heap measured is the service's:
// - the service (this file with --serve: makeWorkbay on a SQLite file in a temporary folder, with the
//   built-in `workbay` provisioner), started with --expose-gc; asked over IPC for its heap, it collects
//   garbage (three full collections) and answers `process.memoryUsage()`;
// - the agents (this file with --agents-child): for each token the parent sends, the reference agent
//   itself (`startAgent` of @workbay/agent, with a runner that does no work, as the scaletest's light
//   agents): the agent connection (`/workspaceagents/me/rpc`), the coordination connection
//   (`/workspaceagents/me/coordinate`) and the reinitialization stream (`/workspaceagents/me/reinit`),
//   real sockets from another process;
// - this process: seeds through the API a template whose one agent is external, `--agents`
//   workspaces of it, reads each agent's token (`GET /workspaces/{id}/external-agent/main/credentials`),
//   measures the service's heap, starts the agents, waits until each reached `ready` and `--settle`
//   seconds more, measures again, stops the agents and measures a third time (what stays after they
//   left).
// The baseline: the same number of plain `ws` WebSocket connections to a bare node:http + ws server
// (this file with --bare, also with --expose-gc), measured the same way, per connection; an agent
// holds three connections (two WebSockets and one server-sent event stream), so the report gives
// the ratio to three bare connections too.
// Writes bench/results/agent-memory.md (--no-write: print only). Everything listens on 127.0.0.1.
// Run it without `--conditions=@workbay/source`: the service then loads the packages' compiled JavaScript
// (their dist/, `npx tsc -b tsconfig.check.json`), as an embedder's install and the standalone bundle do.
// From source, tsx compiles with esbuild's keepNames: every closure gets its name set by a property
// write, which gives it a property array (some 500 bytes), and the heap per agent reads ~15 KB higher.
import { type AgentRunner, machineRunner, type RunningAgent, startAgent } from "@workbay/agent"
import { makeWorkbay } from "@workbay/http"
import { zipSync } from "fflate"
import { type ChildProcess, fork } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import WebSocket, { WebSocketServer } from "ws"
import { startChild } from "./child.js"
import { fmt, logger, machineLine, request, seedFirstUser, seedTemplate, sleep, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    serve: { type: "string" },
    bare: { type: "boolean", default: false },
    "agents-child": { type: "boolean", default: false },
    agents: { type: "string", default: "500" },
    settle: { type: "string", default: "3" },
    "no-write": { type: "boolean", default: false },
    snapshot: { type: "string" }
  }
})
const log = logger("agent-memory")

interface Memory {
  readonly heapUsed: number
  readonly rss: number
}

/** In a child run with --expose-gc: answers "mem" with its memory after full collections. */
const answerMemory = () =>
  process.on("message", async (m: unknown) => {
    if (typeof m === "string" && m.startsWith("snapshot ")) {
      ;(await import("node:v8")).writeHeapSnapshot(m.slice("snapshot ".length))
      return void process.send?.({ mem: { heapUsed: 0, rss: 0 } })
    }
    if (m !== "mem") return
    const gc = (globalThis as { gc?: () => void }).gc
    if (gc === undefined) throw new Error("run with --expose-gc")
    for (let i = 0; i < 3; i++) {
      gc()
      await new Promise((resolve) => setImmediate(resolve))
    }
    const { heapUsed, rss } = process.memoryUsage()
    process.send?.({ mem: { heapUsed, rss } satisfies Memory })
  })

/** Asks a child for its memory (see `answerMemory`). */
const memoryOf = (child: ChildProcess) =>
  new Promise<Memory>((resolve) => {
    const wait = (m: any) => (m?.mem !== undefined ? resolve(m.mem) : child.once("message", wait))
    child.once("message", wait)
    child.send("mem")
  })

// ---- the service -----------------------------------------------------------------------------------
if (opts.serve !== undefined) {
  const { serveInChild } = await import("./child.js")
  const storage = (await import("@workbay/storage-sqlite")).layer({ filename: opts.serve })
  const workbay = await makeWorkbay(storage, { http: { rateLimits: false }, passwordHashCost: 4, retention: false })
  answerMemory()
  await serveInChild(workbay)
}

// ---- the bare baseline: node:http + ws, nothing else ---------------------------------------------------
if (opts.bare) {
  const server = createServer((_, res) => res.end())
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false })
  const sockets = new Set<WebSocket>()
  server.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws)
      ws.on("message", (data) => ws.send(data))
      ws.on("close", () => sockets.delete(ws))
    }))
  answerMemory()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port}\n`)
  process.on("disconnect", () => process.exit(0))
  await new Promise<never>(() => {})
}

// ---- the agents -------------------------------------------------------------------------------------
if (opts["agents-child"]) {
  const runner: AgentRunner = {
    script: async (script) => {
      const now = new Date().toISOString()
      return { script_id: script.id, started_at: now, ended_at: now, exit_code: 0, status: "ok", timeout: false }
    },
    metadata: async () => ({ value: "", error: "" }),
    probe: machineRunner.probe
  }
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-agent-memory-agents-"))
  const running: Array<RunningAgent> = []
  process.on("message", async (m: any) => {
    if (m?.start !== undefined) {
      const { url, tokens } = m.start as { url: string; tokens: Array<string> }
      for (let i = 0; i < tokens.length; i += 50) {
        await Promise.all(
          tokens.slice(i, i + 50).map(async (token) => {
            const agent = await startAgent({
              url,
              token,
              auth: "token",
              directory: dir,
              logDir: dir,
              runner,
              log: () => {}
            })
            running.push(agent)
            const state = await agent.started
            if (state !== "ready") throw new Error(`an agent ended its start-up ${state}`)
          })
        )
      }
      process.send?.({ started: running.length })
    }
    if (m === "stop") {
      for (let i = 0; i < running.length; i += 100) {
        await Promise.all(running.slice(i, i + 100).map((a) => a.stop().catch(() => undefined)))
      }
      rmSync(dir, { recursive: true, force: true })
      process.send?.({ stopped: true })
    }
  })
  process.on("disconnect", () => process.exit(0))
  await new Promise<never>(() => {})
}

// ---- the parent ---------------------------------------------------------------------------------------
const count = Number(opts.agents)
const settle = Number(opts.settle) * 1000
const self = fileURLToPath(import.meta.url)
const kb = (bytes: number) => bytes / 1024
const startedAt = new Date()
const load0 = loadavg()
const dir = mkdtempSync(join(tmpdir(), "workbay-bench-agent-memory-"))
type Child = Awaited<ReturnType<typeof startChild>>
let service: Child | undefined
let bare: Child | undefined
let agents: ReturnType<typeof fork> | undefined
const once = <T>(child: NonNullable<typeof agents>, key: string) =>
  new Promise<T>((resolve) => {
    const wait = (m: any) => (m?.[key] !== undefined ? resolve(m[key]) : child.once("message", wait))
    child.once("message", wait)
  })
try {
  // ---- the bare baseline ----
  bare = await startChild(self, ["--bare"], { nodeArgs: ["--expose-gc"] })
  const bareBefore = await memoryOf(bare.child)
  const plain: Array<WebSocket> = []
  for (let i = 0; i < count; i += 100) {
    plain.push(
      ...await Promise.all(
        Array.from({ length: Math.min(100, count - i) }, () =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(`ws://127.0.0.1:${bare!.port}/`, { perMessageDeflate: false })
            ws.once("error", reject)
            ws.once("open", () => resolve(ws))
          }))
      )
    )
  }
  await sleep(500)
  const bareWith = await memoryOf(bare.child)
  for (const ws of plain) ws.terminate()
  log(`bare: ${count} connections`)

  // ---- the service, seeded ----
  service = await startChild(self, ["--serve", join(dir, "workbay.db")], { nodeArgs: ["--expose-gc"] })
  const url = `http://127.0.0.1:${service.port}`
  const base = `${url}/api/v2`
  const { orgId, auth } = await seedFirstUser(base)
  const archive = zipSync({
    "template.yaml": new TextEncoder().encode(
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n        external: true\n"
    )
  })
  const template = await seedTemplate(base, auth, orgId, archive)
  const json = { ...auth, "content-type": "application/json" }
  const workspaces: Array<string> = []
  for (let i = 0; i < count; i++) {
    const ws = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: `m${i}`, template_id: template.id })
    })
    if (ws.status !== 201 && ws.status !== 200) throw new Error(`create: ${ws.status} ${JSON.stringify(ws.body)}`)
    workspaces.push(ws.body.id)
  }
  const tokens: Array<string> = []
  for (const id of workspaces) {
    for (let i = 0;; i++) {
      const got = await request(`${base}/workspaces/${id}`, { headers: auth })
      if (got.body.latest_build?.status === "running") break
      if (i > 3000) throw new Error(`not running: ${JSON.stringify(got.body.latest_build?.status)}`)
      await sleep(20)
    }
    const credentials = await request(`${base}/workspaces/${id}/external-agent/main/credentials`, { headers: auth })
    if (credentials.status !== 200) {
      throw new Error(`credentials: ${credentials.status} ${JSON.stringify(credentials.body)}`)
    }
    tokens.push(credentials.body.agent_token)
  }
  log(`${tokens.length} workspaces with an external agent`)
  // A warm-up agent first, so code loaded on first use (the routes' modules, the compiled schemas) is not counted.
  agents = fork(self, ["--agents-child"], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  agents.send({ start: { url, tokens: tokens.slice(0, 1) } })
  await once(agents, "started")
  await sleep(settle)
  const before = await memoryOf(service.child)
  const snapshot = (suffix: string) =>
    opts.snapshot === undefined ? undefined : new Promise<void>((resolve) => {
      service!.child.once("message", () => resolve())
      service!.child.send(`snapshot ${opts.snapshot}-${suffix}.heapsnapshot`)
    })
  await snapshot("before")
  agents.send({ start: { url, tokens: tokens.slice(1) } })
  await once(agents, "started")
  log(`${count} agents ready; settling ${settle / 1000} s`)
  await sleep(settle)
  const connected = await memoryOf(service.child)
  await snapshot("connected")
  let up = 0
  for (const id of workspaces) {
    const w = (await request(`${base}/workspaces/${id}`, { headers: auth })).body
    if (w.latest_build.resources.some((r: any) => r.agents?.some((a: any) => a.status === "connected"))) up++
  }
  agents.send("stop")
  await once(agents, "stopped")
  await sleep(settle)
  const after = await memoryOf(service.child)

  const n = count - 1
  const heapPer = kb(connected.heapUsed - before.heapUsed) / n
  const rssPer = kb(connected.rss - before.rss) / n
  const bareHeap = kb(bareWith.heapUsed - bareBefore.heapUsed) / count
  const bareRss = kb(bareWith.rss - bareBefore.rss) / count
  const row = (name: string, heap: number, rss: number) => `| ${name} | ${fmt(heap)} | ${fmt(rss)} |`
  const report = [
    "# The server's memory per connected agent",
    "",
    "`node --import tsx bench/agent-memory.ts --agents " + count +
    "` (bench/agent-memory.ts). The service (`makeWorkbay`,",
    "SQLite, the packages' compiled JavaScript as an installed package runs it: build it first with",
    "`npx tsc -b tsconfig.check.json`) in a child with `--expose-gc`; the agents are the reference agent (`startAgent`, a runner",
    "that does no work) in another process, each with its agent connection, coordination connection and",
    "reinitialization stream. Heap used after three full collections, before the agents connect (after one",
    "warm-up agent), once they are all `ready` and settled, and after they left.",
    "",
    machineLine(startedAt, load0),
    "",
    `${n} agents measured; ${up} of ${count} workspaces showed their agent connected.`,
    "",
    "| per | heap used, KB | RSS, KB |",
    "|---|---:|---:|",
    row("connected agent (the service)", heapPer, rssPer),
    row("bare connection (node:http + ws)", bareHeap, bareRss),
    row("three bare connections", 3 * bareHeap, 3 * bareRss),
    "",
    `Ratio of an agent's heap to three bare connections: ${fmt(heapPer / (3 * bareHeap))}×.`,
    "",
    `Heap after the agents left: ${fmt(kb(after.heapUsed - before.heapUsed) / n)} KB per agent above the`,
    `figure before they came (service heap ${fmt(before.heapUsed / 1048576)} MB before, ${
      fmt(connected.heapUsed / 1048576)
    } MB with them, ${fmt(after.heapUsed / 1048576)} MB after).`,
    ""
  ].join("\n")
  writeReport(report, "agent-memory.md", { write: !opts["no-write"], log })
} finally {
  agents?.kill()
  service?.child.kill()
  bare?.child.kill()
  rmSync(dir, { recursive: true, force: true })
}
