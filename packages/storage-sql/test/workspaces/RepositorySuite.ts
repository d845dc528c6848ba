/**
 * The workspace repository contract, run against every storage: records kept exactly (sharing
 * lists, nullable times), names unique per owner among the undeleted, lookups by name with and
 * without deleted ones. Every test gets a fresh, migrated database.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { UniqueViolation, type WorkspaceRecord, WorkspaceRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const at = (s: number) => new Date(Date.UTC(2024, 6, 1, 10, 0, s, 123))

/** An organization, a user and a template, written directly (their own suites test them). */
const owners = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const org = randomUUID()
  const user = randomUUID()
  const template = randomUUID()
  const t = at(0).toISOString()
  yield* sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
    VALUES (${org}, ${`org-${org.slice(0, 8)}`}, 'Org', ${t}, ${t})`
  yield* sql`INSERT INTO users (id, email, username, login_type, status, created_at, updated_at, last_seen_at)
    VALUES (${user}, ${`${user}@example.com`}, ${`u${user.slice(0, 8)}`}, 'password', 'active', ${t}, ${t}, ${t})`
  yield* sql`INSERT INTO templates (id, created_at, updated_at, organization_id, name, provisioner, active_version_id, created_by)
    VALUES (${template}, ${t}, ${t}, ${org}, 'tpl', 'workbay', ${randomUUID()}, ${user})`
  return { org, user, template }
}).pipe(Effect.orDie)

const workspace = (o: { org: string; user: string; template: string }, overrides: Partial<WorkspaceRecord> = {}): WorkspaceRecord => ({
  id: randomUUID(), created_at: at(1), updated_at: at(1), owner_id: o.user, organization_id: o.org, template_id: o.template,
  deleted: false, name: "dev", autostart_schedule: "CRON_TZ=Europe/Paris 30 8 * * 1-5", ttl_ms: 28_800_000,
  last_used_at: at(2), dormant_at: null, deleting_at: null, next_start_at: at(3), automatic_updates: "always", favorite: true,
  user_acl: { [randomUUID()]: "use" }, group_acl: { [o.org]: "admin" }, ...overrides
})

export const workspaceRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`workspace repositories on ${name}`, () => {
    test(
      "keeps workspaces exactly; names unique per owner among the undeleted; lookups by name",
      Effect.gen(function*() {
        const repo = yield* WorkspaceRepo
        const o = yield* owners
        const w = workspace(o)
        yield* repo.insert(w)
        expect(Option.getOrThrow(yield* repo.findById(w.id))).toEqual(w)
        expect(Option.getOrThrow(yield* repo.findByOwnerAndName(o.user, "DEV", false)).id).toBe(w.id)
        expect(yield* Effect.flip(repo.insert(workspace(o, { name: "Dev" })))).toBeInstanceOf(UniqueViolation)

        const none = workspace(o, { name: "plain", ttl_ms: null, next_start_at: null, autostart_schedule: "", user_acl: {}, group_acl: {} })
        yield* repo.insert(none)
        expect(Option.getOrThrow(yield* repo.findById(none.id))).toEqual(none)

        const renamed = Option.getOrThrow(yield* repo.update(w.id, { name: "dev2", dormant_at: at(9), favorite: false }))
        expect(renamed).toMatchObject({ name: "dev2", favorite: false })
        expect(renamed.dormant_at).toEqual(at(9))
        expect(yield* Effect.flip(repo.update(w.id, { name: "PLAIN" }))).toBeInstanceOf(UniqueViolation)

        yield* repo.update(w.id, { deleted: true })
        expect(Option.isNone(yield* repo.findByOwnerAndName(o.user, "dev2", false))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findByOwnerAndName(o.user, "dev2", true)).deleted).toBe(true)
        // The name is free again once the workspace is deleted.
        yield* repo.insert(workspace(o, { name: "dev2" }))
        expect(Option.getOrThrow(yield* repo.findByOwnerAndName(o.user, "dev2", true)).deleted).toBe(false)
        expect(Option.isNone(yield* repo.update(randomUUID(), { name: "x" }))).toBe(true)
      })
    )
  })
}
