/** Moves of stopped workspaces between provisioner hosts (core's `WorkspaceMoveRepo`), on @effect/sql. */
import { SqlClient } from "@effect/sql"
import { type MovedVolume, type WorkspaceMoveRecord, WorkspaceMoveRepo } from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { columns, date, first, json, nullable, type Row, text } from "../Columns.js"

const rowToMove = columns<WorkspaceMoveRecord>("workspace_moves", {
  id: text,
  organization_id: text,
  workspace_id: text,
  from_host: text,
  to_host: text,
  initiator_id: text,
  created_at: date,
  export_job_id: text,
  import_job_id: text,
  cleanup_job_id: nullable(text),
  export_token_hash: text,
  import_token_hash: text,
  relay_replica: text,
  volumes: json<ReadonlyArray<MovedVolume>>([])
}).read

/** The move repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byId = (id: string) =>
    sql<Row>`SELECT * FROM workspace_moves WHERE id = ${id}`.pipe(
      Effect.orDie,
      Effect.map((rs) => first(rs, rowToMove))
    )

  return WorkspaceMoveRepo.of({
    insert: (m) =>
      sql`INSERT INTO workspace_moves ${
        sql.insert({
          id: m.id,
          organization_id: m.organization_id,
          workspace_id: m.workspace_id,
          from_host: m.from_host,
          to_host: m.to_host,
          initiator_id: m.initiator_id,
          created_at: m.created_at.toISOString(),
          export_job_id: m.export_job_id,
          import_job_id: m.import_job_id,
          cleanup_job_id: m.cleanup_job_id,
          export_token_hash: m.export_token_hash,
          import_token_hash: m.import_token_hash,
          relay_replica: m.relay_replica,
          volumes: JSON.stringify(m.volumes)
        })
      }`.pipe(Effect.orDie, Effect.asVoid),

    findById: byId,

    listByWorkspace: (workspaceId) =>
      sql<Row>`SELECT * FROM workspace_moves WHERE workspace_id = ${workspaceId}
        ORDER BY created_at DESC, id DESC`.pipe(Effect.orDie, Effect.map((rs) => rs.map(rowToMove))),

    latestOf: (workspaceId) =>
      sql<Row>`SELECT * FROM workspace_moves WHERE workspace_id = ${workspaceId}
        ORDER BY created_at DESC, id DESC LIMIT 1`.pipe(Effect.orDie, Effect.map((rs) => first(rs, rowToMove))),

    setTokenHash: (id, side, hash) =>
      (side === "export"
        ? sql`UPDATE workspace_moves SET export_token_hash = ${hash} WHERE id = ${id}`
        : sql`UPDATE workspace_moves SET import_token_hash = ${hash} WHERE id = ${id}`).pipe(
          Effect.orDie,
          Effect.asVoid
        ),

    claimRelay: (id, replicaId) =>
      Effect.gen(function*() {
        yield* Effect.orDie(sql`UPDATE workspace_moves SET relay_replica = ${replicaId}
          WHERE id = ${id} AND relay_replica = ''`)
        return Option.map(yield* byId(id), (m) => m.relay_replica)
      }),

    setResult: (id, volumes, cleanupJobId) =>
      sql`UPDATE workspace_moves SET volumes = ${JSON.stringify(volumes)}, cleanup_job_id = ${cleanupJobId}
        WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
  })
})

export const layer = Layer.effect(WorkspaceMoveRepo, make)
