/**
 * The repository contract of users, API keys, git SSH keys, login conversions and
 * transactions, written once and run against every storage (storage-sqlite and
 * storage-postgres import it from their test folders), with the fixtures and suite
 * types the other areas' suites share. Every test gets a fresh, migrated database
 * from `makeStorage`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AllowListEntry,
  type ApiKeyRecord,
  ApiKeyRepo,
  type GitSshKeyRecord,
  GitSshKeyRepo,
  LoginConversionRepo,
  MemberRepo,
  type MembershipRecord,
  Organization,
  OrganizationRepo,
  Transactions,
  UniqueViolation,
  UserAppearance,
  type UserFilter,
  UserLinkRepo,
  type UserRecord,
  UserRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Cause, Data, Deferred, Effect, Exit, Fiber, type Layer, Option } from "effect"
import { randomUUID } from "node:crypto"

/** A fresh, migrated storage; called once per test. */
export type StorageFactory = () => Layer.Layer<StoragePorts | SqlClient.SqlClient, unknown>

export interface SuiteOptions {
  /** Skip every test (e.g. no database server); the reason is printed by the caller. */
  readonly skip?: boolean | undefined
}

type Ports = StoragePorts | SqlClient.SqlClient

/** A distinct instant with milliseconds, so precision loss shows. */
export const at = (n: number) => new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123) + n * 60_001)

/** A user record for storage tests (shared by the dialect-specific test files). */
export const user = (username: string, overrides: Partial<UserRecord> = {}): UserRecord => ({
  id: randomUUID(),
  email: `${username.toLowerCase()}@example.com`,
  username,
  name: `${username} Name`,
  avatar_url: "",
  login_type: "password",
  status: "active",
  rbac_roles: [],
  is_service_account: false,
  hashed_password: "scrypt$4$salt$key",
  created_at: at(0),
  updated_at: at(1),
  last_seen_at: at(2),
  deleted: false,
  appearance: UserAppearance.defaults,
  quiet_hours_schedule: "",
  hashed_one_time_passcode: null,
  one_time_passcode_expires_at: null,
  ...overrides
})

/** An organization record for storage tests, not the default one unless overridden. */
export const org = (name: string, overrides: Partial<Organization> = {}): Organization =>
  new Organization({
    id: randomUUID(),
    name,
    display_name: `${name} display`,
    description: `About ${name}`,
    icon: "/icon.svg",
    is_default: false,
    created_at: at(0),
    updated_at: at(1),
    ...overrides
  })

/** A membership record for storage tests; `n` sets its dates through {@link at}. */
export const membership = (
  orgId: string,
  userId: string,
  n = 0,
  roles: ReadonlyArray<string> = []
): MembershipRecord => ({
  organization_id: orgId,
  user_id: userId,
  roles,
  created_at: at(n),
  updated_at: at(n)
})

let keySeq = 0
/** An API key record of `userId` for storage tests, with a fresh id and token name. */
export const apiKey = (userId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => {
  keySeq++
  return {
    id: `k${String(keySeq).padStart(4, "0")}${randomUUID().slice(0, 5)}`,
    hashed_secret: "a".repeat(64),
    user_id: userId,
    login_type: "token",
    token_name: `token-${keySeq}`,
    scopes: ["all"],
    allow_list: [new AllowListEntry({ type: "*", id: "*" })],
    lifetime_seconds: 86_400,
    created_at: at(0),
    updated_at: at(0),
    expires_at: at(100),
    last_used: at(0),
    ...overrides
  }
}

class Boom extends Data.TaggedError("Boom")<{}> {}

/** A page large enough for every fixture. */
export const all = { limit: 50, offset: 0 } as const

const usernames = (page: { readonly users: ReadonlyArray<UserRecord> }) => page.users.map((u) => u.username)

/** Inserts the users through the repository, in order. */
export const insertUsers = (...records: ReadonlyArray<UserRecord>) =>
  Effect.flatMap(UserRepo, (repo) => Effect.forEach(records, (u) => repo.insert(u), { discard: true }))

/** The typed failure of `effect`, which must fail. */
export const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    if (Exit.isSuccess(exit)) throw new Error("expected a failure")
    return Cause.failureOption(exit.cause).pipe(Option.getOrThrow)
  })

/** The number of rows in `table`. */
export const countRows = (table: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      Effect.map(sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql(table)}`, (rows) => Number(rows[0]!.n))
  )

/** Registers the repository contract tests for one storage. */
export const repositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`repositories on ${name}`, () => {
    describe("users", () => {
      test(
        "preferences start empty, are replaced whole, and are none for an unknown user",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          expect(Option.getOrThrow(yield* repo.findPreferences(alice.id))).toEqual({})
          expect(
            yield* repo.setPreferences(alice.id, {
              collapse_assistant_steps: true,
              thinking_display_mode: "always_expanded"
            }, at(5))
          )
            .toBe(true)
          expect(Option.getOrThrow(yield* repo.findPreferences(alice.id)))
            .toEqual({ collapse_assistant_steps: true, thinking_display_mode: "always_expanded" })
          expect(Option.getOrThrow(yield* repo.findById(alice.id)).updated_at).toEqual(at(5))
          yield* repo.setPreferences(alice.id, { agent_chat_send_shortcut: "modifier_enter" }, at(6))
          expect(Option.getOrThrow(yield* repo.findPreferences(alice.id))).toEqual({
            agent_chat_send_shortcut: "modifier_enter"
          })
          expect(Option.getOrThrow(yield* repo.findPreferences(bob.id))).toEqual({})
          expect(yield* repo.setPreferences(randomUUID(), {}, at(6))).toBe(false)
          expect(Option.isNone(yield* repo.findPreferences(randomUUID()))).toBe(true)
        })
      )

      test(
        "lockById holds the user's row until its transaction ends: a change of the row waits for it",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const sql = yield* SqlClient.SqlClient
          const a = user("lockee")
          yield* insertUsers(a)
          const order: Array<string> = []
          const issuing = sql.withTransaction(Effect.gen(function*() {
            expect(Option.getOrThrow(yield* repo.lockById(a.id)).id).toBe(a.id)
            yield* Effect.sleep("300 millis")
            order.push("issued")
          }))
          const change = Effect.sleep("50 millis").pipe(
            Effect.zipRight(repo.update(a.id, { hashed_password: "changed" })),
            Effect.tap(() => Effect.sync(() => order.push("changed")))
          )
          yield* Effect.all([issuing, change], { concurrency: 2 })
          expect(order).toEqual(["issued", "changed"])
          expect(Option.isNone(yield* repo.lockById(randomUUID()))).toBe(true)
        })
      )

      test(
        "insert and find round-trip every field (dates to the millisecond, booleans, JSON)",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const record = user("Alice", {
            rbac_roles: ["owner", "auditor"],
            is_service_account: true,
            login_type: "oidc",
            status: "suspended",
            hashed_password: null,
            appearance: new UserAppearance({
              ...UserAppearance.defaults,
              theme_preference: "dark",
              terminal_font: "fira-code"
            }),
            quiet_hours_schedule: "CRON_TZ=Europe/Berlin 30 9 * * *",
            hashed_one_time_passcode: "scrypt$4$x$y",
            one_time_passcode_expires_at: new Date(Date.UTC(2031, 11, 31, 23, 59, 59, 999)),
            created_at: new Date(Date.UTC(2020, 0, 1, 0, 0, 0, 1)),
            updated_at: new Date(Date.UTC(2020, 0, 1, 0, 0, 0, 2)),
            last_seen_at: new Date(Date.UTC(1999, 6, 7, 8, 9, 10, 987))
          })
          yield* repo.insert(record)
          const found = Option.getOrThrow(yield* repo.findById(record.id))
          expect(found).toEqual(record)
          expect(found.appearance).toBeInstanceOf(UserAppearance)
          expect(found.created_at.getTime()).toBe(record.created_at.getTime())
          expect(found.last_seen_at.getTime()).toBe(record.last_seen_at.getTime())
          expect(found.one_time_passcode_expires_at?.getTime()).toBe(Date.UTC(2031, 11, 31, 23, 59, 59, 999))
          expect(found.is_service_account).toBe(true)
          expect(found.deleted).toBe(false)

          const plain = user("bob")
          yield* repo.insert(plain)
          const bob = Option.getOrThrow(yield* repo.findById(plain.id))
          expect(bob).toEqual(plain)
          expect(bob.is_service_account).toBe(false)
          expect(bob.one_time_passcode_expires_at).toBeNull()
          expect(bob.rbac_roles).toEqual([])
        })
      )

      test(
        "findByIds answers the users of the ids that exist, deleted ones included",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const alice = user("alice", { rbac_roles: ["owner"] })
          const gone = user("gone", { deleted: true })
          yield* insertUsers(alice, gone, user("carol"))
          const found = yield* repo.findByIds([alice.id, gone.id, randomUUID()])
          expect([...found].sort((a, b) => a.username.localeCompare(b.username))).toEqual([alice, gone])
          expect(yield* repo.findByIds([])).toEqual([])
        })
      )

      test(
        "findById of an unknown id is none",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
        })
      )

      test(
        "findByUsername and findByEmail are case-insensitive and skip deleted users",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const alice = user("Alice", { email: "Alice@Example.COM" })
          const gone = user("gone", { deleted: true })
          yield* insertUsers(alice, gone)
          expect(Option.getOrThrow(yield* repo.findByUsername("alice")).id).toBe(alice.id)
          expect(Option.getOrThrow(yield* repo.findByUsername("ALICE")).id).toBe(alice.id)
          expect(Option.getOrThrow(yield* repo.findByEmail("alice@example.com")).id).toBe(alice.id)
          expect(Option.getOrThrow(yield* repo.findByEmail("ALICE@EXAMPLE.COM")).id).toBe(alice.id)
          expect(Option.isNone(yield* repo.findByUsername("ali"))).toBe(true)
          expect(Option.isNone(yield* repo.findByUsername("gone"))).toBe(true)
          expect(Option.isNone(yield* repo.findByEmail("gone@example.com"))).toBe(true)
          // findById still sees the deleted user (the services filter it).
          expect(Option.getOrThrow(yield* repo.findById(gone.id)).deleted).toBe(true)
        })
      )

      test(
        "a non-ASCII email is found as written, and case-insensitively in its ASCII letters",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const unal = user("unal", { email: "Ünal@Example.com", name: "Ünal Öz" })
          yield* repo.insert(unal)
          expect(Option.getOrThrow(yield* repo.findByEmail("Ünal@Example.com")).id).toBe(unal.id)
          expect(Option.getOrThrow(yield* repo.findByEmail("Ünal@EXAMPLE.COM")).id).toBe(unal.id)
          expect(usernames(yield* repo.list({ ...all, email: "Ünal@example.com" }))).toEqual(["unal"])
          expect(usernames(yield* repo.list({ ...all, search: "Ünal@" }))).toEqual(["unal"])
          expect(usernames(yield* repo.list({ ...all, search: "Öz" }))).toEqual(["unal"])
        })
      )

      test(
        "duplicate username or email (any case) fails with UniqueViolation naming the constraint",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          yield* repo.insert(user("alice"))
          const byName = yield* failureOf(repo.insert(user("ALICE", { email: "other@example.com" })))
          expect(byName).toBeInstanceOf(UniqueViolation)
          expect(byName.constraint).toContain("username")
          const byEmail = yield* failureOf(repo.insert(user("alice2", { email: "ALICE@example.com" })))
          expect(byEmail).toBeInstanceOf(UniqueViolation)
          expect(byEmail.constraint).toContain("email")
          expect(yield* repo.count).toBe(1)
        })
      )

      test(
        "a deleted user's username and email can be taken again",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const old = user("alice", { deleted: true })
          const fresh = user("Alice")
          yield* insertUsers(old, fresh)
          expect(Option.getOrThrow(yield* repo.findByUsername("alice")).id).toBe(fresh.id)
          expect(yield* repo.count).toBe(1)
        })
      )

      test(
        "update patches fields and returns the row; unknown id is none",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const alice = user("alice")
          yield* repo.insert(alice)
          const updated = Option.getOrThrow(
            yield* repo.update(alice.id, {
              email: "new@example.com",
              rbac_roles: ["user-admin"],
              status: "suspended",
              appearance: new UserAppearance({ ...UserAppearance.defaults, theme_preference: "light" }),
              hashed_one_time_passcode: "scrypt$4$a$b",
              one_time_passcode_expires_at: at(7),
              updated_at: at(9)
            })
          )
          expect(updated).toEqual({
            ...alice,
            email: "new@example.com",
            rbac_roles: ["user-admin"],
            status: "suspended",
            appearance: new UserAppearance({ ...UserAppearance.defaults, theme_preference: "light" }),
            hashed_one_time_passcode: "scrypt$4$a$b",
            one_time_passcode_expires_at: at(7),
            updated_at: at(9)
          })
          expect(Option.getOrThrow(yield* repo.findById(alice.id))).toEqual(updated)
          // null clears a nullable column.
          const cleared = Option.getOrThrow(
            yield* repo.update(alice.id, {
              hashed_one_time_passcode: null,
              one_time_passcode_expires_at: null,
              hashed_password: null
            })
          )
          expect(cleared.hashed_one_time_passcode).toBeNull()
          expect(cleared.one_time_passcode_expires_at).toBeNull()
          expect(cleared.hashed_password).toBeNull()
          expect(Option.isNone(yield* repo.update(randomUUID(), { name: "x" }))).toBe(true)
          // An empty patch changes nothing.
          expect(Option.getOrThrow(yield* repo.update(alice.id, {}))).toEqual(cleared)
          expect(Option.isNone(yield* repo.update(randomUUID(), {}))).toBe(true)
        })
      )

      test(
        "update to a taken username or email fails with UniqueViolation",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          const e1 = yield* failureOf(repo.update(bob.id, { username: "Alice" }))
          expect(e1).toBeInstanceOf(UniqueViolation)
          expect(e1.constraint).toContain("username")
          const e2 = yield* failureOf(repo.update(bob.id, { email: "ALICE@example.com" }))
          expect(e2.constraint).toContain("email")
          expect(Option.getOrThrow(yield* repo.findById(bob.id)).username).toBe("bob")
        })
      )

      test(
        "the system prebuilds user (migration 0049) exists but is neither listed nor counted",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const prebuilds = Option.getOrThrow(yield* repo.findById("c42fdf75-3097-471c-8c33-fb52454d81c0"))
          expect(prebuilds.username).toBe("prebuilds")
          expect(prebuilds.login_type).toBe("none")
          expect(prebuilds.hashed_password).toBeNull()
          yield* insertUsers(user("bob"))
          expect(yield* repo.count).toBe(1)
          expect(usernames(yield* repo.list(all))).toEqual(["bob"])
          expect((yield* repo.list({ ...all, search: "prebuilds" })).count).toBe(0)
        })
      )

      test(
        "soft delete through update hides the user from lookups, list and count",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const alice = user("alice")
          yield* insertUsers(alice, user("bob"))
          expect(yield* repo.count).toBe(2)
          yield* repo.update(alice.id, { deleted: true })
          expect(yield* repo.count).toBe(1)
          expect(Option.isNone(yield* repo.findByUsername("alice"))).toBe(true)
          expect(usernames(yield* repo.list(all))).toEqual(["bob"])
        })
      )

      test(
        "kept counts follow inserts, deletions and status changes, racing deletions counted once",
        Effect.gen(function*() {
          const repo = yield* UserRepo
          const sql = yield* SqlClient.SqlClient
          /** The kept counts must equal what count(*) says, overall and by status. */
          const expectCounts = (live: number, active: number) =>
            Effect.gen(function*() {
              const [{ n }] = yield* sql<
                { n: number | string }
              >`SELECT count(*) AS n FROM users WHERE deleted = FALSE AND is_system = FALSE`
              const [{ a }] = yield* sql<
                { a: number | string }
              >`SELECT count(*) AS a FROM users WHERE deleted = FALSE AND is_system = FALSE AND status = 'active'`
              expect([Number(n), Number(a)]).toEqual([live, active])
              expect(yield* repo.count).toBe(live)
              expect((yield* repo.list({ ...all, status: "active" })).count).toBe(active)
              expect((yield* repo.list({ ...all, status: "suspended" })).count).toBe(live - active)
              expect((yield* repo.list(all)).count).toBe(live)
            })
          const [a, b, c] = [user("ann"), user("ben", { status: "suspended" }), user("cat")]
          yield* insertUsers(a, b, c)
          yield* expectCounts(3, 2)
          yield* repo.update(a.id, { status: "suspended", name: "Ann" })
          yield* repo.update(a.id, { status: "suspended" })
          yield* expectCounts(3, 1)
          expect(Option.getOrThrow(yield* repo.findById(a.id)).name).toBe("Ann")
          yield* repo.update(b.id, { status: "active" })
          yield* expectCounts(3, 2)
          yield* Effect.all([repo.update(c.id, { deleted: true }), repo.update(c.id, { deleted: true })], {
            concurrency: 2
          })
          yield* expectCounts(2, 1)
          // A deleted user's status no longer counts; undeleting brings it back.
          yield* repo.update(c.id, { status: "suspended" })
          yield* expectCounts(2, 1)
          yield* repo.update(c.id, { deleted: false, status: "active" })
          yield* expectCounts(3, 2)
          // A filter the counters do not cover counts the matching rows.
          expect((yield* repo.list({ ...all, search: "ann" })).count).toBe(1)
        })
      )

      describe("list", () => {
        const fixtures = Effect.gen(function*() {
          const orgs = yield* OrganizationRepo
          const members = yield* MemberRepo
          const o1 = org("one")
          const o2 = org("two")
          yield* orgs.insert(o1)
          yield* orgs.insert(o2)
          const users = {
            alice: user("alice", { name: "Alice Liddell" }),
            Bob: user("Bob", { email: "bob@example.org" }),
            carol: user("carol", { status: "suspended", rbac_roles: ["auditor"] }),
            dave: user("dave", { deleted: true, rbac_roles: ["auditor"] }),
            erin: user("erin", { rbac_roles: ["owner", "user-admin"], login_type: "oidc", hashed_password: null }),
            frank: user("frank", { email: "frank_x@example.com" })
          }
          yield* insertUsers(...Object.values(users))
          yield* members.insert(membership(o1.id, users.alice.id))
          yield* members.insert(membership(o1.id, users.carol.id))
          yield* members.insert(membership(o1.id, users.dave.id))
          yield* members.insert(membership(o2.id, users.erin.id))
          return { o1, o2, users }
        })

        const list = (filter: Partial<UserFilter>) => Effect.flatMap(UserRepo, (r) => r.list({ ...all, ...filter }))

        test(
          "orders live users by username, case-insensitively, with the total count",
          Effect.gen(function*() {
            yield* fixtures
            const page = yield* list({})
            expect(usernames(page)).toEqual(["alice", "Bob", "carol", "erin", "frank"])
            expect(page.count).toBe(5)
            expect(yield* Effect.flatMap(UserRepo, (r) => r.count)).toBe(5)
          })
        )

        test(
          "search matches username, email or name, case-insensitively",
          Effect.gen(function*() {
            yield* fixtures
            expect(usernames(yield* list({ search: "ALI" }))).toEqual(["alice"])
            expect(usernames(yield* list({ search: "example.org" }))).toEqual(["Bob"])
            expect(usernames(yield* list({ search: "liddell" }))).toEqual(["alice"])
            expect((yield* list({ search: "example" })).count).toBe(5)
            expect(usernames(yield* list({ search: "nobody" }))).toEqual([])
          })
        )

        test(
          "search treats % and _ literally",
          Effect.gen(function*() {
            yield* fixtures
            expect(usernames(yield* list({ search: "%" }))).toEqual([])
            expect(usernames(yield* list({ search: "_" }))).toEqual(["frank"])
            expect(usernames(yield* list({ search: "k_x" }))).toEqual(["frank"])
            expect(usernames(yield* list({ search: "e_a" }))).toEqual([])
          })
        )

        test(
          "username and email filters match exactly, case-insensitively",
          Effect.gen(function*() {
            yield* fixtures
            expect(usernames(yield* list({ username: "BOB" }))).toEqual(["Bob"])
            expect(usernames(yield* list({ username: "bo" }))).toEqual([])
            expect(usernames(yield* list({ username: "dave" }))).toEqual([])
            expect(usernames(yield* list({ email: "BOB@example.ORG" }))).toEqual(["Bob"])
            expect(usernames(yield* list({ email: "example.org" }))).toEqual([])
          })
        )

        test(
          "status, role and login type filters",
          Effect.gen(function*() {
            yield* fixtures
            expect(usernames(yield* list({ status: "suspended" }))).toEqual(["carol"])
            expect((yield* list({ status: "active" })).count).toBe(4)
            expect(usernames(yield* list({ role: "auditor" }))).toEqual(["carol"])
            expect(usernames(yield* list({ role: "owner" }))).toEqual(["erin"])
            expect(usernames(yield* list({ role: "user-admin" }))).toEqual(["erin"])
            expect(usernames(yield* list({ role: "user" }))).toEqual([])
            expect((yield* list({ role: "member" })).count).toBe(5)
            expect(usernames(yield* list({ loginType: "oidc" }))).toEqual(["erin"])
            expect(usernames(yield* list({ status: "active", role: "owner", search: "er" }))).toEqual(["erin"])
          })
        )

        test(
          "organizationId keeps that organization's live members",
          Effect.gen(function*() {
            const { o1, o2 } = yield* fixtures
            const one = yield* list({ organizationId: o1.id })
            expect(usernames(one)).toEqual(["alice", "carol"])
            expect(one.count).toBe(2)
            expect(usernames(yield* list({ organizationId: o2.id }))).toEqual(["erin"])
            expect(usernames(yield* list({ organizationId: randomUUID() }))).toEqual([])
          })
        )

        test(
          "afterId is a keyset cursor; count ignores it",
          Effect.gen(function*() {
            const { users } = yield* fixtures
            const after = yield* list({ afterId: users.Bob.id })
            expect(usernames(after)).toEqual(["carol", "erin", "frank"])
            expect(after.count).toBe(5)
            expect(usernames(yield* list({ afterId: users.Bob.id, limit: 1 }))).toEqual(["carol"])
            expect(usernames(yield* list({ afterId: users.frank.id }))).toEqual([])
            expect(usernames(yield* list({ afterId: users.alice.id, status: "active" }))).toEqual([
              "Bob",
              "erin",
              "frank"
            ])
          })
        )

        test(
          "limit and offset page through the list",
          Effect.gen(function*() {
            yield* fixtures
            const page = yield* list({ limit: 2, offset: 1 })
            expect(usernames(page)).toEqual(["Bob", "carol"])
            expect(page.count).toBe(5)
            expect(usernames(yield* list({ limit: 2, offset: 4 }))).toEqual(["frank"])
            expect(usernames(yield* list({ limit: 2, offset: 10 }))).toEqual([])
          })
        )
      })
    })

    describe("api keys", () => {
      test(
        "insert, findById and findWithUser round-trip the key and its user",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice", { rbac_roles: ["owner"] })
          yield* insertUsers(alice)
          const key = apiKey(alice.id, {
            scopes: ["application_connect"],
            allow_list: [
              new AllowListEntry({ type: "workspace", id: "ws-1" }),
              new AllowListEntry({ type: "*", id: "*" })
            ],
            lifetime_seconds: 31_449_600,
            created_at: at(1),
            updated_at: at(2),
            expires_at: at(500),
            last_used: at(3)
          })
          yield* keys.insert(key)
          expect(Option.getOrThrow(yield* keys.findById(key.id))).toEqual(key)
          const found = Option.getOrThrow(yield* keys.findWithUser(key.id))
          expect(found.key).toEqual(key)
          expect(found.user).toEqual(alice)
          expect(found.key.allow_list[0]).toBeInstanceOf(AllowListEntry)
          expect(typeof found.key.lifetime_seconds).toBe("number")
          expect(Option.isNone(yield* keys.findWithUser("nope"))).toBe(true)
          expect(Option.isNone(yield* keys.findById("nope"))).toBe(true)
        })
      )

      test(
        "findWithUser reads the memberships with the key, ofUser's in its order, fresh on every read",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const orgs = yield* OrganizationRepo
          const members = yield* MemberRepo
          const alice = user("alice")
          const loner = user("loner")
          yield* insertUsers(alice, loner)
          const [a, b] = [org("beta"), org("alpha")]
          yield* orgs.insert(a)
          yield* orgs.insert(b)
          yield* members.insert(membership(a.id, alice.id, 2, ["organization-admin"]))
          yield* members.insert(membership(b.id, alice.id, 1))
          const key = apiKey(alice.id)
          const lonerKey = apiKey(loner.id)
          yield* keys.insert(key)
          yield* keys.insert(lonerKey)
          const found = Option.getOrThrow(yield* keys.findWithUser(key.id))
          const expected = (yield* members.ofUser(alice.id)).map((m) => ({
            organization_id: m.organization_id,
            roles: m.roles
          }))
          expect(expected.map((m) => m.organization_id)).toEqual([b.id, a.id])
          // Both SQL storages read them with the key.
          expect(found.memberships).toEqual(expected)
          const lonely = Option.getOrThrow(yield* keys.findWithUser(lonerKey.id))
          expect(lonely.memberships).toEqual([])
          // Nothing is kept between reads: a changed role or a removed membership shows at once.
          yield* members.updateRoles(b.id, alice.id, ["organization-auditor"], at(9))
          yield* members.delete(a.id, alice.id)
          expect(Option.getOrThrow(yield* keys.findWithUser(key.id)).memberships).toEqual([
            { organization_id: b.id, roles: ["organization-auditor"] }
          ])
        })
      )

      test(
        "findWithUser still returns the key of a deleted or suspended user (auth decides)",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const gone = user("gone", { deleted: true, status: "suspended" })
          yield* insertUsers(gone)
          const key = apiKey(gone.id, { login_type: "password", token_name: "" })
          yield* keys.insert(key)
          const found = Option.getOrThrow(yield* keys.findWithUser(key.id))
          expect(found.user.deleted).toBe(true)
          expect(found.user.status).toBe("suspended")
        })
      )

      test(
        "token names are unique per user among tokens only",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          yield* keys.insert(apiKey(alice.id, { token_name: "ci" }))
          const dup = yield* failureOf(keys.insert(apiKey(alice.id, { token_name: "ci" })))
          expect(dup).toBeInstanceOf(UniqueViolation)
          yield* keys.insert(apiKey(bob.id, { token_name: "ci" }))
          // Sessions all have an empty name.
          yield* keys.insert(apiKey(alice.id, { login_type: "password", token_name: "" }))
          yield* keys.insert(apiKey(alice.id, { login_type: "password", token_name: "" }))
          // A duplicate id is a violation too.
          const k = apiKey(alice.id)
          yield* keys.insert(k)
          expect(yield* failureOf(keys.insert({ ...k, token_name: "other" }))).toBeInstanceOf(UniqueViolation)
        })
      )

      test(
        "findByName finds the user's token of that name, never a session",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          const token = apiKey(alice.id, { token_name: "deploy" })
          yield* keys.insert(token)
          yield* keys.insert(apiKey(alice.id, { login_type: "password", token_name: "sess" }))
          expect(Option.getOrThrow(yield* keys.findByName(alice.id, "deploy"))).toEqual(token)
          expect(Option.isNone(yield* keys.findByName(bob.id, "deploy"))).toBe(true)
          expect(Option.isNone(yield* keys.findByName(alice.id, "sess"))).toBe(true)
          expect(Option.isNone(yield* keys.findByName(alice.id, "DEPLOY"))).toBe(true)
        })
      )

      test(
        "list filters by user, expiry and tokens only, newest first",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          const now = at(50)
          const old = apiKey(alice.id, { created_at: at(1), expires_at: at(40) })
          const edge = apiKey(alice.id, { created_at: at(2), expires_at: now })
          const live = apiKey(alice.id, { created_at: at(3), expires_at: at(60) })
          const session = apiKey(alice.id, {
            login_type: "password",
            token_name: "",
            created_at: at(4),
            expires_at: at(70)
          })
          const other = apiKey(bob.id, { created_at: at(5) })
          for (const k of [old, edge, live, session, other]) yield* keys.insert(k)
          const ids = (ks: ReadonlyArray<ApiKeyRecord>) => ks.map((k) => k.id)
          expect(ids(yield* keys.list({ userId: alice.id, includeExpired: true, now }))).toEqual([
            session.id,
            live.id,
            edge.id,
            old.id
          ])
          // Expired means expires_at <= now.
          expect(ids(yield* keys.list({ userId: alice.id, includeExpired: false, now }))).toEqual([session.id, live.id])
          expect(ids(yield* keys.list({ userId: alice.id, includeExpired: false, now, tokensOnly: true }))).toEqual([
            live.id
          ])
          expect(ids(yield* keys.list({ userId: alice.id, includeExpired: true, now, tokensOnly: true }))).toEqual([
            live.id,
            edge.id,
            old.id
          ])
          expect(ids(yield* keys.list({ userId: bob.id, includeExpired: true, now }))).toEqual([other.id])
          expect(yield* keys.list({ userId: randomUUID(), includeExpired: true, now })).toEqual([])
          // Millisecond precision in the comparison: one ms before expiry is live.
          expect(
            ids(yield* keys.list({ userId: alice.id, includeExpired: false, now: new Date(now.getTime() - 1) }))
          ).toEqual([session.id, live.id, edge.id])
        })
      )

      test(
        "listAllTokens lists every user's tokens with their usernames, newest first, never sessions",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("Alice")
          const bob = user("bob")
          const gone = user("gone", { deleted: true })
          yield* insertUsers(alice, bob, gone)
          const now = at(50)
          const expired = apiKey(alice.id, { created_at: at(1), expires_at: at(40) })
          const edge = apiKey(bob.id, { created_at: at(2), expires_at: now })
          const aliceLive = apiKey(alice.id, { created_at: at(3), expires_at: at(60) })
          const bobLive = apiKey(bob.id, { created_at: at(4), expires_at: at(60) })
          const goneLive = apiKey(gone.id, { created_at: at(5), expires_at: at(60) })
          const session = apiKey(alice.id, {
            login_type: "password",
            token_name: "",
            created_at: at(6),
            expires_at: at(70)
          })
          for (const k of [expired, edge, aliceLive, bobLive, goneLive, session]) yield* keys.insert(k)
          const listed = (includeExpired: boolean, when = now) =>
            Effect.map(keys.listAllTokens({ includeExpired, now: when }), (ks) => ks.map((k) => [k.key.id, k.username]))
          expect(yield* listed(false)).toEqual([[goneLive.id, "gone"], [bobLive.id, "bob"], [aliceLive.id, "Alice"]])
          expect(yield* listed(true)).toEqual([
            [goneLive.id, "gone"],
            [bobLive.id, "bob"],
            [aliceLive.id, "Alice"],
            [edge.id, "bob"],
            [expired.id, "Alice"]
          ])
          // Expired means expires_at <= now, to the millisecond.
          expect((yield* listed(false, new Date(now.getTime() - 1))).map(([id]) => id)).toContain(edge.id)
          const first = (yield* keys.listAllTokens({ includeExpired: false, now }))[0]!
          expect(first.key).toEqual(goneLive)
          expect(first.key.allow_list[0]).toBeInstanceOf(AllowListEntry)
        })
      )

      test(
        "listAllTokens answers nothing when no user has a token",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice")
          yield* insertUsers(alice)
          yield* keys.insert(apiKey(alice.id, { login_type: "password", token_name: "" }))
          expect(yield* keys.listAllTokens({ includeExpired: true, now: at(0) })).toEqual([])
        })
      )

      test(
        "touch records last use and the new expiry",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice")
          yield* insertUsers(alice)
          const key = apiKey(alice.id, { login_type: "password", token_name: "" })
          yield* keys.insert(key)
          yield* keys.touch(key.id, at(10), at(200))
          const touched = Option.getOrThrow(yield* keys.findById(key.id))
          expect(touched).toEqual({ ...key, last_used: at(10), expires_at: at(200) })
          yield* keys.touch("nope", at(10), at(200))
        })
      )

      test(
        "expire moves a live key's expiry to the given moment and keeps an earlier one",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice")
          yield* insertUsers(alice)
          const key = apiKey(alice.id, { expires_at: at(500) })
          yield* keys.insert(key)
          const expired = Option.getOrThrow(yield* keys.expire(key.id, at(20)))
          expect(expired).toEqual({ ...key, expires_at: at(20), updated_at: at(20) })
          expect(Option.getOrThrow(yield* keys.findById(key.id))).toEqual(expired)
          // Already expired: a later moment changes nothing.
          expect(Option.getOrThrow(yield* keys.expire(key.id, at(30)))).toEqual(expired)
          expect(Option.isNone(yield* keys.expire("nope", at(30)))).toBe(true)
        })
      )

      test(
        "delete reports whether the key went; deleteByUser removes all of a user's keys",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          const a1 = apiKey(alice.id)
          const a2 = apiKey(alice.id, { login_type: "password", token_name: "" })
          const b1 = apiKey(bob.id)
          for (const k of [a1, a2, b1]) yield* keys.insert(k)
          expect(yield* keys.delete(a1.id)).toBe(true)
          expect(yield* keys.delete(a1.id)).toBe(false)
          expect(Option.isNone(yield* keys.findById(a1.id))).toBe(true)
          yield* keys.deleteByUser(alice.id)
          expect(Option.isNone(yield* keys.findById(a2.id))).toBe(true)
          expect(Option.isSome(yield* keys.findById(b1.id))).toBe(true)
        })
      )
    })

    describe("git ssh keys", () => {
      test(
        "upsert inserts, then replaces the pair and updated_at but keeps created_at",
        Effect.gen(function*() {
          const repo = yield* GitSshKeyRepo
          const alice = user("alice")
          yield* insertUsers(alice)
          expect(Option.isNone(yield* repo.find(alice.id))).toBe(true)
          const first: GitSshKeyRecord = {
            user_id: alice.id,
            private_key: "-----BEGIN OPENSSH PRIVATE KEY-----\nAAA\n-----END OPENSSH PRIVATE KEY-----\n",
            public_key: "ssh-ed25519 AAAA1",
            created_at: at(1),
            updated_at: at(1)
          }
          yield* repo.upsert(first)
          expect(Option.getOrThrow(yield* repo.find(alice.id))).toEqual(first)
          yield* repo.upsert({
            ...first,
            private_key: "second",
            public_key: "ssh-ed25519 AAAA2",
            created_at: at(5),
            updated_at: at(5)
          })
          expect(Option.getOrThrow(yield* repo.find(alice.id))).toEqual({
            ...first,
            private_key: "second",
            public_key: "ssh-ed25519 AAAA2",
            updated_at: at(5)
          })
          expect(yield* countRows("gitsshkeys")).toBe(1)
        })
      )
    })

    describe("login conversions", () => {
      test(
        "insert stores the conversion",
        Effect.gen(function*() {
          const repo = yield* LoginConversionRepo
          const sql = yield* SqlClient.SqlClient
          const alice = user("alice")
          yield* insertUsers(alice)
          yield* repo.insert({
            state_string: "state-1",
            user_id: alice.id,
            to_type: "oidc",
            expires_at: at(5),
            created_at: at(0)
          })
          const rows = yield* sql<Record<string, unknown>>`SELECT * FROM login_conversions`
          expect(rows.length).toBe(1)
          expect(rows[0]!.state_string).toBe("state-1")
          expect(rows[0]!.user_id).toBe(alice.id)
          expect(rows[0]!.to_type).toBe("oidc")
          const expires = rows[0]!.expires_at
          expect((expires instanceof Date ? expires : new Date(expires as string)).getTime()).toBe(at(5).getTime())
        })
      )

      test(
        "findByState answers a stored conversion, and delete makes its state unusable",
        Effect.gen(function*() {
          const repo = yield* LoginConversionRepo
          const alice = user("alice")
          yield* insertUsers(alice)
          yield* repo.insert({
            state_string: "convert-abc",
            user_id: alice.id,
            to_type: "github",
            expires_at: at(5),
            created_at: at(0)
          })
          const found = yield* repo.findByState("convert-abc")
          expect(Option.getOrThrow(found)).toMatchObject({ user_id: alice.id, to_type: "github" })
          expect(Option.getOrThrow(found).expires_at.getTime()).toBe(at(5).getTime())
          expect(Option.isNone(yield* repo.findByState("convert-other"))).toBe(true)
          yield* repo.delete("convert-abc")
          expect(Option.isNone(yield* repo.findByState("convert-abc"))).toBe(true)
        })
      )
    })

    describe("user links", () => {
      const claims = {
        id_token_claims: { sub: "s1", iss: "https://idp.example" },
        user_info_claims: { groups: ["a", "b"], nested: { x: 1 } },
        merged_claims: { sub: "s1", groups: ["a", "b"], email_verified: true }
      }

      test(
        "insert and find by linked id and by user round-trip claims, synced groups and dates",
        Effect.gen(function*() {
          const links = yield* UserLinkRepo
          const alice = user("alice", { login_type: "oidc" })
          yield* insertUsers(alice)
          yield* links.insert({
            user_id: alice.id,
            login_type: "oidc",
            linked_id: "https://idp.example||s1",
            claims,
            synced_group_ids: ["g1", "g2"],
            created_at: at(0),
            updated_at: at(1)
          })
          const byLinked = Option.getOrThrow(yield* links.findByLinkedId("oidc", "https://idp.example||s1"))
          expect(byLinked).toMatchObject({
            user_id: alice.id,
            login_type: "oidc",
            claims,
            synced_group_ids: ["g1", "g2"]
          })
          expect(byLinked.created_at.getTime()).toBe(at(0).getTime())
          expect(byLinked.updated_at.getTime()).toBe(at(1).getTime())
          expect(Option.getOrThrow(yield* links.findByUser(alice.id, "oidc")).linked_id).toBe("https://idp.example||s1")
          expect(Option.isNone(yield* links.findByUser(alice.id, "github"))).toBe(true)
          expect(Option.isNone(yield* links.findByLinkedId("github", "https://idp.example||s1"))).toBe(true)
        })
      )

      test(
        "a provider identity links to one user; one link per user and login type",
        Effect.gen(function*() {
          const links = yield* UserLinkRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* insertUsers(alice, bob)
          const link = {
            login_type: "github" as const,
            linked_id: "101",
            claims,
            synced_group_ids: [],
            created_at: at(0),
            updated_at: at(0)
          }
          yield* links.insert({ ...link, user_id: alice.id })
          const sameIdentity = yield* Effect.exit(links.insert({ ...link, user_id: bob.id }))
          expect(
            Exit.isFailure(sameIdentity) && Cause.failureOption(sameIdentity.cause).pipe(
              Option.map((e) => e._tag),
              Option.getOrUndefined
            )
          )
            .toBe("UniqueViolation")
          const secondLink = yield* Effect.exit(links.insert({ ...link, user_id: alice.id, linked_id: "102" }))
          expect(Exit.isFailure(secondLink)).toBe(true)
          // Another login type is another link.
          yield* links.insert({ ...link, user_id: alice.id, login_type: "oidc", linked_id: "101" })
        })
      )

      test(
        "update replaces the linked id, claims and synced groups",
        Effect.gen(function*() {
          const links = yield* UserLinkRepo
          const alice = user("alice")
          yield* insertUsers(alice)
          yield* links.insert({
            user_id: alice.id,
            login_type: "oidc",
            linked_id: "old",
            claims,
            synced_group_ids: ["g1"],
            created_at: at(0),
            updated_at: at(0)
          })
          const next = { id_token_claims: {}, user_info_claims: {}, merged_claims: { sub: "s2" } }
          yield* links.update(alice.id, "oidc", {
            linked_id: "new",
            claims: next,
            synced_group_ids: [],
            updated_at: at(3)
          })
          const found = Option.getOrThrow(yield* links.findByUser(alice.id, "oidc"))
          expect(found).toMatchObject({ linked_id: "new", claims: next, synced_group_ids: [] })
          expect(found.updated_at.getTime()).toBe(at(3).getTime())
          expect(Option.isNone(yield* links.findByLinkedId("oidc", "old"))).toBe(true)
        })
      )

      test(
        "links go with their user",
        Effect.gen(function*() {
          const links = yield* UserLinkRepo
          const sql = yield* SqlClient.SqlClient
          const alice = user("alice")
          yield* insertUsers(alice)
          yield* links.insert({
            user_id: alice.id,
            login_type: "github",
            linked_id: "7",
            claims,
            synced_group_ids: [],
            created_at: at(0),
            updated_at: at(0)
          })
          yield* sql`DELETE FROM users WHERE id = ${alice.id}`
          expect(Option.isNone(yield* links.findByLinkedId("github", "7"))).toBe(true)
        })
      )

      test(
        "remove deletes one link",
        Effect.gen(function*() {
          const links = yield* UserLinkRepo
          const alice = user("alice")
          yield* insertUsers(alice)
          const base = { user_id: alice.id, claims, synced_group_ids: [], created_at: at(0), updated_at: at(0) }
          yield* links.insert({ ...base, login_type: "github", linked_id: "8" })
          yield* links.insert({ ...base, login_type: "oidc", linked_id: "o8" })
          yield* links.remove(alice.id, "github")
          expect(Option.isNone(yield* links.findByLinkedId("github", "8"))).toBe(true)
          expect(Option.isSome(yield* links.findByLinkedId("oidc", "o8"))).toBe(true)
        })
      )
    })

    describe("transactions", () => {
      test(
        "atomic commits on success",
        Effect.gen(function*() {
          const tx = yield* Transactions
          const repo = yield* UserRepo
          const alice = user("alice")
          const result = yield* tx.atomic(Effect.as(repo.insert(alice), 42))
          expect(result).toBe(42)
          expect(Option.isSome(yield* repo.findById(alice.id))).toBe(true)
        })
      )

      test(
        "atomic rolls back every write when the unit fails, and passes the failure on",
        Effect.gen(function*() {
          const tx = yield* Transactions
          const repo = yield* UserRepo
          const orgs = yield* OrganizationRepo
          const members = yield* MemberRepo
          const alice = user("alice")
          const o = org("acme")
          const error = yield* failureOf(
            tx.atomic(
              Effect.gen(function*() {
                yield* repo.insert(alice)
                yield* orgs.insert(o)
                yield* members.insert(membership(o.id, alice.id))
                return yield* new Boom()
              })
            )
          )
          expect(error).toBeInstanceOf(Boom)
          expect(Option.isNone(yield* repo.findById(alice.id))).toBe(true)
          expect(Option.isNone(yield* orgs.findById(o.id))).toBe(true)
          expect(yield* countRows("organization_members")).toBe(0)
        })
      )

      test(
        "atomic rolls back on a UniqueViolation and on a defect",
        Effect.gen(function*() {
          const tx = yield* Transactions
          const repo = yield* UserRepo
          yield* repo.insert(user("taken"))
          const bob = user("bob")
          const error = yield* failureOf(tx.atomic(Effect.zipRight(repo.insert(bob), repo.insert(user("TAKEN")))))
          expect(error).toBeInstanceOf(UniqueViolation)
          expect(Option.isNone(yield* repo.findById(bob.id))).toBe(true)
          const carol = user("carol")
          const exit = yield* Effect.exit(tx.atomic(Effect.zipRight(repo.insert(carol), Effect.dieMessage("boom"))))
          expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
          expect(Option.isNone(yield* repo.findById(carol.id))).toBe(true)
          expect(yield* repo.count).toBe(1)
        })
      )

      test(
        "a nested atomic that fails rolls back only its own writes",
        Effect.gen(function*() {
          const tx = yield* Transactions
          const repo = yield* UserRepo
          const alice = user("alice")
          const bob = user("bob")
          yield* tx.atomic(
            Effect.gen(function*() {
              yield* repo.insert(alice)
              yield* tx.atomic(Effect.zipRight(repo.insert(bob), Effect.fail(new Boom()))).pipe(Effect.ignore)
            })
          )
          expect(Option.isSome(yield* repo.findById(alice.id))).toBe(true)
          expect(Option.isNone(yield* repo.findById(bob.id))).toBe(true)
        })
      )

      test(
        "reads inside a transaction see its own writes (pages and lookups by ids too)",
        Effect.gen(function*() {
          const tx = yield* Transactions
          const repo = yield* UserRepo
          const members = yield* MemberRepo
          const orgs = yield* OrganizationRepo
          const alice = user("alice")
          const o = org("acme")
          const seen = yield* tx.atomic(
            Effect.gen(function*() {
              yield* repo.insert(alice)
              yield* orgs.insert(o)
              yield* members.insert(membership(o.id, alice.id))
              return {
                page: yield* repo.list({ limit: 10, offset: 0 }),
                byIds: yield* repo.findByIds([alice.id]),
                ofUsers: yield* members.ofUsers([alice.id]),
                organizations: yield* orgs.findByIds([o.id])
              }
            })
          )
          expect(seen.page).toEqual({ users: [alice], count: 1 })
          expect(seen.byIds).toEqual([alice])
          expect(seen.ofUsers.get(alice.id)).toEqual([o.id])
          expect(seen.organizations.map((x) => x.id)).toEqual([o.id])
        })
      )

      test(
        "organization delete inside atomic joins the outer transaction",
        Effect.gen(function*() {
          const tx = yield* Transactions
          const orgs = yield* OrganizationRepo
          const o = org("acme")
          yield* orgs.insert(o)
          const error = yield* failureOf(tx.atomic(Effect.zipRight(orgs.delete(o.id), Effect.fail(new Boom()))))
          expect(error).toBeInstanceOf(Boom)
          expect(Option.isSome(yield* orgs.findById(o.id))).toBe(true)
        })
      )

      test(
        "reads from other fibers never see a transaction's uncommitted writes",
        Effect.gen(function*() {
          const tx = yield* Transactions
          const repo = yield* UserRepo
          const keys = yield* ApiKeyRepo
          const members = yield* MemberRepo
          const orgs = yield* OrganizationRepo
          const alice = user("alice")
          const o = org("acme")
          const key = apiKey(alice.id)
          const written = yield* Deferred.make<void>()
          const unit = tx.atomic(
            Effect.gen(function*() {
              yield* repo.insert(alice)
              yield* orgs.insert(o)
              yield* members.insert(membership(o.id, alice.id))
              yield* keys.insert(key)
              yield* Deferred.succeed(written, undefined)
              yield* Effect.sleep("50 millis")
              return yield* new Boom()
            })
          )
          const writer = yield* Effect.fork(Effect.exit(unit))
          yield* Deferred.await(written)
          // On a single-connection client these wait for the transaction; elsewhere they read committed data.
          const [byId, withUser, memberships, page, byIds, ofUsers, organizations] = yield* Effect.all(
            [
              repo.findById(alice.id),
              keys.findWithUser(key.id),
              members.ofUser(alice.id),
              repo.list({ limit: 10, offset: 0 }),
              repo.findByIds([alice.id]),
              members.ofUsers([alice.id]),
              orgs.findByIds([o.id])
            ],
            { concurrency: "unbounded" }
          )
          expect(Option.isNone(byId)).toBe(true)
          expect(Option.isNone(withUser)).toBe(true)
          expect(memberships).toEqual([])
          expect(page).toEqual({ users: [], count: 0 })
          expect(byIds).toEqual([])
          expect(ofUsers.size).toBe(0)
          expect(organizations).toEqual([])
          const exit = yield* Fiber.join(writer)
          expect(Exit.isFailure(exit)).toBe(true)
          expect(Option.isNone(yield* repo.findById(alice.id))).toBe(true)
        })
      )
    })
  })
}
