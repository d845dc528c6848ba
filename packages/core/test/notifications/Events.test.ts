/**
 * Notifications of the lifecycle executor, on the real services over an in-memory SQLite
 * storage with the TestClock: a workspace marked dormant tells its owner (with the time before
 * its deletion), and a delete by the lifecycle (autodelete) tells them it was deleted for dormancy.
 * And the other areas' events: an autostop, a new autodelete time for dormant workspaces, a
 * deprecation, a build with another version, an autostart onto the active version, a build refused
 * for quota, an import that failed, a job the hang detector failed, a one-time passcode.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  Auth,
  CurrentActor,
  Files,
  Groups,
  HangDetector,
  LifecycleExecutor,
  NotificationRepo,
  ProvisionerJobs,
  type ProvisionerWorker,
  TemplateIds,
  Templates,
  TemplateVersions,
  Users,
  WorkspaceBuilds,
  Workspaces,
  WorkspaceSchedules
} from "@workbay/core"
import { Duration, Effect } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { drain, services, signedInOwner, templateOf } from "../services.js"
import { zipOf } from "../templates/archives.js"

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
      const ws = yield* as(Effect.flatMap(Workspaces, (w) =>
        w.create(organizationId, "me", { name: "ws-dorm", template_id: template.id })))
      yield* drain
      yield* TestClock.adjust(Duration.hours(25))
      expect((yield* tick).transitions).toEqual({ [ws.id]: "dormancy" })
      yield* drain
      const dormant = (yield* messages(userId)).filter((m) =>
        m.template_id === TemplateIds.workspaceDormant
      )
      expect(dormant.map((m) => [m.method, m.payload.labels])).toEqual([[
        "inbox",
        {
          name: "ws-dorm",
          reason: "inactivity exceeding the dormancy threshold",
          initiator: "autobuild",
          timeTilDormant: "7 days",
          dormancyHours: "168"
        }
      ]])
      expect(dormant[0]!.targets).toEqual([ws.id, template.id])
      yield* TestClock.adjust(Duration.days(8))
      expect((yield* tick).transitions).toEqual({ [ws.id]: "autodelete" })
      yield* drain
      const deleted = (yield* messages(userId)).filter((m) => m.template_id === TemplateIds.workspaceDeleted)
      expect(deleted.map((m) => m.payload.labels)).toEqual([{
        name: "ws-dorm",
        reason: "autodeleted due to dormancy",
        initiator: "autobuild"
      }])
    }).pipe(Effect.provide(services())))
})

/** Messages of a template for a user, as [method, labels]. */
const sent = (userId: string, templateId: string) =>
  Effect.map(
    messages(userId),
    (ms) => ms.filter((m) => m.template_id === templateId).map((m) => [m.method, m.payload.labels] as const)
  )

/** A version of `yaml` uploaded and imported (not a template's active one yet); answers it. */
const versionOf = (organizationId: string, yaml: string, templateId?: string) =>
  Effect.gen(function*() {
    const file = yield* Effect.flatMap(Files, (f) => f.upload("application/zip", zipOf({ "template.yaml": yaml })))
    const version = yield* Effect.flatMap(TemplateVersions, (v) =>
      v.create(organizationId, {
        storage_method: "file",
        file_id: file.response.hash,
        provisioner: "workbay",
        ...(templateId === undefined ? {} : { template_id: templateId })
      }))
    yield* drain
    return version
  })

/** A second user with `roles`, signed in: their id and `as`. */
const userWith = (
  asOwner: <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.Effect<A, E, Exclude<R, CurrentActor>>,
  username: string,
  roles: ReadonlyArray<string>,
  organizationId: string
) =>
  Effect.gen(function*() {
    const created = yield* asOwner(Effect.flatMap(Users, (u) =>
      u.create({
        email: `${username}@example.com`,
        username,
        password: "Correct-Horse-Battery-9",
        roles,
        organization_ids: [organizationId]
      })))
    const auth = yield* Auth
    const { session_token } = yield* auth.login(`${username}@example.com`, "Correct-Horse-Battery-9")
    const actor = yield* auth.authenticate(session_token)
    return {
      userId: created.id,
      as: <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.provideService(e, CurrentActor, actor)
    }
  })

describe("notifications of the areas' events", () => {
  it.scoped("an autostop tells the owner their workspace was stopped", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
      const ws = yield* as(Effect.flatMap(Workspaces, (w) =>
        w.create(organizationId, "me", { name: "ws-ttl", template_id: template.id, ttl_ms: HOUR })))
      yield* drain
      yield* TestClock.adjust(Duration.minutes(60))
      expect((yield* tick).transitions).toEqual({ [ws.id]: "autostop" })
      yield* drain
      expect(yield* sent(userId, TemplateIds.workspaceAutostopped)).toEqual([["inbox", {
        name: "ws-ttl",
        reason: "its autostop schedule"
      }]])
      // A stop by hand is no autostop.
      yield* as(Effect.flatMap(WorkspaceBuilds, (b) =>
        b.create(ws.id, { transition: "start" })))
      yield* drain
      yield* as(Effect.flatMap(WorkspaceBuilds, (b) => b.create(ws.id, { transition: "stop" })))
      yield* drain
      expect(yield* sent(userId, TemplateIds.workspaceAutostopped)).toHaveLength(1)
    }).pipe(Effect.provide(services())))

  it.scoped("a new autodelete time tells the owners of dormant workspaces; a deprecation tells every workspace owner", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
      yield* as(Effect.flatMap(Templates, (t) => t.update(template.id, { time_til_dormant_ms: 24 * HOUR })))
      const ws = yield* as(
        Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-d", template_id: template.id }))
      )
      yield* drain
      yield* TestClock.adjust(Duration.hours(25))
      expect((yield* tick).transitions).toEqual({ [ws.id]: "dormancy" })
      yield* drain
      expect(yield* sent(userId, TemplateIds.workspaceMarkedForDeletion)).toEqual([])
      yield* as(
        Effect.flatMap(Templates, (t) => t.update(template.id, { time_til_dormant_autodelete_ms: 3 * 24 * HOUR }))
      )
      expect(yield* sent(userId, TemplateIds.workspaceMarkedForDeletion)).toEqual([[
        "inbox",
        { name: "ws-d", reason: "an update to the template's dormancy", timeTilDormant: "3 days" }
      ]])

      expect(yield* sent(userId, TemplateIds.templateDeprecated)).toEqual([])
      yield* as(Effect.flatMap(Templates, (t) => t.update(template.id, { deprecation_message: "Use tpl2." })))
      expect(yield* sent(userId, TemplateIds.templateDeprecated)).toEqual([["inbox", {
        template: "tpl",
        message: "Use tpl2.",
        organization: "coder"
      }]])
    }).pipe(Effect.provide(services())))

  it.scoped("a build with another version tells the template admins but the initiator; an autostart onto the active version tells the owner", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const admin = yield* userWith(as, "tadmin", ["template-admin"], organizationId)
      const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
      const ws = yield* as(
        Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-u", template_id: template.id }))
      )
      yield* drain
      const v2 = yield* as(versionOf(organizationId, TEMPLATE.replace("Hello", "Hello again"), template.id))
      yield* as(
        Effect.flatMap(WorkspaceBuilds, (b) => b.create(ws.id, { transition: "start", template_version_id: v2.id }))
      )
      yield* drain
      expect(yield* sent(userId, TemplateIds.workspaceManuallyUpdated)).toEqual([])
      expect(yield* sent(admin.userId, TemplateIds.workspaceManuallyUpdated)).toEqual([[
        "inbox",
        {
          organization: "coder",
          initiator: "admin",
          workspace: "ws-u",
          workspace_owner_username: "admin",
          template: "tpl",
          version: v2.name
        }
      ]])

      // The template's active version moves on; the workspace always updates; its autostart builds the new one.
      const v3 = yield* as(versionOf(organizationId, TEMPLATE.replace("Hello", "Hello three"), template.id))
      yield* as(Effect.flatMap(TemplateVersions, (t) => t.promote(template.id, v3.id)))
      yield* as(Effect.flatMap(WorkspaceSchedules, (s) => s.setAutomaticUpdates(ws.id, "always")))
      yield* as(Effect.flatMap(WorkspaceBuilds, (b) => b.create(ws.id, { transition: "stop" })))
      yield* drain
      yield* as(Effect.flatMap(WorkspaceSchedules, (s) => s.setAutostart(ws.id, "CRON_TZ=UTC 0 9 * * *")))
      yield* TestClock.adjust(Duration.minutes(30))
      expect((yield* tick).transitions).toEqual({ [ws.id]: "autostart" })
      yield* drain
      expect(yield* sent(userId, TemplateIds.workspaceAutoUpdated)).toEqual([[
        "inbox",
        { name: "ws-u", template_version_name: v3.name, template_version_message: v3.message }
      ]])
    }).pipe(Effect.provide(services())))

  it.scoped("a build refused for quota tells the owner; a failed import tells who made the version", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const costly = TEMPLATE.replace("type: machine", "type: machine\n    daily_cost: 5")
      const template = yield* as(templateOf(organizationId, costly, "costly"))
      // Quotas on in the organization (a group of others has an allowance): the owner's budget is 0.
      yield* as(Effect.flatMap(Groups, (g) => g.create(organizationId, { name: "funded", quota_allowance: 1 })))
      yield* as(
        Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-q", template_id: template.id }))
      )
      yield* drain
      expect(yield* sent(userId, TemplateIds.workspaceOutOfQuota)).toEqual([["inbox", {
        name: "ws-q",
        cost: "5",
        budget: "0",
        organization: "coder"
      }]])

      const broken = yield* as(versionOf(organizationId, "resources: [oops\n", template.id))
      const labels = (yield* sent(userId, TemplateIds.templateVersionBuildFailed)).map(([, l]) => l)
      expect(labels).toHaveLength(1)
      expect(labels[0]).toMatchObject({
        template_version_name: broken.name,
        template_name: "costly",
        organization: "coder"
      })
      expect(labels[0]!.reason).not.toBe("")
    }).pipe(Effect.provide(services())))

  it.scoped("a build failed by the hang detector is notified as a failed build", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
      yield* as(
        Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws-hung", template_id: template.id }))
      )
      // A worker takes the build's job and goes silent.
      const worker: ProvisionerWorker = {
        id: randomUUID(),
        name: "w",
        provisioners: ["workbay"],
        tags: { scope: "organization" }
      }
      expect((yield* Effect.flatMap(ProvisionerJobs, (j) => j.acquire(worker)))._tag).toBe("Some")
      yield* TestClock.adjust(Duration.minutes(6))
      expect(yield* Effect.flatMap(HangDetector, (d) => d.detectOnce("5 minutes"))).toBe(1)
      const failed = (yield* sent(userId, TemplateIds.workspaceManualBuildFailed)).map(([, l]) => l)
      expect(failed).toEqual([{
        name: "ws-hung",
        template_name: "tpl",
        template_version_name: expect.any(String),
        initiator: "admin",
        workspace_owner_username: "admin",
        workspace_build_number: "1"
      }])
    }).pipe(Effect.provide(services())))

  it.scoped("a one-time passcode goes out by smtp only, whatever the preferences", () =>
    Effect.gen(function*() {
      const { as, auth, userId } = yield* signedInOwner(T0)
      yield* as(auth.requestOneTimePasscode("admin@example.com"))
      const otp = yield* sent(userId, TemplateIds.oneTimePasscode)
      expect(otp.map(([method]) => method)).toEqual(["smtp"])
      expect(otp[0]![1].one_time_passcode).toMatch(/^[0-9a-f-]{36}$/)
      expect(otp[0]![1].expires_in).toBe("15m")
    }).pipe(
      Effect.provide(
        services({ emailSmarthost: "127.0.0.1:2525", emailFrom: "workbay@example.com" }, undefined, { mail: false })
      )
    ))
})
