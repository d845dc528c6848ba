/** The repository contract on SQLite (a fresh `:memory:` database per test), plus persistence on a real file. */
import { describe, expect, it } from "@effect/vitest"
import { type UserRecord, UserRepo } from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect, Option } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repositorySuite, user } from "../../storage-sql/test/RepositorySuite.js"

repositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

const created = new Date(Date.UTC(2024, 1, 29, 12, 34, 56, 789))

const alice = (): UserRecord =>
  user("alice", { name: "Alice", rbac_roles: ["owner"], is_service_account: true, hashed_password: "h", created_at: created, updated_at: created, last_seen_at: created })

/** A temporary folder, removed when the test's scope closes. */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "workbay-sqlite-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("SQLite file storage", () => {
  it.scopedLive("keeps data across layer rebuilds (folder created, migrations re-run idempotently)", () =>
    Effect.gen(function* () {
      const filename = join(yield* tempDir, "nested", "workbay.db")
      const record = alice()
      yield* Effect.flatMap(UserRepo, (repo) => repo.insert(record)).pipe(
        Effect.provide(Sqlite.layer({ filename })),
        Effect.orDie
      )
      expect(existsSync(filename)).toBe(true)

      // A new layer is a new connection: the data comes from the file.
      const found = yield* Effect.flatMap(UserRepo, (repo) => repo.findByUsername("ALICE")).pipe(
        Effect.provide(Sqlite.layer({ filename }))
      )
      expect(Option.getOrThrow(found)).toEqual(record)

      const count = yield* Effect.flatMap(UserRepo, (repo) => repo.count).pipe(
        Effect.provide(Sqlite.layer({ filename }))
      )
      expect(count).toBe(1)
    })
  )

  it.live("each :memory: layer is a fresh database", () =>
    Effect.gen(function* () {
      yield* Effect.flatMap(UserRepo, (repo) => repo.insert(alice())).pipe(
        Effect.provide(Sqlite.layerMemory),
        Effect.orDie
      )
      expect(yield* Effect.flatMap(UserRepo, (repo) => repo.count).pipe(Effect.provide(Sqlite.layerMemory))).toBe(0)
    })
  )
})

import { logRepositorySuite } from "../../storage-sql/test/LogRepositorySuite.js"
logRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { groupRepositorySuite } from "../../storage-sql/test/GroupRepositorySuite.js"
groupRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
