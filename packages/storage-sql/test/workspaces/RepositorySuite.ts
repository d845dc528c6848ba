/**
 * The workspace repository contract, run against every storage: records kept exactly (sharing
 * lists, nullable times), names unique per owner among the undeleted, lookups by name with and
 * without deleted ones. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { newWorkspace, PREBUILDS_USER_ID, UniqueViolation, type WorkspaceRecord, WorkspaceRepo } from "@workbay/core"
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

const workspace = (
  o: { org: string; user: string; template: string },
  overrides: Partial<WorkspaceRecord> = {}
): WorkspaceRecord =>
  // Every field away from its default, so a column the repository loses shows.
  newWorkspace({
    id: randomUUID(),
    at: at(1),
    owner_id: o.user,
    organization_id: o.org,
    template_id: o.template,
    name: "dev",
    autostart_schedule: "CRON_TZ=Europe/Paris 30 8 * * 1-5",
    ttl_ms: 28_800_000,
    last_used_at: at(2),
    next_start_at: at(3),
    automatic_updates: "always",
    favorite: true,
    user_acl: { [randomUUID()]: "use" },
    group_acl: { [o.org]: "admin" },
    ...overrides
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

        const none = workspace(o, {
          name: "plain",
          ttl_ms: null,
          next_start_at: null,
          autostart_schedule: "",
          user_acl: {},
          group_acl: {}
        })
        yield* repo.insert(none)
        expect(Option.getOrThrow(yield* repo.findById(none.id))).toEqual(none)

        const renamed = Option.getOrThrow(
          yield* repo.update(w.id, { name: "dev2", dormant_at: at(9), favorite: false })
        )
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

    test(
      "claim moves a prebuilt workspace to its new owner once, renamed, with the kept counts",
      Effect.gen(function*() {
        const repo = yield* WorkspaceRepo
        const o = yield* owners
        const prebuilds = { ...o, user: PREBUILDS_USER_ID }
        const w = workspace(prebuilds, { name: "prebuild-1", autostart_schedule: "", ttl_ms: null })
        yield* repo.insert(w)
        yield* repo.insert(workspace(o, { name: "taken" }))
        const count = (owner: string) =>
          Effect.map(
            repo.list({
              visibility: { all: true, organizationIds: [], userId: owner, groupIds: [] },
              requesterId: owner,
              ownerIds: [owner],
              deleted: false,
              limit: 10,
              offset: 0
            }),
            (r) => r.count
          )
        expect([yield* count(PREBUILDS_USER_ID), yield* count(o.user)]).toEqual([1, 1])
        expect(yield* Effect.flip(repo.claim(w.id, PREBUILDS_USER_ID, o.user, "TAKEN", {}))).toBeInstanceOf(
          UniqueViolation
        )
        const claimed = Option.getOrThrow(yield* repo.claim(w.id, PREBUILDS_USER_ID, o.user, "mine", { ttl_ms: 5 }))
        expect(claimed).toMatchObject({ id: w.id, owner_id: o.user, name: "mine", ttl_ms: 5 })
        expect([yield* count(PREBUILDS_USER_ID), yield* count(o.user)]).toEqual([0, 2])
        // A second claim of the same workspace finds it taken.
        expect(Option.isNone(yield* repo.claim(w.id, PREBUILDS_USER_ID, o.user, "again", {}))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findByOwnerAndName(o.user, "mine", false)).id).toBe(w.id)
      })
    )

    test(
      "moves last_used_at and the dormancy times of a template's undeleted workspaces only",
      Effect.gen(function*() {
        const repo = yield* WorkspaceRepo
        const o = yield* owners
        const elsewhere = { ...o, template: (yield* owners).template }
        const DAY = 86_400_000
        const active = workspace(o, { name: "active", last_used_at: at(2) })
        const dormant = workspace(o, { name: "dormant", dormant_at: at(5), deleting_at: null })
        const dormant2 = workspace(o, { name: "dormant2", dormant_at: at(7), deleting_at: at(8) })
        const gone = workspace(o, { name: "gone", dormant_at: at(5), deleted: true })
        const other = workspace(elsewhere, { name: "other", dormant_at: at(5) })
        for (const w of [active, dormant, dormant2, gone, other]) yield* repo.insert(w)
        const get = (w: WorkspaceRecord) => Effect.map(repo.findById(w.id), Option.getOrThrow)

        yield* repo.touchByTemplate(o.template, at(30))
        for (const w of [active, dormant, dormant2]) expect((yield* get(w)).last_used_at).toEqual(at(30))
        for (const w of [gone, other]) expect((yield* get(w)).last_used_at).toEqual(at(2))

        // Each dormant workspace from its own dormant_at, to the millisecond.
        const ids = yield* repo.redateDormantByTemplate(o.template, DAY + 1, null)
        expect([...ids].sort()).toEqual([dormant.id, dormant2.id].sort())
        expect(yield* get(dormant)).toMatchObject({
          dormant_at: at(5),
          deleting_at: new Date(at(5).getTime() + DAY + 1)
        })
        expect(yield* get(dormant2)).toMatchObject({
          dormant_at: at(7),
          deleting_at: new Date(at(7).getTime() + DAY + 1)
        })
        expect(yield* get(active)).toMatchObject({ dormant_at: null, deleting_at: null })
        for (const w of [gone, other]) expect((yield* get(w)).deleting_at).toBeNull()

        // From a new dormant_at.
        yield* repo.redateDormantByTemplate(o.template, DAY, at(40))
        for (const w of [dormant, dormant2]) {
          expect(yield* get(w)).toMatchObject({ dormant_at: at(40), deleting_at: new Date(at(40).getTime() + DAY) })
        }
        expect((yield* get(active)).dormant_at).toBeNull()
        expect((yield* get(other)).dormant_at).toEqual(at(5))

        // No autodelete: no deletion time.
        expect(yield* repo.redateDormantByTemplate(o.template, 0, null)).toHaveLength(2)
        for (const w of [dormant, dormant2]) {
          expect(yield* get(w)).toMatchObject({ dormant_at: at(40), deleting_at: null })
        }
        expect(yield* repo.redateDormantByTemplate(elsewhere.template, 0, at(50))).toEqual([other.id])
        expect(yield* get(other)).toMatchObject({ dormant_at: at(50), deleting_at: null })
      })
    )
  })
}
