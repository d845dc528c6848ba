/**
 * The build repository contract (builds with their parameter values, resources and agents by
 * job) and the workspace repository's aggregate reads (credits consumed, counts by status), run
 * against every storage. Every test gets a fresh, migrated database; organizations, users,
 * templates, versions and jobs are written directly (their own suites test them).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  MetricsSnapshotRepo,
  newWorkspace,
  newWorkspaceBuild,
  PREBUILDS_USER_ID,
  ProvisionerJobRepo,
  type StoredResource,
  UniqueViolation,
  type WorkspaceAgentRecord,
  type WorkspaceBuildRecord,
  WorkspaceBuildRepo,
  type WorkspaceRecord,
  WorkspaceRepo,
  WorkspaceResourceRepo,
  workspaceStatuses
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const at = (s: number) => new Date(Date.UTC(2024, 6, 1, 10, 0, s, 123))

export interface World {
  readonly org: string
  readonly user: string
  readonly template: string
  readonly version: string
}

export type JobState = "pending" | "running" | "succeeded" | "failed"

/** A provisioner job of `org` in `state`; answers its id. */
export const job = (w: World, state: JobState = "succeeded") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    const t = at(0).toISOString()
    const started = state === "pending" ? null : at(1).toISOString()
    const completed = state === "succeeded" || state === "failed" ? at(2).toISOString() : null
    yield* sql`INSERT INTO provisioner_jobs (id, created_at, updated_at, started_at, completed_at, error, organization_id, initiator_id,
      provisioner, type, file_id)
      VALUES (${id}, ${t}, ${t}, ${started}, ${completed}, ${
      state === "failed" ? "It broke." : ""
    }, ${w.org}, ${w.user}, 'workbay',
        'workspace_build', ${randomUUID()})`
    return id
  }).pipe(Effect.orDie)

/** An organization, a user, a template and a version of it. */
export const world = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const org = randomUUID()
  const user = randomUUID()
  const template = randomUUID()
  const version = randomUUID()
  const t = at(0).toISOString()
  yield* sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
    VALUES (${org}, ${`org-${org.slice(0, 8)}`}, 'Org', ${t}, ${t})`
  yield* sql`INSERT INTO users (id, email, username, login_type, status, created_at, updated_at, last_seen_at)
    VALUES (${user}, ${`${user}@example.com`}, ${`u${user.slice(0, 8)}`}, 'password', 'active', ${t}, ${t}, ${t})`
  yield* sql`INSERT INTO templates (id, created_at, updated_at, organization_id, name, provisioner, active_version_id, created_by)
    VALUES (${template}, ${t}, ${t}, ${org}, 'tpl', 'workbay', ${version}, ${user})`
  const w: World = { org, user, template, version }
  const importJob = yield* job(w)
  yield* sql`INSERT INTO template_versions (id, template_id, organization_id, created_at, updated_at, name, job_id, created_by, file_id,
    provisioner) VALUES (${version}, ${template}, ${org}, ${t}, ${t}, 'v1', ${importJob}, ${user}, ${randomUUID()}, 'workbay')`
  return w
}).pipe(Effect.orDie)

let names = 0
export const workspace = (w: World, overrides: Partial<WorkspaceRecord> = {}): WorkspaceRecord =>
  newWorkspace({
    id: randomUUID(),
    at: at(1),
    owner_id: w.user,
    organization_id: w.org,
    template_id: w.template,
    name: `ws-${++names}`,
    ...overrides
  })

export const build = (
  w: World,
  workspaceId: string,
  jobId: string,
  overrides: Partial<WorkspaceBuildRecord> = {}
): WorkspaceBuildRecord =>
  newWorkspaceBuild({
    id: randomUUID(),
    at: at(3),
    workspace_id: workspaceId,
    template_version_id: w.version,
    build_number: 1,
    transition: "start",
    initiator_id: w.user,
    job_id: jobId,
    ...overrides
  })

export const agent = (
  resourceId: string,
  name: string,
  overrides: Partial<WorkspaceAgentRecord> = {}
): WorkspaceAgentRecord => ({
  id: randomUUID(),
  created_at: at(4),
  updated_at: at(4),
  resource_id: resourceId,
  name,
  external: false,
  instance_id: "",
  auth_token_hash: `hash-${name}`,
  operating_system: "linux",
  architecture: "amd64",
  directory: "/home/coder",
  environment_variables: { A: "1" },
  connection_timeout_seconds: 120,
  troubleshooting_url: "",
  startup_script_behavior: "blocking",
  display_apps: {
    vscode: true,
    vscode_insiders: false,
    web_terminal: true,
    ssh_helper: true,
    port_forwarding_helper: false
  },
  apps: [{ id: randomUUID(), slug: "code", display_name: "Code", url: "http://localhost:8080" } as never],
  scripts: [],
  lifecycle_state: "created",
  first_connected_at: null,
  last_connected_at: null,
  disconnected_at: null,
  last_connected_replica_id: null,
  latency_us: null,
  started_at: null,
  ready_at: null,
  version: "",
  api_version: "",
  logs_length: 0,
  logs_overflowed: false,
  expanded_directory: "",
  subsystems: [],
  script_results: {},
  metadata: [],
  ...overrides
})

/** A workspace with one build whose job ended in `state`, of `transition` and `cost`. */
const built = (
  w: World,
  transition: WorkspaceBuildRecord["transition"],
  state: JobState,
  cost: number,
  overrides: Partial<WorkspaceRecord> = {}
) =>
  Effect.gen(function*() {
    const workspaces = yield* WorkspaceRepo
    const builds = yield* WorkspaceBuildRepo
    const ws = workspace(w, overrides)
    yield* workspaces.insert(ws)
    yield* builds.insert(build(w, ws.id, yield* job(w, state), { transition, daily_cost: cost }))
    return ws
  })

export const buildRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`workspace build repositories on ${name}`, () => {
    test(
      "keeps builds exactly (state bytes, parameters, nullable times); by id, job and number; a clashing number fails",
      Effect.gen(function*() {
        const builds = yield* WorkspaceBuildRepo
        const w = yield* world
        const ws = workspace(w)
        yield* (yield* WorkspaceRepo).insert(ws)
        // Every byte value, zeros and high bytes included, comes back as it went in.
        const state = new Uint8Array(Array.from({ length: 512 }, (_, i) => (i * 7 + 3) % 256))
        // Fields away from their defaults, given explicitly, so a column the repository loses shows.
        const first = build(w, ws.id, yield* job(w), {
          provisioner_state: state,
          deadline: at(10),
          max_deadline: at(20),
          daily_cost: 3,
          has_ai_task: true,
          reason: "autostart",
          template_version_preset_id: randomUUID(),
          parameters: [{ name: "cpus", value: "4" }, { name: "region", value: "" }]
        })
        yield* builds.insert(first)
        const found = Option.getOrThrow(yield* builds.findById(first.id))
        expect(found).toEqual(first)
        expect(Array.from(found.provisioner_state)).toEqual(Array.from(state))
        expect(Option.getOrThrow(yield* builds.findByJobId(first.job_id)).id).toBe(first.id)
        expect(Option.getOrThrow(yield* builds.findByNumber(ws.id, 1)).id).toBe(first.id)
        expect(Option.isNone(yield* builds.findByNumber(ws.id, 2))).toBe(true)
        expect(Option.isNone(yield* builds.findById(randomUUID()))).toBe(true)

        const orphan = build(w, ws.id, yield* job(w), { build_number: 2, transition: "delete", orphan: true })
        yield* builds.insert(orphan)
        expect(Option.getOrThrow(yield* builds.findByNumber(ws.id, 2))).toEqual(orphan)

        // Two builds racing for the same number: the second fails, and leaves no parameters behind.
        const clash = build(w, ws.id, yield* job(w), { build_number: 2, parameters: [{ name: "x", value: "y" }] })
        expect(yield* Effect.flip(builds.insert(clash))).toBeInstanceOf(UniqueViolation)
        expect(Option.isNone(yield* builds.findById(clash.id))).toBe(true)
      })
    )

    test(
      "setResult keeps the state bytes and the deadlines",
      Effect.gen(function*() {
        const builds = yield* WorkspaceBuildRepo
        const w = yield* world
        const ws = workspace(w)
        yield* (yield* WorkspaceRepo).insert(ws)
        const b = build(w, ws.id, yield* job(w, "running"))
        yield* builds.insert(b)
        const state = new TextEncoder().encode(JSON.stringify({ resources: ["box"], ünïcode: "✓" }))
        yield* builds.setResult(b.id, {
          provisioner_state: state,
          daily_cost: 7,
          has_ai_task: false,
          has_external_agent: true,
          deadline: at(30),
          max_deadline: null
        }, at(31))
        const after = Option.getOrThrow(yield* builds.findById(b.id))
        expect(Array.from(after.provisioner_state)).toEqual(Array.from(state))
        expect(after).toMatchObject({ daily_cost: 7, has_external_agent: true, max_deadline: null })
        expect(after.deadline).toEqual(at(30))
        expect(after.updated_at).toEqual(at(31))
      })
    )

    test(
      "setProvisionerState overwrites the state bytes only, to empty too",
      Effect.gen(function*() {
        const builds = yield* WorkspaceBuildRepo
        const w = yield* world
        const ws = workspace(w)
        yield* (yield* WorkspaceRepo).insert(ws)
        const b = build(w, ws.id, yield* job(w))
        yield* builds.insert(b)
        const state = Uint8Array.from([0, 1, 127, 128, 255, 10])
        yield* builds.setProvisionerState(b.id, state, at(40))
        const after = Option.getOrThrow(yield* builds.findById(b.id))
        expect(Array.from(after.provisioner_state)).toEqual([0, 1, 127, 128, 255, 10])
        expect(after.updated_at).toEqual(at(40))
        expect({ ...after, provisioner_state: undefined, updated_at: undefined }).toEqual({
          ...b,
          provisioner_state: undefined,
          updated_at: undefined
        })
        yield* builds.setProvisionerState(b.id, new Uint8Array(0), at(41))
        expect(Option.getOrThrow(yield* builds.findById(b.id)).provisioner_state).toHaveLength(0)
      })
    )

    test(
      "recentParameters answers the owner's start builds' values of the template, newest first, bounded",
      Effect.gen(function*() {
        const builds = yield* WorkspaceBuildRepo
        const repo = yield* WorkspaceRepo
        const w = yield* world
        const a = workspace(w)
        const b = workspace(w)
        for (const ws of [a, b]) yield* repo.insert(ws)
        yield* builds.insert(
          build(w, a.id, yield* job(w), {
            build_number: 1,
            created_at: at(3),
            parameters: [{ name: "x", value: "a1" }, { name: "y", value: "y1" }]
          })
        )
        yield* builds.insert(
          build(w, a.id, yield* job(w), {
            build_number: 2,
            created_at: at(5),
            transition: "stop",
            parameters: [{ name: "x", value: "stopped" }]
          })
        )
        yield* builds.insert(
          build(w, b.id, yield* job(w), {
            build_number: 1,
            created_at: at(4),
            parameters: [{ name: "x", value: "b1" }]
          })
        )
        const got = yield* builds.recentParameters(w.user, w.template, 10)
        // The stop build's value is not among them; b's build is the newest.
        expect(got).toHaveLength(3)
        expect(got[0]).toEqual({ name: "x", value: "b1", template_version_id: w.version })
        expect(got.slice(1).map((r) => r.value).sort()).toEqual(["a1", "y1"])
        expect(yield* builds.recentParameters(w.user, w.template, 1)).toHaveLength(1)
        expect(yield* builds.recentParameters(randomUUID(), w.template, 10)).toEqual([])
        expect(yield* builds.recentParameters(w.user, randomUUID(), 10)).toEqual([])
      })
    )

    test(
      "latestOf answers the highest build of each workspace asked, one each",
      Effect.gen(function*() {
        const builds = yield* WorkspaceBuildRepo
        const repo = yield* WorkspaceRepo
        const w = yield* world
        const a = workspace(w)
        const b = workspace(w)
        const c = workspace(w)
        for (const ws of [a, b, c]) yield* repo.insert(ws)
        const latest = new Map<string, string>()
        for (const [ws, count] of [[a, 3], [b, 1], [c, 2]] as const) {
          for (let n = 1; n <= count; n++) {
            const one = build(w, ws.id, yield* job(w), {
              build_number: n,
              parameters: [{ name: "n", value: String(n) }]
            })
            yield* builds.insert(one)
            latest.set(ws.id, one.id)
          }
        }
        const got = yield* builds.latestOf([a.id, b.id])
        expect(got.map((x) => x.id).sort()).toEqual([latest.get(a.id), latest.get(b.id)].sort())
        expect(got.find((x) => x.workspace_id === a.id)).toMatchObject({
          build_number: 3,
          parameters: [{ name: "n", value: "3" }]
        })
        expect(yield* builds.latestOf([])).toEqual([])
        expect(yield* builds.latestOf([randomUUID()])).toEqual([])
        // The summaries are the same builds, every field but the parameters and the provisioner state.
        const summaries = yield* builds.latestSummariesOf([a.id, b.id, randomUUID()])
        expect(summaries.map((x) => x.id).sort()).toEqual(got.map((x) => x.id).sort())
        for (const full of got) {
          const { parameters: _p, provisioner_state: _s, ...rest } = full
          expect(summaries.find((x) => x.id === full.id)).toStrictEqual(rest)
        }
        expect(yield* builds.latestSummariesOf([])).toEqual([])
        // A list's page reads the same summaries with its rows: the favorites' part and the rest's.
        yield* repo.update(a.id, { favorite: true })
        const page = yield* repo.list({
          visibility: { all: true, organizationIds: [], userId: w.user, groupIds: [] },
          requesterId: w.user,
          ids: [a.id, b.id, c.id],
          deleted: false,
          limit: 10,
          offset: 0
        })
        expect(page.workspaces[0]!.id).toBe(a.id)
        const all = yield* builds.latestSummariesOf([a.id, b.id, c.id])
        expect(page.latestBuilds.map((x) => x.workspace_id)).toEqual(page.workspaces.map((x) => x.id))
        for (const s of page.latestBuilds) expect(s).toStrictEqual(all.find((x) => x.id === s.id))
      })
    )

    test(
      "lists a workspace's builds newest first, paged by limit and offset, after_id and since",
      Effect.gen(function*() {
        const builds = yield* WorkspaceBuildRepo
        const repo = yield* WorkspaceRepo
        const w = yield* world
        const ws = workspace(w)
        const other = workspace(w)
        yield* repo.insert(ws)
        yield* repo.insert(other)
        const made: Array<WorkspaceBuildRecord> = []
        for (let n = 1; n <= 5; n++) {
          const b = build(w, ws.id, yield* job(w), { build_number: n, created_at: at(n * 10), updated_at: at(n * 10) })
          yield* builds.insert(b)
          made.push(b)
        }
        yield* builds.insert(build(w, other.id, yield* job(w)))
        const numbers = (bs: ReadonlyArray<WorkspaceBuildRecord>) => bs.map((b) => b.build_number)
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 25 }))).toEqual([5, 4, 3, 2, 1])
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 2 }))).toEqual([5, 4])
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 2, offset: 2 }))).toEqual([3, 2])
        // after_id: the builds numbered above the cursor, newest first (the described system's query).
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 25, afterId: made[1]!.id }))).toEqual([5, 4, 3])
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 1, offset: 1, afterId: made[1]!.id }))).toEqual([
          4
        ])
        expect(yield* builds.list({ workspaceId: ws.id, limit: 25, afterId: made[4]!.id })).toEqual([])
        // since: created strictly after that instant.
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 25, since: at(30) }))).toEqual([5, 4])
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 25, since: at(29) }))).toEqual([5, 4, 3])
        expect(numbers(yield* builds.list({ workspaceId: ws.id, limit: 25, since: at(20), afterId: made[2]!.id })))
          .toEqual([5, 4])
        expect(yield* builds.list({ workspaceId: randomUUID(), limit: 25 })).toEqual([])
      })
    )

    test(
      "keeps resources and their agents by job, in order, JSON fields exactly",
      Effect.gen(function*() {
        const resources = yield* WorkspaceResourceRepo
        const w = yield* world
        const jobA = yield* job(w)
        const jobB = yield* job(w)
        const home = randomUUID()
        const dev = randomUUID()
        const stored: ReadonlyArray<StoredResource> = [
          {
            resource: {
              id: home,
              created_at: at(5),
              job_id: jobA,
              transition: "start",
              type: "volume",
              name: "home",
              hide: true,
              icon: "/disk.svg",
              daily_cost: 1,
              metadata: [{ key: "size", value: "10GB", sensitive: false }]
            },
            agents: []
          },
          {
            resource: {
              id: dev,
              created_at: at(6),
              job_id: jobA,
              transition: "start",
              type: "machine",
              name: "dev",
              hide: false,
              icon: "",
              daily_cost: 2,
              metadata: []
            },
            agents: [
              agent(dev, "main"),
              agent(dev, "aux", {
                external: true,
                environment_variables: {},
                ready_at: at(9),
                lifecycle_state: "ready"
              })
            ]
          },
          {
            resource: {
              id: randomUUID(),
              created_at: at(5),
              job_id: jobB,
              transition: "stop",
              type: "volume",
              name: "home",
              hide: false,
              icon: "",
              daily_cost: 0,
              metadata: []
            },
            agents: []
          }
        ]
        yield* resources.insert(stored)
        yield* resources.insert([])
        const ofA = yield* resources.listByJobs([jobA])
        expect(ofA.map((r) => r.resource.name)).toEqual(["home", "dev"])
        expect(ofA[0]).toEqual(stored[0])
        // Agents by name.
        expect(ofA[1]!.resource).toEqual(stored[1]!.resource)
        expect(ofA[1]!.agents).toEqual([stored[1]!.agents[1], stored[1]!.agents[0]])
        expect((yield* resources.listByJobs([jobA, jobB])).length).toBe(3)
        expect(yield* resources.listByJobs([])).toEqual([])
        expect(yield* resources.listByJobs([randomUUID()])).toEqual([])

        // A claim's agents take the tokens over: the old ones' hashes are retired (unique, no token's),
        // and a new agent stores the old hash.
        const main = stored[1]!.agents[0]!
        const aux = stored[1]!.agents[1]!
        yield* resources.retireAgentTokens([main.id, aux.id], at(20))
        yield* resources.retireAgentTokens([], at(20))
        const retired = (yield* resources.listByJobs([jobA]))[1]!.agents
        expect(retired.map((a) => a.auth_token_hash).sort()).toEqual([`retired:${aux.id}`, `retired:${main.id}`].sort())
        expect(retired.every((a) => a.updated_at.getTime() === at(20).getTime())).toBe(true)
        const taker = randomUUID()
        yield* resources.insert([{
          resource: { ...stored[1]!.resource, id: taker, job_id: jobB },
          agents: [{ ...agent(taker, "main"), auth_token_hash: main.auth_token_hash }]
        }])
        const taken = (yield* resources.listByJobs([jobB])).find((r) => r.resource.id === taker)!
        expect(taken.agents[0]!.auth_token_hash).toBe(main.auth_token_hash)
      })
    )

    test(
      "creditsConsumed sums the latest start builds' costs of the owner's undeleted workspaces in the organization",
      Effect.gen(function*() {
        const repo = yield* WorkspaceRepo
        const builds = yield* WorkspaceBuildRepo
        const w = yield* world
        const running = yield* built(w, "start", "succeeded", 3)
        yield* built(w, "start", "pending", 2)
        yield* built(w, "stop", "succeeded", 5)
        yield* built(w, "start", "succeeded", 11, { deleted: true })
        // Stopped after running: only the latest build counts.
        const stopped = yield* built(w, "start", "succeeded", 13)
        yield* builds.insert(
          build(w, stopped.id, yield* job(w), { build_number: 2, transition: "stop", daily_cost: 0 })
        )
        // Another owner's workspace in the same organization does not count.
        const sql = yield* SqlClient.SqlClient
        const someoneElse = randomUUID()
        const t = at(0).toISOString()
        yield* sql`INSERT INTO users (id, email, username, login_type, status, created_at, updated_at, last_seen_at)
          VALUES (${someoneElse}, ${`${someoneElse}@example.com`}, ${`u${
          someoneElse.slice(0, 8)
        }`}, 'password', 'active', ${t}, ${t}, ${t})`
        yield* built(w, "start", "succeeded", 17, { owner_id: someoneElse })
        expect(yield* repo.creditsConsumed(w.org, w.user)).toBe(5)
        expect(yield* repo.creditsConsumed(w.org, w.user, running.id)).toBe(2)
        expect(yield* repo.creditsConsumed(w.org, someoneElse)).toBe(17)
        expect(yield* repo.creditsConsumed(randomUUID(), w.user)).toBe(0)
      })
    )

    test(
      "countByStatus and the metrics snapshot count undeleted workspaces by their latest build's status",
      Effect.gen(function*() {
        const repo = yield* WorkspaceRepo
        const w = yield* world
        const before = new Map((yield* repo.countByStatus()).map((r) => [r.status, r.count]))
        yield* built(w, "start", "succeeded", 0)
        yield* built(w, "start", "succeeded", 0)
        yield* built(w, "start", "pending", 0)
        yield* built(w, "start", "running", 0)
        yield* built(w, "stop", "succeeded", 0)
        yield* built(w, "stop", "running", 0)
        yield* built(w, "delete", "failed", 0)
        yield* built(w, "start", "succeeded", 0, { deleted: true })
        // A workspace with no build yet is not counted.
        yield* repo.insert(workspace(w))
        const after = new Map((yield* repo.countByStatus()).map((r) => [r.status, r.count]))
        const added = (s: string) => (after.get(s as never) ?? 0) - (before.get(s as never) ?? 0)
        expect([
          added("running"),
          added("pending"),
          added("starting"),
          added("stopped"),
          added("stopping"),
          added("failed")
        ])
          .toEqual([2, 1, 1, 1, 1, 1])
        expect(added("deleted")).toBe(0)
        // The gauges' read is the same count, every status present (zero when none).
        const snapshot = yield* (yield* MetricsSnapshotRepo).snapshot
        expect(snapshot.workspaces).toEqual(
          workspaceStatuses.map((status) => ({ status, count: after.get(status) ?? 0 }))
        )
      })
    )

    test(
      "keeps each workspace's latest build status on its row through its jobs' moves",
      Effect.gen(function*() {
        const jobs = yield* ProvisionerJobRepo
        const builds = yield* WorkspaceBuildRepo
        const sql = yield* SqlClient.SqlClient
        const w = yield* world
        const ws = workspace(w)
        yield* (yield* WorkspaceRepo).insert(ws)
        const kept = Effect.map(
          sql<{ s: string | null }>`SELECT latest_build_status AS s FROM workspaces WHERE id = ${ws.id}`,
          (rs) => rs[0]!.s
        )
        const worker = { id: randomUUID(), name: "w-1", provisioners: ["workbay"], tags: {}, organization_id: w.org }
        let n = 0
        const next = (transition: WorkspaceBuildRecord["transition"]) =>
          Effect.gen(function*() {
            const jobId = yield* job(w, "pending")
            yield* builds.insert(build(w, ws.id, jobId, { build_number: ++n, transition }))
            return jobId
          })
        expect(yield* kept).toBe(null)
        // Claimed, asked to cancel, ended canceled.
        const a = yield* next("start")
        expect(yield* kept).toBe("pending")
        expect(Option.isSome(yield* jobs.acquire(worker, at(10)))).toBe(true)
        expect(yield* kept).toBe("starting")
        yield* jobs.requestCancel(a, at(11))
        expect(yield* kept).toBe("canceling")
        yield* jobs.complete(a, worker.id, {}, at(12))
        expect(yield* kept).toBe("canceled")
        // Canceled before anybody claimed it.
        const b = yield* next("stop")
        yield* jobs.requestCancel(b, at(13))
        expect(yield* kept).toBe("canceled")
        // Succeeded.
        const c = yield* next("start")
        yield* jobs.acquire(worker, at(14))
        yield* jobs.complete(c, worker.id, {}, at(15))
        expect(yield* kept).toBe("running")
        // Hung while stopping.
        yield* next("stop")
        yield* jobs.acquire(worker, at(16))
        expect(yield* kept).toBe("stopping")
        yield* jobs.failHung(at(100), "Build hung.", at(100))
        expect(yield* kept).toBe("failed")
        const snapshot = yield* (yield* MetricsSnapshotRepo).snapshot
        expect(snapshot.workspaces.find((s) => s.status === "failed")?.count).toBe(1)
      })
    )

    test(
      "prebuildCreations: the prebuilds user's first start builds with a preset, newest first; since, unclaimed, the newest perPreset of each",
      Effect.gen(function*() {
        const builds = yield* WorkspaceBuildRepo
        const workspaces = yield* WorkspaceRepo
        const w = yield* world
        const [p1, p2] = [randomUUID(), randomUUID()]
        /** A prebuilt workspace (`owner` its owner now) whose first build was `s` seconds in, of `preset`. */
        const creation = (preset: string, s: number, state: JobState, owner = PREBUILDS_USER_ID) =>
          Effect.gen(function*() {
            const ws = workspace(w, { owner_id: owner })
            yield* workspaces.insert(ws)
            yield* builds.insert(build(w, ws.id, yield* job(w, state), {
              created_at: at(s),
              initiator_id: PREBUILDS_USER_ID,
              template_version_preset_id: preset
            }))
            return ws.id
          })
        const a1 = yield* creation(p1, 10, "failed")
        const a2 = yield* creation(p1, 20, "succeeded")
        const a3 = yield* creation(p1, 30, "failed")
        const a4 = yield* creation(p1, 40, "failed")
        const claimed = yield* creation(p1, 45, "succeeded", w.user)
        const b1 = yield* creation(p2, 15, "pending")
        // Not creations: someone else's build, and a build with no preset.
        const other = workspace(w)
        yield* workspaces.insert(other)
        yield* builds.insert(build(w, other.id, yield* job(w), { template_version_preset_id: p1, created_at: at(50) }))
        const ids = (cs: ReadonlyArray<{ readonly workspace_id: string }>) => cs.map((c) => c.workspace_id)

        const all = yield* builds.prebuildCreations({})
        expect(ids(all)).toEqual([claimed, a4, a3, a2, b1, a1])
        expect(all[1]).toMatchObject({ preset_id: p1, job_status: "failed", owner_id: PREBUILDS_USER_ID })
        expect(ids(yield* builds.prebuildCreations({ unclaimed: true }))).toEqual([a4, a3, a2, b1, a1])
        expect(ids(yield* builds.prebuildCreations({ unclaimed: true, since: at(20) }))).toEqual([a4, a3, a2])
        expect(ids(yield* builds.prebuildCreations({ unclaimed: true, perPreset: 2 }))).toEqual([a4, a3, b1])
        expect(ids(yield* builds.prebuildCreations({ unclaimed: true, perPreset: 1, since: at(16) }))).toEqual([a4])
      })
    )
  })
}
