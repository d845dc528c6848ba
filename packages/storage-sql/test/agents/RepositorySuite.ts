/**
 * The agent repository's reads by cloud instance id, run against every storage: only agents of
 * the latest build of a non-deleted workspace, with what they belong to, on the instance id's
 * index. Worlds, jobs, workspaces, builds and agents are written with the build suite's helpers.
 */
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { AgentRepo, WorkspaceBuildRepo, WorkspaceRepo, WorkspaceResourceRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { queryPlan } from "../QueryPlan.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { agent, build, job, workspace, type World, world } from "../workspaces/BuildRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const at = (s: number) => new Date(Date.UTC(2024, 6, 1, 11, 0, s))

/** A build `number` of `workspaceId` whose one machine runs `agents` (name and instance id); answers the agents' ids by name. */
const buildWith = (w: World, workspaceId: string, number: number, agents: ReadonlyArray<readonly [string, string]>) =>
  Effect.gen(function*() {
    const jobId = yield* job(w)
    yield* (yield* WorkspaceBuildRepo).insert(build(w, workspaceId, jobId, { build_number: number }))
    const resourceId = randomUUID()
    const made = agents.map(([name, instance]) =>
      agent(resourceId, name, { instance_id: instance, auth_token_hash: randomUUID() })
    )
    yield* (yield* WorkspaceResourceRepo).insert([{
      resource: {
        id: resourceId,
        created_at: at(number),
        job_id: jobId,
        transition: "start",
        type: "machine",
        name: "box",
        hide: false,
        icon: "",
        daily_cost: 0,
        metadata: []
      },
      agents: made
    }])
    return Object.fromEntries(made.map((a) => [a.name, a.id]))
  })

export const agentRepositorySuite = (
  name: string,
  dialect: "sqlite" | "pg",
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`agent repository on ${name}`, () => {
    test(
      "findByInstanceId answers the agents of workspaces' latest builds on that instance, with what they belong to",
      Effect.gen(function*() {
        const agents = yield* AgentRepo
        const repo = yield* WorkspaceRepo
        const w = yield* world
        const a = workspace(w)
        const b = workspace(w)
        const gone = workspace(w, { deleted: true })
        for (const ws of [a, b, gone]) yield* repo.insert(ws)
        // a: build 1 on i-1, build 2 (latest) on i-1 again, two agents; b: i-2 only; gone: i-1 but deleted.
        const old = yield* buildWith(w, a.id, 1, [["main", "i-1"]])
        const latest = yield* buildWith(w, a.id, 2, [["main", "i-1"], ["side", "i-1"], ["bare", ""]])
        const other = yield* buildWith(w, b.id, 1, [["main", "i-2"]])
        yield* buildWith(w, gone.id, 1, [["main", "i-1"]])

        const onOne = yield* agents.findByInstanceId("i-1")
        expect(onOne.map((f) => f.agent.id)).toEqual([latest.main, latest.side])
        expect(onOne.map((f) => f.agent.id)).not.toContain(old.main)
        const [first] = onOne
        expect(first!.agent.instance_id).toBe("i-1")
        expect(first!.workspace.id).toBe(a.id)
        expect(first!.build.build_number).toBe(2)
        expect(first!.latest_build_number).toBe(2)
        expect(first!.resource.name).toBe("box")
        expect((yield* agents.findByInstanceId("i-2")).map((f) => f.agent.id)).toEqual([other.main])
        expect(yield* agents.findByInstanceId("i-unknown")).toEqual([])
        // "" is no instance: agents without one are never named by it.
        expect(yield* agents.findByInstanceId("")).toEqual([])
      })
    )

    test(
      "a newer build without the agent (a stop) leaves none on the instance",
      Effect.gen(function*() {
        const agents = yield* AgentRepo
        const w = yield* world
        const ws = workspace(w)
        yield* (yield* WorkspaceRepo).insert(ws)
        yield* buildWith(w, ws.id, 1, [["main", "i-stop"]])
        expect((yield* agents.findByInstanceId("i-stop")).length).toBe(1)
        yield* buildWith(w, ws.id, 2, [])
        expect(yield* agents.findByInstanceId("i-stop")).toEqual([])
      })
    )

    test(
      "isCurrent: true while the agent is in its workspace's latest build of a live workspace",
      Effect.gen(function*() {
        const agents = yield* AgentRepo
        const w = yield* world
        const ws = workspace(w)
        const gone = workspace(w, { deleted: true })
        for (const x of [ws, gone]) yield* (yield* WorkspaceRepo).insert(x)
        const first = yield* buildWith(w, ws.id, 1, [["main", ""]])
        const deleted = yield* buildWith(w, gone.id, 1, [["main", ""]])
        expect(yield* agents.isCurrent(first.main)).toBe(true)
        expect(yield* agents.isCurrent(deleted.main)).toBe(false)
        const second = yield* buildWith(w, ws.id, 2, [["main", ""]])
        expect(yield* agents.isCurrent(first.main)).toBe(false)
        expect(yield* agents.isCurrent(second.main)).toBe(true)
        expect(yield* agents.isCurrent("00000000-0000-4000-8000-000000000000")).toBe(false)
      })
    )

    test(
      "reads agents by instance id on its index",
      Effect.gen(function*() {
        const plan = yield* queryPlan(
          dialect === "pg"
            ? "SELECT * FROM workspace_agents WHERE instance_id = $1"
            : "SELECT * FROM workspace_agents WHERE instance_id = ?",
          ["i-1"],
          "seqscan"
        )
        expect(plan.join("\n")).toMatch(/workspace_agents_instance/)
      })
    )
  })
}
