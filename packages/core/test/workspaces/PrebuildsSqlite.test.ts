/**
 * The prebuilds reconciler on the real services over an in-memory SQLite storage, driven by the
 * TestClock (no HTTP; docs/prebuilds.md): a preset's instances are built and kept; a failed
 * build backs its preset off, one interval per failure within the lookback, read from the builds
 * (a fresh reconciler continues it); the settings' pause stops the ticks; a claim hands one over
 * and the next tick replaces it; a key of the prebuilds user is refused; a preset at the failure
 * hard limit creates nothing until a new version is active, its template admins told once. Queued builds run at once with `ProvisionerWorkers.drain()`.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AllowListEntry,
  ApiKeyRepo,
  Auth,
  Files,
  hashSecret,
  NotificationRepo,
  PREBUILDS_USER_ID,
  PrebuildsReconciler,
  TemplateIds,
  TemplateVersions,
  updatePrebuildsSettings,
  UpdatePrebuildsSettingsRequest,
  WorkspaceRepo,
  Workspaces
} from "@workbay/core"
import { Duration, Effect, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { drain, services, signedInOwner, templateOf } from "../services.js"
import { zipOf } from "../templates/archives.js"

const T0 = Date.parse("2024-01-01T08:30:00Z")

const template = (extra = "") =>
  `parameters:
  - name: size
    default: small
presets:
  - name: big
    parameters: { size: large }
    prebuilds: { instances: 2 }
resources:
  - name: box
    type: machine
${extra}`

/** A tick with a one-minute backoff and the failure hard limit `limit` (0: off). */
const tickWith = (limit: number) =>
  Effect.flatMap(PrebuildsReconciler, (r) => r.tick(Duration.minutes(1), "1 hour", limit))
const tick = tickWith(0)
/** A tick of a reconciler built afresh (as a replica taking over: nothing kept in its process). */
const freshTick = (lookback: Duration.DurationInput = Duration.hours(1), limit = 0) =>
  Effect.flatMap(PrebuildsReconciler, (r) => r.tick(Duration.minutes(1), lookback, limit)).pipe(
    Effect.provide(PrebuildsReconciler.Default)
  )
/** The prebuilds user's undeleted workspaces. */
const prebuilt = Effect.flatMap(WorkspaceRepo, (repo) =>
  repo.list({
    visibility: { all: true, organizationIds: [], userId: PREBUILDS_USER_ID, groupIds: [] },
    requesterId: PREBUILDS_USER_ID,
    ownerIds: [PREBUILDS_USER_ID],
    deleted: false,
    limit: 100,
    offset: 0
  })).pipe(Effect.map((r) => r.workspaces))

describe("PrebuildsReconciler on SQLite with the TestClock", () => {
  it.scoped("keeps the preset's instances, and replaces a claimed one", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const t = yield* as(templateOf(organizationId, template(), "tpl"))
      const first = yield* tick
      expect(first.created).toHaveLength(2)
      yield* drain
      expect(yield* prebuilt).toHaveLength(2)
      yield* TestClock.adjust(Duration.seconds(15))
      expect((yield* tick).created).toEqual([])

      const presets = yield* as(Effect.flatMap(TemplateVersions, (v) => v.presets(t.active_version_id)))
      const claimed = yield* as(Effect.flatMap(Workspaces, (w) =>
        w.create(organizationId, "me", {
          name: "mine",
          template_id: t.id,
          template_version_preset_id: presets[0]!.ID
        })))
      expect(claimed.owner_id).toBe(userId)
      expect(claimed.latest_build.build_number).toBe(2)
      yield* drain
      expect(yield* prebuilt).toHaveLength(1)
      yield* TestClock.adjust(Duration.seconds(15))
      expect((yield* tick).created).toHaveLength(1)
      yield* drain
      expect(yield* prebuilt).toHaveLength(2)
    }).pipe(Effect.provide(services())))

  it.scoped("backs a failing preset off one interval per failure within the lookback, read from the builds", () =>
    Effect.gen(function*() {
      const { as, organizationId } = yield* signedInOwner(T0)
      yield* as(templateOf(organizationId, template("build:\n  fail: { transition: start, message: full }\n"), "bad"))
      expect((yield* tick).created).toHaveLength(2)
      yield* drain
      // Both failed: two failures in the window, two minutes from the latest.
      const failed = yield* tick
      expect(failed.deleted).toHaveLength(2)
      const [until] = Object.values(failed.backoff)
      expect(until).toEqual(new Date(T0 + 2 * 60_000))
      yield* drain
      yield* TestClock.adjust(Duration.seconds(119))
      // A reconciler built afresh (nothing in its process) sees the same backoff in the builds.
      const fresh = yield* freshTick()
      expect(fresh.created).toEqual([])
      expect(Object.values(fresh.backoff)).toEqual([new Date(T0 + 2 * 60_000)])
      expect((yield* tick).created).toEqual([])
      yield* TestClock.adjust(Duration.seconds(1))
      expect((yield* freshTick()).created).toHaveLength(2)
      yield* drain
      // Four failures in the window: four minutes from the latest (at T0 + 2 min).
      const again = yield* tick
      expect(Object.values(again.backoff)).toEqual([new Date(T0 + 2 * 60_000 + 4 * 60_000)])
      yield* drain
      // With a lookback of one minute only the latest two count: two minutes.
      expect(Object.values((yield* freshTick(Duration.minutes(1))).backoff)).toEqual([
        new Date(T0 + 2 * 60_000 + 2 * 60_000)
      ])
      // Past the lookback (one hour) the failures are forgotten: the next tick creates.
      yield* TestClock.adjust(Duration.hours(1))
      const later = yield* tick
      expect(later.backoff).toEqual({})
      expect(later.created).toHaveLength(2)
    }).pipe(Effect.provide(services())))

  it.scoped("a pause in the prebuilds settings stops every tick until lifted", () =>
    Effect.gen(function*() {
      const { as, organizationId } = yield* signedInOwner(T0)
      yield* as(templateOf(organizationId, template(), "paused"))
      const set = (paused: boolean) =>
        as(updatePrebuildsSettings(new UpdatePrebuildsSettingsRequest({ reconciliation_paused: paused })))
      expect(Option.isSome(yield* set(true))).toBe(true)
      expect(Option.isNone(yield* set(true))).toBe(true)
      expect(yield* tick).toEqual({
        ran: false,
        paused: true,
        created: [],
        deleted: [],
        backoff: {},
        errors: {},
        hardLimited: []
      })
      expect((yield* freshTick()).paused).toBe(true)
      expect(yield* prebuilt).toEqual([])
      yield* set(false)
      const resumed = yield* tick
      expect(resumed.ran).toBe(true)
      expect(resumed.created).toHaveLength(2)
    }).pipe(Effect.provide(services())))

  it.scoped("a preset refused before any build backs off as well", () =>
    Effect.gen(function*() {
      const { as, organizationId } = yield* signedInOwner(T0)
      // `region` is required and the preset leaves it out: every creation is refused.
      yield* as(templateOf(
        organizationId,
        template().replace("presets:", "  - name: region\n    type: string\npresets:"),
        "refused"
      ))
      const first = yield* tick
      expect(first.created).toEqual([])
      expect(Object.keys(first.errors)).toHaveLength(1)
      expect(Object.values(first.backoff)).toEqual([new Date(T0 + 60_000)])
      yield* TestClock.adjust(Duration.seconds(30))
      expect((yield* tick).errors).toEqual({})
      yield* TestClock.adjust(Duration.seconds(30))
      const again = yield* tick
      expect(Object.keys(again.errors)).toHaveLength(1)
      expect(Object.values(again.backoff)).toEqual([new Date(T0 + 60_000 + 120_000)])
    }).pipe(Effect.provide(services())))

  it.scoped("a preset whose last 3 creations failed creates nothing more until a new version is active; its admins told once", () =>
    Effect.gen(function*() {
      const { as, organizationId, userId } = yield* signedInOwner(T0)
      const failing = template("build:\n  fail: { transition: start, message: full }\n").replace(
        "instances: 2",
        "instances: 1"
      )
      const t = yield* as(templateOf(organizationId, failing, "limited"))
      const limited = (yield* as(Effect.flatMap(TemplateVersions, (v) => v.presets(t.active_version_id))))[0]!.ID
      const told = Effect.map(
        Effect.flatMap(NotificationRepo, (r) => r.messagesOf(userId)),
        (ms) => ms.filter((m) => m.template_id === TemplateIds.prebuildFailureLimitReached)
      )
      // Three creations, each failing; the backoff (one minute per failure) spaces them.
      for (let i = 0; i < 3; i++) {
        const stats = yield* tickWith(3)
        expect(stats.created).toHaveLength(1)
        expect(stats.hardLimited).toEqual([])
        yield* drain
        yield* TestClock.adjust(Duration.minutes(10))
      }
      expect(yield* told).toEqual([])
      const at = yield* tickWith(3)
      expect(at.hardLimited).toEqual([limited])
      expect(at.created).toEqual([])
      expect(at.backoff).toEqual({}) // not backing off (past it): held by the limit
      expect(at.deleted).toHaveLength(1) // the failed one still goes
      yield* drain
      const sentOnce = yield* told
      expect(sentOnce).toHaveLength(1)
      expect(sentOnce[0]!.payload.labels).toEqual({
        org: "coder",
        template: "limited",
        template_version: expect.any(String),
        preset: "big"
      })
      // Later ticks, and a reconciler built afresh (a restart, another replica): nothing created, nothing resent.
      yield* TestClock.adjust(Duration.hours(2))
      expect(yield* tickWith(3)).toMatchObject({ created: [], hardLimited: [limited] })
      expect(yield* freshTick(Duration.hours(1), 3)).toMatchObject({ created: [], hardLimited: [limited] })
      expect(yield* told).toHaveLength(1)
      // A higher limit (or none) lets it create again.
      expect((yield* freshTick(Duration.hours(1), 4)).created).toHaveLength(1)
      yield* drain
      expect((yield* tickWith(3)).hardLimited).toEqual([limited])

      // A new active version: its preset starts afresh and creates.
      const file = yield* as(
        Effect.flatMap(Files, (f) => f.upload("application/zip", zipOf({ "template.yaml": template() })))
      )
      const v2 = yield* as(Effect.flatMap(TemplateVersions, (v) =>
        v.create(organizationId, {
          storage_method: "file",
          file_id: file.response.hash,
          provisioner: "workbay",
          template_id: t.id
        })))
      yield* drain
      yield* as(Effect.flatMap(TemplateVersions, (v) => v.promote(t.id, v2.id)))
      const fresh = yield* tickWith(3)
      expect(fresh.hardLimited).toEqual([])
      expect(fresh.created).toHaveLength(2)
      yield* drain
      expect(yield* prebuilt).toHaveLength(2)
      expect(yield* told).toHaveLength(1)
    }).pipe(Effect.provide(services())))

  it.scoped("a key of the prebuilds user is refused at authentication", () =>
    Effect.gen(function*() {
      yield* signedInOwner(T0)
      const at = new Date(T0)
      yield* Effect.flatMap(ApiKeyRepo, (keys) =>
        keys.insert({
          id: "prebuildsk",
          hashed_secret: hashSecret("abcdefghijklmnopqrstuv"),
          user_id: PREBUILDS_USER_ID,
          login_type: "token",
          token_name: "sneaky",
          scopes: ["all"],
          allow_list: [new AllowListEntry({ type: "*", id: "*" })],
          lifetime_seconds: 3600,
          created_at: at,
          updated_at: at,
          expires_at: new Date(T0 + 3_600_000),
          last_used: at
        }))
      const refused = yield* Effect.flip(
        Effect.flatMap(Auth, (a) => a.authenticate("prebuildsk-abcdefghijklmnopqrstuv"))
      )
      expect(refused.message).toBe("System users cannot sign in.")
    }).pipe(Effect.provide(services())))
})
