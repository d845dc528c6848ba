/**
 * The port share repository contract, run against every storage: upsert on (workspace, agent,
 * port) in one statement, listing by port, deleting with its outcome, and the agent lookup on
 * the latest build only. The rows builds make (jobs, builds, resources, agents) are written
 * directly. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { PortShareRepo } from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const T = new Date(Date.UTC(2024, 6, 1, 10)).toISOString()

/** An organization, a user, a template with a version, and a workspace of theirs. */
export const workspaceRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const org = randomUUID()
  const user = randomUUID()
  const template = randomUUID()
  const version = randomUUID()
  const importJob = randomUUID()
  const workspace = randomUUID()
  yield* sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
    VALUES (${org}, ${`org-${org.slice(0, 8)}`}, 'Org', ${T}, ${T})`
  yield* sql`INSERT INTO users (id, email, username, login_type, status, created_at, updated_at, last_seen_at)
    VALUES (${user}, ${`${user}@example.com`}, ${`u${user.slice(0, 8)}`}, 'password', 'active', ${T}, ${T}, ${T})`
  yield* sql`INSERT INTO templates (id, created_at, updated_at, organization_id, name, provisioner, active_version_id, created_by)
    VALUES (${template}, ${T}, ${T}, ${org}, 'tpl', 'workbay', ${version}, ${user})`
  yield* sql`INSERT INTO provisioner_jobs (id, created_at, updated_at, organization_id, initiator_id, provisioner, type, file_id)
    VALUES (${importJob}, ${T}, ${T}, ${org}, ${user}, 'workbay', 'template_version_import', ${randomUUID()})`
  yield* sql`INSERT INTO template_versions (id, template_id, organization_id, created_at, updated_at, name, job_id, created_by, file_id, provisioner)
    VALUES (${version}, ${template}, ${org}, ${T}, ${T}, 'v1', ${importJob}, ${user}, ${randomUUID()}, 'workbay')`
  yield* sql`INSERT INTO workspaces (id, created_at, updated_at, owner_id, organization_id, template_id, name, last_used_at)
    VALUES (${workspace}, ${T}, ${T}, ${user}, ${org}, ${template}, ${`ws-${workspace.slice(0, 8)}`}, ${T})`
  return { org, user, template, version, workspace }
}).pipe(Effect.orDie)

/** Another workspace of the same owner on the template of `ws`. */
const sibling = (ws: { org: string; user: string; template: string }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const workspace = randomUUID()
    yield* sql`INSERT INTO workspaces (id, created_at, updated_at, owner_id, organization_id, template_id, name, last_used_at)
      VALUES (${workspace}, ${T}, ${T}, ${ws.user}, ${ws.org}, ${ws.template}, ${`ws-${workspace.slice(0, 8)}`}, ${T})`
    return workspace
  }).pipe(Effect.orDie)

/** A build of `ws` numbered `number`, whose job made one resource with agents named `agents`. */
const build = (
  ws: { org: string; user: string; version: string; workspace: string },
  number: number,
  agents: ReadonlyArray<string>
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const job = randomUUID()
    const resource = randomUUID()
    yield* sql`INSERT INTO provisioner_jobs (id, created_at, updated_at, organization_id, initiator_id, provisioner, type, file_id)
      VALUES (${job}, ${T}, ${T}, ${ws.org}, ${ws.user}, 'workbay', 'workspace_build', ${randomUUID()})`
    yield* sql`INSERT INTO workspace_builds (id, created_at, updated_at, workspace_id, template_version_id, build_number, transition, initiator_id, job_id)
      VALUES (${randomUUID()}, ${T}, ${T}, ${ws.workspace}, ${ws.version}, ${number}, 'start', ${ws.user}, ${job})`
    yield* sql`INSERT INTO workspace_resources (id, created_at, job_id, transition, type, name)
      VALUES (${resource}, ${T}, ${job}, 'start', 'docker_container', 'dev')`
    for (const name of agents) {
      yield* sql`INSERT INTO workspace_agents (id, created_at, updated_at, resource_id, name, auth_token_hash)
        VALUES (${randomUUID()}, ${T}, ${T}, ${resource}, ${name}, ${randomUUID()})`
    }
  }).pipe(Effect.orDie)

export const portShareRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`port share repositories on ${name}`, () => {
    test(
      "upserts on (workspace, agent, port), lists by port, deletes with the outcome",
      Effect.gen(function*() {
        const repo = yield* PortShareRepo
        const ws = yield* workspaceRows
        const other = yield* workspaceRows
        expect(yield* repo.list(ws.workspace)).toEqual([])
        const high = {
          workspace_id: ws.workspace,
          agent_name: "main",
          port: 8080,
          share_level: "authenticated",
          protocol: "http"
        } as const
        expect(yield* repo.upsert(high)).toEqual(high)
        const low = { ...high, port: 3000, share_level: "public", protocol: "https" } as const
        yield* repo.upsert(low)
        const sidecar = { ...high, agent_name: "sidecar" }
        yield* repo.upsert(sidecar)
        yield* repo.upsert({ ...high, workspace_id: other.workspace })
        expect(yield* repo.list(ws.workspace)).toEqual([low, high, sidecar])

        const changed = yield* repo.upsert({ ...high, share_level: "organization", protocol: "https" })
        expect(changed).toEqual({ ...high, share_level: "organization", protocol: "https" })
        expect(Option.getOrThrow(yield* repo.find(ws.workspace, "main", 8080))).toEqual(changed)
        expect((yield* repo.list(ws.workspace)).length).toBe(3)

        expect(yield* repo.delete(ws.workspace, "main", 8080)).toBe(true)
        expect(yield* repo.delete(ws.workspace, "main", 8080)).toBe(false)
        expect(Option.isNone(yield* repo.find(ws.workspace, "main", 8080))).toBe(true)
        expect(yield* repo.list(ws.workspace)).toEqual([low, sidecar])
        expect((yield* repo.list(other.workspace)).length).toBe(1)
      })
    )

    test(
      "lowers the shares of a template's workspaces to its maximum, and deletes them at owner",
      Effect.gen(function*() {
        const repo = yield* PortShareRepo
        const ws = yield* workspaceRows
        const second = yield* sibling(ws)
        const other = yield* workspaceRows
        const at = (workspace_id: string, port: number, share_level: "organization" | "authenticated" | "public") =>
          ({ workspace_id, agent_name: "main", port, share_level, protocol: "https" }) as const
        for (
          const s of [
            at(ws.workspace, 1000, "organization"),
            at(ws.workspace, 2000, "authenticated"),
            at(ws.workspace, 3000, "public"),
            at(second, 3000, "public"),
            at(other.workspace, 3000, "public")
          ]
        ) yield* repo.upsert(s)
        const levels = (workspace: string) => Effect.map(repo.list(workspace), (rs) => rs.map((r) => r.share_level))

        expect(yield* repo.lowerToTemplateMax(ws.template, "public")).toBe(0)
        expect(yield* repo.lowerToTemplateMax(ws.template, "authenticated")).toBe(2)
        expect(yield* levels(ws.workspace)).toEqual(["organization", "authenticated", "authenticated"])
        expect(yield* levels(second)).toEqual(["authenticated"])
        expect(yield* repo.lowerToTemplateMax(ws.template, "organization")).toBe(3)
        expect(yield* levels(ws.workspace)).toEqual(["organization", "organization", "organization"])
        expect((yield* repo.list(ws.workspace))[2]).toEqual(at(ws.workspace, 3000, "organization"))
        expect(yield* repo.lowerToTemplateMax(ws.template, "owner")).toBe(4)
        expect(yield* repo.list(ws.workspace)).toEqual([])
        expect(yield* repo.list(second)).toEqual([])
        expect(yield* levels(other.workspace)).toEqual(["public"])
      })
    )

    test(
      "finds agents of the latest build only",
      Effect.gen(function*() {
        const repo = yield* PortShareRepo
        const ws = yield* workspaceRows
        expect(yield* repo.latestBuildHasAgent(ws.workspace, "main")).toBe(false)
        yield* build(ws, 1, ["main", "old"])
        expect(yield* repo.latestBuildHasAgent(ws.workspace, "old")).toBe(true)
        yield* build(ws, 2, ["main"])
        expect(yield* repo.latestBuildHasAgent(ws.workspace, "main")).toBe(true)
        expect(yield* repo.latestBuildHasAgent(ws.workspace, "old")).toBe(false)
        expect(yield* repo.latestBuildHasAgent(ws.workspace, "MAIN")).toBe(false)
        yield* build(ws, 3, [])
        expect(yield* repo.latestBuildHasAgent(ws.workspace, "main")).toBe(false)
      })
    )
  })
}
