/**
 * Moves of a stopped workspace from one provisioner host to another (docs/provisioner-daemons.md,
 * "Moving a workspace"): the stored record, its status (from its jobs, as a job's is from its
 * timestamps), the wire record and the repository port. The rules live in WorkspaceMoves.ts.
 *
 * A move is three provisioner jobs of type `workspace_move`: the *export* on the old host reads
 * the workspace's volumes, the *import* on the new host writes them and verifies each, the two
 * joined by one link through the service; the *cleanup* on the old host, queued once the import
 * succeeded, removes the old volumes. The move succeeded when its import did: from then on the
 * workspace's builds run on the new host.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { MovedVolume, VolumeMoveSide } from "../provisioners/Provisioner.js"
import { jobStatus, type ProvisionerJobRecord } from "../provisioners/ProvisionerJob.js"

export const workspaceMoveStatuses = ["pending", "running", "succeeded", "failed"] as const
export type WorkspaceMoveStatus = typeof workspaceMoveStatuses[number]

/** A stored move. */
export interface WorkspaceMoveRecord {
  readonly id: string
  readonly organization_id: string
  readonly workspace_id: string
  readonly from_host: string
  readonly to_host: string
  readonly initiator_id: string
  readonly created_at: Date
  readonly export_job_id: string
  readonly import_job_id: string
  /** Queued once the import succeeded; `null` before. */
  readonly cleanup_job_id: string | null
  /** SHA-256 (hex) of the export's one-time link token, set when its job starts; `""` before. */
  readonly export_token_hash: string
  readonly import_token_hash: string
  /** The replica the two links meet on (the first to claim it); `""` before either arrived. */
  readonly relay_replica: string
  /** The volumes as the import verified them; empty until it did. */
  readonly volumes: ReadonlyArray<MovedVolume>
}

export class WorkspaceMoveRepo extends Context.Tag("@workbay/core/WorkspaceMoveRepo")<WorkspaceMoveRepo, {
  readonly insert: (move: WorkspaceMoveRecord) => Effect.Effect<void>
  readonly findById: (id: string) => Effect.Effect<Option.Option<WorkspaceMoveRecord>>
  /** A workspace's moves, newest first. */
  readonly listByWorkspace: (workspaceId: string) => Effect.Effect<ReadonlyArray<WorkspaceMoveRecord>>
  /** A workspace's newest move. */
  readonly latestOf: (workspaceId: string) => Effect.Effect<Option.Option<WorkspaceMoveRecord>>
  /** Stores the hash of a side's link token (a later start of the side's job replaces it). */
  readonly setTokenHash: (id: string, side: "export" | "import", hash: string) => Effect.Effect<void>
  /**
   * Makes `replicaId` the replica the move's links meet on, unless one is already: answers the
   * one that is (none when the move does not exist).
   */
  readonly claimRelay: (id: string, replicaId: string) => Effect.Effect<Option.Option<string>>
  /** Stores what the import verified and the cleanup job queued after it. */
  readonly setResult: (
    id: string,
    volumes: ReadonlyArray<MovedVolume>,
    cleanupJobId: string
  ) => Effect.Effect<void>
}>() {}

/** The jobs of a move, as far as they exist. */
export interface MoveJobs {
  readonly export?: ProvisionerJobRecord | undefined
  readonly import?: ProvisionerJobRecord | undefined
  readonly cleanup?: ProvisionerJobRecord | undefined
}

/**
 * A move's status: `succeeded` once its import did; `failed` once its export or import failed
 * or was canceled (the error is that job's); `running` once either started; else `pending`.
 */
export const moveStatus = (
  jobs: MoveJobs
): { status: WorkspaceMoveStatus; error: string; completed_at: Date | null } => {
  const ex = jobs.export === undefined ? "unknown" : jobStatus(jobs.export)
  const im = jobs.import === undefined ? "unknown" : jobStatus(jobs.import)
  if (im === "succeeded") return { status: "succeeded", error: "", completed_at: jobs.import?.completed_at ?? null }
  // A side that failed says why; the other was canceled for it.
  const sides = [["import", jobs.import, im], ["export", jobs.export, ex]] as const
  for (const [side, job, status] of [...sides].sort((x, y) => Number(y[2] === "failed") - Number(x[2] === "failed"))) {
    if (status === "failed" || status === "canceled" || status === "canceling") {
      return {
        status: "failed",
        error: `The ${side} ${status === "failed" ? "failed" : "was canceled"}: ${job?.error || "no reason given"}`,
        completed_at: job?.completed_at ?? null
      }
    }
  }
  if (im === "running" || ex === "running") return { status: "running", error: "", completed_at: null }
  return { status: "pending", error: "", completed_at: null }
}

/** Which side of its move a job is. */
export const moveSideOf = (move: WorkspaceMoveRecord, jobId: string): VolumeMoveSide | undefined =>
  jobId === move.export_job_id
    ? "export"
    : jobId === move.import_job_id
    ? "import"
    : jobId === move.cleanup_job_id
    ? "cleanup"
    : undefined

export class MovedVolumeWire extends Schema.Class<MovedVolumeWire>("WorkspaceMoveVolume")({
  name: Schema.String,
  bytes: Schema.Number,
  sha256: Schema.String
}) {}

/** A move as the API answers it (Workbay's own: the described system has no moves). */
export class WorkspaceMove extends Schema.Class<WorkspaceMove>("WorkspaceMove")({
  id: Schema.UUID,
  organization_id: Schema.UUID,
  workspace_id: Schema.UUID,
  from_host: Schema.String,
  to_host: Schema.String,
  initiator_id: Schema.UUID,
  created_at: Schema.Date,
  completed_at: Schema.NullOr(Schema.Date),
  status: Schema.Literal(...workspaceMoveStatuses),
  error: Schema.String,
  /** Each volume copied, with its size and the SHA-256 of its archive, as the new host re-read it. */
  volumes: Schema.Array(MovedVolumeWire),
  export_job_id: Schema.UUID,
  import_job_id: Schema.UUID,
  cleanup_job_id: Schema.NullOr(Schema.UUID),
  /** The old host's cleanup: `pending` until its job ran, then how it ended (`none` before it was queued). */
  cleanup_status: Schema.Literal("none", "pending", "running", "succeeded", "failed")
}) {}

export const toWorkspaceMove = (move: WorkspaceMoveRecord, jobs: MoveJobs): WorkspaceMove => {
  const { completed_at, error, status } = moveStatus(jobs)
  const cleanup = jobs.cleanup === undefined ? "none" : jobStatus(jobs.cleanup)
  return new WorkspaceMove({
    id: move.id,
    organization_id: move.organization_id,
    workspace_id: move.workspace_id,
    from_host: move.from_host,
    to_host: move.to_host,
    initiator_id: move.initiator_id,
    created_at: move.created_at,
    completed_at,
    status,
    error,
    volumes: move.volumes.map((v) => new MovedVolumeWire(v, true)),
    export_job_id: move.export_job_id,
    import_job_id: move.import_job_id,
    cleanup_job_id: move.cleanup_job_id,
    cleanup_status: cleanup === "none" || cleanup === "succeeded" || cleanup === "pending" || cleanup === "running"
      ? cleanup
      : cleanup === "unknown"
      ? "pending"
      : "failed"
  }, true)
}
