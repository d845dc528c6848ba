/**
 * The IdP sync repository contract, run against every storage: a scope's settings stored and
 * replaced, and the claims seen at sign-ins, replaced per user, listed sorted and distinct, for
 * the deployment or an organization's members. Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { IdpSyncRepo, MemberRepo, OrganizationRepo, seenClaims, UserRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { at, membership, org, type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const someone = Effect.gen(function*() {
  const u = user(`c${randomUUID().slice(0, 8)}`)
  yield* Effect.flatMap(UserRepo, (r) => r.insert(u))
  return u.id
})

export const idpSyncRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`IdP sync repository on ${name}`, () => {
    test(
      "stores a scope's settings and replaces them; other scopes stay apart",
      Effect.gen(function*() {
        const repo = yield* IdpSyncRepo
        expect(Option.isNone(yield* repo.find("organization"))).toBe(true)
        yield* repo.save("organization", { field: "orgs", mapping: { a: ["x"] } }, at(1))
        yield* repo.save("group:o1", { field: "groups" }, at(1))
        yield* repo.save("organization", { field: "departments", mapping: {} }, at(2))
        expect(yield* repo.find("organization")).toEqual(Option.some({ field: "departments", mapping: {} }))
        expect(yield* repo.find("group:o1")).toEqual(Option.some({ field: "groups" }))
        expect(Option.isNone(yield* repo.find("role:o1"))).toBe(true)
      })
    )

    test(
      "replaces a user's claims at each sign-in and lists them distinct and sorted, per organization",
      Effect.gen(function*() {
        const repo = yield* IdpSyncRepo
        const orgs = yield* OrganizationRepo
        const members = yield* MemberRepo
        const a = yield* someone
        const b = yield* someone
        const eng = org("eng")
        yield* orgs.insert(eng)
        yield* members.insert(membership(eng.id, b))
        yield* repo.recordClaims(a, seenClaims({ sub: "a", groups: ["devs", "ops", 5], title: "lead", n: 3 }))
        yield* repo.recordClaims(b, seenClaims({ sub: "b", groups: "ops", email: "b@x" }))
        expect(yield* repo.claimFields(undefined)).toEqual(["email", "groups", "n", "sub", "title"])
        expect(yield* repo.claimFieldValues(undefined, "groups")).toEqual(["devs", "ops"])
        expect(yield* repo.claimFieldValues(undefined, "n")).toEqual([])
        expect(yield* repo.claimFields(eng.id)).toEqual(["email", "groups", "sub"])
        expect(yield* repo.claimFieldValues(eng.id, "groups")).toEqual(["ops"])
        // The next sign-in replaces what the last one showed.
        yield* repo.recordClaims(a, seenClaims({ sub: "a", groups: ["qa"] }))
        expect(yield* repo.claimFieldValues(undefined, "groups")).toEqual(["ops", "qa"])
        expect(yield* repo.claimFields(undefined)).toEqual(["email", "groups", "sub"])
      })
    )

    test(
      "keeps a bounded number of claims from one sign-in, in chunks",
      Effect.gen(function*() {
        const repo = yield* IdpSyncRepo
        const a = yield* someone
        const claims: Record<string, unknown> = { groups: Array.from({ length: 600 }, (_, i) => `g${i}`) }
        for (let i = 0; i < 150; i++) claims[`z${String(i).padStart(3, "0")}`] = "v"
        claims["x".repeat(300)] = "too long"
        yield* repo.recordClaims(a, seenClaims(claims))
        const fields = yield* repo.claimFields(undefined)
        expect(fields.length).toBe(100)
        expect(fields.includes("x".repeat(300))).toBe(false)
        expect((yield* repo.claimFieldValues(undefined, "groups")).length).toBe(200)
      })
    )
  })
}
