/**
 * The built-in provisioner workers on real services over an in-memory SQLite storage, with the
 * TestClock driving polls, heartbeats, log flushes and the hang detector.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  HangDetector,
  type JobExecutor,
  JobExecutors,
  jobStatus,
  ProvisionerDaemons,
  ProvisionerJobRepo,
  ProvisionerJobs,
  type ProvisionerJobType,
  Provisioners,
  ProvisionerWorkers,
  workbayProvisioner,
  type WorkerOptions
} from "@workbay/core"
import { Deferred, Effect, Layer, Ref } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { services } from "../services.js"
import { tarOf } from "../templates/archives.js"

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0)
const ORG = randomUUID()
const ANN = randomUUID()

const TEMPLATE = `
parameters:
  - name: region
    default: eu
resources:
  - name: box
    type: workbay_machine
`
// A tar: reading one waits on event-loop turns only (a zip's entries inflate on zlib's thread pool,
// which `settle` cannot wait for deterministically).
const archive = await tarOf({ "template.yaml": TEMPLATE })

/** Imports the archive above with the job's provisioner, logging through the worker's sink. */
const importExecutor: JobExecutor = (_job, ctx) =>
  Effect.as(
    ctx.provisioner.import({ archive, content_type: "application/x-tar", variable_values: [], onLog: ctx.log }),
    {}
  )

const layer = (executors: Parameters<typeof JobExecutors.register>[0]) =>
  Layer.mergeAll(ProvisionerWorkers.Default, JobExecutors.register(executors)).pipe(
    Layer.provideMerge(Layer.merge(services(), Provisioners.layer([workbayProvisioner])))
  )

const enqueue = (overrides: { provisioner?: string; type?: ProvisionerJobType } = {}) =>
  Effect.flatMap(ProvisionerJobs, (jobs) =>
    jobs.enqueue({
      organization_id: ORG,
      initiator_id: ANN,
      provisioner: overrides.provisioner ?? "workbay",
      type: overrides.type ?? "template_version_import",
      file_id: randomUUID(),
      input: { template_version_id: randomUUID() },
      tags: {}
    }))

/** Lets forked fibers run up to their next sleep. */
// Fiber yields and event-loop turns: reading a job's archive lets the event loop turn.
const settle = Effect.repeatN(
  Effect.zipRight(Effect.yieldNow(), Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))),
  50
)

/**
 * Turns the event loop until `done` holds, at most 2,000 times: the first import of a run loads
 * the libraries it reads archives with (on first use), which takes more turns than `settle` gives.
 */
const settleUntil = <E, R>(done: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 2_000 && !(yield* done); i++) {
      yield* Effect.zipRight(Effect.yieldNow(), Effect.promise(() => new Promise((resolve) => setImmediate(resolve))))
    }
  })

const start = (options: WorkerOptions = {}) =>
  Effect.flatMap(ProvisionerWorkers, (w) => w.start({ count: 1, ...options })).pipe(Effect.tap(settle))

const statusOf = (id: string) => Effect.map(Effect.flatMap(ProvisionerJobs, (j) => j.get(id)), jobStatus)

describe("ProvisionerWorkers", () => {
  it.scoped("claims a queued job at once (the enqueue wakes it), runs it, stores its logs and completes it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const [worker] = yield* start()
      const job = yield* enqueue()
      yield* settleUntil(Effect.map(statusOf(job.id), (s) => s === "succeeded" || s === "failed"))
      const done = yield* Effect.flatMap(ProvisionerJobs, (j) => j.get(job.id))
      expect(jobStatus(done)).toBe("succeeded")
      expect(done.worker_id).toBe(worker!.id)
      expect(done.worker_name).toBe("built-in-1")
      const logs = yield* Effect.flatMap(ProvisionerJobs, (j) => j.logsAfter(job.id))
      expect(logs.length).toBeGreaterThan(0)
      expect(logs.every((l) => l.log_source === "provisioner")).toBe(true)
      expect(logs.map((l) => l.stage)).toContain("Parsing template parameters")
      // The daemon row: registered, idle, its previous job this one.
      const [daemon] = yield* Effect.flatMap(ProvisionerDaemons, (d) => d.list({ organizationId: ORG, limit: 10 }))
      expect(daemon).toMatchObject({
        id: worker!.id,
        name: "built-in-1",
        status: "idle",
        key_name: "built-in",
        organization_id: ORG,
        current_job: null
      })
      expect(daemon!.previous_job).toMatchObject({ id: job.id, status: "succeeded" })
    }).pipe(Effect.provide(layer({ template_version_import: importExecutor }))))

  it.scoped("finds jobs queued elsewhere (no in-process signal) by polling", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      yield* start({ pollInterval: "2 seconds" })
      // Queued straight into the repository, as another process would.
      const repo = yield* ProvisionerJobRepo
      const job = yield* repo.enqueue({
        id: randomUUID(),
        created_at: new Date(T0),
        organization_id: ORG,
        initiator_id: ANN,
        provisioner: "workbay",
        type: "template_version_import",
        file_id: randomUUID(),
        input: {},
        tags: { scope: "organization" }
      })
      yield* TestClock.adjust("1 second")
      yield* settle
      expect(yield* statusOf(job.id)).toBe("pending")
      yield* TestClock.adjust("1 second")
      yield* settle
      expect(yield* statusOf(job.id)).toBe("succeeded")
    }).pipe(Effect.provide(layer({ template_version_import: importExecutor }))))

  it.scoped("a job whose type has no executor fails with a message; an executor's failure or defect fails the job", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      yield* start()
      // Every job type of the API has an executor; a type nobody registered (a newer replica's, say) fails.
      const build = yield* enqueue({ type: "some_future_type" as ProvisionerJobType })
      yield* settle
      const failed = yield* Effect.flatMap(ProvisionerJobs, (j) => j.get(build.id))
      expect(jobStatus(failed)).toBe("failed")
      expect(failed.error).toBe(`No executor is registered for provisioner jobs of type "some_future_type".`)
    }).pipe(Effect.provide(layer({}))))

  it.scoped("an executor that fails or dies fails the job with its message and code", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const calls = yield* Ref.make(0)
      const flaky: JobExecutor = () =>
        Effect.flatMap(Ref.getAndUpdate(calls, (n) => n + 1), (n) =>
          n === 0
            ? Effect.fail({ message: "Missing variable.", error_code: "REQUIRED_TEMPLATE_VARIABLES" })
            : Effect.die(new Error("kaboom")))
      return yield* Effect.gen(function*() {
        yield* start()
        const a = yield* enqueue()
        yield* settle
        const b = yield* enqueue()
        yield* settle
        const jobs = yield* ProvisionerJobs
        expect(yield* jobs.get(a.id)).toMatchObject({
          error: "Missing variable.",
          error_code: "REQUIRED_TEMPLATE_VARIABLES"
        })
        expect((yield* jobs.get(b.id)).error).toBe("The provisioner job failed unexpectedly: kaboom")
        expect(jobStatus(yield* jobs.get(b.id))).toBe("failed")
      }).pipe(Effect.provide(layer({ template_version_import: flaky })))
    }))

  it.scoped("cancel while running: the heartbeat sees it, the executor is interrupted, the job ends canceled", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const interrupted = yield* Deferred.make<void>()
      const slow: JobExecutor = (_job, ctx) =>
        Effect.zipRight(
          ctx.log({ created_at: new Date(T0), level: "info", stage: "Working", output: "started" }),
          Effect.onInterrupt(Effect.as(Effect.sleep("1 hour"), {}), () => Deferred.succeed(interrupted, undefined))
        )
      return yield* Effect.gen(function*() {
        yield* start({ heartbeatInterval: "10 seconds" })
        const job = yield* enqueue()
        yield* settle
        expect(yield* statusOf(job.id)).toBe("running")
        const [daemon] = yield* Effect.flatMap(ProvisionerDaemons, (d) => d.list({ organizationId: ORG, limit: 10 }))
        expect(daemon).toMatchObject({ status: "busy", current_job: { id: job.id, status: "running" } })
        yield* Effect.flatMap(ProvisionerJobs, (j) => j.cancel(job.id))
        expect(yield* statusOf(job.id)).toBe("canceling")
        yield* TestClock.adjust("10 seconds")
        yield* settle
        expect(yield* Deferred.isDone(interrupted)).toBe(true)
        expect(yield* statusOf(job.id)).toBe("canceled")
        // The line logged before the cancel was flushed before completion.
        expect((yield* Effect.flatMap(ProvisionerJobs, (j) => j.logsAfter(job.id))).map((l) => l.output)).toEqual([
          "started"
        ])
      }).pipe(Effect.provide(layer({ template_version_import: slow })))
    }))

  it.scoped("logs are stored while the job runs, at least every 250 ms", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const chatty: JobExecutor = (_job, ctx) =>
        Effect.gen(function*() {
          for (let i = 0; i < 3; i++) {
            yield* ctx.log({ created_at: new Date(T0), level: "info", stage: "Loop", output: `line ${i}` })
            yield* Effect.sleep("1 second")
          }
          return {}
        })
      return yield* Effect.gen(function*() {
        yield* start()
        const job = yield* enqueue()
        yield* settle
        const jobs = yield* ProvisionerJobs
        expect(yield* jobs.logsAfter(job.id)).toEqual([])
        yield* TestClock.adjust("250 millis")
        yield* settle
        expect((yield* jobs.logsAfter(job.id)).map((l) => l.output)).toEqual(["line 0"])
        yield* TestClock.adjust("1 second")
        yield* settle
        expect((yield* jobs.logsAfter(job.id)).map((l) => l.output)).toEqual(["line 0", "line 1"])
        yield* TestClock.adjust("2 seconds")
        yield* settle
        expect(yield* statusOf(job.id)).toBe("succeeded")
        expect((yield* jobs.logsAfter(job.id)).map((l) => l.output)).toEqual(["line 0", "line 1", "line 2"])
      }).pipe(Effect.provide(layer({ template_version_import: chatty })))
    }))

  it.scoped("heartbeats keep a long job alive under the hang detector", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const long: JobExecutor = () => Effect.as(Effect.sleep("20 minutes"), {})
      return yield* Effect.gen(function*() {
        yield* Layer.buildWithScope(
          HangDetector.periodic({ interval: "1 minute", timeout: "5 minutes" }),
          yield* Effect.scope
        )
        yield* start({ heartbeatInterval: "10 seconds" })
        const job = yield* enqueue()
        yield* settle
        for (let i = 0; i < 15 * 6; i++) {
          yield* TestClock.adjust("10 seconds")
          yield* settle
        }
        expect(yield* statusOf(job.id)).toBe("running")
        for (let i = 0; i < 5 * 6 + 1; i++) {
          yield* TestClock.adjust("10 seconds")
          yield* settle
        }
        expect(yield* statusOf(job.id)).toBe("succeeded")
      }).pipe(Effect.provide(layer({ template_version_import: long })))
    }))

  it.scoped("a job hung-failed while running: the heartbeat's 409 stops the executor and the job stays failed", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const interrupted = yield* Deferred.make<void>()
      const slow: JobExecutor = () =>
        Effect.onInterrupt(Effect.as(Effect.sleep("1 hour"), {}), () => Deferred.succeed(interrupted, undefined))
      return yield* Effect.gen(function*() {
        // Heartbeats slower than the hang timeout: a misconfiguration the detector catches.
        yield* start({ heartbeatInterval: "10 minutes" })
        const job = yield* enqueue()
        yield* settle
        yield* TestClock.adjust("6 minutes")
        expect(yield* Effect.flatMap(HangDetector, (d) => d.detectOnce("5 minutes"))).toBe(1)
        yield* TestClock.adjust("4 minutes")
        yield* settle
        expect(yield* Deferred.isDone(interrupted)).toBe(true)
        const failed = yield* Effect.flatMap(ProvisionerJobs, (j) => j.get(job.id))
        expect(jobStatus(failed)).toBe("failed")
        expect(failed.error).toBe("Build has been detected as hung for 5 minutes and will be terminated.")
      }).pipe(Effect.provide(layer({ template_version_import: slow })))
    }))

  it.scoped("a job of a provisioner type no worker serves stays pending", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      yield* start()
      const job = yield* enqueue({ provisioner: "terraform" })
      yield* settle
      yield* TestClock.adjust("1 minute")
      yield* settle
      expect(yield* statusOf(job.id)).toBe("pending")
      const matched = yield* Effect.flatMap(ProvisionerDaemons, (d) =>
        d.matched({ organization_id: ORG, provisioner: "terraform", tags: { scope: "organization" } }))
      expect(matched).toMatchObject({ count: 0, available: 0 })
      const workbay = yield* Effect.flatMap(ProvisionerDaemons, (d) =>
        d.matched({ organization_id: ORG, provisioner: "workbay", tags: { scope: "organization" } }))
      expect(workbay).toMatchObject({ count: 1, available: 1, most_recently_seen: new Date(T0 + 60_000) })
    }).pipe(Effect.provide(layer({ template_version_import: importExecutor }))))

  it.scoped("stopping the workers fails the job they run; daemons go offline after 90 s", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const slow: JobExecutor = () => Effect.as(Effect.sleep("1 hour"), {})
      return yield* Effect.gen(function*() {
        const job = yield* Effect.scoped(Effect.gen(function*() {
          yield* start()
          const job = yield* enqueue()
          yield* settle
          return job
        }))
        const stopped = yield* Effect.flatMap(ProvisionerJobs, (j) => j.get(job.id))
        expect(stopped).toMatchObject({ error: "The provisioner worker stopped before the job finished." })
        const daemons = yield* ProvisionerDaemons
        yield* TestClock.adjust("89 seconds")
        expect((yield* daemons.list({ organizationId: ORG, limit: 10 }))[0]!.status).not.toBe("offline")
        yield* TestClock.adjust("2 seconds")
        expect((yield* daemons.list({ organizationId: ORG, limit: 10 }))[0]!.status).toBe("offline")
        expect(yield* daemons.list({ organizationId: ORG, limit: 10, statuses: ["idle", "busy"] })).toEqual([])
        expect(yield* daemons.matched({ organization_id: ORG, provisioner: "workbay", tags: {} })).toMatchObject({
          count: 1,
          available: 0
        })
      }).pipe(Effect.provide(layer({ template_version_import: slow })))
    }))
})
