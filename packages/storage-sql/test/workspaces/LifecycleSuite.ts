/**
 * The `LifecycleCandidates` contract on a storage: a tick reads only the workspaces due, along
 * the partial index `workspaces_lifecycle_due` in its order (SQLite: `USING INDEX`, no `TEMP
 * B-TREE`; Postgres, with sorting priced out: the index and no Sort node), whatever the number of
 * idle workspaces. A workspace is due at once after each write to what the rules read, and at
 * its stored time otherwise; a stored time never overwrites a change made after the read.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  type LifecycleCandidate,
  LifecycleCandidates,
  ProvisionerJobRepo,
  TemplateRepo,
  UserRepo,
  WorkspaceBuildRepo,
  WorkspaceRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { toDateOrNull } from "../../src/Columns.js"
import { lifecycleDueStatement } from "../../src/workspaces/LifecycleRepositories.js"
import { queryPlan } from "../QueryPlan.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { build, job, workspace, type World, world } from "./BuildRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T = Date.UTC(2024, 6, 1, 12, 0, 0)
const at = (minutes: number) => new Date(T + minutes * 60_000)

/** The plan of the tick's read, one line per step. */
const tickPlan = Effect.flatMap(SqlClient.SqlClient, (sql) => {
  const [text, params] = lifecycleDueStatement(sql, at(0), 1000).compile()
  return queryPlan(text, params, "sort")
})

/** A workspace with one build whose job succeeded; answers it and its build. */
const withBuild = (w: World, transition: "start" | "stop", overrides: Parameters<typeof workspace>[1] = {}) =>
  Effect.gen(function*() {
    const ws = workspace(w, overrides)
    yield* (yield* WorkspaceRepo).insert(ws)
    const b = build(w, ws.id, yield* job(w), { transition })
    yield* (yield* WorkspaceBuildRepo).insert(b)
    return { ws, build: b }
  })

const dueIds = (now: Date) =>
  Effect.flatMap(LifecycleCandidates, (c) => c.due(now, 1000)).pipe(Effect.map((cs) => cs.map((c) => c.workspace.id)))

const candidate = (id: string, now: Date) =>
  Effect.flatMap(LifecycleCandidates, (c) => c.due(now, 1000)).pipe(
    Effect.map((cs) => cs.find((c) => c.workspace.id === id))
  )

/** Looks at workspace `id` (due at `now`) and stores `next` as its due time, as the executor does. */
const look = (id: string, now: Date, next: Date | null) =>
  Effect.gen(function*() {
    const c = yield* candidate(id, now)
    expect(c, `workspace ${id} due at ${now.toISOString()}`).toBeDefined()
    yield* Effect.flatMap(LifecycleCandidates, (cs) => cs.reschedule(c!, next))
    return c!
  })

const stored = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rs = yield* sql<{ lifecycle_due_at: unknown }>`SELECT lifecycle_due_at FROM workspaces WHERE id = ${id}`
    return toDateOrNull(rs[0]!.lifecycle_due_at)
  })

export const lifecycleSuite = (
  name: string,
  dialect: "sqlite" | "pg",
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`lifecycle candidates on ${name}`, () => {
    test(
      "a tick reads the workspaces due along workspaces_lifecycle_due, with no sort step",
      Effect.gen(function*() {
        const text = (yield* tickPlan).join("\n")
        expect(text).toContain("workspaces_lifecycle_due")
        if (dialect === "sqlite") expect(text).not.toMatch(/TEMP B-TREE|SCAN workspaces/)
        else expect(text).not.toMatch(/\bSort\b|Seq Scan/)
      })
    )

    test(
      "a new workspace is due at once; once looked at, at its stored time and not before",
      Effect.gen(function*() {
        const w = yield* world
        const { ws } = yield* withBuild(w, "start")
        const c = yield* look(ws.id, at(0), at(60))
        expect(c.latestBuild.transition).toBe("start")
        expect(c.ownerStatus).toBe("active")
        expect(yield* stored(ws.id)).toEqual(at(60))
        expect(yield* dueIds(at(59))).not.toContain(ws.id)
        expect(yield* dueIds(at(60))).toContain(ws.id)
        // Nothing can fire: never due until it changes.
        yield* look(ws.id, at(60), null)
        expect(yield* dueIds(at(100_000))).not.toContain(ws.id)
      })
    )

    test(
      "idle workspaces are not read: only the due ones, earliest first, at most the limit",
      Effect.gen(function*() {
        const w = yield* world
        const made = []
        for (let i = 0; i < 5; i++) made.push((yield* withBuild(w, "stop")).ws.id)
        for (const [i, id] of made.entries()) yield* look(id, at(0), i < 2 ? at(10 - i) : null)
        const cs = yield* Effect.flatMap(LifecycleCandidates, (c) => c.due(at(30), 1))
        expect(cs.map((c) => c.workspace.id)).toEqual([made[1]])
        expect(yield* dueIds(at(30))).toEqual([made[1], made[0]])
      })
    )

    test(
      "a change after the read wins: the stored time is dropped and the workspace stays due",
      Effect.gen(function*() {
        const w = yield* world
        const { ws } = yield* withBuild(w, "stop")
        const c = yield* candidate(ws.id, at(0))
        // A schedule set between the tick's read and its answer.
        yield* (yield* WorkspaceRepo).update(ws.id, {
          autostart_schedule: "CRON_TZ=UTC 0 9 * * *",
          next_start_at: at(100)
        })
        yield* Effect.flatMap(LifecycleCandidates, (cs) => cs.reschedule(c!, null))
        expect(yield* dueIds(at(0))).toContain(ws.id)
        // The next look stores its answer.
        yield* look(ws.id, at(1), at(100))
        expect(yield* dueIds(at(99))).not.toContain(ws.id)
      })
    )

    test(
      "each write to what the rules read makes the workspace due at once; a report of use does not",
      Effect.gen(function*() {
        const w = yield* world
        const workspaces = yield* WorkspaceRepo
        const { ws, build: b } = yield* withBuild(w, "start")
        const quiet = (next: Date | null) => look(ws.id, at(10_000), next)
        const isDue = Effect.map(dueIds(at(0)), (ids) => ids.includes(ws.id))

        yield* quiet(null)
        yield* workspaces.update(ws.id, { last_used_at: at(5), favorite: true, name: "renamed", ttl_ms: 60_000 })
        expect(yield* isDue).toBe(false)

        yield* workspaces.update(ws.id, { dormant_at: at(0), deleting_at: at(10) })
        expect(yield* isDue).toBe(true)
        yield* quiet(null)

        // A new build, and the end of its job.
        const sql = yield* SqlClient.SqlClient
        const running = randomUUID()
        const t = at(0).toISOString()
        yield* sql`INSERT INTO provisioner_jobs (id, created_at, updated_at, started_at, organization_id, initiator_id, provisioner, type,
          file_id, worker_id) VALUES (${running}, ${t}, ${t}, ${t}, ${w.org}, ${w.user}, 'workbay', 'workspace_build', ${randomUUID()}, 'wk')`
        const second = build(w, ws.id, running, { build_number: 2, transition: "stop" })
        yield* (yield* WorkspaceBuildRepo).insert(second)
        expect(yield* isDue).toBe(true)
        yield* quiet(null)
        yield* (yield* ProvisionerJobRepo).complete(running, "wk", {}, at(1))
        expect(yield* isDue).toBe(true)
        yield* quiet(null)

        // A deadline: due by it, whatever was stored; a later one leaves an earlier due time.
        yield* (yield* WorkspaceBuildRepo).setDeadline(b.id, { deadline: at(30) }, at(0))
        expect(yield* stored(ws.id)).toEqual(at(30))
        yield* (yield* WorkspaceBuildRepo).setDeadline(b.id, { deadline: at(90) }, at(0))
        expect(yield* stored(ws.id)).toEqual(at(30))
        yield* (yield* WorkspaceBuildRepo).setDeadline(b.id, { deadline: null }, at(0))
        expect(yield* stored(ws.id)).toEqual(at(30))
        yield* quiet(null)

        // The template's lifecycle settings (not its other settings), the owner's status.
        yield* (yield* TemplateRepo).update(w.template, { description: "new words" })
        expect(yield* isDue).toBe(false)
        yield* (yield* TemplateRepo).update(w.template, { time_til_dormant_ms: 86_400_000 })
        expect(yield* isDue).toBe(true)
        yield* quiet(null)
        yield* (yield* UserRepo).update(w.user, { status: "suspended" })
        expect(yield* isDue).toBe(true)
        const c = (yield* candidate(ws.id, at(0))) as LifecycleCandidate
        expect(c.ownerStatus).toBe("suspended")
      })
    )

    test(
      "a tick gives each workspace its own job, template and owner (read once for all), and skips one with no build",
      Effect.gen(function*() {
        const [a, b] = [yield* world, yield* world]
        yield* (yield* UserRepo).update(b.user, { status: "suspended" })
        const first = yield* withBuild(a, "start")
        const second = yield* withBuild(b, "stop")
        const bare = workspace(a)
        yield* (yield* WorkspaceRepo).insert(bare)
        const cs = yield* Effect.flatMap(LifecycleCandidates, (c) => c.due(at(0), 1000))
        const of = (id: string) => cs.find((c) => c.workspace.id === id)
        expect(of(first.ws.id)).toMatchObject({
          latestBuild: { id: first.build.id },
          job: { id: first.build.job_id },
          template: { id: a.template },
          ownerStatus: "active"
        })
        expect(of(second.ws.id)).toMatchObject({
          latestBuild: { id: second.build.id },
          job: { id: second.build.job_id },
          template: { id: b.template },
          ownerStatus: "suspended"
        })
        // Nothing to decide on: not a candidate, and not due again until it changes.
        expect(of(bare.id)).toBeUndefined()
        expect(yield* stored(bare.id)).toBeNull()
        expect(yield* dueIds(at(100_000))).not.toContain(bare.id)
      })
    )

    test(
      "deleted workspaces are never due",
      Effect.gen(function*() {
        const w = yield* world
        const { ws } = yield* withBuild(w, "start")
        yield* (yield* WorkspaceRepo).update(ws.id, { deleted: true, dormant_at: at(0) })
        expect(yield* dueIds(at(0))).not.toContain(ws.id)
      })
    )
  })
}
