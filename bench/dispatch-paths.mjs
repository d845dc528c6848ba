// The dispatcher's paths other than GET /users/me, for an A/B of two builds of the server: each
// path is loaded on the current bundle and on every `--extra` bundle in turn (same data, same
// autocannon settings, alternating for `--rounds` rounds), with each server process's CPU time
// per request over the measured load. Not a test: it measures and reports.
//
//   node bench/dispatch-paths.mjs --extra <other build>/main.mjs [--duration 5 --warmup 1 --rounds 2 --only miss,anon]
//
// Paths (the part of the request path each exercises most):
//   miss      GET /api/v2/nope                                   the router's miss (404), no fiber
//   anon      GET /api/v2/users/me, no token                     401 before any fiber
//   config    GET /api/v2/users/me/keys/tokens/tokenconfig       authentication, path decoding, a small answer
//   query     GET /api/v2/users/me/keys/tokens?include_all=false query decoding, a list read
//   invalid   POST /api/v2/users/me/keys/tokens {"lifetime":"x"} body decoding, a 400 with validations, the audit entry
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time.
import { parseArgs } from "node:util"
import { benchWork, bundle, cpuMs, fmt, load, logger, seedFirstUser, vacuumInto } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "2" },
    extra: { type: "string", multiple: true },
    only: { type: "string" }
  }
})
const duration = Number(opts.duration)
const warmup = Number(opts.warmup)
const connections = Number(opts.connections)
const rounds = Number(opts.rounds)
const log = logger("dispatch-paths")

const { cleanup, stop, workbayDir } = benchWork("workbay-dispatch-")
try {
  const first = await workbayDir("first", bundle)
  let child = (await first.start()).child
  const { auth } = await seedFirstUser(first.base, { name: "Bench User" })
  await stop(child)
  // Each build serves its own copy of the seeded database (the server holds its file alone).
  const builds = []
  for (const [i, entry] of [bundle, ...(opts.extra ?? [])].entries()) {
    const dir = await workbayDir(`build-${i}`, entry)
    vacuumInto(first.dbFile, dir.dbFile)
    builds.push({ name: i === 0 ? "current" : `extra: ${entry}`, base: dir.base, child: (await dir.start()).child })
  }
  const json = { ...auth, "content-type": "application/json" }
  const all = [
    { name: "miss", path: "/nope", status: 404 },
    { name: "anon", path: "/users/me", status: 401, headers: {} },
    { name: "config", path: "/users/me/keys/tokens/tokenconfig", status: 200 },
    { name: "query", path: "/users/me/keys/tokens?include_all=false", status: 200 },
    { name: "invalid", path: "/users/me/keys/tokens", status: 400, method: "POST", body: "{\"lifetime\":\"x\"}" }
  ]
  const paths = opts.only === undefined ? all : all.filter((p) => opts.only.split(",").includes(p.name))
  const results = paths.map(() => builds.map(() => []))
  for (const [p, path] of paths.entries()) {
    const headers = path.headers ?? (path.method === "POST" ? json : auth)
    const requests = [{ method: path.method ?? "GET", ...(path.body === undefined ? {} : { body: path.body }) }]
    for (let r = 0; r < rounds; r++) {
      for (const [b, build] of builds.entries()) {
        const url = `${build.base}${path.path}`
        if (warmup > 0) await load(url, { connections, duration: warmup, headers, requests })
        const cpu0 = cpuMs(build.child.pid)
        const res = await load(url, { connections, duration, headers, requests })
        const cpu1 = cpuMs(build.child.pid)
        res.cpuUs = ((cpu1 - cpu0) * 1000) / res.total
        const wrong = Object.entries(res.statusCodes).filter(([code]) => Number(code) !== path.status)
        if (wrong.length > 0 || res.errors > 0) {
          throw new Error(`${path.name} on ${build.name}: ${JSON.stringify(res.statusCodes)}, ${res.errors} errors`)
        }
        log(`${path.name} round ${r + 1}, ${build.name}: ${fmt(res.rps, 0)} req/s, CPU ${fmt(res.cpuUs, 0)} us/request`)
        results[p][b].push(res)
      }
    }
  }
  const lines = [
    `| path | ${builds.map((b) => `${b.name}: req/s (CPU us/request), each round`).join(" | ")} |`,
    `|---|${builds.map(() => "---:").join("|")}|`
  ]
  for (const [p, path] of paths.entries()) {
    const cells = results[p].map((rs) => rs.map((r) => `${fmt(r.rps, 0)} (${fmt(r.cpuUs, 0)})`).join(", "))
    lines.push(`| ${path.name} | ${cells.join(" | ")} |`)
  }
  console.log(lines.join("\n"))
} finally {
  await cleanup()
}
