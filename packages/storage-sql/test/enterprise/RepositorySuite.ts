/**
 * The license repository contract, run against every storage: insert with growing ids, the
 * clash of a second license of one uuid, list oldest first, the unexpired ones at a time,
 * delete, the active user count (active, not suspended or deleted), and `site_configs`
 * values set and replaced. Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { LicenseRepo, UserRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Either, Option } from "effect"
import { randomUUID } from "node:crypto"
import { type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2025, 0, 1)
const day = (n: number) => new Date(T0 + n * 24 * 3600 * 1000)

const license = (exp: Date, uuid = randomUUID()) => ({
  uuid,
  uploaded_at: day(0),
  jwt: `header.${uuid}.signature`,
  exp
})

export const licenseRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`license repository on ${name}`, () => {
    test(
      "insert with growing ids, list oldest first, unexpired at a time, delete",
      Effect.gen(function*() {
        const repo = yield* LicenseRepo
        const a = yield* repo.insert(license(day(10)))
        const b = yield* repo.insert(license(day(30)))
        expect(b.id).toBeGreaterThan(a.id)
        expect(a).toMatchObject({ uploaded_at: day(0), exp: day(10) })
        expect((yield* repo.list).map((l) => l.id)).toEqual([a.id, b.id])
        expect(yield* repo.list).toEqual([a, b])
        expect((yield* repo.listUnexpired(day(5))).map((l) => l.id)).toEqual([a.id, b.id])
        expect((yield* repo.listUnexpired(day(10))).map((l) => l.id)).toEqual([b.id])
        expect(yield* repo.listUnexpired(day(31))).toEqual([])
        expect(yield* repo.delete(a.id)).toBe(true)
        expect(yield* repo.delete(a.id)).toBe(false)
        expect((yield* repo.list).map((l) => l.id)).toEqual([b.id])
        // Ids are not reused after a delete.
        const c = yield* repo.insert(license(day(40)))
        expect(c.id).toBeGreaterThan(b.id)
      })
    )

    test(
      "a second license of one uuid clashes",
      Effect.gen(function*() {
        const repo = yield* LicenseRepo
        const uuid = randomUUID()
        yield* repo.insert(license(day(10), uuid))
        const again = yield* Effect.either(repo.insert(license(day(20), uuid)))
        expect(Either.isLeft(again) && again.left._tag).toBe("UniqueViolation")
        expect(yield* repo.list).toHaveLength(1)
      })
    )

    test(
      "counts active users that are not deleted",
      Effect.gen(function*() {
        const repo = yield* LicenseRepo
        const users = yield* UserRepo
        expect(yield* repo.activeUserCount).toBe(0)
        yield* users.insert(user("active1"))
        yield* users.insert(user("active2"))
        yield* users.insert(user("suspended", { status: "suspended" }))
        yield* users.insert(user("gone", { deleted: true }))
        expect(yield* repo.activeUserCount).toBe(2)
      })
    )

    test(
      "site configs: absent, set, replaced",
      Effect.gen(function*() {
        const repo = yield* LicenseRepo
        expect(yield* repo.siteConfig("appearance")).toEqual(Option.none())
        yield* repo.setSiteConfig("appearance", "{\"application_name\":\"A\"}")
        yield* repo.setSiteConfig("appearance", "{\"application_name\":\"B\"}")
        expect(yield* repo.siteConfig("appearance")).toEqual(Option.some("{\"application_name\":\"B\"}"))
      })
    )
  })
}
