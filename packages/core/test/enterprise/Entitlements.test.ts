/**
 * Entitlements without HTTP or a database: what licenses grant (`computeEntitlements`), license
 * verification, and the `Licensing` cache of two replicas on one PubSub with the TestClock (a
 * change announced on one is seen by the other at once; without a signal after the TTL).
 */
import { describe, expect, it } from "@effect/vitest"
import { type LicenseRecord, LicenseRepo, Licensing, PubSub, Settings } from "@workbay/core"
import { Context, Duration, Effect, Either, Layer, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { SignJWT } from "jose"
import { generateKeyPairSync } from "node:crypto"
import {
  allEntitled,
  computeEntitlements,
  ENTITLEMENTS_TTL,
  type VerifiedLicense
} from "../../src/enterprise/Entitlements.js"
import { parseLicenseKey, verifyLicense } from "../../src/enterprise/LicenseKey.js"

const T0 = Date.UTC(2026, 0, 1)
const S0 = T0 / 1000
const DAY = 24 * 3600
const now = new Date(T0)

const claims = (overrides: Record<string, unknown> = {}) => ({
  iat: S0 - DAY,
  nbf: S0 - DAY,
  license_expires: S0 + 365 * DAY,
  exp: S0 + 372 * DAY,
  account_type: "salesforce",
  account_id: "acme",
  trial: false,
  version: 3,
  feature_set: "premium",
  features: { user_limit: 10 },
  ...overrides
})
const valid = (c: Record<string, unknown>, uuid = "l1"): VerifiedLicense => ({
  uuid,
  result: Either.right(claims(c) as any)
})

const { publicKey, privateKey } = generateKeyPairSync("ed25519")
const pem = publicKey.export({ type: "spki", format: "pem" }).toString()
const sign = (c: Record<string, unknown>, header: Record<string, unknown> = {}, key = privateKey) =>
  new SignJWT(c).setProtectedHeader({ alg: "EdDSA", ...header }).sign(key)

describe("computeEntitlements", () => {
  it("without licenses grants nothing and counts the users", () => {
    const e = computeEntitlements({ now, licenses: [], activeUserCount: 4 })
    expect(e.has_license).toBe(false)
    expect(e.features.user_limit).toEqual({ entitlement: "not_entitled", enabled: false, actual: 4 })
    expect(Object.values(e.features).every((f) => f.entitlement === "not_entitled" && !f.enabled)).toBe(true)
    expect(e.warnings).toEqual([])
    expect(e.refreshed_at).toEqual(now)
  })

  it("without a key answers everything entitled", () => {
    const e = allEntitled(now, 3)
    expect(e.has_license).toBe(false)
    expect(Object.values(e.features).every((f) => f.entitlement === "entitled" && f.enabled)).toBe(true)
    expect(e.features.user_limit!.actual).toBe(3)
  })

  it("grants the feature set, the limits and the usage period", () => {
    const e = computeEntitlements({
      now,
      licenses: [valid({ features: { user_limit: 10, managed_agent_limit: 50, unknown_thing: 1 } })],
      activeUserCount: 4
    })
    expect(e.has_license).toBe(true)
    expect(e.features.template_rbac).toEqual({ entitlement: "entitled", enabled: true })
    expect(e.features.scim).toEqual({ entitlement: "entitled", enabled: false })
    expect(e.features.user_limit).toEqual({ entitlement: "entitled", enabled: true, limit: 10, actual: 4 })
    expect(e.features.managed_agent_limit).toMatchObject({ entitlement: "entitled", enabled: true, limit: 50 })
    expect(e.features.managed_agent_limit!.usage_period).toMatchObject({
      start: new Date((S0 - DAY) * 1000),
      end: new Date((S0 + 372 * DAY) * 1000)
    })
    expect(e.features).not.toHaveProperty("unknown_thing")
    expect(e.warnings).toEqual([])
    expect(e.errors).toEqual([])
  })

  it("takes the best of several licenses: entitled over grace, the higher limit", () => {
    const e = computeEntitlements({
      now,
      licenses: [
        valid({ license_expires: S0 - DAY, exp: S0 + 6 * DAY, features: { user_limit: 50 } }, "old"),
        valid({ feature_set: "", features: { user_limit: 20, template_rbac: 1 } }, "new")
      ],
      activeUserCount: 4
    })
    expect(e.features.template_rbac!.entitlement).toBe("entitled")
    // Entitled beats a larger limit in its grace period.
    expect(e.features.user_limit).toMatchObject({ entitlement: "entitled", limit: 20 })
    expect(e.features.appearance!.entitlement).toBe("grace_period")
    expect(e.warnings).toContain("Appearance is enabled but your license for this feature is expired.")
  })

  it("warns 30 days before the licensed term ends, 7 for a trial, across contiguous licenses", () => {
    const soon = (days: number, extra: Record<string, unknown> = {}) =>
      valid({ license_expires: S0 + days * DAY - 10, exp: S0 + (days + 7) * DAY, ...extra })
    expect(computeEntitlements({ now, licenses: [soon(29)], activeUserCount: 1 }).warnings).toContain(
      "Your license expires in 29 days."
    )
    expect(computeEntitlements({ now, licenses: [soon(1)], activeUserCount: 1 }).warnings).toContain(
      "Your license expires in 1 day."
    )
    expect(computeEntitlements({ now, licenses: [soon(31)], activeUserCount: 1 }).warnings).toEqual([])
    expect(computeEntitlements({ now, licenses: [soon(10, { trial: true })], activeUserCount: 1 }).warnings).toEqual([])
    const e = computeEntitlements({ now, licenses: [soon(5, { trial: true })], activeUserCount: 1 })
    expect(e.trial).toBe(true)
    expect(e.warnings).toContain("Your license expires in 5 days.")
    // A next license that starts before the first ends: no warning.
    const next: VerifiedLicense = {
      uuid: "next",
      result: Either.left({
        reason: "not_yet_valid",
        detail: "",
        claims: claims({ nbf: S0 + 5 * DAY, license_expires: S0 + 400 * DAY }) as any
      })
    }
    expect(computeEntitlements({ now, licenses: [soon(10), next], activeUserCount: 1 }).warnings).toEqual([])
  })

  it("errs over the user limit and on licenses that no longer verify", () => {
    const e = computeEntitlements({
      now,
      licenses: [valid({ features: { user_limit: 3 } }), {
        uuid: "bad",
        result: Either.left({ reason: "signature", detail: "Bad signature." })
      }],
      activeUserCount: 5
    })
    expect(e.errors).toEqual([
      "Invalid license (bad) parsing claims: Bad signature.",
      "Your deployment has 5 active users but is only licensed for 3."
    ])
  })

  it("Enterprise leaves out multiple organizations and custom roles", () => {
    const e = computeEntitlements({ now, licenses: [valid({ feature_set: "enterprise" })], activeUserCount: 1 })
    expect(e.features.multiple_organizations!.entitlement).toBe("not_entitled")
    expect(e.features.custom_roles!.entitlement).toBe("not_entitled")
    expect(e.features.audit_log!.entitlement).toBe("entitled")
    const legacy = computeEntitlements({
      now,
      licenses: [valid({ feature_set: undefined, all_features: true })],
      activeUserCount: 1
    })
    expect(legacy.features.audit_log!.entitlement).toBe("entitled")
  })
})

describe("verifyLicense", () => {
  const key = Either.getOrThrow(parseLicenseKey(pem))

  it.effect("accepts a license signed with the key", () =>
    Effect.gen(function*() {
      const r = yield* verifyLicense(yield* Effect.promise(() => sign(claims())), key, now)
      expect(Either.isRight(r)).toBe(true)
    }))

  it.effect("refuses another key, another algorithm, expiry, bad claims, junk", () =>
    Effect.gen(function*() {
      const other = generateKeyPairSync("ed25519").privateKey
      const reason = (jwt: string) =>
        Effect.map(verifyLicense(jwt, key, now), (r) => Either.isLeft(r) ? r.left.reason : "ok")
      expect(yield* reason(yield* Effect.promise(() => sign(claims(), {}, other)))).toBe("signature")
      const hs = yield* Effect.promise(() =>
        new SignJWT(claims()).setProtectedHeader({ alg: "HS256" }).sign(new Uint8Array(32))
      )
      expect(yield* reason(hs)).toBe("signature")
      expect(yield* reason(yield* Effect.promise(() => sign(claims({ exp: S0 - 1, license_expires: S0 - DAY }))))).toBe(
        "expired"
      )
      expect(yield* reason(yield* Effect.promise(() => sign(claims({ version: 2 }))))).toBe("claims")
      expect(yield* reason(yield* Effect.promise(() => sign(claims({ license_expires: S0 + 6 * 365 * DAY }))))).toBe(
        "claims"
      )
      expect(yield* reason(yield* Effect.promise(() => sign(claims({ account_type: "" }))))).toBe("claims")
      expect(yield* reason(yield* Effect.promise(() => sign(claims({ nbf: S0 + DAY }))))).toBe("not_yet_valid")
      expect(yield* reason("a.b.c")).toBe("malformed")
      expect(yield* reason("")).toBe("malformed")
    }))

  it.effect("asks for the key id a JWK names", () =>
    Effect.gen(function*() {
      const jwk = { ...publicKey.export({ format: "jwk" }), kid: "2025" }
      const withKid = Either.getOrThrow(parseLicenseKey(JSON.stringify(jwk)))
      const ok = yield* verifyLicense(yield* Effect.promise(() => sign(claims(), { kid: "2025" })), withKid, now)
      expect(Either.isRight(ok)).toBe(true)
      const wrong = yield* verifyLicense(yield* Effect.promise(() => sign(claims(), { kid: "2024" })), withKid, now)
      expect(Either.isLeft(wrong) && wrong.left.reason).toBe("key_id")
    }))

  it("refuses keys that are not Ed25519 public keys", () => {
    expect(Either.isLeft(parseLicenseKey("junk"))).toBe(true)
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" })
      .toString()
    expect(Either.isLeft(parseLicenseKey(rsa))).toBe(true)
  })
})

describe("Licensing on two replicas", () => {
  /** One database's licenses, shared by both replicas. */
  const makeRepo = () => {
    const rows: Array<LicenseRecord> = []
    let users = 2
    const repo = LicenseRepo.of({
      insert: (l) =>
        Effect.sync(() => {
          const r = { ...l, id: rows.length + 1 }
          rows.push(r)
          return r
        }),
      list: Effect.sync(() => [...rows]),
      listUnexpired: (at) => Effect.sync(() => rows.filter((r) => r.exp > at)),
      delete: (id) => Effect.sync(() => rows.splice(rows.findIndex((r) => r.id === id), 1).length > 0),
      activeUserCount: Effect.sync(() => users),
      siteConfig: () => Effect.succeed(Option.none()),
      setSiteConfig: () => Effect.void,
      initSiteConfig: (_key, value) => Effect.succeed(value)
    })
    return { repo, rows, setUsers: (n: number) => void (users = n) }
  }

  const replica = (repo: LicenseRepo["Type"], pubsub: PubSub["Type"], licensePublicKey: string) =>
    Licensing.Default.pipe(
      Layer.provide(
        Layer.mergeAll(
          Layer.succeed(LicenseRepo, repo),
          Layer.succeed(PubSub, pubsub),
          Settings.layer({ licensePublicKey })
        )
      ),
      Layer.build,
      Effect.map((ctx) => Context.get(ctx, Licensing))
    )

  it.scoped("a change on one replica reaches the other at once; the rest after the TTL", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const db = makeRepo()
      const pubsub = yield* Effect.provide(PubSub, PubSub.memory)
      const a = yield* replica(db.repo, pubsub, pem)
      const b = yield* replica(db.repo, pubsub, pem)
      expect(yield* b.enabled("template_rbac")).toBe(false)
      expect((yield* b.current).features.user_limit!.actual).toBe(2)

      // Stored by replica A, announced: B sees it without waiting.
      const jwt = yield* Effect.promise(() => sign(claims()))
      yield* db.repo.insert({ uuid: "u1", uploaded_at: now, jwt, exp: new Date((S0 + 372 * DAY) * 1000) })
      yield* a.changed
      yield* Effect.yieldNow()
      yield* Effect.sleep(Duration.zero)
      expect(yield* b.enabled("template_rbac")).toBe(true)

      // A user count changes without a signal: cached until the TTL passes.
      db.setUsers(7)
      expect((yield* b.current).features.user_limit!.actual).toBe(2)
      yield* TestClock.adjust(ENTITLEMENTS_TTL)
      expect((yield* b.current).features.user_limit!.actual).toBe(7)

      // The licensed term ends into the grace period, then the license expires: seen as time moves.
      yield* TestClock.adjust(Duration.days(366))
      expect((yield* b.current).features.template_rbac!.entitlement).toBe("grace_period")
      yield* TestClock.adjust(Duration.days(7))
      expect(yield* b.enabled("template_rbac")).toBe(false)
    }))

  it.scoped("without a key every feature is enabled and nothing is verified", () =>
    Effect.gen(function*() {
      const db = makeRepo()
      const pubsub = yield* Effect.provide(PubSub, PubSub.memory)
      const l = yield* replica(db.repo, pubsub, "")
      expect(l.key).toBeUndefined()
      expect(yield* l.enabled("multiple_organizations")).toBe(true)
      expect((yield* l.current).has_license).toBe(false)
    }))
})
