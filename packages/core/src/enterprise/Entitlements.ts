/**
 * Entitlements: what the stored licenses grant, computed as the described system computes them
 * (enterprise/coderd/license/license.go), and `Licensing`, the cache every replica consults
 * (the feature gate of the dispatcher asks it on each gated request).
 *
 * Without a configured license key (`Settings.licensePublicKey` empty) every feature is
 * entitled and enabled, and nothing is read: the standalone server is complete out of the box.
 */
import { Clock, Duration, Effect, Either } from "effect"
import { PubSub } from "../PubSub.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import {
  enabledFeatures,
  type FeatureName,
  featureNames,
  featureSetFeatures,
  humanize,
  isFeatureName,
  usesLimit,
  usesUsagePeriod
} from "./Features.js"
import { type Entitlement, Entitlements, Feature, LicenseRepo, UsagePeriod } from "./License.js"
import {
  type LicenseKey,
  type LicenseProblem,
  parseLicenseKey,
  type VerifiedClaims,
  verifyLicense
} from "./LicenseKey.js"

/** The PubSub channel a license upload or removal is announced on, so every replica recomputes. */
export const LICENSES_CHANNEL = "licenses_changed"

/** How long computed entitlements are reused; expiries and user counts show within it. */
export const ENTITLEMENTS_TTL = Duration.minutes(1)

const DAY_MS = 24 * 3600 * 1000

/** A stored license as verified at the time of the computation. */
export interface VerifiedLicense {
  readonly uuid: string
  readonly result: Either.Either<VerifiedClaims, LicenseProblem & { readonly claims?: VerifiedClaims }>
}

const weight = (e: Entitlement) => (e === "entitled" ? 2 : e === "grace_period" ? 1 : 0)

type MutableFeature = {
  entitlement: Entitlement
  enabled: boolean
  limit?: number
  actual?: number
  usage_period?: UsagePeriod
}

/** Every feature entitled and enabled: the answer of a deployment without a license key. */
export const allEntitled = (now: Date, activeUserCount: number): Entitlements =>
  new Entitlements({
    features: Object.fromEntries(featureNames.map((name) => [
      name,
      new Feature(
        name === "user_limit"
          ? { entitlement: "entitled", enabled: true, actual: activeUserCount }
          : { entitlement: "entitled", enabled: true }
      )
    ])),
    warnings: [],
    errors: [],
    has_license: false,
    trial: false,
    require_telemetry: false,
    refreshed_at: now
  })

/**
 * The entitlements `licenses` grant at `now` with `activeUserCount` users: each feature the best
 * any license grants (entitled over grace period; the higher limit), warnings before the licensed
 * term ends (30 days, 7 for a trial) and for features in use but not granted, errors for licenses
 * that no longer verify and for more active users than the user limit.
 */
export const computeEntitlements = (args: {
  readonly now: Date
  readonly licenses: ReadonlyArray<VerifiedLicense>
  readonly activeUserCount: number
}): Entitlements => {
  const { now, activeUserCount } = args
  const features = new Map<FeatureName, MutableFeature>(
    featureNames.map((name) => [name, { entitlement: "not_entitled", enabled: enabledFeatures.has(name) }])
  )
  features.get("user_limit")!.actual = activeUserCount
  const add = (name: FeatureName, next: MutableFeature) => {
    const current = features.get(name)!
    const better = weight(next.entitlement) > weight(current.entitlement) ||
      (weight(next.entitlement) === weight(current.entitlement) && (next.limit ?? 0) > (current.limit ?? 0))
    if (!better) return
    const actual = next.actual ?? current.actual
    features.set(name, actual === undefined ? next : { ...next, actual })
  }
  const warnings: Array<string> = []
  const errors: Array<string> = []
  const periods: Array<[number, number]> = []
  let hasLicense = false
  let trial = false
  let requireTelemetry = false

  for (const license of args.licenses) {
    if (Either.isLeft(license.result)) {
      const problem = license.result.left
      if (problem.reason === "not_yet_valid") {
        // A license for a term not started yet: grants nothing, but its term counts for the expiry warning.
        if (problem.claims !== undefined) {
          periods.push([problem.claims.nbf * 1000, problem.claims.license_expires * 1000])
        }
        continue
      }
      errors.push(`Invalid license (${license.uuid}) parsing claims: ${problem.detail}`)
      continue
    }
    const claims = license.result.right
    periods.push([claims.nbf * 1000, claims.license_expires * 1000])
    hasLicense = true
    requireTelemetry ||= claims.require_telemetry === true
    trial = claims.trial === true
    const entitlement: Entitlement = now.getTime() > claims.license_expires * 1000 ? "grace_period" : "entitled"
    const featureSet = typeof claims.feature_set === "string" && claims.feature_set !== ""
      ? claims.feature_set
      : claims.all_features === true
      ? "enterprise"
      : ""
    for (const name of featureSetFeatures(featureSet)) {
      add(name, { entitlement, enabled: enabledFeatures.has(name) })
    }
    const granted = typeof claims.features === "object" && claims.features !== null
      ? claims.features as Record<string, unknown>
      : {}
    for (const [name, value] of Object.entries(granted)) {
      if (!isFeatureName(name) || typeof value !== "number" || !Number.isFinite(value) || value < 0) continue
      const amount = Math.floor(value)
      if (usesUsagePeriod(name)) {
        add(name, {
          entitlement,
          enabled: amount > 0,
          limit: amount,
          usage_period: new UsagePeriod({
            issued_at: new Date(claims.iat * 1000),
            start: new Date(claims.nbf * 1000),
            end: new Date(claims.exp * 1000)
          })
        })
      } else if (usesLimit(name)) {
        if (amount <= 0) continue
        add(name, {
          entitlement,
          enabled: true,
          limit: amount,
          ...(name === "user_limit" ? { actual: activeUserCount } : {})
        })
      } else if (amount > 0) {
        add(name, { entitlement, enabled: enabledFeatures.has(name) })
      }
    }
  }

  // One warning for the contiguous licensed term that holds now, when it ends soon.
  if (periods.length > 0) {
    const sorted = [...periods].sort((a, b) => a[0] - b[0])
    let end = sorted[0]![1]
    for (const [start, stop] of sorted.slice(1)) {
      if (start > end) break
      end = Math.max(end, stop)
    }
    const days = Math.ceil((end - now.getTime()) / DAY_MS)
    if (days > 0 && days < (trial ? 7 : 30)) {
      warnings.push(`Your license expires in ${days} ${days === 1 ? "day" : "days"}.`)
    }
  }

  if (hasLicense) {
    const userLimit = features.get("user_limit")!
    if (userLimit.limit !== undefined && activeUserCount > userLimit.limit) {
      errors.push(`Your deployment has ${activeUserCount} active users but is only licensed for ${userLimit.limit}.`)
    } else if (userLimit.limit !== undefined && userLimit.entitlement === "grace_period") {
      warnings.push(
        `Your deployment has ${activeUserCount} active users but the license with the limit ${userLimit.limit} is expired.`
      )
    }
    for (const name of featureNames) {
      if (usesLimit(name) || name === "high_availability" || name === "multiple_external_auth") continue
      const feature = features.get(name)!
      if (!feature.enabled) continue
      if (feature.entitlement === "not_entitled") {
        warnings.push(`${humanize(name)} is enabled but your license is not entitled to this feature.`)
      } else if (feature.entitlement === "grace_period") {
        warnings.push(`${humanize(name)} is enabled but your license for this feature is expired.`)
      }
    }
  }

  return new Entitlements({
    features: Object.fromEntries([...features].map(([name, f]) => [
      name,
      new Feature({
        entitlement: f.entitlement,
        // What a license does not grant is off.
        enabled: f.entitlement === "not_entitled" ? false : f.enabled,
        ...(f.limit !== undefined ? { limit: f.limit } : {}),
        ...(f.actual !== undefined ? { actual: f.actual } : {}),
        ...(f.usage_period !== undefined ? { usage_period: f.usage_period } : {})
      })
    ])),
    warnings,
    errors,
    has_license: hasLicense,
    trial,
    require_telemetry: requireTelemetry,
    refreshed_at: now
  })
}

/**
 * The deployment's entitlements, cached: recomputed after `ENTITLEMENTS_TTL`, and at once after a
 * license is added or removed on any replica (the `LICENSES_CHANNEL` signal).
 */
export class Licensing extends Effect.Service<Licensing>()("@workbay/core/Licensing", {
  scoped: Effect.gen(function*() {
    const settings = yield* Settings
    const repo = yield* LicenseRepo
    const pubsub = yield* PubSub
    const parsed = settings.licensePublicKey.trim() === "" ? undefined : parseLicenseKey(settings.licensePublicKey)
    if (parsed !== undefined && Either.isLeft(parsed)) return yield* Effect.dieMessage(parsed.left)
    const key: LicenseKey | undefined = parsed === undefined ? undefined : parsed.right
    const ttl = Duration.toMillis(ENTITLEMENTS_TTL)
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    let cached: { readonly value: Entitlements; readonly at: number; readonly generation: number } | undefined
    let generation = 0
    const invalidate = Effect.sync(() => void generation++)

    const compute = Effect.gen(function*() {
      const at = yield* now
      const activeUserCount = yield* repo.activeUserCount
      if (key === undefined) return allEntitled(at, activeUserCount)
      const stored = yield* repo.listUnexpired(at)
      const licenses = yield* Effect.forEach(
        stored,
        (l) => Effect.map(verifyLicense(l.jwt, key, at), (result): VerifiedLicense => ({ uuid: l.uuid, result }))
      )
      return computeEntitlements({ now: at, licenses, activeUserCount })
    })

    const recompute = (at: number) =>
      Effect.gen(function*() {
        const seen = generation
        const value = yield* compute
        // A change announced meanwhile leaves this result uncached.
        if (seen === generation) cached = { value, at, generation: seen }
        return value
      }).pipe(span("Licensing.recompute"))

    /** The entitlements, from the cache while fresh (the gate's path: one clock read). */
    const current: Effect.Effect<Entitlements> = Effect.flatMap(
      Clock.currentTimeMillis,
      (at) =>
        cached !== undefined && cached.generation === generation && at - cached.at < ttl
          ? Effect.succeed(cached.value)
          : recompute(at)
    )

    /** Whether routes of `feature` are served: always without a license key; else as the licenses grant. */
    const enabled = (feature: FeatureName): Effect.Effect<boolean> =>
      key === undefined ? Effect.succeed(true) : Effect.map(current, (e) => e.features[feature]?.enabled === true)

    /** After a license was added or removed: recompute here at once, and on the other replicas. */
    const changed = Effect.zipRight(invalidate, pubsub.publish(LICENSES_CHANNEL, "changed"))

    const signals = yield* pubsub.subscribe(LICENSES_CHANNEL)
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(signals.take, invalidate)))

    return { key, current, enabled, changed } as const
  })
}) {}
