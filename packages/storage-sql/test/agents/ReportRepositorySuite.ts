/**
 * The agent report repository contract, run against every storage: connection times and the open
 * flag (the first connection kept, refreshes, closes), the sweep of overdue open agents (re-checked
 * at the update, each once, with their workspace), lifecycle times, startup, script results,
 * metadata upserts by key, stats sums with the latest sessions per agent, and the stats purge in
 * batches. Builds' rows are written directly. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { AgentReportRepo, type AgentStats } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { workspaceRows } from "../workspaces/PortShareRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T = new Date(Date.UTC(2024, 6, 1, 10)).toISOString()
const at = (seconds: number) => new Date(Date.UTC(2024, 6, 1, 10) + seconds * 1000)

/** A workspace with a build whose resource has `n` agents; their ids (also for other agent suites). */
export const agentRows = (n: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ws = yield* workspaceRows
    const job = randomUUID()
    const resource = randomUUID()
    yield* sql`INSERT INTO provisioner_jobs (id, created_at, updated_at, organization_id, initiator_id, provisioner, type, file_id)
      VALUES (${job}, ${T}, ${T}, ${ws.org}, ${ws.user}, 'workbay', 'workspace_build', ${randomUUID()})`
    yield* sql`INSERT INTO workspace_builds (id, created_at, updated_at, workspace_id, template_version_id, build_number, transition, initiator_id, job_id)
      VALUES (${randomUUID()}, ${T}, ${T}, ${ws.workspace}, ${ws.version}, 1, 'start', ${ws.user}, ${job})`
    yield* sql`INSERT INTO workspace_resources (id, created_at, job_id, transition, type, name)
      VALUES (${resource}, ${T}, ${job}, 'start', 'machine', 'box')`
    const agents: Array<string> = []
    for (let i = 0; i < n; i++) {
      const id = randomUUID()
      agents.push(id)
      yield* sql`INSERT INTO workspace_agents (id, created_at, updated_at, resource_id, name, auth_token_hash)
        VALUES (${id}, ${T}, ${T}, ${resource}, ${`agent${i}`}, ${randomUUID()})`
    }
    return { workspace: ws.workspace, agents }
  }).pipe(Effect.orDie)

const agentRow = (id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<Record<string, unknown>>`SELECT * FROM workspace_agents WHERE id = ${id}`
  ).pipe(
    Effect.map((rows) => rows[0]!),
    Effect.orDie
  )
const time = (v: unknown) => (v === null ? null : new Date(v as string).toISOString())

const stats = (overrides: Partial<AgentStats>): AgentStats => ({
  connections_by_proto: {},
  connection_count: 0,
  connection_median_latency_ms: 0,
  rx_packets: 0,
  rx_bytes: 0,
  tx_packets: 0,
  tx_bytes: 0,
  session_count_vscode: 0,
  session_count_jetbrains: 0,
  session_count_reconnecting_pty: 0,
  session_count_ssh: 0,
  ...overrides
})

export const reportRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`agent report repositories on ${name}`, () => {
    test(
      "connects (keeping the first time), refreshes, disconnects; sweeps overdue open agents once, with their workspace",
      Effect.gen(function*() {
        const repo = yield* AgentReportRepo
        const { workspace, agents: [a, b, c] } = yield* agentRows(3)
        yield* repo.connect(a!, at(0), "replica-1")
        yield* repo.connect(b!, at(0), "replica-1")
        yield* repo.connect(c!, at(0), "replica-1")
        yield* repo.connect(a!, at(5), "replica-1")
        const row = yield* agentRow(a!)
        expect([time(row.first_connected_at), time(row.last_connected_at)]).toEqual([
          at(0).toISOString(),
          at(5).toISOString()
        ])
        const refresh = (id: string, when: Date, replica: string, latency: number | null) =>
          repo.refreshMany([{ agent_id: id, at: when, replica_id: replica, latency_us: latency }])
        yield* refresh(b!, at(20), "replica-2", 1_250)
        // The replica that holds the connection: the latest connect's or refresh's, with its round trip.
        expect((yield* agentRow(b!)).last_connected_replica_id).toBe("replica-2")
        expect(Number((yield* agentRow(b!)).latency_us)).toBe(1_250)
        expect((yield* agentRow(a!)).last_connected_replica_id).toBe("replica-1")
        yield* refresh(c!, at(1), "replica-1", 900)
        yield* repo.disconnect(c!, at(1))
        expect(time((yield* agentRow(c!)).disconnected_at)).toBe(at(1).toISOString())
        // A closed connection has no latency; a new one none until measured.
        expect((yield* agentRow(c!)).latency_us).toBeNull()
        yield* repo.setLatency(a!, 700)
        expect(Number((yield* agentRow(a!)).latency_us)).toBe(700)
        expect(time((yield* agentRow(a!)).last_connected_at)).toBe(at(5).toISOString())
        yield* repo.connect(a!, at(5), "replica-1")
        expect((yield* agentRow(a!)).latency_us).toBeNull()
        // A closed connection takes no latency.
        yield* repo.setLatency(c!, 300)
        expect((yield* agentRow(c!)).latency_us).toBeNull()
        // Before 10 s: only a (last 5 s) is overdue; b was refreshed; c is closed.
        expect(yield* repo.disconnectOverdue(at(10), at(40), 100)).toEqual([{ agent_id: a!, workspace_id: workspace }])
        expect(time((yield* agentRow(a!)).disconnected_at)).toBe(at(40).toISOString())
        expect(yield* repo.disconnectOverdue(at(10), at(41), 100)).toEqual([])
        // The limit: b alone, then nothing.
        expect((yield* repo.disconnectOverdue(at(30), at(50), 1)).map((o) => o.agent_id)).toEqual([b!])
        expect(yield* repo.disconnectOverdue(at(30), at(50), 1)).toEqual([])
        // A refresh reopens.
        yield* refresh(a!, at(60), "replica-1", null)
        expect((yield* repo.disconnectOverdue(at(70), at(70), 100)).map((o) => o.agent_id)).toEqual([a!])
      })
    )

    test(
      "refreshes many agents in one statement, never one closed or reconnected since the refresh was taken",
      Effect.gen(function*() {
        const repo = yield* AgentReportRepo
        const { agents: [a, b, c, d] } = yield* agentRows(4)
        for (const id of [a!, b!, c!]) yield* repo.connect(id, at(0), "replica-1")
        // c closed at 10 s, after its refresh of 9 s was taken; d never connected; b reconnected at 12 s.
        yield* repo.disconnect(c!, at(10))
        yield* repo.connect(b!, at(12), "replica-1")
        yield* repo.refreshMany([
          { agent_id: a!, at: at(9), replica_id: "replica-2", latency_us: 400 },
          { agent_id: b!, at: at(9), replica_id: "replica-2", latency_us: 500 },
          { agent_id: c!, at: at(9), replica_id: "replica-2", latency_us: 600 },
          { agent_id: d!, at: at(9), replica_id: "replica-2", latency_us: 700 },
          { agent_id: randomUUID(), at: at(9), replica_id: "replica-2", latency_us: null }
        ])
        const row = (id: string) =>
          Effect.map(agentRow(id), (r) => ({
            connected: Boolean(r.connected),
            last: time(r.last_connected_at),
            replica: r.last_connected_replica_id,
            latency: r.latency_us === null ? null : Number(r.latency_us)
          }))
        expect(yield* row(a!)).toEqual({
          connected: true,
          last: at(9).toISOString(),
          replica: "replica-2",
          latency: 400
        })
        expect(yield* row(b!)).toEqual({
          connected: true,
          last: at(12).toISOString(),
          replica: "replica-1",
          latency: null
        })
        expect(yield* row(c!)).toEqual({
          connected: false,
          last: at(0).toISOString(),
          replica: "replica-1",
          latency: null
        })
        // A refresh of an agent never connected opens it (a connection whose open was not written yet).
        expect(yield* row(d!)).toEqual({
          connected: true,
          last: at(9).toISOString(),
          replica: "replica-2",
          latency: 700
        })
        // A later refresh of the closed one reopens it.
        yield* repo.refreshMany([{ agent_id: c!, at: at(11), replica_id: "replica-1", latency_us: null }])
        expect((yield* row(c!)).connected).toBe(true)
        yield* repo.refreshMany([])
      })
    )

    test(
      "stores many agents' stats reports in one statement",
      Effect.gen(function*() {
        const repo = yield* AgentReportRepo
        const { workspace, agents: [a, b] } = yield* agentRows(2)
        yield* repo.insertStatsMany([
          {
            agent_id: a!,
            workspace_id: workspace,
            stats: stats({ rx_bytes: 5, session_count_ssh: 1 }),
            created_at: at(1)
          },
          { agent_id: b!, workspace_id: workspace, stats: stats({ rx_bytes: 7, tx_bytes: 2 }), created_at: at(2) },
          {
            agent_id: a!,
            workspace_id: workspace,
            stats: stats({ rx_bytes: 11, connections_by_proto: { ssh: 2 }, connection_median_latency_ms: 1.5 }),
            created_at: at(3)
          }
        ])
        yield* repo.insertStatsMany([])
        const summary = yield* repo.statsSince(at(0))
        expect([summary.rx_bytes, summary.tx_bytes, summary.latencies, summary.session_count_ssh]).toEqual([23, 2, [
          1.5
        ], 0])
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<
          Record<string, unknown>
        >`SELECT agent_id, connections_by_proto FROM workspace_agent_stats
          WHERE agent_id = ${a!} ORDER BY created_at`
        expect(rows.map((r) => JSON.parse(r.connections_by_proto as string))).toEqual([{}, { ssh: 2 }])
      })
    )

    test(
      "stores lifecycle times, startup and script results",
      Effect.gen(function*() {
        const repo = yield* AgentReportRepo
        const { agents: [a] } = yield* agentRows(1)
        yield* repo.setLifecycle(a!, "starting", at(1), undefined, at(2))
        yield* repo.setLifecycle(a!, "ready", undefined, at(3), at(4))
        let row = yield* agentRow(a!)
        expect([row.lifecycle_state, time(row.started_at), time(row.ready_at)]).toEqual([
          "ready",
          at(1).toISOString(),
          at(3).toISOString()
        ])
        yield* repo.setStartup(
          a!,
          { version: "v1", expanded_directory: "/home/x", subsystems: ["envbox"] } as never,
          at(5)
        )
        const s1 = randomUUID()
        const s2 = randomUUID()
        const result = {
          status: "ok",
          exit_code: 0,
          started_at: at(1).toISOString(),
          ended_at: at(2).toISOString()
        } as const
        yield* repo.setScriptResult(a!, s1, result, at(6))
        yield* repo.setScriptResult(a!, s2, { ...result, status: "exit_failure", exit_code: 2 }, at(6))
        yield* repo.setScriptResult(a!, s1, { ...result, status: "timed_out" }, at(7))
        row = yield* agentRow(a!)
        expect([row.version, row.expanded_directory, JSON.parse(row.subsystems as string)]).toEqual(["v1", "/home/x", [
          "envbox"
        ]])
        // The last run of each script, with its first kept beside it once there is a later one.
        expect(JSON.parse(row.script_results as string)).toEqual({
          [s1]: { ...result, status: "timed_out", first: result },
          [s2]: { ...result, status: "exit_failure", exit_code: 2 }
        })
        yield* repo.setScriptResult(a!, s1, { ...result, status: "ok", stage: "cron" }, at(8))
        row = yield* agentRow(a!)
        expect(JSON.parse(row.script_results as string)[s1]).toEqual({ ...result, stage: "cron", first: result })
      })
    )

    test(
      "upserts metadata of many agents by agent and key in one statement, and lists it by key",
      Effect.gen(function*() {
        const repo = yield* AgentReportRepo
        const { agents: [a, b] } = yield* agentRows(2)
        const m = (key: string, value: string) => ({ key, value, error: "", collected_at: at(1), age: 2 })
        const of = (agent: string, ...items: Array<ReturnType<typeof m>>) =>
          items.map((i) => ({ ...i, agent_id: agent }))
        yield* repo.putMetadataMany(of(a!, m("load", "1"), m("cpu", "2")))
        // Several agents' values in one statement, a key of each agent replaced.
        yield* repo.putMetadataMany([...of(a!, m("load", "3")), ...of(b!, m("load", "9"), m("cpu", "8"))])
        yield* repo.putMetadataMany([])
        expect(yield* repo.listMetadata(a!)).toEqual([m("cpu", "2"), m("load", "3")])
        expect(yield* repo.listMetadata(b!)).toEqual([m("cpu", "8"), m("load", "9")])
      })
    )

    test(
      "sums stats after a time, with each agent's latest sessions and the latencies measured; purges in batches",
      Effect.gen(function*() {
        const repo = yield* AgentReportRepo
        const { workspace, agents: [a, b] } = yield* agentRows(2)
        yield* repo.insertStats(a!, workspace, stats({ rx_bytes: 100, tx_bytes: 1, session_count_ssh: 5 }), at(0))
        yield* repo.insertStats(
          a!,
          workspace,
          stats({ rx_bytes: 10, tx_bytes: 2, session_count_ssh: 1, connection_median_latency_ms: 4.5 }),
          at(10)
        )
        yield* repo.insertStats(
          a!,
          workspace,
          stats({ rx_bytes: 20, tx_bytes: 3, session_count_ssh: 2, connection_median_latency_ms: 7 }),
          at(20)
        )
        yield* repo.insertStats(b!, workspace, stats({ rx_bytes: 1, session_count_vscode: 3 }), at(15))
        const summary = yield* repo.statsSince(at(5))
        expect(summary).toEqual({
          rx_bytes: 31,
          tx_bytes: 5,
          latencies: expect.arrayContaining([4.5, 7]),
          session_count_vscode: 3,
          session_count_jetbrains: 0,
          session_count_reconnecting_pty: 0,
          session_count_ssh: 2
        })
        expect(summary.latencies).toHaveLength(2)
        expect(yield* repo.purgeStats(at(16), 2)).toBe(2)
        expect(yield* repo.purgeStats(at(16), 2)).toBe(1)
        expect(yield* repo.purgeStats(at(16), 2)).toBe(0)
        expect((yield* repo.statsSince(at(-1))).rx_bytes).toBe(20)
      })
    )
  })
}
