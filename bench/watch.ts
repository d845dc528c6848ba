// Watchers of one workspace (npm run bench:watch). Not a test: it measures and reports.
//
// Issue 9: "1,000 WebSocket watchers of one workspace receive each change, p99 delivery under 200 ms".
//
// Decision: the service runs in a CHILD process (this same file with --serve: TypeScript sources through
// tsx, a SQLite file, the built-in provisioner workers, `allowWorkspaceRenames` on), so the watchers'
// clients do not share its event loop; both processes share the machine's 2 cores. This process
// seeds the first user, a template of the workbay provisioner and one workspace through the routes,
// waits until its start build is running, opens `--watchers` `ws` clients on
// GET /api/v2/workspaces/{id}/watch-ws (session header, opened 50 at a time) and waits until each got
// its first `data` message. Then `--changes` renames (PATCH /workspaces/{id}), `--gap` ms apart; for each
// one, the delay from the PATCH's response (and from its request) to each client's receipt of the record
// with the new name, as seen by this process's clock (its event loop handles the 1,000 receipts one by
// one, so the figures include the client side's own queueing). A client "got" a change when it received
// the record with that name within `--timeout` ms.
// Writes bench/results/watch.md. Options: --watchers 1000 (or 100,1000) --changes 20 --gap 200 --timeout 5000
// --no-write, --service-prof DIR (the service's CPU profile, node --cpu-prof, written to DIR when it stops).
// Everything listens on and connects to 127.0.0.1 only; every run is bounded in time (under a minute).
import { workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import WebSocket from "ws"
import { serveInChild, startChild } from "./child.js"
import {
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
    watchers: { type: "string", default: "1000" },
    changes: { type: "string", default: "20" },
    gap: { type: "string", default: "200" },
    timeout: { type: "string", default: "5000" },
    "service-prof": { type: "string" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("watch")

// ---- the child: the service alone in its process --------------------------------------------------
if (opts.serve !== undefined) {
  const workbay = await makeWorkbay(Sqlite.layer({ filename: opts.serve }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    provisioners: [workbayProvisioner],
    settings: { allowWorkspaceRenames: true }
  })
  await serveInChild(workbay)
}

// ---- the parent: seeding, the watchers, the changes -------------------------------------------------
const archive = machineTemplate()
type Headers = Record<string, string>
const json = (auth: Headers) => ({ ...auth, "content-type": "application/json" })

const startService = (file: string) =>
  startChild(fileURLToPath(import.meta.url), ["--serve", file], {
    nodeArgs: opts["service-prof"] === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${opts["service-prof"]}`]
  })

/** The first user, a template, one running workspace; answers what the watchers need. */
const seed = async (base: string) => {
  const { orgId, auth } = await seedFirstUser(base)
  const template = await seedTemplate(base, auth, orgId, archive)
  const ws = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
    method: "POST",
    headers: json(auth),
    body: JSON.stringify({ name: "watched", template_id: template.id })
  })
  if (ws.status !== 200 && ws.status !== 201) throw new Error(`create: ${ws.status} ${JSON.stringify(ws.body)}`)
  for (let i = 0;; i++) {
    const w = await request(`${base}/workspaces/${ws.body.id}`, { headers: auth })
    if (w.body.latest_build?.status === "running") break
    if (i > 1500) throw new Error(`the workspace is not running: ${JSON.stringify(w.body.latest_build)}`)
    await sleep(20)
  }
  return { auth, workspaceId: ws.body.id as string }
}

interface Watcher {
  readonly socket: WebSocket
  /** name → when (performance.now()) this client first received a record with that name. */
  readonly seen: Map<string, number>
  firstData: boolean
  messages: number
  bytes: number
}

/** Opens one watcher; resolves once its first `data` message arrived. */
const openWatcher = (url: string, auth: Headers, timeoutMs: number) =>
  new Promise<Watcher>((resolve, reject) => {
    const socket = new WebSocket(url, { headers: auth, perMessageDeflate: false })
    const w: Watcher = { socket, seen: new Map(), firstData: false, messages: 0, bytes: 0 }
    const timer = setTimeout(() => reject(new Error("no first data message in time")), timeoutMs)
    socket.on("message", (raw) => {
      const at = performance.now()
      w.messages++
      const text = raw.toString()
      w.bytes = text.length
      if (!text.startsWith(`{"type":"data"`)) return
      // The workspace's name, read without parsing the whole record: it is the only name in the
      // record that starts with "watched" (the template is "bench", the resource "box", the agent "main").
      const m = /"name":"(watched[^"]*)"/.exec(text)
      if (m && !w.seen.has(m[1]!)) w.seen.set(m[1]!, at)
      if (!w.firstData) {
        w.firstData = true
        clearTimeout(timer)
        resolve(w)
      }
    })
    socket.once("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
  })

/** CPU time (ms, user + system) a process has used so far, from /proc/<pid>/stat (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!

const run = async (watcherCount: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-watch-"))
  const service = await startService(join(dir, "workbay.db"))
  const base = `http://127.0.0.1:${service.port}/api/v2`
  const watchers: Array<Watcher> = []
  try {
    const { auth, workspaceId } = await seed(base)
    const url = `ws://127.0.0.1:${service.port}/api/v2/workspaces/${workspaceId}/watch-ws`
    log(`opening ${watcherCount} watchers`)
    const t0 = performance.now()
    for (let i = 0; i < watcherCount; i += 50) {
      const batch = await Promise.all(
        Array.from(
          { length: Math.min(50, watcherCount - i) },
          () => openWatcher(url, { [SESSION_HEADER]: auth[SESSION_HEADER]! }, 30_000)
        )
      )
      watchers.push(...batch)
    }
    const openedIn = performance.now() - t0
    const rssIdle = rssMb(service.child.pid)
    await sleep(500)
    const changes = Number(opts.changes)
    const gap = Number(opts.gap)
    const sent: Array<{ name: string; requestAt: number; responseAt: number; status: number }> = []
    log(`${changes} renames, ${gap} ms apart`)
    const cpu0 = { service: cpuMs(service.child.pid!), clients: process.cpuUsage() }
    const wall0 = performance.now()
    for (let i = 0; i < changes; i++) {
      const name = `watched-${i}`
      const requestAt = performance.now()
      const r = await request(`${base}/workspaces/${workspaceId}`, {
        method: "PATCH",
        headers: json(auth),
        body: JSON.stringify({ name })
      })
      const responseAt = performance.now()
      if (r.status !== 204) throw new Error(`PATCH: ${r.status} ${JSON.stringify(r.body)}`)
      sent.push({ name, requestAt, responseAt, status: r.status })
      await sleep(Math.max(0, gap - (responseAt - requestAt)))
    }
    const rssLoaded = rssMb(service.child.pid)
    // Wait for the last change to arrive everywhere (or the timeout).
    const last = sent.at(-1)!.name
    const deadline = performance.now() + Number(opts.timeout)
    while (performance.now() < deadline && watchers.some((w) => !w.seen.has(last))) await sleep(20)

    const wall = performance.now() - wall0
    const clientsCpu = process.cpuUsage(cpu0.clients)
    const cpu = {
      service: (cpuMs(service.child.pid!) - cpu0.service) / wall,
      clients: (clientsCpu.user + clientsCpu.system) / 1000 / wall
    }
    const timeoutMs = Number(opts.timeout)
    const all: Array<number> = []
    const allFromRequest: Array<number> = []
    const perChange = sent.map((c) => {
      const delays: Array<number> = []
      for (const w of watchers) {
        const at = w.seen.get(c.name)
        if (at === undefined || at - c.responseAt > timeoutMs) continue
        delays.push(at - c.responseAt)
        allFromRequest.push(at - c.requestAt)
      }
      delays.sort((a, b) => a - b)
      all.push(...delays)
      return {
        name: c.name,
        patchMs: c.responseAt - c.requestAt,
        got: delays.length,
        p50: quantile(delays, 0.5),
        p99: quantile(delays, 0.99),
        max: delays.at(-1) ?? NaN
      }
    })
    all.sort((a, b) => a - b)
    allFromRequest.sort((a, b) => a - b)
    const gotEvery = watchers.filter((w) => sent.every((c) => w.seen.has(c.name))).length
    const closedEarly = watchers.filter((w) => w.socket.readyState !== WebSocket.OPEN).length
    return {
      watcherCount,
      openedIn,
      cpu,
      messageBytes: watchers[0]?.bytes ?? 0,
      rssIdle,
      rssLoaded,
      perChange,
      gotEvery,
      closedEarly,
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      max: all.at(-1) ?? NaN,
      min: all[0] ?? NaN,
      p99FromRequest: quantile(allFromRequest, 0.99),
      patchP50: quantile(perChange.map((c) => c.patchMs).sort((a, b) => a - b), 0.5)
    }
  } finally {
    for (const w of watchers) w.socket.terminate()
    await service.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const startedAt = new Date()
const load0 = loadavg()
const sizes = opts.watchers.split(",").map(Number)
const results = []
for (const n of sizes) {
  log(`run with ${n} watchers`)
  results.push(await run(n))
}
const lines: Array<string> = ["# Watchers of one workspace", "", machineLine(startedAt, load0), ""]
lines.push(
  `The service in a child process (SQLite file, 2 built-in workers); ${opts.changes} renames (PATCH /workspaces/{id}) ` +
    `${opts.gap} ms apart; delay = a client's receipt of the renamed record minus the PATCH's response (ms), ` +
    `on the client process's clock, which handles every receipt on its one event loop.`,
  ""
)
lines.push(
  "| watchers | opened in (s) | got every change | delay p50 | p99 | max | p99 from the request | PATCH p50 | service RSS idle / after (MB) | CPU service / clients |"
)
lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const r of results) {
  lines.push(
    `| ${r.watcherCount.toLocaleString("en")} | ${fmt(r.openedIn / 1000, 1)} | ${r.gotEvery.toLocaleString("en")} | ${
      fmt(r.p50, 1)
    } | ` +
      `**${fmt(r.p99, 1)}** | ${fmt(r.max, 1)} | ${fmt(r.p99FromRequest, 1)} | ${fmt(r.patchP50, 1)} | ${
        fmt(r.rssIdle, 0)
      } / ${fmt(r.rssLoaded, 0)} | ` +
      `${fmt(r.cpu.service * 100, 0)}% / ${fmt(r.cpu.clients * 100, 0)}% |`
  )
}
for (const r of results) {
  lines.push("", `### ${r.watcherCount.toLocaleString("en")} watchers, per change`, "")
  lines.push("| change | PATCH (ms) | clients got it | p50 | p99 | max |", "|---|---:|---:|---:|---:|---:|")
  for (const c of r.perChange) {
    lines.push(
      `| ${c.name} | ${fmt(c.patchMs, 1)} | ${c.got} | ${fmt(c.p50, 1)} | ${fmt(c.p99, 1)} | ${fmt(c.max, 1)} |`
    )
  }
}
lines.push(
  "",
  `Message size: ${
    results.map((r) => `${r.messageBytes.toLocaleString("en")} characters`).join(", ")
  } (one workspace record). ` +
    "CPU: each process's CPU time over the wall time of the changes phase (100% = one core busy throughout; 2 cores)."
)
writeReport(lines.join("\n") + "\n", "watch.md", { write: !opts["no-write"], log })
process.exit(0)
