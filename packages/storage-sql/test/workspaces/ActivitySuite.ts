/**
 * The contract of workspaces' use through their agents (`WorkspaceActivityRepo`), run against every
 * storage: the read of many workspaces with their templates and latest builds, and the write of
 * many uses at once (`last_used_at` never moved back, a bumped deadline only when later, the
 * lifecycle marks of a moved deadline). Rows are written directly. A fresh database per test.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { WorkspaceActivityRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { workspaceRows } from "./PortShareRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T0 = Date.UTC(2024, 6, 1, 10)
const at = (minutes: number) => new Date(T0 + minutes * 60_000)
const iso = (minutes: number) => at(minutes).toISOString()
const time = (v: unknown) => (v === null ? null : new Date(v as string).toISOString())

/** A build of `ws` numbered `number` whose job ended as `status`, with its deadlines (minutes from T0). */
const build = (
  ws: { org: string; user: string; version: string; workspace: string },
  number: number,
  options: { transition?: string; status: "succeeded" | "running"; deadline: number | null; max?: number | null }
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const job = randomUUID()
    const id = randomUUID()
    yield* sql`INSERT INTO provisioner_jobs (id, created_at, updated_at, organization_id, initiator_id, provisioner, type,
        file_id, started_at, completed_at)
      VALUES (${job}, ${iso(0)}, ${iso(0)}, ${ws.org}, ${ws.user}, 'workbay', 'workspace_build', ${randomUUID()},
        ${iso(0)}, ${options.status === "succeeded" ? iso(1) : null})`
    yield* sql`INSERT INTO workspace_builds (id, created_at, updated_at, workspace_id, template_version_id, build_number,
        transition, initiator_id, job_id, deadline, max_deadline)
      VALUES (${id}, ${iso(0)}, ${iso(0)}, ${ws.workspace}, ${ws.version}, ${number}, ${options.transition ?? "start"},
        ${ws.user}, ${job}, ${options.deadline === null ? null : iso(options.deadline)},
        ${options.max === undefined || options.max === null ? null : iso(options.max)})`
    return id
  }).pipe(Effect.orDie)

const workspaceRow = (id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<
        Record<string, unknown>
      >`SELECT last_used_at, lifecycle_version, lifecycle_due_at FROM workspaces WHERE id = ${id}`
  )
    .pipe(
      Effect.map(([r]) => ({
        last_used_at: time(r!.last_used_at),
        lifecycle_version: Number(r!.lifecycle_version),
        lifecycle_due_at: time(r!.lifecycle_due_at)
      })),
      Effect.orDie
    )

const deadlineOf = (buildId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<Record<string, unknown>>`SELECT deadline FROM workspace_builds
    WHERE id = ${buildId}`).pipe(Effect.map(([r]) => time(r!.deadline)), Effect.orDie)

export const activitySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`workspace activity repository on ${name}`, () => {
    test(
      "reads many workspaces with their templates and latest builds, leaving out deleted and unknown ones",
      Effect.gen(function*() {
        const repo = yield* WorkspaceActivityRepo
        const sql = yield* SqlClient.SqlClient
        const a = yield* workspaceRows
        const b = yield* workspaceRows
        const gone = yield* workspaceRows
        yield* build(a, 1, { status: "succeeded", deadline: 10 })
        const latest = yield* build(a, 2, { status: "succeeded", deadline: 60, max: 600 })
        const running = yield* build(b, 1, { status: "running", deadline: null })
        yield* build(gone, 1, { status: "succeeded", deadline: 60 })
        yield* sql`UPDATE workspaces SET deleted = TRUE WHERE id = ${gone.workspace}`
        yield* sql`UPDATE workspaces SET ttl_ms = 7200000, autostart_schedule = 'CRON_TZ=UTC 0 9 * * *'
          WHERE id = ${a.workspace}`
        yield* sql`UPDATE templates SET activity_bump_ms = 1800000, allow_user_autostop = FALSE WHERE id = ${a.template}`
        const found = yield* repo.candidates([a.workspace, b.workspace, gone.workspace, randomUUID()])
        const byId = new Map(found.map((c) => [c.workspace.id, c]))
        expect(found).toHaveLength(2)
        expect(byId.get(a.workspace)).toEqual({
          workspace: { id: a.workspace, ttl_ms: 7_200_000, autostart_schedule: "CRON_TZ=UTC 0 9 * * *" },
          template: {
            activity_bump_ms: 1_800_000,
            allow_user_autostop: false,
            default_ttl_ms: 0,
            autostart_requirement_days_of_week: 127
          },
          build: { id: latest, transition: "start", deadline: at(60), max_deadline: at(600) },
          jobCompleted: true
        })
        expect(byId.get(b.workspace)?.build).toEqual({
          id: running,
          transition: "start",
          deadline: null,
          max_deadline: null
        })
        expect(byId.get(b.workspace)?.jobCompleted).toBe(false)
        expect(yield* repo.candidates([])).toEqual([])
      })
    )

    test(
      "records many uses at once: last_used_at never moved back, deadlines only later, a moved deadline's lifecycle marks",
      Effect.gen(function*() {
        const repo = yield* WorkspaceActivityRepo
        const sql = yield* SqlClient.SqlClient
        const a = yield* workspaceRows
        const b = yield* workspaceRows
        const c = yield* workspaceRows
        const ba = yield* build(a, 1, { status: "succeeded", deadline: 60 })
        const bb = yield* build(b, 1, { status: "succeeded", deadline: 90 })
        yield* build(c, 1, { status: "succeeded", deadline: 60 })
        // c was used later than this report (by another replica, say); a is due by 30 minutes, b not at all.
        yield* sql`UPDATE workspaces SET last_used_at = ${iso(50)} WHERE id = ${c.workspace}`
        yield* sql`UPDATE workspaces SET lifecycle_due_at = ${iso(30)} WHERE id = ${a.workspace}`
        yield* sql`UPDATE workspaces SET lifecycle_due_at = NULL WHERE id = ${b.workspace}`
        const before = { a: yield* workspaceRow(a.workspace), b: yield* workspaceRow(b.workspace) }
        const moved = yield* repo.recordUse(
          [a.workspace, b.workspace, c.workspace],
          [
            { workspace_id: a.workspace, build_id: ba, deadline: at(100) },
            // Earlier than b's own deadline (moved meanwhile by an extend): kept.
            { workspace_id: b.workspace, build_id: bb, deadline: at(80) }
          ],
          at(40)
        )
        expect(moved).toEqual([a.workspace])
        expect(yield* deadlineOf(ba)).toBe(iso(100))
        expect(yield* deadlineOf(bb)).toBe(iso(90))
        const after = {
          a: yield* workspaceRow(a.workspace),
          b: yield* workspaceRow(b.workspace),
          c: yield* workspaceRow(c.workspace)
        }
        expect(after.a).toEqual({
          last_used_at: iso(40),
          lifecycle_version: before.a.lifecycle_version + 1,
          // Due earlier than the new deadline already: kept.
          lifecycle_due_at: iso(30)
        })
        expect(after.b).toEqual({ ...before.b, last_used_at: iso(40) })
        expect(after.c.last_used_at).toBe(iso(50))
        // A bump of a workspace due at nothing makes it due by the new deadline.
        const moved2 = yield* repo.recordUse(
          [b.workspace],
          [{ workspace_id: b.workspace, build_id: bb, deadline: at(120) }],
          at(45)
        )
        expect(moved2).toEqual([b.workspace])
        expect(yield* workspaceRow(b.workspace)).toEqual({
          last_used_at: iso(45),
          lifecycle_version: before.b.lifecycle_version + 1,
          lifecycle_due_at: iso(120)
        })
        expect(yield* repo.recordUse([], [], at(50))).toEqual([])
      })
    )
  })
}
