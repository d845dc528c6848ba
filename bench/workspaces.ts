// Workspaces at scale (npm run bench:workspaces). Not a test: it measures and reports.
//
// Runs the service in process (TypeScript sources through tsx, like the tests), on a SQLite file,
// with the built-in provisioner workers (2, the default):
// (a) GET /workspaces?limit=25 as the owner with 100 and with 100,000 workspaces (one made through
//     the API, the rest copied from it straight into the SQLite file in one transaction, each with
//     its succeeded start build and job, spread over 100 owners); 200 sequential requests (p50 and
//     p99 alone), then an autocannon load (req/s, p99), and the ratio of the two sizes;
// (b) 200 workspaces created at once (200 start builds queued together) and built by the
//     built-in workers: builds/s and the time from the first request to the last running workspace.
// Writes bench/results/workspaces.md. Options: --sizes 100,100000 --builds 200 --duration 3 --no-write
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time (about a minute).
import { workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import {
  fmt,
  logger,
  machineLine,
  machineTemplate,
  queryPlan,
  request,
  scalingTable,
  seedFirstUser,
  seedTemplate,
  sequential,
  sleep,
  userInserter,
  warmThenLoad,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,100000" },
    builds: { type: "string", default: "200" },
    duration: { type: "string", default: "3" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("workspaces")
const sizes = opts.sizes.split(",").map(Number)

const archive = machineTemplate()

const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2` }
}

type Headers = Record<string, string>
const json = (auth: Headers) => ({ ...auth, "content-type": "application/json" })

/** A started service with the first user and a template of the workbay provisioner. */
const setUp = async (file: string) => {
  const workbay = await makeWorkbay(Sqlite.layer({ filename: file }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    provisioners: [workbayProvisioner]
  })
  const { server, base } = await listen(workbay.node)
  const { userId, orgId, auth } = await seedFirstUser(base)
  const template = await seedTemplate(base, auth, orgId, archive)
  const close = async () => {
    server.closeAllConnections()
    server.close()
    await workbay.dispose()
  }
  return { workbay, base, userId, orgId, auth, templateId: template.id as string, close }
}

/** Creates workspace `name` through the API; answers its id. */
const createWorkspace = async (base: string, auth: Headers, orgId: string, templateId: string, name: string) => {
  const r = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
    method: "POST",
    headers: json(auth),
    body: JSON.stringify({ name, template_id: templateId })
  })
  if (r.status !== 200 && r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.id as string
}

/** Waits until `count` workspaces of the caller are running; answers when (performance.now()). */
const untilRunning = async (base: string, auth: Headers, count: number, timeoutMs: number) => {
  const t0 = performance.now()
  for (;;) {
    const r = await request(`${base}/workspaces?q=${encodeURIComponent("owner:me status:running")}&limit=1`, {
      headers: auth
    })
    if (r.body.count >= count) return performance.now()
    if (performance.now() - t0 > timeoutMs) throw new Error(`${r.body.count} of ${count} running after ${timeoutMs} ms`)
    await sleep(10)
  }
}

/**
 * Copies workspace `id` (its row, its latest build and that build's job) `n` times straight into
 * the SQLite file, in one transaction, over `owners` new users; sets the kept counts.
 */
const seedCopies = (file: string, orgId: string, id: string, n: number, owners: number) => {
  const db = new Database(file)
  const w = db.prepare("SELECT * FROM workspaces WHERE id = ?").get(id) as Record<string, unknown>
  const b = db.prepare("SELECT * FROM workspace_builds WHERE workspace_id = ?").get(id) as Record<string, unknown>
  const j = db.prepare("SELECT * FROM provisioner_jobs WHERE id = ?").get(b.job_id) as Record<string, unknown>
  delete j.job_status // generated
  const insertOf = (table: string, row: Record<string, unknown>) =>
    db.prepare(
      `INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row).map(() => "?").join(", ")})`
    )
  const [iw, ib, ij] = [insertOf("workspaces", w), insertOf("workspace_builds", b), insertOf("provisioner_jobs", j)]
  const addUser = userInserter(db)
  const at = new Date().toISOString()
  db.transaction(() => {
    const ownerIds: Array<[string, string]> = []
    for (let i = 0; i < owners; i++) {
      const uid = randomUUID()
      const username = `owner${String(i).padStart(4, "0")}`
      addUser(orgId, uid, username, "", at)
      ownerIds.push([uid, username])
    }
    for (let i = 0; i < n; i++) {
      const [owner, username] = ownerIds[i % owners]!
      const wid = randomUUID()
      const jid = randomUUID()
      const input = JSON.parse(String(j.input))
      const bid = randomUUID()
      if (typeof input.workspace_build_id === "string") input.workspace_build_id = bid
      ij.run(...Object.values({ ...j, id: jid, input: JSON.stringify(input) }))
      iw.run(
        ...Object.values({
          ...w,
          id: wid,
          owner_id: owner,
          owner_username: username,
          name: `ws-${i}`,
          favorite: 0,
          list_rank: i % 3 === 0 ? 1 : 0
        })
      )
      ib.run(...Object.values({ ...b, id: bid, workspace_id: wid, job_id: jid }))
    }
    db.prepare("UPDATE counters SET value = value + ? WHERE name = 'workspaces'").run(n)
    for (const [owner] of ownerIds) {
      db.prepare("INSERT INTO counters (name, value) VALUES (?, ?)").run(`workspaces:${owner}`, Math.ceil(n / owners))
    }
    db.prepare("UPDATE counters SET value = (SELECT count(*) FROM users WHERE deleted = 0) WHERE name = 'users'").run()
    db.prepare(
      "UPDATE counters SET value = (SELECT count(*) FROM users WHERE deleted = 0 AND status = 'active') WHERE name = 'users_active'"
    ).run()
  })()
  const plan = queryPlan(
    db,
    `SELECT w.* FROM workspaces w WHERE w.deleted = FALSE AND NOT (w.owner_id = ? AND w.favorite = TRUE)
    ORDER BY w.list_rank, w.owner_username, lower(w.name), w.id LIMIT 25 OFFSET 0`,
    [randomUUID()]
  )
  db.close()
  return plan
}

const partA = async (size: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-ws-"))
  const file = join(dir, "workbay.db")
  const s = await setUp(file)
  try {
    const first = await createWorkspace(s.base, s.auth, s.orgId, s.templateId, "first")
    await untilRunning(s.base, s.auth, 1, 30_000)
    const plan = seedCopies(file, s.orgId, first, size - 1, 100)
    const url = `${s.base}/workspaces?limit=25`
    // Seeding blocked this process (the server's too) for a while: a kept-alive socket may have
    // been closed under the client meanwhile, so the first request may be retried once.
    const check = await request(url, { headers: s.auth }).catch(() => request(url, { headers: s.auth }))
    if (check.status !== 200 || check.body.count !== size || check.body.workspaces.length !== 25) {
      throw new Error(
        `GET /workspaces: ${check.status} count ${check.body.count} rows ${check.body.workspaces?.length}`
      )
    }
    const alone = await sequential(url, s.auth, 200)
    const loaded = await warmThenLoad(url, {
      connections: 10,
      warmup: 1,
      duration: Number(opts.duration),
      headers: s.auth
    })
    return { size, alone, loaded, plan }
  } finally {
    await s.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const partB = async (n: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-ws-builds-"))
  const s = await setUp(join(dir, "workbay.db"))
  try {
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: n }, (_, i) => createWorkspace(s.base, s.auth, s.orgId, s.templateId, `b-${i}`))
    )
    const queuedIn = performance.now() - t0
    const last = await untilRunning(s.base, s.auth, n, 180_000)
    const elapsed = last - t0
    return { n, queuedIn, elapsed, buildsPerSecond: n / (elapsed / 1000) }
  } finally {
    await s.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const startedAt = new Date()
const load0 = loadavg()
const lines: Array<string> = ["# Workspaces", "", machineLine(startedAt, load0), ""]
lines.push("## (a) GET /workspaces?limit=25 as the owner, by workspaces in the table", "")
const results = []
for (const size of sizes) {
  log(`part (a) with ${size} workspaces`)
  results.push(await partA(size))
}
lines.push(...scalingTable("workspaces", results))
const n = Number(opts.builds)
log(`part (b): ${n} start builds queued at once`)
const b = await partB(n)
lines.push(
  "",
  `## (b) ${n} workspaces created at once (${n} start builds queued together), built by the 2 built-in workers`,
  ""
)
lines.push(`- the ${n} creations answered in ${fmt(b.queuedIn, 0)} ms`)
lines.push(
  `- last workspace running ${fmt(b.elapsed / 1000, 2)} s after the first request: **${
    fmt(b.buildsPerSecond, 1)
  } builds/s**`
)
writeReport(lines.join("\n") + "\n", "workspaces.md", { write: !opts["no-write"], log })
process.exit(0)
