/**
 * Following a job's logs (`ProvisionerJobs.followLogs`) on the in-memory PubSub and SQLite:
 * stored lines, then new ones as they are stored, the end once the job is finished; the slow
 * fallback read when a signal is lost; the hang detector's signal.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  HangDetector,
  type NewProvisionerJobLog,
  ProvisionerJobRepo,
  ProvisionerJobs,
  type ProvisionerWorker
} from "@workbay/core"
import { Chunk, Effect, Exit, Fiber, Stream } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { FOLLOW_PAGE } from "../../src/provisioners/ProvisionerJobs.js"
import { services } from "../services.js"

const line = (output: string): NewProvisionerJobLog => ({
  created_at: new Date(),
  log_source: "provisioner",
  log_level: "info",
  stage: "Planning",
  output
})

const worker = (): ProvisionerWorker => ({
  id: randomUUID(),
  name: "w",
  provisioners: ["terraform"],
  tags: { scope: "organization" }
})

const runningJob = Effect.gen(function*() {
  const jobs = yield* ProvisionerJobs
  const job = yield* jobs.enqueue({
    organization_id: randomUUID(),
    initiator_id: randomUUID(),
    provisioner: "terraform",
    type: "template_version_import",
    file_id: randomUUID(),
    input: { template_version_id: randomUUID() },
    tags: {}
  })
  const w = worker()
  yield* jobs.acquire(w)
  return { job, w }
})

const outputs = (chunk: Chunk.Chunk<{ output: string }>) => Chunk.toArray(chunk).map((l) => l.output)

/** Lets the follower's fiber run until it waits. */
const settle = Effect.repeatN(Effect.yieldNow(), 50)

describe("ProvisionerJobs.followLogs", () => {
  it.scoped("gives the stored lines after `after`, then new ones, and ends when the job completes", () =>
    Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      const { job, w } = yield* runningJob
      yield* jobs.appendLogs(job.id, [line("one"), line("two"), line("three")])
      const first = (yield* jobs.logsAfter(job.id))[0]!
      const got: Array<string> = []
      const follower = yield* Stream.runForEach(
        jobs.followLogs(job.id, first.id),
        (l) => Effect.sync(() => got.push(l.output))
      ).pipe(Effect.fork)
      yield* settle
      expect(got).toEqual(["two", "three"])
      yield* jobs.appendLogs(job.id, [line("four")])
      yield* settle
      expect(got).toEqual(["two", "three", "four"])
      yield* jobs.appendLogs(job.id, [line("five")])
      yield* jobs.complete(job.id, w.id)
      expect(yield* Fiber.join(follower)).toBeUndefined()
      expect(got).toEqual(["two", "three", "four", "five"])
    }).pipe(Effect.provide(services())))

  it.effect("a finished job's follow gives its lines and ends; an unknown job is 404", () =>
    Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      const { job, w } = yield* runningJob
      yield* jobs.appendLogs(job.id, [line("a"), line("b")])
      yield* jobs.complete(job.id, w.id, { error: "boom" })
      expect(outputs(yield* Stream.runCollect(jobs.followLogs(job.id)))).toEqual(["a", "b"])
      for (const id of [randomUUID(), "not-a-uuid"]) {
        const exit = yield* Effect.exit(Stream.runDrain(jobs.followLogs(id)))
        expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("NotFound")
      }
    }).pipe(Effect.provide(services())))

  it.effect("reads a backlog page by page, in order", () =>
    Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      const { job, w } = yield* runningJob
      const n = FOLLOW_PAGE * 2 + 7
      yield* jobs.appendLogs(job.id, Array.from({ length: n }, (_, i) => line(String(i))))
      yield* jobs.complete(job.id, w.id)
      expect(outputs(yield* Stream.runCollect(jobs.followLogs(job.id)))).toEqual(
        Array.from({ length: n }, (_, i) => String(i))
      )
    }).pipe(Effect.provide(services())))

  it.scoped("without a signal, the fallback read finds lines and the end", () =>
    Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      const repo = yield* ProvisionerJobRepo
      const { job, w } = yield* runningJob
      const follower = yield* Stream.runCollect(jobs.followLogs(job.id, 0, { fallback: "5 seconds" })).pipe(Effect.fork)
      yield* settle
      // Straight to the repository: no signal.
      yield* repo.appendLogs(job.id, [line("quiet")], 1 << 20)
      yield* repo.complete(job.id, w.id, {}, new Date())
      yield* settle
      expect(follower.unsafePoll()).toBeNull()
      yield* TestClock.adjust("5 seconds")
      expect(outputs(yield* Fiber.join(follower))).toEqual(["quiet"])
    }).pipe(Effect.provide(services())))

  it.scoped("ends when the hang detector fails the job; cancel of a pending job ends its follow", () =>
    Effect.gen(function*() {
      const jobs = yield* ProvisionerJobs
      const { job } = yield* runningJob
      const follower = yield* Stream.runCollect(jobs.followLogs(job.id)).pipe(Effect.fork)
      yield* settle
      yield* TestClock.adjust("6 minutes")
      expect(yield* Effect.flatMap(HangDetector, (d) => d.detectOnce("5 minutes"))).toBe(1)
      expect(Chunk.size(yield* Fiber.join(follower))).toBe(0)

      const pending = yield* jobs.enqueue({
        organization_id: randomUUID(),
        initiator_id: randomUUID(),
        provisioner: "other",
        type: "template_version_import",
        file_id: randomUUID(),
        input: { template_version_id: randomUUID() },
        tags: {}
      })
      const waiting = yield* Stream.runCollect(jobs.followLogs(pending.id)).pipe(Effect.fork)
      yield* settle
      yield* jobs.cancel(pending.id)
      expect(Chunk.size(yield* Fiber.join(waiting))).toBe(0)
    }).pipe(Effect.provide(services())))
})
