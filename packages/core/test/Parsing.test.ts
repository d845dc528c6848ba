/** Small parsers and generators: API keys, search queries, quiet hours, SSH keys. */
import { describe, expect, it } from "@effect/vitest"
import { BadRequest } from "@workbay/core"
import { Effect, Either } from "effect"
import sshpk from "sshpk"
import { parseQuery } from "../src/SearchQuery.js"
import { parseApiKey } from "../src/users/Auth.js"
import { generateSshKeyPair, parseQuietHours } from "../src/users/Users.js"

describe("parseApiKey", () => {
  const id = "abcdEFGH12"
  const secret = "a".repeat(11) + "B".repeat(10) + "9"

  it("splits <10-char id>-<22-char secret>", () => {
    expect(parseApiKey(`${id}-${secret}`)).toEqual({ id, secret })
  })

  it("rejects every other shape", () => {
    expect(parseApiKey("")).toBeUndefined()
    expect(parseApiKey(id)).toBeUndefined()
    expect(parseApiKey(`${id}${secret}`)).toBeUndefined()
    expect(parseApiKey(`${id}-${secret}x`)).toBeUndefined()
    expect(parseApiKey(`${id}-${secret.slice(1)}`)).toBeUndefined()
    expect(parseApiKey(`${id.slice(1)}-${secret}x`)).toBeUndefined()
    expect(parseApiKey(`${id}x-${secret.slice(1)}`)).toBeUndefined()
    expect(parseApiKey(`-${id}${secret}`)).toBeUndefined()
  })
})

describe("parseQuery", () => {
  const allowed = ["username", "email", "status", "role"]

  it.effect("splits key:value terms from free text", () =>
    Effect.gen(function*() {
      const q = yield* parseQuery("alice status:active role:owner bob", allowed)
      expect(Object.fromEntries(q.terms)).toEqual({ status: "active", role: "owner" })
      expect(q.text).toEqual(["alice", "bob"])
    }))

  it.effect("an empty or absent query has no terms and no text", () =>
    Effect.gen(function*() {
      for (const input of [undefined, "", "   "]) {
        const q = yield* parseQuery(input, allowed)
        expect(q.terms.size).toBe(0)
        expect(q.text).toEqual([])
      }
    }))

  it.effect("lower-cases keys, keeps values, unquotes quoted values and words", () =>
    Effect.gen(function*() {
      const q = yield* parseQuery(`Status:Active username:"Ann Lee" "free text" email:a@b.co`, allowed)
      expect(Object.fromEntries(q.terms)).toEqual({ status: "Active", username: "Ann Lee", email: "a@b.co" })
      expect(q.text).toEqual(["free text"])
    }))

  it.effect("keeps the value after the first colon; a leading colon is free text", () =>
    Effect.gen(function*() {
      const q = yield* parseQuery("email:x:y :plain", allowed)
      expect(q.terms.get("email")).toBe("x:y")
      expect(q.text).toEqual([":plain"])
    }))

  it.effect("the last of a repeated key wins", () =>
    Effect.gen(function*() {
      const q = yield* parseQuery("status:active status:suspended", allowed)
      expect(q.terms.get("status")).toBe("suspended")
    }))

  it.effect("unknown keys and empty values fail with a 400 naming q, one validation per problem", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(parseQuery("color:red status: role:owner", allowed))
      expect(error).toBeInstanceOf(BadRequest)
      expect(error.message).toBe("Invalid search query.")
      expect(error.validations?.map((v) => v.field)).toEqual(["q", "q"])
      expect(error.validations?.[0]?.detail).toContain(`"color"`)
      expect(error.validations?.[1]?.detail).toContain(`"status"`)
    }))
})

describe("parseQuietHours", () => {
  const now = new Date(Date.UTC(2024, 4, 6, 7, 8, 9))

  it.effect("reads the time zone, the time of day and the next occurrence", () =>
    Effect.gen(function*() {
      const berlin = yield* parseQuietHours("CRON_TZ=Europe/Berlin 30 9 * * *", now)
      expect(berlin.timezone).toBe("Europe/Berlin")
      expect(berlin.time).toBe("09:30")
      // 09:30 in Berlin (CEST, UTC+2) is 07:30 UTC, 21 minutes after `now`.
      expect(berlin.next.toISOString()).toBe("2024-05-06T07:30:00.000Z")

      const ny = yield* parseQuietHours("CRON_TZ=America/New_York 15 23 * * *", now)
      expect(ny.time).toBe("23:15")
      expect(ny.next.toISOString()).toBe("2024-05-07T03:15:00.000Z")
    }))

  it.effect("defaults to UTC and tolerates surrounding space", () =>
    Effect.gen(function*() {
      const utc = yield* parseQuietHours("  0 22 * * *  ", now)
      expect(utc).toEqual({ timezone: "UTC", time: "22:00", next: new Date("2024-05-06T22:00:00.000Z") })
      const midnight = yield* parseQuietHours("CRON_TZ=UTC 0 0 * * *", now)
      expect(midnight.time).toBe("00:00")
      expect(midnight.next.toISOString()).toBe("2024-05-07T00:00:00.000Z")
    }))

  it.effect("the next occurrence is strictly after now", () =>
    Effect.gen(function*() {
      const exact = yield* parseQuietHours("CRON_TZ=UTC 8 7 * * *", new Date(Date.UTC(2024, 4, 6, 7, 8, 0)))
      expect(exact.next.toISOString()).toBe("2024-05-07T07:08:00.000Z")
    }))

  it.effect("rejects every schedule that is not one daily time, with a 400 on `schedule`", () =>
    Effect.gen(function*() {
      for (
        const bad of [
          "",
          "0 9 * *",
          "0 9 * * * *",
          "0 9 1 * *",
          "0 9 * 1 *",
          "0 9 * * 1",
          "0,30 9 * * *",
          "*/5 9 * * *",
          "0 9-17 * * *",
          "61 9 * * *",
          "0 24 * * *",
          "CRON_TZ=Nowhere/City 0 9 * * *",
          "x y * * *"
        ]
      ) {
        const result = yield* Effect.either(parseQuietHours(bad, now))
        expect(Either.isLeft(result), bad).toBe(true)
        if (Either.isLeft(result)) {
          expect(result.left).toBeInstanceOf(BadRequest)
          expect(result.left.validations?.[0]?.field).toBe("schedule")
        }
      }
    }))
})

describe("generateSshKeyPair", () => {
  it("makes a matching ed25519 pair in OpenSSH formats", async () => {
    const { privateKey, publicKey } = await Effect.runPromise(generateSshKeyPair)
    expect(publicKey).toMatch(/^ssh-ed25519 [A-Za-z0-9+/]+=*$/)
    expect(privateKey.startsWith("-----BEGIN OPENSSH PRIVATE KEY-----")).toBe(true)
    expect(privateKey.trimEnd().endsWith("-----END OPENSSH PRIVATE KEY-----")).toBe(true)
    const priv = sshpk.parsePrivateKey(privateKey, "ssh")
    const pub = sshpk.parseKey(publicKey, "ssh")
    expect(priv.type).toBe("ed25519")
    expect(priv.toPublic().fingerprint("sha256").toString()).toBe(pub.fingerprint("sha256").toString())
  })

  it("makes a new pair every time", async () => {
    const [a, b] = await Effect.runPromise(Effect.all([generateSshKeyPair, generateSshKeyPair]))
    expect(a.publicKey).not.toBe(b.publicKey)
  })
})
