/**
 * The organization and member repository contract, written once and run against every
 * storage, like users/RepositorySuite.ts (whose fixtures it shares). Every test gets a
 * fresh, migrated database from `makeStorage`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  type CustomRoleRecord,
  CustomRoleRepo,
  MemberRepo,
  Organization,
  OrganizationRepo,
  UniqueViolation,
  UserRepo,
  WorkspaceRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as OrganizationRepositories from "../../src/organizations/Repositories.js"
import { queryPlan } from "../QueryPlan.js"
import {
  all,
  at,
  countRows,
  failureOf,
  insertUsers,
  membership,
  org,
  type StorageFactory,
  type SuiteOptions,
  user
} from "../users/RepositorySuite.js"
import { workspace, world } from "../workspaces/BuildRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

/** Registers the organization and member repository contract tests for one storage. */
export const organizationRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`repositories on ${name}`, () => {
    describe("organizations", () => {
      test(
        "insert, findById, findDefault and list ordered by name",
        Effect.gen(function*() {
          const repo = yield* OrganizationRepo
          expect(Option.isNone(yield* repo.findDefault)).toBe(true)
          const def = org("coder", { is_default: true, created_at: at(3), updated_at: at(4) })
          const b = org("Beta")
          const a = org("alpha")
          yield* repo.insert(def)
          yield* repo.insert(b)
          yield* repo.insert(a)
          const found = Option.getOrThrow(yield* repo.findById(def.id))
          expect(found).toEqual(def)
          expect(found).toBeInstanceOf(Organization)
          expect(found.is_default).toBe(true)
          expect(found.created_at.getTime()).toBe(at(3).getTime())
          expect(Option.getOrThrow(yield* repo.findDefault).id).toBe(def.id)
          expect((yield* repo.list).map((o) => o.name)).toEqual(["alpha", "Beta", "coder"])
          expect(Option.getOrThrow(yield* repo.findById(a.id)).is_default).toBe(false)
          expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
          const byIds = yield* repo.findByIds([a.id, def.id, randomUUID()])
          expect([...byIds].sort((x, y) => x.name.localeCompare(y.name))).toEqual([a, def])
          expect(byIds.every((o) => o instanceof Organization)).toBe(true)
          expect(yield* repo.findByIds([])).toEqual([])
        })
      )

      test(
        "workspace sharing starts at everyone; narrowing it clears the lists it no longer allows, in that organization only",
        Effect.gen(function*() {
          const repo = yield* OrganizationRepo
          const workspaces = yield* WorkspaceRepo
          const sql = yield* SqlClient.SqlClient
          const w = yield* world
          const other = yield* world
          const robot = randomUUID()
          const t = at(0).toISOString()
          yield* sql`INSERT INTO users (id, email, username, login_type, status, is_service_account, created_at, updated_at, last_seen_at)
            VALUES (${robot}, ${`${robot}@example.com`}, ${`r${
            robot.slice(0, 8)
          }`}, 'none', 'active', TRUE, ${t}, ${t}, ${t})`
          const acl = { [randomUUID()]: "use" as const }
          const people = workspace(w, { user_acl: acl })
          const groupsOnly = workspace(w, { group_acl: acl })
          const robots = workspace(w, { owner_id: robot, user_acl: acl })
          const unshared = workspace(w)
          const elsewhere = workspace(other, { user_acl: acl })
          for (const ws of [people, groupsOnly, robots, unshared, elsewhere]) yield* workspaces.insert(ws)
          expect(Option.getOrThrow(yield* repo.findWorkspaceSharing(w.org))).toBe("everyone")
          expect(Option.getOrThrow(yield* repo.setWorkspaceSharing(w.org, "everyone", at(5)))).toEqual([])
          const aclOf = (id: string) =>
            Effect.map(workspaces.findById(id), (f) => [Option.getOrThrow(f).user_acl, Option.getOrThrow(f).group_acl])
          const cleared = Option.getOrThrow(yield* repo.setWorkspaceSharing(w.org, "service_accounts", at(6)))
          expect([...cleared].sort()).toEqual([people.id, groupsOnly.id].sort())
          expect(Option.getOrThrow(yield* repo.findWorkspaceSharing(w.org))).toBe("service_accounts")
          expect(Option.getOrThrow(yield* repo.findById(w.org)).updated_at).toEqual(at(6))
          expect(yield* aclOf(people.id)).toEqual([{}, {}])
          expect(yield* aclOf(robots.id)).toEqual([acl, {}])
          expect(Option.getOrThrow(yield* repo.setWorkspaceSharing(w.org, "none", at(7)))).toEqual([robots.id])
          expect(yield* aclOf(robots.id)).toEqual([{}, {}])
          expect(yield* aclOf(elsewhere.id)).toEqual([acl, {}])
          expect(Option.getOrThrow(yield* repo.findWorkspaceSharing(other.org))).toBe("everyone")
          expect(Option.isNone(yield* repo.setWorkspaceSharing(randomUUID(), "none", at(7)))).toBe(true)
          expect(Option.isNone(yield* repo.findWorkspaceSharing(randomUUID()))).toBe(true)
        })
      )

      test(
        "findByName is case-insensitive",
        Effect.gen(function*() {
          const repo = yield* OrganizationRepo
          const o = org("My-Org")
          yield* repo.insert(o)
          expect(Option.getOrThrow(yield* repo.findByName("my-org")).id).toBe(o.id)
          expect(Option.getOrThrow(yield* repo.findByName("MY-ORG")).id).toBe(o.id)
          expect(Option.isNone(yield* repo.findByName("my"))).toBe(true)
        })
      )

      test(
        "duplicate names (any case) and a second default fail with UniqueViolation",
        Effect.gen(function*() {
          const repo = yield* OrganizationRepo
          yield* repo.insert(org("acme", { is_default: true }))
          expect(yield* failureOf(repo.insert(org("ACME")))).toBeInstanceOf(UniqueViolation)
          expect(yield* failureOf(repo.insert(org("other", { is_default: true })))).toBeInstanceOf(UniqueViolation)
          expect((yield* repo.list).length).toBe(1)
        })
      )

      test(
        "update patches and returns the organization; a taken name fails; unknown id is none",
        Effect.gen(function*() {
          const repo = yield* OrganizationRepo
          const a = org("alpha")
          const b = org("beta")
          yield* repo.insert(a)
          yield* repo.insert(b)
          const updated = Option.getOrThrow(
            yield* repo.update(a.id, { name: "gamma", display_name: "Gamma", description: "", updated_at: at(5) })
          )
          expect(updated).toEqual(
            new Organization({ ...a, name: "gamma", display_name: "Gamma", description: "", updated_at: at(5) })
          )
          expect(Option.getOrThrow(yield* repo.findByName("gamma")).id).toBe(a.id)
          expect(yield* failureOf(repo.update(a.id, { name: "BETA" }))).toBeInstanceOf(UniqueViolation)
          expect(Option.isNone(yield* repo.update(randomUUID(), { name: "delta" }))).toBe(true)
          // An empty patch changes nothing.
          expect(Option.getOrThrow(yield* repo.update(a.id, {}))).toEqual(updated)
        })
      )

      test(
        "delete removes the organization and its memberships",
        Effect.gen(function*() {
          const repo = yield* OrganizationRepo
          const members = yield* MemberRepo
          const a = org("alpha")
          const b = org("beta")
          const alice = user("alice")
          yield* insertUsers(alice)
          yield* repo.insert(a)
          yield* repo.insert(b)
          yield* members.insert(membership(a.id, alice.id))
          yield* members.insert(membership(b.id, alice.id, 1))
          yield* repo.delete(a.id)
          expect(Option.isNone(yield* repo.findById(a.id))).toBe(true)
          expect(Option.isNone(yield* members.find(a.id, alice.id))).toBe(true)
          expect((yield* members.ofUser(alice.id)).map((m) => m.organization_id)).toEqual([b.id])
          expect(yield* countRows("organization_members")).toBe(1)
          // Deleting an unknown organization is a no-op.
          yield* repo.delete(randomUUID())
          expect((yield* repo.list).map((o) => o.name)).toEqual(["beta"])
        })
      )
    })

    describe("members", () => {
      const setup = Effect.gen(function*() {
        const orgs = yield* OrganizationRepo
        const o1 = org("one")
        const o2 = org("two")
        yield* orgs.insert(o1)
        yield* orgs.insert(o2)
        const alice = user("alice")
        const bob = user("Bob")
        const carol = user("carol")
        yield* insertUsers(alice, bob, carol)
        return { o1, o2, alice, bob, carol }
      })

      test(
        "insert and find round-trip roles and dates; a duplicate fails with UniqueViolation",
        Effect.gen(function*() {
          const members = yield* MemberRepo
          const { o1, o2, alice } = yield* setup
          const m = membership(o1.id, alice.id, 3, ["organization-admin", "organization-auditor"])
          yield* members.insert(m)
          expect(Option.getOrThrow(yield* members.find(o1.id, alice.id))).toEqual(m)
          expect(Option.isNone(yield* members.find(o2.id, alice.id))).toBe(true)
          expect(yield* failureOf(members.insert(membership(o1.id, alice.id)))).toBeInstanceOf(UniqueViolation)
        })
      )

      test(
        "ofUser lists a user's memberships oldest first; ofUsers maps many users at once",
        Effect.gen(function*() {
          const members = yield* MemberRepo
          const { o1, o2, alice, bob, carol } = yield* setup
          yield* members.insert(membership(o2.id, alice.id, 2))
          yield* members.insert(membership(o1.id, alice.id, 1))
          yield* members.insert(membership(o1.id, bob.id, 1))
          expect((yield* members.ofUser(alice.id)).map((m) => m.organization_id)).toEqual([o1.id, o2.id])
          expect(yield* members.ofUser(carol.id)).toEqual([])
          const map = yield* members.ofUsers([alice.id, bob.id, carol.id])
          expect([...(map.get(alice.id) ?? [])].sort()).toEqual([o1.id, o2.id].sort())
          expect(map.get(bob.id)).toEqual([o1.id])
          expect(map.has(carol.id)).toBe(false)
          expect((yield* members.ofUsers([])).size).toBe(0)
        })
      )

      test(
        "list joins users, orders by username, skips deleted users and pages",
        Effect.gen(function*() {
          const members = yield* MemberRepo
          const users = yield* UserRepo
          const { o1, o2, alice, bob, carol } = yield* setup
          const gone = user("aaron", { deleted: true })
          yield* users.insert(gone)
          for (const u of [carol, gone, bob, alice]) {
            yield* members.insert(membership(o1.id, u.id, 1, ["organization-auditor"]))
          }
          yield* members.insert(membership(o2.id, alice.id))
          const rows = yield* members.list(o1.id, all)
          expect(rows.map((r) => r.user.username)).toEqual(["alice", "Bob", "carol"])
          expect(rows[0]!.user).toEqual(alice)
          expect(rows[0]!.member).toEqual(membership(o1.id, alice.id, 1, ["organization-auditor"]))
          expect((yield* members.list(o1.id, { limit: 1, offset: 1 })).map((r) => r.user.username)).toEqual(["Bob"])
          expect((yield* members.list(o2.id, all)).map((r) => r.user.id)).toEqual([alice.id])
          expect(yield* members.list(randomUUID(), all)).toEqual([])
        })
      )

      test(
        "page orders members by user id, pages by offset and after id, filters by user, and counts",
        Effect.gen(function*() {
          const members = yield* MemberRepo
          const users = yield* UserRepo
          const { o1, o2, alice, bob, carol } = yield* setup
          const dave = user("dave", { status: "suspended", login_type: "github" })
          yield* users.insert(dave)
          for (const u of [carol, bob, alice, dave]) {
            yield* members.insert(membership(o1.id, u.id, 1, ["organization-auditor"]))
          }
          yield* members.insert(membership(o2.id, alice.id))
          const byId = [alice, bob, carol, dave].map((u) => u.id).sort()
          const page = (f: Partial<Parameters<typeof members.page>[1]> = {}) =>
            members.page(o1.id, { limit: 100, offset: 0, ...f })
          const whole = yield* page()
          expect(whole.count).toBe(4)
          expect(whole.members.map((r) => r.user.id)).toEqual(byId)
          const first = whole.members.find((r) => r.user.id === alice.id)!
          expect(first.user).toEqual(alice)
          expect(first.member).toEqual(membership(o1.id, alice.id, 1, ["organization-auditor"]))
          expect(yield* page({ limit: 2, offset: 1 })).toEqual({ members: whole.members.slice(1, 3), count: 4 })
          expect((yield* page({ afterId: byId[1] })).members.map((r) => r.user.id)).toEqual(byId.slice(2))
          expect(yield* page({ search: "BO" })).toEqual({
            members: whole.members.filter((r) => r.user.id === bob.id),
            count: 1
          })
          expect((yield* page({ status: "suspended" })).members.map((r) => r.user.id)).toEqual([dave.id])
          expect((yield* page({ loginType: "github", username: "DAVE" })).count).toBe(1)
          expect((yield* page({ email: "carol@example.com" })).members.map((r) => r.user.id)).toEqual([carol.id])
          expect((yield* page({ search: "100%_" })).count).toBe(0)
          expect((yield* members.page(o2.id, { limit: 10, offset: 0 })).count).toBe(1)
          // A removed member leaves the page and the kept count.
          yield* members.delete(o1.id, carol.id)
          expect((yield* page()).count).toBe(3)
          expect(yield* members.page(randomUUID(), { limit: 10, offset: 0 })).toEqual({ members: [], count: 0 })
        })
      )

      test(
        "a page of members walks the membership key with no sort step",
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [text, params] = OrganizationRepositories.membersPage(sql, randomUUID(), { limit: 25, offset: 0 })
            .compile()
          const plan = (yield* queryPlan(text, params, "sort")).join("\n")
          if (name.toLowerCase().includes("sqlite")) expect(plan).not.toMatch(/TEMP B-TREE/)
          else expect(plan).not.toMatch(/\bSort\b/)
          expect(plan).toMatch(/organization_members/)
        })
      )

      test(
        "updateRoles replaces roles and updated_at; unknown membership is none",
        Effect.gen(function*() {
          const members = yield* MemberRepo
          const { o1, o2, alice } = yield* setup
          yield* members.insert(membership(o1.id, alice.id, 1))
          const updated = Option.getOrThrow(yield* members.updateRoles(o1.id, alice.id, ["organization-admin"], at(8)))
          expect(updated).toEqual({
            ...membership(o1.id, alice.id, 1),
            roles: ["organization-admin"],
            updated_at: at(8)
          })
          expect(Option.getOrThrow(yield* members.find(o1.id, alice.id))).toEqual(updated)
          const cleared = Option.getOrThrow(yield* members.updateRoles(o1.id, alice.id, [], at(9)))
          expect(cleared.roles).toEqual([])
          expect(Option.isNone(yield* members.updateRoles(o2.id, alice.id, ["organization-admin"], at(9)))).toBe(true)
        })
      )

      test(
        "delete reports whether a membership went; deleteByUser removes all of a user's",
        Effect.gen(function*() {
          const members = yield* MemberRepo
          const { o1, o2, alice, bob } = yield* setup
          yield* members.insert(membership(o1.id, alice.id))
          yield* members.insert(membership(o2.id, alice.id))
          yield* members.insert(membership(o1.id, bob.id))
          expect(yield* members.delete(o1.id, alice.id)).toBe(true)
          expect(yield* members.delete(o1.id, alice.id)).toBe(false)
          expect((yield* members.ofUser(alice.id)).map((m) => m.organization_id)).toEqual([o2.id])
          yield* members.deleteByUser(alice.id)
          expect(yield* members.ofUser(alice.id)).toEqual([])
          expect((yield* members.ofUser(bob.id)).length).toBe(1)
        })
      )
    })

    describe("custom roles", () => {
      const role = (orgId: string, name: string, n = 0): CustomRoleRecord => ({
        id: randomUUID(),
        organization_id: orgId,
        name,
        display_name: `${name} display`,
        organization_permissions: [{ negate: false, resource_type: "group", action: "create" }],
        created_at: at(n),
        updated_at: at(n)
      })

      test(
        "insert, find, list by name, findMany over pairs, unique per organization",
        Effect.gen(function*() {
          const orgs = yield* OrganizationRepo
          const repo = yield* CustomRoleRepo
          const o1 = org("one")
          const o2 = org("two")
          yield* orgs.insert(o1)
          yield* orgs.insert(o2)
          const b = role(o1.id, "beta")
          const a = role(o1.id, "alpha", 1)
          const other = role(o2.id, "alpha", 2)
          yield* repo.insert(b)
          yield* repo.insert(a)
          yield* repo.insert(other)
          expect(Option.getOrThrow(yield* repo.find(o1.id, "alpha"))).toEqual(a)
          expect(Option.isNone(yield* repo.find(o1.id, "gamma"))).toBe(true)
          expect((yield* repo.list(o1.id)).map((r) => r.name)).toEqual(["alpha", "beta"])
          expect(yield* repo.list(randomUUID())).toEqual([])
          const many = yield* repo.findMany([
            { organizationId: o1.id, name: "alpha" },
            { organizationId: o2.id, name: "alpha" },
            { organizationId: o2.id, name: "beta" },
            { organizationId: o1.id, name: "nothing" }
          ])
          expect(many.map((r) => r.id).sort()).toEqual([a.id, other.id].sort())
          expect(yield* repo.findMany([])).toEqual([])
          const clash = yield* failureOf(repo.insert(role(o1.id, "alpha")))
          expect(clash).toBeInstanceOf(UniqueViolation)
        })
      )

      test(
        "update replaces display name and permissions; delete takes the role off members, only in its organization",
        Effect.gen(function*() {
          const orgs = yield* OrganizationRepo
          const members = yield* MemberRepo
          const repo = yield* CustomRoleRepo
          const o1 = org("one")
          const o2 = org("two")
          yield* orgs.insert(o1)
          yield* orgs.insert(o2)
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          yield* repo.insert(role(o1.id, "maker"))
          yield* repo.insert(role(o2.id, "maker"))
          yield* members.insert(membership(o1.id, alice.id, 0, ["maker", "organization-auditor"]))
          yield* members.insert(membership(o1.id, bob.id, 0, ["maker-two"]))
          yield* members.insert(membership(o2.id, alice.id, 0, ["maker"]))

          const updated = Option.getOrThrow(
            yield* repo.update(o1.id, "maker", {
              display_name: "Maker",
              organization_permissions: [],
              updated_at: at(5)
            })
          )
          expect(updated.display_name).toBe("Maker")
          expect(updated.organization_permissions).toEqual([])
          expect(updated.updated_at.getTime()).toBe(at(5).getTime())
          expect(Option.isNone(
            yield* repo.update(o1.id, "nothing", {
              display_name: "",
              organization_permissions: [],
              updated_at: at(5)
            })
          )).toBe(true)

          expect(yield* repo.delete(o1.id, "maker", at(6))).toBe(true)
          expect(yield* repo.delete(o1.id, "maker", at(6))).toBe(false)
          expect(Option.isNone(yield* repo.find(o1.id, "maker"))).toBe(true)
          expect(Option.isSome(yield* repo.find(o2.id, "maker"))).toBe(true)
          const a1 = Option.getOrThrow(yield* members.find(o1.id, alice.id))
          expect(a1.roles).toEqual(["organization-auditor"])
          expect(a1.updated_at.getTime()).toBe(at(6).getTime())
          expect(Option.getOrThrow(yield* members.find(o1.id, bob.id)).roles).toEqual(["maker-two"])
          expect(Option.getOrThrow(yield* members.find(o2.id, alice.id)).roles).toEqual(["maker"])
          // Removing the organization removes its roles.
          yield* orgs.delete(o2.id)
          expect(yield* repo.list(o2.id)).toEqual([])
        })
      )
    })
  })
}
