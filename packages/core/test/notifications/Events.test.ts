/**
 * Notifications of the lifecycle executor, on the real services over an in-memory SQLite
 * storage with the TestClock: a workspace marked dormant tells its owner (with the time before
 * its deletion), and a delete by the lifecycle (autodelete) tells them it was deleted for dormancy.
 */
import { describe, expect, it } from "@effect/vitest"
import { LifecycleExecutor, NotificationRepo, TemplateIds, Templates, Workspaces } from "@workbay/core"
import { Duration, Effect } from "effect"
import * as TestClock from "effect/TestClock"
import { drain, services, signedInOwner, templateOf } from "../services.js"

const HOUR = 3_600_000
const T0 = Date.parse("2024-01-01T08:30:00Z")

const TEMPLATE = `resources:
  - name: box
    type: machine
build:
  logs: ["Hello"]
`

const tick = Effect.flatMap(LifecycleExecutor, (e) => e.tick)
const messages = (userId: string) => Effect.flatMap(NotificationRepo, (r) => r.messagesOf(userId))

describe("notifications of the lifecycle", () => {
  it.scoped("a workspace marked dormant, then autodeleted, tells its owner each time", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
      yield* as(Effect.flatMap(Templates, (t) =>
        t.update(template.id, { time_til_dormant_ms: 24 * HOUR, time_til_dormant_autodelete_ms: 7 * 24 * HOUR })))
      const ws = yield* as(Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-dorm", template_id: template.id })))
      yield* drain
      yield* TestClock.adjust(Duration.hours(25))
      expect((yield* tick).transitions).toEqual({ [ws.id]: "dormancy" })
      yield* drain
      const dormant = (yield* messages(userId)).filter((m) => m.template_id === TemplateIds.workspaceDormant)
      expect(dormant.map((m) => [m.method, m.payload.labels])).toEqual([[
        "inbox",
        { name: "ws-dorm", reason: "inactivity exceeding the dormancy threshold", initiator: "autobuild", timeTilDormant: "7 days", dormancyHours: "168" }
      ]])
      expect(dormant[0]!.targets).toEqual([ws.id, template.id])
      yield* TestClock.adjust(Duration.days(8))
      expect((yield* tick).transitions).toEqual({ [ws.id]: "autodelete" })
      yield* drain
      const deleted = (yield* messages(userId)).filter((m) => m.template_id === TemplateIds.workspaceDeleted)
      expect(deleted.map((m) => m.payload.labels)).toEqual([{ name: "ws-dorm", reason: "autodeleted due to dormancy", initiator: "autobuild" }])
    }).pipe(Effect.provide(services())))
})
