/**
 * The `LifecycleCandidates` port on @effect/sql: the workspaces a lifecycle tick may have to
 * move (the described system's `GetWorkspacesEligibleForTransition`). One query over undeleted
 * workspaces with their latest build and its finished job: a start past its deadline or whose
 * owner is suspended, a stop whose `next_start_at` has come, a dormant workspace past its
 * `deleting_at`, and per template with dormancy or a failure ttl, workspaces unused past the
 * threshold or failed starts older than the ttl (thresholds computed here, so every condition
 * compares a column with a value: the indexes of migration 0013 serve them). The records are
 * then read through the repositories; the executor decides on each.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  type LifecycleCandidate,
  LifecycleCandidates,
  ProvisionerJobRepo,
  TemplateRepo,
  UserRepo,
  WorkspaceBuildRepo,
  WorkspaceRepo
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { toNumber } from "../Rows.js"

type Row = Record<string, unknown>

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const workspaces = yield* WorkspaceRepo
  const builds = yield* WorkspaceBuildRepo
  const jobs = yield* ProvisionerJobRepo
  const templates = yield* TemplateRepo
  const users = yield* UserRepo

  const dueIds = (now: Date) =>
    Effect.gen(function*() {
      const at = now.toISOString()
      const timed = yield* sql<Row>`SELECT id, time_til_dormant_ms, failure_ttl_ms FROM templates
        WHERE deleted = FALSE AND (time_til_dormant_ms > 0 OR failure_ttl_ms > 0)`
      const conditions: Array<Statement.Fragment> = [
        sql`(b.transition = 'start' AND b.deadline IS NOT NULL AND b.deadline <= ${at})`,
        sql`(b.transition = 'start' AND u.status = 'suspended')`,
        sql`(b.transition = 'stop' AND w.autostart_schedule <> '' AND w.next_start_at IS NOT NULL AND w.next_start_at <= ${at})`,
        sql`(w.dormant_at IS NOT NULL AND w.deleting_at IS NOT NULL AND w.deleting_at <= ${at})`
      ]
      for (const t of timed) {
        const dormantMs = toNumber(t.time_til_dormant_ms)
        const failureMs = toNumber(t.failure_ttl_ms)
        if (dormantMs > 0) {
          const before = new Date(now.getTime() - dormantMs).toISOString()
          conditions.push(sql`(w.template_id = ${t.id as string} AND w.dormant_at IS NULL AND w.last_used_at < ${before})`)
        }
        if (failureMs > 0) {
          const before = new Date(now.getTime() - failureMs).toISOString()
          conditions.push(
            sql`(w.template_id = ${t.id as string} AND b.transition = 'start' AND j.job_status = 'failed' AND j.completed_at < ${before})`
          )
        }
      }
      const rows = yield* sql<Row>`SELECT w.id FROM workspaces w
        JOIN workspace_builds b ON b.workspace_id = w.id
          AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = w.id)
        JOIN provisioner_jobs j ON j.id = b.job_id
        JOIN users u ON u.id = w.owner_id
        WHERE w.deleted = FALSE AND j.completed_at IS NOT NULL AND ${sql.or(conditions)}
        ORDER BY w.id`
      return rows.map((r) => r.id as string)
    }).pipe(Effect.orDie)

  return LifecycleCandidates.of({
    due: (now) =>
      Effect.gen(function*() {
        const ids = yield* dueIds(now)
        const out: Array<LifecycleCandidate> = []
        const latest = new Map((yield* builds.latestOf(ids)).map((b) => [b.workspace_id, b]))
        for (const id of ids) {
          const workspace = Option.getOrUndefined(yield* workspaces.findById(id))
          const latestBuild = latest.get(id)
          if (workspace === undefined || latestBuild === undefined) continue
          const job = Option.getOrUndefined(yield* jobs.findById(latestBuild.job_id))
          const template = Option.getOrUndefined(yield* templates.findById(workspace.template_id))
          const owner = Option.getOrUndefined(yield* users.findById(workspace.owner_id))
          if (job === undefined || template === undefined || owner === undefined) continue
          out.push({ workspace, latestBuild, job, template, ownerStatus: owner.status })
        }
        return out
      })
  })
})

export const layer: Layer.Layer<
  LifecycleCandidates,
  never,
  SqlClient.SqlClient | WorkspaceRepo | WorkspaceBuildRepo | ProvisionerJobRepo | TemplateRepo | UserRepo
> = Layer.effect(LifecycleCandidates, make)
