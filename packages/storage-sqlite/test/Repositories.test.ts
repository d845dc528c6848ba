/** The repository contract on SQLite (a fresh `:memory:` database per test), plus persistence on a real file. */
import { describe, expect, it } from "@effect/vitest"
import { type UserRecord, UserRepo } from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect, Option } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { groupRepositorySuite } from "../../storage-sql/test/groups/RepositorySuite.js"
import { logRepositorySuite } from "../../storage-sql/test/audit/RepositorySuite.js"
import { organizationRepositorySuite } from "../../storage-sql/test/organizations/RepositorySuite.js"
import { repositorySuite, user } from "../../storage-sql/test/users/RepositorySuite.js"
import { Migrator, SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { migrations, sqliteTypes } from "@workbay/storage-sql"
import { GroupRepo, MemberRepo, Organization, OrganizationRepo } from "@workbay/core"

repositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

organizationRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

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

  it.scopedLive("upgrades a database of the first release: Everyone groups and kept counts from the rows there", () =>
    Effect.gen(function* () {
      const filename = join(yield* tempDir, "old.db")
      const at = new Date(Date.UTC(2025, 0, 1))
      const org = new Organization({ id: "0b1e0a52-0000-4000-8000-000000000001", name: "coder", display_name: "Coder",
        description: "", icon: "", is_default: true, created_at: at, updated_at: at })
      const [ann, ben, gone] = [user("ann"), user("ben", { status: "suspended" }), user("gone", { deleted: true })]
      // The first release: migration 0001 only, rows written as it wrote them.
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* Migrator.make({})({
          loader: Migrator.fromRecord({ "0001_identity": migrations(sqliteTypes)["0001_identity"] }),
          table: "workbay_migrations"
        })
        yield* sql`INSERT INTO organizations ${sql.insert({ ...org, is_default: 1, created_at: at.toISOString(), updated_at: at.toISOString() })}`
        for (const u of [ann, ben, gone]) {
          yield* sql`INSERT INTO users ${sql.insert({
            id: u.id, email: u.email, username: u.username, login_type: u.login_type, status: u.status,
            created_at: at.toISOString(), updated_at: at.toISOString(), last_seen_at: at.toISOString(), deleted: u.deleted ? 1 : 0
          })}`
          yield* sql`INSERT INTO organization_members ${sql.insert({
            organization_id: org.id, user_id: u.id, roles: "[]", created_at: at.toISOString(), updated_at: at.toISOString()
          })}`
        }
      }).pipe(Effect.provide(SqliteClient.layer({ filename })), Effect.orDie)

      // This release on the same file: the remaining migrations run at start.
      yield* Effect.gen(function* () {
        const everyone = yield* Effect.flatMap(GroupRepo, (repo) => repo.findById(org.id))
        expect(Option.getOrThrow(everyone)).toMatchObject({ name: "Everyone", organization_id: org.id, member_count: 2 })
        const users = yield* UserRepo
        expect(yield* users.count).toBe(2)
        expect((yield* users.list({ limit: 10, offset: 0, status: "active" })).count).toBe(1)
        // And the counts move from there.
        yield* Effect.flatMap(MemberRepo, (repo) => repo.delete(org.id, ann.id))
        expect(Option.getOrThrow(yield* Effect.flatMap(GroupRepo, (repo) => repo.findById(org.id))).member_count).toBe(1)
        expect(Option.isSome(yield* Effect.flatMap(OrganizationRepo, (repo) => repo.findDefault))).toBe(true)
      }).pipe(Effect.provide(Sqlite.layer({ filename })), Effect.orDie)
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

logRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

groupRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
