/**
 * Port sharing fixtures: workspaces and their builds written straight into storage (the
 * workspace routes are not on this branch), each build with a finished job, one resource and
 * agents of the given names, as a build's provisioner job leaves them.
 */
import { SqlClient } from "@effect/sql"
import { newWorkspace, type WorkspaceAcl, WorkspaceRepo } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { Client, ServiceTestServer } from "../support.js"
import { makeTemplate } from "../templates/fixtures.js"

export interface SeededWorkspace {
  readonly id: string
  readonly name: string
  readonly ownerId: string
  readonly organizationId: string
  readonly templateId: string
  readonly versionId: string
}

let counter = 0

/** A template of `organizationId` (made through the route as `admin`) whose ports may be shared up to `maxLevel`. */
export const portShareTemplate = (
  srv: ServiceTestServer,
  admin: Client,
  init: { organizationId: string; createdBy: string; maxLevel?: string }
) =>
  makeTemplate(srv, admin, {
    organizationId: init.organizationId,
    createdBy: init.createdBy,
    name: `ps-tpl-${++counter}-${Date.now() % 100000}`,
    body: init.maxLevel === undefined ? {} : { max_port_share_level: init.maxLevel }
  })

// The storage provides its SqlClient too (not part of the services' declared type).
const runSql = <A>(srv: ServiceTestServer, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  srv.run(Effect.orDie(effect) as Effect.Effect<A>)

/**
 * Adds build `number` of the workspace: a finished `workspace_build` job (of a provisioner no
 * worker serves), the build, one resource and agents named `agents`.
 */
export const addBuild = (srv: ServiceTestServer, ws: SeededWorkspace, number: number, agents: ReadonlyArray<string>) =>
  runSql(
    srv,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const at = new Date().toISOString()
      const job = randomUUID()
      const build = randomUUID()
      const resource = randomUUID()
      yield* sql`INSERT INTO provisioner_jobs
      (id, created_at, updated_at, started_at, completed_at, organization_id, initiator_id, provisioner, type, file_id, input)
      VALUES (${job}, ${at}, ${at}, ${at}, ${at}, ${ws.organizationId}, ${ws.ownerId}, 'fixture', 'workspace_build', ${randomUUID()},
        ${JSON.stringify({ workspace_build_id: build })})`
      yield* sql`INSERT INTO workspace_builds
      (id, created_at, updated_at, workspace_id, template_version_id, build_number, transition, initiator_id, job_id)
      VALUES (${build}, ${at}, ${at}, ${ws.id}, ${ws.versionId}, ${number}, 'start', ${ws.ownerId}, ${job})`
      yield* sql`INSERT INTO workspace_resources (id, created_at, job_id, transition, type, name)
      VALUES (${resource}, ${at}, ${job}, 'start', 'docker_container', 'dev')`
      for (const name of agents) {
        yield* sql`INSERT INTO workspace_agents (id, created_at, updated_at, resource_id, name, auth_token_hash)
        VALUES (${randomUUID()}, ${at}, ${at}, ${resource}, ${name}, ${randomUUID()})`
      }
    })
  )

/**
 * A workspace of `ownerId` on `template`, with one build whose agents are `agents` (none when
 * `agents` is `null`: no build at all). Its sharing lists are `userAcl` and `groupAcl`.
 */
export const seedWorkspace = async (
  srv: ServiceTestServer,
  init: {
    readonly ownerId: string
    readonly template: { readonly id: string; readonly organization_id?: unknown; readonly active_version_id: string }
    readonly organizationId: string
    readonly agents?: ReadonlyArray<string> | null
    readonly userAcl?: WorkspaceAcl
    readonly groupAcl?: WorkspaceAcl
  }
): Promise<SeededWorkspace> => {
  const record = newWorkspace({
    id: randomUUID(),
    at: new Date(),
    owner_id: init.ownerId,
    organization_id: init.organizationId,
    template_id: init.template.id,
    name: `ws-${++counter}-${Date.now() % 100000}`,
    user_acl: init.userAcl ?? {},
    group_acl: init.groupAcl ?? {}
  })
  await srv.run(Effect.flatMap(WorkspaceRepo, (repo) => repo.insert(record)).pipe(Effect.orDie))
  const ws: SeededWorkspace = {
    id: record.id,
    name: record.name,
    ownerId: init.ownerId,
    organizationId: init.organizationId,
    templateId: init.template.id,
    versionId: init.template.active_version_id
  }
  if (init.agents !== null) await addBuild(srv, ws, 1, init.agents ?? ["main"])
  return ws
}
