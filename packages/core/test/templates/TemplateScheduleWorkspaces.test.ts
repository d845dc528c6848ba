/**
 * A template's schedule change moves the times of its workspaces, on the real services over an
 * in-memory SQLite storage driven by the TestClock: `update_workspace_dormant_at` makes a new
 * autodelete time count from the change (without it, from when each workspace went dormant), and
 * `update_workspace_last_used_at` makes a new time til dormant count from the change. The
 * lifecycle executor's ticks show what follows.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  LifecycleExecutor,
  Templates,
  type UpdateTemplateMeta,
  WorkspaceRepo,
  Workspaces,
  WorkspaceSchedules
} from "@workbay/core"
import { Duration, Effect, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { drain, services, signedInOwner, templateOf } from "../services.js"

const DAY = 86_400_000
const T0 = Date.parse("2024-01-01T08:30:00Z")

const TEMPLATE = `resources:
  - name: box
    type: machine
build:
  logs: ["Hello"]
`

const tick = Effect.flatMap(LifecycleExecutor, (e) => e.tick)
const record = (id: string) => Effect.flatMap(WorkspaceRepo, (repo) => Effect.map(repo.findById(id), Option.getOrThrow))

/** The first user (an owner) signed in at T0, and a way to make templates and workspaces as them. */
const setup = Effect.gen(function*() {
  const { as, organizationId: organization_id } = yield* signedInOwner(T0)
  let n = 0
  const template = as(Effect.suspend(() => templateOf(organization_id, TEMPLATE, `tpl-${++n}`)))
  const workspace = (templateId: string) =>
    as(Effect.gen(function*() {
      const w = yield* Effect.flatMap(Workspaces, (s) =>
        s.create(organization_id, "me", { name: `ws-${++n}`, template_id: templateId }))
      yield* drain
      return w.id
    }))
  const update = (templateId: string, input: typeof UpdateTemplateMeta.Type) =>
    as(Effect.flatMap(Templates, (t) => t.update(templateId, input)))
  const dormant = (id: string) => as(Effect.flatMap(WorkspaceSchedules, (s) => s.setDormant(id, true)))
  return { template, workspace, update, dormant }
})

describe("a template's schedule change and its workspaces (TestClock)", () => {
  it.scoped("a new autodelete time counts from the change with update_workspace_dormant_at, else from dormant_at", () =>
    Effect.gen(function*() {
      const { dormant, template, update, workspace } = yield* setup
      const fresh = yield* template
      const stale = yield* template
      const a = yield* workspace(fresh.id)
      const b = yield* workspace(stale.id)
      // Dormant at T0 with no autodelete: no deletion time.
      yield* dormant(a)
      yield* dormant(b)
      expect(yield* record(a)).toMatchObject({ dormant_at: new Date(T0), deleting_at: null })

      yield* TestClock.adjust(Duration.days(10))
      const changed = yield* update(fresh.id, {
        time_til_dormant_autodelete_ms: DAY,
        update_workspace_dormant_at: true
      })
      expect(Option.getOrThrow(changed).time_til_dormant_autodelete_ms).toBe(DAY)
      expect(yield* record(a)).toMatchObject({
        dormant_at: new Date(T0 + 10 * DAY),
        deleting_at: new Date(T0 + 11 * DAY)
      })
      yield* update(stale.id, { time_til_dormant_autodelete_ms: DAY })
      expect(yield* record(b)).toMatchObject({ dormant_at: new Date(T0), deleting_at: new Date(T0 + DAY) })

      // The stale one is past its deletion time at once; the other a day later.
      const now = yield* tick
      expect(now.transitions).toEqual({ [b]: "autodelete" })
      yield* drain
      yield* TestClock.adjust(Duration.days(1))
      expect((yield* tick).transitions[a]).toBeUndefined()
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* tick).transitions).toEqual({ [a]: "autodelete" })
    }).pipe(Effect.provide(services())))

  it.scoped("a new time til dormant counts from the change with update_workspace_last_used_at, else from last use", () =>
    Effect.gen(function*() {
      const { template, update, workspace } = yield* setup
      const fresh = yield* template
      const stale = yield* template
      const a = yield* workspace(fresh.id)
      const b = yield* workspace(stale.id)
      expect((yield* record(a)).last_used_at).toEqual(new Date(T0))

      yield* TestClock.adjust(Duration.days(10))
      // A change that leaves the schedule alone moves nothing.
      expect(Option.isSome(yield* update(fresh.id, { description: "d", update_workspace_last_used_at: true }))).toBe(
        true
      )
      expect((yield* record(a)).last_used_at).toEqual(new Date(T0))
      yield* update(fresh.id, { time_til_dormant_ms: 7 * DAY, update_workspace_last_used_at: true })
      expect((yield* record(a)).last_used_at).toEqual(new Date(T0 + 10 * DAY))
      yield* update(stale.id, { time_til_dormant_ms: 7 * DAY })
      expect((yield* record(b)).last_used_at).toEqual(new Date(T0))

      expect((yield* tick).transitions).toEqual({ [b]: "dormancy" })
      yield* drain
      yield* TestClock.adjust(Duration.days(7))
      expect((yield* tick).transitions[a]).toBeUndefined()
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* tick).transitions).toEqual({ [a]: "dormancy" })
      expect((yield* record(a)).dormant_at).toEqual(new Date(T0 + 17 * DAY + 60_000))
    }).pipe(Effect.provide(services())))
})
