/**
 * The agent connection's state on the real services over an in-memory SQLite storage, driven by
 * the TestClock: opening marks the agent connected, the open connection refreshes
 * `last_connected_at` once per period (never per heartbeat), closing marks it disconnected, and
 * the monitor marks an agent whose connection vanished without a close once it is overdue (not
 * before), and deletes stats past their retention.
 */
import { describe, expect, it } from "@effect/vitest"
import { AgentConnectionMonitor, AgentReportRepo, AgentReports, Agents, StatsUpdate } from "@workbay/core"
import { Duration, Effect, Schema } from "effect"
import * as TestClock from "effect/TestClock"
import { STATS_RETENTION_HOURS } from "../../src/agents/Reports.js"
import {
  AGENT_CONNECTION_UPDATE_SECONDS,
  AGENT_INACTIVE_DISCONNECT_SECONDS
} from "../../src/workspaces/WorkspaceWire.js"
import { services } from "../services.js"
import { recording, serve, setupAgent, setupAgents } from "./connection.js"

const T0 = Date.parse("2024-01-01T08:30:00Z")

const setup = setupAgent(T0)

const iso = (ms: number) => new Date(ms).toISOString()

describe("the agent connection's state, with the TestClock", () => {
  it.scoped("opening, refreshing once per period, closing", () =>
    Effect.gen(function*() {
      const { session, record } = yield* setup
      expect((yield* record).status).toBe("connecting")
      const connection = yield* serve(session)
      expect(JSON.parse(yield* connection.request({ type: "ping", id: 1 }))).toEqual({ id: 1, result: {} })
      const open = yield* record
      expect(open.status).toBe("connected")
      expect(open.first_connected_at?.toISOString()).toBe(iso(T0))
      expect(open.last_connected_at?.toISOString()).toBe(iso(T0))
      // Heartbeats within the period write nothing.
      yield* TestClock.adjust(Duration.seconds(AGENT_CONNECTION_UPDATE_SECONDS - 1))
      for (let i = 0; i < 5; i++) yield* connection.request({ type: "heartbeat", id: i })
      expect((yield* record).last_connected_at?.toISOString()).toBe(iso(T0))
      // The period passed: one refresh.
      yield* TestClock.adjust(Duration.seconds(1))
      expect((yield* record).last_connected_at?.toISOString()).toBe(iso(T0 + AGENT_CONNECTION_UPDATE_SECONDS * 1000))
      // An open connection outlives the inactivity limit: its refreshes keep it connected.
      yield* TestClock.adjust(Duration.seconds(AGENT_INACTIVE_DISCONNECT_SECONDS * 3))
      const later = yield* record
      expect(later.status).toBe("connected")
      expect(later.first_connected_at?.toISOString()).toBe(iso(T0))
      expect((yield* Effect.flatMap(AgentConnectionMonitor, (m) => m.sweep)).disconnected).toEqual([])
      yield* TestClock.adjust(Duration.seconds(1))
      yield* connection.end
      const closed = yield* record
      expect(closed.status).toBe("disconnected")
      expect(closed.disconnected_at?.getTime()).toBe(
        T0 + AGENT_CONNECTION_UPDATE_SECONDS * 1000 + AGENT_INACTIVE_DISCONNECT_SECONDS * 3000 + 1000
      )
      expect(closed.health).toEqual({ healthy: false, reason: "agent has lost connection" })
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("connections share one refresher: each refreshed within a period of opening, then every period; none once all closed", () =>
    Effect.gen(function*() {
      const { agents, as } = yield* setupAgents(T0, 2)
      const record = (i: number) =>
        as(Effect.flatMap(Agents, (a) => a.get(agents[i]!.session.agent.id))).pipe(
          Effect.map((r) => r.last_connected_at?.getTime())
        )
      const first = yield* serve(agents[0]!.session)
      yield* first.request({ type: "ping", id: 1 })
      // The second opens 5 s later, in another slot of the period (Slots.ts): each is refreshed
      // within a period of opening, then every period.
      yield* TestClock.adjust(Duration.seconds(5))
      const second = yield* serve(agents[1]!.session)
      yield* second.request({ type: "ping", id: 1 })
      expect(yield* record(1)).toBe(T0 + 5_000)
      const period = AGENT_CONNECTION_UPDATE_SECONDS * 1000
      yield* TestClock.adjust(Duration.millis(period))
      expect(yield* record(0)).toBe(T0 + period)
      const refreshed = (yield* record(1))!
      expect(refreshed).toBeGreaterThan(T0 + 5_000)
      expect(refreshed).toBeLessThanOrEqual(T0 + 5_000 + period)
      // The first closes; the second is still refreshed every period.
      yield* first.end
      yield* TestClock.adjust(Duration.seconds(AGENT_CONNECTION_UPDATE_SECONDS))
      expect(yield* record(1)).toBe(refreshed + period)
      yield* TestClock.adjust(Duration.seconds(1))
      yield* second.end
      // None open: no refresh reopens a closed connection.
      yield* TestClock.adjust(Duration.seconds(AGENT_CONNECTION_UPDATE_SECONDS * 2))
      expect(yield* record(1)).toBe(refreshed + period)
      expect((yield* as(Effect.flatMap(Agents, (a) => a.get(agents[1]!.session.agent.id)))).status).toBe(
        "disconnected"
      )
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("the latency: the first round trip at once, later ones with each refresh, none once closed", () =>
    Effect.gen(function*() {
      const { session, record } = yield* setup
      const connection = yield* serve(session)
      yield* connection.request({ type: "ping", id: 1 })
      expect((yield* record).latency).toBeUndefined()
      yield* connection.roundTrip(1.5)
      yield* connection.request({ type: "ping", id: 2 })
      expect((yield* record).latency).toEqual({ "Coder Embedded Relay": { preferred: true, latency_ms: 1.5 } })
      // A later round trip is written with the next refresh, not at once.
      yield* connection.roundTrip(7.25)
      yield* connection.request({ type: "ping", id: 3 })
      expect((yield* record).latency?.["Coder Embedded Relay"]?.latency_ms).toBe(1.5)
      yield* TestClock.adjust(Duration.seconds(AGENT_CONNECTION_UPDATE_SECONDS))
      expect((yield* record).latency?.["Coder Embedded Relay"]?.latency_ms).toBe(7.25)
      yield* connection.end
      expect((yield* record).latency).toBeUndefined()
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("a connection that vanished without a close is marked disconnected by the monitor once overdue, not before", () =>
    Effect.gen(function*() {
      const { session, record } = yield* setup
      const reports = yield* AgentReports
      const monitor = yield* AgentConnectionMonitor
      // Opened, then gone without a close (the process died): nothing marks it but the monitor.
      yield* reports.connected(session)
      yield* TestClock.adjust(Duration.seconds(AGENT_INACTIVE_DISCONNECT_SECONDS))
      const early = yield* monitor.sweep
      expect(early).toEqual({ ran: true, disconnected: [], purgedStats: 0 })
      expect((yield* record).status).toBe("connected")
      yield* TestClock.adjust(Duration.seconds(1))
      // Overdue: the status already says so, and the sweep writes it.
      expect((yield* record).status).toBe("disconnected")
      expect((yield* record).disconnected_at).toBeUndefined()
      const due = yield* monitor.sweep
      expect(due.disconnected).toEqual([session.agent.id])
      expect((yield* record).disconnected_at?.getTime()).toBe(T0 + (AGENT_INACTIVE_DISCONNECT_SECONDS + 1) * 1000)
      // Once marked, it is not marked again.
      expect((yield* monitor.sweep).disconnected).toEqual([])
      // A reconnection makes it connected again.
      yield* reports.connected(session)
      expect((yield* record).status).toBe("connected")
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("the monitor deletes stats reports past their retention", () =>
    Effect.gen(function*() {
      const { session } = yield* setup
      const reports = yield* AgentReports
      const repo = yield* AgentReportRepo
      const stats = Schema.decodeUnknownSync(StatsUpdate)({
        stats: { rx_bytes: 10, tx_bytes: 5, connection_median_latency_ms: 3 }
      })
      yield* reports.updateStats(session, stats)
      yield* TestClock.adjust(Duration.hours(STATS_RETENTION_HOURS - 1))
      yield* reports.updateStats(session, stats)
      yield* TestClock.adjust(Duration.hours(1))
      yield* TestClock.adjust(Duration.millis(1))
      expect((yield* Effect.flatMap(AgentConnectionMonitor, (m) => m.sweep)).purgedStats).toBe(1)
      const left = yield* repo.statsSince(new Date(0))
      expect(left.rx_bytes).toBe(10)
    }).pipe(Effect.provide(services({}, [recording]))))
})
