/**
 * The gauges' port (the metrics port is core Metrics.ts): what a scrape reads across the areas,
 * which storage implements in one pass (storage-sql MetricsSnapshot.ts).
 */
import { Context, type Effect } from "effect"
import type { PrebuildsMetrics } from "../workspaces/Prebuilds.js"
import type { WorkspaceStatus } from "../workspaces/WorkspaceBuild.js"

/**
 * What the gauges read on a scrape. The queue, builds and agents are read along indexes whose
 * size is bounded by the work in flight, not by the data kept; the workspaces by status are one
 * GROUP BY over the live workspaces and their latest builds (O(workspaces) per read: the
 * exporter caches it, docs/operations.md).
 */
export interface MetricsSnapshot {
  /** Queued provisioner jobs, by provisioner type. */
  readonly pendingJobs: ReadonlyArray<{ readonly provisioner: string; readonly count: number }>
  /** Workspace build jobs in flight, by job status (`pending`, `running`, `canceling`). */
  readonly buildsInFlight: ReadonlyArray<{ readonly status: string; readonly count: number }>
  /**
   * Live (not deleted) workspaces by their latest build's status: every one of the ten statuses,
   * in `workspaceStatuses` order, zero when none.
   */
  readonly workspaces: ReadonlyArray<{ readonly status: WorkspaceStatus; readonly count: number }>
  /** Agents with an open connection, deployment-wide. */
  readonly connectedAgents: number
  /**
   * The prebuilt workspaces' metrics (the prebuilds reconciler's `metrics`), which the server's
   * assembly adds to storage's reads; absent when it did not.
   */
  readonly prebuilds?: PrebuildsMetrics | undefined
}

/** The port storage implements for the gauges. */
export class MetricsSnapshotRepo extends Context.Tag("@workbay/core/MetricsSnapshotRepo")<
  MetricsSnapshotRepo,
  { readonly snapshot: Effect.Effect<MetricsSnapshot> }
>() {}
