/** The repository contract on SQLite (a fresh `:memory:` database per test), plus persistence on a real file. */
import { Migrator, SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type UserRecord, UserRepo } from "@workbay/core"
import { AuditLogRepo, GroupRepo, LifecycleCandidates, MemberRepo, Organization, OrganizationRepo } from "@workbay/core"
import { migrations, sqliteTypes, toDate } from "@workbay/storage-sql"
import * as Sqlite from "@workbay/storage-sqlite"
import { SqliteClient } from "@workbay/storage-sqlite"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { logRepositorySuite } from "../../storage-sql/test/audit/RepositorySuite.js"
import { groupRepositorySuite } from "../../storage-sql/test/groups/RepositorySuite.js"
import { organizationRepositorySuite } from "../../storage-sql/test/organizations/RepositorySuite.js"
import { repositorySuite, user } from "../../storage-sql/test/users/RepositorySuite.js"
import { job, world } from "../../storage-sql/test/workspaces/BuildRepositorySuite.js"

repositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

organizationRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

const created = new Date(Date.UTC(2024, 1, 29, 12, 34, 56, 789))

const alice = (): UserRecord =>
  user("alice", {
    name: "Alice",
    rbac_roles: ["owner"],
    is_service_account: true,
    hashed_password: "h",
    created_at: created,
    updated_at: created,
    last_seen_at: created
  })

/** A temporary folder, removed when the test's scope closes. */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "workbay-sqlite-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("SQLite file storage", () => {
  it.scopedLive("keeps data across layer rebuilds (folder created, migrations re-run idempotently)", () =>
    Effect.gen(function*() {
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
    }))

  it.scopedLive("upgrades a database of the first release: Everyone groups and kept counts from the rows there", () =>
    Effect.gen(function*() {
      const filename = join(yield* tempDir, "old.db")
      const at = new Date(Date.UTC(2025, 0, 1))
      const org = new Organization({
        id: "0b1e0a52-0000-4000-8000-000000000001",
        name: "coder",
        display_name: "Coder",
        description: "",
        icon: "",
        is_default: true,
        created_at: at,
        updated_at: at
      })
      const [ann, ben, gone] = [user("ann"), user("ben", { status: "suspended" }), user("gone", { deleted: true })]
      // The first release: migration 0001 only, rows written as it wrote them.
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrator.make({})({
          loader: Migrator.fromRecord({ "0001_identity": migrations(sqliteTypes)["0001_identity"] }),
          table: "workbay_migrations"
        })
        yield* sql`INSERT INTO organizations ${
          sql.insert({ ...org, is_default: 1, created_at: at.toISOString(), updated_at: at.toISOString() })
        }`
        for (const u of [ann, ben, gone]) {
          yield* sql`INSERT INTO users ${
            sql.insert({
              id: u.id,
              email: u.email,
              username: u.username,
              login_type: u.login_type,
              status: u.status,
              created_at: at.toISOString(),
              updated_at: at.toISOString(),
              last_seen_at: at.toISOString(),
              deleted: u.deleted ? 1 : 0
            })
          }`
          yield* sql`INSERT INTO organization_members ${
            sql.insert({
              organization_id: org.id,
              user_id: u.id,
              roles: "[]",
              created_at: at.toISOString(),
              updated_at: at.toISOString()
            })
          }`
        }
      }).pipe(Effect.provide(SqliteClient.layer({ filename })), Effect.orDie)

      // This release on the same file: the remaining migrations run at start.
      yield* Effect.gen(function*() {
        const everyone = yield* Effect.flatMap(GroupRepo, (repo) => repo.findById(org.id))
        expect(Option.getOrThrow(everyone)).toMatchObject({
          name: "Everyone",
          organization_id: org.id,
          member_count: 2
        })
        const users = yield* UserRepo
        expect(yield* users.count).toBe(2)
        expect((yield* users.list({ limit: 10, offset: 0, status: "active" })).count).toBe(1)
        // And the counts move from there.
        yield* Effect.flatMap(MemberRepo, (repo) => repo.delete(org.id, ann.id))
        expect(Option.getOrThrow(yield* Effect.flatMap(GroupRepo, (repo) => repo.findById(org.id))).member_count).toBe(
          1
        )
        expect(Option.isSome(yield* Effect.flatMap(OrganizationRepo, (repo) => repo.findDefault))).toBe(true)
      }).pipe(Effect.provide(Sqlite.layer({ filename })), Effect.orDie)
    }))

  it.scopedLive("upgrades audit entries about API keys to name the key's owner (a UUID), not the key id", () =>
    Effect.gen(function*() {
      const filename = join(yield* tempDir, "keys.db")
      const at = new Date(Date.UTC(2025, 0, 1)).toISOString()
      const [ann, ben] = [user("ann"), user("ben")]
      const nil = "00000000-0000-0000-0000-000000000000"
      const entry = (id: string, userId: string, resourceId: string) => ({
        id,
        time: at,
        user_id: userId,
        action: "create",
        resource_type: "api_key",
        resource_id: resourceId,
        status_code: 201
      })
      // A release before 0004: entries about keys held the key id.
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const all = migrations(sqliteTypes)
        yield* Migrator.make({})({
          loader: Migrator.fromRecord({
            "0001_identity": all["0001_identity"],
            "0002_access": all["0002_access"],
            "0003_counters": all["0003_counters"]
          }),
          table: "workbay_migrations"
        })
        for (const u of [ann, ben]) {
          yield* sql`INSERT INTO users ${
            sql.insert({
              id: u.id,
              email: u.email,
              username: u.username,
              login_type: u.login_type,
              status: u.status,
              created_at: at,
              updated_at: at,
              last_seen_at: at,
              deleted: 0
            })
          }`
        }
        yield* sql`INSERT INTO api_keys ${
          sql.insert({
            id: "KeptKey001",
            hashed_secret: "h",
            user_id: ben.id,
            login_type: "token",
            token_name: "kept",
            lifetime_seconds: 60,
            created_at: at,
            updated_at: at,
            expires_at: at,
            last_used: at
          })
        }`
        yield* sql`INSERT INTO audit_logs ${
          sql.insert([
            // The owner made a token for ben (the key still exists): ben is the resource.
            entry("7a4b1c1e-0000-4000-8000-000000000001", ann.id, "KeptKey001"),
            // Ann's own key, since deleted: the entry's user is the owner.
            entry("7a4b1c1e-0000-4000-8000-000000000002", ann.id, "GoneKey001"),
            // A failed login named no key.
            entry("7a4b1c1e-0000-4000-8000-000000000003", ben.id, nil),
            { ...entry("7a4b1c1e-0000-4000-8000-000000000004", ann.id, ann.id), resource_type: "user" }
          ])
        }`
      }).pipe(Effect.provide(SqliteClient.layer({ filename })), Effect.orDie)

      const rows = yield* Effect.flatMap(AuditLogRepo, (repo) => repo.list({ limit: 10, offset: 0 })).pipe(
        Effect.provide(Sqlite.layer({ filename })),
        Effect.orDie
      )
      expect(Object.fromEntries(rows.map((r) => [r.id.slice(-1), r.resource_id]))).toEqual({
        1: ben.id,
        2: ann.id,
        3: nil,
        4: ann.id
      })
    }))

  it.scopedLive("upgrades workspaces of a release before 0013 to be due at once for the lifecycle executor", () =>
    Effect.gen(function*() {
      const filename = join(yield* tempDir, "lifecycle.db")
      const wsId = "7a4b1c1e-0000-4000-8000-0000000000aa"
      // A release before 0013: a workspace with a running build, as 0012 stored it.
      yield* Effect.gen(function*() {
        yield* Migrator.make({})({
          loader: Migrator.fromRecord(
            Object.fromEntries(Object.entries(migrations(sqliteTypes)).filter(([k]) => k < "0013"))
          ),
          table: "workbay_migrations"
        })
        const w = yield* world
        const sql = yield* SqlClient.SqlClient
        const t = new Date(Date.UTC(2024, 6, 1)).toISOString()
        yield* sql`INSERT INTO workspaces (id, created_at, updated_at, owner_id, organization_id, template_id, name, last_used_at)
          VALUES (${wsId}, ${t}, ${t}, ${w.user}, ${w.org}, ${w.template}, 'old', ${t})`
        yield* sql`INSERT INTO workspace_builds (id, created_at, updated_at, workspace_id, template_version_id, build_number, transition,
          initiator_id, job_id) VALUES (${randomUUID()}, ${t}, ${t}, ${wsId}, ${w.version}, 1, 'start', ${w.user}, ${yield* job(
          w
        )})`
      }).pipe(Effect.provide(SqliteClient.layer({ filename })), Effect.orDie)

      // This release: the first tick looks at it.
      const due = yield* Effect.flatMap(LifecycleCandidates, (c) => c.due(new Date(Date.UTC(2024, 6, 1)), 10)).pipe(
        Effect.provide(Sqlite.layer({ filename })),
        Effect.orDie
      )
      expect(due.map((c) => [c.workspace.id, c.latestBuild.transition, c.version])).toEqual([[wsId, "start", 0]])
    }))

  it.live("the every-user token list reads the login-type index in order, not the whole key table", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const plan = yield* sql.unsafe<{ detail: string }>(
        `EXPLAIN QUERY PLAN SELECT k.*, u.username AS owner_username FROM api_keys k JOIN users u ON u.id = k.user_id
          WHERE k.login_type = 'token' AND k.expires_at > ? ORDER BY k.created_at DESC`,
        [new Date().toISOString()]
      )
      const details = plan.map((r) => r.detail).join("\n")
      expect(details).toMatch(/SEARCH k USING INDEX api_keys_login_type \(login_type=\?\)/)
      expect(details).not.toMatch(/TEMP B-TREE/)
    }).pipe(Effect.provide(Sqlite.layer({ filename: ":memory:" })), Effect.orDie))

  it("timestamps read from their text are the times Date's parser reads, and format as stored", () => {
    // Read field by field, and kept as text (an impossible day rolls over as Date's parser rolls it, and is answered as stored).
    const kept = [
      "2024-02-29T12:34:56.789Z",
      "1970-01-01T00:00:00.000Z",
      "9999-12-31T23:59:59.999Z",
      "0100-01-01T00:00:00.000Z",
      "2024-02-30T00:00:00.000Z"
    ]
    // Outside that reading: Date's parser answers, and the date formats as any other.
    const parsed = [
      "0099-12-31T23:59:59.999Z",
      "2024-13-01T00:00:00.000Z",
      "2024-02-29T24:00:00.000Z",
      "2024-02-29T23:60:00.000Z",
      "2024-0a-01T00:00:00.000Z",
      "2024-01-01 00:00:00.000Z",
      "2024-01-01T00:00:00Z"
    ]
    for (const text of [...kept, ...parsed]) {
      expect(Object.is(toDate(text).getTime(), new Date(text).getTime())).toBe(true)
    }
    for (const text of kept) expect(toDate(text).toISOString()).toBe(text)
    expect(toDate("2024-02-29T24:00:00.000Z").toISOString()).toBe("2024-03-01T00:00:00.000Z")
    const moved = toDate("2024-02-29T12:34:56.789Z")
    moved.setUTCFullYear(2025)
    expect(moved.toISOString()).toBe("2025-03-01T12:34:56.789Z")
  })

  it.live("each :memory: layer is a fresh database", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(UserRepo, (repo) => repo.insert(alice())).pipe(
        Effect.provide(Sqlite.layerMemory),
        Effect.orDie
      )
      expect(yield* Effect.flatMap(UserRepo, (repo) => repo.count).pipe(Effect.provide(Sqlite.layerMemory))).toBe(0)
    }))
})

logRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

groupRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { fileRepositorySuite } from "../../storage-sql/test/templates/RepositorySuite.js"
fileRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { jobRepositorySuite } from "../../storage-sql/test/provisioners/JobRepositorySuite.js"
jobRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { templateRepositorySuite } from "../../storage-sql/test/templates/TemplateRepositorySuite.js"
templateRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { workspaceRepositorySuite } from "../../storage-sql/test/workspaces/RepositorySuite.js"
workspaceRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { portShareRepositorySuite } from "../../storage-sql/test/workspaces/PortShareRepositorySuite.js"
portShareRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { workspaceListPlanSuite } from "../../storage-sql/test/workspaces/ListPlanSuite.js"
workspaceListPlanSuite("SQLite", "sqlite", () => Sqlite.layer({ filename: ":memory:" }))
import { buildRepositorySuite } from "../../storage-sql/test/workspaces/BuildRepositorySuite.js"
buildRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
import { lifecycleSuite } from "../../storage-sql/test/workspaces/LifecycleSuite.js"
lifecycleSuite("SQLite", "sqlite", () => Sqlite.layer({ filename: ":memory:" }))

import { agentLogRepositorySuite } from "../../storage-sql/test/agents/LogRepositorySuite.js"
agentLogRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { taskRepositorySuite } from "../../storage-sql/test/tasks/RepositorySuite.js"
taskRepositorySuite("SQLite", "sqlite", () => Sqlite.layer({ filename: ":memory:" }))

import { provisionerKeyRepositorySuite } from "../../storage-sql/test/provisioners/ProvisionerKeyRepositorySuite.js"
provisionerKeyRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))

import { provisionerHostRepositorySuite } from "../../storage-sql/test/provisioners/ProvisionerHostRepositorySuite.js"
provisionerHostRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
