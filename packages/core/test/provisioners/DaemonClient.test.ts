/**
 * The daemon's side of the provisioner daemon protocol, driven message by message as the service
 * speaks it (docs/provisioner-daemons.md): a build asks for its agent's token and answers its
 * result with the build's metadata passed through, its planned cost waits for the service's
 * quota answer, a failure keeps its code and variables, a cancel interrupts the job, and a stop lets the running job end before the link closes.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  type BuildInput,
  type DaemonLink,
  makeProvisioners,
  type Provisioner,
  ProvisionerFailure,
  runDaemonSession
} from "@workbay/core"
import { Deferred, Effect, Fiber, Option, Queue } from "effect"
import * as TestClock from "effect/TestClock"

const JOB = "5f0c2a9e-8b3d-4c1e-9a7f-0d1e2f3a4b5c"

/** Both ends of an in-memory link: what the daemon sent, and a way to send it the service's messages. */
const makeLink = Effect.gen(function*() {
  const toDaemon = yield* Queue.unbounded<string>()
  const fromDaemon = yield* Queue.unbounded<Record<string, any>>()
  const closed = yield* Deferred.make<void>()
  const link: DaemonLink = {
    send: (text) => Queue.offer(fromDaemon, JSON.parse(text)),
    receive: Effect.raceFirst(
      Queue.take(toDaemon),
      Effect.flatMap(Deferred.await(closed), () => Effect.fail("closed"))
    ),
    close: Deferred.succeed(closed, undefined).pipe(Effect.asVoid)
  }
  const say = (message: object) => Queue.offer(toDaemon, JSON.stringify(message))
  /** The next message of `type` the daemon sent (heartbeats and logs skipped unless asked). */
  const heard = (type: string) =>
    Effect.gen(function*() {
      while (true) {
        const m = yield* Queue.take(fromDaemon)
        if (m.type === type) return m
      }
    })
  return { link, say, heard, closed }
})

const welcome = {
  type: "welcome",
  protocol: "1.2",
  daemon_id: "d1",
  name: "host-1",
  organization_id: "o1",
  provisioners: ["fake"],
  tags: { scope: "organization" },
  heartbeat_interval_ms: 60_000
}

const buildJob = {
  type: "job",
  job_id: JOB,
  job_type: "workspace_build",
  provisioner: "fake",
  organization_id: "o1",
  tags: {},
  operation: "build",
  build: {
    archive: Buffer.from("archive").toString("base64"),
    content_type: "application/x-tar",
    transition: "start",
    variable_values: [],
    parameter_values: [{ name: "size", value: "2" }],
    previous_state: "",
    workspace: { id: "w1", name: "dev", owner: "alice" },
    metadata: {
      deployment_id: "dep",
      access_url: "http://control.example",
      workspace_build_id: "b1",
      build_number: 3,
      workspace_owner_id: "u1",
      template_id: "t1",
      template_name: "docker",
      template_version_id: "v1"
    }
  }
}

const fake = (build: Provisioner["build"]): Provisioner => ({
  type: "fake",
  import: () => Effect.fail(new ProvisionerFailure({ message: "no imports here", logs: [] })),
  build
})

describe("runDaemonSession", () => {
  it.effect("runs a build: asks for its agent's token, passes the metadata and answers the result", () =>
    Effect.gen(function*() {
      const { heard, link, say } = yield* makeLink
      let seen: BuildInput | undefined
      const provisioner = fake((input) =>
        Effect.gen(function*() {
          seen = input
          const token = yield* input.agentToken("main")
          yield* input.onLog!({ created_at: new Date(0), level: "info", stage: "Starting", output: "hello" })
          return {
            resources: [{
              name: "box",
              type: "docker_container",
              hide: false,
              icon: "",
              daily_cost: 1,
              metadata: [{ key: "token", value: token, sensitive: true }],
              agents: []
            }],
            state: new Uint8Array([1, 2, 3]),
            daily_cost: 1,
            has_ai_task: false,
            has_external_agent: false,
            logs: []
          }
        })
      )
      const session = yield* Effect.fork(runDaemonSession(link, { provisioners: makeProvisioners([provisioner]) }))
      yield* say(welcome)
      expect(yield* heard("acquire")).toEqual({ type: "acquire" })
      yield* say(buildJob)
      expect(yield* heard("agent_token")).toEqual({ type: "agent_token", job_id: JOB, name: "main" })
      yield* say({ type: "agent_token", job_id: JOB, name: "main", token: "secret-token" })
      expect(yield* heard("log")).toMatchObject({
        job_id: JOB,
        logs: [{ level: "info", stage: "Starting", output: "hello", created_at: "1970-01-01T00:00:00.000Z" }]
      })
      const complete = yield* heard("complete")
      expect(complete.result.state).toBe(Buffer.from([1, 2, 3]).toString("base64"))
      expect(complete.result.resources[0].metadata[0].value).toBe("secret-token")
      expect(seen?.metadata).toEqual(buildJob.build.metadata)
      expect(seen?.parameter_values).toEqual([{ name: "size", value: "2" }])
      yield* say({ type: "job_done", job_id: JOB, status: "succeeded", error: "" })
      expect(yield* heard("acquire")).toEqual({ type: "acquire" })
      yield* Fiber.interrupt(session)
    }))

  it.effect("answers a failure with its code and variables, and a type it does not run as a failure", () =>
    Effect.gen(function*() {
      const { heard, link, say } = yield* makeLink
      const variables = [{
        name: "region",
        description: "",
        type: "string" as const,
        value: "",
        default_value: "",
        required: true,
        sensitive: false
      }]
      const provisioner = fake(() =>
        Effect.fail(new ProvisionerFailure({ message: "missing", error_code: "REQUIRED", variables, logs: [] }))
      )
      const session = yield* Effect.fork(runDaemonSession(link, { provisioners: makeProvisioners([provisioner]) }))
      yield* say(welcome)
      yield* heard("acquire")
      yield* say(buildJob)
      expect(yield* heard("fail")).toEqual({
        type: "fail",
        job_id: JOB,
        error: "missing",
        error_code: "REQUIRED",
        variables
      })
      yield* say({ type: "job_done", job_id: JOB, status: "failed", error: "missing" })
      yield* heard("acquire")
      yield* say({ ...buildJob, provisioner: "kubernetes" })
      expect((yield* heard("fail")).error).toBe("This provisioner daemon runs no provisioner of type \"kubernetes\".")
      yield* Fiber.interrupt(session)
    }))

  it.effect("commits the planned cost with the service before going on, and fails on its refusal", () =>
    Effect.gen(function*() {
      const { heard, link, say } = yield* makeLink
      const provisioner = fake((input) =>
        Effect.gen(function*() {
          yield* input.commitQuota!(7)
          yield* input.commitQuota!(9)
          return yield* Effect.die("not reached: the second commit is refused")
        }).pipe(
          Effect.catchTag("QuotaExceeded", (e) => Effect.fail(new ProvisionerFailure({ message: e.message, logs: [] })))
        )
      )
      const session = yield* Effect.fork(runDaemonSession(link, { provisioners: makeProvisioners([provisioner]) }))
      yield* say(welcome)
      yield* heard("acquire")
      yield* say(buildJob)
      expect(yield* heard("commit_quota")).toEqual({ type: "commit_quota", job_id: JOB, daily_cost: 7 })
      yield* say({ type: "quota", job_id: JOB, ok: true })
      expect(yield* heard("commit_quota")).toEqual({ type: "commit_quota", job_id: JOB, daily_cost: 9 })
      yield* say({ type: "quota", job_id: JOB, ok: false, message: "Insufficient quota." })
      expect(yield* heard("fail")).toEqual({ type: "fail", job_id: JOB, error: "Insufficient quota." })
      yield* Fiber.interrupt(session)
    }))

  it.effect("interrupts the job on a cancel", () =>
    Effect.gen(function*() {
      const { heard, link, say } = yield* makeLink
      const interrupted = yield* Deferred.make<void>()
      const provisioner = fake(() =>
        Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)))
      )
      const session = yield* Effect.fork(runDaemonSession(link, { provisioners: makeProvisioners([provisioner]) }))
      yield* say(welcome)
      yield* heard("acquire")
      yield* say(buildJob)
      yield* say({ type: "cancel", job_id: JOB })
      yield* Deferred.await(interrupted)
      yield* say({ type: "job_done", job_id: JOB, status: "canceled", error: "" })
      yield* heard("acquire")
      yield* Fiber.interrupt(session)
    }))

  it.effect("on a stop, lets the running job end, then closes the link without acquiring again", () =>
    Effect.gen(function*() {
      const { closed, heard, link, say } = yield* makeLink
      const stop = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const started = yield* Deferred.make<void>()
      const provisioner = fake(() =>
        Effect.zipRight(
          Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(release)),
          Effect.succeed({
            resources: [],
            state: new Uint8Array(),
            daily_cost: 0,
            has_ai_task: false,
            has_external_agent: false,
            logs: []
          })
        )
      )
      const session = yield* Effect.fork(
        runDaemonSession(link, { provisioners: makeProvisioners([provisioner]), stop: Deferred.await(stop) })
      )
      yield* say(welcome)
      yield* heard("acquire")
      yield* say(buildJob)
      yield* Deferred.await(started)
      yield* Deferred.succeed(stop, undefined)
      expect(yield* Deferred.isDone(closed)).toBe(false)
      yield* Deferred.succeed(release, undefined)
      yield* heard("complete")
      yield* say({ type: "job_done", job_id: JOB, status: "succeeded", error: "" })
      yield* Deferred.await(closed)
      expect(Option.isSome(yield* Fiber.join(session))).toBe(true)
    }))

  it.effect("reports the host's capacity every interval the welcome asks for, skipping a failed reading", () =>
    Effect.gen(function*() {
      const { heard, link, say } = yield* makeLink
      const figures = {
        cpus: 8,
        memory_bytes: 16 * 1024 ** 3,
        memory_promised_bytes: 0,
        cpus_promised: 0,
        containers: 0,
        disk_free_bytes: null
      }
      let readings = 0
      const capacity = Effect.suspend(() =>
        ++readings === 2 ? Effect.fail("engine away") : Effect.succeed({ ...figures, containers: readings })
      )
      const lines: Array<string> = []
      const session = yield* Effect.fork(
        runDaemonSession(link, {
          provisioners: makeProvisioners([]),
          capacity,
          log: (line) => Effect.sync(() => lines.push(line))
        })
      )
      yield* say({ ...welcome, capacity_interval_ms: 5_000 })
      expect(yield* heard("capacity")).toEqual({ type: "capacity", ...figures, containers: 1 })
      yield* TestClock.adjust("5 seconds")
      yield* TestClock.adjust("5 seconds")
      expect(yield* heard("capacity")).toEqual({ type: "capacity", ...figures, containers: 3 })
      expect(lines.some((l) => l.includes("Could not read the host's capacity") && l.includes("engine away"))).toBe(
        true
      )
      yield* Fiber.interrupt(session)
    }))

  it.effect("sends no capacity to a welcome that asks for none (a connection without a host)", () =>
    Effect.gen(function*() {
      const { link, say } = yield* makeLink
      let readings = 0
      const session = yield* Effect.fork(
        runDaemonSession(link, {
          provisioners: makeProvisioners([]),
          capacity: Effect.sync(() => {
            readings++
            return {
              cpus: 1,
              memory_bytes: 1024 ** 3,
              memory_promised_bytes: 0,
              cpus_promised: 0,
              containers: 0,
              disk_free_bytes: null
            }
          })
        })
      )
      yield* say(welcome)
      yield* TestClock.adjust("30 seconds")
      expect(readings).toBe(0)
      yield* Fiber.interrupt(session)
    }))

  it.effect("answers None when the link closes before a welcome", () =>
    Effect.gen(function*() {
      const { link } = yield* makeLink
      yield* link.close
      expect(yield* runDaemonSession(link, { provisioners: makeProvisioners([]) })).toEqual(Option.none())
    }))
})
