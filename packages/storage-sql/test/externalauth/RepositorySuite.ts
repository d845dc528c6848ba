/**
 * The external auth link repository contract, run against every storage: insert and replace
 * (keeping `created_at`), a user's links in provider order, the guarded token replace of a
 * refresh (only while the refresh token is the one used), delete, nulls for no expiry and no
 * extra. Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type ExternalAuthLinkRecord, ExternalAuthLinkRepo, UserRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10)
const at = (seconds: number) => new Date(T0 + seconds * 1000)

const someone = Effect.gen(function*() {
  const u = user(`x${randomUUID().slice(0, 8)}`)
  yield* Effect.flatMap(UserRepo, (r) => r.insert(u))
  return u.id
})

const link = (
  userId: string,
  providerId: string,
  extra: Partial<ExternalAuthLinkRecord> = {}
): ExternalAuthLinkRecord => ({
  provider_id: providerId,
  user_id: userId,
  created_at: at(0),
  updated_at: at(0),
  oauth_access_token: `access-${providerId}`,
  oauth_refresh_token: `refresh-${providerId}`,
  oauth_expiry: at(3600),
  oauth_extra: { scope: "repo", nested: { n: 1 } },
  oauth_refresh_failure_reason: "",
  ...extra
})

export const externalAuthRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`external auth link repository on ${name}`, () => {
    test(
      "insert, replace keeping created_at, find, list in provider order",
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const u = yield* someone
        const stored = yield* repo.upsert(link(u, "github"))
        expect(stored).toEqual(link(u, "github"))
        yield* repo.upsert(link(u, "corp", { oauth_expiry: null, oauth_extra: null, oauth_refresh_token: "" }))
        const replaced = yield* repo.upsert(
          link(u, "github", { created_at: at(100), updated_at: at(100), oauth_access_token: "new" })
        )
        expect(replaced.created_at).toEqual(at(0))
        expect(replaced.updated_at).toEqual(at(100))
        expect(replaced.oauth_access_token).toBe("new")
        const corp = Option.getOrThrow(yield* repo.find("corp", u))
        expect(corp.oauth_expiry).toBeNull()
        expect(corp.oauth_extra).toBeNull()
        expect((yield* repo.listByUser(u)).map((l) => l.provider_id)).toEqual(["corp", "github"])
        expect(Option.isNone(yield* repo.find("github", yield* someone))).toBe(true)
        expect(yield* repo.listByUser(yield* someone)).toEqual([])
      })
    )

    test(
      "the refresh's replace happens only while the refresh token is the one used",
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const u = yield* someone
        yield* repo.upsert(link(u, "github"))
        const next = link(u, "github", {
          oauth_access_token: "a2",
          oauth_refresh_token: "r2",
          updated_at: at(10),
          oauth_expiry: at(7200)
        })
        const won = yield* repo.updateTokens(next, "refresh-github")
        expect(Option.getOrThrow(won)).toMatchObject({
          oauth_access_token: "a2",
          oauth_refresh_token: "r2",
          updated_at: at(10),
          created_at: at(0)
        })
        // A second refresh with the old token loses: nothing changes.
        const lost = yield* repo.updateTokens(
          link(u, "github", { oauth_access_token: "a3", oauth_refresh_token: "r3" }),
          "refresh-github"
        )
        expect(Option.isNone(lost)).toBe(true)
        expect(Option.getOrThrow(yield* repo.find("github", u)).oauth_access_token).toBe("a2")
        expect(Option.isNone(yield* repo.updateTokens(link(u, "nope"), "x"))).toBe(true)
      })
    )

    test(
      "delete answers whether there was a link, and touches no other",
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const u = yield* someone
        yield* repo.upsert(link(u, "github"))
        yield* repo.upsert(link(u, "corp"))
        expect(yield* repo.delete("github", u)).toBe(true)
        expect(yield* repo.delete("github", u)).toBe(false)
        expect((yield* repo.listByUser(u)).map((l) => l.provider_id)).toEqual(["corp"])
      })
    )
  })
}
