/**
 * The provisioner job queue contract (claims, state moves, hang detection, log cap, listings,
 * and the indexes the claim and listings read), written once and run against every storage.
 * Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  jobStatus,
  type NewProvisionerJob,
  type NewProvisionerJobLog,
  ProvisionerJobRepo,
  type ProvisionerWorker
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { queryPlan } from "../QueryPlan.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2025, 2, 3, 4, 5, 6, 700)
const at = (seconds: number) => new Date(T0 + seconds * 1000)

const ORG = randomUUID()

export const newJob = (seconds: number, overrides: Partial<NewProvisionerJob> = {}): NewProvisionerJob => ({
  id: randomUUID(),
  created_at: at(seconds),
  organization_id: ORG,
  initiator_id: randomUUID(),
  provisioner: "terraform",
  type: "template_version_import",
  file_id: randomUUID(),
  input: { template_version_id: randomUUID() },
  tags: { scope: "organization" },
  ...overrides
})

const worker = (overrides: Partial<ProvisionerWorker> = {}): ProvisionerWorker => ({
  id: randomUUID(),
  name: "worker-1",
  provisioners: ["terraform"],
  tags: { scope: "organization" },
  ...overrides
})

const log = (output: string, seconds = 0): NewProvisionerJobLog => ({
  created_at: at(seconds),
  log_source: "provisioner",
  log_level: "info",
  stage: "Planning",
  output
})

const claimedId = (o: Option.Option<{ readonly id: string }>) => Option.getOrThrow(o).id

/** Registers the provisioner job repository contract tests for one storage. */
export const jobRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`provisioner job repositories on ${name}`, () => {
    test(
      "keeps a queued job's fields; it starts pending with no worker",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const j = newJob(0, {
          tags: { scope: "user", owner: "u1", region: "eu" },
          input: { workspace_build_id: randomUUID() },
          type: "workspace_build"
        })
        const stored = yield* repo.enqueue(j)
        const expected = {
          ...j,
          updated_at: j.created_at,
          started_at: null,
          canceled_at: null,
          completed_at: null,
          error: "",
          error_code: "",
          worker_id: null,
          worker_name: "",
          logs_length: 0,
          logs_overflowed: false,
          host: null,
          placed_memory_bytes: 0,
          placed_cpus: 0
        }
        expect(stored).toEqual(expected)
        expect(Option.getOrThrow(yield* repo.findById(j.id))).toEqual(expected)
        expect(jobStatus(stored)).toBe("pending")
        expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
        expect(yield* repo.findByIds([j.id, randomUUID()])).toEqual([expected])
        expect(yield* repo.findByIds([])).toEqual([])
      })
    )

    test(
      "claims the oldest pending job of the worker's types, once; other types stay pending",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const newer = yield* repo.enqueue(newJob(20))
        const older = yield* repo.enqueue(newJob(10))
        const echo = yield* repo.enqueue(newJob(5, { provisioner: "echo" }))
        const w = worker()
        const first = Option.getOrThrow(yield* repo.acquire(w, at(100)))
        expect(first).toMatchObject({
          id: older.id,
          worker_id: w.id,
          worker_name: "worker-1",
          started_at: at(100),
          updated_at: at(100)
        })
        expect(jobStatus(first)).toBe("running")
        expect(claimedId(yield* repo.acquire(worker(), at(101)))).toBe(newer.id)
        expect(Option.isNone(yield* repo.acquire(w, at(102)))).toBe(true)
        // No worker serves an unknown type: it stays pending.
        expect(Option.isNone(yield* repo.acquire(worker({ provisioners: ["docker"] }), at(103)))).toBe(true)
        expect(jobStatus(Option.getOrThrow(yield* repo.findById(echo.id)))).toBe("pending")
        expect(claimedId(yield* repo.acquire(worker({ provisioners: ["terraform", "echo"] }), at(104)))).toBe(echo.id)
        expect(Option.isNone(yield* repo.acquire(worker({ provisioners: [] }), at(105)))).toBe(true)
      })
    )

    test(
      "claims a job only for a worker whose tags include all of the job's",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const eu = yield* repo.enqueue(newJob(0, { tags: { scope: "organization", region: "eu" } }))
        const mine = yield* repo.enqueue(newJob(1, { tags: { scope: "user", owner: "ann" } }))
        expect(Option.isNone(yield* repo.acquire(worker(), at(10)))).toBe(true)
        expect(Option.isNone(yield* repo.acquire(worker({ tags: { scope: "organization", region: "us" } }), at(10))))
          .toBe(true)
        expect(Option.isNone(yield* repo.acquire(worker({ tags: { scope: "user", owner: "ben" } }), at(10)))).toBe(true)
        expect(claimedId(yield* repo.acquire(worker({ tags: { scope: "user", owner: "ann", extra: "x" } }), at(11))))
          .toBe(mine.id)
        expect(
          claimedId(yield* repo.acquire(worker({ tags: { scope: "organization", region: "eu", gpu: "yes" } }), at(12)))
        ).toBe(eu.id)
        // A job with no tags runs anywhere its type runs.
        const bare = yield* repo.enqueue(newJob(2, { tags: {} }))
        expect(claimedId(yield* repo.acquire(worker({ tags: {} }), at(13)))).toBe(bare.id)
      })
    )

    test(
      "completes only the worker's running job, once: succeeded, or failed with an error code",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const a = yield* repo.enqueue(newJob(0))
        const b = yield* repo.enqueue(newJob(1))
        const w = worker()
        expect(Option.isNone(yield* repo.complete(a.id, w.id, {}, at(5)))).toBe(true) // pending: not its job
        yield* repo.acquire(w, at(10))
        yield* repo.acquire(w, at(11))
        expect(Option.isNone(yield* repo.complete(a.id, randomUUID(), {}, at(12)))).toBe(true)
        const done = Option.getOrThrow(yield* repo.complete(a.id, w.id, {}, at(20)))
        expect(done).toMatchObject({ completed_at: at(20), error: "" })
        expect(jobStatus(done)).toBe("succeeded")
        expect(Option.isNone(yield* repo.complete(a.id, w.id, { error: "again" }, at(21)))).toBe(true)
        const failed = Option.getOrThrow(
          yield* repo.complete(
            b.id,
            w.id,
            { error: "missing values", error_code: "REQUIRED_TEMPLATE_VARIABLES" },
            at(22)
          )
        )
        expect(failed).toMatchObject({ error: "missing values", error_code: "REQUIRED_TEMPLATE_VARIABLES" })
        expect(jobStatus(failed)).toBe("failed")
      })
    )

    test(
      "cancels a pending job at once, a running one through canceling; a finished one not",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const pending = yield* repo.enqueue(newJob(0))
        const running = yield* repo.enqueue(newJob(1))
        const canceled = Option.getOrThrow(yield* repo.requestCancel(pending.id, at(5)))
        expect(canceled).toMatchObject({ canceled_at: at(5), completed_at: at(5) })
        expect(jobStatus(canceled)).toBe("canceled")
        // A canceled job is never claimed.
        const w = worker()
        expect(claimedId(yield* repo.acquire(w, at(6)))).toBe(running.id)
        const canceling = Option.getOrThrow(yield* repo.requestCancel(running.id, at(7)))
        expect(canceling).toMatchObject({ canceled_at: at(7), completed_at: null })
        expect(jobStatus(canceling)).toBe("canceling")
        expect(Option.isNone(yield* repo.requestCancel(running.id, at(8)))).toBe(true)
        // The worker sees the request in its heartbeat, stops, and completes.
        expect(Option.getOrThrow(yield* repo.heartbeat(running.id, w.id, at(9))).canceled_at).toEqual(at(7))
        expect(jobStatus(Option.getOrThrow(yield* repo.complete(running.id, w.id, {}, at(10))))).toBe("canceled")
        expect(Option.isNone(yield* repo.requestCancel(running.id, at(11)))).toBe(true)
        expect(Option.isNone(yield* repo.requestCancel(pending.id, at(11)))).toBe(true)
        expect(Option.isNone(yield* repo.requestCancel(randomUUID(), at(11)))).toBe(true)
      })
    )

    test(
      "fails started jobs not updated since the cutoff; heartbeats keep a job alive",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const alive = yield* repo.enqueue(newJob(0))
        const hung = yield* repo.enqueue(newJob(1))
        const hungCanceling = yield* repo.enqueue(newJob(2))
        const pending = yield* repo.enqueue(newJob(3))
        const w1 = worker()
        const w2 = worker()
        yield* repo.acquire(w1, at(10))
        yield* repo.acquire(w2, at(10))
        yield* repo.acquire(w2, at(10))
        yield* repo.requestCancel(hungCanceling.id, at(20))
        expect(Option.getOrThrow(yield* repo.heartbeat(alive.id, w1.id, at(300))).updated_at).toEqual(at(300))
        expect(Option.isNone(yield* repo.heartbeat(alive.id, w2.id, at(300)))).toBe(true)
        expect(yield* repo.failHung(at(100), "hung", at(400))).toHaveLength(2)
        expect(yield* repo.failHung(at(100), "hung", at(401))).toEqual([])
        for (const id of [hung.id, hungCanceling.id]) {
          const j = Option.getOrThrow(yield* repo.findById(id))
          expect(j).toMatchObject({ error: "hung", completed_at: at(400) })
          expect(jobStatus(j)).toBe("failed")
        }
        expect(jobStatus(Option.getOrThrow(yield* repo.findById(alive.id)))).toBe("running")
        expect(jobStatus(Option.getOrThrow(yield* repo.findById(pending.id)))).toBe("pending")
        // A job failed as hung takes no more heartbeats or completions from its worker.
        expect(Option.isNone(yield* repo.heartbeat(hung.id, w2.id, at(402)))).toBe(true)
        expect(Option.isNone(yield* repo.complete(hung.id, w2.id, {}, at(402)))).toBe(true)
      })
    )

    test(
      "stores logs in order up to the cap; past it drops them and sets logs_overflowed",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const j = yield* repo.enqueue(newJob(0))
        const other = yield* repo.enqueue(newJob(1))
        expect(yield* repo.appendLogs(j.id, [log("héllo"), log("world", 1)], 20)).toEqual({
          appended: 2,
          overflowed: false
        })
        yield* repo.appendLogs(other.id, [log("other")], 20)
        expect(yield* repo.appendLogs(j.id, [log("0123456789")], 21)).toEqual({ appended: 1, overflowed: false })
        expect(Option.getOrThrow(yield* repo.findById(j.id))).toMatchObject({ logs_length: 21, logs_overflowed: false })
        const all = yield* repo.logsAfter(j.id, 0, 100)
        expect(all.map((l) => l.output)).toEqual(["héllo", "world", "0123456789"])
        expect(all[0]).toMatchObject({
          job_id: j.id,
          created_at: at(0),
          log_source: "provisioner",
          log_level: "info",
          stage: "Planning"
        })
        expect(all[0]!.id).toBeLessThan(all[1]!.id)
        expect((yield* repo.logsAfter(j.id, all[0]!.id, 1)).map((l) => l.output)).toEqual(["world"])
        // 21 bytes stored: at a cap of 21 the next line does not fit, and nothing more is taken.
        expect(yield* repo.appendLogs(j.id, [log("x")], 21)).toEqual({ appended: 0, overflowed: true })
        expect(yield* repo.appendLogs(j.id, [log("")], 1000)).toEqual({ appended: 0, overflowed: true })
        expect(Option.getOrThrow(yield* repo.findById(j.id)).logs_overflowed).toBe(true)
        expect(yield* repo.logsAfter(j.id, 0, 100)).toHaveLength(3)
        expect(Option.getOrThrow(yield* repo.findById(other.id)).logs_overflowed).toBe(false)
      })
    )

    test(
      "lists an organization's jobs newest first, by ids, statuses, tags and initiator",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const ann = randomUUID()
        const a = yield* repo.enqueue(newJob(0, { initiator_id: ann, tags: { scope: "organization", region: "eu" } }))
        const b = yield* repo.enqueue(newJob(1))
        const c = yield* repo.enqueue(newJob(2, { initiator_id: ann }))
        yield* repo.enqueue(newJob(3, { organization_id: randomUUID() }))
        yield* repo.acquire(worker({ tags: { scope: "organization", region: "eu" } }), at(10)) // a runs
        yield* repo.requestCancel(b.id, at(11)) // b canceled
        const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id)
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10 }))).toEqual([c.id, b.id, a.id])
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 2 }))).toEqual([c.id, b.id])
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10, ids: [a.id, c.id] }))).toEqual([
          c.id,
          a.id
        ])
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10, ids: [] }))).toEqual([])
        expect(
          ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10, statuses: ["running", "canceled"] }))
        ).toEqual([b.id, a.id])
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10, statuses: ["pending"] }))).toEqual([
          c.id
        ])
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10, tags: { region: "eu" } }))).toEqual(
          [a.id]
        )
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10, tags: { region: "us" } }))).toEqual(
          []
        )
        expect(ids(yield* repo.listByOrganization({ organizationId: ORG, limit: 10, initiatorId: ann }))).toEqual([
          c.id,
          a.id
        ])
        expect(ids(yield* repo.listByOrganization({ organizationId: randomUUID(), limit: 10 }))).toEqual([])
      })
    )

    test(
      "reads the pending jobs of given types oldest first",
      Effect.gen(function*() {
        const repo = yield* ProvisionerJobRepo
        const b = yield* repo.enqueue(newJob(2, { tags: { scope: "organization", region: "eu" } }))
        const a = yield* repo.enqueue(newJob(1))
        const e = yield* repo.enqueue(newJob(0, { provisioner: "echo" }))
        const started = yield* repo.enqueue(newJob(-1))
        yield* repo.acquire(worker(), at(0))
        expect((yield* repo.pending(["terraform"])).map((p) => p.id)).toEqual([a.id, b.id])
        expect((yield* repo.pending(["terraform", "echo"])).map((p) => p.id)).toEqual([e.id, a.id, b.id])
        expect((yield* repo.pending(["terraform"]))[1]).toEqual({
          id: b.id,
          provisioner: "terraform",
          tags: b.tags,
          created_at: b.created_at
        })
        expect(yield* repo.pending([])).toEqual([])
        expect((yield* repo.pending(["terraform"])).some((p) => p.id === started.id)).toBe(false)
      })
    )

    test(
      "the claim reads the pending-jobs index and a listing the organization index, never scanning finished jobs",
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const claim = `SELECT id FROM provisioner_jobs
          WHERE started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL AND provisioner IN ('terraform')
          ORDER BY created_at LIMIT 1`
        const list = `SELECT * FROM provisioner_jobs WHERE organization_id = '${ORG}' ORDER BY created_at DESC LIMIT 50`
        const hung =
          `SELECT id FROM provisioner_jobs WHERE started_at IS NOT NULL AND completed_at IS NULL AND updated_at < '2025-01-01T00:00:00.000Z'`
        // A tiny table is scanned whatever its indexes; with scans off the plan shows the index a large one uses.
        const plan = (q: string) => Effect.map(queryPlan(q, [], "seqscan"), (lines) => lines.join("\n"))
        const c = yield* plan(claim)
        const l = yield* plan(list)
        yield* sql.onDialectOrElse({
          pg: () =>
            Effect.sync(() => {
              expect(c).toMatch(/Index Scan using provisioner_jobs_pending/)
              expect(c).not.toMatch(/Sort/)
              expect(l).toMatch(/Index Scan Backward using provisioner_jobs_organization/)
              expect(l).not.toMatch(/Sort/)
            }),
          orElse: () =>
            Effect.sync(() => {
              expect(c).toMatch(/SEARCH provisioner_jobs USING INDEX provisioner_jobs_pending \(provisioner=\?\)/)
              expect(c).not.toMatch(/TEMP B-TREE/)
              expect(l).toMatch(
                /SEARCH provisioner_jobs USING INDEX provisioner_jobs_organization \(organization_id=\?\)/
              )
              expect(l).not.toMatch(/TEMP B-TREE/)
            })
        })
        expect(yield* plan(hung)).toMatch(/provisioner_jobs_running/)
      })
    )
  })
}
