/**
 * Workspace agents with what they belong to (resource, build, workspace, the workspace's latest
 * build number), on @effect/sql: what an agent's token and the agent routes resolve. Four reads
 * by key, each on an index (the token hash's unique index, primary keys, the builds' job and
 * (workspace, number) indexes). Agents by cloud instance id go through the instance id's index
 * (migration 0015).
 */
import { SqlClient } from "@effect/sql"
import { type AgentInBuild, AgentRepo, hashAgentToken, SecretBox, type WorkspaceAgentRecord } from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { int, keyId, type Row, text } from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { rowToAgent, rowToBuildSummary, rowToResource, SUMMARY_COLUMNS } from "../workspaces/BuildRepositories.js"
import { rowToWorkspace } from "../workspaces/Repositories.js"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const box = yield* SecretBox

  /** The agent of `rows` (none or one) with what it belongs to. */
  const inBuild = (rows: ReadonlyArray<Row>) =>
    Effect.gen(function*() {
      if (rows.length === 0) return Option.none<AgentInBuild>()
      const agent: WorkspaceAgentRecord = rowToAgent(rows[0]!)
      const [resourceRow] = yield* reads(sql<Row>`SELECT * FROM workspace_resources WHERE id = ${agent.resource_id}`)
      if (resourceRow === undefined) return Option.none<AgentInBuild>()
      const resource = rowToResource(resourceRow)
      const [buildRow] = yield* reads(sql<Row>`SELECT ${sql.literal(SUMMARY_COLUMNS)},
        (SELECT max(l.build_number) FROM workspace_builds l WHERE l.workspace_id = b.workspace_id) AS latest_build_number
        FROM workspace_builds b WHERE b.job_id = ${resource.job_id}`)
      if (buildRow === undefined) return Option.none<AgentInBuild>()
      const build = rowToBuildSummary(buildRow)
      const [workspace] = yield* reads(sql<Row>`SELECT * FROM workspaces WHERE id = ${build.workspace_id}`)
      if (workspace === undefined) return Option.none<AgentInBuild>()
      return Option.some<AgentInBuild>({
        agent,
        resource,
        build,
        workspace: rowToWorkspace(workspace),
        latest_build_number: int(buildRow.latest_build_number, "workspace_builds.build_number")
      })
    }).pipe(Effect.orDie)

  return AgentRepo.of({
    findByTokenHash: (hash) =>
      Effect.flatMap(
        Effect.orDie(reads(sql<Row>`SELECT * FROM workspace_agents WHERE auth_token_hash = ${hash}`)),
        inBuild
      ),
    findById: (id) =>
      Effect.flatMap(Effect.orDie(reads(sql<Row>`SELECT * FROM workspace_agents WHERE id = ${id}`)), inBuild),
    findByInstanceId: (instanceId) =>
      Effect.gen(function*() {
        // Agents on no cloud instance have "": that names none of them.
        if (instanceId === "") return []
        // On the instance id's index; only agents of latest builds of live workspaces, so an
        // instance id reused by a later build (or another workspace) names its current agent.
        const rows = yield* Effect.orDie(reads(sql<Row>`SELECT a.* FROM workspace_agents a
          JOIN workspace_resources r ON r.id = a.resource_id
          JOIN workspace_builds b ON b.job_id = r.job_id
          JOIN workspaces w ON w.id = b.workspace_id
          WHERE a.instance_id = ${instanceId} AND w.deleted = FALSE
            AND b.build_number = (SELECT max(l.build_number) FROM workspace_builds l WHERE l.workspace_id = b.workspace_id)
          ORDER BY a.name, a.id`))
        const found = yield* Effect.forEach(rows, (row) => inBuild([row]))
        return found.flatMap((f) => Option.isSome(f) ? [f.value] : [])
      }),
    isCurrent: (id, tokenHash) =>
      Effect.map(
        Effect.orDie(reads(sql<Row>`SELECT 1 AS current FROM workspace_agents a
          JOIN workspace_resources r ON r.id = a.resource_id
          JOIN workspace_builds b ON b.job_id = r.job_id
          JOIN workspaces w ON w.id = b.workspace_id
          WHERE a.id = ${id} AND w.deleted = FALSE AND ${
          tokenHash === undefined ? sql`TRUE` : sql`a.auth_token_hash = ${tokenHash}`
        }
            AND b.build_number = (SELECT max(l.build_number) FROM workspace_builds l WHERE l.workspace_id = b.workspace_id)`)),
        (rows) => rows.length > 0
      ),
    setTokenHash: (agentId, hash, now) =>
      Effect.asVoid(
        Effect.orDie(
          sql`UPDATE workspace_agents SET auth_token_hash = ${hash}, auth_token = NULL, auth_token_key_id = NULL,
        updated_at = ${now.toISOString()} WHERE id = ${agentId}`
        )
      ),
    keptToken: (agentId) =>
      Effect.gen(function*() {
        const [row] = yield* Effect.orDie(
          sql<Row>`SELECT auth_token, auth_token_key_id FROM workspace_agents WHERE id = ${agentId}`
        )
        if (row === undefined || row.auth_token === null || row.auth_token === undefined) return Option.none<string>()
        return Option.some(
          yield* box.open(
            text(row.auth_token, "workspace_agents.auth_token"),
            keyId(row.auth_token_key_id, "workspace_agents.auth_token_key_id")
          )
        )
      }),
    setKeptToken: (agentId, token, now) => {
      const kept = box.seal(token)
      return Effect.asVoid(Effect.orDie(sql`UPDATE workspace_agents SET auth_token_hash = ${hashAgentToken(token)},
        auth_token = ${kept.value}, auth_token_key_id = ${kept.keyId}, updated_at = ${now.toISOString()} WHERE id = ${agentId}`))
    }
  })
})

export const layer: Layer.Layer<AgentRepo, never, SqlClient.SqlClient> = Layer.effect(AgentRepo, make)
