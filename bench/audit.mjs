// Audit log benchmark (node bench/audit.mjs). Not a test: it measures and reports.
//
// 1. Builds the server bundle (node scripts/build.mjs) when packages/server/dist/main.mjs is
//    missing, older than any source file or made by another Node version (as scripts/ensure.mjs).
// 2. For each size (1,000 and 1,000,000 audit rows): starts the bundled server on a fresh
//    data dir, seeds the first user and a session through the API, stops it, inserts the rows
//    straight into the SQLite file in one transaction (one prepared statement in a loop, the
//    table's indexes dropped and made again inside it), checkpoints the WAL and restarts it.
// 3. Starts the bare baseline (this script with --baseline: node:http + better-sqlite3) on
//    the same file. Per request it does what Workbay does for an owner: the API key row,
//    sha256 of the secret compared in constant time, expiry, the user row, then the page of
//    50 newest entries on the (time, id) index, the count capped at 2,001, the page's users
//    (one query), their memberships (one query), its organizations (one query), and the JSON.
// 4. Checks both answer GET /api/v2/audit?limit=50 with the same count and the same ids, then
//    loads each with autocannon (warm-up, then the measured run) and reports req/s, p50/p99
//    and the ratio to the baseline. Writes bench/results/audit.md.
//
// Options: --sizes 1000,1000000 --duration 5 --warmup 2 --connections 10 --skip-build --no-write
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time (about 1-2 minutes).
import Database from "better-sqlite3"
import { createHash, randomUUID, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import { loadavg } from "node:os"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const { values: opts } = parseArgs({
  options: {
    baseline: { type: "boolean", default: false },
    db: { type: "string" },
    port: { type: "string", default: "0" },
    sizes: { type: "string", default: "1000,1000000" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false }
  }
})

const NIL = "00000000-0000-0000-0000-000000000000"
const COUNT_CAP = 2000

// --- the baseline server (this script with --baseline) ----------------------------------------
if (opts.baseline) {
  if (opts.db === undefined) throw new Error("--db <file> is required")
  const db = new Database(opts.db)
  db.pragma("journal_mode = WAL")
  db.pragma("busy_timeout = 5000")
  db.pragma("synchronous = NORMAL")
  const keyById = db.prepare("SELECT * FROM api_keys WHERE id = ?")
  const userById = db.prepare("SELECT * FROM users WHERE id = ?")
  const page = db.prepare("SELECT * FROM audit_logs ORDER BY time DESC, id DESC LIMIT ? OFFSET ?")
  const count = db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM audit_logs LIMIT ${COUNT_CAP + 1}) capped`)
  const inList = (n) => Array.from({ length: n }, () => "?").join(", ")
  const ROLE_NAMES = { owner: "Owner", "user-admin": "User Admin", auditor: "Auditor", "template-admin": "Template Admin" }
  const FRIENDLY = { create: "created", write: "updated", delete: "deleted", login: "logged in", logout: "logged out" }
  const sameHash = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
  const send = (res, status, body) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) })
    res.end(text)
  }
  // Empty optional fields are left out, as Workbay (and the described system) answers them.
  const { reducedUserJson } = await import("./lib.mjs")
  const toUser = (u, orgIds) => {
    const user = reducedUserJson(u)
    user.has_ai_seat = false
    user.organization_ids = orgIds
    user.roles = JSON.parse(u.rbac_roles).map((name) => ({ display_name: ROLE_NAMES[name] ?? name, name }))
    return user
  }
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const q = req.url.indexOf("?")
    const path = q < 0 ? req.url : req.url.slice(0, q)
    if (req.method === "GET" && path === "/api/v2/buildinfo") return send(res, 200, { version: "baseline" })
    if (req.method !== "GET" || path !== "/api/v2/audit") return send(res, 404, { message: "Route not found." })
    const token = req.headers["service-session-token"]
    if (typeof token !== "string" || token[10] !== "-") return send(res, 401, { message: "Invalid API key format." })
    const key = keyById.get(token.slice(0, 10))
    if (key === undefined || !sameHash(key.hashed_secret, createHash("sha256").update(token.slice(11)).digest("hex"))) {
      return send(res, 401, { message: "Invalid API key." })
    }
    if (Date.parse(key.expires_at) <= Date.now()) return send(res, 401, { message: "API key expired." })
    const caller = userById.get(key.user_id)
    if (caller === undefined || caller.deleted === 1 || !JSON.parse(caller.rbac_roles).includes("owner")) {
      return send(res, 403, { message: "Forbidden." })
    }
    const params = new URLSearchParams(q < 0 ? "" : req.url.slice(q + 1))
    const limit = Math.min(Number(params.get("limit") ?? "0") || 100, 1000)
    const offset = Number(params.get("offset") ?? "0")
    const rows = page.all(limit, offset)
    const n = count.get().n
    const userIds = [...new Set(rows.flatMap((r) => (r.resource_type === "user" ? [r.user_id, r.resource_id] : [r.user_id])))].filter((id) => id !== NIL)
    const orgIds = [...new Set(rows.map((r) => r.organization_id))].filter((id) => id !== NIL)
    const users = new Map(
      (userIds.length ? db.prepare(`SELECT * FROM users WHERE id IN (${inList(userIds.length)})`).all(...userIds) : []).map((u) => [u.id, u])
    )
    const live = [...users.values()].filter((u) => u.deleted !== 1).map((u) => u.id)
    const memberships = new Map()
    if (live.length) {
      for (const m of db.prepare(`SELECT user_id, organization_id FROM organization_members WHERE user_id IN (${inList(live.length)})`).all(...live)) {
        memberships.set(m.user_id, [...(memberships.get(m.user_id) ?? []), m.organization_id])
      }
    }
    const orgs = new Map(
      (orgIds.length ? db.prepare(`SELECT * FROM organizations WHERE id IN (${inList(orgIds.length)})`).all(...orgIds) : []).map((o) => [o.id, o])
    )
    const wire = new Map()
    const userOf = (id) => {
      const u = users.get(id)
      if (u === undefined) return null
      if (!wire.has(id)) wire.set(id, toUser(u, memberships.get(id) ?? []))
      return wire.get(id)
    }
    const entries = rows.map((r) => {
      const org = orgs.get(r.organization_id)
      const deleted = r.resource_type === "user" ? users.get(r.resource_id)?.deleted !== 0 : false
      return {
        action: r.action,
        additional_fields: JSON.parse(r.additional_fields),
        description: r.description || `{user} ${r.status_code >= 400 ? `unsuccessfully attempted to ${r.action}` : FRIENDLY[r.action] ?? r.action} ${r.resource_type.replace(/_/g, " ")} {target}`,
        diff: JSON.parse(r.diff),
        id: r.id,
        ip: r.ip,
        is_deleted: deleted,
        ...(org ? { organization: { display_name: org.display_name, icon: org.icon, id: org.id, name: org.name } } : {}),
        organization_id: r.organization_id,
        request_id: r.request_id,
        resource_icon: r.resource_icon,
        resource_id: r.resource_id,
        resource_link: r.resource_type === "user" && !deleted ? `/@${r.resource_target}` : "",
        resource_target: r.resource_target,
        resource_type: r.resource_type,
        status_code: r.status_code,
        time: r.time,
        user: userOf(r.user_id),
        user_agent: r.user_agent
      }
    })
    send(res, 200, { audit_logs: entries, count: n, count_cap: COUNT_CAP })
  })
  server.listen(Number(opts.port), "127.0.0.1", () => console.log(`baseline listening on ${server.address().port}`))
  process.once("SIGTERM", () => server.close(() => process.exit(0)))
} else {
  await main()
}

async function main() {
  // The baseline above runs without lib.mjs (and autocannon) loaded.
  const {
    benchWork, buildBundle, bundleIsCurrent, fmt, freePort, logger, machineLine, request, seedFirstUser, sequential,
    warmThenLoad, writeReport
  } = await import("./lib.mjs")
  const log = logger("bench:audit")
  const sizes = opts.sizes.split(",").map(Number)
  const duration = Number(opts.duration)
  const warmup = Number(opts.warmup)
  const connections = Number(opts.connections)
  const load0 = loadavg()
  const startedAt = new Date()
  const t0 = performance.now()

  if (!opts["skip-build"] && !bundleIsCurrent()) buildBundle(log, "building the server bundle (missing or older than the sources)")

  const { cleanup, spawn, stop, workbayDir } = benchWork("workbay-bench-audit-")

  /**
   * Inserts `n` audit rows in one transaction: a spread of kinds over the last 90 days. The
   * table's indexes are dropped first and made again (with the DDL the migration stored) at the
   * end of the same transaction: building an index once is several times faster than growing it
   * row by row. The server is stopped meanwhile.
   */
  const seed = (file, n, ownerId, orgId) => {
    const t = performance.now()
    const db = new Database(file)
    db.pragma("busy_timeout = 5000")
    db.pragma("cache_size = -400000")
    const indexes = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_logs' AND sql IS NOT NULL")
      .all()
    const insert = db.prepare(
      `INSERT INTO audit_logs (id, time, user_id, organization_id, ip, user_agent, request_id, action, resource_type,
        resource_id, resource_target, resource_icon, diff, status_code, additional_fields, description, build_reason)
       VALUES (?, ?, ?, ?, '10.0.0.1', 'bench/1.0', ?, ?, ?, ?, ?, '', ?, ?, '{}', '', '')`
    )
    const kinds = [
      ["create", "user", 201], ["write", "user", 200], ["login", "api_key", 201], ["create", "organization", 201],
      ["write", "organization", 200], ["delete", "api_key", 204], ["create", "organization_member", 200], ["login", "api_key", 401]
    ]
    const diff = JSON.stringify({ name: { old: "a", new: "b", secret: false }, hashed_password: { old: "", new: "", secret: true } })
    const start = Date.now() - 90 * 86_400_000
    const step = (90 * 86_400_000) / n
    db.transaction(() => {
      for (const index of indexes) db.exec(`DROP INDEX ${index.name}`)
      for (let i = 0; i < n; i++) {
        const [action, type, status] = kinds[i % kinds.length]
        const inOrg = type === "organization" || type === "organization_member"
        insert.run(
          randomUUID(), new Date(start + i * step).toISOString(), ownerId, inOrg ? orgId : NIL, randomUUID(), action, type,
          type === "user" ? ownerId : randomUUID(), `target-${i}`, diff, status
        )
      }
      for (const index of indexes) db.exec(index.sql)
    })()
    db.pragma("wal_checkpoint(TRUNCATE)")
    db.close()
    const ms = performance.now() - t
    log(`inserted ${n.toLocaleString("en-US")} rows in ${fmt(ms, 0)} ms`)
    return ms
  }

  const results = []
  try {
    for (const size of sizes) {
      const { dbFile: file, base, start } = await workbayDir(`size-${size}`)
      let wb = await start()
      const owner = await seedFirstUser(base)
      const { auth } = owner
      await stop(wb.child)
      const seedMs = seed(file, size, owner.userId, owner.orgId)
      wb = await start()

      const bport = await freePort()
      const baseline = await spawn(
        [fileURLToPath(import.meta.url), "--baseline", "--db", file, "--port", String(bport)],
        `http://127.0.0.1:${bport}/api/v2/buildinfo`
      )
      const targets = [
        { name: "baseline (node:http + better-sqlite3)", url: `http://127.0.0.1:${bport}/api/v2/audit?limit=50` },
        { name: "workbay (bundled server, SQLite)", url: `${base}/audit?limit=50` }
      ]
      const [b, w] = await Promise.all(targets.map((t) => request(t.url, { headers: auth })))
      if (b.status !== 200 || w.status !== 200) throw new Error(`GET /audit answered ${b.status} (baseline), ${w.status} (workbay)`)
      const sameIds = JSON.stringify(b.body.audit_logs.map((e) => e.id)) === JSON.stringify(w.body.audit_logs.map((e) => e.id))
      if (!sameIds || b.body.count !== w.body.count) {
        log("WARNING: the answers differ:", b.body.count, w.body.count, sameIds)
      }
      const bytes = { baseline: JSON.stringify(b.body).length, workbay: JSON.stringify(w.body).length }
      log(`${size.toLocaleString("en-US")} rows: count ${w.body.count} (cap ${w.body.count_cap}), same page: ${sameIds}, body ${bytes.workbay} bytes (baseline ${bytes.baseline})`)
      const runs = []
      for (const t of targets) {
        const alone = await sequential(t.url, auth, 100)
        const res = await warmThenLoad(t.url, { connections, warmup, duration, headers: auth })
        log(`  ${t.name}: ${fmt(res.rps, 0)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, alone ${fmt(alone.median, 2)} ms, non-2xx ${res.non2xx}, errors ${res.errors}`)
        runs.push({ ...t, res, alone })
      }
      await stop(baseline.child)
      await stop(wb.child)
      results.push({ size, seedMs, runs, count: w.body.count, sameIds, bytes })
    }
  } finally {
    await cleanup()
  }

  const lines = [
    "# Audit log benchmark: GET /api/v2/audit?limit=50",
    "",
    `${machineLine(startedAt, load0)} · run time ${fmt((performance.now() - t0) / 1000, 0)} s`,
    "",
    `Authenticated as the owner; ${connections} connections, ${warmup} s warm-up, ${duration} s measured (autocannon, 127.0.0.1).`,
    "\"alone\" is the median of 100 sequential requests. The baseline (`node bench/audit.mjs --baseline`) is node:http +",
    "better-sqlite3 answering the same page: key and user lookups, the page of 50 on the (time, id) index, the count",
    "capped at 2,001, the page's users, memberships and organizations, and the same JSON.",
    "",
    "| rows | server | req/s | p50 ms | p99 ms | alone ms | ratio vs baseline |",
    "|---:|---|---:|---:|---:|---:|---:|"
  ]
  for (const r of results) {
    const [b] = r.runs
    for (const run of r.runs) {
      lines.push(
        `| ${r.size.toLocaleString("en-US")} | ${run.name} | ${fmt(run.res.rps, 0)} | ${run.res.p50} | ${run.res.p99} | ` +
          `${fmt(run.alone.median, 2)} | ${fmt(run.res.rps / b.res.rps, 2)}x |`
      )
    }
  }
  lines.push("")
  const [small, big] = results
  if (small && big) {
    const w = (r) => r.runs[1]
    lines.push(
      `Workbay at ${big.size.toLocaleString("en-US")} vs ${small.size.toLocaleString("en-US")} rows: throughput ` +
        `${fmt(w(big).res.rps / w(small).res.rps, 2)}x, single-request latency ${fmt(w(big).alone.median / w(small).alone.median, 2)}x.`
    )
  }
  for (const r of results) {
    lines.push(
      `${r.size.toLocaleString("en-US")} rows: seeded in ${fmt(r.seedMs, 0)} ms; count answered ${r.count} ` +
        `(count_cap 2000); both servers answered the same page: ${r.sameIds ? "yes" : "NO"}; body ${r.bytes.workbay} bytes ` +
        `(baseline ${r.bytes.baseline}); non-2xx/errors: ${r.runs.map((x) => x.res.non2xx + x.res.errors).join("/")}.`
    )
  }
  lines.push("")
  writeReport(lines.join("\n"), "audit.md", { write: !opts["no-write"], log })
}
