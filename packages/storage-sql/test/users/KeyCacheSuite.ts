/**
 * The cache of authenticated keys (KeyCache.ts) through the repositories, run against every
 * storage: a key's read is kept (a change made around the repositories, in raw SQL, is not seen),
 * and every change made through them to the key, its user or the user's memberships is seen by
 * the very next read; a read inside a transaction that rolls back is not kept; keys near their
 * expiry and keys not found are not kept. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  ApiKeyRepo,
  type CustomRoleRecord,
  CustomRoleRepo,
  MemberRepo,
  OAuth2Repo,
  OrganizationRepo,
  Transactions,
  UserRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Data, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { app } from "../oauth2/RepositorySuite.js"
import { apiKey, membership, org, type StorageFactory, type SuiteOptions, user } from "./RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const DAY = 86_400_000

class Boom extends Data.TaggedError("Boom")<{}> {}

/** A user with a key expiring in a day (the cache keeps only keys far from expiry), both stored. */
const userWithKey = (username: string) =>
  Effect.gen(function*() {
    const u = user(username)
    yield* Effect.flatMap(UserRepo, (r) => r.insert(u))
    const key = apiKey(u.id, { expires_at: new Date(Date.now() + DAY), last_used: new Date() })
    yield* Effect.flatMap(ApiKeyRepo, (r) => r.insert(key))
    return { user: u, key }
  })

const read = (keyId: string) => Effect.flatMap(ApiKeyRepo, (r) => r.findWithUser(keyId))
const readSome = (keyId: string) => Effect.map(read(keyId), Option.getOrThrow)

/** Renames the user in raw SQL, around the repositories (what the cache cannot hear of). */
const renameAround = (userId: string, name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE users SET name = ${name} WHERE id = ${userId}`)

const nameOf = (keyId: string) => Effect.map(readSome(keyId), (r) => r.user.name)

export const keyCacheSuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`The authenticated key cache on ${name}`, () => {
    test(
      "a key's read is kept: a raw change is not seen, a change through the repositories is",
      Effect.gen(function*() {
        const { key, user: u } = yield* userWithKey("kept")
        expect(yield* nameOf(key.id)).toBe("kept Name")
        yield* renameAround(u.id, "raw")
        expect(yield* nameOf(key.id)).toBe("kept Name")
        const users = yield* UserRepo
        yield* users.update(u.id, { name: "through" })
        expect(yield* nameOf(key.id)).toBe("through")
        // Another user's change leaves this key's entry alone.
        const other = yield* userWithKey("other")
        yield* renameAround(u.id, "raw again")
        yield* users.update(other.user.id, { name: "renamed" })
        expect(yield* nameOf(key.id)).toBe("through")
        expect(yield* nameOf(other.key.id)).toBe("renamed")
      })
    )

    test(
      "every change of the user, its keys and its memberships is seen by the next read",
      Effect.gen(function*() {
        const users = yield* UserRepo
        const keys = yield* ApiKeyRepo
        const orgs = yield* OrganizationRepo
        const members = yield* MemberRepo
        const roles = yield* CustomRoleRepo
        const { key, user: u } = yield* userWithKey("changes")
        const memberships = Effect.map(readSome(key.id), (r) => r.memberships ?? [])
        /**
         * `change` after the key's entry is kept and the user renamed in raw SQL: the next read
         * shows the raw name only if the change dropped the entry.
         */
        const seen = <A, E, R>(change: Effect.Effect<A, E, R>) =>
          Effect.gen(function*() {
            yield* read(key.id)
            const raw = `n${randomUUID().slice(0, 8)}`
            yield* renameAround(u.id, raw)
            yield* change
            expect(yield* nameOf(key.id)).toBe(raw)
          })

        yield* seen(users.update(u.id, { status: "suspended" }))
        expect((yield* readSome(key.id)).user.status).toBe("suspended")
        yield* seen(users.update(u.id, { status: "active", rbac_roles: ["auditor"] }))
        expect((yield* readSome(key.id)).user.rbac_roles).toEqual(["auditor"])
        yield* seen(users.setPreferences(u.id, { collapse_assistant_steps: true }, new Date()))

        const o = org("cache-org")
        yield* orgs.insert(o)
        yield* seen(members.insert(membership(o.id, u.id, 1, ["organization-auditor"])))
        expect(yield* memberships).toContainEqual({ organization_id: o.id, roles: ["organization-auditor"] })
        yield* seen(members.updateRoles(o.id, u.id, ["organization-admin", "custom-x"], new Date()))
        expect(yield* memberships).toContainEqual({ organization_id: o.id, roles: ["organization-admin", "custom-x"] })
        const custom: CustomRoleRecord = {
          id: randomUUID(),
          organization_id: o.id,
          name: "custom-x",
          display_name: "X",
          organization_permissions: [],
          created_at: new Date(),
          updated_at: new Date()
        }
        yield* roles.insert(custom)
        yield* seen(roles.delete(o.id, "custom-x", new Date()))
        expect(yield* memberships).toContainEqual({ organization_id: o.id, roles: ["organization-admin"] })
        yield* seen(members.delete(o.id, u.id))
        expect((yield* memberships).map((m) => m.organization_id)).not.toContain(o.id)
        yield* members.insert(membership(o.id, u.id, 2))
        yield* seen(orgs.delete(o.id))
        expect((yield* memberships).map((m) => m.organization_id)).not.toContain(o.id)
        const o2 = org("cache-org-2")
        yield* orgs.insert(o2)
        yield* members.insert(membership(o2.id, u.id, 3))
        yield* seen(members.deleteByUser(u.id))
        expect(yield* memberships).toEqual([])

        // The key itself: expired (to a moment still a day out, so only the dropped entry shows it), touched, deleted.
        const later = new Date(Date.now() + DAY / 2)
        yield* seen(keys.expire(key.id, later))
        expect((yield* readSome(key.id)).key.expires_at).toEqual(later)
        const used = new Date(Date.now() + 1000)
        yield* seen(keys.touch(key.id, used, later))
        expect((yield* readSome(key.id)).key.last_used).toEqual(used)
        yield* read(key.id)
        expect(yield* keys.delete(key.id)).toBe(true)
        expect(Option.isNone(yield* read(key.id))).toBe(true)
        const second = apiKey(u.id, { expires_at: new Date(Date.now() + DAY) })
        yield* keys.insert(second)
        yield* read(second.id)
        yield* keys.deleteByUser(u.id)
        expect(Option.isNone(yield* read(second.id))).toBe(true)
      })
    )

    test(
      "an OAuth2 app's deletion drops the access keys it issued",
      Effect.gen(function*() {
        const oauth = yield* OAuth2Repo
        const { key, user: u } = yield* userWithKey("oauth")
        const a = app("cache-app")
        const appId = a.id
        const now = new Date()
        yield* oauth.insertApp(a)
        yield* oauth.insertToken({
          id: randomUUID(),
          app_id: appId,
          user_id: u.id,
          family_id: randomUUID(),
          api_key_id: key.id,
          app_secret_id: null,
          hashed_refresh_token: randomUUID(),
          scope: "",
          created_at: now,
          expires_at: new Date(Date.now() + DAY),
          used_at: null
        })
        expect(Option.isSome(yield* read(key.id))).toBe(true)
        expect(yield* oauth.deleteApp(appId)).toBe(true)
        expect(Option.isNone(yield* read(key.id))).toBe(true)
      })
    )

    test(
      "a read inside a transaction that rolls back is not kept",
      Effect.gen(function*() {
        const tx = yield* Transactions
        const members = yield* MemberRepo
        const { key, user: u } = yield* userWithKey("rollback")
        const o = org("rollback-org")
        yield* Effect.flatMap(OrganizationRepo, (r) => r.insert(o))
        yield* members.insert(membership(o.id, u.id, 1, ["organization-auditor"]))
        const roles = Effect.map(readSome(key.id), (r) => r.memberships?.find((m) => m.organization_id === o.id)?.roles)
        expect(yield* roles).toEqual(["organization-auditor"])
        const failed = yield* Effect.flip(tx.atomic(Effect.gen(function*() {
          yield* members.updateRoles(o.id, u.id, ["organization-admin"], new Date())
          expect(yield* roles).toEqual(["organization-admin"])
          return yield* new Boom()
        })))
        expect(failed).toBeInstanceOf(Boom)
        expect(yield* roles).toEqual(["organization-auditor"])
      })
    )

    test(
      "a key near its expiry, and a key not found, are read every time",
      Effect.gen(function*() {
        const u = user("near")
        yield* Effect.flatMap(UserRepo, (r) => r.insert(u))
        const near = apiKey(u.id, { expires_at: new Date(Date.now() + 5_000) })
        const keys = yield* ApiKeyRepo
        yield* keys.insert(near)
        expect(yield* nameOf(near.id)).toBe("near Name")
        yield* renameAround(u.id, "raw")
        expect(yield* nameOf(near.id)).toBe("raw")
        const later = apiKey(u.id, { expires_at: new Date(Date.now() + DAY) })
        expect(Option.isNone(yield* read(later.id))).toBe(true)
        yield* keys.insert(later)
        expect(yield* nameOf(later.id)).toBe("raw")
      })
    )
  })
}
