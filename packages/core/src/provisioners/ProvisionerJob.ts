/**
 * Provisioner jobs: the one queue of template version imports, dry runs and workspace builds.
 * The stored record, its status (derived from its timestamps, as the described system does),
 * tag matching, the wire records of a job and of its logs, and the `ProvisionerJobRepo` port.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import { omitEmpty, putNonEmpty, wireMaker, type WireProps } from "../Wire.js"

/**
 * The described system's three types, and Workbay's `workspace_move` (one side of a move of a
 * stopped workspace between hosts: docs/provisioner-daemons.md, "Moving a workspace").
 */
export const provisionerJobTypes = [
  "template_version_import",
  "workspace_build",
  "template_version_dry_run",
  "workspace_move"
] as const
export type ProvisionerJobType = typeof provisionerJobTypes[number]

export const provisionerJobStatuses = [
  "pending",
  "running",
  "succeeded",
  "canceling",
  "canceled",
  "failed",
  "unknown"
] as const
export type ProvisionerJobStatus = typeof provisionerJobStatuses[number]

/** The error code of an import that lacks a value for a required template variable. */
export const REQUIRED_TEMPLATE_VARIABLES = "REQUIRED_TEMPLATE_VARIABLES"
export const jobErrorCodes = [REQUIRED_TEMPLATE_VARIABLES] as const

export const logSources = ["provisioner_daemon", "provisioner"] as const
export type LogSource = typeof logSources[number]
export const logLevels = ["trace", "debug", "info", "warn", "error"] as const
export type LogLevel = typeof logLevels[number]

/** What a job works on: a template version (imports, dry runs) or a workspace build. */
export interface ProvisionerJobInput {
  readonly template_version_id?: string | undefined
  readonly workspace_build_id?: string | undefined
  /** A `workspace_move` job's move, which side of it the job is, and the images the workspace ran. */
  readonly workspace_move_id?: string | undefined
  readonly move_side?: "export" | "import" | "cleanup" | undefined
  readonly move_images?: ReadonlyArray<string> | undefined
  /**
   * `claim` on the build that claims a prebuilt workspace for its new owner (the described
   * system's `prebuilt_workspace_build_stage`): its provisioner keeps the machine and its agent
   * reinitializes (docs/prebuilds.md, "Claiming").
   */
  readonly prebuilt_workspace_build_stage?: "claim" | undefined
  /** Why the input could not be read, when it could not. */
  readonly error?: string | undefined
}

/** Tags a job asks for and a worker offers: a job runs on a worker whose tags include all of the job's. */
export type ProvisionerTags = Readonly<Record<string, string>>

/** A stored job. Its status is not stored: it follows from the timestamps ({@link jobStatus}). */
export interface ProvisionerJobRecord {
  readonly id: string
  readonly created_at: Date
  /** The last change or worker heartbeat; a running job not updated for the hang timeout is failed. */
  readonly updated_at: Date
  readonly started_at: Date | null
  readonly canceled_at: Date | null
  readonly completed_at: Date | null
  /** `""` when none. */
  readonly error: string
  /** `""` when none; else one of {@link jobErrorCodes}. */
  readonly error_code: string
  readonly organization_id: string
  readonly initiator_id: string
  /** The provisioner type that must run the job (e.g. `terraform`, `echo`). */
  readonly provisioner: string
  readonly type: ProvisionerJobType
  readonly file_id: string
  readonly input: ProvisionerJobInput
  readonly tags: ProvisionerTags
  readonly worker_id: string | null
  readonly worker_name: string
  readonly logs_length: number
  readonly logs_overflowed: boolean
  /**
   * The host the job must run on (docs/provisioner-daemons.md, "Placement"): placed there, pinned
   * there (a workspace's later builds), or stamped by the host's daemon that claimed it; `null`
   * for a job any worker may take (absent in records made before hosts).
   */
  readonly host?: string | null | undefined
  /** What the placement counted against the host: the memory and CPU limits the build asks for. */
  readonly placed_memory_bytes?: number | undefined
  readonly placed_cpus?: number | undefined
}

/** A new job: the queue sets the rest (pending, no worker, no logs). */
export type NewProvisionerJob =
  & Pick<
    ProvisionerJobRecord,
    "id" | "created_at" | "organization_id" | "initiator_id" | "provisioner" | "type" | "file_id" | "input" | "tags"
  >
  & Pick<ProvisionerJobRecord, "host" | "placed_memory_bytes" | "placed_cpus">

/** A worker asking for a job: the provisioner types it runs and its tags. */
export interface ProvisionerWorker {
  readonly id: string
  readonly name: string
  readonly provisioners: ReadonlyArray<string>
  readonly tags: ProvisionerTags
  /** Only jobs of this organization (an external daemon's); none: every organization (the built-in workers). */
  readonly organization_id?: string | undefined
  /**
   * The host it runs jobs on (an external daemon that named one): it takes the jobs placed or
   * pinned there and those of no host (stamping its own on them); a worker of no host takes
   * only jobs of no host.
   */
  readonly host?: string | undefined
}

/**
 * A job's status from its timestamps, as the described system's generated `job_status`: an
 * error makes a finished job failed, a cancel request a finished one canceled.
 */
export const jobStatus = (
  job: Pick<ProvisionerJobRecord, "started_at" | "canceled_at" | "completed_at" | "error">
): ProvisionerJobStatus => {
  if (job.completed_at !== null) {
    return job.error !== ""
      ? "failed"
      : job.canceled_at !== null
      ? "canceled"
      : "succeeded"
  }
  if (job.canceled_at !== null) return "canceling"
  return job.started_at === null ? "pending" : "running"
}

/** The same rule in SQL, for the stored generated column and filters (both dialects). */
export const JOB_STATUS_SQL = `CASE
      WHEN completed_at IS NOT NULL THEN
        CASE WHEN error <> '' THEN 'failed' WHEN canceled_at IS NOT NULL THEN 'canceled' ELSE 'succeeded' END
      WHEN canceled_at IS NOT NULL THEN 'canceling'
      WHEN started_at IS NULL THEN 'pending'
      ELSE 'running'
    END`

/** Whether a worker with `workerTags` may run a job with `jobTags`: every job tag, with its value, is the worker's. */
export const tagsMatch = (jobTags: ProvisionerTags, workerTags: ProvisionerTags): boolean =>
  Object.entries(jobTags).every(([k, v]) => Object.prototype.hasOwnProperty.call(workerTags, k) && workerTags[k] === v)

/** Whether `worker` may run `job`: its provisioner type and its tags. */
export const workerServes = (
  worker: Pick<ProvisionerWorker, "provisioners" | "tags">,
  job: Pick<ProvisionerJobRecord, "provisioner" | "tags">
) => worker.provisioners.includes(job.provisioner) && tagsMatch(job.tags, worker.tags)

export const TAG_SCOPE = "scope"
export const TAG_OWNER = "owner"

/**
 * The tags a job or worker really has, as the described system mutates them: none means
 * `scope=organization`; `scope=user` names its owner (`owner=<userId>`); other scopes drop `owner`.
 */
export const mutateTags = (userId: string, tags: ProvisionerTags): ProvisionerTags => {
  const out: Record<string, string> = { ...tags }
  if (out[TAG_SCOPE] === undefined) out[TAG_SCOPE] = "organization"
  if (out[TAG_SCOPE] === "user") out[TAG_OWNER] = userId
  else delete out[TAG_OWNER]
  return out
}

/** Where a pending job stands: 1-based position among the pending jobs the available workers could run, and their number. */
export interface QueueStanding {
  readonly position: number
  readonly size: number
}

/**
 * The queue standing of `job` among `pending` (oldest first) for `workers`: only jobs some
 * worker could run count; a job no worker serves, or one not pending, has position 0.
 */
export const queueStanding = (
  job: Pick<ProvisionerJobRecord, "id">,
  pending: ReadonlyArray<Pick<ProvisionerJobRecord, "id" | "provisioner" | "tags">>,
  workers: ReadonlyArray<Pick<ProvisionerWorker, "provisioners" | "tags">>
): QueueStanding => {
  let size = 0
  let position = 0
  for (const p of pending) {
    if (!workers.some((w) => workerServes(w, p))) continue
    size++
    if (p.id === job.id) position = size
  }
  return { position, size }
}

/** A stored log line. `id` grows with every line of every job, so `after` pages a job's logs. */
export interface ProvisionerJobLogRecord {
  readonly id: number
  readonly job_id: string
  readonly created_at: Date
  readonly log_source: LogSource
  readonly log_level: LogLevel
  readonly stage: string
  readonly output: string
}

export type NewProvisionerJobLog = Omit<ProvisionerJobLogRecord, "id" | "job_id">

/** The default cap of a job's logs: 1 MiB of output, as the described system; past it lines are dropped and `logs_overflowed` set. */
export const DEFAULT_MAX_JOB_LOG_BYTES = 1024 * 1024

/** What an append did: lines stored, or none because the job's logs overflowed (now or before). */
export interface AppendLogsResult {
  readonly appended: number
  readonly overflowed: boolean
}

/** Filters of a job listing in one organization, newest first. */
export interface ProvisionerJobFilter {
  readonly organizationId: string
  readonly limit: number
  readonly ids?: ReadonlyArray<string> | undefined
  readonly statuses?: ReadonlyArray<ProvisionerJobStatus> | undefined
  /** Jobs whose tags include all of these. */
  readonly tags?: ProvisionerTags | undefined
  readonly initiatorId?: string | undefined
}

/** What a job's metadata shows of its template version and template. */
export interface TemplateVersionMetadata {
  readonly version_id: string
  readonly version_name: string
  readonly template_id: string | null
  readonly template_name: string
  readonly template_display_name: string
  readonly template_icon: string
}

/** What a `workspace_build` job's metadata names: its build's version and template, workspace and transition. */
export interface WorkspaceBuildMetadata extends TemplateVersionMetadata {
  readonly build_id: string
  readonly workspace_id: string
  readonly workspace_name: string
  readonly transition: "start" | "stop" | "delete"
}

/** The result the worker reports: an error (and its code) makes the job failed. */
export interface JobCompletion {
  readonly error?: string | undefined
  readonly error_code?: string | undefined
}

export class ProvisionerJobRepo extends Context.Tag("@workbay/core/ProvisionerJobRepo")<ProvisionerJobRepo, {
  readonly enqueue: (job: NewProvisionerJob) => Effect.Effect<ProvisionerJobRecord>
  readonly findById: (id: string) => Effect.Effect<Option.Option<ProvisionerJobRecord>>
  /** The jobs of these ids that exist, in any order (one read for a page). */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ProvisionerJobRecord>>
  /**
   * Claims the oldest pending job `worker` serves (type and tags), atomically: marks it
   * started by the worker and answers it; none when there is no such job. Two workers never
   * get the same job.
   */
  readonly acquire: (worker: ProvisionerWorker, now: Date) => Effect.Effect<Option.Option<ProvisionerJobRecord>>
  /** The worker's heartbeat on its unfinished job: the job as it is now (a `canceled_at` says stop), none when not the worker's or finished. */
  readonly heartbeat: (jobId: string, workerId: string, now: Date) => Effect.Effect<Option.Option<ProvisionerJobRecord>>
  /** Finishes the worker's started, unfinished job; none when it is not (another worker's, pending, finished). */
  readonly complete: (
    jobId: string,
    workerId: string,
    result: JobCompletion,
    now: Date
  ) => Effect.Effect<Option.Option<ProvisionerJobRecord>>
  /**
   * Asks an unfinished, not yet canceled job to cancel: a pending job is canceled at once, a
   * running one becomes canceling until its worker completes it. None when it is not such a job.
   */
  readonly requestCancel: (jobId: string, now: Date) => Effect.Effect<Option.Option<ProvisionerJobRecord>>
  /** Fails every started, unfinished job not updated since `olderThan`, with `error`; answers their ids. */
  readonly failHung: (olderThan: Date, error: string, now: Date) => Effect.Effect<ReadonlyArray<string>>
  /** Jobs bound to a host (placed or pinned) that no worker took, queued before `createdBefore`. */
  readonly pendingOnHosts: (createdBefore: Date) => Effect.Effect<ReadonlyArray<ProvisionerJobRecord>>
  /** Fails a job no worker took (with `error`): the job answers, none when it was taken or had ended. */
  readonly failPending: (jobId: string, error: string, now: Date) => Effect.Effect<Option.Option<ProvisionerJobRecord>>
  /**
   * What placements counted against each host of the organization and its reports may not show
   * yet: the asks of jobs placed there that are unfinished or ended after `endedAfter`.
   */
  readonly placedLoad: (
    organizationId: string,
    endedAfter: Date
  ) => Effect.Effect<ReadonlyMap<string, { readonly memory_bytes: number; readonly cpus: number }>>
  /** Stores `logs` unless the job's logs would pass `maxBytes` of output: then none are stored and `logs_overflowed` is set. */
  readonly appendLogs: (
    jobId: string,
    logs: ReadonlyArray<NewProvisionerJobLog>,
    maxBytes: number
  ) => Effect.Effect<AppendLogsResult>
  /** The job's log lines with an id above `afterId`, in order, at most `limit`. */
  readonly logsAfter: (
    jobId: string,
    afterId: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<ProvisionerJobLogRecord>>
  readonly listByOrganization: (filter: ProvisionerJobFilter) => Effect.Effect<ReadonlyArray<ProvisionerJobRecord>>
  /** The names of template versions and of their templates (none when the version has no template), for jobs' metadata. */
  readonly versionMetadata: (versionIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TemplateVersionMetadata>>
  /** The metadata of build jobs, by their builds' ids (one read for a list). */
  readonly buildMetadata: (buildIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<WorkspaceBuildMetadata>>
  /** The pending jobs of these provisioner types, oldest first (read along the pending-jobs index). */
  readonly pending: (
    provisioners: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<Pick<ProvisionerJobRecord, "id" | "provisioner" | "tags" | "created_at">>>
}>() {}

// Wire records.

const NullableDate = Schema.Date

export class ProvisionerJobInputWire extends Schema.Class<ProvisionerJobInputWire>("ProvisionerJobInput")({
  template_version_id: omitEmpty(Schema.UUID),
  workspace_build_id: omitEmpty(Schema.UUID),
  workspace_move_id: omitEmpty(Schema.UUID),
  error: omitEmpty(Schema.String)
}) {}

export class ProvisionerJobMetadata extends Schema.Class<ProvisionerJobMetadata>("ProvisionerJobMetadata")({
  template_version_name: Schema.String,
  template_id: Schema.UUID,
  template_name: Schema.String,
  template_display_name: Schema.String,
  template_icon: Schema.String,
  workspace_id: omitEmpty(Schema.UUID),
  workspace_name: omitEmpty(Schema.String),
  workspace_build_transition: omitEmpty(Schema.Literal("start", "stop", "delete"))
}) {}

/** A job on the wire (`codersdk.ProvisionerJob`): unset times, no worker and no error are left out. */
export class ProvisionerJob extends Schema.Class<ProvisionerJob>("ProvisionerJob")({
  id: Schema.UUID,
  created_at: Schema.Date,
  started_at: omitEmpty(NullableDate),
  completed_at: omitEmpty(NullableDate),
  canceled_at: omitEmpty(NullableDate),
  error: omitEmpty(Schema.String),
  error_code: omitEmpty(Schema.Literal(...jobErrorCodes)),
  status: Schema.Literal(...provisionerJobStatuses),
  worker_id: omitEmpty(Schema.UUID),
  worker_name: omitEmpty(Schema.String),
  file_id: Schema.UUID,
  tags: Schema.Record({ key: Schema.String, value: Schema.String }),
  queue_position: Schema.Int,
  queue_size: Schema.Int,
  organization_id: Schema.UUID,
  initiator_id: Schema.UUID,
  input: ProvisionerJobInputWire,
  type: Schema.Literal(...provisionerJobTypes),
  available_workers: omitEmpty(Schema.Array(Schema.UUID)),
  metadata: ProvisionerJobMetadata,
  logs_overflowed: Schema.Boolean
}) {}

/** What the wire record takes beside the stored one: the queue, the workers, the template and workspace it is about. */
export interface ProvisionerJobContext {
  readonly queue?: QueueStanding | undefined
  readonly availableWorkers?: ReadonlyArray<string> | undefined
  readonly metadata: ProvisionerJobMetadata
}

const makeJobInput = wireMaker(ProvisionerJobInputWire)
const makeJob = wireMaker(ProvisionerJob)

/** The job's input on the wire: its set fields. */
const jobInput = (input: ProvisionerJobRecord["input"]) => {
  const out: Record<string, unknown> = {}
  for (const key in input) {
    const v = (input as Record<string, unknown>)[key]
    if (v !== undefined && v !== "") out[key] = v
  }
  return makeJobInput(out)
}

/** The wire record of a stored job. */
export const toProvisionerJob = (job: ProvisionerJobRecord, context: ProvisionerJobContext): ProvisionerJob => {
  const props: WireProps<typeof ProvisionerJob> = {
    id: job.id,
    created_at: job.created_at,
    status: jobStatus(job),
    file_id: job.file_id,
    tags: job.tags,
    queue_position: context.queue?.position ?? 0,
    queue_size: context.queue?.size ?? 0,
    organization_id: job.organization_id,
    initiator_id: job.initiator_id,
    input: jobInput(job.input),
    type: job.type,
    metadata: context.metadata,
    logs_overflowed: job.logs_overflowed
  }
  putNonEmpty(props, "started_at", job.started_at ?? undefined)
  putNonEmpty(props, "completed_at", job.completed_at ?? undefined)
  putNonEmpty(props, "canceled_at", job.canceled_at ?? undefined)
  putNonEmpty(props, "error", job.error)
  putNonEmpty(props, "error_code", job.error_code as ProvisionerJob["error_code"])
  putNonEmpty(props, "worker_id", job.worker_id ?? undefined)
  putNonEmpty(props, "worker_name", job.worker_name)
  putNonEmpty(props, "available_workers", context.availableWorkers)
  return makeJob(props)
}

/** A log line on the wire (`codersdk.ProvisionerJobLog`). */
export class ProvisionerJobLog extends Schema.Class<ProvisionerJobLog>("ProvisionerJobLog")({
  id: Schema.Int,
  created_at: Schema.Date,
  log_source: Schema.Literal(...logSources),
  log_level: Schema.Literal(...logLevels),
  stage: Schema.String,
  output: Schema.String
}) {}

export const toProvisionerJobLog = (log: ProvisionerJobLogRecord): ProvisionerJobLog =>
  new ProvisionerJobLog({
    id: log.id,
    created_at: log.created_at,
    log_source: log.log_source,
    log_level: log.log_level,
    stage: log.stage,
    output: log.output
  }, true)
