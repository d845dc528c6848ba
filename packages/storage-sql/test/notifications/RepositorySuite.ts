/**
 * The notifications repository contract, run against every storage: method overrides set and
 * removed, preferences stored with `updated_at` moving only on a change, `site_configs`, the
 * once-a-day dedupe, and the lease: oldest first, at most `count`, retries only when due and
 * under the attempts, an expired lease taken again, outcomes only under the lease they end,
 * leases handed back (a stopping notifier), payloads replaced by an outcome (secrets dropped).
 * Every test gets a fresh, migrated database.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type NewNotificationMessage, NotificationRepo, UserRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { type StorageFactory, type SuiteOptions, user } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10)
const at = (seconds: number) => new Date(T0 + seconds * 1000)
const TEMPLATE = "c425f63e-716a-4bf4-ae24-78348f706c3f"

const message = (userId: string, seconds: number, hash: string = randomUUID()): NewNotificationMessage => ({
  id: randomUUID(),
  template_id: TEMPLATE,
  user_id: userId,
  method: "webhook",
  created_by: "test",
  payload: {
    _version: "1.2",
    notification_name: "Test Notification",
    notification_template_id: TEMPLATE,
    user_id: userId,
    user_email: "a@example.com",
    user_name: "A",
    user_username: "a",
    labels: { n: String(seconds) },
    data: null,
    targets: null
  },
  targets: ["11111111-1111-4111-8111-111111111111"],
  created_at: at(seconds),
  dedupe_hash: hash
})

const someone = Effect.gen(function*() {
  const u = user(`n${randomUUID().slice(0, 8)}`)
  yield* Effect.flatMap(UserRepo, (r) => r.insert(u))
  return u.id
})

export const notificationRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`notification repositories on ${name}`, () => {
    test(
      "method overrides, preferences and site configs",
      Effect.gen(function*() {
        const repo = yield* NotificationRepo
        yield* repo.setTemplateMethod(TEMPLATE, "webhook")
        yield* repo.setTemplateMethod(TEMPLATE, "inbox")
        expect([...(yield* repo.templateMethods)]).toEqual([[TEMPLATE, "inbox"]])
        yield* repo.setTemplateMethod(TEMPLATE, null)
        expect((yield* repo.templateMethods).size).toBe(0)

        const userId = yield* someone
        expect(yield* repo.setPreferences(userId, [{ templateId: TEMPLATE, disabled: true }], at(0))).toBe(1)
        // The same value again changes nothing, not even updated_at.
        expect(yield* repo.setPreferences(userId, [{ templateId: TEMPLATE, disabled: true }], at(10))).toBe(0)
        expect((yield* repo.preferences(userId)).map((p) => [p.disabled, p.updated_at.toISOString()])).toEqual([[
          true,
          at(0).toISOString()
        ]])
        expect(yield* repo.setPreferences(userId, [{ templateId: TEMPLATE, disabled: false }], at(20))).toBe(1)
        expect(
          (yield* repo.preferences(userId)).map((
            p
          ) => [p.disabled, p.created_at.toISOString(), p.updated_at.toISOString()])
        )
          .toEqual([[false, at(0).toISOString(), at(20).toISOString()]])

        expect(yield* repo.siteConfig("notifier_paused")).toEqual(Option.none())
        yield* repo.setSiteConfig("notifier_paused", "true")
        yield* repo.setSiteConfig("notifier_paused", "false")
        expect(yield* repo.siteConfig("notifier_paused")).toEqual(Option.some("false"))
      })
    )

    test(
      "stores a message once per dedupe hash, and reads it back whole",
      Effect.gen(function*() {
        const repo = yield* NotificationRepo
        const userId = yield* someone
        const m = message(userId, 0, "same")
        expect(yield* repo.enqueue(m)).toBe(true)
        expect(yield* repo.enqueue({ ...message(userId, 1, "same") })).toBe(false)
        const stored = Option.getOrThrow(yield* repo.findMessage(m.id))
        expect(stored).toMatchObject({
          ...m,
          status: "pending",
          status_reason: "",
          attempt_count: 0,
          leased_until: null,
          next_retry_after: null,
          sent_at: null
        })
        expect(stored.created_at.toISOString()).toBe(m.created_at.toISOString())
      })
    )

    test(
      "leases oldest first, at most count; retries when due and under the attempts; takes expired leases again",
      Effect.gen(function*() {
        const repo = yield* NotificationRepo
        const userId = yield* someone
        const ms = [message(userId, 3), message(userId, 1), message(userId, 2)]
        for (const m of ms) yield* repo.enqueue(m)
        const lease = (seconds: number, count = 10) =>
          repo.lease({ now: at(seconds), leasedUntil: at(seconds + 60), count, maxAttempts: 2 })
        const first = yield* lease(10, 2)
        expect(first.map((m) => m.id)).toEqual([ms[1]!.id, ms[2]!.id])
        expect(first.every((m) => m.status === "leased" && m.leased_until?.toISOString() === at(70).toISOString()))
          .toBe(true)
        // One sent, one failed (retry at 100 s); the third leased now.
        expect(yield* repo.markSent(ms[1]!.id, at(70), at(11))).toBe(true)
        expect(yield* repo.markFailed(ms[2]!.id, at(70), "down", at(100), at(11))).toBe(true)
        expect((yield* lease(12)).map((m) => m.id)).toEqual([ms[0]!.id])
        // Not due yet; then due.
        expect(yield* lease(50)).toEqual([])
        // At 100 s the retry is due, and the third's lease (until 72 s) ran out: both, oldest first.
        const retried = yield* lease(100)
        expect(retried.map((m) => [m.id, m.attempt_count])).toEqual([[ms[2]!.id, 1], [ms[0]!.id, 0]])
        // A second failure reaches max attempts (2): failed for good, never leased again.
        expect(yield* repo.markFailed(ms[2]!.id, at(160), "down", null, at(101))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findMessage(ms[2]!.id))).toMatchObject({
          status: "permanent_failure",
          attempt_count: 2
        })
        // A late outcome under the third's old lease is refused; under the new one it counts.
        expect(yield* repo.markSent(ms[0]!.id, at(72), at(101))).toBe(false)
        expect(yield* repo.markSent(ms[0]!.id, at(160), at(101))).toBe(true)
        expect(yield* lease(1000)).toEqual([])
        expect((yield* repo.messagesOf(userId)).map((m) => m.status).sort()).toEqual([
          "permanent_failure",
          "sent",
          "sent"
        ])
      })
    )

    test(
      "hands leased messages back to pending, only under their lease; an outcome may replace the payload",
      Effect.gen(function*() {
        const repo = yield* NotificationRepo
        const userId = yield* someone
        const ms = [message(userId, 1), message(userId, 2)]
        for (const m of ms) yield* repo.enqueue(m)
        const leased = yield* repo.lease({ now: at(10), leasedUntil: at(70), count: 10, maxAttempts: 2 })
        expect(leased).toHaveLength(2)
        // Another lease's release touches nothing; this lease's hands both back, attempts unchanged.
        expect(yield* repo.release(ms.map((m) => m.id), at(71), at(11))).toBe(0)
        expect(yield* repo.release(ms.map((m) => m.id), at(70), at(11))).toBe(2)
        for (const m of yield* repo.messagesOf(userId)) {
          expect(m).toMatchObject({ status: "pending", leased_until: null, attempt_count: 0 })
        }
        expect(yield* repo.release([], at(70), at(11))).toBe(0)
        const again = yield* repo.lease({ now: at(12), leasedUntil: at(80), count: 10, maxAttempts: 2 })
        const scrubbed = { ...again[0]!.payload, labels: { n: "[REDACTED]" } }
        expect(yield* repo.markSent(again[0]!.id, at(80), at(13), scrubbed)).toBe(true)
        expect(Option.getOrThrow(yield* repo.findMessage(again[0]!.id)).payload.labels).toEqual({ n: "[REDACTED]" })
        expect(yield* repo.markSent(again[1]!.id, at(80), at(13))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findMessage(again[1]!.id)).payload.labels).toEqual(
          again[1]!.payload.labels
        )
      })
    )
  })
}
