// AI tasks at scale (npm run bench:tasks). Not a test: it measures and reports.
//
// Runs the service in process (TypeScript sources through tsx, like the tests), on a SQLite file,
// with the built-in provisioner workers: GET /tasks?q=owner:me&limit=10 as one owner with 10 and
// with 10,000 tasks (one made through the API, POST /tasks/me, and built by the workers; the rest
// copied from it straight into the SQLite file in one transaction, each with its own workspace,
// succeeded start build and job, resource and agent); 200 sequential requests (p50 and p99 alone),
// then an autocannon load (req/s, p99), and the ratio of the two sizes.
// Writes bench/results/tasks.md. Options: --sizes 10,10000 --duration 3 --no-write
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time (under a minute).
import { workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { zipSync } from "fflate"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import {
  logger,
  machineLine,
  queryPlan,
  request,
  scalingTable,
  seedFirstUser,
  seedTemplate,
  sequential,
  sleep,
  warmThenLoad,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    sizes: { type: "string", default: "10,10000" },
    duration: { type: "string", default: "3" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("tasks")
const sizes = opts.sizes.split(",").map(Number)
const PAGE = 10

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        env: { PROMPT: "\${task.prompt}" }
        apps:
          - slug: claude
            command: claude
ai_task:
  app: claude
`
const archive = zipSync({ "template.yaml": new TextEncoder().encode(TEMPLATE) })

type Headers = Record<string, string>

/** A started service with the first user and an AI task template of the workbay provisioner. */
const setUp = async (file: string) => {
  const workbay = await makeWorkbay(Sqlite.layer({ filename: file }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    provisioners: [workbayProvisioner]
  })
  const server = createServer(workbay.node)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`
  const { userId, orgId, auth } = await seedFirstUser(base)
  const template = await seedTemplate(base, auth, orgId, archive)
  const close = async () => {
    server.closeAllConnections()
    server.close()
    await workbay.dispose()
  }
  return {
    base,
    userId: userId as string,
    auth: auth as Headers,
    versionId: template.active_version_id as string,
    close
  }
}

/** Creates a task through the API and waits for its workspace to run; answers the task's id. */
const firstTask = async (base: string, auth: Headers, versionId: string) => {
  const r = await request(`${base}/tasks/me`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ input: "Write the release notes", template_version_id: versionId })
  })
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`)
  for (let i = 0; i < 3000; i++) {
    const got = await request(`${base}/tasks/me/${r.body.id}`, { headers: auth })
    if (got.body.workspace_status === "running") return r.body.id as string
    await sleep(10)
  }
  throw new Error("the task's workspace did not start within 30 s")
}

/**
 * Copies task `id` with its workspace (row, latest build, its job, resource and agent) `n` times
 * straight into the SQLite file, in one transaction, for the same owner; moves the kept counts.
 */
const seedCopies = (file: string, id: string, ownerId: string, n: number) => {
  const db = new Database(file)
  const t = db.prepare("SELECT * FROM tasks WHERE id = ?").get(id) as Record<string, unknown>
  const w = db.prepare("SELECT * FROM workspaces WHERE id = ?").get(t.workspace_id) as Record<string, unknown>
  const b = db.prepare("SELECT * FROM workspace_builds WHERE workspace_id = ?").get(w.id) as Record<string, unknown>
  const j = db.prepare("SELECT * FROM provisioner_jobs WHERE id = ?").get(b.job_id) as Record<string, unknown>
  const r = db.prepare("SELECT * FROM workspace_resources WHERE job_id = ?").get(j.id) as Record<string, unknown>
  const a = db.prepare("SELECT * FROM workspace_agents WHERE resource_id = ?").get(r.id) as Record<string, unknown>
  delete j.job_status // generated
  const insertOf = (table: string, row: Record<string, unknown>) =>
    db.prepare(
      `INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row).map(() => "?").join(", ")})`
    )
  const [it, iw, ib, ij, ir, ia] = [
    insertOf("tasks", t),
    insertOf("workspaces", w),
    insertOf("workspace_builds", b),
    insertOf("provisioner_jobs", j),
    insertOf("workspace_resources", r),
    insertOf("workspace_agents", a)
  ]
  const base = Date.parse(String(t.created_at))
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const [tid, wid, bid, jid, rid] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()]
      // Older than the first: the page of the newest stays the same rows' shape at any size.
      const created = new Date(base - (i + 1) * 1000).toISOString()
      const input = JSON.parse(String(j.input))
      input.workspace_build_id = bid
      ij.run(...Object.values({ ...j, id: jid, input: JSON.stringify(input) }))
      iw.run(...Object.values({ ...w, id: wid, name: `task-${i}`, task_id: tid }))
      ib.run(...Object.values({ ...b, id: bid, workspace_id: wid, job_id: jid }))
      ir.run(...Object.values({ ...r, id: rid, job_id: jid }))
      ia.run(...Object.values({ ...a, id: randomUUID(), resource_id: rid, auth_token_hash: randomUUID() }))
      it.run(
        ...Object.values({
          ...t,
          id: tid,
          name: `task-${i}`,
          workspace_id: wid,
          created_at: created,
          updated_at: created
        })
      )
    }
    for (const name of ["tasks", `tasks:${ownerId}`, "workspaces", `workspaces:${ownerId}`]) {
      db.prepare("UPDATE counters SET value = value + ? WHERE name = ?").run(n, name)
    }
  })()
  const plan = queryPlan(
    db,
    `SELECT * FROM tasks WHERE deleted = FALSE AND owner_id = ?
    ORDER BY created_at DESC, id DESC LIMIT ${PAGE} OFFSET 0`,
    [ownerId]
  )
  // As the other benches: the copies are checkpointed into the database file, not left in the WAL.
  db.pragma("wal_checkpoint(TRUNCATE)")
  db.close()
  return plan
}

const measure = async (size: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-tasks-"))
  const file = join(dir, "workbay.db")
  const s = await setUp(file)
  try {
    const first = await firstTask(s.base, s.auth, s.versionId)
    const plan = seedCopies(file, first, s.userId, size - 1)
    const url = `${s.base}/tasks?q=${encodeURIComponent("owner:me")}&limit=${PAGE}`
    // Seeding blocked this process (the server's too): a kept-alive socket may have closed meanwhile.
    const check = await request(url, { headers: s.auth }).catch(() => request(url, { headers: s.auth }))
    if (check.status !== 200 || check.body.count !== size || check.body.tasks.length !== Math.min(PAGE, size)) {
      throw new Error(`GET /tasks: ${check.status} count ${check.body.count} rows ${check.body.tasks?.length}`)
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

const startedAt = new Date()
const load0 = loadavg()
const lines: Array<string> = ["# Tasks", "", machineLine(startedAt, load0), ""]
lines.push(`## GET /tasks?q=owner:me&limit=${PAGE} as one owner, by that owner's tasks`, "")
const results = []
for (const size of sizes) {
  log(`GET /tasks with ${size} tasks`)
  results.push(await measure(size))
}
lines.push(...scalingTable("tasks", results))
writeReport(lines.join("\n") + "\n", "tasks.md", { write: !opts["no-write"], log })
process.exit(0)
