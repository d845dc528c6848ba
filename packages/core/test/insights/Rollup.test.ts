/**
 * The insights rollup on real services over an in-memory SQLite storage, with Effect's TestClock
 * driving time: it folds the hours from the oldest raw report on its first pass, then only the
 * hour in progress; it runs once per tick (a second runner in the same tick skips); the periodic
 * layer runs a pass per interval. (The folding itself runs on both dialects in the storage suite.)
 */
import { describe, expect, it } from "@effect/vitest"
import { AgentReportRepo, Insights, InsightsRepo, InsightsRollup, insightsRollupPeriodic } from "@workbay/core"
import { Duration, Effect, Layer, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { services, signedInOwner } from "../services.js"
import { agentStats } from "./fixtures.js"

const HOUR = 3_600_000
const T0 = Date.UTC(2024, 4, 6, 10, 20)

const settle = Effect.repeatN(Effect.yieldNow(), 20)

const stats = agentStats({ connection_count: 1, connection_median_latency_ms: 5, session_count_ssh: 1 })

describe("InsightsRollup with the TestClock", () => {
  it.scoped("folds from the oldest raw report, then once per tick", () =>
    Effect.gen(function*() {
      const { userId } = yield* signedInOwner(T0)
      yield* Effect.flatMap(AgentReportRepo, (r) =>
        r.insertStats(randomUUID(), randomUUID(), stats, new Date(T0 - 2 * HOUR)))
      const rollup = yield* InsightsRollup
      const first = yield* rollup.pass("5 minutes")
      // The owner's status was recorded with the owner, by the user repository: the pass finds no change.
      expect(first).toMatchObject({ ran: true, hours: 3, statusChanges: 0 })
      // Another runner in the same tick finds the pass done.
      expect((yield* rollup.pass("5 minutes")).ran).toBe(false)
      yield* TestClock.adjust(Duration.minutes(5))
      expect(yield* rollup.pass("5 minutes")).toMatchObject({ ran: true, hours: 1, statusChanges: 0 })
      const state = Option.getOrThrow(
        yield* Effect.flatMap(InsightsRepo, (r) =>
          r.state)
      )
      expect(state.watermark.getTime()).toBe(T0 - (T0 % HOUR))
      const changes = yield* Effect.flatMap(InsightsRepo, (r) => r.statusChanges(new Date(T0 + HOUR)))
      expect(changes.map((c) => [c.user_id, c.status])).toEqual([[userId, "active"]])
    }).pipe(Effect.provide(services())))

  it.scoped("the periodic layer runs a pass every interval", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const ranAt = Effect.map(Effect.flatMap(InsightsRepo, (r) => r.state), (s) =>
        Option.map(s, (x) => x.ran_at.getTime()))
      yield* Layer.buildWithScope(insightsRollupPeriodic({ interval: "10 minutes" }), yield* Effect.scope)
      yield* settle
      expect(yield* ranAt).toEqual(Option.some(T0))
      yield* TestClock.adjust(Duration.minutes(10))
      yield* settle
      expect(yield* ranAt).toEqual(Option.some(T0 + 10 * 60_000))
    }).pipe(Effect.provide(services())))

  it.scoped("reports answer 400 for a bad range before reading", () =>
    Effect.gen(function*() {
      const { as } = yield* signedInOwner(T0)
      const insights = yield* Insights
      const bad = yield* Effect.flip(
        as(insights.userActivity({ start_time: "2024-05-01T03:00:00Z", end_time: "2024-05-02T00:00:00Z" }))
      )
      expect(bad._tag).toBe("BadRequest")
      const ok = yield* as(
        insights.userActivity({ start_time: "2024-05-01T00:00:00Z", end_time: "2024-05-06T11:00:00Z" })
      )
      expect(ok.report.users).toEqual([])
    }).pipe(Effect.provide(services())))
})
