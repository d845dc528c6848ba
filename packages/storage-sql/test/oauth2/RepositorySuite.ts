/**
 * The OAuth2 repository contract, run against every storage: apps with their JSON columns, the
 * user filter, secrets by hash, a code redeemed once, a refresh token rotated once (its access
 * key deleted), and revocation of a grant family, of a user's grants to an app, of a secret's
 * tokens, of every grant of a user whose keys end, and of an app with everything it issued.
 * Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AllowListEntry,
  type ApiKeyRecord,
  ApiKeyRepo,
  type OAuth2AppRecord,
  OAuth2Repo,
  type OAuth2TokenRecord,
  UserRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10)
const at = (seconds: number) => new Date(T0 + seconds * 1000)

/** An app record for storage tests (the users' key cache suite uses it too). */
export const app = (name: string, extra: Partial<OAuth2AppRecord> = {}): OAuth2AppRecord => ({
  id: randomUUID(),
  name,
  icon: "",
  callback_url: "https://app.example.com/cb",
  redirect_uris: ["https://app.example.com/cb", "http://127.0.0.1/cb"],
  token_endpoint_auth_method: "client_secret_basic",
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  metadata: { contacts: ["a@example.com"], jwks: { keys: [] } },
  dynamically_registered: true,
  hashed_registration_token: "h-reg",
  created_at: at(0),
  updated_at: at(0),
  ...extra
})

const someone = Effect.gen(function*() {
  const u = user(`o${randomUUID().slice(0, 8)}`)
  yield* Effect.flatMap(UserRepo, (r) => r.insert(u))
  return u.id
})

const apiKey = (userId: string): ApiKeyRecord => ({
  id: randomUUID().replace(/-/g, "").slice(0, 10),
  hashed_secret: randomUUID(),
  user_id: userId,
  login_type: "oauth2_provider_app",
  token_name: "",
  scopes: ["all"],
  allow_list: [new AllowListEntry({ type: "*", id: "*" })],
  lifetime_seconds: 3600,
  created_at: at(0),
  updated_at: at(0),
  expires_at: at(3600),
  last_used: at(0)
})

/** A token of `family` with its access key, both stored; issued with the client secret `secretId`. */
const token = (appId: string, userId: string, family: string, secretId: string | null = null) =>
  Effect.gen(function*() {
    const key = apiKey(userId)
    yield* Effect.flatMap(ApiKeyRepo, (r) => r.insert(key)).pipe(Effect.orDie)
    const t: OAuth2TokenRecord = {
      id: randomUUID(),
      app_id: appId,
      user_id: userId,
      family_id: family,
      api_key_id: key.id,
      app_secret_id: secretId,
      hashed_refresh_token: randomUUID(),
      scope: "workspace:read template:read",
      created_at: at(0),
      expires_at: at(86400),
      used_at: null
    }
    yield* Effect.flatMap(OAuth2Repo, (r) => r.insertToken(t))
    return t
  })

const keyExists = (id: string) => Effect.map(Effect.flatMap(ApiKeyRepo, (r) => r.findById(id)), Option.isSome)

export const oauth2RepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`OAuth2 repositories on ${name}`, () => {
    test(
      "apps round-trip their lists and metadata, update, list by name and by the user's tokens",
      Effect.gen(function*() {
        const repo = yield* OAuth2Repo
        const b = app("b-app")
        const a = app("a-app", { dynamically_registered: false, hashed_registration_token: null })
        yield* repo.insertApp(b)
        yield* repo.insertApp(a)
        expect(Option.getOrThrow(yield* repo.findApp(b.id))).toEqual(b)
        expect((yield* repo.listApps({})).map((x) => x.name)).toEqual(["a-app", "b-app"])
        const renamed = {
          ...b,
          name: "c-app",
          redirect_uris: ["https://new.example.com/cb"],
          metadata: {},
          updated_at: at(5)
        }
        expect(yield* repo.updateApp(renamed)).toBe(true)
        expect(Option.getOrThrow(yield* repo.findApp(b.id))).toEqual(renamed)
        const userId = yield* someone
        expect(yield* repo.listApps({ userId })).toEqual([])
        yield* token(a.id, userId, randomUUID())
        expect((yield* repo.listApps({ userId })).map((x) => x.id)).toEqual([a.id])
      })
    )

    test(
      "secrets are found by hash within their app, touched and deleted",
      Effect.gen(function*() {
        const repo = yield* OAuth2Repo
        const a = app("s-app")
        const other = app("t-app")
        yield* repo.insertApp(a)
        yield* repo.insertApp(other)
        const secret = {
          id: randomUUID(),
          app_id: a.id,
          hashed_secret: "hs",
          display_secret: "wbs_abc***",
          created_at: at(0),
          last_used_at: null
        }
        yield* repo.insertSecret(secret)
        expect(Option.isSome(yield* repo.findSecret(a.id, "hs"))).toBe(true)
        expect(Option.isNone(yield* repo.findSecret(other.id, "hs"))).toBe(true)
        yield* repo.touchSecret(secret.id, at(9))
        expect((yield* repo.listSecrets(a.id))[0]!.last_used_at).toEqual(at(9))
        expect(yield* repo.deleteSecret(other.id, secret.id)).toEqual(Option.none())
        expect(yield* repo.deleteSecret(a.id, secret.id)).toEqual(Option.some(0))
        expect(yield* repo.listSecrets(a.id)).toEqual([])
      })
    )

    test(
      "deleting a secret deletes the tokens issued with it and their access keys, and no others",
      Effect.gen(function*() {
        const repo = yield* OAuth2Repo
        const a = app("x-app")
        yield* repo.insertApp(a)
        const userId = yield* someone
        const secret = (hashed: string) => ({
          id: randomUUID(),
          app_id: a.id,
          hashed_secret: hashed,
          display_secret: "x",
          created_at: at(0),
          last_used_at: null
        })
        const old = secret("h-old")
        const current = secret("h-new")
        yield* repo.insertSecret(old)
        yield* repo.insertSecret(current)
        const family = randomUUID()
        const t1 = yield* token(a.id, userId, family, old.id)
        const t2 = yield* token(a.id, userId, randomUUID(), old.id)
        const rotated = yield* token(a.id, userId, randomUUID(), old.id)
        expect(yield* repo.rotateToken(rotated.id, at(1))).toBe(true)
        // The same grant refreshed with the newer secret: that pair lives on.
        const t3 = yield* token(a.id, userId, family, current.id)
        const publicPair = yield* token(a.id, userId, randomUUID(), null)
        expect(Option.getOrThrow(yield* repo.findTokenByRefresh(t1.hashed_refresh_token)).app_secret_id).toBe(old.id)
        expect(yield* repo.deleteSecret(a.id, old.id)).toEqual(Option.some(2))
        for (const t of [t1, t2, rotated]) {
          expect(Option.isNone(yield* repo.findTokenByRefresh(t.hashed_refresh_token))).toBe(true)
          expect(yield* keyExists(t.api_key_id)).toBe(false)
        }
        for (const t of [t3, publicPair]) {
          expect(Option.isSome(yield* repo.findTokenByRefresh(t.hashed_refresh_token))).toBe(true)
          expect(yield* keyExists(t.api_key_id)).toBe(true)
        }
        expect((yield* repo.listSecrets(a.id)).map((s) => s.id)).toEqual([current.id])
      })
    )

    test(
      "ending a user's keys ends their OAuth2 refresh tokens and codes too, and no one else's",
      Effect.gen(function*() {
        const repo = yield* OAuth2Repo
        const keys = yield* ApiKeyRepo
        const a = app("u-app")
        yield* repo.insertApp(a)
        const alice = yield* someone
        const bob = yield* someone
        const family = randomUUID()
        const rotated = yield* token(a.id, alice, family)
        expect(yield* repo.rotateToken(rotated.id, at(1))).toBe(true)
        const current = yield* token(a.id, alice, family)
        const bobs = yield* token(a.id, bob, randomUUID())
        const code = (userId: string, hashed: string) => ({
          id: randomUUID(),
          app_id: a.id,
          user_id: userId,
          hashed_code: hashed,
          redirect_uri: "",
          code_challenge: "",
          code_challenge_method: "",
          scope: "all",
          created_at: at(0),
          expires_at: at(600),
          used_at: null
        })
        yield* repo.insertCode(code(alice, "hc-alice"))
        yield* repo.insertCode(code(bob, "hc-bob"))
        // The current token counts; the rotated one (dead already) goes uncounted.
        expect(yield* keys.deleteByUser(alice)).toBe(1)
        expect(Option.isNone(yield* repo.findTokenByRefresh(rotated.hashed_refresh_token))).toBe(true)
        expect(Option.isNone(yield* repo.findTokenByRefresh(current.hashed_refresh_token))).toBe(true)
        expect(yield* keyExists(current.api_key_id)).toBe(false)
        expect(Option.isNone(yield* repo.findCode("hc-alice"))).toBe(true)
        expect(Option.isSome(yield* repo.findTokenByRefresh(bobs.hashed_refresh_token))).toBe(true)
        expect(yield* keyExists(bobs.api_key_id)).toBe(true)
        expect(Option.isSome(yield* repo.findCode("hc-bob"))).toBe(true)
        expect(yield* keys.deleteByUser(alice)).toBe(0)
      })
    )

    test(
      "a code is redeemed once",
      Effect.gen(function*() {
        const repo = yield* OAuth2Repo
        const a = app("c-app")
        yield* repo.insertApp(a)
        const userId = yield* someone
        const code = {
          id: randomUUID(),
          app_id: a.id,
          user_id: userId,
          hashed_code: "hc",
          redirect_uri: "",
          code_challenge: "ch",
          code_challenge_method: "S256",
          scope: "workspace:ssh workspace:read",
          created_at: at(0),
          expires_at: at(600),
          used_at: null
        }
        yield* repo.insertCode(code)
        const first = yield* repo.redeemCode("hc", at(1))
        expect(Option.getOrThrow(first)).toEqual({ ...code, used_at: at(1) })
        expect(Option.isNone(yield* repo.redeemCode("hc", at(2)))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findCode("hc")).used_at).toEqual(at(1))
        expect(Option.isNone(yield* repo.redeemCode("unknown", at(2)))).toBe(true)
      })
    )

    test(
      "a refresh token rotates once and takes its access key with it; families and user grants are revoked whole",
      Effect.gen(function*() {
        const repo = yield* OAuth2Repo
        const a = app("r-app")
        yield* repo.insertApp(a)
        const userId = yield* someone
        const family = randomUUID()
        const t1 = yield* token(a.id, userId, family)
        const t2 = yield* token(a.id, userId, family)
        const other = yield* token(a.id, userId, randomUUID())
        expect(Option.getOrThrow(yield* repo.findTokenByRefresh(t1.hashed_refresh_token))).toEqual(t1)
        expect(Option.getOrThrow(yield* repo.findTokenByApiKey(t2.api_key_id)).id).toBe(t2.id)
        expect(yield* repo.rotateToken(t1.id, at(3))).toBe(true)
        expect(yield* repo.rotateToken(t1.id, at(4))).toBe(false)
        expect(yield* keyExists(t1.api_key_id)).toBe(false)
        expect(Option.getOrThrow(yield* repo.findTokenByRefresh(t1.hashed_refresh_token)).used_at).toEqual(at(3))
        expect(yield* repo.revokeFamily(family)).toBe(2)
        expect(yield* keyExists(t2.api_key_id)).toBe(false)
        expect(yield* keyExists(other.api_key_id)).toBe(true)
        expect(yield* repo.revokeUserApp(a.id, userId)).toBe(1)
        expect(yield* keyExists(other.api_key_id)).toBe(false)
      })
    )

    test(
      "deleting an app deletes its secrets, codes, tokens and their access keys",
      Effect.gen(function*() {
        const repo = yield* OAuth2Repo
        const a = app("d-app")
        yield* repo.insertApp(a)
        const userId = yield* someone
        const t = yield* token(a.id, userId, randomUUID())
        yield* repo.insertSecret({
          id: randomUUID(),
          app_id: a.id,
          hashed_secret: "hd",
          display_secret: "x",
          created_at: at(0),
          last_used_at: null
        })
        expect(yield* repo.deleteApp(a.id)).toBe(true)
        expect(yield* repo.deleteApp(a.id)).toBe(false)
        expect(Option.isNone(yield* repo.findApp(a.id))).toBe(true)
        expect(yield* keyExists(t.api_key_id)).toBe(false)
        expect(Option.isNone(yield* repo.findTokenByRefresh(t.hashed_refresh_token))).toBe(true)
      })
    )
  })
}
