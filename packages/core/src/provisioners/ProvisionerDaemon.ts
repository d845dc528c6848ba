/**
 * Provisioner daemons: the workers that run provisioner jobs, as the described system lists
 * them (`GET /organizations/{organization}/provisionerdaemons`). Each built-in worker registers
 * one row when it starts and marks it seen while it polls and heartbeats; its status is derived:
 * offline when not seen for {@link DAEMON_STALE_INTERVAL}, else busy with a current job, else idle.
 * Built-in workers serve every organization (their row has no organization) and appear in each
 * organization's listing.
 */
import { Context, Duration, type Effect, type Option, Schema } from "effect"
import { omitEmpty, putNonEmpty, type WireProps } from "../Wire.js"
import { provisionerJobStatuses, type ProvisionerTags } from "./ProvisionerJob.js"

export const provisionerDaemonStatuses = ["offline", "idle", "busy"] as const
export type ProvisionerDaemonStatus = typeof provisionerDaemonStatuses[number]

/** A daemon not seen for this long is offline (the described system's stale interval, 90 s). */
export const DAEMON_STALE_INTERVAL: Duration.Duration = Duration.seconds(90)

/** The key name and id the described system gives its built-in daemons. */
export const BUILT_IN_KEY_NAME = "built-in"
export const BUILT_IN_KEY_ID = "00000000-0000-0000-0000-000000000001"

export interface ProvisionerDaemonRecord {
  readonly id: string
  /** `null` for the built-in workers: they serve every organization. */
  readonly organization_id: string | null
  readonly name: string
  readonly provisioners: ReadonlyArray<string>
  readonly tags: ProvisionerTags
  readonly created_at: Date
  readonly last_seen_at: Date | null
  readonly version: string
  readonly api_version: string
  readonly key_name: string
  /** The provisioner key an external daemon connected with; none (the built-in key) for the built-in workers. */
  readonly key_id?: string | null | undefined
  /** The host an external daemon runs jobs on (protocol 1.2); none for the built-in workers and host-less daemons. */
  readonly host?: string | null | undefined
  /** The job it runs now; `null` when idle. */
  readonly current_job_id: string | null
  /** The job it ran last. */
  readonly previous_job_id: string | null
}

export type NewProvisionerDaemon = Omit<ProvisionerDaemonRecord, "current_job_id" | "previous_job_id">

/** A daemon's status at `now`. */
export const daemonStatus = (
  daemon: Pick<ProvisionerDaemonRecord, "last_seen_at" | "current_job_id">,
  now: number,
  stale: Duration.Duration = DAEMON_STALE_INTERVAL
): ProvisionerDaemonStatus =>
  daemon.last_seen_at === null || daemon.last_seen_at.getTime() < now - Duration.toMillis(stale)
    ? "offline"
    : daemon.current_job_id !== null
    ? "busy"
    : "idle"

/** Filters of a daemon listing in one organization (built-in daemons are in every one), newest first. */
export interface ProvisionerDaemonFilter {
  readonly organizationId: string
  readonly limit: number
  readonly ids?: ReadonlyArray<string> | undefined
  /** Daemons whose tags include all of these. */
  readonly tags?: ProvisionerTags | undefined
  readonly statuses?: ReadonlyArray<ProvisionerDaemonStatus> | undefined
  /** Seen at or after this is live (not offline). */
  readonly staleBefore: Date
}

export class ProvisionerDaemonRepo extends Context.Tag("@workbay/core/ProvisionerDaemonRepo")<ProvisionerDaemonRepo, {
  /** Registers a daemon; one of the same name is replaced (a restarted worker takes its row). */
  readonly register: (daemon: NewProvisionerDaemon) => Effect.Effect<void>
  /** Marks the daemon seen at `now`. */
  readonly seen: (id: string, now: Date) => Effect.Effect<void>
  /** The daemon took `jobId` (current) at `now`. */
  readonly started: (id: string, jobId: string, now: Date) => Effect.Effect<void>
  /** The daemon finished `jobId`: it becomes the previous job; no current job. */
  readonly finished: (id: string, jobId: string, now: Date) => Effect.Effect<void>
  readonly findById: (id: string) => Effect.Effect<Option.Option<ProvisionerDaemonRecord>>
  /** The row of that name (names are unique across organizations). */
  readonly findByName: (name: string) => Effect.Effect<Option.Option<ProvisionerDaemonRecord>>
  readonly list: (filter: ProvisionerDaemonFilter) => Effect.Effect<ReadonlyArray<ProvisionerDaemonRecord>>
  /** Every daemon serving `organizationId` (its own and the built-in ones), live or not, for matching jobs to workers. */
  readonly serving: (organizationId: string) => Effect.Effect<ReadonlyArray<ProvisionerDaemonRecord>>
  /** Deletes daemons not seen since `olderThan`; answers how many. */
  readonly purge: (olderThan: Date) => Effect.Effect<number>
}>() {}

// Wire records.

/** A job as a daemon listing shows it (`codersdk.ProvisionerDaemonJob`). */
export class ProvisionerDaemonJob extends Schema.Class<ProvisionerDaemonJob>("ProvisionerDaemonJob")({
  id: Schema.UUID,
  status: Schema.Literal(...provisionerJobStatuses),
  template_name: Schema.String,
  template_icon: Schema.String,
  template_display_name: Schema.String
}) {}

/** A daemon on the wire (`codersdk.ProvisionerDaemon`). */
export class ProvisionerDaemon extends Schema.Class<ProvisionerDaemon>("ProvisionerDaemon")({
  id: Schema.UUID,
  organization_id: Schema.UUID,
  key_id: Schema.UUID,
  created_at: Schema.Date,
  last_seen_at: omitEmpty(Schema.Date),
  name: Schema.String,
  version: Schema.String,
  api_version: Schema.String,
  provisioners: Schema.Array(Schema.String),
  tags: Schema.Record({ key: Schema.String, value: Schema.String }),
  key_name: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.Literal(...provisionerDaemonStatuses)),
  current_job: Schema.NullOr(ProvisionerDaemonJob),
  previous_job: Schema.NullOr(ProvisionerDaemonJob)
}) {}

export const toProvisionerDaemon = (
  daemon: ProvisionerDaemonRecord,
  context: {
    readonly organizationId: string
    readonly status: ProvisionerDaemonStatus
    readonly currentJob: ProvisionerDaemonJob | null
    readonly previousJob: ProvisionerDaemonJob | null
  }
): ProvisionerDaemon => {
  const props: WireProps<typeof ProvisionerDaemon> = {
    id: daemon.id,
    organization_id: daemon.organization_id ?? context.organizationId,
    key_id: daemon.key_id ?? BUILT_IN_KEY_ID,
    created_at: daemon.created_at,
    name: daemon.name,
    version: daemon.version,
    api_version: daemon.api_version,
    provisioners: daemon.provisioners,
    tags: daemon.tags,
    key_name: daemon.key_name,
    status: context.status,
    current_job: context.currentJob,
    previous_job: context.previousJob
  }
  putNonEmpty(props, "last_seen_at", daemon.last_seen_at ?? undefined)
  return new ProvisionerDaemon(props, true)
}

/** How many live workers could run a job (`codersdk.MatchedProvisioners`). */
export class MatchedProvisioners extends Schema.Class<MatchedProvisioners>("MatchedProvisioners")({
  /** Daemons (live or not) whose type and tags fit the job. */
  count: Schema.Int,
  /** Of those, the ones seen within the stale interval. */
  available: Schema.Int,
  /** The latest time any of them was seen; left out when none was. */
  most_recently_seen: omitEmpty(Schema.Date)
}) {}
