/**
 * The `LifecycleCandidates` port on @effect/sql: the workspaces a lifecycle tick looks at. Each
 * workspace row keeps when it is next due (`lifecycle_due_at`, migration 0013): the executor's
 * `lifecycleDueAt` of the state it last saw, or "at once" after a write to what the rules read
 * (every such write in these repositories sets it, with `LIFECYCLE_RECHECK`). A tick reads the
 * undeleted workspaces due along the partial index `workspaces_lifecycle_due`, earliest first,
 * so its cost follows the workspaces due, not the workspaces stored; then their records through
 * the repositories. `reschedule` stores the executor's answer only if `lifecycle_version` has
 * not moved since the tick read it (a write in between keeps the workspace due at once).
 */
import { SqlClient } from "@effect/sql"
import {
  type LifecycleCandidate,
  LifecycleCandidates,
  ProvisionerJobRepo,
  TemplateRepo,
  UserRepo,
  WorkspaceBuildRepo
} from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, int, type Row, text } from "../Columns.js"
import { rowToWorkspace } from "./Repositories.js"

/** A due workspace and the version of its lifecycle fields the read saw. */
const rowToDue = columns<{ id: string; lifecycle_version: number }>("workspaces", {
  id: text,
  lifecycle_version: int
}).read

/**
 * The ids and `lifecycle_version`s of the undeleted workspaces due at `now`, earliest first.
 * Exported for the test of its query plan.
 */
export const lifecycleDueStatement = (sql: SqlClient.SqlClient, now: Date, limit: number) =>
  sql<Row>`SELECT id, lifecycle_version FROM workspaces
    WHERE deleted = FALSE AND lifecycle_due_at IS NOT NULL AND lifecycle_due_at <= ${now.toISOString()}
    ORDER BY lifecycle_due_at LIMIT ${limit}`

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const builds = yield* WorkspaceBuildRepo
  const jobs = yield* ProvisionerJobRepo
  const templates = yield* TemplateRepo
  const users = yield* UserRepo

  const reschedule = (id: string, version: number, at: Date | null) =>
    Effect.orDie(sql`UPDATE workspaces SET lifecycle_due_at = ${at === null ? null : at.toISOString()}
      WHERE id = ${id} AND lifecycle_version = ${version}`).pipe(Effect.asVoid)

  return LifecycleCandidates.of({
    due: (now, limit) =>
      Effect.gen(function*() {
        // The versions first: a write after this read moves them, and `reschedule` stores nothing.
        const due = (yield* Effect.orDie(lifecycleDueStatement(sql, now, limit))).map(rowToDue)
        if (due.length === 0) return []
        const ids = due.map((d) => d.id)
        const byId = <A extends { readonly id: string }>(records: ReadonlyArray<A>) =>
          new Map(records.map((r) => [r.id, r]))
        const distinct = (values: Iterable<string>) => [...new Set(values)]
        const rows = yield* Effect.orDie(sql<Row>`SELECT * FROM workspaces WHERE id IN ${sql.in(ids)}`)
        const workspaces = byId(rows.map((r) => rowToWorkspace(r)))
        const latest = new Map((yield* builds.latestOf(ids)).map((b) => [b.workspace_id, b]))
        // Their jobs, templates and owners in one read each (a tick may look at a thousand).
        const jobOf = byId(yield* jobs.findByIds(distinct([...latest.values()].map((b) => b.job_id))))
        const templateOf = byId(
          yield* templates.findByIds(distinct([...workspaces.values()].map((w) => w.template_id)))
        )
        const ownerOf = byId(yield* users.findByIds(distinct([...workspaces.values()].map((w) => w.owner_id))))
        const out: Array<LifecycleCandidate> = []
        for (const { id, lifecycle_version: version } of due) {
          const workspace = workspaces.get(id)
          const latestBuild = latest.get(id)
          const job = latestBuild === undefined ? undefined : jobOf.get(latestBuild.job_id)
          const template = workspace === undefined ? undefined : templateOf.get(workspace.template_id)
          const ownerStatus = workspace === undefined ? undefined : ownerOf.get(workspace.owner_id)?.status
          if (
            workspace === undefined || latestBuild === undefined || job === undefined || template === undefined ||
            ownerStatus === undefined
          ) {
            // Nothing to decide on: not due until it changes (its first build makes it due again).
            yield* reschedule(id, version, null)
            continue
          }
          out.push({ workspace, latestBuild, job, template, ownerStatus, version })
        }
        return out
      }),
    reschedule: (candidate, at) => reschedule(candidate.workspace.id, candidate.version, at)
  })
})

export const layer: Layer.Layer<
  LifecycleCandidates,
  never,
  SqlClient.SqlClient | WorkspaceBuildRepo | ProvisionerJobRepo | TemplateRepo | UserRepo
> = Layer.effect(LifecycleCandidates, make)
