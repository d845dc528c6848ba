/**
 * The retention purge's periodic fiber on real services over an in-memory SQLite storage,
 * with Effect's TestClock driving time: it purges at start, then once per interval.
 * (purgeOnce itself runs on both dialects in the storage suite, LogRepositorySuite.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import { AuditLogRepo, NIL_UUID, Retention } from "@workbay/core"
import { Duration, Effect, Layer } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { services } from "../services.js"

const T0 = Date.UTC(2024, 4, 6, 7, 8, 9, 123)
const DAY = 86_400_000
const HOUR = 3_600_000

/** Stores an audit entry stamped `time`. */
const entryAt = (time: number) =>
  Effect.flatMap(AuditLogRepo, (repo) =>
    repo.insert({
      id: randomUUID(),
      time: new Date(time),
      user_id: NIL_UUID,
      organization_id: NIL_UUID,
      ip: "",
      user_agent: "",
      request_id: randomUUID(),
      action: "create",
      resource_type: "user",
      resource_id: NIL_UUID,
      resource_target: "",
      resource_icon: "",
      diff: {},
      status_code: 201,
      additional_fields: {},
      description: "",
      build_reason: ""
    }))

const remaining = Effect.flatMap(AuditLogRepo, (repo) => repo.count({ limit: 1, offset: 0 }, 1000))

/** Lets forked fibers run up to their next sleep. */
const settle = Effect.repeatN(Effect.yieldNow(), 20)

describe("Retention.periodic with the TestClock", () => {
  it.scoped("purges at start and then every interval", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      yield* entryAt(T0 - 31 * DAY) // past the retention at start
      yield* entryAt(T0 - 30 * DAY + 2 * HOUR - 60_000) // past it from T0 + 1 h 59 min
      yield* entryAt(T0 - 30 * DAY + 6 * HOUR + 30 * 60_000) // past it from T0 + 6 h 30 min
      yield* entryAt(T0 - DAY) // young
      expect(yield* remaining).toBe(4)

      yield* Layer.buildWithScope(Retention.periodic({ interval: "2 hours" }), yield* Effect.scope)
      yield* settle
      expect(yield* remaining).toBe(3)

      // Past its retention from T0 + 1 h 59 min, purged by the run at T0 + 2 h.
      yield* TestClock.adjust(Duration.hours(1))
      expect(yield* remaining).toBe(3)
      yield* TestClock.adjust(Duration.hours(1))
      yield* settle
      expect(yield* remaining).toBe(2)

      // Past its retention at T0 + 6 h 30 min: the runs at 4 h and 6 h leave it, the one at 8 h takes it.
      yield* TestClock.adjust(Duration.hours(4))
      yield* settle
      expect(yield* remaining).toBe(2)
      yield* TestClock.adjust(Duration.hours(2))
      yield* settle
      expect(yield* remaining).toBe(1)
    }).pipe(Effect.provide(services({ retentionAuditLogs: Duration.days(30) }))))

  it.scoped("keeps everything when the retentions are 0", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      yield* entryAt(T0 - 3650 * DAY)
      yield* Layer.buildWithScope(Retention.periodic(), yield* Effect.scope)
      yield* settle
      yield* TestClock.adjust(Duration.hours(5))
      yield* settle
      expect(yield* remaining).toBe(1)
    }).pipe(
      Effect.provide(
        services({
          retentionAuditLogs: Duration.zero,
          retentionConnectionLogs: Duration.zero,
          retentionApiKeys: Duration.zero
        })
      )
    ))

  it.scoped("stops when its scope closes", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      yield* Effect.scoped(
        Effect.gen(function*() {
          yield* Layer.buildWithScope(Retention.periodic({ interval: "1 hour" }), yield* Effect.scope)
          yield* settle
        })
      )
      yield* entryAt(T0 - 31 * DAY)
      yield* TestClock.adjust(Duration.hours(3))
      yield* settle
      expect(yield* remaining).toBe(1)
    }).pipe(Effect.provide(services({ retentionAuditLogs: Duration.days(30) }))))
})
