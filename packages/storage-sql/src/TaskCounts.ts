/**
 * The kept counts of undeleted tasks (`counters`: `tasks`, `tasks:<owner id>`), and the tasks
 * following their workspace's deletion. At the root because two areas run them in their own
 * transactions: the tasks' repository, and the workspaces' when a workspace is deleted or restored.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { text } from "./Columns.js"

/** Moves the kept counts of undeleted tasks (in all, and of `ownerId`) by `by`. */
export const bumpTaskCounts = (sql: SqlClient.SqlClient, ownerId: string, by: 1 | -1) =>
  Effect.forEach(["tasks", `tasks:${ownerId}`], (name) =>
    sql`INSERT INTO counters (name, value) VALUES (${name}, ${by})
      ON CONFLICT (name) DO UPDATE SET value = counters.value + ${by}`, { discard: true })

/**
 * The tasks of workspace `workspaceId` follow its deletion (or restoration), with their kept
 * counts; run in the transaction that changes the workspace's `deleted`.
 */
export const followWorkspaceDeletion = (sql: SqlClient.SqlClient, workspaceId: string, deleted: boolean) =>
  Effect.gen(function*() {
    const rs = yield* sql`UPDATE tasks SET deleted = ${deleted ? sql`TRUE` : sql`FALSE`}
      WHERE workspace_id = ${workspaceId} AND deleted = ${deleted ? sql`FALSE` : sql`TRUE`} RETURNING owner_id`
    for (const r of rs) yield* bumpTaskCounts(sql, text(r.owner_id, "tasks.owner_id"), deleted ? -1 : 1)
  })
