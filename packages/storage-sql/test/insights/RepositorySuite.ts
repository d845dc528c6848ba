/**
 * The insights repository contract, run against every storage: an hour folded from raw agent
 * stats and app opens (minutes by kind, the hour's median latency, opens with their seconds),
 * recomputed whole when folded again; sums over a range with and without a template filter;
 * active users per bucket; users' status changes, recorded by the user repository with the change
 * and otherwise found by diffing the users table; the parameter values of latest builds; the rollup state;
 * the purge of old rollups. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AgentReportRepo,
  type AgentStats,
  InsightsRepo,
  ProvisionerJobRepo,
  UserRepo,
  WorkspaceBuildRepo,
  WorkspaceRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { agentStats as stats } from "../../../core/test/insights/fixtures.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { build, job, workspace, world } from "../workspaces/BuildRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const HOUR = 3_600_000
const H0 = Date.UTC(2024, 6, 1, 10)
const at = (minutes: number, seconds = 0) => new Date(H0 + minutes * 60_000 + seconds * 1000)

/** A world with one workspace; answers its ids. */
const seeded = Effect.gen(function*() {
  const w = yield* world
  const ws = workspace(w)
  yield* Effect.flatMap(WorkspaceRepo, (r) => r.insert(ws))
  return { ...w, workspace: ws.id }
}).pipe(Effect.orDie)

const report = (workspaceId: string, when: Date, s: Partial<AgentStats>) =>
  Effect.flatMap(AgentReportRepo, (r) => r.insertStats(randomUUID(), workspaceId, stats(s), when))

const appOpen = (
  w: { org: string; user: string; workspace: string },
  when: Date,
  slug: string,
  disconnect: Date | null = null
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO connection_logs (id, connect_time, organization_id, workspace_owner_id, workspace_id, workspace_name, agent_name,
      type, user_id, slug_or_port, disconnect_time)
      VALUES (${randomUUID()}, ${when.toISOString()}, ${w.org}, ${w.user}, ${w.workspace}, 'ws', 'main', 'workspace_app', ${w.user},
        ${slug}, ${disconnect === null ? null : disconnect.toISOString()})`
  }).pipe(Effect.orDie)

export const insightsRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`insights repository on ${name}`, () => {
    test(
      "folds an hour of agent stats and app opens, again as a whole",
      Effect.gen(function*() {
        const repo = yield* InsightsRepo
        const w = yield* seeded
        // Two reports in minute 0 (one minute), SSH in minutes 0-2, VS Code in minute 5, nothing open in minute 7.
        yield* report(w.workspace, at(0, 5), { session_count_ssh: 1, connection_median_latency_ms: 10 })
        yield* report(w.workspace, at(0, 35), { session_count_ssh: 1, connection_median_latency_ms: 30 })
        yield* report(w.workspace, at(1), { session_count_ssh: 2, connection_median_latency_ms: 20 })
        yield* report(w.workspace, at(2), { session_count_ssh: 1 })
        yield* report(w.workspace, at(5), { session_count_vscode: 1 })
        yield* report(w.workspace, at(7), {})
        // The next hour's report is not this hour's.
        yield* report(w.workspace, at(61), { session_count_ssh: 1 })
        yield* appOpen(w, at(10), "code-server")
        yield* appOpen(w, at(20), "code-server", at(25))
        const written = yield* repo.rollupHour(new Date(H0))
        expect(written).toEqual({ usageRows: 1, appRows: 1 })
        const range = [new Date(H0), new Date(H0 + HOUR)] as const
        expect(yield* repo.usage(...range, [])).toEqual([{
          user_id: w.user,
          template_id: w.template,
          usage_mins: 4,
          ssh_mins: 3,
          vscode_mins: 1,
          jetbrains_mins: 0,
          reconnecting_pty_mins: 0
        }])
        expect(yield* repo.latencies(...range, [])).toEqual([{
          user_id: w.user,
          template_id: w.template,
          latency_ms: 20
        }])
        expect(yield* repo.appUsage(...range, [])).toEqual([{
          user_id: w.user,
          template_id: w.template,
          slug: "code-server",
          display_name: "code-server",
          icon: "",
          seconds: 60 + 300,
          times_used: 2
        }])
        // Folding again replaces the hour: a late report counts once.
        yield* report(w.workspace, at(30), { session_count_jetbrains: 1 })
        yield* repo.rollupHour(new Date(H0))
        const again = yield* repo.usage(...range, [])
        expect(again.map((u) => [u.usage_mins, u.jetbrains_mins])).toEqual([[5, 1]])
        expect(yield* repo.usage(...range, [randomUUID()])).toEqual([])
        expect((yield* repo.usage(...range, [w.template])).length).toBe(1)
      })
    )

    test(
      "counts active users per bucket and sums over hours",
      Effect.gen(function*() {
        const repo = yield* InsightsRepo
        const w = yield* seeded
        for (const hour of [0, 1, 25]) {
          yield* report(w.workspace, new Date(H0 + hour * HOUR + 60_000), { session_count_ssh: 1 })
          yield* repo.rollupHour(new Date(H0 + hour * HOUR))
        }
        const start = new Date(H0 - 10 * HOUR)
        const buckets = yield* repo.activeByBucket(start, new Date(H0 + 48 * HOUR), 1440, [])
        expect([...buckets].sort((a, b) => a.bucket - b.bucket)).toEqual([
          { bucket: 0, users: 1, template_ids: [w.template] },
          { bucket: 1, users: 1, template_ids: [w.template] }
        ])
        expect(yield* repo.activeByBucket(start, new Date(H0 + 48 * HOUR), 1440, [randomUUID()])).toEqual([])
        // From a UTC midnight, whole days are read from the daily rollups: the same answer.
        const midnight = new Date(H0 - (H0 % (24 * HOUR)))
        const daily = yield* repo.activeByBucket(midnight, new Date(midnight.getTime() + 3 * 24 * HOUR), 1440, [])
        expect([...daily].sort((a, b) => a.bucket - b.bucket).map((b) => [b.bucket, b.users])).toEqual([[0, 1], [1, 1]])
        const weekly = yield* repo.activeByBucket(midnight, new Date(midnight.getTime() + 7 * 24 * HOUR), 7 * 1440, [
          w.template
        ])
        expect(weekly).toEqual([{ bucket: 0, users: 1, template_ids: [w.template] }])
        expect((yield* repo.usage(midnight, new Date(midnight.getTime() + 3 * 24 * HOUR), [])).map((u) => u.usage_mins))
          .toEqual([3])
        const total = yield* repo.usage(new Date(H0), new Date(H0 + 2 * HOUR), [])
        expect(total.map((u) => u.usage_mins)).toEqual([2])
        expect(yield* repo.purgeBefore(new Date(H0 + 2 * HOUR))).toBe(2)
        expect((yield* repo.usage(new Date(H0), new Date(H0 + 48 * HOUR), [])).map((u) => u.usage_mins)).toEqual([1])
      })
    )

    test(
      "counts the parameter values of each workspace's latest build in a range",
      Effect.gen(function*() {
        const repo = yield* InsightsRepo
        const builds = yield* WorkspaceBuildRepo
        const w = yield* seeded
        const second = workspace(w)
        yield* Effect.flatMap(WorkspaceRepo, (r) => r.insert(second))
        const region = (value: string) => [{ name: "region", value }, { name: "cpus", value: "2" }]
        // The first workspace's latest build in the range says us (its first said eu); the second's says us.
        yield* builds.insert(
          build(w, w.workspace, yield* job(w), { build_number: 1, created_at: at(5), parameters: region("eu") })
        )
        yield* builds.insert(
          build(w, w.workspace, yield* job(w), { build_number: 2, created_at: at(10), parameters: region("us") })
        )
        yield* builds.insert(
          build(w, second.id, yield* job(w), { build_number: 1, created_at: at(20), parameters: region("us") })
        )
        // A later build, outside the range.
        yield* builds.insert(
          build(w, second.id, yield* job(w), { build_number: 2, created_at: at(90), parameters: region("eu") })
        )
        const counts = (yield* repo.parameterUsage(new Date(H0), new Date(H0 + HOUR), []))
          .map((c) => [c.template_id, c.template_version_id, c.name, c.value, c.count])
          .sort((a, b) => String(a[2]).localeCompare(String(b[2])) || String(a[3]).localeCompare(String(b[3])))
        expect(counts).toEqual([[w.template, w.version, "cpus", "2", 2], [w.template, w.version, "region", "us", 2]])
        expect(yield* repo.parameterUsage(new Date(H0), new Date(H0 + HOUR), [randomUUID()])).toEqual([])
        expect(
          (yield* repo.parameterUsage(new Date(H0 + HOUR), new Date(H0 + 2 * HOUR), [w.template])).map((c) => c.value)
            .sort()
        )
          .toEqual(["2", "eu"])
      })
    )

    test(
      "keeps the newest 100 successful build times of each template as their jobs complete",
      Effect.gen(function*() {
        const repo = yield* InsightsRepo
        const jobs = yield* ProvisionerJobRepo
        const builds = yield* WorkspaceBuildRepo
        const sql = yield* SqlClient.SqlClient
        const w = yield* seeded
        const worker = randomUUID()
        // 104 builds, created a minute apart, each running 1 + (i % 7) seconds: the first three
        // succeed, then one fails and one is canceled, and the rest succeed.
        for (let i = 0; i < 104; i++) {
          const jobId = yield* job(w, "running")
          yield* sql`UPDATE provisioner_jobs SET worker_id = ${worker}, started_at = ${
            at(i).toISOString()
          } WHERE id = ${jobId}`
          yield* builds.insert(
            build(w, w.workspace, jobId, {
              build_number: i + 1,
              created_at: at(i),
              transition: i % 2 === 0 ? "start" : "stop"
            })
          )
          if (i === 4) {
            yield* sql`UPDATE provisioner_jobs SET canceled_at = ${at(i, 1).toISOString()} WHERE id = ${jobId}`
          }
          yield* jobs.complete(jobId, worker, i === 3 ? { error: "It broke." } : {}, at(i, 1 + (i % 7)))
        }
        const kept = yield* repo.buildDurations([w.template, randomUUID()], new Date(H0 - HOUR))
        // 102 succeeded; the newest 100 are kept: builds 2..103 but the failed and the canceled one.
        expect(kept.length).toBe(100)
        expect(Number((yield* sql<{ n: number }>`SELECT count(*) AS n FROM template_build_times`)[0]!.n)).toBe(100)
        const expected = Array.from({ length: 102 }, (_, k) => k + 2).filter((i) => i !== 3 && i !== 4)
          .map((i) => `${i % 2 === 0 ? "start" : "stop"} ${1 + (i % 7)}`).sort()
        expect(kept.map((k) => `${k.transition} ${k.seconds}`).sort()).toEqual(expected)
        // Only builds that started after `since`.
        expect((yield* repo.buildDurations([w.template], at(100))).length).toBe(3)
        expect(yield* repo.buildDurations([], at(0))).toEqual([])
      })
    )

    test(
      "records users' status changes and the rollup state",
      Effect.gen(function*() {
        const repo = yield* InsightsRepo
        const sql = yield* SqlClient.SqlClient
        const w = yield* seeded
        // Users written around the repository (here by SQL) are found by the rollup's diff: a new
        // one dated to its creation, a change dated to the pass.
        expect(yield* repo.recordStatusChanges(at(1))).toBe(1)
        expect(yield* repo.recordStatusChanges(at(1))).toBe(0)
        yield* sql`UPDATE users SET status = 'suspended' WHERE id = ${w.user}`
        expect(yield* repo.recordStatusChanges(at(2))).toBe(1)
        // A change through the repository is recorded in its transaction, dated to the moment.
        yield* Effect.flatMap(UserRepo, (u) => u.update(w.user, { status: "active", updated_at: at(3, 30) }))
        expect(yield* repo.recordStatusChanges(at(4))).toBe(0)
        const changes = yield* repo.statusChanges(at(60))
        expect(changes.map((c) => c.status)).toEqual(["active", "suspended", "active"])
        expect(changes.slice(1).map((c) => c.changed_at)).toEqual([at(2), at(3, 30)])
        expect((yield* repo.users([w.user])).map((u) => u.id)).toEqual([w.user])
        expect(Option.isNone(yield* repo.state)).toBe(true)
        yield* repo.setState({ watermark: new Date(H0), ran_at: at(3) })
        yield* repo.setState({ watermark: new Date(H0 + HOUR), ran_at: at(4) })
        expect(Option.getOrThrow(yield* repo.state)).toEqual({ watermark: new Date(H0 + HOUR), ran_at: at(4) })
        expect(Option.isNone(yield* repo.earliestRaw)).toBe(true)
        yield* report(w.workspace, at(9), {})
        expect(Option.getOrThrow(yield* repo.earliestRaw)).toEqual(at(9))
        // An app open older than every stats report is raw usage too: the first pass must fold its hour.
        yield* appOpen(w, at(7), "code-server")
        expect(Option.getOrThrow(yield* repo.earliestRaw)).toEqual(at(7))
      })
    )
  })
}
