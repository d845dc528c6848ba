/**
 * The lifecycle executor on fakes, driven by the TestClock: ticks on the minute, autostart then
 * autostop of a scheduled workspace, one tick at a time under the lock, failures counted.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  inProcessTickLock,
  LifecycleActions,
  type LifecycleCandidate,
  LifecycleCandidates,
  type LifecycleDecision,
  LifecycleExecutor,
  newTemplate,
  newWorkspace,
  newWorkspaceBuild,
  type TemplateRecord,
  TickLock,
  type TickStats,
  type WorkspaceBuildRecord,
  type WorkspaceRecord
} from "@workbay/core"
import { Deferred, Effect, Either, Fiber, Layer } from "effect"
import * as TestClock from "effect/TestClock"
import { calculateAutostop } from "../../src/workspaces/Schedule.js"

const HOUR = 3_600_000
const T0 = Date.parse("2024-01-01T08:58:30Z") // a Monday

const template: TemplateRecord = newTemplate({
  id: "t1",
  at: new Date(0),
  organization_id: "o1",
  name: "tpl",
  provisioner: "workbay",
  active_version_id: "v2",
  created_by: "u1",
  default_ttl_ms: HOUR,
  activity_bump_ms: HOUR,
  allow_user_cancel_workspace_jobs: true,
  group_acl: {}
})

const workspace = (id: string, over: Partial<WorkspaceRecord> = {}): WorkspaceRecord =>
  newWorkspace({
    id,
    at: new Date(0),
    owner_id: "u1",
    organization_id: "o1",
    template_id: "t1",
    name: id,
    autostart_schedule: "CRON_TZ=UTC 0 9 * * *",
    ttl_ms: HOUR,
    last_used_at: new Date(T0),
    automatic_updates: "always",
    ...over
  })

const build = (over: Partial<WorkspaceBuildRecord>): WorkspaceBuildRecord =>
  newWorkspaceBuild({
    id: "b1",
    at: new Date("2024-01-01T08:00:00Z"),
    updated_at: new Date(0),
    workspace_id: "w1",
    template_version_id: "v1",
    build_number: 1,
    transition: "stop",
    initiator_id: "u1",
    job_id: "j1",
    ...over
  })

const finishedJob = (at: Date) =>
  ({
    id: "j1",
    created_at: at,
    updated_at: at,
    started_at: at,
    completed_at: at,
    canceled_at: null,
    error: ""
  }) as unknown as LifecycleCandidate["job"]

/** A store of candidates whose `apply` plays the builds service: the build is done at once. */
const fakeWorld = (initial: ReadonlyArray<LifecycleCandidate>, failFor: ReadonlySet<string> = new Set()) => {
  const state = new Map(initial.map((c) => [c.workspace.id, c]))
  const applied: Array<{ readonly id: string; readonly decision: LifecycleDecision; readonly at: string }> = []
  // Every workspace at every tick: a wider list than a storage's, which the executor must bear.
  const candidates = LifecycleCandidates.of({
    due: () => Effect.sync(() => [...state.values()]),
    reschedule: () => Effect.void
  })
  const actions = LifecycleActions.of({
    apply: (c, decision, now) =>
      Effect.suspend(() => {
        if (failFor.has(c.workspace.id)) return Effect.fail("a build is already running")
        applied.push({ id: c.workspace.id, decision, at: now.toISOString() })
        const ws = { ...c.workspace, ...decision.patch }
        if (decision.build === null) return Effect.sync(() => void state.set(ws.id, { ...c, workspace: ws }))
        const times = Either.getOrThrow(
          calculateAutostop({
            now,
            transition: decision.build.transition,
            workspace: ws,
            template: c.template,
            quietHoursSchedule: ""
          })
        )
        const next = build({
          created_at: now,
          transition: decision.build.transition,
          reason: decision.build.reason,
          template_version_id: decision.build.activeVersion
            ? c.template.active_version_id
            : c.latestBuild.template_version_id,
          ...times
        })
        return Effect.sync(() =>
          void state.set(ws.id, { ...c, workspace: ws, latestBuild: next, job: finishedJob(now) })
        )
      })
  })
  return { state, applied, candidates, actions }
}

const executorLayer = (world: ReturnType<typeof fakeWorld>, lock = inProcessTickLock()) =>
  LifecycleExecutor.Default.pipe(
    Layer.provide(Layer.mergeAll(
      Layer.succeed(LifecycleCandidates, world.candidates),
      Layer.succeed(LifecycleActions, world.actions),
      Layer.succeed(TickLock, lock)
    ))
  )

const stopped = (id: string): LifecycleCandidate => ({
  workspace: workspace(id),
  latestBuild: build({ workspace_id: id }),
  job: finishedJob(new Date("2024-01-01T08:00:00Z")),
  template,
  ownerStatus: "active",
  version: 0
})

describe("lifecycle executor", () => {
  it.effect("autostarts on the schedule's minute and autostops at the deadline, tick by tick", () => {
    const world = fakeWorld([stopped("w1")])
    return Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const executor = yield* LifecycleExecutor
      const ticks: Array<TickStats> = []
      const fiber = yield* Effect.fork(executor.run("1 minute", (s) => Effect.sync(() => void ticks.push(s))))

      yield* TestClock.adjust("1 minute") // 08:59:30
      expect(ticks.map((t) => t.tick.toISOString())).toEqual(["2024-01-01T08:58:00.000Z", "2024-01-01T08:59:00.000Z"])
      expect(world.applied).toEqual([])

      yield* TestClock.adjust("1 minute") // 09:00:30
      expect(world.applied.map((a) => [a.at, a.decision.rule, a.decision.build?.activeVersion])).toEqual([
        ["2024-01-01T09:00:00.000Z", "autostart", true]
      ])
      expect(world.state.get("w1")?.latestBuild.template_version_id).toBe("v2")
      expect(world.state.get("w1")?.latestBuild.deadline?.toISOString()).toBe("2024-01-01T10:00:00.000Z")

      yield* TestClock.adjust("59 minutes") // 09:59:30
      expect(world.applied).toHaveLength(1)
      yield* TestClock.adjust("1 minute") // 10:00:30
      expect(world.applied.map((a) => [a.at, a.decision.rule])).toEqual([
        ["2024-01-01T09:00:00.000Z", "autostart"],
        ["2024-01-01T10:00:00.000Z", "autostop"]
      ])
      expect(ticks.every((t) => t.ran)).toBe(true)
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(executorLayer(world)))
  })

  it.effect("makes an unused workspace dormant and deletes it later", () => {
    const dormantTemplate = {
      ...template,
      time_til_dormant_ms: 7 * 24 * HOUR,
      time_til_dormant_autodelete_ms: 24 * HOUR
    }
    const c = stopped("w1")
    const world = fakeWorld([{
      ...c,
      template: dormantTemplate,
      workspace: { ...c.workspace, autostart_schedule: "", last_used_at: new Date(T0 - 8 * 24 * HOUR) }
    }])
    return Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const executor = yield* LifecycleExecutor
      const first = yield* executor.tick
      expect(first.transitions).toEqual({ w1: "dormancy" })
      expect(world.state.get("w1")?.workspace.dormant_at?.toISOString()).toBe("2024-01-01T08:58:00.000Z")
      expect(world.state.get("w1")?.workspace.deleting_at?.toISOString()).toBe("2024-01-02T08:58:00.000Z")
      yield* TestClock.adjust("24 hours")
      expect((yield* executor.tick).transitions).toEqual({})
      yield* TestClock.adjust("1 minute")
      expect((yield* executor.tick).transitions).toEqual({ w1: "autodelete" })
      expect(world.state.get("w1")?.latestBuild.reason).toBe("autodelete")
    }).pipe(Effect.provide(executorLayer(world)))
  })

  it.effect("one tick at a time: a tick while another holds the lock does nothing", () => {
    const c = stopped("w1")
    const due = {
      ...c,
      workspace: { ...c.workspace, autostart_schedule: "" },
      latestBuild: build({ transition: "start", deadline: new Date(T0 - HOUR) })
    }
    const world = fakeWorld([due])
    return Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const started = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const blocking = LifecycleActions.of({
        apply: (cand, d, now) =>
          Deferred.succeed(started, undefined).pipe(
            Effect.zipRight(Deferred.await(release)),
            Effect.zipRight(world.actions.apply(cand, d, now))
          )
      })
      const lock = inProcessTickLock()
      const layer = LifecycleExecutor.Default.pipe(
        Layer.provide(Layer.mergeAll(
          Layer.succeed(LifecycleCandidates, world.candidates),
          Layer.succeed(LifecycleActions, blocking),
          Layer.succeed(TickLock, lock)
        ))
      )
      yield* Effect.gen(function*() {
        const executor = yield* LifecycleExecutor
        const first = yield* Effect.fork(executor.tick)
        yield* Deferred.await(started)
        const second = yield* executor.tick
        expect(second.ran).toBe(false)
        expect(second.transitions).toEqual({})
        yield* Deferred.succeed(release, undefined)
        const done = yield* Fiber.join(first)
        expect(done.ran).toBe(true)
        expect(done.transitions).toEqual({ w1: "autostop" })
        // The lock is free again.
        expect((yield* executor.tick).ran).toBe(true)
      }).pipe(Effect.provide(layer))
    })
  })

  it.effect("a failed decision is counted and the others are applied", () => {
    const running = (id: string): LifecycleCandidate => {
      const c = stopped(id)
      return {
        ...c,
        workspace: { ...c.workspace, id },
        latestBuild: build({ transition: "start", deadline: new Date(T0 - HOUR) })
      }
    }
    const world = fakeWorld([running("w1"), running("w2"), running("w3")], new Set(["w2"]))
    return Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const stats = yield* (yield* LifecycleExecutor).tick
      expect(stats.transitions).toEqual({ w1: "autostop", w3: "autostop" })
      expect(Object.keys(stats.errors)).toEqual(["w2"])
      expect(stats.errors["w2"]).toContain("a build is already running")
    }).pipe(Effect.provide(executorLayer(world)))
  })
})
