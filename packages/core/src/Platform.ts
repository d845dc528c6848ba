/** Ports for things that are not storage: password hashing, mail, secrets. */
import { Context, Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto"

/** Slow, salted password hashing. */
export class PasswordHasher extends Context.Tag("@workbay/core/PasswordHasher")<PasswordHasher, {
  readonly hash: (password: string) => Effect.Effect<string>
  readonly verify: (password: string, hashed: string) => Effect.Effect<boolean>
}>() {
  /**
   * scrypt from node:crypto. `cost` is log2(N): 15 in production (~50 ms),
   * lower in tests. The stored form records its parameters, so changing the
   * cost keeps old hashes verifiable.
   */
  static readonly scrypt = (cost = 15) =>
    Layer.succeed(PasswordHasher, {
      hash: (password) =>
        Effect.async<string>((resume) => {
          const salt = randomBytes(16)
          const N = 2 ** cost
          scrypt(password, salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 }, (err, key) =>
            err
              ? resume(Effect.die(err))
              : resume(Effect.succeed(`scrypt$${cost}$${salt.toString("base64")}$${key.toString("base64")}`)))
        }),
      verify: (password, hashed) =>
        Effect.async<boolean>((resume) => {
          const [alg, costText, saltText, keyText] = hashed.split("$")
          if (alg !== "scrypt" || !costText || !saltText || !keyText) return resume(Effect.succeed(false))
          const N = 2 ** Number(costText)
          const expected = Buffer.from(keyText, "base64")
          scrypt(
            password,
            Buffer.from(saltText, "base64"),
            expected.length,
            { N, r: 8, p: 1, maxmem: 256 * N * 8 },
            (err, key) => err ? resume(Effect.succeed(false)) : resume(Effect.succeed(timingSafeEqual(key, expected)))
          )
        })
    })
}

/**
 * An embedder's own delivery of one-time passcode mail. Optional: without it the passcode goes
 * out through the notifier (the One-Time Passcode template, by smtp; docs/notifications.md).
 */
export class MailSender extends Context.Tag("@workbay/core/MailSender")<MailSender, {
  readonly send: (mail: { readonly to: string; readonly subject: string; readonly body: string }) => Effect.Effect<void>
}>() {
  /** Logs that a mail went out, to whom and its subject: never its body (it holds the passcode). */
  static readonly log = Layer.succeed(MailSender, {
    send: (mail) => Effect.logInfo(`mail to ${mail.to}: ${mail.subject} (body withheld)`)
  })
}

/** Node's one-shot digest (20.12 and later): no Hash object a call, what every authenticated request pays. */
const oneShot: typeof crypto.hash | undefined = typeof crypto.hash === "function" ? crypto.hash : undefined

/** SHA-256 of a secret, hex: how API key secrets are stored. */
export const hashSecret = (secret: string): string =>
  oneShot !== undefined ? oneShot("sha256", secret, "hex") : createHash("sha256").update(secret).digest("hex")

/**
 * Whether two hashes (hex or other ASCII text) are equal, in a time that depends on their length
 * only: no early exit at the first difference, and no buffers made for `timingSafeEqual`.
 */
export const sameHash = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
/** A random string from [a-zA-Z0-9] drawn from the system CSPRNG. */
export const randomString = (length: number): string => {
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}
