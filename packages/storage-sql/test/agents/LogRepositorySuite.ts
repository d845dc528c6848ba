/**
 * The agent log and app status repositories, run against every storage: batches within the
 * cap, the reservation that refuses a batch past it (nothing stored, the agent overflowed),
 * keyset reads, idempotent log sources, app statuses kept newest first up to a bound, and the
 * retention purge of agent log lines (Retention.purgeOnce at a stopped clock).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AgentLogRepo,
  AgentRepo,
  type AppStatusRecord,
  AppStatusRepo,
  type NewAgentLog,
  WorkspaceBuildRepo,
  WorkspaceRepo,
  WorkspaceResourceRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Duration, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { purgeAt } from "../audit/RepositorySuite.js"
import { queryPlan } from "../QueryPlan.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { agent, build, job, workspace, world } from "../workspaces/BuildRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const DAY = 86_400_000
const T0 = Date.UTC(2024, 6, 1, 12, 0, 0, 0)

/** A workspace with a build whose resource has one agent; answers the agent and the workspace id. */
const anAgent = Effect.gen(function*() {
  const w = yield* world
  const ws = workspace(w)
  yield* (yield* WorkspaceRepo).insert(ws)
  const jobId = yield* job(w)
  yield* (yield* WorkspaceBuildRepo).insert(build(w, ws.id, jobId))
  const resourceId = randomUUID()
  const a = agent(resourceId, "main", { auth_token_hash: `hash-${randomUUID()}` })
  yield* (yield* WorkspaceResourceRepo).insert([{
    resource: {
      id: resourceId,
      created_at: new Date(T0),
      job_id: jobId,
      transition: "start",
      type: "machine",
      name: "dev",
      hide: false,
      icon: "",
      daily_cost: 0,
      metadata: []
    },
    agents: [a]
  }])
  return { agent: a, workspaceId: ws.id }
})

const lines = (n: number, at: number, output = "line"): ReadonlyArray<NewAgentLog> =>
  Array.from(
    { length: n },
    (_, i) => ({ created_at: new Date(at), level: "info", output: `${output}-${i}`, log_source_id: randomUUID() })
  )

const stored = (agentId: string) =>
  Effect.flatMap(AgentRepo, (r) => r.findById(agentId)).pipe(Effect.map((a) => Option.getOrThrow(a).agent))

export const agentLogRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`agent log repositories on ${name}`, () => {
    test(
      "appends batches while they fit, then refuses one past the cap whole and marks the agent overflowed",
      Effect.gen(function*() {
        const repo = yield* AgentLogRepo
        const { agent: a } = yield* anAgent
        expect(yield* repo.append(a.id, lines(3, T0), 60, 100)).toEqual({ overflowed: false })
        expect(yield* repo.append(a.id, lines(2, T0, "more"), 40, 100)).toEqual({ overflowed: false })
        expect(yield* stored(a.id)).toMatchObject({ logs_length: 100, logs_overflowed: false })
        expect(yield* repo.append(a.id, lines(1, T0, "over"), 1, 100)).toEqual({ overflowed: true })
        expect(yield* stored(a.id)).toMatchObject({ logs_length: 100, logs_overflowed: true })
        // Once overflowed nothing more is stored, even what would fit.
        expect(yield* repo.append(a.id, lines(1, T0, "late"), 0, 100)).toEqual({ overflowed: true })
        const all = yield* repo.list(a.id, 0, undefined, 100)
        expect(all.map((l) => l.output)).toEqual(["line-0", "line-1", "line-2", "more-0", "more-1"])
        expect(all[0]).toMatchObject({ agent_id: a.id, level: "info", created_at: new Date(T0) })
      })
    )

    test(
      "batches arriving together (written in one transaction) keep each agent's order and cap; a bad one fails alone",
      Effect.gen(function*() {
        const repo = yield* AgentLogRepo
        const agents = yield* Effect.all(Array.from({ length: 12 }, () => anAgent))
        const bad: ReadonlyArray<NewAgentLog> = [{
          created_at: new Date(NaN),
          level: "info",
          output: "bad",
          log_source_id: randomUUID()
        }]
        // Three batches per agent, all at once, and one that cannot be written among them.
        const appends = agents.flatMap(({ agent: a }) =>
          [0, 1, 2].map((i) => repo.append(a.id, lines(2, T0, `b${i}`), 10, 25))
        )
        const { agent: lone } = yield* anAgent
        const results = yield* Effect.all([...appends, Effect.exit(repo.append(lone.id, bad, 1, 25))], {
          concurrency: "unbounded"
        })
        expect(results.at(-1)).toMatchObject({ _tag: "Failure" })
        expect(yield* stored(lone.id)).toMatchObject({ logs_length: 0, logs_overflowed: false })
        for (const [i, { agent: a }] of agents.entries()) {
          // Within the cap of 25 bytes, the first two batches fit; the third is refused.
          expect(results.slice(i * 3, i * 3 + 3)).toEqual([{ overflowed: false }, { overflowed: false }, {
            overflowed: true
          }])
          expect((yield* repo.list(a.id, 0, undefined, 100)).map((l) => l.output)).toEqual([
            "b0-0",
            "b0-1",
            "b1-0",
            "b1-1"
          ])
          expect(yield* stored(a.id)).toMatchObject({ logs_length: 20, logs_overflowed: true })
        }
      })
    )

    test(
      "reads by (agent, id): after, before and limit; other agents' lines never show",
      Effect.gen(function*() {
        const repo = yield* AgentLogRepo
        const { agent: a } = yield* anAgent
        const { agent: b } = yield* anAgent
        yield* repo.append(a.id, lines(5, T0), 5, 1000)
        yield* repo.append(b.id, lines(2, T0, "b"), 2, 1000)
        const ids = (yield* repo.list(a.id, 0, undefined, 100)).map((l) => l.id)
        expect(ids).toHaveLength(5)
        expect((yield* repo.list(a.id, ids[1]!, undefined, 2)).map((l) => l.id)).toEqual([ids[2], ids[3]])
        expect((yield* repo.list(a.id, ids[0]!, ids[3], 100)).map((l) => l.id)).toEqual([ids[1], ids[2]])
        expect((yield* repo.list(b.id, 0, undefined, 100)).map((l) => l.output)).toEqual(["b-0", "b-1"])
      })
    )

    test(
      "log sources: the first of an id stays; they come back on the agent record",
      Effect.gen(function*() {
        const repo = yield* AgentLogRepo
        const { agent: a } = yield* anAgent
        const source = {
          id: randomUUID(),
          workspace_agent_id: a.id,
          created_at: new Date(T0),
          display_name: "One",
          icon: ""
        }
        expect(yield* repo.addLogSource(source)).toEqual(source)
        expect(yield* repo.addLogSource({ ...source, display_name: "Two", created_at: new Date(T0 + 1) })).toEqual(
          source
        )
        const other = { ...source, id: randomUUID(), display_name: "Other" }
        yield* repo.addLogSource(other)
        expect((yield* stored(a.id)).log_sources).toEqual([source, other])
      })
    )

    test(
      "app statuses: newest first per app, at most `keep`; the newest is the workspace's latest",
      Effect.gen(function*() {
        const repo = yield* AppStatusRepo
        const { agent: a, workspaceId } = yield* anAgent
        const appId = a.apps[0]!.id
        const status = (i: number): AppStatusRecord => ({
          id: randomUUID(),
          created_at: new Date(T0 + i),
          workspace_id: workspaceId,
          agent_id: a.id,
          app_id: appId,
          state: "working",
          message: `step ${i}`,
          uri: "",
          icon: "",
          needs_user_attention: i % 2 === 0
        })
        const all = [0, 1, 2, 3].map(status)
        for (const s of all) yield* repo.record(s, 3)
        expect((yield* stored(a.id)).app_statuses).toEqual({ [appId]: [all[3], all[2], all[1]] })
        const ws = Option.getOrThrow(yield* (yield* WorkspaceRepo).findById(workspaceId))
        expect(ws.latest_app_status).toEqual(all[3])
      })
    )

    test(
      "Retention.purgeOnce deletes agent log lines past workspace_agent_logs; 0 keeps forever",
      Effect.gen(function*() {
        const repo = yield* AgentLogRepo
        const { agent: a } = yield* anAgent
        yield* repo.append(a.id, lines(2, T0 - 8 * DAY, "old"), 2, 1000)
        yield* repo.append(a.id, lines(1, T0 - 6 * DAY, "young"), 1, 1000)
        const keepAll = {
          retentionAuditLogs: Duration.zero,
          retentionConnectionLogs: Duration.zero,
          retentionApiKeys: Duration.zero
        }
        expect((yield* purgeAt(T0, { ...keepAll, retentionWorkspaceAgentLogs: Duration.zero })).agentLogs).toBe(0)
        expect((yield* purgeAt(T0, { ...keepAll, retentionWorkspaceAgentLogs: Duration.days(7) })).agentLogs).toBe(2)
        expect((yield* repo.list(a.id, 0, undefined, 10)).map((l) => l.output)).toEqual(["young-0"])
        expect((yield* purgeAt(T0 + 2 * DAY, { ...keepAll, retentionWorkspaceAgentLogs: Duration.days(7) })).agentLogs)
          .toBe(1)
        expect(yield* repo.list(a.id, 0, undefined, 10)).toEqual([])
      })
    )

    test(
      "reads an agent's page along (agent_id, id) and the purge along created_at, with no sort",
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const agentId = randomUUID()
        const page =
          `SELECT * FROM workspace_agent_logs WHERE agent_id = '${agentId}' AND id > 10 AND id < 900 ORDER BY id LIMIT 500`
        const purge =
          `SELECT id FROM workspace_agent_logs WHERE created_at < '2024-01-01T00:00:00.000Z' ORDER BY created_at LIMIT 5000`
        // A tiny table is scanned or sorted whatever its indexes; with that priced out the plan shows what a large one gets.
        const plan = (q: string, off: "seqscan" | "sort") =>
          Effect.map(queryPlan(q, [], off), (lines) => lines.join("\n"))
        const p = yield* plan(page, "seqscan")
        const g = yield* plan(purge, "sort")
        yield* sql.onDialectOrElse({
          pg: () =>
            Effect.sync(() => {
              expect(p).toMatch(/Index Scan using workspace_agent_logs_agent/)
              expect(g).toMatch(/Index (Only )?Scan using workspace_agent_logs_created/)
              expect(`${p}\n${g}`).not.toMatch(/Sort/)
            }),
          orElse: () =>
            Effect.sync(() => {
              expect(p).toMatch(
                /SEARCH workspace_agent_logs USING INDEX workspace_agent_logs_agent \(agent_id=\? AND id>\? AND id<\?\)/
              )
              expect(g).toMatch(
                /SEARCH workspace_agent_logs USING (COVERING )?INDEX workspace_agent_logs_created \(created_at<\?\)/
              )
              expect(`${p}\n${g}`).not.toMatch(/TEMP B-TREE/)
            })
        })
      })
    )
  })
}
