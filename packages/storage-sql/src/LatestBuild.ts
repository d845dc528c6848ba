/**
 * The latest build (highest number) of a workspace, joined as `b`, in a form each dialect bounds
 * by its `(workspace_id, build_number)` index, so the cost is one index seek per workspace
 * whatever its history:
 * - SQLite: `b.build_number = (SELECT max(...))`, the subquery correlated to the outer workspace
 *   column, is an index bound (correlated to `b` itself it could not be, and every build of the
 *   workspace was read).
 * - Postgres never makes a correlated subquery an index condition (it filters every build of the
 *   workspace with it), so it reads the newest build through `LATERAL ... ORDER BY build_number
 *   DESC LIMIT 1`, which walks the index backwards one row.
 * `workspaceId` is the outer column (`w.id`); `join` is `JOIN` or `LEFT JOIN`. See docs/storage.md.
 */
import type { SqlClient } from "@effect/sql"

export const latestBuildJoin = (sql: SqlClient.SqlClient, workspaceId: string, join: "JOIN" | "LEFT JOIN" = "JOIN") =>
  sql.onDialectOrElse({
    pg: () =>
      sql.literal(`${join} LATERAL (SELECT * FROM workspace_builds x WHERE x.workspace_id = ${workspaceId}
        ORDER BY x.build_number DESC LIMIT 1) b ON TRUE`),
    orElse: () =>
      sql.literal(`${join} workspace_builds b ON b.workspace_id = ${workspaceId}
        AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = ${workspaceId})`)
  })
