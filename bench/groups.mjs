// Group member listing at scale (node bench/groups.mjs). Not a test: it measures and reports.
//
// 1. Builds the server bundle (node scripts/build.mjs) when it is missing or older than
//    the sources (--build forces it, --skip-build skips the check).
// 2. Starts the bundled server on a fresh data dir and seeds the first user through the
//    API (POST /users/first, POST /users/login).
// 3. Inserts rows straight into the SQLite file, in one transaction: --members users
//    (default 100,000) in the default organization, a group "big" holding all of them and
//    a group "small" holding 100 of them, with member_count set as the repositories keep it.
// 4. Starts a bare baseline (this script with --serve-baseline: node:http + better-sqlite3)
//    on a VACUUM INTO copy of the same database. Per request it does what Workbay does for
//    GET /api/v2/groups/{group}/members?limit=50: the token (key row, sha256, expiry, user
//    row), the group row, the page of 50 members along the primary key, the kept
//    member_count, and the same JSON. Both answers are compared before the load.
// 5. Loads each server with autocannon for each group, in turn: warm-up, then measured.
//    Also the median of 200 sequential requests ("alone"), and the page query timed
//    directly on better-sqlite3, with its plan.
// 6. Prints the results and writes bench/results/groups.md.
//
//    Each round loads every (group, server) pair once; the best round of each pair is shown.
//
// Options: --duration 3 --warmup 1 --connections 10 --members 100000 --sequential 200 --rounds 2
//          --build --skip-build --no-write
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time.
import Database from "better-sqlite3"
import { createHash, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { loadavg } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import {
  benchWork,
  buildBundle,
  bundleIsCurrent,
  fmt,
  freePort,
  keepCounts,
  logger,
  machineLine,
  queryPlan,
  reducedUserJson,
  request,
  seedFirstUser,
  sequential,
  timeStatement,
  userInserter,
  vacuumInto,
  warmThenLoad,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "10" },
    members: { type: "string", default: "100000" },
    sequential: { type: "string", default: "200" },
    rounds: { type: "string", default: "2" },
    build: { type: "boolean", default: false },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    // Internal: run as the baseline server.
    "serve-baseline": { type: "boolean", default: false },
    db: { type: "string" },
    port: { type: "string", default: "0" }
  }
})

const PAGE_SQL = {
  group: `SELECT u.* FROM group_members m JOIN users u ON u.id = m.user_id
    WHERE m.group_id = ? AND u.deleted = FALSE ORDER BY m.user_id LIMIT ? OFFSET ?`,
  groupAfter: `SELECT u.* FROM group_members m JOIN users u ON u.id = m.user_id
    WHERE m.group_id = ? AND u.deleted = FALSE AND m.user_id > ? ORDER BY m.user_id LIMIT ? OFFSET ?`
}

// --- the baseline server ---------------------------------------------------------
if (opts["serve-baseline"]) {
  if (opts.db === undefined) throw new Error("--db <file> is required")
  const db = new Database(opts.db)
  db.pragma("foreign_keys = ON")
  db.pragma("busy_timeout = 5000")
  const keyById = db.prepare("SELECT * FROM api_keys WHERE id = ?")
  const userById = db.prepare("SELECT * FROM users WHERE id = ?")
  const groupById = db.prepare(
    "SELECT g.*, o.name AS organization_name FROM groups g JOIN organizations o ON o.id = g.organization_id WHERE g.id = ?"
  )
  const page = db.prepare(PAGE_SQL.group)
  const pageAfter = db.prepare(PAGE_SQL.groupAfter)
  const { sameHash, send } = await import("./bare/http.mjs")
  const route = /^\/api\/v2\/groups\/([0-9a-f-]{36})\/members$/
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const q = req.url.indexOf("?")
    const path = q < 0 ? req.url : req.url.slice(0, q)
    if (req.method === "GET" && path === "/api/v2/buildinfo") return send(res, 200, { version: "baseline" })
    const m = route.exec(path)
    if (req.method !== "GET" || m === null) return send(res, 404, { message: "Route not found." })
    const token = req.headers["service-session-token"]
    if (typeof token !== "string" || token.length !== 33 || token[10] !== "-") {
      return send(res, 401, { message: "Invalid API key format." })
    }
    const key = keyById.get(token.slice(0, 10))
    if (key === undefined || !sameHash(key.hashed_secret, createHash("sha256").update(token.slice(11)).digest("hex"))) {
      return send(res, 401, { message: "Invalid API key." })
    }
    if (Date.parse(key.expires_at) <= Date.now()) return send(res, 401, { message: "API key expired." })
    const caller = userById.get(key.user_id)
    if (caller === undefined || caller.deleted === 1 || caller.status !== "active") {
      return send(res, 401, { message: "Inactive user." })
    }
    const group = groupById.get(m[1])
    if (group === undefined) return send(res, 404, { message: "Group not found." })
    const params = new URLSearchParams(q < 0 ? "" : req.url.slice(q + 1))
    const limit = Math.min(Number(params.get("limit") ?? "100") || 100, 1000)
    const offset = Number(params.get("offset") ?? "0") || 0
    const afterId = params.get("after_id")
    const rows = afterId ? pageAfter.all(group.id, afterId, limit, offset) : page.all(group.id, limit, offset)
    send(res, 200, {
      count: group.member_count,
      users: rows.map(reducedUserJson)
    })
  })
  server.listen(Number(opts.port), "127.0.0.1", () => console.log(`baseline listening on ${server.address().port}`))
  process.once("SIGTERM", () => server.close(() => process.exit(0)))
} else {
  await main()
}

async function main() {
  const duration = Number(opts.duration)
  const warmup = Number(opts.warmup)
  const connections = Number(opts.connections)
  const totalMembers = Number(opts.members)
  const sequentialN = Number(opts.sequential)
  const rounds = Math.max(1, Number(opts.rounds))
  const log = logger("bench:groups")
  const load0 = loadavg()
  const startedAt = new Date()

  if (opts.build || (!opts["skip-build"] && !bundleIsCurrent())) buildBundle(log)

  const { work, cleanup, spawn, stop, workbayDir } = benchWork("workbay-bench-groups-")

  const results = []
  let sqlFacts
  let seedMs
  try {
    const { dbFile, base, start } = await workbayDir("workbay")
    // Rows go straight into the file while the service runs: SQLite's normal locking lets both at it
    // (the standalone server's default, exclusive, keeps the file to itself).
    const wb = await start({ args: ["--sqlite-locking", "normal"] })
    const { orgId, auth } = await seedFirstUser(base, { name: "Bench User" })

    // --- seeding, straight into the file -------------------------------------------
    const db = new Database(dbFile)
    db.pragma("busy_timeout = 5000")
    const bigId = randomUUID()
    const smallId = randomUUID()
    const t0 = performance.now()
    db.transaction(() => {
      const at = new Date().toISOString()
      const insertUser = userInserter(db)
      const insertGroup = db.prepare(
        `INSERT INTO groups (id, organization_id, name, display_name, avatar_url, quota_allowance, source, member_count,
          created_at, updated_at) VALUES (?, ?, ?, '', '', 0, 'user', 0, ?, ?)`
      )
      const insertGroupMember = db.prepare("INSERT INTO group_members (group_id, user_id, created_at) VALUES (?, ?, ?)")
      insertGroup.run(bigId, orgId, "big", at, at)
      insertGroup.run(smallId, orgId, "small", at, at)
      for (let i = 0; i < totalMembers; i++) {
        const id = randomUUID()
        const n = String(i).padStart(6, "0")
        insertUser(orgId, id, `member${n}`, `Member ${n}`, at)
        insertGroupMember.run(bigId, id, at)
        if (i < 100) insertGroupMember.run(smallId, id, at)
      }
      // member_count as the repositories keep it.
      db.prepare(
        "UPDATE groups SET member_count = (SELECT count(*) FROM group_members WHERE group_id = groups.id) WHERE id IN (?, ?)"
      ).run(bigId, smallId)
      keepCounts(db, orgId)
    })()
    // No ANALYZE (the server never runs it); fold a WAL back, if any, as SQLite does by itself over time.
    db.pragma("wal_checkpoint(TRUNCATE)")
    seedMs = performance.now() - t0
    log(
      `seeded ${totalMembers.toLocaleString("en-US")} users, a group of all of them and one of 100, in ${
        fmt(seedMs, 0)
      } ms`
    )

    // The page query timed straight on better-sqlite3, and its plan.
    const pageStmt = db.prepare(PAGE_SQL.group)
    const bigMidCursor =
      db.prepare("SELECT user_id FROM group_members WHERE group_id = ? ORDER BY user_id LIMIT 1 OFFSET ?")
        .get(bigId, Math.floor(totalMembers / 2)).user_id
    sqlFacts = {
      small: timeStatement(pageStmt, 200, [smallId, 50, 0]),
      big: timeStatement(pageStmt, 200, [bigId, 50, 0]),
      bigAfter: timeStatement(db.prepare(PAGE_SQL.groupAfter), 200, [bigId, bigMidCursor, 50, 0]),
      plan: queryPlan(db, PAGE_SQL.group, [bigId, 50, 0]),
      planAfter: queryPlan(db, PAGE_SQL.groupAfter, [bigId, bigMidCursor, 50, 0])
    }
    db.close()

    // --- the baseline, on a copy ---------------------------------------------------
    const baselineDb = join(work, "baseline.db")
    vacuumInto(dbFile, baselineDb)
    const bport = await freePort()
    const baseline = await spawn(
      [fileURLToPath(import.meta.url), "--serve-baseline", "--db", baselineDb, "--port", String(bport)],
      `http://127.0.0.1:${bport}/api/v2/buildinfo`
    )

    const groups = [
      { name: "small (100 members)", id: smallId, query: "limit=50" },
      { name: `big (${totalMembers.toLocaleString("en-US")} members)`, id: bigId, query: "limit=50" },
      { name: "big, page from the middle (after_id)", id: bigId, query: `limit=50&after_id=${bigMidCursor}` }
    ]
    const targets = [
      { name: "baseline (node:http + better-sqlite3)", base: `http://127.0.0.1:${bport}/api/v2` },
      { name: "workbay (bundled server, SQLite)", base }
    ]
    // Same answer from both before any load.
    for (const g of groups) {
      const [b, w] = await Promise.all(
        targets.map((t) => request(`${t.base}/groups/${g.id}/members?${g.query}`, { headers: auth }))
      )
      if (w.status !== 200 || b.status !== 200) {
        throw new Error(`${g.name}: workbay ${w.status} ${JSON.stringify(w.body)}, baseline ${b.status}`)
      }
      const same = w.body.count === b.body.count && JSON.stringify(w.body.users) === JSON.stringify(b.body.users)
      if (!same) log(`WARNING: ${g.name}: the answers differ (count ${w.body.count} vs ${b.body.count})`)
      if (w.body.users.length !== 50) throw new Error(`${g.name}: ${w.body.users.length} users, expected 50`)
    }
    for (let round = 1; round <= rounds; round++) {
      for (const g of groups) {
        for (const t of targets) {
          const url = `${t.base}/groups/${g.id}/members?${g.query}`
          log(
            `round ${round}/${rounds}: ${g.name}: ${t.name}: warm-up ${warmup} s, then ${duration} s at ${connections} connections`
          )
          const res = await warmThenLoad(url, { connections, warmup, duration, headers: auth })
          const seq = await sequential(url, auth, sequentialN)
          log(
            `  ${fmt(res.rps, 0)} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, alone ${
              fmt(seq.median, 2)
            } ms; non-2xx ${res.non2xx}, errors ${res.errors}`
          )
          results.push({ group: g, target: t, res, seq, round })
        }
      }
    }
    await stop(baseline.child)
    await stop(wb.child)
  } finally {
    await cleanup()
  }

  // --- report ----------------------------------------------------------------------
  const lines = []
  const runsOf = (g, t) => results.filter((r) => r.group.name === g && r.target.name === t)
  /** The best round of a pair (highest throughput). */
  const find = (g, t) => runsOf(g, t).reduce((a, b) => (b.res.rps > a.res.rps ? b : a))
  const [baseName, wbName] = [...new Set(results.map((r) => r.target.name))]
  const groupNames = [...new Set(results.map((r) => r.group.name))]
  lines.push("# Group members at scale: latest results", "")
  lines.push(
    machineLine(startedAt, load0),
    "",
    `\`GET /api/v2/groups/{group}/members?limit=50\`, authenticated, ${connections} connections, ${warmup} s warm-up, ` +
      `${duration} s measured per row, ${rounds} round${
        rounds > 1 ? "s, best shown" : ""
      }; "alone" = median of ${sequentialN} sequential requests. ` +
      `Seeded straight into SQLite: ${totalMembers.toLocaleString("en-US")} users in ${fmt(seedMs, 0)} ms. ` +
      "Numbers on a busy machine are noisy; compare the ratios.",
    "",
    "| group | server | req/s | p50 ms | p99 ms | alone ms | vs baseline |",
    "|---|---|---:|---:|---:|---:|---:|"
  )
  for (const g of groupNames) {
    const b = find(g, baseName)
    for (const t of [baseName, wbName]) {
      const r = find(g, t)
      lines.push(
        `| ${g} | ${t} | ${fmt(r.res.rps, 0)} | ${r.res.p50} | ${r.res.p99} | ${fmt(r.seq.median, 2)} | ${
          fmt(r.res.rps / b.res.rps, 2)
        }x |`
      )
    }
  }
  const [small, big, mid] = groupNames
  lines.push("", "Scaling (big vs small group, same server; 1.00x = the same cost):", "")
  lines.push(
    "| server | throughput big/small | alone latency big/small | throughput middle page/small |",
    "|---|---:|---:|---:|"
  )
  for (const t of [baseName, wbName]) {
    const s = find(small, t)
    const b = find(big, t)
    const m = find(mid, t)
    lines.push(
      `| ${t} | ${fmt(b.res.rps / s.res.rps, 2)}x | ${fmt(b.seq.median / s.seq.median, 2)}x | ${
        fmt(m.res.rps / s.res.rps, 2)
      }x |`
    )
  }
  if (rounds > 1) {
    lines.push(
      "",
      "All rounds (req/s): " +
        groupNames
          .map((g) =>
            `${g}: ` +
            [baseName, wbName].map((t) => `${t.split(" ")[0]} ${runsOf(g, t).map((r) => fmt(r.res.rps, 0)).join(", ")}`)
              .join("; ")
          )
          .join(" · ") +
        "."
    )
  }
  const errs = results.reduce((n, r) => n + r.res.errors + r.res.non2xx, 0)
  if (errs > 0) lines.push("", `**${errs} errors or non-2xx answers during the runs.**`)
  lines.push(
    "",
    `The page query straight on better-sqlite3: ${fmt(sqlFacts.small, 3)} ms (small group), ${
      fmt(sqlFacts.big, 3)
    } ms (big group), ` +
      `${
        fmt(sqlFacts.bigAfter, 3)
      } ms (big group, after_id in the middle). The count is the kept \`groups.member_count\` (one row).`,
    `Plan: \`${sqlFacts.plan}\`; with after_id: \`${sqlFacts.planAfter}\`.`,
    ""
  )
  writeReport(lines.join("\n"), "groups.md", { write: !opts["no-write"], log })
}
