/**
 * Port shares on @effect/sql, keyed by workspace, agent name and port. The agent lookup reads
 * the agents the workspace's latest build made: builds to their provisioner job's resources,
 * resources to their agents (tables the builds write; this repository only reads them).
 */
import { SqlClient } from "@effect/sql"
import {
  PortShareLevel,
  portShareLevelsAbove,
  PortShareProtocol,
  type PortShareRecord,
  PortShareRepo
} from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, first, int, literal, type Row, text } from "../Columns.js"

const rowToPortShare = columns<PortShareRecord>("workspace_port_shares", {
  workspace_id: text,
  agent_name: text,
  port: int,
  share_level: literal(PortShareLevel.literals),
  protocol: literal(PortShareProtocol.literals)
}).read

/** The port share repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return PortShareRepo.of({
    list: (workspaceId) =>
      Effect.orDie(sql<Row>`SELECT * FROM workspace_port_shares WHERE workspace_id = ${workspaceId}
        ORDER BY port, agent_name`).pipe(Effect.map((rs) => rs.map(rowToPortShare))),
    find: (workspaceId, agentName, port) =>
      Effect.orDie(sql<Row>`SELECT * FROM workspace_port_shares
        WHERE workspace_id = ${workspaceId} AND agent_name = ${agentName} AND port = ${port}`).pipe(
        Effect.map((rs) => first(rs, rowToPortShare))
      ),
    upsert: (s) =>
      Effect.orDie(sql<Row>`INSERT INTO workspace_port_shares (workspace_id, agent_name, port, share_level, protocol)
        VALUES (${s.workspace_id}, ${s.agent_name}, ${s.port}, ${s.share_level}, ${s.protocol})
        ON CONFLICT (workspace_id, agent_name, port)
        DO UPDATE SET share_level = excluded.share_level, protocol = excluded.protocol
        RETURNING *`).pipe(Effect.map((rs) => rowToPortShare(rs[0]!))),
    delete: (workspaceId, agentName, port) =>
      Effect.orDie(sql`DELETE FROM workspace_port_shares
        WHERE workspace_id = ${workspaceId} AND agent_name = ${agentName} AND port = ${port} RETURNING port`).pipe(
        Effect.map((rs) => rs.length > 0)
      ),
    lowerToTemplateMax: (templateId, max) => {
      const ofTemplate = sql`workspace_id IN (SELECT id FROM workspaces WHERE template_id = ${templateId})`
      const above = portShareLevelsAbove(max)
      if (above.length === 0) return Effect.succeed(0)
      const changed = max === "owner"
        ? sql`DELETE FROM workspace_port_shares WHERE ${ofTemplate} RETURNING port`
        : sql`UPDATE workspace_port_shares SET share_level = ${max}
            WHERE share_level IN ${sql.in(above)} AND ${ofTemplate} RETURNING port`
      return Effect.orDie(changed).pipe(Effect.map((rs) => rs.length))
    },
    latestBuildHasAgent: (workspaceId, agentName) =>
      Effect.orDie(sql`SELECT 1 AS found FROM workspace_agents a
        JOIN workspace_resources r ON r.id = a.resource_id
        JOIN workspace_builds b ON b.job_id = r.job_id
        WHERE b.workspace_id = ${workspaceId} AND a.name = ${agentName}
          AND b.build_number = (SELECT MAX(build_number) FROM workspace_builds WHERE workspace_id = ${workspaceId})
        LIMIT 1`).pipe(Effect.map((rs) => rs.length > 0))
  })
})

export const layer: Layer.Layer<PortShareRepo, never, SqlClient.SqlClient> = Layer.effect(PortShareRepo, make)
