/**
 * Verifying licenses: a license is a JWT signed with EdDSA (Ed25519) by the vendor's private key;
 * the deployment holds the public key (`Settings.licensePublicKey`, PEM or JWK). Verification is
 * `jose`'s; the claims checks after it are the described system's (version 3, `iat`, `nbf`,
 * `license_expires` at most five years out, `exp`, `account_type`, `account_id`).
 */
import { Effect, Either } from "effect"
import { createPublicKey, type KeyObject } from "node:crypto"
import { joseModule } from "../OnDemand.js"

/** The licenses' public key, with the key id a license's header must name when the JWK has one. */
export interface LicenseKey {
  readonly key: KeyObject
  readonly kid: string | undefined
}

/** The claims version the described system issues and accepts. */
export const LICENSE_VERSION = 3

const FIVE_YEARS_MS = 5 * 365 * 24 * 3600 * 1000

/**
 * The key a setting names: a PEM public key (SPKI), or an Ed25519 JWK as JSON. Left: why the
 * text is no Ed25519 public key (a configuration error the server refuses at start).
 */
export const parseLicenseKey = (text: string): Either.Either<LicenseKey, string> => {
  const trimmed = text.trim()
  try {
    if (trimmed.startsWith("{")) {
      const jwk = JSON.parse(trimmed) as Record<string, unknown>
      const key = createPublicKey({ key: jwk as any, format: "jwk" })
      if (key.asymmetricKeyType !== "ed25519") return Either.left("The license public key must be an Ed25519 key.")
      return Either.right({ key, kid: typeof jwk.kid === "string" && jwk.kid !== "" ? jwk.kid : undefined })
    }
    const key = createPublicKey(trimmed)
    if (key.type !== "public" || key.asymmetricKeyType !== "ed25519") {
      return Either.left("The license public key must be an Ed25519 public key.")
    }
    return Either.right({ key, kid: undefined })
  } catch (e) {
    return Either.left(
      `The license public key is neither a PEM public key nor a JWK: ${e instanceof Error ? e.message : String(e)}`
    )
  }
}

/** Why a license is refused; `notYetValid` licenses are kept but grant nothing before `nbf`. */
export interface LicenseProblem {
  readonly reason: "signature" | "expired" | "malformed" | "claims" | "key_id" | "not_yet_valid"
  readonly detail: string
}

export type VerifiedClaims = Record<string, unknown> & {
  readonly exp: number
  readonly nbf: number
  readonly iat: number
  readonly license_expires: number
}

const problem = (reason: LicenseProblem["reason"], detail: string): LicenseProblem => ({ reason, detail })

/** The checks the described system makes of a license's claims after its signature. */
const checkClaims = (claims: Record<string, unknown>, now: Date): Either.Either<VerifiedClaims, LicenseProblem> => {
  const num = (name: string) =>
    typeof claims[name] === "number" && Number.isFinite(claims[name]) ? claims[name] as number : undefined
  if (claims.version !== LICENSE_VERSION) {
    return Either.left(problem("claims", `The license must be version ${LICENSE_VERSION}.`))
  }
  if (num("iat") === undefined) {
    return Either.left(problem("claims", "The license has an invalid or missing iat (issued at) claim."))
  }
  if (num("nbf") === undefined) {
    return Either.left(problem("claims", "The license has an invalid or missing nbf (not before) claim."))
  }
  const licenseExpires = num("license_expires")
  if (licenseExpires === undefined || licenseExpires * 1000 > now.getTime() + FIVE_YEARS_MS) {
    return Either.left(problem("claims", "The license has an invalid or missing license_expires claim."))
  }
  if (num("exp") === undefined) {
    return Either.left(problem("claims", "The license has an invalid or missing exp (expires at) claim."))
  }
  if (typeof claims.account_type !== "string" || claims.account_type === "") {
    return Either.left(problem("claims", "The license must contain a valid account type."))
  }
  if (typeof claims.account_id !== "string" || claims.account_id === "") {
    return Either.left(problem("claims", "The license must contain a valid account ID."))
  }
  return Either.right(claims as VerifiedClaims)
}

/**
 * Verifies `jwt` with `key` at `now`: the signature (EdDSA only), `exp` (a license past it is
 * expired), then the claims. A license whose `nbf` is still ahead answers `not_yet_valid` with
 * its claims, so that it can be stored ahead of its term.
 */
export const verifyLicense = (
  jwt: string,
  key: LicenseKey,
  now: Date
): Effect.Effect<Either.Either<VerifiedClaims, LicenseProblem & { readonly claims?: VerifiedClaims }>> =>
  Effect.flatMap(joseModule, ({ errors, jwtVerify }) =>
    Effect.promise(async () => {
      try {
        const { payload, protectedHeader } = await jwtVerify(jwt, key.key, { algorithms: ["EdDSA"], currentDate: now })
        if (key.kid !== undefined && protectedHeader.kid !== key.kid) {
          return Either.left(
            problem(
              "key_id",
              `The license is signed with key "${
                String(protectedHeader.kid ?? "")
              }", not the deployment's "${key.kid}".`
            )
          )
        }
        return checkClaims(payload as Record<string, unknown>, now)
      } catch (e) {
        if (e instanceof errors.JWTExpired) {
          const exp = typeof e.payload.exp === "number"
            ? new Date(e.payload.exp * 1000).toISOString()
            : "an earlier date"
          return Either.left(problem("expired", `The license expired at ${exp}.`))
        }
        if (e instanceof errors.JWTClaimValidationFailed && e.claim === "nbf") {
          const checked = checkClaims(e.payload as Record<string, unknown>, now)
          return Either.isRight(checked)
            ? Either.left({ ...problem("not_yet_valid", "The license is not valid yet."), claims: checked.right })
            : checked
        }
        if (e instanceof errors.JWSSignatureVerificationFailed) {
          return Either.left(
            problem("signature", "The license's signature does not match the deployment's license public key.")
          )
        }
        if (e instanceof errors.JOSEAlgNotAllowed) {
          return Either.left(problem("signature", "The license must be signed with EdDSA."))
        }
        if (e instanceof errors.JWTClaimValidationFailed) {
          return Either.left(problem("claims", `The license's ${e.claim} claim is invalid.`))
        }
        return Either.left(problem("malformed", "The license is not a well-formed signed JWT."))
      }
    }))
