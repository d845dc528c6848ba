/**
 * The inbox repository contract, run against every storage: insert once per id, reads of the
 * user's own notification only, pages (newest first by `(created_at, id)`, each filter and
 * their combinations, the cursor), the kept unread count through every change of read state,
 * and the plans of the pages (each along its index, with no sort step). Every test gets a fresh,
 * migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type InboxFilter, type InboxNotificationRecord, InboxNotificationRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as InboxRepositories from "../../src/notifications/InboxRepositories.js"
import { queryPlan } from "../QueryPlan.js"
import { insertUsers, type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T1 = "11111111-1111-4111-8111-111111111111"
const T2 = "22222222-2222-4222-8222-222222222222"

const at = (n: number) => new Date(Date.UTC(2024, 6, 1, 10, 0, 0, 123) + n * 1000)

const notification = (
  userId: string,
  n: number,
  over: Partial<InboxNotificationRecord> = {}
): InboxNotificationRecord => ({
  id: randomUUID(),
  user_id: userId,
  template_id: T1,
  targets: [],
  title: `Title ${n}`,
  content: `Body ${n}`,
  icon: "",
  actions: [{ label: "Open", url: "http://example.com/x" }],
  read_at: null,
  created_at: at(n),
  ...over
})

const page = (userId: string, over: Partial<InboxFilter> = {}): InboxFilter => ({
  userId,
  targets: [],
  templates: [],
  readStatus: "all",
  limit: 25,
  ...over
})

const newUser = Effect.map(Effect.sync(() => user(`u${randomUUID().slice(0, 8)}`)), (u) => u).pipe(
  Effect.tap((u) => insertUsers(u)),
  Effect.map((u) => u.id)
)

export const inboxRepositorySuite = (
  name: string,
  dialect: "sqlite" | "pg",
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`inbox repositories on ${name}`, () => {
    test(
      "inserts once per id, reads the user's own, keeps the unread count",
      Effect.gen(function*() {
        const repo = yield* InboxNotificationRepo
        const me = yield* newUser
        const other = yield* newUser
        const n = notification(me, 1, { targets: [T2.toUpperCase()] })
        expect(yield* repo.insert(n)).toBe(1)
        expect(yield* repo.insert({ ...n, title: "again" })).toBeUndefined()
        expect(yield* repo.insert(notification(me, 2, { read_at: at(3) }))).toBe(1)
        expect(Option.getOrThrow(yield* repo.find(me, n.id))).toEqual({ ...n, targets: [T2] })
        expect(yield* repo.insert(notification(me, 4))).toBe(2)
        expect(Option.isNone(yield* repo.find(other, n.id))).toBe(true)
        expect(yield* repo.unreadCount(me)).toBe(2)
        expect(yield* repo.unreadCount(other)).toBe(0)
      })
    )

    test(
      "read state: a change moves the count once, a repeat keeps read_at; mark all counts down to zero",
      Effect.gen(function*() {
        const repo = yield* InboxNotificationRepo
        const me = yield* newUser
        const other = yield* newUser
        const [a, b, c] = [notification(me, 1), notification(me, 2), notification(me, 3)]
        for (const n of [a, b, c, notification(other, 4)]) yield* repo.insert(n)
        expect(Option.getOrThrow(yield* repo.setReadAt(me, a.id, at(10))).read_at).toEqual(at(10))
        expect(Option.getOrThrow(yield* repo.setReadAt(me, a.id, at(11))).read_at).toEqual(at(10))
        expect(yield* repo.unreadCount(me)).toBe(2)
        expect(Option.isNone(yield* repo.setReadAt(other, a.id, at(12)))).toBe(true)
        expect(Option.getOrThrow(yield* repo.setReadAt(me, a.id, null)).read_at).toBeNull()
        expect(yield* repo.unreadCount(me)).toBe(3)
        yield* repo.setReadAt(me, b.id, at(12))
        yield* repo.markAllRead(me, at(20))
        expect(yield* repo.unreadCount(me)).toBe(0)
        expect(yield* repo.unreadCount(other)).toBe(1)
        const rows = yield* repo.list(page(me))
        expect(rows.map((r) => r.read_at)).toEqual([at(20), at(12), at(20)])
        yield* repo.insert(notification(me, 30))
        expect(yield* repo.unreadCount(me)).toBe(1)
      })
    )

    test(
      "pages newest first by (created_at, id) with the cursor, and every filter",
      Effect.gen(function*() {
        const repo = yield* InboxNotificationRepo
        const me = yield* newUser
        const [x, y] = [randomUUID(), randomUUID()]
        const rows = [
          notification(me, 1, { template_id: T1, targets: [x] }),
          notification(me, 2, { template_id: T2, targets: [x, y] }),
          notification(me, 3, { template_id: T2 }),
          notification(me, 3, { template_id: T1, targets: [y], read_at: at(9) }),
          notification(me, 3, { template_id: T1, targets: [x], read_at: at(9) })
        ]
        for (const r of rows) yield* repo.insert(r)
        const ids = (f: Partial<InboxFilter>) => Effect.map(repo.list(page(me, f)), (rs) => rs.map((r) => r.id))
        const order = [...rows].sort((p, q) =>
          q.created_at.getTime() - p.created_at.getTime() || (q.id < p.id ? -1 : 1)
        )
        const expected = (keep: (r: InboxNotificationRecord) => boolean) => order.filter(keep).map((r) => r.id)
        expect(yield* ids({})).toEqual(expected(() => true))
        expect(yield* ids({ limit: 2 })).toEqual(expected(() => true).slice(0, 2))
        const third = order[2]!
        expect(yield* ids({ before: { createdAt: third.created_at, id: third.id } })).toEqual(
          expected(() => true).slice(3)
        )
        expect(yield* ids({ templates: [T1] })).toEqual(expected((r) => r.template_id === T1))
        expect(yield* ids({ templates: [T1, T2] })).toEqual(expected(() => true))
        expect(yield* ids({ templates: [T1, T2], limit: 3 })).toEqual(expected(() => true).slice(0, 3))
        expect(yield* ids({ templates: [T1, T2], before: { createdAt: third.created_at, id: third.id } })).toEqual(
          expected(() => true).slice(3)
        )
        expect(yield* ids({ targets: [x] })).toEqual(expected((r) => r.targets.includes(x)))
        expect(yield* ids({ targets: [x, y] })).toEqual(expected((r) => r.targets.includes(x) && r.targets.includes(y)))
        expect(yield* ids({ targets: [x], templates: [T2] })).toEqual(
          expected((r) => r.targets.includes(x) && r.template_id === T2)
        )
        expect(yield* ids({ targets: [x], before: { createdAt: third.created_at, id: third.id } })).toEqual(
          expected((r) => r.targets.includes(x)).filter((id) => expected(() => true).slice(3).includes(id))
        )
        expect(yield* ids({ readStatus: "read" })).toEqual(expected((r) => r.read_at !== null))
        expect(yield* ids({ readStatus: "unread" })).toEqual(expected((r) => r.read_at === null))
        expect(yield* ids({ readStatus: "unread", templates: [T1] })).toEqual(
          expected((r) => r.read_at === null && r.template_id === T1)
        )
        expect(yield* ids({ readStatus: "read", targets: [y] })).toEqual(
          expected((r) => r.read_at !== null && r.targets.includes(y))
        )
        expect(yield* ids({ templates: [randomUUID()] })).toEqual([])
      })
    )

    test(
      "the kept count equals the unread rows after concurrent inserts, read changes and mark-all",
      Effect.gen(function*() {
        const repo = yield* InboxNotificationRepo
        const sql = yield* SqlClient.SqlClient
        const me = yield* newUser
        const first = Array.from({ length: 20 }, (_, i) => notification(me, i))
        yield* Effect.forEach(first, (n) => repo.insert(n), { concurrency: "unbounded", discard: true })
        const later = Array.from({ length: 30 }, (_, i) => notification(me, 100 + i))
        yield* Effect.all([
          Effect.forEach(later, (n) => repo.insert(n), { concurrency: 5, discard: true }),
          repo.markAllRead(me, at(50)),
          Effect.forEach(first.slice(0, 5), (n) => repo.setReadAt(me, n.id, null), { concurrency: 5, discard: true }),
          repo.markAllRead(me, at(51))
        ], { concurrency: "unbounded" })
        const rows = yield* sql<
          { n: number | string }
        >`SELECT count(*) AS n FROM inbox_notifications WHERE user_id = ${me} AND read_at IS NULL`
        expect(yield* repo.unreadCount(me)).toBe(Number(rows[0]!.n))
      })
    )

    const plans: ReadonlyArray<readonly [string, Partial<InboxFilter>, string]> = [
      ["no filter", {}, "inbox_notifications_user_created"],
      ["unread", { readStatus: "unread" }, "inbox_notifications_user_unread"],
      ["read", { readStatus: "read" }, "inbox_notifications_user_read"],
      ["one template", { templates: [T1] }, "inbox_notifications_user_template"],
      [
        "two templates, unread",
        { templates: [T1, T2], readStatus: "unread" },
        "inbox_notifications_user_template_unread"
      ],
      ["a target", { targets: [T1] }, "inbox_notification_targets_user_target"],
      ["a cursor", { before: { createdAt: at(5), id: T2 } }, "inbox_notifications_user_created"]
    ]
    for (const [what, filter, index] of plans) {
      test(
        `the page (${what}) walks ${index} with no sort of the user's rows`,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [text, params] = InboxRepositories.listPage(sql, page(randomUUID(), filter)).compile()
          const plan = (yield* queryPlan(text, params, "sort")).join("\n")
          expect(plan).toContain(index)
          if (filter.templates !== undefined && filter.templates.length > 1) {
            // The merge of the probes sorts at most `limit` rows per template.
            return
          }
          if (dialect === "sqlite") expect(plan).not.toMatch(/TEMP B-TREE/)
          else expect(plan).not.toMatch(/\bSort\b/)
        })
      )
    }
  })
}
