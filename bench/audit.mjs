// Audit log benchmark (node bench/audit.mjs). Not a test: it measures and reports.
//
// 1. Builds the server bundle (node scripts/build.mjs) when packages/server/dist/main.mjs is
//    missing, older than any source file or made by another Node version (as scripts/ensure.mjs).
// 2. For each size (1,000 and 1,000,000 audit rows): starts the bundled server on a fresh
//    data dir, seeds the first user and a session through the API, stops it, inserts the rows
//    straight into the SQLite file in one transaction (one prepared statement in a loop, the
//    table's indexes dropped and made again inside it), checkpoints the WAL and restarts it.
// 3. Starts the bare baseline (this script with --baseline: node:http + better-sqlite3) on
//    the same file. Per request it runs the statements Workbay runs for an owner: the API key
//    joined with its user, sha256 of the secret compared in constant time, expiry, suspension,
//    the last-use touch, then the page of 50 newest entries on the (time, id) index, the count
//    capped at 2,001, the page's users and organizations (one query each), the live users'
//    memberships (one query), and the same JSON (descriptions, links, deleted resources).
// 4. Checks both answer GET /api/v2/audit?limit=50 with the same count and the same ids, then
//    loads each with autocannon (warm-up, then the measured run) and reports req/s, p50/p99
//    and the ratio to the baseline. Writes bench/results/audit.md.
//
// Options: --sizes 1000,1000000 --duration 5 --warmup 2 --connections 10 --skip-build --no-write
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time (about 1-2 minutes).
import Database from "better-sqlite3"
import { createHash, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { loadavg } from "node:os"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { KEY_WITH_USER_SQLITE } from "./bare/wire.mjs"

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
  // The statements the service runs for an owner's page (see `--check-sql` in bench/areas.mjs), and its JSON.
  if (opts.db === undefined) throw new Error("--db <file> is required")
  const { userJson } = await import("./bare/wire.mjs")
  const { sameHash, send } = await import("./bare/http.mjs")
  const db = new Database(opts.db)
  db.pragma("journal_mode = WAL")
  db.pragma("foreign_keys = ON")
  db.pragma("busy_timeout = 5000")
  db.pragma("synchronous = NORMAL")
  const keyWithUser = db.prepare(KEY_WITH_USER_SQLITE)
  const touch = db.prepare("UPDATE api_keys SET last_used = ?, expires_at = ? WHERE id = ?")
  const page = db.prepare("SELECT * FROM \"audit_logs\" WHERE 1 = 1 ORDER BY \"time\" DESC, id DESC LIMIT ? OFFSET ?")
  const count = db.prepare("SELECT count(*) AS n FROM (SELECT 1 FROM \"audit_logs\" WHERE 1 = 1 LIMIT ?) capped")
  const inList = new Map()
  /** A statement with `(?)` grown to `n` placeholders, prepared once per `n`. */
  const prepareIn = (sql, n) => {
    const key = `${n}:${sql}`
    if (!inList.has(key)) {
      inList.set(
        key,
        db.prepare(sql.replace("(?)", `(${Array.from({ length: n }, () => "?").join(",")})`))
      )
    }
    return inList.get(key)
  }
  const USERS_IN = "SELECT * FROM users WHERE \"id\" IN (?)"
  const ORGS_IN = "SELECT * FROM organizations WHERE \"id\" IN (?)"
  const MEMBERS_IN = "SELECT user_id, organization_id FROM organization_members WHERE \"user_id\" IN (?)"
  const FRIENDLY_ACTION = {
    create: "created",
    write: "updated",
    delete: "deleted",
    start: "started",
    stop: "stopped",
    login: "logged in",
    logout: "logged out",
    register: "registered",
    request_password_reset: "password reset requested",
    connect: "connected",
    disconnect: "disconnected",
    open: "opened",
    close: "closed"
  }
  const FRIENDLY_RESOURCE = {
    template_version: "template version",
    workspace_build: "workspace build",
    git_ssh_key: "git ssh key",
    api_key: "token",
    convert_login: "login type conversion",
    workspace_proxy: "workspace proxy",
    oauth2_provider_app: "oauth2 app",
    oauth2_provider_app_secret: "oauth2 app secret",
    custom_role: "custom role",
    organization_member: "organization member",
    notification_template: "notification template",
    workspace_agent: "workspace agent",
    workspace_app: "workspace app"
  }
  const USER_RESOURCES = new Set(["user", "git_ssh_key", "organization_member", "convert_login"])
  const description = (e) => {
    let out = e.action === "request_password_reset" ? "" : "{user} "
    out += e.status_code >= 400 ? `unsuccessfully attempted to ${e.action}` : FRIENDLY_ACTION[e.action] ?? e.action
    if (e.resource_type === "api_key" && (e.action === "login" || e.action === "logout" || e.action === "register")) {
      return out
    }
    const resource = FRIENDLY_RESOURCE[e.resource_type] ?? e.resource_type.replace(/_/g, " ")
    if (e.resource_type === "git_ssh_key") return `${out} the ${resource}`
    return `${out} ${resource}${e.resource_type === "convert_login" ? " to" : ""} {target}`
  }
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const q = req.url.indexOf("?")
    const path = q < 0 ? req.url : req.url.slice(0, q)
    if (req.method === "GET" && path === "/api/v2/buildinfo") return send(res, 200, { version: "baseline" })
    if (req.method !== "GET" || path !== "/api/v2/audit") return send(res, 404, { message: "Route not found." })
    // The token: the key joined with its user, sha256 compared in constant time, expiry, suspension, last use.
    const token = req.headers["service-session-token"]
    if (typeof token !== "string" || token.length !== 33 || token[10] !== "-") {
      return send(res, 401, { message: "Invalid API key format." })
    }
    const row = keyWithUser.all(token.slice(0, 10))[0]
    if (
      row === undefined || !sameHash(row.k_hashed_secret, createHash("sha256").update(token.slice(11)).digest("hex"))
    ) {
      return send(res, 401, { message: "Invalid API key." })
    }
    const now = Date.now()
    const expires = Date.parse(row.k_expires_at)
    if (expires <= now) return send(res, 401, { message: "API key expired." })
    if (row.u_deleted === 1 || row.u_status !== "active") return send(res, 401, { message: "User is not active." })
    if (now - Date.parse(row.k_last_used) > 60_000) {
      const expiresAt = row.k_login_type !== "token" ? Math.max(expires, now + 86_400_000) : expires
      touch.run(new Date(now).toISOString(), new Date(expiresAt).toISOString(), row.k_id)
    }
    if (!JSON.parse(row.u_rbac_roles).includes("owner")) return send(res, 403, { message: "Forbidden." })
    const params = new URLSearchParams(q < 0 ? "" : req.url.slice(q + 1))
    const limit = Math.min(Number(params.get("limit") ?? "0") || 100, 1000)
    const offset = Number(params.get("offset") ?? "0") || 0
    const rows = page.all(limit, offset)
    const n = count.all(COUNT_CAP + 1)[0].n
    // The page's users and organizations, one query each, then the live users' memberships.
    const userIds = [
      ...new Set(rows.flatMap((r) => (USER_RESOURCES.has(r.resource_type) ? [r.user_id, r.resource_id] : [r.user_id])))
    ].filter((id) => id !== NIL)
    const orgIds = [
      ...new Set(
        rows.flatMap((
          r
        ) => (r.resource_type === "organization" ? [r.organization_id, r.resource_id] : [r.organization_id]))
      )
    ].filter((id) => id !== NIL)
    const users = new Map(
      (userIds.length ? prepareIn(USERS_IN, userIds.length).all(...userIds) : []).map((u) => [u.id, u])
    )
    const orgs = new Map((orgIds.length ? prepareIn(ORGS_IN, orgIds.length).all(...orgIds) : []).map((o) => [o.id, o]))
    const live = [...users.values()].filter((u) => u.deleted !== 1).map((u) => u.id)
    const memberships = new Map()
    if (live.length) {
      for (const m of prepareIn(MEMBERS_IN, live.length).all(...live)) {
        const list = memberships.get(m.user_id)
        if (list === undefined) memberships.set(m.user_id, [m.organization_id])
        else list.push(m.organization_id)
      }
    }
    const wire = new Map()
    const userOf = (id) => {
      const u = users.get(id)
      if (u === undefined) return null
      if (!wire.has(id)) wire.set(id, userJson(u, memberships.get(id) ?? []))
      return wire.get(id)
    }
    const userGone = (id) => (users.has(id) ? users.get(id).deleted === 1 : true)
    const isDeleted = (r) => {
      if (r.resource_id === NIL) return false
      switch (r.resource_type) {
        case "user":
        case "git_ssh_key":
        case "convert_login":
          return userGone(r.resource_id)
        case "organization":
          return !orgs.has(r.resource_id)
        case "organization_member":
          return userGone(r.resource_id) || (r.organization_id !== NIL && !orgs.has(r.organization_id))
        default:
          return false
      }
    }
    const resourceLink = (r, deleted) => {
      if (deleted) return ""
      const org = orgs.get(r.organization_id)
      switch (r.resource_type) {
        case "user":
          return `/@${users.get(r.resource_id)?.username ?? r.resource_target}`
        case "organization": {
          const o = orgs.get(r.resource_id)
          return o === undefined ? "" : `/organizations/${o.name}`
        }
        case "organization_member":
          return org === undefined ? "" : `/organizations/${org.name}/members`
        case "group":
          return org === undefined ? "" : `/organizations/${org.name}/groups/${r.resource_target}`
        default:
          return ""
      }
    }
    const entries = rows.map((r) => {
      const org = orgs.get(r.organization_id)
      const deleted = isDeleted(r)
      const entry = {
        action: r.action,
        additional_fields: JSON.parse(r.additional_fields),
        description: r.description !== "" ? r.description : description(r),
        diff: JSON.parse(r.diff),
        id: r.id,
        ip: r.ip,
        is_deleted: deleted
      }
      if (org !== undefined) {
        entry.organization = { display_name: org.display_name, icon: org.icon, id: org.id, name: org.name }
      }
      Object.assign(entry, {
        organization_id: r.organization_id,
        request_id: r.request_id,
        resource_icon: r.resource_icon,
        resource_id: r.resource_id,
        resource_link: resourceLink(r, deleted),
        resource_target: r.resource_target,
        resource_type: r.resource_type,
        status_code: r.status_code,
        time: r.time,
        user: userOf(r.user_id),
        user_agent: r.user_agent
      })
      return entry
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
    benchWork,
    buildBundle,
    bundleIsCurrent,
    fmt,
    freePort,
    logger,
    machineLine,
    request,
    seedFirstUser,
    sequential,
    warmThenLoad,
    writeReport
  } = await import("./lib.mjs")
  const log = logger("bench:audit")
  const sizes = opts.sizes.split(",").map(Number)
  const duration = Number(opts.duration)
  const warmup = Number(opts.warmup)
  const connections = Number(opts.connections)
  const load0 = loadavg()
  const startedAt = new Date()
  const t0 = performance.now()

  if (!opts["skip-build"] && !bundleIsCurrent()) {
    buildBundle(log, "building the server bundle (missing or older than the sources)")
  }

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
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_logs' AND sql IS NOT NULL"
      )
      .all()
    const insert = db.prepare(
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
    const start = Date.now() - 90 * 86_400_000
    const step = (90 * 86_400_000) / n
    db.transaction(() => {
      for (const index of indexes) db.exec(`DROP INDEX ${index.name}`)
      for (let i = 0; i < n; i++) {
        const [action, type, status] = kinds[i % kinds.length]
        const inOrg = type === "organization" || type === "organization_member"
        insert.run(
          randomUUID(),
          new Date(start + i * step).toISOString(),
          ownerId,
          inOrg ? orgId : NIL,
          randomUUID(),
          action,
          type,
          type === "user" ? ownerId : randomUUID(),
          `target-${i}`,
          diff,
          status
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
      if (b.status !== 200 || w.status !== 200) {
        throw new Error(`GET /audit answered ${b.status} (baseline), ${w.status} (workbay)`)
      }
      const sameIds = JSON.stringify(b.body.audit_logs.map((e) =>
        e.id
      )) === JSON.stringify(w.body.audit_logs.map((e) => e.id))
      if (!sameIds || b.body.count !== w.body.count) {
        log("WARNING: the answers differ:", b.body.count, w.body.count, sameIds)
      }
      const bytes = { baseline: JSON.stringify(b.body).length, workbay: JSON.stringify(w.body).length }
      log(
        `${
          size.toLocaleString("en-US")
        } rows: count ${w.body.count} (cap ${w.body.count_cap}), same page: ${sameIds}, body ${bytes.workbay} bytes (baseline ${bytes.baseline})`
      )
      const runs = []
      for (const t of targets) {
        const alone = await sequential(t.url, auth, 100)
        const res = await warmThenLoad(t.url, { connections, warmup, duration, headers: auth })
        log(
          `  ${t.name}: ${fmt(res.rps, 0)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, alone ${
            fmt(alone.median, 2)
          } ms, non-2xx ${res.non2xx}, errors ${res.errors}`
        )
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
    "better-sqlite3 answering the same page with the service's statements: the key joined with its user, the page of 50",
    "on the (time, id) index, the count capped at 2,001, the page's users, organizations and memberships, and the same JSON.",
    "",
    "| rows | server | req/s | p50 ms | p99 ms | alone ms | ratio vs baseline |",
    "|---:|---|---:|---:|---:|---:|---:|"
  ]
  for (const r of results) {
    const [b] = r.runs
    for (const run of r.runs) {
      lines.push(
        `| ${r.size.toLocaleString("en-US")} | ${run.name} | ${
          fmt(run.res.rps, 0)
        } | ${run.res.p50} | ${run.res.p99} | ` +
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
        `${fmt(w(big).res.rps / w(small).res.rps, 2)}x, single-request latency ${
          fmt(w(big).alone.median / w(small).alone.median, 2)
        }x.`
    )
  }
  for (const r of results) {
    lines.push(
      `${r.size.toLocaleString("en-US")} rows: seeded in ${fmt(r.seedMs, 0)} ms; count answered ${r.count} ` +
        `(count_cap 2000); both servers answered the same page: ${
          r.sameIds ? "yes" : "NO"
        }; body ${r.bytes.workbay} bytes ` +
        `(baseline ${r.bytes.baseline}); non-2xx/errors: ${r.runs.map((x) => x.res.non2xx + x.res.errors).join("/")}.`
    )
  }
  lines.push("")
  writeReport(lines.join("\n"), "audit.md", { write: !opts["no-write"], log })
}
