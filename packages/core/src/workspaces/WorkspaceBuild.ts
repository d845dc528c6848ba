/**
 * Workspace builds and what they provision: the stored records of a build, its parameter
 * values, and the resources and agents a provisioner job left. Ports and rules live with the
 * builds service.
 */
import type { AgentApp, AgentScript, DisplayApps, NameValue, ResourceMetadata, WorkspaceTransition } from "../templates/Provisioner.js"

export type BuildReason = "initiator" | "autostart" | "autostop" | "dormancy" | "failedstop" | "autodelete"

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
}

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

/** An agent of a resource. Its token is stored only as a hash. */
export interface WorkspaceAgentRecord {
  readonly id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly resource_id: string
  readonly name: string
  readonly external: boolean
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
  readonly started_at: Date | null
  readonly ready_at: Date | null
  readonly version: string
  readonly api_version: string
  readonly logs_length: number
  readonly logs_overflowed: boolean
}
