/**
 * The gauges' reads (core's `MetricsSnapshotRepo`): queued jobs along `provisioner_jobs_pending`,
 * builds in flight along the pending and running partial indexes, connected agents along
 * `workspace_agents_open`, and live workspaces by their latest build's status, kept on each row
 * (migration 0032): one GROUP BY along `workspaces_latest_build_status`, no join. Outside
 * transactions, one statement each.
 */
import { SqlClient } from "@effect/sql"
import { MetricsSnapshotRepo, workspaceStatuses } from "@workbay/core"
import { Effect, Layer } from "effect"
import { bool, int, type Row, text } from "./Columns.js"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const snapshot = Effect.gen(function*() {
    const pending = yield* sql<Row>`SELECT provisioner, COUNT(*) AS n FROM provisioner_jobs
      WHERE started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL GROUP BY provisioner`
    const queued = yield* sql<Row>`SELECT COUNT(*) AS n FROM provisioner_jobs
      WHERE started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL AND type = 'workspace_build'`
    const running = yield* sql<Row>`SELECT canceled_at IS NOT NULL AS canceling, COUNT(*) AS n FROM provisioner_jobs
      WHERE started_at IS NOT NULL AND completed_at IS NULL AND type = 'workspace_build' GROUP BY canceled_at IS NOT NULL`
    const workspaces = yield* sql<Row>`SELECT latest_build_status AS status, COUNT(*) AS n
      FROM workspaces WHERE deleted = FALSE AND latest_build_status IS NOT NULL
      GROUP BY latest_build_status`
    const agents = yield* sql<Row>`SELECT COUNT(*) AS n FROM workspace_agents WHERE connected = TRUE`
    const count = (r: Row | undefined) => r === undefined ? 0 : int(r.n, "count(*)")
    const canceling = (r: Row) => bool(r.canceling, "provisioner_jobs.canceled_at IS NOT NULL")
    return {
      pendingJobs: pending.map((r) => ({
        provisioner: text(r.provisioner, "provisioner_jobs.provisioner"),
        count: count(r)
      })),
      buildsInFlight: [
        { status: "pending", count: count(queued[0]) },
        { status: "running", count: count(running.find((r) => !canceling(r))) },
        { status: "canceling", count: count(running.find(canceling)) }
      ],
      workspaces: workspaceStatuses.map((status) => ({
        status,
        count: count(workspaces.find((r) => r.status === status))
      })),
      connectedAgents: count(agents[0])
    }
  }).pipe(Effect.orDie)
  return { snapshot }
})

export const layer = Layer.effect(MetricsSnapshotRepo, make)
