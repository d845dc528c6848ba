/**
 * The gauges' reads (core's `MetricsSnapshotRepo`): queued jobs along `provisioner_jobs_pending`,
 * builds in flight along the pending and running partial indexes, connected agents along
 * `workspace_agents_open`, and live workspaces by their latest build's status (one GROUP BY over
 * the workspaces, each joined to its latest build and job: O(workspaces)). Outside transactions,
 * one statement each.
 */
import { SqlClient } from "@effect/sql"
import { MetricsSnapshotRepo, workspaceStatuses } from "@workbay/core"
import { Effect, Layer } from "effect"
import { bind } from "./Rows.js"
import { latestBuildAndJob, WORKSPACE_STATUS_SQL } from "./workspaces/Repositories.js"

type Row = Record<string, unknown>

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const snapshot = Effect.gen(function*() {
    const pending = yield* sql<Row>`SELECT provisioner, COUNT(*) AS n FROM provisioner_jobs
      WHERE started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL GROUP BY provisioner`
    const queued = yield* sql<Row>`SELECT COUNT(*) AS n FROM provisioner_jobs
      WHERE started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL AND type = 'workspace_build'`
    const running = yield* sql<Row>`SELECT canceled_at IS NOT NULL AS canceling, COUNT(*) AS n FROM provisioner_jobs
      WHERE started_at IS NOT NULL AND completed_at IS NULL AND type = 'workspace_build' GROUP BY canceled_at IS NOT NULL`
    const workspaces = yield* sql<Row>`SELECT ${sql.literal(WORKSPACE_STATUS_SQL)} AS status, COUNT(*) AS n
      FROM workspaces w ${latestBuildAndJob(sql)}
      WHERE w.deleted = ${bind(false)} AND b.id IS NOT NULL
      GROUP BY ${sql.literal(WORKSPACE_STATUS_SQL)}`
    const agents = yield* sql<Row>`SELECT COUNT(*) AS n FROM workspace_agents WHERE connected = ${bind(true)}`
    const count = (r: Row | undefined) => Number(r?.n ?? 0)
    const isTrue = (v: unknown) => v === true || v === 1 || v === 1n || v === "1" || v === "t"
    return {
      pendingJobs: pending.map((r) => ({ provisioner: r.provisioner as string, count: count(r) })),
      buildsInFlight: [
        { status: "pending", count: count(queued[0]) },
        { status: "running", count: count(running.find((r) => !isTrue(r.canceling))) },
        { status: "canceling", count: count(running.find((r) => isTrue(r.canceling))) }
      ],
      workspaces: workspaceStatuses.map((status) => ({ status, count: count(workspaces.find((r) => r.status === status)) })),
      connectedAgents: count(agents[0])
    }
  }).pipe(Effect.orDie)
  return { snapshot }
})

export const layer = Layer.effect(MetricsSnapshotRepo, make)
