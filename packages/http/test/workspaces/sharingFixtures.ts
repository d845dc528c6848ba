/**
 * Workspace fixtures for the sharing tests: workspace rows written through the repository
 * (the create routes live elsewhere), on a template made through the template fixtures.
 */
import { IdGenerator, newWorkspace, type WorkspaceAcl, type WorkspaceRecord, WorkspaceRepo } from "@workbay/core"
import { Clock, Effect, Option } from "effect"
import type { Client, ServiceTestServer } from "../support.js"
import { makeTemplate } from "../templates/fixtures.js"

let counter = 0

export interface WorkspaceInit {
  readonly organizationId: string
  readonly ownerId: string
  readonly templateId: string
  readonly name?: string
  readonly userAcl?: WorkspaceAcl
  readonly groupAcl?: WorkspaceAcl
  readonly deleted?: boolean
}

/** A workspace row as asked (no builds); answers its record. */
export const makeWorkspace = (srv: ServiceTestServer, init: WorkspaceInit): Promise<WorkspaceRecord> =>
  srv.run(
    Effect.gen(function*() {
      const ids = yield* IdGenerator
      const repo = yield* WorkspaceRepo
      const at = new Date(yield* Clock.currentTimeMillis)
      const record = newWorkspace({
        id: yield* ids.uuid,
        at,
        owner_id: init.ownerId,
        organization_id: init.organizationId,
        template_id: init.templateId,
        deleted: init.deleted ?? false,
        name: init.name ?? `ws-${++counter}-${Date.now() % 100000}`,
        user_acl: init.userAcl ?? {},
        group_acl: init.groupAcl ?? {}
      })
      yield* repo.insert(record)
      return record
    }).pipe(Effect.orDie)
  )

/** Writes a workspace's lists directly, bypassing the route's checks (for entries the route refuses). */
export const setWorkspaceAcl = (
  srv: ServiceTestServer,
  id: string,
  userAcl: WorkspaceAcl,
  groupAcl: WorkspaceAcl = {}
) =>
  srv.run(
    Effect.flatMap(WorkspaceRepo, (repo) => repo.update(id, { user_acl: userAcl, group_acl: groupAcl })).pipe(
      Effect.map(Option.getOrThrow),
      Effect.orDie
    )
  )

/** The stored workspace. */
export const readWorkspace = (srv: ServiceTestServer, id: string) =>
  srv.run(Effect.flatMap(WorkspaceRepo, (repo) => repo.findById(id)).pipe(Effect.map(Option.getOrThrow)))

/** A template of `organizationId` for workspaces to be made from (made through the route by `client`). */
export const workspaceTemplate = (srv: ServiceTestServer, client: Client, organizationId: string, createdBy: string) =>
  makeTemplate(srv, client, { organizationId, createdBy, name: `ws-tpl-${++counter}-${Date.now() % 100000}` })
