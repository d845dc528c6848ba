/**
 * The license routes: upload (verified against the deployment's license key, then stored),
 * list (the claims verbatim), delete, and the entitlements they grant.
 */
import { Clock, Effect, Either } from "effect"
import { Buffer } from "node:buffer"
import { allowed, authorize } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, ResponseBody, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { Licensing } from "./Entitlements.js"
import { License, type LicenseRecord, LicenseRepo, MAX_LICENSES } from "./License.js"
import { verifyLicense } from "./LicenseKey.js"

/** The payload of a stored JWT, decoded without verifying (it was verified when uploaded). */
export const decodeClaims = (jwt: string): Record<string, unknown> => {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as unknown
    return typeof payload === "object" && payload !== null && !Array.isArray(payload)
      ? payload as Record<string, unknown>
      : {}
  } catch {
    return {}
  }
}

const licenseResource = (l: Pick<LicenseRecord, "id" | "uuid">) => ({
  type: "license",
  id: l.uuid,
  target: String(l.id)
})

/** What the audit diff shows of a license: never the JWT itself. */
const auditable = (l: LicenseRecord) => ({
  id: l.id,
  uuid: l.uuid,
  exp: l.exp.toISOString(),
  uploaded_at: l.uploaded_at.toISOString()
})

const invalid = (message: string, detail: string) =>
  new BadRequest({ message, detail, validations: [new Validation({ field: "license", detail })] })

export class Licenses extends Effect.Service<Licenses>()("@workbay/core/Licenses", {
  effect: Effect.gen(function*() {
    const repo = yield* LicenseRepo
    const licensing = yield* Licensing
    const ids = yield* IdGenerator
    const settings = yield* Settings
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const toLicense = (l: LicenseRecord, claims = decodeClaims(l.jwt)) =>
      new License({ id: l.id, uuid: l.uuid, uploaded_at: l.uploaded_at, claims }, true)

    /** Verifies and stores a license: 201 with its claims; 400 for a bad signature, an expired or malformed one. */
    const add = (jwt: string) =>
      Effect.gen(function*() {
        yield* authorize("create", { type: "license" })
        const key = licensing.key
        if (key === undefined) {
          return yield* invalid(
            "This deployment takes no licenses.",
            "No license public key is configured (WORKBAY_LICENSE_PUBLIC_KEY), so every feature is already entitled."
          )
        }
        const at = yield* now
        const verified = yield* verifyLicense(jwt.trim(), key, at)
        let claims: Record<string, unknown>
        if (Either.isLeft(verified)) {
          const problem = verified.left
          // A license for a term not started yet is stored; it grants from its nbf.
          if (problem.reason !== "not_yet_valid" || problem.claims === undefined) {
            return yield* invalid(
              problem.reason === "expired" ? "License has expired." : "Invalid license.",
              problem.detail
            )
          }
          claims = problem.claims
        } else claims = verified.right
        const deploymentIds = claims.deployment_ids
        if (
          Array.isArray(deploymentIds) && deploymentIds.length > 0 && !deploymentIds.includes(settings.deploymentId)
        ) {
          return yield* invalid(
            "License cannot be used on this deployment!",
            `The license is for deployments ${
              deploymentIds.map((d) => JSON.stringify(d)).join(", ").slice(0, 300)
            }; this deployment's id is "${settings.deploymentId}".`
          )
        }
        if ((yield* repo.list).length >= MAX_LICENSES) {
          return yield* invalid(
            "Too many licenses.",
            `A deployment holds at most ${MAX_LICENSES} licenses; delete expired ones first.`
          )
        }
        const jti = typeof claims.jti === "string" && isUuid(claims.jti) ? claims.jti.toLowerCase() : undefined
        const stored = yield* repo.insert({
          uuid: jti ?? (yield* ids.uuid),
          uploaded_at: at,
          jwt: jwt.trim(),
          exp: new Date((claims.exp as number) * 1000)
        }).pipe(
          Effect.catchTag("UniqueViolation", () =>
            invalid("License already uploaded.", "A license with this id is stored already."))
        )
        yield* auditResource(licenseResource(stored), undefined, auditable(stored))
        yield* licensing.changed
        return toLicense(stored, claims)
      }).pipe(span("Licenses.add"))

    /** Every license the caller may read (none for callers without `license:read`, as the described system filters). */
    const list = Effect.gen(function*() {
      if (!(yield* allowed("read", { type: "license" }))) return []
      return (yield* repo.list).map((l) => toLicense(l))
    }).pipe(span("Licenses.list"))

    const remove = (id: number) =>
      Effect.gen(function*() {
        yield* authorize("delete", { type: "license" })
        const existing = (yield* repo.list).find((l) => l.id === id)
        if (existing === undefined || !(yield* repo.delete(id))) {
          return yield* new NotFound({ message: "Unknown license ID." })
        }
        yield* auditResource(licenseResource(existing), auditable(existing), undefined)
        yield* licensing.changed
      }).pipe(span("Licenses.delete"))

    /** Recomputes the entitlements now, on every replica (the licenses page's refresh button). */
    const refresh = Effect.gen(function*() {
      if (!(yield* allowed("update", { type: "license" }))) {
        return yield* new Forbidden({ message: "You must be an admin to refresh entitlements." })
      }
      yield* licensing.changed
      return new ResponseBody({ message: "Entitlements updated." }, true)
    }).pipe(span("Licenses.refresh"))

    /** Any signed-in user reads the entitlements (the dashboard decides what to show from them). */
    const entitlements = licensing.current

    return { add, list, remove, refresh, entitlements } as const
  })
}) {}
