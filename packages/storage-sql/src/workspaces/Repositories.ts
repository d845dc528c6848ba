/** Workspaces on @effect/sql. Sharing lists are JSON text; names are unique per owner among the undeleted. */
import { SqlClient } from "@effect/sql"
import { type WorkspaceRecord, WorkspaceRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { bindRecord, first, fromJson, toBool, toDate, toDateOrNull, toNumber } from "../Rows.js"
import { unique } from "../Unique.js"

type Row = Record<string, unknown>

export const rowToWorkspace = (r: Row): WorkspaceRecord => ({
  id: r.id as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at),
  owner_id: r.owner_id as string,
  organization_id: r.organization_id as string,
  template_id: r.template_id as string,
  deleted: toBool(r.deleted),
  name: r.name as string,
  autostart_schedule: r.autostart_schedule as string,
  ttl_ms: r.ttl_ms === null || r.ttl_ms === undefined ? null : toNumber(r.ttl_ms),
  last_used_at: toDate(r.last_used_at),
  dormant_at: toDateOrNull(r.dormant_at),
  deleting_at: toDateOrNull(r.deleting_at),
  next_start_at: toDateOrNull(r.next_start_at),
  automatic_updates: r.automatic_updates as WorkspaceRecord["automatic_updates"],
  favorite: toBool(r.favorite),
  user_acl: fromJson(r.user_acl, {}),
  group_acl: fromJson(r.group_acl, {})
})

/** The workspace repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byId = (id: string) =>
    Effect.orDie(sql<Row>`SELECT * FROM workspaces WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToWorkspace)))
  return WorkspaceRepo.of({
    insert: (w) => unique(sql`INSERT INTO workspaces ${sql.insert(bindRecord(w))}`).pipe(Effect.asVoid),
    findById: byId,
    findByOwnerAndName: (ownerId, name, includeDeleted) =>
      Effect.orDie(sql<Row>`SELECT * FROM workspaces
        WHERE owner_id = ${ownerId} AND lower(name) = lower(${name}) ${includeDeleted ? sql`` : sql`AND deleted = FALSE`}
        ORDER BY deleted, updated_at DESC LIMIT 1`).pipe(Effect.map((rs) => first(rs, rowToWorkspace))),
    update: (id, patch) =>
      Effect.gen(function*() {
        const values = bindRecord(patch)
        if (Object.keys(values).length > 0) yield* unique(sql`UPDATE workspaces SET ${sql.update(values)} WHERE id = ${id}`)
        return yield* byId(id)
      })
  })
})

export const layer: Layer.Layer<WorkspaceRepo, never, SqlClient.SqlClient> = Layer.effect(WorkspaceRepo, make)
