/** Test licenses: an Ed25519 key pair of our own, and licenses signed with it (claims as the described system issues). */
import { SignJWT } from "jose"
import { generateKeyPairSync, type KeyObject } from "node:crypto"

export interface LicenseSigner {
  /** The public key as PEM: the deployment setting. */
  readonly publicKeyPem: string
  readonly sign: (claims: Record<string, unknown>, header?: Record<string, unknown>) => Promise<string>
}

export const makeSigner = (): LicenseSigner => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519")
  return {
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    sign: (claims, header = {}) => signWith(privateKey, claims, header)
  }
}

const signWith = (key: KeyObject, claims: Record<string, unknown>, header: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid: "v1", ...header }).sign(key)

const DAY = 24 * 3600

/** Claims of a valid license at `now` (seconds): a year's term, a week's grace, Premium, 10 users. */
export const licenseClaims = (
  overrides: Record<string, unknown> = {},
  now = Math.floor(Date.now() / 1000)
): Record<string, unknown> => ({
  iat: now - 60,
  nbf: now - 60,
  license_expires: now + 365 * DAY,
  exp: now + 372 * DAY,
  account_type: "salesforce",
  account_id: "acme",
  trial: false,
  version: 3,
  feature_set: "premium",
  features: { user_limit: 10 },
  ...overrides
})

export { DAY }
