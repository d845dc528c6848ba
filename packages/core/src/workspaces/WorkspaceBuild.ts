/**
 * Workspace builds and what they provision: the stored records of a build, its parameter
 * values, and the resources and agents a provisioner job left. Ports and rules live with the
 * builds service.
 */
import { Context, type Effect, type Option } from "effect"
import type {
  AgentApp,
  AgentMetadataItem,
  AgentScript,
  DisplayApps,
  NameValue,
  ResourceMetadata,
  WorkspaceTransition
} from "../provisioners/Provisioner.js"
import type { ProvisionerJobStatus } from "../provisioners/ProvisionerJob.js"
import type { NewRecord, UniqueViolation } from "../Repositories.js"
import type { AppStatusState } from "../templates/TemplateVersionWire.js"

/** A status an agent reported for one of its apps; the fields are those of the wire record. */
export interface AppStatusRecord {
  readonly id: string
  readonly created_at: Date
  readonly workspace_id: string
  readonly agent_id: string
  readonly app_id: string
  readonly state: AppStatusState
  readonly message: string
  readonly uri: string
  readonly icon: string
  readonly needs_user_attention: boolean
}

/** A log source an agent declared. */
export interface AgentLogSourceRecord {
  readonly id: string
  readonly workspace_agent_id: string
  readonly created_at: Date
  readonly display_name: string
  readonly icon: string
}

export type BuildReason =
  | "initiator"
  | "autostart"
  | "autostop"
  | "dormancy"
  | "failedstop"
  | "autodelete"
  | "task_auto_pause"
  | "task_manual_pause"
  | "task_resume"

/** A stored build. `build_number` counts from 1 per workspace. */
export interface WorkspaceBuildRecord {
  readonly id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly workspace_id: string
  readonly template_version_id: string
  readonly template_version_preset_id: string | null
  readonly build_number: number
  readonly transition: WorkspaceTransition
  readonly initiator_id: string
  readonly job_id: string
  /** The provisioner's opaque state after this build; empty until its job succeeds. */
  readonly provisioner_state: Uint8Array
  readonly deadline: Date | null
  readonly max_deadline: Date | null
  readonly reason: BuildReason
  readonly daily_cost: number
  readonly has_ai_task: boolean
  readonly has_external_agent: boolean
  readonly parameters: ReadonlyArray<NameValue>
  /** A delete that forgets the resources without running the provisioner. */
  readonly orphan: boolean
}

/**
 * What a new build is made of: its workspace, version, number, transition, initiator and job;
 * every other field may be given or takes its default.
 */
export type NewWorkspaceBuild = NewRecord<
  WorkspaceBuildRecord,
  "id" | "workspace_id" | "template_version_id" | "build_number" | "transition" | "initiator_id" | "job_id"
>

/**
 * A new build's stored record: the one constructor every writer uses (the builds service and the
 * test factories), so a new field gets its default here once. Made at `at`, asked for by its
 * initiator, without a preset or parameter values, from no provisioner state (the service gives the
 * previous build's), not an orphaning delete; no deadline, cost, AI task or external agent until
 * its job's result sets them.
 */
export const newWorkspaceBuild = ({ at, ...given }: NewWorkspaceBuild): WorkspaceBuildRecord => ({
  created_at: at,
  updated_at: at,
  template_version_preset_id: null,
  provisioner_state: new Uint8Array(0),
  deadline: null,
  max_deadline: null,
  reason: "initiator",
  daily_cost: 0,
  has_ai_task: false,
  has_external_agent: false,
  parameters: [],
  orphan: false,
  ...given
})

/**
 * A build without its parameter values and provisioner state: what a workspace's wire record
 * needs of its latest build (a read of one statement, and no state blob, per page).
 */
export type WorkspaceBuildSummary = Omit<WorkspaceBuildRecord, "parameters" | "provisioner_state">

/** A resource a provisioner job made (a build's, for one transition). */
export interface WorkspaceResourceRecord {
  readonly id: string
  readonly created_at: Date
  readonly job_id: string
  readonly transition: WorkspaceTransition
  readonly type: string
  readonly name: string
  readonly hide: boolean
  readonly icon: string
  readonly daily_cost: number
  readonly metadata: ReadonlyArray<ResourceMetadata>
}

export interface StoredAgentApp extends AgentApp {
  readonly id: string
}
export interface StoredAgentScript extends AgentScript {
  readonly id: string
}

/**
 * An agent of a resource. Its token is found by its hash; an external agent's token is also kept
 * sealed (`NewWorkspaceAgent`, `AgentRepo.keptToken`), never in this record.
 */
export interface WorkspaceAgentRecord {
  readonly id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly resource_id: string
  readonly name: string
  readonly external: boolean
  /** The cloud instance the agent runs on, for the instance identity routes; "" when none. */
  readonly instance_id: string
  readonly auth_token_hash: string
  readonly operating_system: string
  readonly architecture: string
  readonly directory: string
  readonly environment_variables: Readonly<Record<string, string>>
  readonly connection_timeout_seconds: number
  readonly troubleshooting_url: string
  readonly startup_script_behavior: "blocking" | "non-blocking"
  readonly display_apps: DisplayApps
  readonly apps: ReadonlyArray<StoredAgentApp>
  readonly scripts: ReadonlyArray<StoredAgentScript>
  readonly lifecycle_state: string
  readonly first_connected_at: Date | null
  readonly last_connected_at: Date | null
  readonly disconnected_at: Date | null
  /** The replica that holds (or last held) the agent's connection; absent: none yet (docs/agents.md, "Several replicas"). */
  readonly last_connected_replica_id?: string | null | undefined
  /** The connection's latest round trip in microseconds, as the replica holding it measured it; absent or null: none. */
  readonly latency_us?: number | null | undefined
  readonly started_at: Date | null
  readonly ready_at: Date | null
  readonly version: string
  readonly api_version: string
  readonly logs_length: number
  readonly logs_overflowed: boolean
  /** The log sources the agent declared, in the order it declared them (absent: none). */
  readonly log_sources?: ReadonlyArray<AgentLogSourceRecord> | undefined
  /** The statuses the agent reported, by app id, newest first (absent: none). */
  readonly app_statuses?: Readonly<Record<string, ReadonlyArray<AppStatusRecord>>> | undefined
  /** The directory as the agent expanded it (its report at start-up); empty until then. */
  readonly expanded_directory: string
  /** The subsystems the agent reported at start-up. */
  readonly subsystems: ReadonlyArray<string>
  /** The last result the agent reported of each of its scripts, by script id. */
  readonly script_results: Readonly<Record<string, AgentScriptResult>>
  /** The metadata items the template declares for the agent. */
  readonly metadata: ReadonlyArray<AgentMetadataItem>
  /** The health of its apps as the agent last reported it, by app id (absent: none reported). */
  readonly app_health?: Readonly<Record<string, AppHealth>> | undefined
}

export type AppHealth = "disabled" | "initializing" | "healthy" | "unhealthy"

/** How a script's last run ended, as the agent reported it (the described system's script timing statuses). */
export interface AgentScriptRun {
  readonly status: "ok" | "exit_failure" | "timed_out" | "pipes_left_open"
  readonly exit_code: number
  readonly started_at: string
  readonly ended_at: string
  /** When the script ran, as the agent reported it (absent in results stored before it was kept). */
  readonly stage?: "start" | "stop" | "cron" | undefined
}

/** The last reported run of a script, with the first one (kept for the build's timings; absent while the last is the first). */
export interface AgentScriptResult extends AgentScriptRun {
  readonly first?: AgentScriptRun | undefined
}

/** A page of a workspace's builds, newest first (the described system's order). */
export interface WorkspaceBuildPage {
  readonly workspaceId: string
  readonly limit: number
  readonly offset?: number | undefined
  /**
   * Builds numbered above this one (the described system's cursor: `build_number >` the cursor's,
   * still listed newest first).
   */
  readonly afterId?: string | undefined
  /** Builds created strictly after this time (as the described system). */
  readonly since?: Date | undefined
}

/** What a build's job leaves on it when it succeeds. */
export interface WorkspaceBuildResult {
  readonly provisioner_state: Uint8Array
  readonly daily_cost: number
  readonly has_ai_task: boolean
  readonly has_external_agent: boolean
  readonly deadline: Date | null
  readonly max_deadline: Date | null
}

/**
 * A prebuilt workspace's creation: the first build (a start with a preset) of a workspace the
 * prebuilds user initiated (docs/prebuilds.md). `owner_id` is whoever owns it now (another user
 * once claimed); `job_status` its job's status.
 */
export interface PrebuildCreation {
  readonly workspace_id: string
  readonly owner_id: string
  readonly organization_id: string
  readonly template_id: string
  readonly template_version_id: string
  readonly preset_id: string
  readonly created_at: Date
  readonly job_status: ProvisionerJobStatus
}

export class WorkspaceBuildRepo extends Context.Tag("@workbay/core/WorkspaceBuildRepo")<WorkspaceBuildRepo, {
  /** Stores the build and its parameter values. Fails with `UniqueViolation` when the workspace already has that build number. */
  readonly insert: (build: WorkspaceBuildRecord) => Effect.Effect<void, UniqueViolation>
  readonly findById: (id: string) => Effect.Effect<Option.Option<WorkspaceBuildRecord>>
  readonly findByJobId: (jobId: string) => Effect.Effect<Option.Option<WorkspaceBuildRecord>>
  /**
   * The parameter values of the owner's latest start builds of the template's workspaces, newest
   * first, at most `limit` rows (a name may repeat: its first row is its latest value).
   */
  readonly recentParameters: (ownerId: string, templateId: string, limit: number) => Effect.Effect<
    ReadonlyArray<{ readonly name: string; readonly value: string; readonly template_version_id: string }>
  >
  readonly findByNumber: (
    workspaceId: string,
    buildNumber: number
  ) => Effect.Effect<Option.Option<WorkspaceBuildRecord>>
  /** The latest build (highest number) of each of these workspaces. */
  readonly latestOf: (workspaceIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<WorkspaceBuildRecord>>
  /** {@link latestOf} as summaries: without parameter values and provisioner state. */
  readonly latestSummariesOf: (
    workspaceIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<WorkspaceBuildSummary>>
  readonly list: (page: WorkspaceBuildPage) => Effect.Effect<ReadonlyArray<WorkspaceBuildRecord>>
  /**
   * Prebuilt workspaces' creations (deleted workspaces too), newest first: those created at or
   * after `since` when given, and only those the prebuilds user still owns when `unclaimed`
   * (along the owner index), and only the newest `perPreset` of each preset when given. The
   * reconciler's backoff and hard limit, and the prebuilds metrics read them.
   */
  readonly prebuildCreations: (options: {
    readonly since?: Date | undefined
    readonly unclaimed?: boolean | undefined
    readonly perPreset?: number | undefined
  }) => Effect.Effect<ReadonlyArray<PrebuildCreation>>
  readonly setResult: (id: string, result: WorkspaceBuildResult, now: Date) => Effect.Effect<void>
  /** Overwrites a build's provisioner state (`PUT /workspacebuilds/{workspacebuild}/state`). */
  readonly setProvisionerState: (id: string, state: Uint8Array, now: Date) => Effect.Effect<void>
  /** Moves a build's deadline (and max deadline when given): the schedule routes, activity bumps. */
  readonly setDeadline: (
    id: string,
    times: { readonly deadline: Date | null; readonly max_deadline?: Date | null | undefined },
    now: Date
  ) => Effect.Effect<void>
}>() {}

/** A resource with its agents, as stored. */
export interface StoredResource {
  readonly resource: WorkspaceResourceRecord
  readonly agents: ReadonlyArray<WorkspaceAgentRecord>
}

/**
 * An agent as its build stores it: the record and, for an agent whose token is handed out again
 * (an external agent: its credentials route), the token itself, kept sealed at rest.
 */
export interface NewWorkspaceAgent extends WorkspaceAgentRecord {
  readonly auth_token?: string | undefined
}

/** A resource with its agents, as a build stores it. */
export interface NewStoredResource {
  readonly resource: WorkspaceResourceRecord
  readonly agents: ReadonlyArray<NewWorkspaceAgent>
}

export class WorkspaceResourceRepo extends Context.Tag("@workbay/core/WorkspaceResourceRepo")<WorkspaceResourceRepo, {
  readonly insert: (resources: ReadonlyArray<NewStoredResource>) => Effect.Effect<void>
  /**
   * Ends these agents' tokens (their hashes replaced by values no token hashes to), so that a
   * newer build's agent can take the hashes over: a claimed prebuilt workspace's kept agents.
   */
  readonly retireAgentTokens: (agentIds: ReadonlyArray<string>, now: Date) => Effect.Effect<void>
  /** The resources (with their agents) of these jobs, in creation order. */
  readonly listByJobs: (jobIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoredResource>>
}>() {}

/** The statuses a build (and its workspace) shows, from its transition and its job. */
export const workspaceStatuses = [
  "pending",
  "starting",
  "running",
  "stopping",
  "stopped",
  "failed",
  "canceling",
  "canceled",
  "deleting",
  "deleted"
] as const
export type WorkspaceStatus = typeof workspaceStatuses[number]

/**
 * A build's status, as the described system derives it: a pending job is pending; a running
 * one is starting, stopping or deleting; a succeeded one running, stopped or deleted; a
 * canceling, canceled or failed job gives its own status.
 */
export const buildStatus = (transition: WorkspaceTransition, job: ProvisionerJobStatus): WorkspaceStatus => {
  switch (job) {
    case "pending":
      return "pending"
    case "running":
      return transition === "start" ? "starting" : transition === "stop" ? "stopping" : "deleting"
    case "succeeded":
      return transition === "start" ? "running" : transition === "stop" ? "stopped" : "deleted"
    case "canceling":
    case "canceled":
    case "failed":
      return job
    default:
      return "failed"
  }
}
