// In-process A/B of two dispatchers: the current `makeDispatcher` and another module's (`--base`,
// e.g. an older Dispatcher.ts copied into packages/http/src so that its imports resolve), both made
// on the same runtime (one in-memory SQLite service), then loaded in alternating batches on the
// same paths, `--in-flight` requests at a time. CPU per request from process.cpuUsage(), the median
// of `--rounds` batches of each: no HTTP, no sockets, only the dispatcher and what the route does.
// Not a test: it measures and reports.
//
//   git show <commit>:packages/http/src/Dispatcher.ts > packages/http/src/DispatcherBase.ts
//   node --conditions=@workbay/source --import tsx bench/dispatcher-ab.ts --base packages/http/src/DispatcherBase.ts
//   rm packages/http/src/DispatcherBase.ts
import {
  type Dispatcher,
  implementations,
  makeDispatcher,
  makeWorkbay,
  type RawRequest,
  type RawResponse,
  WorkbayApi
} from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"

const { values: opts } = parseArgs({
  options: {
    base: { type: "string" },
    rounds: { type: "string", default: "15" },
    batch: { type: "string", default: "3000" },
    "in-flight": { type: "string", default: "10" }
  }
})
if (opts.base === undefined) throw new Error("--base names the module of the other makeDispatcher")
const rounds = Number(opts.rounds)
const batch = Number(opts.batch)
const inFlight = Number(opts["in-flight"])

const base = (await import(pathToFileURL(resolve(opts.base)).href)) as { makeDispatcher: typeof makeDispatcher }
const workbay = await makeWorkbay(Sqlite.layerMemory, {
  passwordHashCost: 4,
  workers: false,
  retention: false,
  hangDetector: false,
  lifecycle: false,
  agentMonitor: false,
  notifier: false,
  insightsRollup: false,
  proxyHealth: false
})
const runtime = await workbay.run(Effect.runtime<never>())
// Rate limits off: one caller sends far more than its share.
const make = (f: typeof makeDispatcher) => f(WorkbayApi, implementations as any, runtime as any, { rateLimits: false })
const builds = { base: make(base.makeDispatcher), current: make(makeDispatcher) }

const call = (d: Dispatcher, req: RawRequest) => new Promise<RawResponse>((done) => d.handle(req, done))
const raw = (method: string, url: string, headers: Record<string, string> = {}, body?: string): RawRequest => ({
  method,
  url,
  headers: { host: "127.0.0.1", ...headers },
  body,
  remoteAddress: "127.0.0.1"
})
const json = { "content-type": "application/json" }
const password = "Bench-Password-2024!x"
const first = await call(
  builds.current,
  raw("POST", "/api/v2/users/first", json, JSON.stringify({ email: "a@example.com", username: "bench", password }))
)
if (first.status !== 201) throw new Error(`POST /users/first answered ${first.status}: ${String(first.body)}`)
const login = await call(
  builds.current,
  raw("POST", "/api/v2/users/login", json, JSON.stringify({ email: "a@example.com", password }))
)
const auth = { "service-session-token": JSON.parse(String(login.body)).session_token as string }

const paths: ReadonlyArray<readonly [string, RawRequest, number]> = [
  ["GET /api/v2/nope (the router's miss, 404)", raw("GET", "/api/v2/nope"), 404],
  ["GET /users/me without a token (401)", raw("GET", "/api/v2/users/me"), 401],
  ["GET /users/me", raw("GET", "/api/v2/users/me", auth), 200],
  ["HEAD /users/me", raw("HEAD", "/api/v2/users/me", auth), 200],
  ["GET /users/me/keys/tokens/tokenconfig", raw("GET", "/api/v2/users/me/keys/tokens/tokenconfig", auth), 200],
  [
    "GET /users/me/keys/tokens?include_all=false",
    raw("GET", "/api/v2/users/me/keys/tokens?include_all=false", auth),
    200
  ],
  [
    "POST /users/me/keys/tokens, a bad body (400, audit entry)",
    raw("POST", "/api/v2/users/me/keys/tokens", { ...auth, ...json }, "{\"lifetime\":\"x\"}"),
    400
  ]
]

/** CPU (user + system) per request of `batch` requests, `inFlight` at a time. */
const cpuPerRequest = async (d: Dispatcher, req: RawRequest, status: number) => {
  let left = batch
  const worker = async () => {
    while (left-- > 0) {
      const r = await call(d, req)
      if (r.status !== status) throw new Error(`${req.method} ${req.url} answered ${r.status}: ${String(r.body)}`)
    }
  }
  const before = process.cpuUsage()
  await Promise.all(Array.from({ length: inFlight }, worker))
  const used = process.cpuUsage(before)
  return (used.user + used.system) / batch
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const lines = [
  `| path | base us/request | current | current / base |`,
  "|---|---:|---:|---:|"
]
for (const [name, req, status] of paths) {
  // A warm-up batch of each: the route's schemas compile on first use, and the JIT settles.
  for (const d of Object.values(builds)) await cpuPerRequest(d, req, status)
  const got = { base: [] as Array<number>, current: [] as Array<number> }
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 === 0 ? (["base", "current"] as const) : (["current", "base"] as const)) {
      got[k].push(await cpuPerRequest(builds[k], req, status))
    }
  }
  const [b, c] = [median(got.base), median(got.current)]
  lines.push(`| ${name} | ${b.toFixed(1)} | ${c.toFixed(1)} | ${(c / b).toFixed(2)} |`)
}
console.log(
  `Median of ${rounds} alternating batches of ${batch} requests, ${inFlight} in flight.\n\n${lines.join("\n")}`
)
await workbay.dispose()
