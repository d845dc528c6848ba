/**
 * The workspace list reads along an index in its sort order, whatever the number of rows: the
 * default page (every workspace, or `owner:me`) has no sort step over the table in its plan
 * (SQLite: no `USE TEMP B-TREE FOR ORDER BY`; Postgres, with sorting priced out: no Sort node,
 * which it would keep if no index gave the order). And the kept counts follow inserts and deletions.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { newWorkspace, UserRepo, type WorkspaceFilter, WorkspaceRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { latestBuildsStatement } from "../../src/workspaces/BuildRepositories.js"
import { listStatements } from "../../src/workspaces/Repositories.js"
import { queryPlan } from "../QueryPlan.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const me = randomUUID()
const base: WorkspaceFilter = {
  visibility: { all: true, organizationIds: [], userId: me, groupIds: [] },
  requesterId: me,
  deleted: false,
  limit: 25,
  offset: 0
}
const cases: ReadonlyArray<[string, WorkspaceFilter, string]> = [
  ["every workspace (an owner's view)", base, "workspaces_list"],
  ["owner:me of a member", {
    ...base,
    visibility: { all: false, organizationIds: [], userId: me, groupIds: [] },
    ownerIds: [me]
  }, "workspaces_owner_list"]
]

/** The plan of the page after the favorites, one line per step. */
const planOf = (f: WorkspaceFilter) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const [text, params] = listStatements(sql, f).rest(25, 0).compile()
    return queryPlan(text, params, "sort")
  })

export const workspaceListPlanSuite = (
  name: string,
  dialect: "sqlite" | "pg",
  makeStorage: StorageFactory,
  options: SuiteOptions = {}
) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`workspace list plan on ${name}`, () => {
    for (const [title, filter, index] of cases) {
      test(
        `the page of ${title} walks ${index} with no sort step, each row's latest build found by its index`,
        Effect.gen(function*() {
          const plan = yield* planOf(filter)
          const text = plan.join("\n")
          expect(text).toContain(index)
          expect(text).toContain("workspace_builds_number")
          if (dialect === "sqlite") expect(text).not.toMatch(/TEMP B-TREE/)
          else expect(text).not.toMatch(/\bSort\b/)
        })
      )
    }

    test(
      "a page picked by id (q=id:...) reads those rows along the primary key, not the whole list index",
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [text, params] = listStatements(sql, { ...base, ids: [randomUUID(), randomUUID()] }).count.compile()
        const plan = (yield* queryPlan(text, params, "sort")).join("\n")
        if (dialect === "sqlite") {
          expect(plan).toContain("sqlite_autoindex_workspaces_1")
          expect(plan).not.toContain("workspaces_list")
        } else expect(plan).toMatch(/workspaces_pkey/)
      })
    )

    test(
      "the latest builds of a page are found by workspace and number, not by reading every build of the workspaces",
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [text, params] = latestBuildsStatement(sql, "b.*", [randomUUID(), randomUUID()]).compile()
        const plan = (yield* queryPlan(text, params, "seqscan")).join("\n")
        if (dialect === "sqlite") expect(plan).toContain("workspace_builds_number (workspace_id=? AND build_number=?)")
        else {
          // One row from the index, newest first, per workspace: no filter over its builds.
          expect(plan).toMatch(/Index Scan Backward using workspace_builds_number on workspace_builds x/)
          expect(plan).not.toMatch(/Filter: .*build_number/)
        }
      })
    )

    test(
      "counts undeleted workspaces from the kept counts, in all and per owner",
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const repo = yield* WorkspaceRepo
        const t = new Date(Date.UTC(2024, 6, 1)).toISOString()
        const org = randomUUID()
        const template = randomUUID()
        yield* sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at) VALUES (${org}, 'o', 'O', ${t}, ${t})`
        const users = [randomUUID(), randomUUID()]
        for (const [i, u] of users.entries()) {
          yield* sql`INSERT INTO users (id, email, username, login_type, status, created_at, updated_at, last_seen_at)
            VALUES (${u}, ${`${u}@example.com`}, ${i === 0 ? "Zed" : "amy"}, 'password', 'active', ${t}, ${t}, ${t})`
        }
        yield* sql`INSERT INTO templates (id, created_at, updated_at, organization_id, name, provisioner, active_version_id, created_by)
          VALUES (${template}, ${t}, ${t}, ${org}, 'tpl', 'workbay', ${randomUUID()}, ${users[0]!})`
        const ids: Array<string> = []
        for (const [i, owner] of [users[0]!, users[0]!, users[1]!].entries()) {
          const id = randomUUID()
          ids.push(id)
          yield* repo.insert(
            newWorkspace({
              id,
              at: new Date(t),
              owner_id: owner,
              organization_id: org,
              template_id: template,
              name: `w${i}`
            })
          )
        }
        const all = { ...base, requesterId: users[0]! }
        const page = yield* repo.list(all)
        expect(page.count).toBe(3)
        // By owner username (lower-cased), then name.
        expect(page.workspaces.map((w) => w.id)).toEqual([ids[2], ids[0], ids[1]])
        // No build yet: none read with the page.
        expect(page.latestBuilds).toEqual([])
        expect((yield* repo.list({ ...all, ownerIds: [users[0]!] })).count).toBe(2)
        yield* repo.update(ids[0]!, { deleted: true })
        yield* repo.update(ids[0]!, { deleted: true })
        expect((yield* repo.list(all)).count).toBe(2)
        expect((yield* repo.list({ ...all, ownerIds: [users[0]!] })).count).toBe(1)
        // A filtered list counts its rows; it agrees.
        expect((yield* repo.list({ ...all, name: "w" })).count).toBe(2)
        // A renamed owner moves in the order.
        yield* (yield* UserRepo).update(users[0]!, { username: "bob" })
        expect((yield* repo.list(all)).workspaces.map((w) => w.id)).toEqual([ids[2], ids[1]])
      })
    )
  })
}
