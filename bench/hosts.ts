// Provisioner hosts at scale (issue 43; node --conditions=@workbay/source --import tsx bench/hosts.ts).
// Not a test: it measures and reports.
//
// The core services in process on a SQLite file (or a fresh Postgres database with --postgres <url>):
// (a) N hosts' capacity reports (ProvisionerHosts.report, N = 10,000 by default: one report round
//     of a fleet), then the write of all of them (flush: one statement per 500 hosts), then a flush
//     where nothing changed (what most rounds of an idle fleet cost), beside a bare baseline that
//     writes the same rows with one prepared INSERT per row in one transaction (better-sqlite3) or
//     one multi-row INSERT per 500 (pg);
// (b) placements among the N hosts (Placement.place), side by side with the way it was before the
//     snapshot (every decision reading the organization's hosts and the placed load, and scoring
//     every host: ProvisionerHosts.records, placedLoad, decidePlacement), and a bare read of the
//     same rows: 5 placements that find the snapshot a second old and read it anew (once a second
//     per organization while starts come), then placements from a snapshot just read: 1,000 with
//     most hosts having room, 100 with 1 in 16 having room, 50 refusals (no host has room).
// Writes bench/results/hosts.md. Options: --hosts 10000 --postgres <url> --no-write
import { SqlClient } from "@effect/sql"
import {
  decidePlacement,
  HOST_FLUSH_BATCH,
  hostStatus,
  IdGenerator,
  PasswordHasher,
  Placement,
  PLACEMENT_HOLD,
  type PlacementAsk,
  ProvisionerHosts,
  ProvisionerJobRepo,
  Provisioners,
  roomOf,
  ServicesLive,
  Settings,
  tagsMatch,
  ThisReplica,
  workbayProvisioner
} from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { Duration, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { fmt, logger, machineLine, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    hosts: { type: "string", default: "10000" },
    postgres: { type: "string" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("hosts")
const startedAt = new Date()
const load0 = loadavg()
const N = Number(opts.hosts)
const GIB = 1024 ** 3
const ms = (t: number) => performance.now() - t
const pct = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!
}

const dir = mkdtempSync(join(tmpdir(), "workbay-bench-hosts-"))
const file = join(dir, "workbay.db")
let dropDatabase: (() => Promise<void>) | undefined

const storage = async () => {
  if (opts.postgres === undefined) return { layer: Sqlite.layer({ filename: file }), label: "SQLite file" }
  const pg = (await import("pg")).default
  const name = `workbay_bench_hosts_${Math.random().toString(16).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: opts.postgres })
  await admin.connect()
  await admin.query(`CREATE DATABASE "${name}"`)
  await admin.end()
  const url = new URL(opts.postgres)
  url.pathname = `/${name}`
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: opts.postgres })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await c.end()
  }
  const Pg = await import("@workbay/storage-postgres")
  return { layer: Pg.layer({ url: url.toString() }), label: "Postgres", url: url.toString() }
}

const chosen = await storage()
const services = ServicesLive.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      chosen.layer,
      Settings.layer({}),
      PasswordHasher.scrypt(4),
      IdGenerator.layer,
      Provisioners.layer([workbayProvisioner]),
      ThisReplica.layer().pipe(Layer.provide(chosen.layer))
    )
  )
)

const figures = (i: number, round: number) => ({
  cpus: 16,
  memory_bytes: 64 * GIB,
  memory_promised_bytes: ((i + round) % 16) * GIB,
  cpus_promised: (i % 8) / 2,
  containers: (i + round) % 16,
  disk_free_bytes: 500 * GIB
})

const results = await Effect.runPromise(Effect.scoped(
  Effect.gen(function*() {
    const orgId = randomUUID()
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
    VALUES (${orgId}, 'bench', 'Bench', ${new Date().toISOString()}, ${new Date().toISOString()})`
    const hosts = yield* ProvisionerHosts
    const placement = yield* Placement
    const reporter = (i: number) => ({
      organization_id: orgId,
      name: `host-${String(i).padStart(5, "0")}`,
      tags: { scope: "organization" },
      provisioners: ["docker"],
      version: "bench"
    })

    // (a) one round of reports, its write, and a round where nothing changed.
    let t = performance.now()
    for (let i = 0; i < N; i++) yield* hosts.report(reporter(i), figures(i, 0))
    const reportMs = ms(t)
    t = performance.now()
    const written = yield* hosts.flush
    const flushMs = ms(t)
    for (let i = 0; i < N; i++) yield* hosts.report(reporter(i), figures(i, 0))
    t = performance.now()
    const unchanged = yield* hosts.flush
    const idleFlushMs = ms(t)
    log(
      `${N} reports ${fmt(reportMs)} ms; flush of ${written} ${fmt(flushMs)} ms; unchanged flush (${unchanged}) ${
        fmt(idleFlushMs)
      } ms`
    )

    // (b) placements among N hosts.
    const jobs = yield* ProvisionerJobRepo
    const job = { organization_id: orgId, provisioner: "docker", tags: { scope: "organization" } }
    const placeAsking = (memoryGib: number) =>
      placement.place(job, Effect.succeed({ memory_bytes: memoryGib * GIB, cpus: 1 }))
    /** As every decision was before the snapshot: the hosts and the placed load read, every host scored. */
    const placeReadingAll = (memoryGib: number) =>
      Effect.gen(function*() {
        const at = Date.now()
        const serving = (yield* hosts.records(orgId)).filter((h) =>
          hostStatus(h, at) === "connected" && h.draining !== true && h.provisioners.includes(job.provisioner) &&
          tagsMatch(job.tags, h.tags)
        )
        const ask: PlacementAsk = { ...job, memory_bytes: memoryGib * GIB, cpus: 1 }
        const placed = yield* jobs.placedLoad(orgId, new Date(at - Duration.toMillis(PLACEMENT_HOLD)))
        // Every host's room counted, as before (the decision among them is today's, a few draws).
        const rooms = serving.map((h) => roomOf(h, placed.get(h.name)))
        return decidePlacement(rooms, ask, (n) => Math.floor(Math.random() * n))
      })
    const timed = <A>(runs: number, effect: Effect.Effect<A>, check: (a: A) => boolean) =>
      Effect.gen(function*() {
        const times: Array<number> = []
        for (let k = 0; k < runs; k++) {
          const t0 = performance.now()
          const a = yield* effect
          times.push(ms(t0))
          if (!check(a)) throw new Error(`unexpected: ${JSON.stringify(a)}`)
        }
        return { p50: pct(times, 0.5), p90: pct(times, 0.9), p99: pct(times, 0.99) }
      })
    const placedDecision = (d: { readonly _tag: string }) => d._tag === "Placed"
    // Hosts stay connected 30 s after a report: a round of reports before each measure (as daemons report every 5 s).
    const reportAll = Effect.gen(function*() {
      for (let i = 0; i < N; i++) yield* hosts.report(reporter(i), figures(i, 0))
    })
    // A snapshot a second old is read anew by the placement that finds it so.
    yield* reportAll
    const refreshes: Array<number> = []
    for (let k = 0; k < 5; k++) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1100)))
      refreshes.push((yield* timed(1, placeAsking(2), placedDecision)).p50)
    }
    const refresh = pct(refreshes, 0.5)
    // Each series from a snapshot just read (a read meanwhile would be the one above).
    const fromSnapshot = <A>(runs: number, effect: Effect.Effect<A>, check: (a: A) => boolean) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1100)))
        yield* placeAsking(1)
        return yield* timed(runs, effect, check)
      })
    const roomy = yield* fromSnapshot(1000, placeAsking(2), placedDecision)
    // 64 GiB: only the hosts with nothing promised have room (1 in 16; each placement takes one's room).
    const scarce = yield* fromSnapshot(100, placeAsking(64), placedDecision)
    const refusal = yield* fromSnapshot(50, placeAsking(65), (d) => d._tag === "NoRoom")
    // Last, as its garbage (every row read 50 times) would otherwise be collected during the others.
    yield* reportAll
    const before = yield* timed(50, placeReadingAll(2), placedDecision)
    log(`before (every host read): p50 ${fmt(before.p50)} ms, p99 ${fmt(before.p99)} ms`)
    log(
      `placement among ${N}: reading the snapshot ${fmt(refresh)} ms; from it p50 ${fmt(roomy.p50, 3)} ms, p99 ${
        fmt(roomy.p99, 3)
      } ms; 1 in 16 with room p50 ${fmt(scarce.p50, 3)} / ${fmt(scarce.p99, 3)} ms; refusal ${fmt(refusal.p50, 3)} / ${
        fmt(refusal.p99, 3)
      } ms`
    )
    return { reportMs, flushMs, written, idleFlushMs, before, refresh, roomy, scarce, refusal, orgId }
  }).pipe(Effect.provide(services))
))

// The bare baseline: the same rows written and read with the driver alone.
const rows = Array.from({ length: N }, (_, i) => ({ name: `bare-${i}`, ...figures(i, 0) }))
let bareWriteMs: number
let bareReadMs: number
if (opts.postgres === undefined) {
  const db = new Database(file)
  const insert = db.prepare(`INSERT INTO provisioner_hosts (organization_id, name, tags, provisioners, version, cpus,
    cpus_promised, memory_bytes, memory_promised_bytes, containers, disk_free_bytes, first_seen_at, reported_at)
    VALUES (?, ?, '{}', '[]', '', ?, ?, ?, ?, ?, ?, ?, ?)`)
  const now = new Date().toISOString()
  let t = performance.now()
  db.transaction(() => {
    for (const r of rows) {
      insert.run(
        results.orgId,
        r.name,
        r.cpus,
        r.cpus_promised,
        r.memory_bytes,
        r.memory_promised_bytes,
        r.containers,
        r.disk_free_bytes,
        now,
        now
      )
    }
  })()
  bareWriteMs = ms(t)
  const select = db.prepare(`SELECT * FROM provisioner_hosts WHERE organization_id = ? AND name LIKE 'bare-%'`)
  t = performance.now()
  select.all(results.orgId)
  bareReadMs = ms(t)
  db.close()
} else {
  const pg = (await import("pg")).default
  const c = new pg.Client({ connectionString: chosen.url })
  await c.connect()
  const now = new Date().toISOString()
  let t = performance.now()
  for (let i = 0; i < rows.length; i += HOST_FLUSH_BATCH) {
    const batch = rows.slice(i, i + HOST_FLUSH_BATCH)
    const values: Array<unknown> = []
    const tuples = batch.map((r, j) => {
      values.push(
        results.orgId,
        r.name,
        r.cpus,
        r.cpus_promised,
        r.memory_bytes,
        r.memory_promised_bytes,
        r.containers,
        r.disk_free_bytes,
        now,
        now
      )
      const b = j * 10
      return `($${b + 1}, $${b + 2}, '{}', '[]', '', $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${
        b + 8
      }, $${b + 9}, $${b + 10})`
    })
    await c.query(
      `INSERT INTO provisioner_hosts (organization_id, name, tags, provisioners, version, cpus, cpus_promised,
        memory_bytes, memory_promised_bytes, containers, disk_free_bytes, first_seen_at, reported_at) VALUES ${
        tuples.join(", ")
      }`,
      values
    )
  }
  bareWriteMs = ms(t)
  t = performance.now()
  await c.query(`SELECT * FROM provisioner_hosts WHERE organization_id = $1 AND name LIKE 'bare-%'`, [results.orgId])
  bareReadMs = ms(t)
  await c.end()
}
log(`bare: write ${fmt(bareWriteMs)} ms, read ${fmt(bareReadMs)} ms`)

const report = [
  "# Provisioner hosts at scale",
  "",
  machineLine(startedAt, load0),
  "",
  `${N} hosts of one organization on ${chosen.label}, core services in process (bench/hosts.ts).`,
  "",
  "| measure | Workbay | bare baseline | ratio |",
  "|---|---:|---:|---:|",
  `| one round of ${N} reports kept in memory (ProvisionerHosts.report) | ${fmt(results.reportMs)} ms | | |`,
  `| their write (flush: ${Math.ceil(N / HOST_FLUSH_BATCH)} statements) | ${fmt(results.flushMs)} ms | ${
    fmt(bareWriteMs)
  } ms | ${fmt(results.flushMs / bareWriteMs, 2)}x |`,
  `| a flush where nothing changed | ${fmt(results.idleFlushMs)} ms | | |`,
  `| a placement among ${N} hosts as before the snapshot (every host read and scored), p50 / p99 of 50 | ${
    fmt(results.before.p50)
  } / ${fmt(results.before.p99)} ms | ${fmt(bareReadMs)} ms (read of the rows) | ${
    fmt(results.before.p50 / bareReadMs, 2)
  }x |`,
  `| a placement that reads the snapshot anew (a second old), median of 5 | ${fmt(results.refresh)} ms | ${
    fmt(bareReadMs)
  } ms | ${fmt(results.refresh / bareReadMs, 2)}x |`,
  `| a placement from the snapshot, p50 / p90 / p99 of 1,000 | ${fmt(results.roomy.p50, 3)} / ${
    fmt(results.roomy.p90, 3)
  } / ${fmt(results.roomy.p99, 3)} ms | ${fmt(results.before.p50)} ms (before) | ${
    fmt(results.before.p50 / results.roomy.p50, 0)
  }x faster |`,
  `| the same, 1 in 16 hosts with room (64 GiB asked), of 100 | ${fmt(results.scarce.p50, 3)} / ${
    fmt(results.scarce.p90, 3)
  } / ${fmt(results.scarce.p99, 3)} ms | | |`,
  `| the same, no host with room (the refusal: every host looked at), of 50 | ${fmt(results.refusal.p50, 3)} / ${
    fmt(results.refusal.p90, 3)
  } / ${fmt(results.refusal.p99, 3)} ms | | |`,
  ""
].join("\n")
writeReport(report, "hosts.md", { write: !opts["no-write"], log })
await dropDatabase?.()
rmSync(dir, { recursive: true, force: true })
