/**
 * The prebuilds reconciler on the real services over an in-memory SQLite storage, driven by the
 * TestClock (no HTTP; docs/prebuilds.md): a preset's instances are built and kept; a failed
 * build backs its preset off, one interval per failure within the lookback, read from the builds
 * (a fresh reconciler continues it); the settings' pause stops the ticks; a claim hands one over
 * and the next tick replaces it; a key of the prebuilds user is refused. Queued builds run at once with `ProvisionerWorkers.drain()`.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AllowListEntry,
  ApiKeyRepo,
  Auth,
  hashSecret,
  PREBUILDS_USER_ID,
  PrebuildsReconciler,
  TemplateVersions,
  updatePrebuildsSettings,
  UpdatePrebuildsSettingsRequest,
  WorkspaceRepo,
  Workspaces
} from "@workbay/core"
import { Duration, Effect, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { drain, services, signedInOwner, templateOf } from "../services.js"

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

const tick = Effect.flatMap(PrebuildsReconciler, (r) => r.tick(Duration.minutes(1)))
/** A tick of a reconciler built afresh (as a replica taking over: nothing kept in its process). */
const freshTick = (lookback: Duration.DurationInput = Duration.hours(1)) =>
  Effect.flatMap(PrebuildsReconciler, (r) => r.tick(Duration.minutes(1), lookback)).pipe(
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
      expect(yield* tick).toEqual({ ran: false, paused: true, created: [], deleted: [], backoff: {}, errors: {} })
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
