/**
 * The log repositories' contract (audit log, connection log) and the retention purge,
 * written once and run against every storage, like RepositorySuite.ts. Every test gets a
 * fresh, migrated database from `makeStorage`.
 */
import type { SqlClient } from "@effect/sql"
import { SqlClient as SqlClientModule } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AllowListEntry,
  type ApiKeyRecord,
  ApiKeyRepo,
  type AuditLogFilter,
  type AuditLogRecord,
  AuditLogRepo,
  type ConnectionLogFilter,
  type ConnectionLogRecord,
  ConnectionLogRepo,
  NIL_UUID,
  Organization,
  OrganizationRepo,
  Retention,
  Settings,
  type SettingsShape,
  type UserRecord,
  UserRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Clock, Duration, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { purgeBefore } from "../../src/Purge.js"
import { type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient
const SqlClientTag = SqlClientModule.SqlClient

/** A distinct instant with milliseconds; `n` minutes (and a millisecond) after a fixed start. */
const at = (n: number) => new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123) + n * 60_001)
const DAY = 86_400_000

let seq = 0
/** An audit entry with every field set; ids sort by creation order. */
const entry = (overrides: Partial<AuditLogRecord> = {}): AuditLogRecord => {
  seq++
  return {
    id: `${String(seq).padStart(8, "0")}-0000-4000-8000-${randomUUID().slice(-12)}`,
    time: at(seq),
    user_id: NIL_UUID,
    organization_id: NIL_UUID,
    ip: "10.0.0.1",
    user_agent: "suite/1.0",
    request_id: randomUUID(),
    action: "create",
    resource_type: "user",
    resource_id: randomUUID(),
    resource_target: "target",
    resource_icon: "",
    diff: {},
    status_code: 201,
    additional_fields: {},
    description: "",
    build_reason: "",
    ...overrides
  }
}

/** A connection log entry (an ssh session unless overridden). */
const connection = (overrides: Partial<ConnectionLogRecord> = {}): ConnectionLogRecord => {
  seq++
  return {
    id: randomUUID(),
    connect_time: at(seq),
    organization_id: randomUUID(),
    workspace_owner_id: randomUUID(),
    workspace_id: randomUUID(),
    workspace_name: "ws",
    agent_name: "main",
    type: "ssh",
    ip: "10.0.0.2",
    code: null,
    user_agent: "",
    user_id: null,
    slug_or_port: "",
    connection_id: randomUUID(),
    disconnect_time: null,
    disconnect_reason: "",
    ...overrides
  }
}

const page = { limit: 100, offset: 0 } as const

/** Inserts users through the repository, in order; answers them. */
const insertUsers = <const Users extends ReadonlyArray<UserRecord>>(...records: Users) =>
  Effect.gen(function*() {
    const repo = yield* UserRepo
    for (const u of records) yield* repo.insert(u)
    return records
  })

const auditIds = (filter: Partial<AuditLogFilter>) =>
  Effect.flatMap(AuditLogRepo, (repo) => repo.list({ ...page, ...filter })).pipe(
    Effect.map((rs) => rs.map((r) => r.id))
  )

const connectionIds = (filter: Partial<ConnectionLogFilter>) =>
  Effect.flatMap(ConnectionLogRepo, (repo) => repo.list({ ...page, ...filter })).pipe(
    Effect.map((rs) => rs.map((r) => r.id))
  )

/** A clock stopped at `ms`, for effects that read the time. */
export const stoppedClock = (ms: number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => ms,
  currentTimeMillis: Effect.succeed(ms),
  unsafeCurrentTimeNanos: () => BigInt(ms) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n),
  sleep: () => Effect.void
})

/** Retention.purgeOnce with these settings, at `now`. */
export const purgeAt = (now: number, settings: Partial<SettingsShape>) =>
  Effect.flatMap(Retention, (r) => r.purgeOnce).pipe(
    Effect.withClock(stoppedClock(now)),
    Effect.provide(Retention.Default.pipe(Layer.provide(Settings.layer(settings))))
  )

const apiKey = (userId: string, expiresAt: Date): ApiKeyRecord => ({
  id: randomUUID().replace(/-/g, "").slice(0, 10),
  hashed_secret: "b".repeat(64),
  user_id: userId,
  login_type: "token",
  token_name: `t-${randomUUID().slice(0, 8)}`,
  scopes: ["all"],
  allow_list: [new AllowListEntry({ type: "*", id: "*" })],
  lifetime_seconds: 60,
  created_at: at(0),
  updated_at: at(0),
  expires_at: expiresAt,
  last_used: at(0)
})

/** Registers the log repositories' contract tests and the retention purge tests for one storage. */
export const logRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`log repositories on ${name}`, () => {
    describe("audit log", () => {
      test(
        "insert and list round-trip every field (time to the millisecond, diff, additional fields)",
        Effect.gen(function*() {
          const repo = yield* AuditLogRepo
          const e = entry({
            user_id: randomUUID(),
            organization_id: randomUUID(),
            ip: "2001:db8::1",
            user_agent: "Mozilla/5.0 (X11) \u00e9",
            action: "write",
            resource_type: "organization",
            resource_target: "acme",
            resource_icon: "/icon.svg",
            diff: {
              name: { old: "a", new: "b", secret: false },
              hashed_password: { old: "", new: "", secret: true },
              roles: { old: [], new: ["x"], secret: false },
              n: { old: 1, new: null, secret: false }
            },
            status_code: 409,
            additional_fields: { build_reason: "autostart", nested: { a: [1, 2] } },
            description: "custom",
            build_reason: "autostart",
            time: new Date(Date.UTC(2023, 11, 31, 23, 59, 59, 999))
          })
          yield* repo.insert(e)
          const [found] = yield* repo.list(page)
          expect(found).toEqual(e)
          expect(found!.time.getTime()).toBe(e.time.getTime())
        })
      )

      test(
        "lists newest first (ties by id), pages with limit and offset",
        Effect.gen(function*() {
          const repo = yield* AuditLogRepo
          const same = at(500)
          const es = [entry({ time: at(1) }), entry({ time: same }), entry({ time: same }), entry({ time: at(900) })]
          for (const e of es) yield* repo.insert(e)
          const ordered = [es[3]!.id, ...[es[1]!.id, es[2]!.id].sort().reverse(), es[0]!.id]
          expect(yield* auditIds({})).toEqual(ordered)
          expect(yield* auditIds({ limit: 2, offset: 1 })).toEqual(ordered.slice(1, 3))
          expect(yield* auditIds({ limit: 2, offset: 10 })).toEqual([])
        })
      )

      test(
        "filters by every field",
        Effect.gen(function*() {
          const repo = yield* AuditLogRepo
          const [alice, gone, reborn] = yield* insertUsers(
            user("Alice"),
            user("gone", { deleted: true, email: "Gone@Example.com" }),
            user("gone", { email: "reborn@example.com" })
          )
          const org = randomUUID()
          const request = randomUUID()
          const a = entry({ user_id: alice.id, resource_type: "user", action: "create", time: at(10) })
          const b = entry({
            user_id: gone.id,
            resource_type: "organization",
            action: "delete",
            organization_id: org,
            time: at(20)
          })
          const c = entry({
            user_id: reborn.id,
            resource_type: "api_key",
            action: "login",
            request_id: request,
            time: at(30)
          })
          const d = entry({
            resource_type: "workspace_build",
            action: "start",
            build_reason: "autostart",
            resource_target: "ws-1",
            time: at(40)
          })
          for (const e of [a, b, c, d]) yield* repo.insert(e)
          expect(yield* auditIds({ resourceType: "organization" })).toEqual([b.id])
          expect(yield* auditIds({ resourceId: a.resource_id })).toEqual([a.id])
          expect(yield* auditIds({ resourceTarget: "ws-1" })).toEqual([d.id])
          expect(yield* auditIds({ action: "login" })).toEqual([c.id])
          expect(yield* auditIds({ userIds: [alice.id, reborn.id] })).toEqual([c.id, a.id])
          expect(yield* auditIds({ userIds: [] })).toEqual([])
          // Usernames and emails match case-insensitively, deleted users included.
          expect(yield* auditIds({ username: "ALICE" })).toEqual([a.id])
          expect(yield* auditIds({ username: "gone" })).toEqual([c.id, b.id])
          expect(yield* auditIds({ email: "gone@example.COM" })).toEqual([b.id])
          expect(yield* auditIds({ username: "nobody" })).toEqual([])
          expect(yield* auditIds({ organizationIds: [org] })).toEqual([b.id])
          expect(yield* auditIds({ organizationIds: [NIL_UUID] })).toEqual([d.id, c.id, a.id])
          expect(yield* auditIds({ organizationIds: [] })).toEqual([])
          // date_from is inclusive, date_to exclusive.
          expect(yield* auditIds({ dateFrom: b.time })).toEqual([d.id, c.id, b.id])
          expect(yield* auditIds({ dateTo: c.time })).toEqual([b.id, a.id])
          expect(yield* auditIds({ dateFrom: b.time, dateTo: d.time })).toEqual([c.id, b.id])
          expect(yield* auditIds({ buildReason: "autostart" })).toEqual([d.id])
          expect(yield* auditIds({ requestId: request })).toEqual([c.id])
          expect(yield* auditIds({ resourceType: "user", action: "delete" })).toEqual([])
        })
      )

      test(
        "counts matching entries up to cap + 1",
        Effect.gen(function*() {
          const repo = yield* AuditLogRepo
          for (let i = 0; i < 7; i++) yield* repo.insert(entry({ action: i < 5 ? "create" : "delete" }))
          expect(yield* repo.count(page, 10)).toBe(7)
          expect(yield* repo.count(page, 5)).toBe(6)
          expect(yield* repo.count(page, 7)).toBe(7)
          expect(yield* repo.count({ ...page, action: "delete" }, 5)).toBe(2)
          // The page bounds do not limit the count.
          expect(yield* repo.count({ limit: 1, offset: 3 }, 2000)).toBe(7)
        })
      )

      test(
        "purgeBefore deletes older entries only and answers how many",
        Effect.gen(function*() {
          const repo = yield* AuditLogRepo
          const old = entry({ time: at(1) })
          const edge = entry({ time: at(2) })
          const fresh = entry({ time: at(3) })
          for (const e of [old, edge, fresh]) yield* repo.insert(e)
          expect(yield* repo.purgeBefore(at(2))).toBe(1)
          expect(yield* auditIds({})).toEqual([fresh.id, edge.id])
          expect(yield* repo.purgeBefore(at(2))).toBe(0)
        })
      )

      test(
        "usersByIds (deleted users included) and organizationsByIds (existing ones) in one lookup each",
        Effect.gen(function*() {
          const repo = yield* AuditLogRepo
          const orgs = yield* OrganizationRepo
          const [alice, gone] = yield* insertUsers(user("alice"), user("bob", { deleted: true }))
          const o = new Organization({
            id: randomUUID(),
            name: "acme",
            display_name: "Acme",
            description: "",
            icon: "/a.svg",
            is_default: false,
            created_at: at(0),
            updated_at: at(0)
          })
          yield* orgs.insert(o)
          const found = yield* repo.usersByIds([alice.id, gone.id, randomUUID()])
          expect(found.map((u) => u.id).sort()).toEqual([alice.id, gone.id].sort())
          expect(found.find((u) => u.id === alice.id)).toEqual(alice)
          expect(yield* repo.usersByIds([])).toEqual([])
          expect(yield* repo.organizationsByIds([o.id, randomUUID()])).toEqual([o])
          expect(yield* repo.organizationsByIds([])).toEqual([])
        })
      )
    })

    describe("connection log", () => {
      test(
        "connect inserts an open session; disconnect completes it once",
        Effect.gen(function*() {
          const repo = yield* ConnectionLogRepo
          const open = connection({ ip: "192.0.2.1", type: "vscode" })
          expect(yield* repo.upsert(open, "connected")).toEqual(open)
          expect(yield* repo.list(page)).toEqual([open])
          const closedAt = at(1000)
          const closing = connection({
            ...open,
            id: randomUUID(),
            connect_time: closedAt,
            disconnect_time: closedAt,
            disconnect_reason: "client closed",
            code: 130
          })
          const closed = yield* repo.upsert(closing, "disconnected")
          expect(closed).toEqual({ ...open, disconnect_time: closedAt, disconnect_reason: "client closed", code: 130 })
          // A second disconnect changes nothing.
          const again = yield* repo.upsert({
            ...closing,
            id: randomUUID(),
            disconnect_time: at(2000),
            disconnect_reason: "x",
            code: 1
          }, "disconnected")
          expect(again).toEqual(closed)
          expect(yield* repo.list(page)).toEqual([closed])
          // A repeated connect keeps the row and its data.
          expect(yield* repo.upsert({ ...open, id: randomUUID(), connect_time: at(3000) }, "connected")).toEqual(closed)
        })
      )

      test(
        "a disconnect seen first inserts a completed entry; the late connect moves its connect time back",
        Effect.gen(function*() {
          const repo = yield* ConnectionLogRepo
          const closedAt = at(50)
          const closing = connection({
            connect_time: closedAt,
            disconnect_time: closedAt,
            disconnect_reason: "timeout",
            code: 0
          })
          expect(yield* repo.upsert(closing, "disconnected")).toEqual(closing)
          const opened = yield* repo.upsert({
            ...closing,
            id: randomUUID(),
            connect_time: at(10),
            disconnect_time: null,
            disconnect_reason: "",
            code: null
          }, "connected")
          expect(opened).toEqual({ ...closing, connect_time: at(10) })
        })
      )

      test(
        "sessions are keyed by (connection_id, workspace_id, agent_name); web entries never merge",
        Effect.gen(function*() {
          const repo = yield* ConnectionLogRepo
          const a = connection()
          const otherAgent = connection({
            connection_id: a.connection_id,
            workspace_id: a.workspace_id,
            agent_name: "other"
          })
          const web1 = connection({
            type: "workspace_app",
            connection_id: null,
            code: 200,
            slug_or_port: "code-server",
            user_agent: "ua",
            user_id: randomUUID()
          })
          const web2 = connection({ ...web1, id: randomUUID(), code: 502, user_id: null })
          for (const e of [a, otherAgent, web1, web2]) yield* repo.upsert(e, "connected")
          const rows = yield* repo.list(page)
          expect(rows.map((r) => r.id).sort()).toEqual([a.id, otherAgent.id, web1.id, web2.id].sort())
          expect(rows.find((r) => r.id === web1.id)).toEqual(web1)
          expect(rows.find((r) => r.id === web2.id)).toEqual(web2)
        })
      )

      test(
        "filters by every field, newest first, counts up to cap + 1, purges by connect time",
        Effect.gen(function*() {
          const repo = yield* ConnectionLogRepo
          const [owner, visitor] = yield* insertUsers(user("Owner"), user("visitor", { email: "Visitor@Example.com" }))
          const org = randomUUID()
          const s1 = connection({ organization_id: org, workspace_owner_id: owner.id, connect_time: at(10) })
          const s2 = connection({
            type: "jetbrains",
            connect_time: at(20),
            disconnect_time: at(25),
            disconnect_reason: "bye",
            code: 0
          })
          const w1 = connection({
            type: "port_forwarding",
            connection_id: null,
            code: 200,
            slug_or_port: "8080",
            user_id: visitor.id,
            workspace_owner_id: owner.id,
            connect_time: at(30)
          })
          yield* repo.upsert(s1, "connected")
          yield* repo.upsert(s2, "disconnected")
          yield* repo.upsert(w1, "connected")
          expect(yield* connectionIds({})).toEqual([w1.id, s2.id, s1.id])
          expect(yield* connectionIds({ limit: 1, offset: 1 })).toEqual([s2.id])
          expect(yield* connectionIds({ organizationIds: [org] })).toEqual([s1.id])
          expect(yield* connectionIds({ organizationIds: [] })).toEqual([])
          expect(yield* connectionIds({ workspaceOwnerId: owner.id })).toEqual([w1.id, s1.id])
          expect(yield* connectionIds({ workspaceOwner: "OWNER" })).toEqual([w1.id, s1.id])
          expect(yield* connectionIds({ workspaceOwnerEmail: "owner@example.com" })).toEqual([w1.id, s1.id])
          expect(yield* connectionIds({ type: "jetbrains" })).toEqual([s2.id])
          expect(yield* connectionIds({ username: "Visitor" })).toEqual([w1.id])
          expect(yield* connectionIds({ userEmail: "visitor@example.com" })).toEqual([w1.id])
          expect(yield* connectionIds({ connectedAfter: at(20) })).toEqual([w1.id, s2.id])
          expect(yield* connectionIds({ connectedBefore: at(20) })).toEqual([s2.id, s1.id])
          expect(yield* connectionIds({ workspaceId: s2.workspace_id })).toEqual([s2.id])
          expect(yield* connectionIds({ connectionId: s1.connection_id! })).toEqual([s1.id])
          // Web connections are neither ongoing nor completed.
          expect(yield* connectionIds({ status: "ongoing" })).toEqual([s1.id])
          expect(yield* connectionIds({ status: "completed" })).toEqual([s2.id])
          expect(yield* repo.count(page, 2000)).toBe(3)
          expect(yield* repo.count(page, 1)).toBe(2)
          expect(yield* repo.count({ ...page, status: "ongoing" }, 2000)).toBe(1)
          expect(yield* repo.purgeBefore(at(20))).toBe(1)
          expect(yield* connectionIds({})).toEqual([w1.id, s2.id])
        })
      )
    })

    describe("retention", () => {
      test(
        "purgeExpiredBefore deletes keys that expired before the cutoff",
        Effect.gen(function*() {
          const keys = yield* ApiKeyRepo
          const [u] = yield* insertUsers(user("keyholder"))
          const old = apiKey(u.id, at(0))
          const edge = apiKey(u.id, at(10))
          const live = apiKey(u.id, at(100))
          for (const k of [old, edge, live]) yield* keys.insert(k)
          expect(yield* keys.purgeExpiredBefore(at(10))).toBe(1)
          const left = yield* keys.list({ userId: u.id, includeExpired: true, now: at(0) })
          expect(left.map((k) => k.id).sort()).toEqual([edge.id, live.id].sort())
        })
      )

      test(
        "Retention.purgeOnce deletes each kind by its own retention at the clock's time; 0 keeps forever",
        Effect.gen(function*() {
          const audit = yield* AuditLogRepo
          const connections = yield* ConnectionLogRepo
          const keys = yield* ApiKeyRepo
          const now = Date.UTC(2024, 6, 1, 12, 0, 0, 0)
          const ago = (days: number) => new Date(now - days * DAY)
          const [u] = yield* insertUsers(user("retained"))
          const oldAudit = entry({ time: ago(31) })
          const newAudit = entry({ time: ago(29) })
          const oldConn = connection({ connect_time: ago(91) })
          const newConn = connection({ connect_time: ago(89) })
          const oldKey = apiKey(u.id, ago(8))
          const expiredKey = apiKey(u.id, ago(6))
          const liveKey = apiKey(u.id, ago(-1))
          for (const e of [oldAudit, newAudit]) yield* audit.insert(e)
          for (const c of [oldConn, newConn]) yield* connections.upsert(c, "connected")
          for (const k of [oldKey, expiredKey, liveKey]) yield* keys.insert(k)

          // Everything kept forever: nothing goes.
          const keepAll = {
            retentionAuditLogs: Duration.zero,
            retentionConnectionLogs: Duration.zero,
            retentionApiKeys: Duration.zero
          }
          expect(yield* purgeAt(now, keepAll)).toEqual({
            auditLogs: 0,
            connectionLogs: 0,
            apiKeys: 0,
            agentLogs: 0,
            loginFailures: 0
          })

          const settings = {
            retentionAuditLogs: Duration.days(30),
            retentionConnectionLogs: Duration.days(90),
            retentionApiKeys: Duration.days(7)
          }
          expect(yield* purgeAt(now, settings)).toEqual({
            auditLogs: 1,
            connectionLogs: 1,
            apiKeys: 1,
            agentLogs: 0,
            loginFailures: 0
          })
          expect(yield* auditIds({})).toEqual([newAudit.id])
          expect(yield* connectionIds({})).toEqual([newConn.id])
          const left = yield* keys.list({ userId: u.id, includeExpired: true, now: new Date(now) })
          expect(left.map((k) => k.id).sort()).toEqual([expiredKey.id, liveKey.id].sort())
          // Two days later the next entries are past their retention.
          expect(yield* purgeAt(now + 2 * DAY, settings)).toEqual({
            auditLogs: 1,
            connectionLogs: 1,
            apiKeys: 1,
            agentLogs: 0,
            loginFailures: 0
          })
          expect(yield* purgeAt(now + 2 * DAY, settings)).toEqual({
            auditLogs: 0,
            connectionLogs: 0,
            apiKeys: 0,
            agentLogs: 0,
            loginFailures: 0
          })
        })
      )

      test(
        "purges in bounded batches until nothing older is left",
        Effect.gen(function*() {
          const audit = yield* AuditLogRepo
          const sql = yield* SqlClientTag
          const entries = Array.from({ length: 23 }, (_, i) => entry({ time: at(i) }))
          for (const e of entries) yield* audit.insert(e)
          // Batches of 5: five statements for the 20 entries before at(20), the 3 later ones stay.
          expect(yield* purgeBefore(sql, "audit_logs", "time", at(20), 5)).toBe(20)
          expect(yield* audit.count({ limit: 50, offset: 0 }, 100)).toBe(3)
          expect(yield* purgeBefore(sql, "audit_logs", "time", at(20), 5)).toBe(0)
        })
      )
    })
  })
}
