/**
 * The batches of agents' reports on the real services over an in-memory SQLite storage, driven by
 * the TestClock, with the flusher running (`AgentReportBatch.periodic`): agents' stats, metadata
 * values and connection refreshes are answered at once and written at the next flush, one
 * statement per kind for all of them (statements counted through @effect/sql's spans); metadata
 * watchers hear of the flush once, by the agents it names; open sessions bump their workspaces'
 * deadlines; the 128-key rule reads an agent's keys once; closing the flusher's scope writes what
 * it held. A failing storage (a fake, in the last tests) is retried and then dropped, counted.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AGENT_METADATA_BATCH_CHANNEL,
  AgentConnectionMonitor,
  AgentMetadataWatch,
  AgentReportBatch,
  AgentReportRepo,
  type AgentReportRepo as AgentReportRepoTag,
  AgentReports,
  type AgentStats,
  type AgentStatsRow,
  PubSub,
  REPORT_FLUSH_ATTEMPTS,
  REPORT_FLUSH_ROWS,
  WORKSPACE_BATCH_CHANNEL,
  WorkspaceActivity,
  WorkspaceActivityRepo,
  Workspaces
} from "@workbay/core"
import { Chunk, Duration, Effect, Layer, Queue, Stream, Tracer } from "effect"
import * as TestClock from "effect/TestClock"
import { agentStats as statsOf } from "../insights/fixtures.js"
import { services } from "../services.js"
import { recording, serve, setupAgents } from "./connection.js"

const T0 = Date.parse("2024-01-01T08:30:00Z")
const SECOND = 1000

/**
 * Starts the flusher (its default interval, 1 s) for the rest of the test, its ticks a whole
 * number of seconds from now. Started once the clock is set: `TestClock.setTime` runs every sleep
 * up to the new time, so a flusher started at 0 would tick through the 54 years up to T0.
 */
const startFlusher = Layer.build(AgentReportBatch.periodic())

/** Runs `effect` recording the text of every statement that goes through @effect/sql (its forks' too). */
const withStatements = <A, E, R>(effect: (statements: Array<string>) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.tracer, (base) => {
    const statements: Array<string> = []
    const tracer = Tracer.make({
      span: (...args) => {
        const span = base.span(...args)
        const attribute = span.attribute.bind(span)
        span.attribute = (key, value) => {
          if (key === "db.query.text") statements.push(String(value))
          attribute(key, value)
        }
        return span
      },
      context: base.context
    })
    return Effect.withTracer(effect(statements), tracer)
  })

const count = (statements: ReadonlyArray<string>, start: RegExp) => statements.filter((s) => start.test(s)).length
const STATS_INSERT = /^\s*INSERT INTO workspace_agent_stats/
const METADATA_UPSERT = /^\s*INSERT INTO workspace_agent_metadata/
const REFRESH_UPDATE = /^\s*WITH v \(id, at, replica, latency\)/
const METADATA_READ = /^\s*SELECT key, value, error, collected_at, age FROM workspace_agent_metadata/

const statsReport = (stats: Partial<AgentStats> = {}) => ({
  type: "update_stats",
  id: 1,
  stats: { rx_bytes: 100, ...stats }
})
const metadataReport = (at: number, values: Record<string, string>) => ({
  type: "batch_update_metadata",
  id: 2,
  metadata: Object.entries(values).map(([key, value]) => ({
    key,
    result: { collected_at: new Date(at).toISOString(), age: 0, value, error: "" }
  }))
})

const storedStats = Effect.flatMap(AgentReportRepo, (r) => r.statsSince(new Date(0)))

/** Lets the fibers woken so far (the flusher, watchers) run to their next wait. */
const settle = Effect.repeatN(Effect.yieldNow(), 50)

describe("the batches of agents' reports, with the TestClock", () => {
  it.scoped("N agents' reports are answered at once, written at the next flush, one statement per kind", () =>
    withStatements((statements) =>
      Effect.gen(function*() {
        const { agents } = yield* setupAgents(T0, 5)
        yield* startFlusher
        const repo = yield* AgentReportRepo
        // Half a second off the flusher's ticks, so each step below lands between two flushes.
        yield* TestClock.adjust(Duration.millis(500))
        const connections = yield* Effect.forEach(agents, (a) => serve(a.session))
        statements.length = 0
        for (const [i, c] of connections.entries()) {
          expect(JSON.parse(yield* c.request(statsReport({ rx_bytes: 10 * (i + 1) })))).toEqual({
            id: 1,
            result: { report_interval_seconds: 30 }
          })
          expect(JSON.parse(yield* c.request(metadataReport(T0, { load: `${i}`, disk: "50%" })))).toEqual({
            id: 2,
            result: {}
          })
        }
        // Nothing written yet, but this replica reads the values it holds.
        expect(count(statements, STATS_INSERT) + count(statements, METADATA_UPSERT)).toBe(0)
        expect((yield* storedStats).rx_bytes).toBe(0)
        expect(yield* repo.listMetadata(agents[0]!.session.agent.id)).toEqual([])
        const reports = yield* AgentReports
        expect((yield* reports.metadata(agents[0]!.session.agent.id)).map((m) => [m.key, m.value])).toEqual([
          ["disk", "50%"],
          ["load", "0"]
        ])
        yield* TestClock.adjust(Duration.millis(499))
        expect((yield* storedStats).rx_bytes).toBe(0)
        // The flush: all five agents' stats in one INSERT, their ten values in one upsert.
        yield* TestClock.adjust(Duration.millis(1))
        expect((yield* storedStats).rx_bytes).toBe(150)
        expect(count(statements, STATS_INSERT)).toBe(1)
        expect(count(statements, METADATA_UPSERT)).toBe(1)
        for (const [i, a] of agents.entries()) {
          expect((yield* repo.listMetadata(a.session.agent.id)).map((m) => m.value)).toEqual(["50%", `${i}`])
        }
        // The connections' refreshes, each within 15 s of its open and then every 15 s, spread over
        // the period (Slots.ts), wait for the flush after them: at most one UPDATE a flush.
        expect(count(statements, REFRESH_UPDATE)).toBe(0)
        yield* TestClock.adjust(Duration.millis(15_000))
        const refreshes = count(statements, REFRESH_UPDATE)
        expect(refreshes).toBeGreaterThanOrEqual(1)
        expect(refreshes).toBeLessThanOrEqual(5)
        yield* TestClock.adjust(Duration.millis(15_000))
        expect(count(statements, REFRESH_UPDATE)).toBe(2 * refreshes)
        // Once the connections closed, flushes with nothing to write write nothing.
        for (const c of connections) yield* c.end
        yield* TestClock.adjust(Duration.seconds(2))
        const before = statements.length
        yield* TestClock.adjust(Duration.seconds(5))
        expect(statements.length).toBe(before)
      })
    ).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("metadata watchers hear of a flush once, and only the watchers of the agents it wrote", () =>
    Effect.gen(function*() {
      const { agents, as } = yield* setupAgents(T0, 3)
      yield* startFlusher
      const [a, b, c] = agents.map((x) => x.session)
      yield* TestClock.adjust(Duration.millis(500))
      const pubsub = yield* PubSub
      const signals = yield* pubsub.subscribe(AGENT_METADATA_BATCH_CHANNEL)
      const watch = (agentId: string) =>
        Effect.gen(function*() {
          const stream = yield* as(Effect.flatMap(AgentMetadataWatch, (w) => w.watch(agentId)))
          const lists = yield* Queue.unbounded<string>()
          yield* Effect.forkScoped(Stream.runForEach(stream, (l) => Queue.offer(lists, l)))
          // The list at once.
          yield* Queue.take(lists)
          return lists
        })
      const watchA = yield* watch(a!.agent.id)
      const watchC = yield* watch(c!.agent.id)
      const reports = yield* AgentReports
      const at = new Date(T0)
      const update = (values: Record<string, string>) => ({
        metadata: Object.entries(values).map(([key, value]) => ({
          key,
          result: { collected_at: at, age: 0, value, error: "" }
        }))
      })
      yield* reports.batchUpdateMetadata(a!, update({ load: "1" }))
      yield* reports.batchUpdateMetadata(a!, update({ load: "2" }))
      yield* reports.batchUpdateMetadata(b!, update({ load: "9" }))
      yield* Effect.yieldNow()
      expect(Chunk.size(yield* Queue.takeAll(watchA))).toBe(0)
      expect(Chunk.size(yield* Queue.takeAll(signals))).toBe(0)
      yield* TestClock.adjust(Duration.millis(500))
      // One signal names both agents; a's watcher gets the last value, c's nothing.
      const sent = Chunk.toArray(yield* Queue.takeAll(signals))
      expect(sent).toHaveLength(1)
      expect(sent[0]!.split(" ").sort()).toEqual(
        [a!.agent.id, b!.agent.id].map((id) => id.replaceAll("-", "")).sort()
      )
      const list = yield* Queue.take(watchA)
      expect(JSON.parse(list).map((m: any) => [m.description.key, m.result.value])).toEqual([["load", "2"]])
      yield* settle
      expect(Chunk.size(yield* Queue.takeAll(watchA))).toBe(0)
      expect(Chunk.size(yield* Queue.takeAll(watchC))).toBe(0)
      // A flush with no metadata publishes nothing.
      yield* TestClock.adjust(Duration.seconds(3))
      expect(Chunk.size(yield* Queue.takeAll(signals))).toBe(0)
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("open sessions bump the workspace's deadline and last use at the flush; reports without do not", () =>
    Effect.gen(function*() {
      const hour = 3_600_000
      const { agents, as } = yield* setupAgents(T0, 2, { ttlMs: hour })
      yield* startFlusher
      const [used, idle] = agents
      const workspace = (id: string) => as(Effect.flatMap(Workspaces, (w) => w.get(id)))
      const before = yield* workspace(used!.workspaceId)
      const ms = (t: Date | string | undefined | null) => (t === undefined || t === null ? null : new Date(t).getTime())
      expect(ms(before.latest_build.deadline)).toBe(T0 + hour)
      const pubsub = yield* PubSub
      const signals = yield* pubsub.subscribe(WORKSPACE_BATCH_CHANNEL)
      // Ten minutes on (past the 5% of the bump that must elapse), half a second off the flushes.
      yield* TestClock.adjust(Duration.millis(10 * 60_000 + 500))
      const reports = yield* AgentReports
      const stats = (ssh: number) => ({ stats: statsOf({ session_count_ssh: ssh }) })
      yield* reports.updateStats(used!.session, stats(2))
      yield* reports.updateStats(idle!.session, stats(0))
      expect(ms((yield* workspace(used!.workspaceId)).latest_build.deadline)).toBe(T0 + hour)
      yield* TestClock.adjust(Duration.millis(500))
      const flushedAt = T0 + 10 * 60_000 + SECOND
      const after = yield* workspace(used!.workspaceId)
      expect(ms(after.latest_build.deadline)).toBe(flushedAt + hour)
      expect(ms(after.last_used_at)).toBe(flushedAt)
      const untouched = yield* workspace(idle!.workspaceId)
      expect(ms(untouched.latest_build.deadline)).toBe(T0 + hour)
      expect(ms(untouched.last_used_at)).toBe(T0)
      // One signal names the bumped workspace.
      expect(Chunk.toArray(yield* Queue.takeAll(signals))).toEqual([used!.workspaceId.replaceAll("-", "")])
      // Within the next 5% of the bump: last use moves, the deadline does not.
      yield* TestClock.adjust(Duration.millis(60_000))
      yield* reports.updateStats(used!.session, stats(1))
      yield* TestClock.adjust(Duration.seconds(1))
      const later = yield* workspace(used!.workspaceId)
      expect(ms(later.latest_build.deadline)).toBe(flushedAt + hour)
      expect(ms(later.last_used_at)).toBe(flushedAt + 61 * SECOND)
      expect(Chunk.size(yield* Queue.takeAll(signals))).toBe(0)
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("the 128-key rule reads the agent's keys once per connection, and counts the keys not yet written", () =>
    withStatements((statements) =>
      Effect.gen(function*() {
        const { agents } = yield* setupAgents(T0, 1)
        yield* startFlusher
        const session = agents[0]!.session
        const reports = yield* AgentReports
        const keys = (from: number, n: number) =>
          Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${from + i}`, "v"]))
        const update = (values: Record<string, string>) => ({
          metadata: Object.entries(values).map(([key, value]) => ({
            key,
            result: { collected_at: new Date(T0), age: 0, value, error: "" }
          }))
        })
        statements.length = 0
        yield* reports.batchUpdateMetadata(session, update(keys(0, 100)))
        yield* TestClock.adjust(Duration.seconds(1))
        // 100 written, 27 held here: one more than 128 is refused, known keys are not.
        yield* reports.batchUpdateMetadata(session, update(keys(100, 27)))
        yield* reports.batchUpdateMetadata(session, update(keys(127, 1)))
        const refused = yield* Effect.flip(reports.batchUpdateMetadata(session, update(keys(128, 1))))
        expect(refused.message).toBe("Too many metadata keys.")
        expect(refused.detail).toContain("it holds 128 and this adds 1")
        yield* reports.batchUpdateMetadata(session, update(keys(0, 128)))
        expect(count(statements, METADATA_READ)).toBe(1)
        // A new connection reads them again, written and held alike.
        yield* reports.disconnected(session)
        yield* Effect.flip(reports.batchUpdateMetadata(session, update(keys(200, 1))))
        expect(count(statements, METADATA_READ)).toBe(2)
      })
    ).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("the connection monitor's sweep writes its replica's refreshes first: a live agent is never swept", () =>
    Effect.gen(function*() {
      const { agents } = yield* setupAgents(T0, 1)
      const { session } = agents[0]!
      const batch = yield* AgentReportBatch
      // Batching on, no flusher: the refreshes wait in memory until something flushes.
      yield* batch.attach
      const connection = yield* serve(session)
      yield* TestClock.adjust(Duration.seconds(31))
      const lastConnected = Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<
            { last_connected_at: string }
          >`SELECT last_connected_at FROM workspace_agents WHERE id = ${session.agent.id}`
      )
        .pipe(Effect.map(([r]) => new Date(r!.last_connected_at).getTime()))
      // As stored, the agent looks gone for 31 s.
      expect(yield* lastConnected).toBe(T0)
      const sweep = yield* Effect.flatMap(AgentConnectionMonitor, (m) => m.sweep)
      expect(sweep.disconnected).toEqual([])
      expect(yield* lastConnected).toBe(T0 + 30 * SECOND)
      yield* connection.end
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("closing the flusher's scope writes what it held; afterwards each report is written at once", () =>
    Effect.gen(function*() {
      const { agents } = yield* setupAgents(T0, 2)
      const reports = yield* AgentReports
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Layer.build(AgentReportBatch.periodic({ interval: Duration.minutes(10) }))
        for (const a of agents) yield* reports.updateStats(a.session, { stats: statsOf({ rx_bytes: 7 }) })
        yield* TestClock.adjust(Duration.seconds(30))
        expect((yield* storedStats).rx_bytes).toBe(0)
      }))
      expect((yield* storedStats).rx_bytes).toBe(14)
      yield* reports.updateStats(agents[0]!.session, { stats: statsOf({ rx_bytes: 1 }) })
      expect((yield* storedStats).rx_bytes).toBe(15)
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped(`a kind holding ${REPORT_FLUSH_ROWS} rows is flushed before its time, in one statement`, () =>
    withStatements((statements) =>
      Effect.gen(function*() {
        const { agents } = yield* setupAgents(T0, 1)
        yield* startFlusher
        const { session } = agents[0]!
        const batch = yield* AgentReportBatch
        yield* TestClock.adjust(Duration.millis(500))
        statements.length = 0
        for (let i = 0; i < REPORT_FLUSH_ROWS; i++) {
          yield* batch.addStats(session.agent.id, session.workspace.id, statsOf({ rx_bytes: 1 }), new Date(T0))
        }
        yield* settle
        expect((yield* storedStats).rx_bytes).toBe(REPORT_FLUSH_ROWS)
        expect(count(statements, STATS_INSERT)).toBe(1)
      })
    ).pipe(Effect.provide(services({}, [recording]))))

  it.scoped(`a flush writes at most ${REPORT_FLUSH_ROWS} rows a statement`, () =>
    withStatements((statements) =>
      Effect.gen(function*() {
        const { agents } = yield* setupAgents(T0, 1)
        const { session } = agents[0]!
        const batch = yield* AgentReportBatch
        // Batching on, no flusher: only the explicit flush writes.
        yield* batch.attach
        statements.length = 0
        for (let i = 0; i < 2 * REPORT_FLUSH_ROWS + 2; i++) {
          yield* batch.addStats(session.agent.id, session.workspace.id, statsOf({ rx_bytes: 1 }), new Date(T0))
        }
        expect((yield* storedStats).rx_bytes).toBe(0)
        expect(yield* batch.flush).toEqual({ stats: 2 * REPORT_FLUSH_ROWS + 2, metadata: 0, refreshes: 0, bumped: [] })
        expect((yield* storedStats).rx_bytes).toBe(2 * REPORT_FLUSH_ROWS + 2)
        expect(count(statements, STATS_INSERT)).toBe(3)
      })
    ).pipe(Effect.provide(services({}, [recording]))))
})

describe("a failing flush (a fake storage)", () => {
  const failing = (failures: { n: number }, written: Array<number>) =>
    AgentReportBatch.Default.pipe(
      Layer.provide(WorkspaceActivity.Default),
      Layer.provide(Layer.mergeAll(
        PubSub.memory,
        Layer.succeed(WorkspaceActivityRepo, {
          candidates: () => Effect.succeed([]),
          recordUse: () => Effect.succeed([])
        }),
        Layer.succeed(
          AgentReportRepo,
          {
            insertStatsMany: (rows: ReadonlyArray<AgentStatsRow>) =>
              failures.n-- > 0 ?
                Effect.die(new Error("the database is gone")) :
                Effect.sync(() => void written.push(rows.length)),
            putMetadataMany: () => Effect.void,
            refreshMany: () => Effect.void
          } as unknown as AgentReportRepoTag["Type"]
        )
      ))
    )

  it.scoped("keeps the rows for the next flushes, then drops them counted; the flusher carries on", () =>
    Effect.gen(function*() {
      const written: Array<number> = []
      const failures = { n: 1 }
      yield* Effect.gen(function*() {
        const batch = yield* AgentReportBatch
        yield* startFlusher
        yield* batch.addStats("a", "w", statsOf({}), new Date(T0))
        // The first try fails: kept, and written by the next flush.
        yield* TestClock.adjust(Duration.seconds(1))
        expect(written).toEqual([])
        yield* TestClock.adjust(Duration.seconds(1))
        expect(written).toEqual([1])
        // Failing for good: dropped after its tries, counted; later rows are written.
        failures.n = REPORT_FLUSH_ATTEMPTS
        yield* batch.addStats("a", "w", statsOf({}), new Date(T0))
        yield* batch.addStats("b", "w", statsOf({}), new Date(T0))
        yield* TestClock.adjust(Duration.seconds(REPORT_FLUSH_ATTEMPTS + 2))
        expect(written).toEqual([1])
        const counts = yield* batch.counts
        expect(counts.dropped.stats).toBe(2)
        expect(counts.written.stats).toBe(1)
        yield* batch.addStats("c", "w", statsOf({}), new Date(T0))
        yield* TestClock.adjust(Duration.seconds(1))
        expect(written).toEqual([1, 1])
      }).pipe(Effect.provide(failing(failures, written)))
    }))

  it.effect("without a flusher, a failed write is kept for the next report's", () =>
    Effect.gen(function*() {
      const written: Array<number> = []
      yield* Effect.gen(function*() {
        const batch = yield* AgentReportBatch
        yield* batch.addStats("a", "w", statsOf({}), new Date(T0))
        expect(written).toEqual([])
        yield* batch.addStats("b", "w", statsOf({}), new Date(T0))
        expect(written).toEqual([2])
        expect((yield* batch.counts).written.stats).toBe(2)
      }).pipe(Effect.provide(failing({ n: 1 }, written)))
    }))
})
