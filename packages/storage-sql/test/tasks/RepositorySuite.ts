/**
 * The task repository contract, run against every storage: insert with names unique per owner
 * among undeleted tasks, reads by id and by name, changes, listings (visibility, owner and
 * organization filters, newest first, paging, counts kept per owner), tasks following their
 * workspace's deletion, and the plan of an owner's page. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type TaskFilter, type TaskRecord, TaskRepo, WorkspaceRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as TaskRepositories from "../../src/tasks/Repositories.js"
import { queryPlan } from "../QueryPlan.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"
import { workspaceRows } from "../workspaces/PortShareRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const at = (minute: number) => new Date(Date.UTC(2024, 6, 1, 10, minute))

type Rows = Effect.Effect.Success<typeof workspaceRows>

const task = (ws: Rows, over: Partial<TaskRecord> = {}): TaskRecord => ({
  id: randomUUID(),
  created_at: at(0),
  updated_at: at(0),
  organization_id: ws.org,
  owner_id: ws.user,
  name: `task-${randomUUID().slice(0, 8)}`,
  display_name: "A task",
  prompt: "Do it",
  template_id: ws.template,
  template_version_id: ws.version,
  app_slug: "claude",
  template_version_preset_id: null,
  workspace_id: ws.workspace,
  deleted: false,
  ...over
})

const all = (userId: string): TaskFilter["visibility"] => ({ all: true, organizationIds: [], userId })
const own = (userId: string, organizationIds: ReadonlyArray<string> = []): TaskFilter["visibility"] => ({
  all: false,
  organizationIds,
  userId
})

export const taskRepositorySuite = (
  name: string,
  dialect: "sqlite" | "pg",
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`task repositories on ${name}`, () => {
    test(
      "inserts, reads by id and by name (case-insensitive), refuses a second undeleted name of the owner, changes",
      Effect.gen(function*() {
        const repo = yield* TaskRepo
        const ws = yield* workspaceRows
        const t = task(ws, { name: "fix-login" })
        yield* repo.insert(t)
        expect(Option.getOrThrow(yield* repo.findById(t.id))).toEqual(t)
        expect(Option.getOrThrow(yield* repo.findByOwnerAndName(ws.user, "FIX-Login")).id).toBe(t.id)
        expect(Option.isNone(yield* repo.findByOwnerAndName(randomUUID(), "fix-login"))).toBe(true)
        const clash = yield* Effect.flip(repo.insert(task(ws, { name: "Fix-Login" })))
        expect(clash._tag).toBe("UniqueViolation")
        const changed = Option.getOrThrow(yield* repo.update(t.id, { prompt: "Do it again", updated_at: at(5) }))
        expect(changed).toEqual({ ...t, prompt: "Do it again", updated_at: at(5) })
        expect(Option.isNone(yield* repo.update(randomUUID(), { prompt: "x" }))).toBe(true)
        // A deleted task frees its name.
        yield* repo.update(t.id, { deleted: true })
        expect(Option.isNone(yield* repo.findByOwnerAndName(ws.user, "fix-login"))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findById(t.id)).deleted).toBe(true)
        yield* repo.insert(task(ws, { name: "fix-login" }))
      })
    )

    test(
      "lists newest first, a page at a time, within the caller's visibility and the filters, with counts",
      Effect.gen(function*() {
        const repo = yield* TaskRepo
        const a = yield* workspaceRows
        const b = yield* workspaceRows
        const mine = [1, 2, 3].map((m) => task(a, { created_at: at(m) }))
        const theirs = task(b, { created_at: at(4) })
        for (const t of [...mine, theirs]) yield* repo.insert(t)
        const ids = (r: { tasks: ReadonlyArray<TaskRecord> }) => r.tasks.map((t) => t.id)

        const page = yield* repo.list({ visibility: own(a.user), ownerIds: [a.user], limit: 2, offset: 0 })
        expect(ids(page)).toEqual([mine[2]!.id, mine[1]!.id])
        expect(page.count).toBe(3)
        const next = yield* repo.list({ visibility: own(a.user), ownerIds: [a.user], limit: 2, offset: 2 })
        expect(ids(next)).toEqual([mine[0]!.id])
        // Without filters a member sees their own only; an organization reader theirs too; everything for `all`.
        expect(ids(yield* repo.list({ visibility: own(a.user), limit: 10, offset: 0 }))).toEqual(
          ids(page).concat(ids(next))
        )
        expect((yield* repo.list({ visibility: own(a.user), ownerIds: [b.user], limit: 10, offset: 0 })).count).toBe(0)
        const viaOrg = yield* repo.list({ visibility: own(a.user, [b.org]), limit: 10, offset: 0 })
        expect(ids(viaOrg)).toEqual([theirs.id, ...ids(page), ...ids(next)])
        expect(viaOrg.count).toBe(4)
        const everyone = yield* repo.list({ visibility: all(a.user), limit: 10, offset: 0 })
        expect(ids(everyone).slice(0, 4)).toEqual(ids(viaOrg))
        expect((yield* repo.list({ visibility: all(a.user), organizationIds: [b.org], limit: 10, offset: 0 })).count)
          .toBe(1)
        expect((yield* repo.list({ visibility: all(a.user), ownerIds: [b.user], limit: 10, offset: 0 })).count).toBe(1)
        expect((yield* repo.list({ visibility: all(a.user), organizationIds: [], limit: 10, offset: 0 })).count).toBe(0)
      })
    )

    test(
      "a task follows its workspace's deletion: it leaves listings, its count drops and its name is free",
      Effect.gen(function*() {
        const repo = yield* TaskRepo
        const workspaces = yield* WorkspaceRepo
        const ws = yield* workspaceRows
        const t = task(ws, { name: "goes-away" })
        yield* repo.insert(t)
        const listing = () => repo.list({ visibility: own(ws.user), ownerIds: [ws.user], limit: 10, offset: 0 })
        expect((yield* listing()).count).toBe(1)
        yield* workspaces.update(ws.workspace, { deleted: true })
        expect(Option.getOrThrow(yield* repo.findById(t.id)).deleted).toBe(true)
        expect(yield* listing()).toEqual({ tasks: [], count: 0 })
        expect(Option.isNone(yield* repo.findByOwnerAndName(ws.user, "goes-away"))).toBe(true)
        // Deleting again moves nothing.
        yield* workspaces.update(ws.workspace, { deleted: true })
        expect((yield* listing()).count).toBe(0)
      })
    )

    test(
      "the page of one owner's tasks walks tasks_owner_created with no sort step",
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const me = randomUUID()
        const [text, params] = TaskRepositories.listPage(sql, {
          visibility: own(me),
          ownerIds: [me],
          limit: 25,
          offset: 0
        }).compile()
        const plan = (yield* queryPlan(text, params, "sort")).join("\n")
        expect(plan).toContain("tasks_owner_created")
        if (dialect === "sqlite") expect(plan).not.toMatch(/TEMP B-TREE/)
        else expect(plan).not.toMatch(/\bSort\b/)
      })
    )
  })
}
