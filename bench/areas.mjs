// Areas benchmark (npm run bench:areas): issue 10's items 2 to 7, each figure of the service
// beside a bare server doing the same work in the same run. Not a test: it measures and reports.
//
// 1. Builds the server bundle when it is missing or older than the sources (--build forces it).
// 2. Starts the bundled server (packages/server/dist/main.mjs, default flags) on a fresh data dir
//    and seeds through the API: the first user, a template of the built-in `workbay` provisioner
//    (one machine with one agent), a workspace of it (waited for until it runs), and a group with
//    the first user in it. Then rows straight into the SQLite file, the server stopped: users,
//    audit entries and workspaces up to the first size (copies of the first workspace with their
//    build, job, resource and agent, over the seeded users), and restarts.
// 3. The bare servers: bench/bare/sqlite.mjs (node:http + better-sqlite3: the service's statements
//    for each route and the same JSON) on a VACUUM INTO copy of the database, and the audit
//    baseline of bench/audit.mjs (`--baseline`) on the same copy. Before any load, each route's
//    answers are compared: deep-equal after parsing, nothing ignored.
// 4. Item 2: GET /users/me, /users/me/keys/tokens (three tokens made through the API),
//    /workspaces/{id}, /templates/{id}, /groups/{id}?exclude_members=true, each with the server
//    process's CPU per request over the measured load (issue 46: within 1.4x of the bare one's); item 3:
//    GET /users?limit=50, /audit?limit=50, /workspaces?limit=25 at each size (the first size's
//    workspace page is item 2's fourth read). Each pair is loaded in turn with the same autocannon
//    settings (warm-up, then measured), bare first, for --rounds rounds; best round shown.
// 5. Item 6: start-up (spawn to the first 200 from /buildinfo; cold on a fresh data dir, and the
//    median of --restarts restarts on the seeded database), idle RSS 1 s after start, and RSS 2 s
//    after --rss-duration seconds of load (the six SQLite reads in turn) on a freshly started
//    process; the same for the bare server.
// 6. Item 5 (writes): the service restarted with `--provisioner-daemons 0` (builds stay queued;
//    the workers' rows are marked unseen for a day first, so both servers see the same offline
//    workers), the bare server on a fresh copy. POST /users/{user}/keys/tokens (a new token name
//    each request) and POST /workspaces/{id}/builds {"transition":"start"} (each request a
//    workspace whose last build finished). Answers compared except the generated ids and times,
//    and the audit rows each wrote.
// 7. Item 4 (Postgres): a fresh database (dropped after), the service started with --database-url,
//    the first user seeded through the API, bench/pg-baseline.mjs (node:http + pg, the service's one statement, prepared) on the same database;
//    GET /users/me compared, then loaded in turn.
// 8. Writes bench/results/areas.md: one table (each figure, the bare figure, the ratio, the
//    target), then the details.
//
// Options: --duration 10 --warmup 2 --connections 50 --rounds 2 --sizes 100,100000
//          --rss-duration 60 --restarts 3 --write-connections 50
//          --only reads,lists,process,writes,postgres   (comma-separated; default: all)
//          --pg-url postgres://postgres@127.0.0.1:5432/postgres   (where the bench database is made)
//          --profile   (a CPU profile of the service over each read's first measured load: its top
//                      frames in the report, the profile in /tmp/areas-<read>.cpuprofile)
//          --check-sql   (also run each route once on both servers with bench/bare/sql-log.cjs loaded
//                         and compare the statements they ran)
//          --at-once   (item 2's CPU per request also measured with the bare server and the service loaded
//                      at the same time, half the connections each, --rounds rounds; the CPU rows then give
//                      the median of those rounds' ratios: on a noisy machine loads in turn moved the
//                      ratio by up to 1.5x between rounds, loads at once by a few percent)
//          --build --skip-build --no-write
// Smoke run (about two minutes; the figures mean nothing):
//   node bench/areas.mjs --duration 1 --warmup 0.5 --rounds 1 --rss-duration 2 --restarts 1 --no-write
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time.
import Database from "better-sqlite3"
import { zipSync } from "fflate"
import { randomUUID } from "node:crypto"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { isDeepStrictEqual, parseArgs } from "node:util"
import pg from "pg"
import { KEY_WITH_USER_SQLITE } from "./bare/wire.mjs"
import {
  benchWork,
  buildBundle,
  bundleIsCurrent,
  fmt,
  freePort,
  keepCounts,
  logger,
  machineLine,
  request,
  root,
  rssMb,
  seedFirstUser,
  seedTemplate,
  SESSION_HEADER,
  sleep,
  userInserter,
  vacuumInto,
  warmThenLoad,
  workspaceCloner,
  writeReport
} from "./lib.mjs"
import { startProfile } from "./profile.mjs"

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    "write-connections": { type: "string", default: "50" },
    rounds: { type: "string", default: "2" },
    sizes: { type: "string", default: "100,100000" },
    "rss-duration": { type: "string", default: "60" },
    restarts: { type: "string", default: "3" },
    only: { type: "string" },
    "pg-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    "check-sql": { type: "boolean", default: false },
    build: { type: "boolean", default: false },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    "at-once": { type: "boolean", default: false }
  }
})
const duration = Number(opts.duration)
const warmup = Number(opts.warmup)
const connections = Number(opts.connections)
const writeConnections = Number(opts["write-connections"])
const rounds = Number(opts.rounds)
const sizes = opts.sizes.split(",").map(Number)
const rssDuration = Number(opts["rss-duration"])
const restarts = Number(opts.restarts)
const PARTS = ["reads", "lists", "process", "writes", "postgres"]
const only = opts.only === undefined ? PARTS : opts.only.split(",").map((s) => s.trim())
for (const p of only) if (!PARTS.includes(p)) throw new Error(`--only takes ${PARTS.join(", ")}; not ${p}`)
const doing = (part) => only.includes(part)

const log = logger("bench:areas")
const load0 = loadavg()
const startedAt = new Date()
const t0 = performance.now()

if (opts.build || (!opts["skip-build"] && !bundleIsCurrent())) buildBundle(log)

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
`
const archive = zipSync({ "template.yaml": new TextEncoder().encode(TEMPLATE) })
const SQL_LOG_HOOK = join(root, "bench/bare/sql-log.cjs")
const NIL = "00000000-0000-0000-0000-000000000000"

// --- comparing answers ---------------------------------------------------------------------------
const short = (v) => {
  const s = JSON.stringify(v)
  return s === undefined ? "undefined" : s.length > 80 ? `${s.slice(0, 77)}...` : s
}
/** The paths where `a` and `b` differ (at most 20), `a.b[2].c: <a> vs <b>`. */
const differences = (a, b, path = "", out = []) => {
  if (out.length >= 20 || isDeepStrictEqual(a, b)) return out
  const bothObjects = a !== null && b !== null && typeof a === "object" && typeof b === "object" &&
    Array.isArray(a) === Array.isArray(b)
  if (!bothObjects) {
    out.push({ path: path || ".", text: `${path || "."}: ${short(a)} (workbay) vs ${short(b)} (bare)` })
    return out
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) {
      out.push({ path: `${path}.length`, text: `${path}.length: ${a.length} (workbay) vs ${b.length} (bare)` })
    }
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${path}[${i}]`, out)
    return out
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    differences(a[k], b[k], path ? `${path}.${k}` : k, out)
  }
  return out
}

/**
 * GETs `path` from both servers and compares the parsed answers (once more after a second when
 * they differ: an agent's status moves with the clock). Answers { same, diffs, bytes }.
 */
const compareGet = async (name, workbayBase, bareBase, path, headers) => {
  for (let attempt = 0;; attempt++) {
    const [w, b] = await Promise.all([
      request(`${workbayBase}${path}`, { headers }),
      request(`${bareBase}${path}`, { headers })
    ])
    if (w.status !== 200) throw new Error(`${name}: the service answered ${w.status}: ${short(w.body)}`)
    if (b.status !== 200) throw new Error(`${name}: the bare server answered ${b.status}: ${short(b.body)}`)
    const diffs = differences(w.body, b.body)
    if (diffs.length === 0 || attempt === 1) {
      const bytes = { workbay: JSON.stringify(w.body).length, bare: JSON.stringify(b.body).length }
      if (diffs.length === 0) log(`${name}: same answer (${bytes.workbay} bytes)`)
      else log(`WARNING ${name}: the answers differ:\n  ${diffs.map((d) => d.text).join("\n  ")}`)
      return { same: diffs.length === 0, diffs: diffs.map((d) => d.text), bytes }
    }
    await sleep(1000)
  }
}

// --- seeding straight into SQLite --------------------------------------------------------------
/**
 * Grows the SQLite file to `size` users, audit entries and workspaces, in one transaction, the
 * service stopped: users as run.mjs inserts them (with their memberships); audit entries as
 * audit.mjs does (a spread of kinds over the last 90 days, older than the real ones); workspaces
 * copied from `firstId` with its latest build, job, resources and agents, owned in turn by up to
 * 100 seeded users. The kept counts follow.
 */
const seedTo = (file, size, ctx) => {
  const t = performance.now()
  const db = new Database(file)
  db.pragma("busy_timeout = 5000")
  db.pragma("cache_size = -200000")
  const insertUser = userInserter(db)
  const at = new Date().toISOString()
  const added = { users: 0, audit: 0, workspaces: 0 }
  db.transaction(() => {
    // Users.
    const users = db.prepare("SELECT count(*) AS n FROM users WHERE deleted = 0").get().n
    for (let i = users; i < size; i++) {
      const n = String(i).padStart(6, "0")
      insertUser(ctx.orgId, randomUUID(), `user${n}`, `User ${n}`, at)
      added.users++
    }
    keepCounts(db, ctx.orgId)
    // Audit entries, all older than the real ones.
    const audits = db.prepare("SELECT count(*) AS n, min(time) AS oldest FROM audit_logs").get()
    const insertAudit = db.prepare(
      `INSERT INTO audit_logs (id, time, user_id, organization_id, ip, user_agent, request_id, action, resource_type,
        resource_id, resource_target, resource_icon, diff, status_code, additional_fields, description, build_reason)
       VALUES (?, ?, ?, ?, '10.0.0.1', 'bench/1.0', ?, ?, ?, ?, ?, '', ?, ?, '{}', '', '')`
    )
    const kinds = [
      ["create", "user", 201],
      ["write", "user", 200],
      ["login", "api_key", 201],
      ["create", "organization", 201],
      ["write", "organization", 200],
      ["delete", "api_key", 204],
      ["create", "organization_member", 200],
      ["login", "api_key", 401]
    ]
    const diff = JSON.stringify({
      name: { old: "a", new: "b", secret: false },
      hashed_password: { old: "", new: "", secret: true }
    })
    const end = Date.parse(audits.oldest ?? at) - 1000
    const start = end - 90 * 86_400_000
    const toAdd = Math.max(0, size - audits.n)
    for (let i = 0; i < toAdd; i++) {
      const [action, type, status] = kinds[i % kinds.length]
      const inOrg = type === "organization" || type === "organization_member"
      insertAudit.run(
        randomUUID(),
        new Date(start + Math.floor((i * (end - start)) / Math.max(1, toAdd))).toISOString(),
        ctx.userId,
        inOrg ? ctx.orgId : NIL,
        randomUUID(),
        action,
        type,
        type === "user" ? ctx.userId : randomUUID(),
        `target-${i}`,
        diff,
        status
      )
      added.audit++
    }
    // Workspaces: copies of the first with its latest build, job, resources and agents.
    const cloneWorkspace = workspaceCloner(db, ctx.workspaceId)
    const owners = db.prepare(
      // People only: a workspace of the prebuilds user (a system user) is a prebuild, which the
      // service's reconciler deletes when no preset wants it, and the bare copy would keep.
      "SELECT id, username FROM users WHERE deleted = 0 AND is_system = 0 AND id <> ? ORDER BY lower(username) LIMIT 100"
    ).all(ctx.userId)
    if (owners.length === 0) owners.push({ id: ctx.userId, username: "bench" })
    const workspaces = db.prepare("SELECT count(*) AS n FROM workspaces WHERE deleted = 0").get().n
    for (let i = workspaces; i < size; i++) {
      const owner = owners[i % owners.length]
      cloneWorkspace(i, { owner_id: owner.id, owner_username: owner.username.toLowerCase() })
      added.workspaces++
    }
  })()
  db.pragma("wal_checkpoint(TRUNCATE)")
  db.close()
  log(
    `seeded to ${size.toLocaleString("en-US")}: +${added.users} users, +${added.audit} audit entries, ` +
      `+${added.workspaces} workspaces in ${fmt(performance.now() - t, 0)} ms`
  )
}

// --- loading pairs -------------------------------------------------------------------------------
/**
 * Loads each target in turn (bare first) for `rounds` rounds with the same settings; answers the
 * runs of each target and its best round. A target's `prepare()` runs before each of its loads;
 * after each load a second passes, so requests still queued in a slow server end before the next.
 */
const sideBySide = async (name, targets, { conns = connections } = {}) => {
  const runs = targets.map(() => [])
  for (let r = 0; r < rounds; r++) {
    for (const [i, t] of targets.entries()) {
      t.prepare?.()
      const res = await warmThenLoad(t.url, {
        connections: conns,
        warmup,
        duration,
        headers: t.headers,
        requests: t.requests?.(),
        pid: t.pid?.(),
        around: r === 0 ? t.profile : undefined
      })
      await sleep(1000)
      log(
        `${name}, round ${r + 1}/${rounds}, ${t.name}: ${
          fmt(res.rps, 0)
        } req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, CPU ${fmt(res.cpuUs, 0)} us/request, ` +
          `non-2xx ${res.non2xx}, errors ${res.errors}${
            res.non2xx > 0 ? ` (status codes: ${JSON.stringify(res.statusCodes)})` : ""
          }`
      )
      runs[i].push(res)
    }
  }
  const best = runs.map((rs) => rs.reduce((a, b) => (b.rps > a.rps ? b : a)))
  const profiles = runs.map((rs) => rs[0].profile).filter((p) => p !== undefined)
  return { name, targets: targets.map((t) => t.name), runs, best, conns, profiles }
}

/**
 * Loads the two targets (bare, service) at the same time, half the connections each, for `rounds`
 * rounds; answers each round's CPU per request of both and their ratio (service / bare).
 */
const atOnce = async (name, [bare, service]) => {
  const half = Math.max(1, Math.floor(connections / 2))
  const out = []
  for (let r = 0; r < rounds; r++) {
    const [b, w] = await Promise.all(
      [bare, service].map((t) =>
        warmThenLoad(t.url, { connections: half, warmup, duration, headers: t.headers, pid: t.pid?.() })
      )
    )
    await sleep(1000)
    out.push({ bare: b.cpuUs, workbay: w.cpuUs, ratio: w.cpuUs / b.cpuUs })
    log(
      `${name}, at once ${r + 1}/${rounds}: bare ${fmt(b.cpuUs, 0)} us, workbay ${fmt(w.cpuUs, 0)} us a request ` +
        `(${fmt(w.cpuUs / b.cpuUs, 2)}x), non-2xx ${b.non2xx} / ${w.non2xx}`
    )
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
  return {
    rounds: out,
    bare: median(out.map((o) => o.bare)),
    workbay: median(out.map((o) => o.workbay)),
    ratio: median(out.map((o) => o.ratio))
  }
}

const results = { reads: [], lists: [], writes: [], postgres: undefined, process: undefined, checks: [], sql: [] }
const { work, cleanup, spawn, stop, workbayDir } = benchWork("workbay-bench-areas-")
let pgDatabase
const pgAdmin = () => new pg.Client({ connectionString: opts["pg-url"] })

/** Items 2, 3, 5 and 6: the service and the bare servers on SQLite. */
async function sqliteParts() {
  // --- the service, seeded through the API ------------------------------------------------------
  const wbDir = await workbayDir("workbay")
  // --profile: the service listens for the inspector on SIGUSR1 (bench/profile.mjs).
  const inspectPort = opts.profile ? await freePort() : undefined
  const wbStart = (o = {}) =>
    wbDir.start({ ...o, nodeArgs: inspectPort === undefined ? [] : [`--inspect-port=${inspectPort}`] })
  let wb = await wbStart()
  const cold = { startupMs: wb.startupMs, readyInMs: wb.readyInMs }
  log(`cold start (fresh data dir): ${fmt(cold.startupMs, 0)} ms to the first 200 ("ready in ${cold.readyInMs} ms")`)
  const { base } = wbDir
  const owner = await seedFirstUser(base, { name: "Bench User" })
  const { auth, userId, orgId } = owner
  const jsonHeaders = { ...auth, "content-type": "application/json" }
  const template = await seedTemplate(base, auth, orgId, archive)
  const created = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ name: "first", template_id: template.id })
  })
  if (created.status !== 201 && created.status !== 200) {
    throw new Error(`workspace: ${created.status} ${short(created.body)}`)
  }
  const workspaceId = created.body.id
  for (let i = 0;; i++) {
    const r = await request(`${base}/workspaces/${workspaceId}`, { headers: auth })
    if (r.body.latest_build?.status === "running") break
    if (i > 1000) throw new Error(`the first workspace did not start: ${short(r.body.latest_build)}`)
    await sleep(20)
  }
  const group = await request(`${base}/organizations/${orgId}/groups`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({ name: "bench-group", display_name: "Bench group" })
  })
  if (group.status !== 201) throw new Error(`group: ${group.status} ${short(group.body)}`)
  const added = await request(`${base}/groups/${group.body.id}`, {
    method: "PATCH",
    headers: jsonHeaders,
    body: JSON.stringify({ add_users: [userId] })
  })
  if (added.status !== 200) throw new Error(`group members: ${added.status} ${short(added.body)}`)
  // Three tokens for the token list (the bench's own key is a session, which the list leaves out).
  for (const name of ["bench-a", "bench-b", "bench-c"]) {
    const token = await request(`${base}/users/me/keys/tokens`, {
      method: "POST",
      headers: jsonHeaders,
      body: JSON.stringify({ token_name: name })
    })
    if (token.status !== 201) throw new Error(`token: ${token.status} ${short(token.body)}`)
  }
  const ctx = { userId, orgId, workspaceId, templateId: template.id, groupId: group.body.id }
  log(`seeded through the API: user ${userId}, template ${template.id}, workspace ${workspaceId}, group ${ctx.groupId}`)

  const ME = { key: "me", name: "GET /users/me", path: "/users/me" }
  const READS = [
    ME,
    { key: "tokens", name: "GET /users/me/keys/tokens", path: "/users/me/keys/tokens" },
    { key: "workspace", name: "GET /workspaces/{workspace}", path: `/workspaces/${workspaceId}` },
    { key: "template", name: "GET /templates/{template}", path: `/templates/${template.id}` },
    {
      key: "group",
      name: "GET /groups/{group}?exclude_members=true",
      path: `/groups/${ctx.groupId}?exclude_members=true`
    }
  ]
  const LISTS = [
    { key: "users", name: "GET /users?limit=50", path: "/users?limit=50", bare: "sqlite" },
    { key: "audit", name: "GET /audit?limit=50", path: "/audit?limit=50", bare: "audit" },
    { key: "workspaces", name: "GET /workspaces?limit=25", path: "/workspaces?limit=25", bare: "sqlite" }
  ]
  /** The SQLite reads the RSS load cycles through (all on the one bare server). */
  const MIX = [...READS.filter((r) => r.key !== "tokens"), LISTS[0], LISTS[2]]

  // --- the bare servers on a copy -----------------------------------------------------------------
  const bareDb = join(work, "bare.db")
  const barePort = await freePort()
  const auditPort = await freePort()
  const bareBase = `http://127.0.0.1:${barePort}/api/v2`
  const auditBase = `http://127.0.0.1:${auditPort}/api/v2`
  const startBare = () =>
    spawn([join(root, "bench/bare/sqlite.mjs"), "--db", bareDb, "--port", String(barePort)], `${bareBase}/buildinfo`)
  const startAuditBaseline = () =>
    spawn(
      [join(root, "bench/audit.mjs"), "--baseline", "--db", bareDb, "--port", String(auditPort)],
      `${auditBase}/buildinfo`
    )
  const rmCopy = (file) => {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true })
  }
  /** Stops the service, grows the data to `size`, restarts it and gives the bare servers a fresh copy. */
  let bare
  let auditBare
  const seedAndRestart = async (size) => {
    if (bare) await stop(bare.child)
    if (auditBare) await stop(auditBare.child)
    await stop(wb.child)
    seedTo(wbDir.dbFile, size, ctx)
    // Copied while the service is stopped: it holds its file alone while it runs (--sqlite-locking exclusive).
    rmCopy(bareDb)
    vacuumInto(wbDir.dbFile, bareDb)
    wb = await wbStart()
    bare = await startBare()
    auditBare = await startAuditBaseline()
  }
  const bareFor = (item) => (item.bare === "audit" ? auditBase : bareBase)
  const compareAll = async (items, label) => {
    for (const item of items) {
      const c = await compareGet(`${item.name}${label}`, base, bareFor(item), item.path, auth)
      results.checks.push({ name: `${item.name}${label}`, ...c })
    }
  }

  await seedAndRestart(sizes[0])

  // --- item 6: start-up and idle RSS -----------------------------------------------------------
  if (doing("process")) {
    const warm = []
    for (let i = 0; i < restarts; i++) {
      await stop(wb.child)
      wb = await wbStart()
      warm.push({ startupMs: wb.startupMs, readyInMs: wb.readyInMs })
    }
    await sleep(1000)
    const rssIdle = rssMb(wb.child.pid)
    const bareStarts = []
    for (let i = 0; i < restarts; i++) {
      await stop(bare.child)
      bare = await startBare()
      bareStarts.push(bare.startupMs)
    }
    await sleep(1000)
    const bareRssIdle = rssMb(bare.child.pid)
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    results.process = {
      cold,
      warm,
      startupMs: median(warm.map((w) => w.startupMs)),
      readyInMs: median(warm.map((w) => w.readyInMs ?? NaN)),
      rssIdle,
      bareStartupMs: median(bareStarts),
      bareStarts,
      bareRssIdle
    }
    log(
      `start-up on the seeded database: ${warm.map((w) => `${fmt(w.startupMs, 0)} ms`).join(", ")} (bare: ` +
        `${bareStarts.map((t) => `${fmt(t, 0)} ms`).join(", ")}); idle RSS ${fmt(rssIdle)} MB (bare ${
          fmt(bareRssIdle)
        } MB)`
    )
  }

  // --- answers, and optionally the statements --------------------------------------------------
  await compareAll([...READS, ...LISTS], ` at ${sizes[0].toLocaleString("en-US")} rows`)
  if (opts["check-sql"]) results.sql = await checkSql()

  // --- item 2: one read per area ---------------------------------------------------------------
  /** The bare server and the service for `item`; with `profiled` (a read, under --profile), the service's first load profiled. */
  const pair = (item, profiled = false) => [
    {
      name: "bare",
      url: `${bareFor(item)}${item.path}`,
      headers: auth,
      pid: () => (item.bare === "audit" ? auditBare : bare).child.pid
    },
    {
      name: "workbay",
      url: `${base}${item.path}`,
      headers: auth,
      pid: () => wb.child.pid,
      profile: inspectPort === undefined || !profiled ? undefined : async () => {
        const p = await startProfile(wb.child.pid, inspectPort)
        return () => p.stop(`/tmp/areas-${item.key}.cpuprofile`)
      }
    }
  ]
  if (doing("reads")) {
    for (const item of READS) {
      const measured = await sideBySide(item.name, pair(item, true))
      const together = opts["at-once"] ? await atOnce(item.name, pair(item)) : undefined
      results.reads.push(Object.assign(measured, { key: item.key, atOnce: together }))
    }
  }
  // --- item 3: list pages at each size ---------------------------------------------------------
  // The first size's workspace page is also item 2's fourth read.
  const measureLists = async (size) => {
    for (const item of LISTS) {
      if (!doing("lists") && !(item.key === "workspaces" && size === sizes[0])) continue
      results.lists.push({
        ...(await sideBySide(`${item.name} at ${size.toLocaleString("en-US")} rows`, pair(item))),
        key: item.key,
        size
      })
    }
  }
  if (doing("lists") || doing("reads")) await measureLists(sizes[0])

  // --- item 6: RSS after a load ---------------------------------------------------------------
  if (doing("process")) {
    await stop(wb.child)
    wb = await wbStart()
    await stop(bare.child)
    bare = await startBare()
    const mixRequests = () => MIX.map((item) => ({ method: "GET", path: `/api/v2${item.path}` }))
    const rssLoad = async (name, url, child) => {
      const res = await warmThenLoad(url, {
        connections,
        warmup: 0,
        duration: rssDuration,
        headers: auth,
        requests: mixRequests()
      })
      await sleep(2000)
      const rss = rssMb(child.pid)
      log(
        `${name}: ${rssDuration} s of mixed reads, ${fmt(res.rps, 0)} req/s, non-2xx ${res.non2xx}; RSS 2 s after: ${
          fmt(rss)
        } MB`
      )
      return { res, rss }
    }
    const bareRss = await rssLoad("bare", bareBase, bare.child)
    const wbRss = await rssLoad("workbay", base, wb.child)
    Object.assign(results.process, {
      rssAfterLoad: wbRss.rss,
      bareRssAfterLoad: bareRss.rss,
      rssLoad: { workbay: wbRss.res, bare: bareRss.res }
    })
  }

  // --- item 3 at the larger sizes -----------------------------------------------------------------
  for (const size of sizes.slice(1)) {
    if (!doing("lists") && !doing("writes")) break
    await seedAndRestart(size)
    await compareAll([ME, ...LISTS], ` at ${size.toLocaleString("en-US")} rows`)
    if (doing("lists")) await measureLists(size)
  }

  // --- item 5: writes ------------------------------------------------------------------------------
  if (doing("writes")) {
    await stop(bare.child)
    await stop(auditBare.child)
    auditBare = undefined
    await stop(wb.child)
    const db = new Database(wbDir.dbFile)
    db.prepare("UPDATE provisioner_daemons SET last_seen_at = ?").run(new Date(Date.now() - 86_400_000).toISOString())
    // Workspaces whose latest build is a finished start: each build request takes the next one.
    const pool = db
      .prepare(
        `SELECT w.id FROM workspaces w JOIN workspace_builds b ON b.workspace_id = w.id JOIN provisioner_jobs j ON j.id = b.job_id
         WHERE w.deleted = 0 AND j.completed_at IS NOT NULL
           AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = w.id)
         ORDER BY w.id`
      )
      .all()
      .map((r) => r.id)
    db.pragma("wal_checkpoint(TRUNCATE)")
    db.close()
    rmCopy(bareDb)
    vacuumInto(wbDir.dbFile, bareDb)
    // Normal SQLite locking here only: between loads this bench reads the audit rows and marks
    // queued builds finished straight in the server's file, which exclusive locking (the default)
    // forbids. Writes then cost the service the shared-lock round trip per statement too.
    wb = await wbStart({ args: ["--provisioner-daemons", "0", "--sqlite-locking", "normal"] })
    bare = await startBare()
    results.writes = await measureWrites(pool)
  }
  await stop(wb.child)
  if (bare) await stop(bare.child)
  if (auditBare) await stop(auditBare.child)

  // --- the writes, in a function (they need the pool and the two servers) ----------------------
  async function measureWrites(pool) {
    const out = []
    /** The newest audit entry of `resourceType` (and `target`) in `file`. */
    const auditRow = (file, resourceType, target) => {
      const d = new Database(file, { readonly: true })
      const row = d
        .prepare(
          `SELECT * FROM audit_logs WHERE resource_type = ? ${
            target === undefined ? "" : "AND resource_target = ?"
          } ORDER BY time DESC, id DESC LIMIT 1`
        )
        .get(...(target === undefined ? [resourceType] : [resourceType, target]))
      d.close()
      return row
    }
    /** Compares two audit rows: every column but the generated ones, and the diff's fields. */
    const compareAudit = (name, w, b, generated) => {
      const strip = (r) => {
        const { id, time, request_id, diff, ...rest } = r
        for (const k of generated) delete rest[k]
        return { ...rest, diff: Object.keys(JSON.parse(diff)) }
      }
      const diffs = differences(strip(w), strip(b))
      if (diffs.length > 0) {
        log(`WARNING ${name}: the audit entries differ:\n  ${diffs.map((d) => d.text).join("\n  ")}`)
      } else log(`${name}: same audit entry`)
      return diffs.map((d) => `audit entry: ${d.text}`)
    }
    /** Compares two write answers; `generated` are the paths whose values each request makes anew. */
    const compareWrite = (name, w, b, generated) => {
      const diffs = differences(w.body, b.body).filter((d) => !generated.includes(d.path))
      if (w.status !== b.status) diffs.unshift({ text: `status: ${w.status} (workbay) vs ${b.status} (bare)` })
      if (diffs.length > 0) log(`WARNING ${name}: the answers differ:\n  ${diffs.map((d) => d.text).join("\n  ")}`)
      else log(`${name}: same answer but ${generated.join(", ")}`)
      return diffs.map((d) => d.text)
    }
    const post = (url, body) => request(url, { method: "POST", headers: jsonHeaders, body: JSON.stringify(body) })

    // Tokens: one to compare, then a new name each request.
    {
      const name = "POST /users/{user}/keys/tokens"
      const [w, b] = [
        await post(`${base}/users/${userId}/keys/tokens`, { token_name: "check" }),
        await post(`${bareBase}/users/${userId}/keys/tokens`, { token_name: "check" })
      ]
      const diffs = [
        ...compareWrite(name, w, b, ["key"]),
        ...compareAudit(name, auditRow(wbDir.dbFile, "api_key", "check"), auditRow(bareDb, "api_key", "check"), [])
      ]
      results.checks.push({
        name,
        same: diffs.length === 0,
        diffs,
        bytes: { workbay: JSON.stringify(w.body).length, bare: JSON.stringify(b.body).length }
      })
      const tokenRequests = (prefix) => () => {
        let n = 0
        return [{
          method: "POST",
          path: `/api/v2/users/${userId}/keys/tokens`,
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ token_name: `${prefix}-${n++}` }) })
        }]
      }
      // Names stay unique across rounds: each round's requests() starts its own prefix.
      let round = 0
      const targets = [
        { name: "bare", url: bareBase, headers: jsonHeaders, requests: () => tokenRequests(`b${round++}`)() },
        { name: "workbay", url: base, headers: jsonHeaders, requests: () => tokenRequests(`w${round++}`)() }
      ]
      out.push({ ...(await sideBySide(name, targets, { conns: writeConnections })), key: "tokens" })
    }
    // Builds: each request a workspace whose last build finished (the next of the pool).
    {
      const name = "POST /workspaces/{workspace}/builds (start, queued)"
      const first = pool[0]
      const [w, b] = [
        await post(`${base}/workspaces/${first}/builds`, { transition: "start" }),
        await post(`${bareBase}/workspaces/${first}/builds`, { transition: "start" })
      ]
      const generated = ["id", "created_at", "updated_at", "job.id", "job.created_at", "job.input.workspace_build_id"]
      const diffs = [
        ...compareWrite(name, w, b, generated),
        ...compareAudit(name, auditRow(wbDir.dbFile, "workspace_build"), auditRow(bareDb, "workspace_build"), [
          "resource_id"
        ])
      ]
      results.checks.push({
        name,
        same: diffs.length === 0,
        diffs,
        bytes: { workbay: JSON.stringify(w.body).length, bare: JSON.stringify(b.body).length }
      })
      // Before each load the server's queued builds are marked finished straight in its file (as a
      // worker would), so the pool can be walked again from its start; the check took pool[0].
      const next = { bare: 1, workbay: 1 }
      const used = { bare: 0, workbay: 0 }
      const finishQueued = (who, file) => () => {
        used[who] = Math.max(used[who], next[who])
        const d = new Database(file)
        d.pragma("busy_timeout = 5000")
        const at = new Date().toISOString()
        d.prepare(
          `UPDATE provisioner_jobs SET started_at = ?, completed_at = ?, updated_at = ?
           WHERE type = 'workspace_build' AND started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL`
        ).run(at, at, at)
        d.close()
        next[who] = 0
      }
      const buildRequests = (who) => () => [{
        method: "POST",
        body: JSON.stringify({ transition: "start" }),
        setupRequest: (req) => {
          const i = next[who]++
          if (i === pool.length) {
            log(
              `WARNING: ${who} used every workspace of the pool (${pool.length}) in one load; the next builds answer 409`
            )
          }
          return { ...req, path: `/api/v2/workspaces/${pool[i % pool.length]}/builds` }
        }
      }]
      const targets = [
        {
          name: "bare",
          url: bareBase,
          headers: jsonHeaders,
          requests: buildRequests("bare"),
          prepare: finishQueued("bare", bareDb)
        },
        {
          name: "workbay",
          url: base,
          headers: jsonHeaders,
          requests: buildRequests("workbay"),
          prepare: finishQueued("workbay", wbDir.dbFile)
        }
      ]
      const run = await sideBySide(name, targets, { conns: writeConnections })
      for (const who of ["bare", "workbay"]) used[who] = Math.max(used[who], next[who])
      out.push({ ...run, key: "builds", pool: pool.length, used })
    }
    return out
  }

  // --- Postgres ---------------------------------------------------------------------------------------
  async function checkSql() {
    const wbLog = join(work, "sql-workbay.log")
    const bareLog = join(work, "sql-bare.log")
    writeFileSync(wbLog, "")
    writeFileSync(bareLog, "")
    const copyDir = await workbayDir("sql-check")
    // From the bare servers' copy of the service's file: the service holds its own alone while it runs.
    vacuumInto(bareDb, copyDir.dbFile)
    const bareCopy = join(work, "sql-check-bare.db")
    vacuumInto(bareDb, bareCopy)
    const port = await freePort()
    const checkBase = `http://127.0.0.1:${port}/api/v2`
    const w = await copyDir.start({
      args: ["--provisioner-daemons", "0", "--sqlite-locking", "normal"],
      nodeArgs: ["--require", SQL_LOG_HOOK],
      env: { SQL_LOG: wbLog }
    })
    const b = await spawn(
      ["--require", SQL_LOG_HOOK, join(root, "bench/bare/sqlite.mjs"), "--db", bareCopy, "--port", String(port)],
      `${checkBase}/buildinfo`,
      {
        env: { ...process.env, SQL_LOG: bareLog }
      }
    )
    const auditLog = join(work, "sql-audit.log")
    writeFileSync(auditLog, "")
    const auditCheckPort = await freePort()
    const auditCheckBase = `http://127.0.0.1:${auditCheckPort}/api/v2`
    const a = await spawn(
      [
        "--require",
        SQL_LOG_HOOK,
        join(root, "bench/audit.mjs"),
        "--baseline",
        "--db",
        bareCopy,
        "--port",
        String(auditCheckPort)
      ],
      `${auditCheckBase}/buildinfo`,
      { env: { ...process.env, SQL_LOG: auditLog } }
    )
    /** The statements logged while `path` was served (REQ lines and parameters left out). */
    const statementsOf = async (file, url, init = { headers: auth }) => {
      const from = readFileSync(file, "utf8").length
      const res = await request(url, init)
      if (res.status >= 300) throw new Error(`--check-sql: ${url} answered ${res.status}: ${short(res.body)}`)
      await sleep(100)
      const lines = readFileSync(file, "utf8").slice(from).split("\n").filter((l) => l !== "" && !l.startsWith("REQ "))
      // A direct read the service makes as values runs under its text plus ` /* values */` (storage-sql's
      // DirectReads.ts): the same statement.
      // The authenticated key's read is left out on both sides: the service keeps it up to 10 s
      // (docs/storage.md, "The cache of authenticated keys"), the bare servers read it every time.
      return lines.map((l) => l.replace(/ \[.*\]$/, "").replace(/ \/\* values \*\/$/, "")).filter((l) =>
        !l.startsWith(`all ${KEY_WITH_USER_SQLITE.replace(/\s+/g, " ")}`)
      )
    }
    const out = []
    for (const item of [...READS, ...LISTS]) {
      const ws = await statementsOf(wbLog, `${copyDir.base}${item.path}`)
      const bs = item.bare === "audit"
        ? await statementsOf(auditLog, `${auditCheckBase}${item.path}`)
        : await statementsOf(bareLog, `${checkBase}${item.path}`)
      const same = isDeepStrictEqual(ws, bs)
      if (same) log(`${item.name}: the same ${ws.length} statements`)
      else {log(
          `WARNING ${item.name}: the statements differ:\n  workbay:\n    ${ws.join("\n    ")}\n  bare:\n    ${
            bs.join("\n    ")
          }`
        )}
      out.push({ name: item.name, same, workbay: ws.length, bare: bs.length })
    }
    const writes = [
      {
        name: "POST /users/{user}/keys/tokens",
        path: `/users/${userId}/keys/tokens`,
        body: { token_name: "sql-check" }
      },
      {
        name: "POST /workspaces/{workspace}/builds",
        path: `/workspaces/${workspaceId}/builds`,
        body: { transition: "start" }
      }
    ]
    for (const item of writes) {
      const init = { method: "POST", headers: jsonHeaders, body: JSON.stringify(item.body) }
      const ws = await statementsOf(wbLog, `${copyDir.base}${item.path}`, init)
      const bs = await statementsOf(bareLog, `${checkBase}${item.path}`, init)
      const same = isDeepStrictEqual(ws, bs)
      if (same) log(`${item.name}: the same ${ws.length} statements`)
      else {log(
          `WARNING ${item.name}: the statements differ:\n  workbay:\n    ${ws.join("\n    ")}\n  bare:\n    ${
            bs.join("\n    ")
          }`
        )}
      out.push({ name: item.name, same, workbay: ws.length, bare: bs.length })
    }
    await stop(a.child)
    await stop(b.child)
    await stop(w.child)
    return out
  }
}

/**
 * Item 4: GET /users/me on Postgres, beside bench/pg-baseline.mjs running the service's one
 * statement (key, user and memberships) as a prepared statement, as the service runs it: the
 * strictest bare server (`node bench/pg-me.mjs` also loads the unprepared and older forms).
 */
async function measurePostgres() {
  pgDatabase = `workbay_bench_${process.pid}_${Date.now()}`
  const admin = pgAdmin()
  await admin.connect()
  await admin.query(`CREATE DATABASE ${pgDatabase}`)
  await admin.end()
  const url = new URL(opts["pg-url"])
  url.pathname = `/${pgDatabase}`
  const dir = await workbayDir("workbay-pg")
  const server = await dir.start({ args: ["--database-url", url.toString()] })
  log(`service on Postgres (${pgDatabase}): start-up ${fmt(server.startupMs, 0)} ms (ready in ${server.readyInMs} ms)`)
  const pgOwner = await seedFirstUser(dir.base, { name: "Bench User" })
  const port = await freePort()
  const bareUrl = `http://127.0.0.1:${port}/api/v2`
  const barePg = await spawn(
    [
      join(root, "bench/pg-baseline.mjs"),
      "--url",
      url.toString(),
      "--port",
      String(port),
      "--queries",
      "one",
      "--prepared"
    ],
    `${bareUrl}/buildinfo`
  )
  const check = await compareGet("GET /users/me on Postgres", dir.base, bareUrl, "/users/me", pgOwner.auth)
  results.checks.push({ name: "GET /users/me on Postgres", ...check })
  const run = await sideBySide("GET /users/me on Postgres", [
    { name: "bare", url: `${bareUrl}/users/me`, headers: pgOwner.auth },
    { name: "workbay", url: `${dir.base}/users/me`, headers: pgOwner.auth }
  ])
  await stop(barePg.child)
  await stop(server.child)
  return { ...run, startupMs: server.startupMs }
}

try {
  if (only.some((p) => p !== "postgres")) await sqliteParts()
  if (doing("postgres")) results.postgres = await measurePostgres()
} finally {
  await cleanup()
  if (pgDatabase !== undefined) {
    const admin = pgAdmin()
    try {
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`)
      log(`dropped the Postgres database ${pgDatabase}`)
    } catch (e) {
      log(`WARNING: could not drop ${pgDatabase}: ${e}`)
    } finally {
      await admin.end().catch(() => {})
    }
  }
}

// --- report --------------------------------------------------------------------------------------------
const n0 = (x) => (x === undefined || Number.isNaN(x) ? "n/a" : Math.round(x).toLocaleString("en-US"))
const sameMark = (name) => {
  const cs = results.checks.filter((c) => c.name === name || c.name.startsWith(`${name} at `))
  return cs.length === 0 ? "" : cs.every((c) => c.same) ? "yes" : "**no**"
}
const ratioText = (r) => (Number.isFinite(r) ? `${fmt(r, 2)}x` : "n/a")
const targetText = (
  ratio,
  min
) => (ratio === undefined || Number.isNaN(ratio) ? "" : ratio >= min ? "met" : "**not met**")
const summary = []
const row = (item, measure, w, b, ratio, target, met, same = "") =>
  summary.push(`| ${item} | ${measure} | ${w} | ${b} | ${ratio} | ${target} | ${met} | ${same} |`)
const loadRow = (item, run, label, min, sameName, target = `≥ ${min}x`) => {
  const [b, w] = run.best
  const ratio = w.rps / b.rps
  row(
    item,
    label,
    `${n0(w.rps)} req/s, p99 ${w.p99} ms`,
    `${n0(b.rps)} req/s, p99 ${b.p99} ms`,
    ratioText(ratio),
    target,
    targetText(ratio, min),
    sameMark(sameName)
  )
}
for (const r of results.reads) loadRow(2, r, r.name, 0.5, r.name, "≥ 0.5x (aim 0.7x)")
// Issue 46: the server's CPU per request of the authenticated reads, within 1.4x of the bare server's.
for (const r of results.reads) {
  const [b, w] = r.best
  if (b.cpuUs === undefined || w.cpuUs === undefined) continue
  const together = r.atOnce
  const ratio = together === undefined ? w.cpuUs / b.cpuUs : together.ratio
  row(
    2,
    together === undefined
      ? `${r.name}: server CPU per request`
      : `${r.name}: server CPU per request (loaded at once, median of ${together.rounds.length} rounds)`,
    `${fmt(together?.workbay ?? w.cpuUs, 0)} us`,
    `${fmt(together?.bare ?? b.cpuUs, 0)} us`,
    `${fmt(ratio, 2)}x`,
    "≤ 1.4x (issue 46)",
    ratio <= 1.4 ? "met" : "**not met**",
    sameMark(r.name)
  )
}
const firstWorkspaces = results.lists.find((l) => l.key === "workspaces" && l.size === sizes[0])
if (firstWorkspaces) loadRow(2, firstWorkspaces, firstWorkspaces.name, 0.5, firstWorkspaces.name, "≥ 0.5x (aim 0.7x)")
for (const key of ["users", "audit", "workspaces"]) {
  const bySize = results.lists.filter((l) => l.key === key)
  if (!doing("lists")) break
  for (const l of bySize) loadRow(3, l, l.name, 0.5, l.name, "within 2x (≥ 0.5x)")
  if (bySize.length >= 2) {
    const [s, g] = [bySize[0], bySize[bySize.length - 1]]
    const wr = g.best[1].rps / s.best[1].rps
    const br = g.best[0].rps / s.best[0].rps
    row(
      3,
      `${s.name.replace(/ at .*/, "")}: ${g.size.toLocaleString("en-US")} vs ${
        s.size.toLocaleString("en-US")
      } rows (req/s)`,
      ratioText(wr),
      ratioText(br),
      "",
      "same cost (1.00x)",
      "",
      ""
    )
  }
}
if (results.postgres) {
  loadRow(4, results.postgres, "GET /users/me on Postgres", 0.8, "GET /users/me on Postgres", "≥ 0.8x")
}
for (const w of results.writes) loadRow(5, w, w.name, 0.4, w.name, "≥ 0.4x")
if (results.process) {
  const p = results.process
  row(
    6,
    "idle RSS, 1 s after start",
    `${fmt(p.rssIdle)} MB`,
    `${fmt(p.bareRssIdle)} MB`,
    `${fmt(p.rssIdle / p.bareRssIdle, 2)}x`,
    "< 90 MB",
    p.rssIdle < 90 ? "met" : "**not met**"
  )
  row(
    6,
    `start-up, spawn → first 200, median of ${p.warm.length} restarts`,
    `${fmt(p.startupMs, 0)} ms`,
    `${fmt(p.bareStartupMs, 0)} ms`,
    `${fmt(p.startupMs / p.bareStartupMs, 2)}x`,
    "< 500 ms",
    p.startupMs < 500 ? "met" : "**not met**"
  )
  if (p.rssAfterLoad !== undefined) {
    row(
      6,
      `RSS 2 s after ${rssDuration} s of load (the six reads in turn, ${connections} connections)`,
      `${fmt(p.rssAfterLoad)} MB`,
      `${fmt(p.bareRssAfterLoad)} MB`,
      `${fmt(p.rssAfterLoad / p.bareRssAfterLoad, 2)}x`,
      "< 130 MB",
      p.rssAfterLoad < 130 ? "met" : "**not met**"
    )
  }
}

const lines = [
  "# Areas benchmark: the service beside bare servers (issue 10, items 2-7)",
  "",
  `${machineLine(startedAt, load0)} · run time ${fmt((performance.now() - t0) / 1000, 0)} s`,
  "",
  `Command: \`node bench/areas.mjs ${
    process.argv.slice(2).join(" ")
  }\`. autocannon in the bench process, to 127.0.0.1; ` +
  `${connections} connections for reads (${writeConnections} for writes), ${warmup} s warm-up, ${duration} s measured, ` +
  `${rounds} round${rounds > 1 ? "s (bare, then the service, each round; best round shown)" : ""}. ` +
  "Numbers on a busy 2-core machine are noisy: compare the ratios.",
  "",
  "| item | measure | Workbay | bare | ratio | target | | same answer |",
  "|---:|---|---:|---:|---:|---|---|---|",
  ...summary,
  ""
]
const detail = (title, list) => {
  if (list.length === 0) return
  lines.push(
    `## ${title}`,
    "",
    "| route | server | req/s | p50 ms | p99 ms | max ms | CPU us/request | non-2xx | all rounds (req/s) |",
    "|---|---|---:|---:|---:|---:|---:|---:|---|"
  )
  for (const r of list) {
    for (const [i, t] of r.targets.entries()) {
      const b = r.best[i]
      lines.push(
        `| ${r.name} | ${t} | ${n0(b.rps)} | ${b.p50} | ${b.p99} | ${b.max} | ${fmt(b.cpuUs, 0)} | ${
          r.runs[i].reduce((n, x) => n + x.non2xx + x.errors, 0)
        } | ` +
          `${r.runs[i].map((x) => n0(x.rps)).join(", ")} |`
      )
    }
  }
  lines.push("")
}
detail("Reads (item 2)", results.reads)
for (const r of results.reads.filter((r) => r.profiles?.length > 0)) {
  lines.push(`### CPU profile of the service: ${r.name} (--profile, first measured load)`, "", r.profiles[0], "")
}
detail("List pages (item 3)", results.lists)
detail("Postgres (item 4)", results.postgres ? [results.postgres] : [])
detail("Writes (item 5)", results.writes)
if (results.writes.length > 0) {
  const builds = results.writes.find((w) => w.key === "builds")
  if (builds) {
    lines.push(
      `Builds: a pool of ${
        builds.pool.toLocaleString("en-US")
      } workspaces whose last build finished; the most one load took: ` +
        `${builds.used.bare.toLocaleString("en-US")} (bare), ${
          builds.used.workbay.toLocaleString("en-US")
        } (Workbay). Before each load the ` +
        "server's queued builds are marked finished in its file, so each load walks the pool from its start.",
      ""
    )
  }
}
if (results.process) {
  const p = results.process
  lines.push(
    "## Process (item 6)",
    "",
    `- cold start on a fresh data dir (migrations run): ${
      fmt(p.cold.startupMs, 0)
    } ms (the server's own "ready in": ${p.cold.readyInMs} ms)`,
    `- restarts on the seeded database: ${
      p.warm.map((w) => `${fmt(w.startupMs, 0)} ms (ready in ${w.readyInMs} ms)`).join(", ")
    }; bare: ${p.bareStarts.map((t) => `${fmt(t, 0)} ms`).join(", ")}`,
    ...(p.rssLoad
      ? [
        `- the RSS load: Workbay ${n0(p.rssLoad.workbay.rps)} req/s, bare ${
          n0(p.rssLoad.bare.rps)
        } req/s (non-2xx: ${p.rssLoad.workbay.non2xx} / ${p.rssLoad.bare.non2xx})`
      ]
      : []),
    ""
  )
}
lines.push(
  "## Answers compared before loading",
  "",
  "| request | same | bytes (Workbay / bare) | differences |",
  "|---|---|---:|---|"
)
for (const c of results.checks) {
  lines.push(
    `| ${c.name} | ${c.same ? "yes" : "**no**"} | ${c.bytes ? `${c.bytes.workbay} / ${c.bytes.bare}` : ""} | ${
      c.diffs.map((d) => d.replaceAll("|", "\\|")).join("<br>")
    } |`
  )
}
lines.push("")
if (results.sql.length > 0) {
  lines.push("## Statements (--check-sql)", "", "| request | same statements | Workbay | bare |", "|---|---|---:|---:|")
  for (const s of results.sql) lines.push(`| ${s.name} | ${s.same ? "yes" : "**no**"} | ${s.workbay} | ${s.bare} |`)
  lines.push("")
}
writeReport(lines.join("\n"), "areas.md", { write: !opts["no-write"], log })
process.exit(0)
