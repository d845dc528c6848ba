/**
 * Workspaces used through their agents (the `WorkspaceActivityRepo` port), many at once: one read
 * of the workspaces with their templates and latest builds, and one transaction of at most two
 * statements for all of them (the bumped deadlines as one `UPDATE ... FROM` a VALUES list, then
 * `last_used_at` and the lifecycle marks of every used workspace as another).
 */
import { SqlClient } from "@effect/sql"
import { type ActivityCandidate, WorkspaceActivityRepo, workspaceTransitions } from "@workbay/core"
import { Effect, Layer } from "effect"
import { bool, int, literal, nullableDate, nullableInt, type Row, text } from "../Columns.js"
import { latestBuildJoin } from "../LatestBuild.js"
import { transaction } from "../Transaction.js"

const transition = literal(workspaceTransitions)

const rowToCandidate = (r: Row): ActivityCandidate => ({
  workspace: {
    id: text(r.workspace_id, "workspaces.id"),
    ttl_ms: nullableInt(r.ttl_ms, "workspaces.ttl_ms"),
    autostart_schedule: text(r.autostart_schedule, "workspaces.autostart_schedule")
  },
  template: {
    activity_bump_ms: int(r.activity_bump_ms, "templates.activity_bump_ms"),
    allow_user_autostop: bool(r.allow_user_autostop, "templates.allow_user_autostop"),
    default_ttl_ms: int(r.default_ttl_ms, "templates.default_ttl_ms"),
    autostart_requirement_days_of_week: int(
      r.autostart_requirement_days_of_week,
      "templates.autostart_requirement_days_of_week"
    )
  },
  build: {
    id: text(r.build_id, "workspace_builds.id"),
    transition: transition(r.transition, "workspace_builds.transition"),
    deadline: nullableDate(r.deadline, "workspace_builds.deadline"),
    max_deadline: nullableDate(r.max_deadline, "workspace_builds.max_deadline")
  },
  jobCompleted: text(r.job_status, "provisioner_jobs.job_status") === "succeeded"
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const inTransaction = transaction(sql)
  // The timestamp columns' type: what a VALUES list's text must be cast to on Postgres (TEXT on SQLite).
  const timestamp = () => sql.literal(sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" }))
  const at = (d: Date | null) => sql`CAST(${d === null ? null : d.toISOString()} AS ${timestamp()})`

  return WorkspaceActivityRepo.of({
    candidates: (workspaceIds) =>
      workspaceIds.length === 0 ? Effect.succeed([]) : sql<Row>`SELECT w.id AS workspace_id, w.ttl_ms,
          w.autostart_schedule, t.activity_bump_ms, t.allow_user_autostop, t.default_ttl_ms,
          t.autostart_requirement_days_of_week, b.id AS build_id, b.transition, b.deadline, b.max_deadline,
          j.job_status
        FROM workspaces w JOIN templates t ON t.id = w.template_id ${latestBuildJoin(sql, "w.id")}
        JOIN provisioner_jobs j ON j.id = b.job_id
        WHERE w.id IN ${sql.in(workspaceIds)} AND w.deleted = FALSE`.pipe(
        Effect.map((rows) => rows.map(rowToCandidate)),
        Effect.orDie
      ),
    recordUse: (workspaceIds, bumps, now) =>
      workspaceIds.length === 0 ? Effect.succeed([]) : inTransaction(Effect.gen(function*() {
        const bumped = bumps.length === 0 ?
          [] :
          yield* sql<Row>`WITH v (id, deadline) AS (VALUES ${
            sql.csv(bumps.map((b) => sql`(${b.build_id}, ${at(b.deadline)})`))
          })
          UPDATE workspace_builds SET deadline = v.deadline, updated_at = ${at(now)}
          FROM v WHERE workspace_builds.id = v.id AND workspace_builds.deadline IS NOT NULL
            AND workspace_builds.deadline < v.deadline
          RETURNING workspace_builds.workspace_id`
        const moved = new Set(bumped.map((r) => text(r.workspace_id, "workspace_builds.workspace_id")))
        const deadlines = new Map(
          bumps.filter((b) => moved.has(b.workspace_id)).map((b) => [b.workspace_id, b.deadline])
        )
        // A moved deadline: the workspace is due by it at the latest, and a lifecycle look in
        // flight stores nothing (as every deadline change, BuildRepositories' `setDeadline`).
        yield* sql`WITH v (id, deadline) AS (VALUES ${
          sql.csv(workspaceIds.map((id) => sql`(${id}, ${at(deadlines.get(id) ?? null)})`))
        })
          UPDATE workspaces SET
            last_used_at = CASE WHEN workspaces.last_used_at < ${at(now)} THEN ${
          at(now)
        } ELSE workspaces.last_used_at END,
            lifecycle_version = workspaces.lifecycle_version + CASE WHEN v.deadline IS NULL THEN 0 ELSE 1 END,
            lifecycle_due_at = CASE
              WHEN v.deadline IS NULL THEN workspaces.lifecycle_due_at
              WHEN workspaces.lifecycle_due_at IS NULL OR workspaces.lifecycle_due_at > v.deadline THEN v.deadline
              ELSE workspaces.lifecycle_due_at END
          FROM v WHERE workspaces.id = v.id`
        return [...moved]
      })).pipe(Effect.orDie)
  })
})

export const layer: Layer.Layer<WorkspaceActivityRepo, never, SqlClient.SqlClient> = Layer.effect(
  WorkspaceActivityRepo,
  make
)
