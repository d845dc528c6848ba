/**
 * The group repository contract (groups, members, kept member counts, quota sums,
 * AI budgets), written once and run against every storage. Every test gets a
 * fresh, migrated database from `makeStorage`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  GroupAiBudget,
  type GroupRecord,
  GroupRepo,
  MemberRepo,
  type NewGroup,
  Organization,
  OrganizationRepo,
  UniqueViolation,
  type UserRecord,
  UserRepo
} from "@workbay/core"
import { sqliteTypes, type StoragePorts } from "@workbay/storage-sql"
import { Cause, Effect, Exit, Option } from "effect"
import { randomUUID } from "node:crypto"
import { migration as migration0034 } from "../../src/migrations/0034_group_counts.js"
import { type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

/** A distinct instant with milliseconds, so precision loss shows. */
const at = (n: number) => new Date(Date.UTC(2024, 6, 1, 10, 20, 30, 456) + n * 60_001)

const org = (name: string): Organization =>
  new Organization({
    id: randomUUID(),
    name,
    display_name: `${name} display`,
    description: "",
    icon: "",
    is_default: false,
    created_at: at(0),
    updated_at: at(0)
  })

const newGroup = (orgId: string, name: string, overrides: Partial<NewGroup> = {}): NewGroup => ({
  id: randomUUID(),
  organization_id: orgId,
  name,
  display_name: `${name} display`,
  avatar_url: "/g.png",
  quota_allowance: 0,
  source: "user",
  created_at: at(1),
  updated_at: at(2),
  ...overrides
})

/** Inserts a new group (see `newGroup`) through the repository; answers it. */
const insertGroup = (orgId: string, name: string, overrides: Partial<NewGroup> = {}) =>
  Effect.gen(function*() {
    const g = newGroup(orgId, name, overrides)
    yield* (yield* GroupRepo).insert(g)
    return g
  })

/** How many rows of `table` belong to the group `groupId`, read straight from the database. */
const groupRows = (table: string, groupId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      Effect.map(
        sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql(table)} WHERE group_id = ${groupId}`,
        (r) => Number(r[0]!.n)
      )
  )

const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    if (Exit.isSuccess(exit)) throw new Error("expected a failure")
    return Cause.failureOption(exit.cause).pipe(Option.getOrThrow)
  })

/** An organization with `n` member users (inserted through the repositories); answers both. */
const orgWithMembers = (name: string, n: number) =>
  Effect.gen(function*() {
    const o = org(name)
    yield* (yield* OrganizationRepo).insert(o)
    const users: Array<UserRecord> = []
    for (let i = 0; i < n; i++) users.push(yield* joinOrg(o.id, user(`${name}-u${i}`)))
    return { org: o, users }
  })

const joinOrg = (orgId: string, u: UserRecord) =>
  Effect.gen(function*() {
    const existing = yield* (yield* UserRepo).findById(u.id)
    if (Option.isNone(existing)) yield* (yield* UserRepo).insert(u)
    yield* (yield* MemberRepo).insert({
      organization_id: orgId,
      user_id: u.id,
      roles: [],
      created_at: at(3),
      updated_at: at(3)
    })
    return u
  })

const byId = (users: ReadonlyArray<{ readonly id: string }>) => users.map((u) => u.id).sort()

const getGroup = (id: string) => Effect.flatMap(GroupRepo, (repo) => Effect.map(repo.findById(id), Option.getOrThrow))

const page = { limit: 100, offset: 0 } as const

/** Registers the group repository contract tests for one storage. */
export const groupRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`group repositories on ${name}`, () => {
    test(
      "every organization has an Everyone group whose count follows its membership",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const members = yield* MemberRepo
        const { org: o, users } = yield* orgWithMembers("acme", 3)
        let everyone = yield* getGroup(o.id)
        expect(everyone).toMatchObject({
          id: o.id,
          organization_id: o.id,
          name: "Everyone",
          member_count: 3,
          quota_allowance: 0,
          source: "user",
          organization_name: "acme",
          organization_display_name: "acme display"
        })
        expect(byId(yield* repo.members(everyone))).toEqual(byId(users))
        expect(yield* members.delete(o.id, users[0]!.id)).toBe(true)
        expect(yield* members.delete(o.id, users[0]!.id)).toBe(false)
        everyone = yield* getGroup(o.id)
        expect(everyone.member_count).toBe(2)
        yield* members.deleteByUser(users[1]!.id)
        expect((yield* getGroup(o.id)).member_count).toBe(1)
        expect(byId(yield* repo.members(everyone))).toEqual([users[2]!.id])
        // Everyone's members move only with the organization's.
        expect(yield* repo.addMembers(everyone, [users[0]!.id], at(5))).toEqual([])
        expect(yield* repo.removeMembers(everyone, [users[2]!.id])).toEqual([])
        expect((yield* getGroup(o.id)).member_count).toBe(1)
      })
    )

    test(
      "pages an organization's groups by name with a kept count, and searches names and display names",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const sql = yield* SqlClient.SqlClient
        const { org: a } = yield* orgWithMembers("pga", 0)
        const { org: b } = yield* orgWithMembers("pgb", 0)
        const names = ["delta", "Alpha", "charlie", "Bravo", "echo"]
        const made = new Map<string, string>()
        for (const n of names) {
          made.set(n, (yield* insertGroup(a.id, n, n === "echo" ? { display_name: "Platform team" } : {})).id)
        }
        yield* insertGroup(b.id, "alpha")
        const all = (f: Partial<Parameters<typeof repo.listPage>[0]> = {}) =>
          repo.listPage({ organizationId: a.id, limit: 100, offset: 0, ...f })
        // One organization's group by name, any case, along the unique index.
        expect(Option.getOrThrow(yield* repo.findByOrganizationAndName(a.id, "ALPHA")).id).toBe(made.get("Alpha"))
        expect(Option.getOrThrow(yield* repo.findByOrganizationAndName(b.id, "alpha")).organization_id).toBe(b.id)
        expect(Option.getOrThrow(yield* repo.findByOrganizationAndName(a.id, "everyone")).id).toBe(a.id)
        expect(Option.isNone(yield* repo.findByOrganizationAndName(b.id, "delta"))).toBe(true)
        const full = yield* all()
        // Everyone included, by name case-insensitively; the count is the organization's groups.
        expect(full.groups.map((g) => g.name)).toEqual(["Alpha", "Bravo", "charlie", "delta", "echo", "Everyone"])
        expect(full.count).toBe(6)
        expect(full.groups.every((g) => g.organization_id === a.id && g.organization_name === "pga")).toBe(true)
        const second = yield* all({ limit: 2, afterId: made.get("Bravo") })
        expect(second.groups.map((g) => g.name)).toEqual(["charlie", "delta"])
        expect(second.count).toBe(6)
        expect((yield* all({ limit: 2, offset: 1, afterId: made.get("Alpha") })).groups.map((g) => g.name)).toEqual([
          "charlie",
          "delta"
        ])
        expect((yield* all({ offset: 10 })).groups).toEqual([])
        // The search counts what it matches; display names match too.
        const searched = yield* all({ search: "A", limit: 1 })
        expect(searched.groups.map((g) => g.name)).toEqual(["Alpha"])
        expect(searched.count).toBe(5) // Alpha, Bravo, charlie, delta, Platform team
        expect((yield* all({ search: "platform" })).groups.map((g) => g.name)).toEqual(["echo"])
        expect((yield* all({ search: "100%_" })).count).toBe(0)
        // The kept count follows inserts and deletes, and an organization's removal drops it.
        expect(yield* repo.delete(made.get("delta")!)).toBe(true)
        expect(yield* repo.delete(made.get("delta")!)).toBe(false)
        expect((yield* all()).count).toBe(5)
        expect((yield* repo.listPage({ organizationId: b.id, limit: 100, offset: 0 })).count).toBe(2)
        const counter = (orgId: string) =>
          Effect.map(
            sql<{ n: number | string }>`SELECT value AS n FROM counters WHERE name = ${`groups:${orgId}`}`,
            (rs) => rs.map((r) => Number(r.n))
          )
        expect(yield* counter(a.id)).toEqual([4])
        // Migration 0034 makes the same counts from the rows.
        yield* sql`DELETE FROM counters WHERE name LIKE 'groups:%'`
        for (const statement of migration0034(sqliteTypes)) yield* sql.unsafe(statement)
        expect(yield* counter(a.id)).toEqual([4])
        expect(yield* counter(b.id)).toEqual([1])
        yield* (yield* OrganizationRepo).delete(b.id)
        expect(yield* counter(b.id)).toEqual([])
      })
    )

    test(
      "insert and findById round-trip every field; names are unique per organization, any case",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: a } = yield* orgWithMembers("a", 0)
        const { org: b } = yield* orgWithMembers("b", 0)
        const g = newGroup(a.id, "Devs", { quota_allowance: 2_000_000_000, avatar_url: "" })
        yield* repo.insert(g)
        const found = yield* getGroup(g.id)
        expect(found).toEqual({ ...g, member_count: 0, organization_name: "a", organization_display_name: "a display" })
        expect(found.created_at.getTime()).toBe(at(1).getTime())
        expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
        expect(yield* repo.findByIds([g.id, randomUUID()])).toEqual([found])
        expect(yield* repo.findByIds([])).toEqual([])
        const clash = yield* failureOf(repo.insert(newGroup(a.id, "DEVS")))
        expect(clash).toBeInstanceOf(UniqueViolation)
        const everyoneClash = yield* failureOf(repo.insert(newGroup(a.id, "everyone")))
        expect(everyoneClash).toBeInstanceOf(UniqueViolation)
        yield* repo.insert(newGroup(b.id, "devs"))
        expect((yield* repo.findByName("dEvS")).map((x) => x.organization_id).sort()).toEqual([a.id, b.id].sort())
        expect(yield* repo.findByName("nobody")).toEqual([])
      })
    )

    test(
      "list filters by organization, member (Everyone included) and ids, ordered by name",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: a, users } = yield* orgWithMembers("alpha", 2)
        const { org: b } = yield* orgWithMembers("beta", 0)
        const zed = yield* insertGroup(a.id, "zed")
        const amy = yield* insertGroup(a.id, "Amy")
        const bob = yield* insertGroup(b.id, "bob")
        const names = (gs: ReadonlyArray<GroupRecord>) => gs.map((g) => g.name)
        expect(names(yield* repo.list({}))).toEqual(["Amy", "bob", "Everyone", "Everyone", "zed"])
        expect(names(yield* repo.list({ organizationId: a.id }))).toEqual(["Amy", "Everyone", "zed"])
        yield* repo.addMembers(zed, [users[0]!.id], at(4))
        expect(names(yield* repo.list({ hasMemberId: users[0]!.id }))).toEqual(["Everyone", "zed"])
        expect(names(yield* repo.list({ hasMemberId: users[1]!.id }))).toEqual(["Everyone"])
        expect(names(yield* repo.list({ hasMemberId: randomUUID() }))).toEqual([])
        expect(names(yield* repo.list({ ids: [bob.id, amy.id, randomUUID()] }))).toEqual(["Amy", "bob"])
        expect(names(yield* repo.list({ ids: [] }))).toEqual([])
        expect(names(yield* repo.list({ ids: [bob.id, zed.id], organizationId: a.id, hasMemberId: users[0]!.id })))
          .toEqual(["zed"])
      })
    )

    test(
      "update patches fields and answers the group; a taken name fails; an unknown id is none",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: o } = yield* orgWithMembers("o", 0)
        const g = yield* insertGroup(o.id, "one")
        yield* insertGroup(o.id, "two")
        const updated = Option.getOrThrow(
          yield* repo.update(g.id, { name: "uno", display_name: "", quota_allowance: 9, updated_at: at(8) })
        )
        expect(updated).toMatchObject({
          id: g.id,
          name: "uno",
          display_name: "",
          avatar_url: "/g.png",
          quota_allowance: 9
        })
        expect(updated.updated_at.getTime()).toBe(at(8).getTime())
        expect(updated.created_at.getTime()).toBe(at(1).getTime())
        expect(yield* failureOf(repo.update(g.id, { name: "TWO", updated_at: at(9) }))).toBeInstanceOf(UniqueViolation)
        expect(Option.isNone(yield* repo.update(randomUUID(), { name: "x", updated_at: at(9) }))).toBe(true)
      })
    )

    test(
      "addMembers adds organization members once and keeps the count; removeMembers counts what it removed",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: o, users } = yield* orgWithMembers("team", 4)
        const outsider = user("outsider")
        yield* (yield* UserRepo).insert(outsider)
        const g = yield* insertGroup(o.id, "g")
        const [u0, u1, u2, u3] = users.map((u) => u.id) as [string, string, string, string]
        expect((yield* repo.addMembers(g, [u0, u1, outsider.id, u0], at(4))).slice().sort()).toEqual([u0, u1].sort())
        expect((yield* getGroup(g.id)).member_count).toBe(2)
        expect(yield* repo.addMembers(g, [u1, u2], at(4))).toEqual([u2])
        expect((yield* getGroup(g.id)).member_count).toBe(3)
        expect((yield* repo.membersAmong(g, [u0, u3, outsider.id])).slice()).toEqual([u0])
        // Groups the user was added to; the Everyone group (the organization) is not a row.
        expect((yield* repo.groupIdsOf(u0)).slice()).toEqual([g.id])
        expect((yield* repo.groupIdsOf(u3)).slice()).toEqual([])
        expect(yield* repo.removeMembers(g, [u0, u3])).toEqual([u0])
        expect(yield* repo.removeMembers(g, [u0])).toEqual([])
        expect((yield* getGroup(g.id)).member_count).toBe(2)
        expect(byId(yield* repo.members(g))).toEqual([u1, u2].sort())
        expect(byId(yield* repo.members(g, u2))).toEqual([u2])
        expect(yield* repo.members(g, u0)).toEqual([])
        expect(yield* repo.addMembers(g, [], at(4))).toEqual([])
        expect(yield* repo.removeMembers(g, [])).toEqual([])
      })
    )

    test(
      "concurrent adds and removes of the same users keep the count equal to the rows",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: o, users } = yield* orgWithMembers("busy", 6)
        const g = yield* insertGroup(o.id, "g")
        const userIds = users.map((u) => u.id)
        yield* Effect.all(
          [
            repo.addMembers(g, userIds, at(4)),
            repo.addMembers(g, userIds.slice(0, 3), at(4)),
            repo.addMembers(g, userIds.slice(2), at(4)),
            repo.addMembers(g, userIds, at(4))
          ],
          { concurrency: "unbounded" }
        )
        expect((yield* getGroup(g.id)).member_count).toBe(6)
        yield* Effect.all(
          [
            repo.removeMembers(g, userIds.slice(0, 4)),
            repo.removeMembers(g, userIds.slice(2, 5)),
            repo.removeMembers(g, userIds.slice(0, 1))
          ],
          { concurrency: "unbounded" }
        )
        expect(yield* groupRows("group_members", g.id)).toBe(1)
        expect((yield* getGroup(g.id)).member_count).toBe(1)
      })
    )

    test(
      "leaving the organization or being deleted removes a user from its groups and their counts",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const members = yield* MemberRepo
        const { org: a, users } = yield* orgWithMembers("left", 3)
        const { org: b } = yield* orgWithMembers("right", 0)
        yield* joinOrg(b.id, users[0]!)
        const ga = yield* insertGroup(a.id, "ga")
        const gb = yield* insertGroup(b.id, "gb")
        yield* repo.addMembers(ga, users.map((u) => u.id), at(4))
        yield* repo.addMembers(gb, [users[0]!.id], at(4))
        // Removal from organization a: out of ga, still in gb.
        yield* members.delete(a.id, users[0]!.id)
        expect((yield* getGroup(ga.id)).member_count).toBe(2)
        expect((yield* getGroup(gb.id)).member_count).toBe(1)
        // Deletion: out of every group.
        yield* (yield* UserRepo).update(users[1]!.id, { deleted: true, updated_at: at(9) })
        yield* members.deleteByUser(users[1]!.id)
        expect((yield* getGroup(ga.id)).member_count).toBe(1)
        expect(byId(yield* repo.members(ga))).toEqual([users[2]!.id])
        yield* members.deleteByUser(users[0]!.id)
        expect((yield* getGroup(gb.id)).member_count).toBe(0)
        expect((yield* getGroup(b.id)).member_count).toBe(0)
      })
    )

    test(
      "listMembers pages in user id order with a keyset cursor, limit and offset",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: o, users } = yield* orgWithMembers("pages", 9)
        const g = yield* insertGroup(o.id, "g")
        const sortedIds = byId(users)
        yield* repo.addMembers(g, sortedIds, at(4))
        for (const group of [g, { id: o.id, organization_id: o.id }]) {
          const all = yield* repo.listMembers(group, page)
          expect(all.count).toBe(9)
          expect(all.users.map((u) => u.id)).toEqual(sortedIds)
          const first = yield* repo.listMembers(group, { limit: 4, offset: 0 })
          expect(first.users.map((u) => u.id)).toEqual(sortedIds.slice(0, 4))
          const next = yield* repo.listMembers(group, { limit: 4, offset: 0, afterId: sortedIds[3]! })
          expect(next.users.map((u) => u.id)).toEqual(sortedIds.slice(4, 8))
          expect(next.count).toBe(9)
          const skipped = yield* repo.listMembers(group, { limit: 2, offset: 3, afterId: sortedIds[0]! })
          expect(skipped.users.map((u) => u.id)).toEqual(sortedIds.slice(4, 6))
          const end = yield* repo.listMembers(group, { limit: 4, offset: 0, afterId: sortedIds[8]! })
          expect(end.users).toEqual([])
        }
        const found = (yield* repo.listMembers(g, page)).users[0]!
        expect(found).toEqual(users.find((u) => u.id === sortedIds[0]))
      })
    )

    test(
      "listMembers counts the kept member_count without a filter and the matches with one",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const sql = yield* SqlClient.SqlClient
        const { org: o, users } = yield* orgWithMembers("count", 0)
        const names = ["Anna", "anton", "bert", "Carla"]
        for (const [i, n] of names.entries()) {
          users.push(
            yield* joinOrg(
              o.id,
              user(n, {
                name: `Person ${i}`,
                status: i === 3 ? "suspended" : "active",
                login_type: i === 2 ? "oidc" : "password"
              })
            )
          )
        }
        const g = yield* insertGroup(o.id, "g")
        yield* repo.addMembers(g, users.map((u) => u.id), at(4))
        const usernames = (r: { readonly users: ReadonlyArray<UserRecord> }) => r.users.map((u) => u.username).sort()
        expect((yield* repo.listMembers(g, { ...page, search: "AN" })).count).toBe(2)
        expect(usernames(yield* repo.listMembers(g, { ...page, search: "an" }))).toEqual(["Anna", "anton"])
        expect(usernames(yield* repo.listMembers(g, { ...page, search: "person 3" }))).toEqual(["Carla"])
        expect(usernames(yield* repo.listMembers(g, { ...page, search: "50%" }))).toEqual([])
        expect(usernames(yield* repo.listMembers(g, { ...page, username: "BERT" }))).toEqual(["bert"])
        expect(usernames(yield* repo.listMembers(g, { ...page, email: "carla@EXAMPLE.com" }))).toEqual(["Carla"])
        expect(usernames(yield* repo.listMembers(g, { ...page, status: "suspended" }))).toEqual(["Carla"])
        expect(usernames(yield* repo.listMembers(g, { ...page, loginType: "oidc" }))).toEqual(["bert"])
        const own = yield* repo.listMembers(g, { ...page, userId: users[1]!.id })
        expect(own.count).toBe(1)
        expect(usernames(own)).toEqual(["anton"])
        const filteredPage = yield* repo.listMembers(g, { limit: 1, offset: 0, search: "an" })
        expect(filteredPage.users).toHaveLength(1)
        expect(filteredPage.count).toBe(2)
        // Without a filter the count is the kept one: one row read, whatever the group's size.
        yield* sql`UPDATE groups SET member_count = 1234 WHERE id = ${g.id}`
        expect((yield* repo.listMembers(g, { limit: 1, offset: 0 })).count).toBe(1234)
        // A deleted user is never listed (even if a row were left behind).
        yield* (yield* UserRepo).update(users[0]!.id, { deleted: true, updated_at: at(9) })
        expect(usernames(yield* repo.listMembers(g, page))).toEqual(["Carla", "anton", "bert"])
        expect(byId(yield* repo.members(g))).not.toContain(users[0]!.id)
      })
    )

    test(
      "quotaAllowance sums the user's groups and the Everyone groups of their organizations",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: a, users } = yield* orgWithMembers("qa", 2)
        const { org: b } = yield* orgWithMembers("qb", 0)
        const u = users[0]!
        expect(yield* repo.quotaAllowance(u.id)).toBe(0)
        expect(yield* repo.quotaAllowance(randomUUID())).toBe(0)
        yield* joinOrg(b.id, u)
        const g1 = yield* insertGroup(a.id, "g1", { quota_allowance: 10 })
        const g2 = yield* insertGroup(b.id, "g2", { quota_allowance: 1_000_000_000 })
        const g3 = yield* insertGroup(a.id, "g3", { quota_allowance: 100 })
        yield* repo.addMembers(g1, [u.id], at(4))
        yield* repo.addMembers(g2, [u.id], at(4))
        yield* repo.addMembers(g3, [users[1]!.id], at(4))
        yield* repo.update(a.id, { quota_allowance: 3, updated_at: at(5) })
        yield* repo.update(b.id, { quota_allowance: 1_500_000_000, updated_at: at(5) })
        expect(yield* repo.quotaAllowance(u.id)).toBe(10 + 1_000_000_000 + 3 + 1_500_000_000)
        expect(yield* repo.quotaAllowance(users[1]!.id)).toBe(103)
      })
    )

    test(
      "quotaAllowanceIn sums the user's groups of one organization, its Everyone group included",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: a, users } = yield* orgWithMembers("qia", 2)
        const { org: b } = yield* orgWithMembers("qib", 0)
        const { org: c } = yield* orgWithMembers("qic", 1)
        const u = users[0]!
        expect(yield* repo.quotaAllowanceIn(a.id, u.id)).toBe(0)
        yield* joinOrg(b.id, u)
        const g1 = yield* insertGroup(a.id, "g1", { quota_allowance: 10 })
        const g2 = yield* insertGroup(b.id, "g2", { quota_allowance: 1_000_000_000 })
        const g3 = yield* insertGroup(a.id, "g3", { quota_allowance: 100 })
        yield* insertGroup(a.id, "g4", { quota_allowance: 7 }) // no members
        yield* repo.addMembers(g1, [u.id], at(4))
        yield* repo.addMembers(g2, [u.id], at(4))
        yield* repo.addMembers(g3, [users[1]!.id], at(4))
        yield* repo.update(a.id, { quota_allowance: 3, updated_at: at(5) })
        yield* repo.update(b.id, { quota_allowance: 1_500_000_000, updated_at: at(5) })
        yield* repo.update(c.id, { quota_allowance: 50, updated_at: at(5) })
        expect(yield* repo.quotaAllowanceIn(a.id, u.id)).toBe(10 + 3)
        expect(yield* repo.quotaAllowanceIn(b.id, u.id)).toBe(1_000_000_000 + 1_500_000_000)
        expect(yield* repo.quotaAllowanceIn(a.id, users[1]!.id)).toBe(100 + 3)
        // Outside an organization nothing counts, not even its Everyone group.
        expect(yield* repo.quotaAllowanceIn(c.id, u.id)).toBe(0)
        expect(yield* repo.quotaAllowanceIn(b.id, users[1]!.id)).toBe(0)
        expect(yield* repo.quotaAllowanceIn(a.id, randomUUID())).toBe(0)
        expect(yield* repo.quotaAllowanceIn(randomUUID(), u.id)).toBe(0)
        // Together the organizations make the deprecated all-organization sum.
        expect((yield* repo.quotaAllowanceIn(a.id, u.id)) + (yield* repo.quotaAllowanceIn(b.id, u.id))).toBe(
          yield* repo.quotaAllowance(u.id)
        )
        // Leaving an organization leaves its groups, so its allowance goes too.
        yield* Effect.flatMap(MemberRepo, (members) => members.delete(b.id, u.id))
        expect(yield* repo.quotaAllowanceIn(b.id, u.id)).toBe(0)
      })
    )

    test(
      "quotasOn: once any group of the organization has an allowance above 0, members or not",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: a } = yield* orgWithMembers("qoa", 1)
        const { org: b } = yield* orgWithMembers("qob", 0)
        expect(yield* repo.quotasOn(a.id)).toBe(false)
        expect(yield* repo.quotasOn(randomUUID())).toBe(false)
        // A group at 0, and another organization's allowance, turn nothing on.
        const g = yield* insertGroup(a.id, "g", { quota_allowance: 0 })
        yield* insertGroup(b.id, "rich", { quota_allowance: 5 })
        expect(yield* repo.quotasOn(a.id)).toBe(false)
        expect(yield* repo.quotasOn(b.id)).toBe(true)
        // A group without members turns them on, as does the Everyone group.
        yield* repo.update(g.id, { quota_allowance: 1, updated_at: at(5) })
        expect(yield* repo.quotasOn(a.id)).toBe(true)
        yield* repo.update(g.id, { quota_allowance: 0, updated_at: at(6) })
        expect(yield* repo.quotasOn(a.id)).toBe(false)
        yield* repo.update(a.id, { quota_allowance: 2_147_483_647, updated_at: at(7) })
        expect(yield* repo.quotasOn(a.id)).toBe(true)
      })
    )

    test(
      "AI budgets: upsert keeps created_at, find, delete",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: o } = yield* orgWithMembers("budget", 0)
        const g = yield* insertGroup(o.id, "g")
        expect(Option.isNone(yield* repo.findBudget(g.id))).toBe(true)
        const first = new GroupAiBudget({
          group_id: g.id,
          spend_limit_micros: 9_007_199_254_740_991,
          created_at: at(1),
          updated_at: at(1)
        })
        expect(yield* repo.upsertBudget(first)).toEqual(first)
        expect(Option.getOrThrow(yield* repo.findBudget(g.id))).toEqual(first)
        const second = yield* repo.upsertBudget(
          new GroupAiBudget({ group_id: g.id, spend_limit_micros: 0, created_at: at(7), updated_at: at(7) })
        )
        expect(second).toEqual(
          new GroupAiBudget({ group_id: g.id, spend_limit_micros: 0, created_at: at(1), updated_at: at(7) })
        )
        expect(second).toBeInstanceOf(GroupAiBudget)
        expect(yield* repo.deleteBudget(g.id)).toBe(true)
        expect(yield* repo.deleteBudget(g.id)).toBe(false)
        expect(Option.isNone(yield* repo.findBudget(g.id))).toBe(true)
      })
    )

    test(
      "delete removes the group with its members and budget; deleting an organization removes its groups",
      Effect.gen(function*() {
        const repo = yield* GroupRepo
        const { org: o, users } = yield* orgWithMembers("gone", 2)
        const g = yield* insertGroup(o.id, "g")
        yield* repo.addMembers(g, users.map((u) => u.id), at(4))
        yield* repo.upsertBudget(
          new GroupAiBudget({ group_id: g.id, spend_limit_micros: 1, created_at: at(1), updated_at: at(1) })
        )
        expect(yield* repo.delete(g.id)).toBe(true)
        expect(yield* repo.delete(g.id)).toBe(false)
        expect(Option.isNone(yield* repo.findById(g.id))).toBe(true)
        expect(yield* groupRows("group_members", g.id)).toBe(0)
        expect(yield* groupRows("group_ai_budgets", g.id)).toBe(0)
        // The name is free again.
        yield* insertGroup(o.id, "g")
        const other = yield* insertGroup(o.id, "other")
        yield* repo.addMembers(other, [users[0]!.id], at(4))
        yield* repo.upsertBudget(
          new GroupAiBudget({ group_id: o.id, spend_limit_micros: 1, created_at: at(1), updated_at: at(1) })
        )
        yield* (yield* OrganizationRepo).delete(o.id)
        expect(yield* repo.list({ organizationId: o.id })).toEqual([])
        expect(Option.isNone(yield* repo.findById(o.id))).toBe(true)
        expect(Option.isNone(yield* repo.findBudget(o.id))).toBe(true)
      })
    )
  })
}
