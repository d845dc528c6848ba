/**
 * The repository contract on Postgres: every test gets an empty, migrated store (fresh.ts); the
 * layer's own tests make schemas and migrate them.
 * Skipped when no server answers.
 */
import { describe, expect, inject, it } from "@effect/vitest"
import { UserRepo } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { organizationRepositorySuite } from "../../storage-sql/test/organizations/RepositorySuite.js"
import { repositorySuite, user } from "../../storage-sql/test/users/RepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

/** A fresh schema per call, for the tests of the layer itself (it creates the schema and migrates it). */
const freshSchema = () => `t_${randomBytes(8).toString("hex")}`

repositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), {
  skip: url === null
})

organizationRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)

describe.skipIf(url === null)("Postgres storage layer", () => {
  it.live("keeps data across layer rebuilds and re-runs migrations idempotently", () =>
    Effect.gen(function*() {
      const schema = freshSchema()
      const layer = () => Postgres.layer({ url: url ?? "", schema, maxConnections: 2 })
      const at = new Date(Date.UTC(2024, 1, 29, 12, 34, 56, 789))
      const record = user("alice", {
        name: "Alice",
        rbac_roles: ["owner"],
        is_service_account: true,
        hashed_password: "h",
        created_at: at,
        updated_at: at,
        last_seen_at: at
      })
      yield* Effect.flatMap(UserRepo, (repo) => repo.insert(record)).pipe(Effect.provide(layer()), Effect.orDie)
      const found = yield* Effect.flatMap(UserRepo, (repo) => repo.findByUsername("Alice")).pipe(
        Effect.provide(layer()),
        Effect.orDie
      )
      expect(Option.getOrThrow(found)).toEqual(record)
    }))

  it.live("without a schema, uses the database's default schema", () =>
    Effect.gen(function*() {
      const count = yield* Effect.flatMap(UserRepo, (repo) => repo.count).pipe(
        Effect.provide(Postgres.layer({ url: url ?? "", maxConnections: 2 })),
        Effect.orDie
      )
      expect(count).toBe(0)
    }))

  it("rejects a schema name that is not a plain identifier", () => {
    expect(() => Postgres.layer({ url: url ?? "", schema: "bad; DROP TABLE x" })).toThrow(/Invalid Postgres schema/)
    expect(() => Postgres.layer({ url: url ?? "", schema: "Mixed" })).toThrow(/Invalid Postgres schema/)
  })
})

import { logRepositorySuite } from "../../storage-sql/test/audit/RepositorySuite.js"
logRepositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), {
  skip: url === null
})

import { fileRepositorySuite } from "../../storage-sql/test/templates/RepositorySuite.js"
fileRepositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), {
  skip: url === null
})
