// Subdomain apps against path apps through the app proxy (npm run bench:subdomain-apps). Not a test: it measures and reports.
//
// The service runs as the standalone bundle (packages/server/dist/main.mjs, built when not current)
// in its own process, on SQLite in a temp folder, with --wildcard-access-url *.apps.bench; the
// reference agent (packages/agent/bin, the bundle) runs in its own process as the external agent
// of a `workbay` template's workspace with two apps on one small HTTP server of the bench process:
// `web` (path: /@bench/ws.main/apps/web/) and `sub` (subdomain: Host sub--main--ws--bench.apps.bench).
// Both carry the same request through the same agent connection; what differs is how the app is
// named and authenticated (the session header on the path, the app session cookie of the exchange
// on the subdomain). Beside them, the app asked directly (the floor).
// (1) Sequential: --samples GETs of a 2 KiB answer per form, interleaved in --rounds rounds, on one
//     keep-alive connection each: p50, p99, ratio subdomain/path.
// (2) Throughput: --connections concurrent keep-alive clients for --seconds s per form, interleaved:
//     requests per second, ratio subdomain/path.
// Writes bench/results/subdomain-apps.md. Options: --samples 2000 --rounds 3 --connections 16 --seconds 5 --no-write.
import { zipSync } from "fflate"
import { type ChildProcess, spawn as spawnChild } from "node:child_process"
import { mkdirSync } from "node:fs"
import { Agent, createServer, request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import {
  benchWork,
  buildBundle,
  bundle,
  bundleIsCurrent,
  fmt,
  logger,
  machineLine,
  request,
  root,
  seedFirstUser,
  seedTemplate,
  sleep,
  stop,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    samples: { type: "string", default: "2000" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "16" },
    seconds: { type: "string", default: "5" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("subdomain-apps")
const samples = Number(opts.samples)
const rounds = Number(opts.rounds)
const connections = Number(opts.connections)
const seconds = Number(opts.seconds)
const startedAt = new Date()
const load0 = loadavg()
const AGENT_BIN = join(root, "packages/agent/bin/workbay-agent.mjs")
const BODY = Buffer.alloc(2048, "x")

if (!bundleIsCurrent()) buildBundle(log)
const work = benchWork("workbay-bench-subdomain-")
const undo: Array<() => Promise<unknown>> = []
const cleanup = async () => {
  for (const u of undo.reverse()) await u().catch((e) => log(`cleanup: ${(e as Error).message}`))
  await work.cleanup()
}
process.removeAllListeners("SIGINT")
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)))

const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** One form of asking: where the request goes, with which Host and headers. */
interface Form {
  readonly name: string
  readonly port: number
  readonly path: string
  readonly headers: Record<string, string>
}

/** One GET on `agent` (keep-alive); resolves with its status once the body is read. */
const get = (form: Form, agent: Agent) =>
  new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: form.port, path: form.path, headers: form.headers, agent },
      (res) => {
        res.resume()
        res.on("end", () => resolve(res.statusCode ?? 0))
      }
    )
    req.on("error", reject)
    req.end()
  })

const sequential = async (form: Form, n: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const times: Array<number> = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    const status = await get(form, agent)
    times.push(performance.now() - t0)
    if (status !== 200) throw new Error(`${form.name}: ${status}`)
  }
  agent.destroy()
  return times
}

const throughput = async (form: Form) => {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const until = performance.now() + seconds * 1000
  let done = 0
  let failed = 0
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) {
      if ((await get(form, agent)) === 200) done++
      else failed++
    }
  }))
  agent.destroy()
  return { rps: done / seconds, failed }
}

const report: Array<string> = []
try {
  const app = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain", "content-length": String(BODY.length) })
    res.end(BODY)
  })
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()))
  undo.push(() => new Promise((r) => app.close(r)))
  const appPort = (app.address() as AddressInfo).port

  const dir = await work.workbayDir("single", bundle)
  const url = `http://127.0.0.1:${dir.port}`
  const server = await dir.start({
    args: ["--access-url", url, "--provisioner-daemons", "1", "--wildcard-access-url", "*.apps.bench"]
  })
  const { orgId, auth } = await seedFirstUser(dir.base)
  const template = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        external: true
        apps:
          - slug: web
            url: http://127.0.0.1:${appPort}
          - slug: sub
            url: http://127.0.0.1:${appPort}
            subdomain: true
`
  const t = await seedTemplate(
    dir.base,
    auth,
    orgId,
    zipSync({ "template.yaml": new TextEncoder().encode(template) }),
    "apps"
  )
  const created = await request(`${dir.base}/organizations/${orgId}/members/me/workspaces`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name: "ws", template_id: t.id })
  })
  let w: any
  for (let i = 0;; i++) {
    w = (await request(`${dir.base}/workspaces/${created.body.id}`, { headers: auth })).body
    if (w.latest_build.job.status === "succeeded") break
    if (i > 1000) throw new Error(`build: ${JSON.stringify(w.latest_build.job)}`)
    await sleep(20)
  }
  const agentId: string = w.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id
  const credentials = await request(`${dir.base}/workspaces/${w.id}/external-agent/main/credentials`, { headers: auth })
  const agentDir = join(work.work, "agent")
  mkdirSync(agentDir)
  const agent: ChildProcess = spawnChild(
    process.execPath,
    [AGENT_BIN, "--url", url, "--token", credentials.body.agent_token, "--directory", agentDir, "--log-dir", agentDir],
    { env: { ...process.env, HOME: agentDir }, stdio: "ignore" }
  )
  undo.push(() => stop(agent))
  for (let i = 0;; i++) {
    const a = (await request(`${dir.base}/workspaceagents/${agentId}`, { headers: auth })).body
    if (a.status === "connected" && a.lifecycle_state === "ready") break
    if (i > 1500) throw new Error(`the agent did not connect: ${JSON.stringify(a)}`)
    await sleep(20)
  }

  // The subdomain form's session: the browser's exchange (303 → auth-redirect → key → cookie).
  const host = "sub--main--ws--bench.apps.bench"
  const viaHost = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, any> }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: dir.port, path, headers: { host, ...headers } }, (res) => {
        res.resume()
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
      })
      req.on("error", reject)
      req.end()
    })
  const first = await viaHost("/")
  const handed = await fetch(first.headers.location, { headers: auth, redirect: "manual" })
  const back = new URL(handed.headers.get("location")!)
  const exchanged = await viaHost(back.pathname + back.search)
  if (exchanged.status !== 307) throw new Error(`exchange: ${exchanged.status}`)
  const cookie = String(exchanged.headers["set-cookie"][0]).split(";")[0]!

  const forms: Array<Form> = [
    { name: "path", port: dir.port, path: "/@bench/ws.main/apps/web/", headers: auth },
    { name: "subdomain", port: dir.port, path: "/", headers: { host, cookie } },
    { name: "direct", port: appPort, path: "/", headers: {} }
  ]
  for (const f of forms) await sequential(f, 200) // warm-up
  const times: Record<string, Array<number>> = { path: [], subdomain: [], direct: [] }
  const rates: Record<string, Array<number>> = { path: [], subdomain: [], direct: [] }
  for (let r = 0; r < rounds; r++) {
    for (const f of forms) times[f.name]!.push(...(await sequential(f, Math.ceil(samples / rounds))))
    for (const f of forms) {
      const { rps, failed } = await throughput(f)
      if (failed > 0) throw new Error(`${f.name}: ${failed} requests failed`)
      rates[f.name]!.push(rps)
    }
    log(`round ${r + 1}/${rounds} done`)
  }
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
  const p = (name: string, q: number) => percentile(times[name]!, q)
  report.push(
    "# Subdomain apps against path apps through the app proxy",
    "",
    machineLine(startedAt, load0),
    "",
    "`npm run bench:subdomain-apps` (bench/subdomain-apps.ts): the standalone server (SQLite) and the reference",
    "agent in their own processes, one app server in the bench process; the same 2 KiB GET through the same",
    "agent connection, named by its path (`/@bench/ws.main/apps/web/`, the session header) or by its host",
    "(`sub--main--ws--bench.apps.bench`, the app session cookie of the auth-redirect exchange); the app asked",
    "directly as the floor. Forms interleaved in rounds.",
    "",
    `## Sequential (${samples} requests per form, one keep-alive connection), ms`,
    "",
    "| form | p50 | p99 |",
    "|---|---|---|",
    ...forms.map((f) => `| ${f.name} | ${fmt(p(f.name, 50), 3)} | ${fmt(p(f.name, 99), 3)} |`),
    "",
    `Ratio subdomain/path: p50 ${fmt(p("subdomain", 50) / p("path", 50), 2)}, p99 ${
      fmt(p("subdomain", 99) / p("path", 99), 2)
    }.`,
    "",
    `## Throughput (${connections} keep-alive clients, ${seconds} s per form per round), requests/s`,
    "",
    "| form | mean | rounds |",
    "|---|---|---|",
    ...forms.map((f) =>
      `| ${f.name} | ${fmt(mean(rates[f.name]!), 0)} | ${rates[f.name]!.map((x) => fmt(x, 0)).join(", ")} |`
    ),
    "",
    `Ratio subdomain/path: ${fmt(mean(rates.subdomain!) / mean(rates.path!), 2)}.`,
    "",
    `Service pid ${server.child.pid}, agent pid ${agent.pid}.`
  )
} finally {
  await cleanup()
}
writeReport(report.join("\n") + "\n", "subdomain-apps.md", { write: !opts["no-write"], log })
