/**
 * The queue's rules (tags, state moves and their refusals, queue standing, wire form) and the
 * hang detector's fiber, on real services over an in-memory SQLite storage, with Effect's
 * TestClock driving time.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  HangDetector,
  jobStatus,
  mutateTags,
  ProvisionerDaemons,
  ProvisionerHostRepo,
  ProvisionerJob,
  ProvisionerJobMetadata,
  ProvisionerJobs,
  type ProvisionerWorker
} from "@workbay/core"
import { Duration, Effect, Exit, Layer, Option, Schema } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { toProvisionerJob } from "../../src/provisioners/ProvisionerJob.js"
import { DEFAULT_HOST_WAIT, spokenDuration } from "../../src/provisioners/ProvisionerJobs.js"
import { services, signedInOwner } from "../services.js"

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0)
const ORG = randomUUID()
const ANN = randomUUID()

const enqueue = (overrides: { provisioner?: string; tags?: Record<string, string> } = {}) =>
  Effect.flatMap(ProvisionerJobs, (jobs) =>
    jobs.enqueue({
      organization_id: ORG,
      initiator_id: ANN,
      provisioner: overrides.provisioner ?? "terraform",
      type: "template_version_import",
      file_id: randomUUID(),
      input: { template_version_id: randomUUID() },
      tags: overrides.tags ?? {}
    }))

const worker = (overrides: Partial<ProvisionerWorker> = {}): ProvisionerWorker => ({
  id: randomUUID(),
  name: "built-in",
  provisioners: ["terraform"],
  tags: { scope: "organization" },
  ...overrides
})

const failure = <A, E>(exit: Exit.Exit<A, E>) => (Exit.isFailure(exit) ? exit.cause : undefined)
const errorOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (e) => e as unknown as { _tag: string; message: string })

/** Lets forked fibers run up to their next sleep. */
const settle = Effect.repeatN(Effect.yieldNow(), 20)

describe("ProvisionerJobs", () => {
  it("mutates tags as the described system: organization scope by default, owner only for user scope", () => {
    expect(mutateTags("u1", {})).toEqual({ scope: "organization" })
    expect(mutateTags("u1", { scope: "user" })).toEqual({ scope: "user", owner: "u1" })
    expect(mutateTags("u1", { scope: "user", owner: "u2" })).toEqual({ scope: "user", owner: "u1" })
    expect(mutateTags("u1", { scope: "organization", owner: "u2", region: "eu" })).toEqual({
      scope: "organization",
      region: "eu"
    })
  })

  it.effect("queues with effective tags; claims, completes; completing twice is refused", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const jobs = yield* ProvisionerJobs
      const job = yield* enqueue()
      expect(job).toMatchObject({ tags: { scope: "organization" }, created_at: new Date(T0) })
      const w = worker()
      const claimed = yield* jobs.acquire(w)
      expect(claimed._tag === "Some" && claimed.value.id).toBe(job.id)
      expect(yield* errorOf(jobs.complete(job.id, randomUUID()))).toMatchObject({
        _tag: "Conflict",
        message: "The job is running on another worker."
      })
      yield* TestClock.adjust("10 seconds")
      const done = yield* jobs.complete(job.id, w.id)
      expect(jobStatus(done)).toBe("succeeded")
      expect(done.completed_at).toEqual(new Date(T0 + 10_000))
      expect(yield* errorOf(jobs.complete(job.id, w.id))).toMatchObject({
        _tag: "Conflict",
        message: "The job cannot be completed: it is succeeded."
      })
      expect(yield* errorOf(jobs.heartbeat(job.id, w.id))).toMatchObject({ _tag: "Conflict" })
      expect(yield* errorOf(jobs.get(randomUUID()))).toMatchObject({
        _tag: "NotFound",
        message: "Provisioner job not found."
      })
    }).pipe(Effect.provide(services())))

  it.effect("cancels: pending at once, running through canceling; a finished or canceled job answers 400", () =>
    Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      const pending = yield* enqueue()
      expect(jobStatus(yield* jobs.cancel(pending.id))).toBe("canceled")
      expect(yield* errorOf(jobs.cancel(pending.id))).toMatchObject({
        _tag: "BadRequest",
        message: "Job has already been marked as canceled!"
      })
      const running = yield* enqueue()
      const w = worker()
      yield* jobs.acquire(w)
      expect(jobStatus(yield* jobs.cancel(running.id))).toBe("canceling")
      expect(yield* errorOf(jobs.cancel(running.id))).toMatchObject({
        _tag: "BadRequest",
        message: "Job has already been marked as canceled!"
      })
      expect((yield* jobs.heartbeat(running.id, w.id)).canceled_at).not.toBeNull()
      expect(jobStatus(yield* jobs.complete(running.id, w.id))).toBe("canceled")
      const finished = yield* enqueue()
      yield* jobs.acquire(w)
      yield* jobs.complete(finished.id, w.id, { error: "boom" })
      expect(yield* errorOf(jobs.cancel(finished.id))).toMatchObject({
        _tag: "BadRequest",
        message: "Job has already completed!"
      })
      expect(failure(yield* Effect.exit(jobs.cancel(randomUUID())))).toBeDefined()
    }).pipe(Effect.provide(services())))

  it.effect("a job whose type no worker serves stays pending, matched by none; queue standing counts what workers could run", () =>
    Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      const a = yield* enqueue()
      yield* TestClock.adjust("1 second")
      const docker = yield* enqueue({ provisioner: "docker" })
      yield* TestClock.adjust("1 second")
      const eu = yield* enqueue({ tags: { region: "eu" } })
      yield* TestClock.adjust("1 second")
      const b = yield* enqueue()
      const plain = worker({ id: "w1" })
      const euWorker = worker({ id: "w2", tags: { scope: "organization", region: "eu" } })
      expect(jobs.matching(docker, [plain, euWorker])).toEqual([])
      expect(jobs.matching(eu, [plain, euWorker]).map((w) => w.id)).toEqual(["w2"])
      expect(jobs.matching(a, [plain, euWorker]).map((w) => w.id)).toEqual(["w1", "w2"])
      expect(yield* jobs.queue(b, [plain])).toEqual({ position: 2, size: 2 })
      expect(yield* jobs.queue(b, [plain, euWorker])).toEqual({ position: 3, size: 3 })
      expect(yield* jobs.queue(docker, [plain, euWorker])).toEqual({ position: 0, size: 3 })
      expect(yield* jobs.queue(a, [])).toEqual({ position: 0, size: 0 })
      yield* jobs.acquire(worker({ provisioners: ["terraform", "echo"] }))
      expect(yield* jobs.queue(b, [plain])).toEqual({ position: 1, size: 1 })
      expect(jobStatus(yield* jobs.get(docker.id))).toBe("pending")
    }).pipe(Effect.provide(services())))

  it.effect("caps a job's logs; the wire record omits what is empty", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const jobs = yield* ProvisionerJobs
      const job = yield* enqueue()
      const line = {
        created_at: new Date(T0),
        log_source: "provisioner" as const,
        log_level: "info" as const,
        stage: "Init",
        output: "12345"
      }
      expect(yield* jobs.appendLogs(job.id, [])).toEqual({ appended: 0, overflowed: false })
      expect(yield* jobs.appendLogs(job.id, [line, line], 12)).toEqual({ appended: 2, overflowed: false })
      expect(yield* jobs.appendLogs(job.id, [line], 12)).toEqual({ appended: 0, overflowed: true })
      expect((yield* jobs.logsAfter(job.id)).map((l) => l.output)).toEqual(["12345", "12345"])
      const metadata = new ProvisionerJobMetadata({
        template_version_name: "v1",
        template_id: randomUUID(),
        template_name: "t",
        template_display_name: "",
        template_icon: ""
      })
      const wire = toProvisionerJob(yield* jobs.get(job.id), { metadata, queue: { position: 1, size: 1 } })
      const encoded = JSON.parse(JSON.stringify(Schema.encodeSync(ProvisionerJob)(wire))) as Record<string, unknown>
      expect(Object.keys(encoded).sort()).toEqual([
        "created_at",
        "file_id",
        "id",
        "initiator_id",
        "input",
        "logs_overflowed",
        "metadata",
        "organization_id",
        "queue_position",
        "queue_size",
        "status",
        "tags",
        "type"
      ])
      expect(encoded).toMatchObject({
        status: "pending",
        logs_overflowed: true,
        queue_position: 1,
        tags: { scope: "organization" }
      })
      expect(Object.keys(encoded.input as object)).toEqual(["template_version_id"])
    }).pipe(Effect.provide(services())))
})

describe("HangDetector.periodic with the TestClock", () => {
  it.scoped("fails a running job once its worker has not reported for the timeout", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const jobs = yield* ProvisionerJobs
      const quiet = yield* enqueue()
      const chatty = yield* enqueue()
      const waiting = yield* enqueue({ provisioner: "docker" })
      const w1 = worker()
      const w2 = worker()
      yield* jobs.acquire(w1) // quiet
      yield* jobs.acquire(w2) // chatty
      yield* Layer.buildWithScope(
        HangDetector.periodic({ interval: "1 minute", timeout: "5 minutes" }),
        yield* Effect.scope
      )
      yield* settle
      for (let minute = 1; minute <= 5; minute++) {
        yield* TestClock.adjust(Duration.minutes(1))
        yield* jobs.heartbeat(chatty.id, w2.id)
        yield* settle
      }
      // Last update at T0: at T0 + 5 min it is not yet older than 5 minutes.
      expect(jobStatus(yield* jobs.get(quiet.id))).toBe("running")
      yield* TestClock.adjust(Duration.minutes(1))
      yield* jobs.heartbeat(chatty.id, w2.id)
      yield* settle
      const failed = yield* jobs.get(quiet.id)
      expect(jobStatus(failed)).toBe("failed")
      expect(failed.error).toBe("Build has been detected as hung for 5 minutes and will be terminated.")
      expect(failed.completed_at).toEqual(new Date(T0 + 6 * 60_000))
      expect(jobStatus(yield* jobs.get(chatty.id))).toBe("running")
      expect(jobStatus(yield* jobs.get(waiting.id))).toBe("pending")
      // Its worker comes back too late.
      expect(yield* errorOf(jobs.complete(quiet.id, w1.id))).toMatchObject({ _tag: "Conflict" })
    }).pipe(Effect.provide(services())))

  it.effect("fails a job bound to a host with no live daemon after the wait, with the host's name; a served one waits", () =>
    Effect.gen(function*() {
      // An organization of the database's own, for the host's row.
      const { organizationId: hostsOrg } = yield* signedInOwner(T0)
      yield* TestClock.setTime(T0)
      const jobs = yield* ProvisionerJobs
      const daemons = yield* ProvisionerDaemons
      const detector = yield* HangDetector
      const enqueueOn = (host: string) =>
        jobs.enqueue({
          organization_id: ORG,
          initiator_id: ANN,
          provisioner: "docker",
          type: "workspace_build",
          file_id: randomUUID(),
          input: { workspace_build_id: randomUUID() },
          tags: {},
          host
        })
      const gone = yield* enqueueOn("gone")
      const served = yield* enqueueOn("alive")
      const alive = worker({ provisioners: ["docker"], organization_id: ORG, host: "alive" })
      yield* daemons.register(alive, {
        organization_id: ORG,
        key_id: randomUUID(),
        key_name: "k",
        version: "",
        api_version: "1.2",
        host: "alive"
      })
      // Within the wait, nothing is failed.
      yield* TestClock.adjust(Duration.minutes(1))
      yield* daemons.seen(alive.id)
      yield* detector.detectOnce()
      expect(jobStatus(yield* jobs.get(gone.id))).toBe("pending")
      yield* TestClock.adjust(Duration.minutes(2))
      yield* daemons.seen(alive.id)
      yield* detector.detectOnce()
      const failed = yield* jobs.get(gone.id)
      expect(jobStatus(failed)).toBe("failed")
      expect(failed.error).toMatch(
        /^host gone is not connected: no provisioner daemon of it took this job within 2 minutes/
      )
      expect(jobStatus(yield* jobs.get(served.id))).toBe("pending")
      // A host whose daemon row looks alive but whose capacity reports stopped (its daemon was killed
      // outright: the row stays "seen" for 90 s) is not connected either.
      const silent = yield* jobs.enqueue({
        organization_id: hostsOrg,
        initiator_id: ANN,
        provisioner: "docker",
        type: "workspace_build",
        file_id: randomUUID(),
        input: { workspace_build_id: randomUUID() },
        tags: {},
        host: "silent"
      })
      const killed = worker({ name: "silent", provisioners: ["docker"], organization_id: hostsOrg, host: "silent" })
      yield* daemons.register(killed, {
        organization_id: hostsOrg,
        key_id: randomUUID(),
        key_name: "k",
        version: "",
        api_version: "1.3",
        host: "silent"
      })
      const reportedAt = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis))
      yield* Effect.flatMap(ProvisionerHostRepo, (repo) =>
        repo.upsertMany([{
          organization_id: hostsOrg,
          name: "silent",
          tags: {},
          provisioners: ["docker"],
          version: "",
          cpus: 2,
          cpus_promised: 0,
          memory_bytes: 1024 ** 3,
          memory_promised_bytes: 0,
          containers: 0,
          disk_free_bytes: null,
          first_seen_at: reportedAt,
          reported_at: reportedAt
        }]))
      yield* TestClock.adjust(Duration.minutes(2).pipe(Duration.sum(Duration.seconds(1))))
      yield* daemons.seen(killed.id)
      yield* daemons.seen(alive.id)
      yield* detector.detectOnce()
      expect((yield* jobs.get(silent.id)).error).toMatch(/^host silent is not connected/)
      expect(jobStatus(yield* jobs.get(served.id))).toBe("pending")
      // Only the host's daemon takes the other: a worker of another host or of none does not.
      expect(Option.isNone(yield* jobs.acquire(worker({ provisioners: ["docker"], host: "other" })))).toBe(true)
      expect(Option.isNone(yield* jobs.acquire(worker({ provisioners: ["docker"] })))).toBe(true)
      const taken = yield* jobs.acquire(alive)
      expect(Option.isSome(taken) && taken.value.id).toBe(served.id)
    }).pipe(Effect.provide(services())))

  it.scoped("periodic with hostWait fails a host-bound job with no live daemon after that wait, not before", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const jobs = yield* ProvisionerJobs
      const job = yield* jobs.enqueue({
        organization_id: ORG,
        initiator_id: ANN,
        provisioner: "docker",
        type: "workspace_build",
        file_id: randomUUID(),
        input: { workspace_build_id: randomUUID() },
        tags: {},
        host: "gone"
      })
      yield* Layer.buildWithScope(
        HangDetector.periodic({ interval: "1 second", hostWait: "10 seconds" }),
        yield* Effect.scope
      )
      yield* settle
      // Sweeps every second up to T0 + 10 s: the job has not yet waited longer than 10 seconds.
      for (let second = 1; second <= 10; second++) {
        yield* TestClock.adjust(Duration.seconds(1))
        yield* settle
      }
      expect(jobStatus(yield* jobs.get(job.id))).toBe("pending")
      yield* TestClock.adjust(Duration.seconds(1))
      yield* settle
      const failed = yield* jobs.get(job.id)
      expect(jobStatus(failed)).toBe("failed")
      expect(failed.error).toBe(
        "host gone is not connected: no provisioner daemon of it took this job within 10 seconds. The workspace's home volume is on that host; start its daemon (workbay provisioner start --name gone) and build again."
      )
      expect(failed.completed_at).toEqual(new Date(T0 + 11_000))
    }).pipe(Effect.provide(services())))

  it("says the host wait in words", () => {
    expect(spokenDuration(DEFAULT_HOST_WAIT)).toBe("2 minutes")
    expect(spokenDuration("10 seconds")).toBe("10 seconds")
    expect(spokenDuration("1 second")).toBe("1 second")
    expect(spokenDuration("90 seconds")).toBe("1 minute 30 seconds")
    expect(spokenDuration("1 hour")).toBe("1 hour")
    expect(spokenDuration("1500 millis")).toBe("1 second 500 milliseconds")
    expect(spokenDuration(0)).toBe("0 seconds")
  })

  it.scoped("stops when its scope closes", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const jobs = yield* ProvisionerJobs
      const job = yield* enqueue()
      yield* jobs.acquire(worker())
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Layer.buildWithScope(
          HangDetector.periodic({ interval: "1 minute", timeout: "1 minute" }),
          yield* Effect.scope
        )
        yield* settle
      }))
      yield* TestClock.adjust(Duration.minutes(10))
      yield* settle
      expect(jobStatus(yield* jobs.get(job.id))).toBe("running")
      expect(yield* Effect.flatMap(HangDetector, (d) => d.detectOnce("1 minute"))).toBe(1)
    }).pipe(Effect.provide(services())))
})
