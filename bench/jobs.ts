// Provisioner jobs at scale (npm run bench:jobs). Not a test: it measures and reports.
//
// Runs the service in process (TypeScript sources through tsx, like the tests), on a SQLite file:
// (a) GET /organizations/{org}/provisionerjobs?limit=50 (200 sequential requests, then an
//     autocannon load) and the claim (ProvisionerJobs.acquire, timed one by one) with 100 and
//     with 100,000 finished jobs in the table (rows inserted straight into the SQLite file);
//     workers off, so the claims measured are ours alone;
// (b) 1,000 queued jobs drained by the built-in workers (2, the default) running an import
//     executor that imports a small template archive with the workbay provisioner: jobs/s,
//     the wait from queued to claimed and the run time per job (p50/p99).
// Writes bench/results/jobs.md. Options: --sizes 100,100000 --jobs 1000 --workers 2 --duration 3 --no-write
// Everything listens on and loads 127.0.0.1 only; every run is bounded in time (about a minute).
import {
  IdGenerator,
  type JobExecutor,
  JobExecutors,
  jobStatus,
  ProvisionerJobs,
  workbayProvisioner
} from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { zipSync } from "fflate"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { fmt, logger, machineLine, seedFirstUser, sequential, warmThenLoad, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,100000" },
    jobs: { type: "string", default: "1000" },
    workers: { type: "string", default: "2" },
    duration: { type: "string", default: "3" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("jobs")
const sizes = opts.sizes.split(",").map(Number)
const pct = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2` }
}

/** Inserts `n` finished jobs of `orgId` straight into the SQLite file, in one transaction. */
const seedFinished = (file: string, orgId: string, userId: string, n: number) => {
  const db = new Database(file)
  const insert = db.prepare(`INSERT INTO provisioner_jobs (id, created_at, updated_at, started_at, completed_at, error,
    organization_id, initiator_id, provisioner, type, file_id, input, tags, worker_id, worker_name)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'workbay', 'template_version_import', ?, '{}', '{"scope":"organization"}', ?, 'seed')`)
  const t0 = Date.now() - n * 1000
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const at = new Date(t0 + i * 1000).toISOString()
      insert.run(randomUUID(), at, at, at, at, i % 10 === 0 ? "boom" : "", orgId, userId, randomUUID(), randomUUID())
    }
  })()
  db.close()
}

const partA = async (size: number) => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-jobs-"))
  const file = join(dir, "workbay.db")
  const workbay = await makeWorkbay(Sqlite.layer({ filename: file }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    workers: false
  })
  const { server, base } = await listen(workbay.node)
  try {
    const { userId, orgId, auth } = await seedFirstUser(base)
    seedFinished(file, orgId, userId, size)
    const url = `${base}/organizations/${orgId}/provisionerjobs?limit=50`
    const alone = await sequential(url, auth, 200)
    const loaded = await warmThenLoad(url, {
      connections: 10,
      warmup: 1,
      duration: Number(opts.duration),
      headers: auth
    })
    // The claim: 300 pending jobs, claimed one by one by one worker.
    const claims = await workbay.run(Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      for (let i = 0; i < 300; i++) {
        yield* jobs.enqueue({
          organization_id: orgId,
          initiator_id: userId,
          provisioner: "workbay",
          type: "template_version_import",
          file_id: randomUUID(),
          input: {},
          tags: {}
        })
      }
      const worker = {
        id: yield* Effect.flatMap(IdGenerator, (g) => g.uuid),
        name: "bench",
        provisioners: ["workbay"],
        tags: { scope: "organization" }
      }
      const times: Array<number> = []
      for (let i = 0; i < 300; i++) {
        const t = performance.now()
        const job = yield* jobs.acquire(worker)
        times.push(performance.now() - t)
        if (job._tag === "Some") yield* jobs.complete(job.value.id, worker.id)
      }
      return times.sort((a, b) => a - b)
    }))
    return { size, alone, loaded, claimP50: pct(claims, 0.5), claimP99: pct(claims, 0.99) }
  } finally {
    server.closeAllConnections()
    server.close()
    await workbay.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

const TEMPLATE = `
parameters:
  - name: region
    default: eu
resources:
  - name: box
    type: workbay_machine
    agents:
      - name: main
`
const archive = zipSync({ "template.yaml": new TextEncoder().encode(TEMPLATE) })
const importExecutor: JobExecutor = (_job, ctx) =>
  Effect.as(
    ctx.provisioner.import({ archive, content_type: "application/zip", variable_values: [], onLog: ctx.log }),
    {}
  )

const partB = async () => {
  const n = Number(opts.jobs)
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-drain-"))
  const workbay = await makeWorkbay(Sqlite.layer({ filename: join(dir, "workbay.db") }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    provisioners: [workbayProvisioner],
    workers: { count: Number(opts.workers) }
  })
  try {
    const orgId = randomUUID()
    const userId = randomUUID()
    await workbay.run(Effect.flatMap(JobExecutors, (e) => e.register("template_version_import", importExecutor)))
    const started = performance.now()
    await workbay.run(
      Effect.flatMap(ProvisionerJobs, (jobs) =>
        Effect.forEach(Array.from({ length: n }), () =>
          jobs.enqueue({
            organization_id: orgId,
            initiator_id: userId,
            provisioner: "workbay",
            type: "template_version_import",
            file_id: randomUUID(),
            input: {},
            tags: {}
          }), { discard: true }))
    )
    const queuedIn = performance.now() - started
    let done: ReadonlyArray<{ created_at: Date; started_at: Date | null; completed_at: Date | null; status: string }> =
      []
    for (;;) {
      const all = await workbay.run(
        Effect.flatMap(ProvisionerJobs, (jobs) => jobs.list({ organizationId: orgId, limit: n + 1 }))
      )
      done = all.map((j) => ({ ...j, status: jobStatus(j) }))
      if (done.every((j) => j.completed_at !== null)) break
      if (performance.now() - started > 120_000) throw new Error("the jobs were not drained in two minutes")
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const elapsed = performance.now() - started
    const waits = done.map((j) => j.started_at!.getTime() - j.created_at.getTime()).sort((a, b) => a - b)
    const runs = done.map((j) => j.completed_at!.getTime() - j.started_at!.getTime()).sort((a, b) => a - b)
    const failed = done.filter((j) => j.status !== "succeeded").length
    const logs = await workbay.run(
      Effect.flatMap(ProvisionerJobs, (jobs) => jobs.logsAfter((done[0] as unknown as { id: string }).id))
    )
    return { n, elapsed, queuedIn, jobsPerSecond: n / (elapsed / 1000), waits, runs, failed, logLines: logs.length }
  } finally {
    await workbay.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

const startedAt = new Date()
const load0 = loadavg()
const lines: Array<string> = ["# Provisioner jobs", "", machineLine(startedAt, load0), ""]
lines.push("## (a) GET /organizations/{org}/provisionerjobs?limit=50 and the claim, by finished jobs in the table", "")
lines.push(
  "| finished jobs | GET alone p50 (ms) | GET p99 alone (ms) | GET under load (req/s) | load p99 (ms) | claim p50 (ms) | claim p99 (ms) |"
)
lines.push("|---|---|---|---|---|---|---|")
const results = []
for (const size of sizes) {
  log(`part (a) with ${size} finished jobs`)
  const r = await partA(size)
  results.push(r)
  lines.push(
    `| ${size.toLocaleString("en")} | ${fmt(r.alone.median, 2)} | ${fmt(r.alone.p99, 2)} | ${fmt(r.loaded.rps, 0)} | ${
      fmt(r.loaded.p99, 0)
    } | ${fmt(r.claimP50, 3)} | ${fmt(r.claimP99, 3)} |`
  )
}
if (results.length >= 2) {
  const [small, big] = [results[0]!, results[results.length - 1]!]
  lines.push(
    "",
    `Ratios largest/smallest: GET alone ${fmt(big.alone.median / small.alone.median, 2)}x, ` +
      `GET req/s ${fmt(big.loaded.rps / small.loaded.rps, 2)}x, claim p50 ${fmt(big.claimP50 / small.claimP50, 2)}x.`
  )
}
log(`part (b): ${opts.jobs} jobs, ${opts.workers} workers`)
const b = await partB()
lines.push(
  "",
  `## (b) ${b.n} queued jobs drained by ${opts.workers} built-in workers (workbay import of a small template)`,
  ""
)
lines.push(
  `- drained in ${fmt(b.elapsed / 1000, 2)} s: **${fmt(b.jobsPerSecond, 0)} jobs/s** (queueing them took ${
    fmt(b.queuedIn, 0)
  } ms); ${b.failed} not succeeded`
)
lines.push(
  `- run time per job (claimed to completed): p50 ${fmt(pct(b.runs, 0.5), 0)} ms, p99 ${fmt(pct(b.runs, 0.99), 0)} ms`
)
lines.push(
  `- wait from queued to claimed (mostly the backlog): p50 ${fmt(pct(b.waits, 0.5), 0)} ms, p99 ${
    fmt(pct(b.waits, 0.99), 0)
  } ms`
)
lines.push(`- log lines stored per job: ${b.logLines}`)
writeReport(lines.join("\n") + "\n", "jobs.md", { write: !opts["no-write"], log })
process.exit(0)
