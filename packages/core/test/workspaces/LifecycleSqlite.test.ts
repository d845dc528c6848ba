/**
 * The lifecycle executor on the real services over an in-memory SQLite storage (the storage's
 * LifecycleCandidates and TickLock, the real LifecycleActions), driven by the TestClock: an
 * autostart schedule gives a start build at its minute; a running workspace past its deadline
 * gets a stop build. And a tick reads only the workspaces due: once looked at, a workspace is a
 * candidate again exactly when a rule can fire (its deadline, its next start, its template's
 * dormancy once that is set), not at the ticks between. Queued builds run at once with
 * `ProvisionerWorkers.drain()`.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  LifecycleCandidates,
  LifecycleExecutor,
  Templates,
  WorkspaceBuilds,
  Workspaces,
  WorkspaceSchedules
} from "@workbay/core"
import { Duration, Effect } from "effect"
import * as TestClock from "effect/TestClock"
import { LIFECYCLE_BATCH } from "../../src/workspaces/Lifecycle.js"
import { drain, services, signedInOwner, templateOf } from "../services.js"

const HOUR = 3_600_000
const T0 = Date.parse("2024-01-01T08:30:00Z") // a Monday

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
build:
  logs: ["Hello"]
`

/** The first user (an owner) signed in, and a template of the default organization made from TEMPLATE. */
const setup = Effect.gen(function*() {
  const { as, organizationId } = yield* signedInOwner(T0)
  const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
  return { as, organizationId, templateId: template.id }
})

const tick = Effect.flatMap(LifecycleExecutor, (e) => e.tick)
/** The ids of the workspaces the storage lists as due at `iso`. */
const dueAt = (iso: string) =>
  Effect.flatMap(LifecycleCandidates, (c) => c.due(new Date(iso), LIFECYCLE_BATCH)).pipe(
    Effect.map((cs) => cs.map((c) => c.workspace.id))
  )

describe("LifecycleExecutor on SQLite with the TestClock", () => {
  it.scoped("an autostart schedule gives a start build at its minute, not before", () =>
    Effect.gen(function*() {
      const { as, organizationId, templateId } = yield* setup
      const created = yield* as(
        Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-auto", template_id: templateId }))
      )
      yield* drain
      const stopped = yield* as(Effect.flatMap(WorkspaceBuilds, (b) => b.create(created.id, { transition: "stop" })))
      expect(stopped.transition).toBe("stop")
      yield* drain
      yield* as(Effect.flatMap(WorkspaceSchedules, (s) => s.setAutostart(created.id, "CRON_TZ=UTC 0 9 * * *")))
      // 08:59: not yet.
      yield* TestClock.adjust(Duration.minutes(29))
      const early = yield* tick
      expect(early.ran).toBe(true)
      expect(early.transitions[created.id]).toBeUndefined()
      // 09:00: the start build, reason autostart.
      yield* TestClock.adjust(Duration.minutes(1))
      const due = yield* tick
      expect(due.tick.toISOString()).toBe("2024-01-01T09:00:00.000Z")
      expect(due.transitions[created.id]).toBe("autostart")
      expect(due.errors).toEqual({})
      yield* drain
      const got = yield* as(Effect.flatMap(Workspaces, (w) => w.get(created.id)))
      expect(got.latest_build.transition).toBe("start")
      expect(got.latest_build.reason).toBe("autostart")
      expect(got.latest_build.build_number).toBe(3)
      expect(got.latest_build.status).toBe("running")
      // The next tick in the same minute, and the next minute: nothing more.
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* tick).transitions[created.id]).toBeUndefined()
    }).pipe(Effect.provide(services())))

  it.scoped("a running workspace past its deadline gets a stop build", () =>
    Effect.gen(function*() {
      const { as, organizationId, templateId } = yield* setup
      const created = yield* as(Effect.flatMap(Workspaces, (w) =>
        w.create(organizationId, "me", { name: "ws-ttl", template_id: templateId, ttl_ms: HOUR })))
      yield* drain
      const running = yield* as(Effect.flatMap(Workspaces, (w) =>
        w.get(created.id)))
      expect(running.latest_build.status).toBe("running")
      const deadline = running.latest_build.deadline!.getTime()
      expect(deadline).toBe(T0 + HOUR)
      // Before the deadline: nothing.
      yield* TestClock.adjust(Duration.minutes(59))
      expect((yield* tick).transitions[created.id]).toBeUndefined()
      // At the deadline's minute: a stop build, reason autostop.
      yield* TestClock.adjust(Duration.minutes(1))
      const due = yield* tick
      expect(due.transitions[created.id]).toBe("autostop")
      yield* drain
      const got = yield* as(Effect.flatMap(Workspaces, (w) => w.get(created.id)))
      expect(got.latest_build.transition).toBe("stop")
      expect(got.latest_build.reason).toBe("autostop")
      expect(got.latest_build.status).toBe("stopped")
    }).pipe(Effect.provide(services())))

  it.scoped("a running workspace is a candidate again at its deadline, not at the ticks before; idle ones never", () =>
    Effect.gen(function*() {
      const { as, organizationId, templateId } = yield* setup
      const create = (name: string, ttl?: number) =>
        as(
          Effect.flatMap(Workspaces, (w) =>
            w.create(organizationId, "me", {
              name,
              template_id: templateId,
              ...(ttl === undefined ? {} : { ttl_ms: ttl })
            }))
        )
      const timed = yield* create("ws-timed", HOUR)
      const idle = [yield* create("ws-idle-1"), yield* create("ws-idle-2")]
      yield* drain
      // New and just built: every one is looked at once.
      expect((yield* dueAt("2024-01-01T08:30:00Z")).sort()).toEqual([timed.id, ...idle.map((w) => w.id)].sort())
      expect((yield* tick).transitions).toEqual({})
      // Then only the timed one, from its deadline (09:30) on.
      expect(yield* dueAt("2024-01-01T08:31:00Z")).toEqual([])
      expect(yield* dueAt("2024-01-01T09:29:00Z")).toEqual([])
      expect(yield* dueAt("2024-01-01T09:30:00Z")).toEqual([timed.id])
      expect(yield* dueAt("2024-02-01T00:00:00Z")).toEqual([timed.id])
      yield* TestClock.adjust(Duration.minutes(59))
      expect((yield* tick).transitions).toEqual({})
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* tick).transitions).toEqual({ [timed.id]: "autostop" })
      yield* drain
      const got = yield* as(Effect.flatMap(Workspaces, (w) => w.get(timed.id)))
      expect([got.latest_build.transition, got.latest_build.reason, got.latest_build.status]).toEqual([
        "stop",
        "autostop",
        "stopped"
      ])
      // Stopped without a schedule: looked at once more, then never again.
      expect(yield* dueAt("2024-01-01T09:30:00Z")).toEqual([timed.id])
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* tick).transitions).toEqual({})
      expect(yield* dueAt("2025-01-01T00:00:00Z")).toEqual([])
    }).pipe(Effect.provide(services())))

  it.scoped("a stopped workspace with a schedule is a candidate again at its next start", () =>
    Effect.gen(function*() {
      const { as, organizationId, templateId } = yield* setup
      const created = yield* as(
        Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-sched", template_id: templateId }))
      )
      yield* drain
      yield* as(Effect.flatMap(WorkspaceBuilds, (b) => b.create(created.id, { transition: "stop" })))
      yield* drain
      yield* tick
      expect(yield* dueAt("2024-01-02T00:00:00Z")).toEqual([])
      // Setting the schedule (08:30) makes it due at once; the tick finds its next start, 09:00.
      yield* as(Effect.flatMap(WorkspaceSchedules, (s) => s.setAutostart(created.id, "CRON_TZ=UTC 0 9 * * *")))
      expect(yield* dueAt("2024-01-01T08:30:00Z")).toEqual([created.id])
      expect((yield* tick).transitions).toEqual({})
      expect(yield* dueAt("2024-01-01T08:59:00Z")).toEqual([])
      expect(yield* dueAt("2024-01-01T09:00:00Z")).toEqual([created.id])
      yield* TestClock.adjust(Duration.minutes(30))
      expect((yield* tick).transitions).toEqual({ [created.id]: "autostart" })
    }).pipe(Effect.provide(services())))

  it.scoped("a template given dormancy makes its idle workspaces candidates, each at its own time", () =>
    Effect.gen(function*() {
      const { as, organizationId, templateId } = yield* setup
      const created = yield* as(
        Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-dorm", template_id: templateId }))
      )
      yield* drain
      yield* tick
      // Running with no deadline and no dormancy: nothing can happen, it is never read.
      expect(yield* dueAt("2025-01-01T00:00:00Z")).toEqual([])
      // An hour later the template gets a day of inactivity before dormancy.
      yield* TestClock.adjust(Duration.hours(1))
      yield* as(Effect.flatMap(Templates, (t) => t.update(templateId, { time_til_dormant_ms: 24 * HOUR })))
      expect(yield* dueAt("2024-01-01T09:30:00Z")).toEqual([created.id])
      expect((yield* tick).transitions).toEqual({})
      // Unused since 08:30: due strictly after a day, so at the 08:31 tick.
      expect(yield* dueAt("2024-01-02T08:30:00Z")).toEqual([])
      expect(yield* dueAt("2024-01-02T08:31:00Z")).toEqual([created.id])
      yield* TestClock.setTime(Date.parse("2024-01-02T08:30:30Z"))
      expect((yield* tick).transitions).toEqual({})
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* tick).transitions).toEqual({ [created.id]: "dormancy" })
      yield* drain
      const got = yield* as(Effect.flatMap(Workspaces, (w) => w.get(created.id)))
      expect(got.dormant_at?.toISOString()).toBe("2024-01-02T08:31:00.000Z")
      expect([got.latest_build.transition, got.latest_build.reason]).toEqual(["stop", "dormancy"])
    }).pipe(Effect.provide(services())))
})
