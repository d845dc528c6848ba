/**
 * Secrets at rest that must be read back (third-party tokens, agent tokens handed out again):
 * encrypted with the deployment's `externalTokenEncryptionKeys`, as the described system's
 * `dbcrypt` does. AES-256-GCM with a random 12-byte nonce; a stored value is
 * `base64(nonce || ciphertext || tag)` (Go's `aead.Seal` layout), and beside it, in a `*_key_id`
 * column, the digest of the key that sealed it: the first 7 hex characters of
 * `sha256("aes256gcm" || key)`. The first key seals; every key opens. Without keys values are
 * stored as given with a NULL key id, and the service says so loudly (docs/external-auth.md,
 * "Tokens at rest").
 *
 * The storage's repositories read the box from the context (`SecretBox`, a reference whose
 * default has no keys), so embedders who give no keys need not provide it.
 */
import { Context, Data, type Effect, Either, Layer } from "effect"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

/** The cipher's name, part of every key digest (so a key reused by another cipher gets another digest). */
const CIPHER_NAME = "aes256gcm"
const NONCE_BYTES = 12
const TAG_BYTES = 16

/** A value that could not be opened: its key is not configured, or the value is damaged or was sealed by another key. */
export class SecretDecryptFailed extends Data.TaggedError("SecretDecryptFailed")<{
  /** The digest stored beside the value. */
  readonly keyId: string
  readonly reason: string
}> {
  get message() {
    return `A value encrypted at rest could not be decrypted (key ${this.keyId}): ${this.reason}`
  }
}

/** A value as stored: the text and the digest of the key that sealed it (null: stored as given). */
export interface SealedValue {
  readonly value: string
  readonly keyId: string | null
}

export interface SecretBoxShape {
  /** Digests of the configured keys, the sealing one first; empty when none is configured. */
  readonly digests: ReadonlyArray<string>
  /** The digest of the sealing key, or null when values are stored as given. */
  readonly primary: string | null
  /** Seals `plain` with the first key; an empty value, or any value without keys, is stored as given. */
  readonly seal: (plain: string) => SealedValue
  /** Opens a stored value: as given when `keyId` is null, else with the key of that digest. */
  readonly open: (value: string, keyId: string | null) => Either.Either<string, SecretDecryptFailed>
}

/** A configured key: 32 bytes, given as standard base64. */
interface Key {
  readonly bytes: Buffer
  readonly digest: string
}

/** The digest the described system stores beside values sealed by `key`. */
export const keyDigest = (key: Uint8Array): string =>
  createHash("sha256").update(CIPHER_NAME).update(key).digest("hex").slice(0, 7)

/**
 * The keys of the setting, or the problems with them: each must be standard base64 of exactly
 * 32 bytes, and no key may be given twice. The problems name keys by position, never by value.
 */
export const parseEncryptionKeys = (
  keys: ReadonlyArray<string>
): Either.Either<ReadonlyArray<Key>, ReadonlyArray<string>> => {
  const problems: Array<string> = []
  const parsed: Array<Key> = []
  keys.forEach((text, i) => {
    const t = text.trim()
    const bytes = /^[A-Za-z0-9+/]*={0,2}$/.test(t) && t.length % 4 === 0 ? Buffer.from(t, "base64") : undefined
    if (bytes === undefined || bytes.length !== 32) {
      problems.push(`External token encryption key ${i + 1} is not a base64-encoded 32-byte key.`)
      return
    }
    const digest = keyDigest(bytes)
    if (parsed.some((k) => k.digest === digest)) problems.push(`External token encryption key ${i + 1} is given twice.`)
    else parsed.push({ bytes, digest })
  })
  return problems.length > 0 ? Either.left(problems) : Either.right(parsed)
}

const sealWith = (key: Key, plain: string): string => {
  const nonce = randomBytes(NONCE_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key.bytes, nonce)
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64")
}

const openWith = (key: Key, value: string): Either.Either<string, SecretDecryptFailed> => {
  const data = Buffer.from(value, "base64")
  if (data.length < NONCE_BYTES + TAG_BYTES) {
    return Either.left(
      new SecretDecryptFailed({ keyId: key.digest, reason: "the stored value is too short to be a sealed value." })
    )
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, data.subarray(0, NONCE_BYTES))
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES))
    return Either.right(
      Buffer.concat([decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)), decipher.final()]).toString(
        "utf8"
      )
    )
  } catch {
    return Either.left(
      new SecretDecryptFailed({
        keyId: key.digest,
        reason: "the value does not open with the key of that digest (damaged, or sealed by another key)."
      })
    )
  }
}

/**
 * A box on these keys (the first seals). Throws with the problems (never the keys) when a key is
 * not valid: a deployment must not start on keys it cannot use.
 */
export const makeSecretBox = (keys: ReadonlyArray<string>): SecretBoxShape => {
  const parsed = parseEncryptionKeys(keys)
  if (Either.isLeft(parsed)) throw new Error(parsed.left.join(" "))
  return secretBoxOf(parsed.right)
}

const secretBoxOf = (keys: ReadonlyArray<Key>): SecretBoxShape => {
  const byDigest = new Map(keys.map((k) => [k.digest, k]))
  const primary = keys[0]
  return {
    digests: keys.map((k) => k.digest),
    primary: primary?.digest ?? null,
    seal: (
      plain
    ) => (primary === undefined || plain === ""
      ? { value: plain, keyId: null }
      : { value: sealWith(primary, plain), keyId: primary.digest }),
    open: (value, keyId) => {
      if (keyId === null || keyId === "") return Either.right(value)
      const key = byDigest.get(keyId)
      return key === undefined
        ? Either.left(
          new SecretDecryptFailed({
            keyId,
            reason: "no configured key has that digest (the key was removed before its values were rotated)."
          })
        )
        : openWith(key, value)
    }
  }
}

/** The box without keys: values are stored as given. */
export const plainSecretBox: SecretBoxShape = secretBoxOf([])

/**
 * The deployment's box (default: no keys). `@workbay/http`'s assembly provides it to the storage
 * from `settings.externalTokenEncryptionKeys`.
 */
export class SecretBox extends Context.Reference<SecretBox>()("@workbay/core/SecretBox", {
  defaultValue: () => plainSecretBox
}) {
  /** The box of `keys` (throws on a key that is not valid). */
  static layer = (keys: ReadonlyArray<string>): Layer.Layer<SecretBox> =>
    Layer.sync(SecretBox, () => makeSecretBox(keys))
}

/** The warning logged at start-up and shown in the health report while no key is configured. */
export const UNENCRYPTED_SECRETS_WARNING =
  "Secrets are stored unencrypted: no encryption keys are configured, so external auth tokens and external agents' tokens are kept in the database as issued. Set --external-token-encryption-keys (WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_KEYS) to encrypt them."

/** The keys cannot be used with this database; the message says why and what to do (never a key). */
export class EncryptionKeysRefused extends Data.TaggedError("EncryptionKeysRefused")<{ readonly message: string }> {}

/**
 * The keys a deployment's database records (the described system's `dbcrypt_keys`): checked at
 * start, so a deployment never starts on keys that cannot open what it stored.
 */
export class SecretKeyRepo extends Context.Tag("@workbay/core/SecretKeyRepo")<SecretKeyRepo, {
  /**
   * Every active key the database records must be among `box`'s keys and open its test value; a
   * revoked key may not seal again; `box`'s first key is recorded when new. Without keys, no
   * active key may be recorded.
   */
  readonly ensure: (box: SecretBoxShape) => Effect.Effect<void, EncryptionKeysRefused>
}>() {}
