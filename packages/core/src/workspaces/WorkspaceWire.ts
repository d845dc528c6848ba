/**
 * Workspaces and their builds on the wire (`codersdk.Workspace`, `codersdk.WorkspaceBuild`,
 * `codersdk.WorkspacesResponse`, build parameters) and the conversion of stored resources and
 * agents. Fields the described system tags `omitempty` are left out when empty; its nullable
 * times (`deleting_at`, `dormant_at`, `next_start_at`) are `null` when unset.
 */
import { Schema } from "effect"
import { EMBEDDED_RELAY_REGION_NAME } from "../DerpMap.js"
import { NullUuid } from "../Ids.js"
import { workspaceTransitions } from "../provisioners/Provisioner.js"
import { MatchedProvisioners } from "../provisioners/ProvisionerDaemon.js"
import { ProvisionerJob } from "../provisioners/ProvisionerJob.js"
import type { ImportedResource } from "../templates/TemplateVersion.js"
import {
  agentProps,
  toWorkspaceResourceWith,
  WorkspaceAgent,
  WorkspaceAgentHealth,
  WorkspaceAgentLogSource,
  WorkspaceAgentScript,
  WorkspaceApp,
  WorkspaceAppStatus,
  WorkspaceResource
} from "../templates/TemplateVersionWire.js"
import { omitEmpty, putNonEmpty, wireMaker } from "../Wire.js"
import { appSubdomainName } from "./AppUrl.js"
import { SharedWorkspaceActor } from "./Sharing.js"
import { automaticUpdatesValues } from "./Workspace.js"
import {
  type AppStatusRecord,
  type StoredResource,
  type WorkspaceAgentRecord,
  workspaceStatuses
} from "./WorkspaceBuild.js"

/**
 * How often an open agent connection refreshes its agent's `last_connected_at` (the described
 * system's `AgentConnectionUpdateFrequency`): at most one write per connection per period, however
 * often the agent sends heartbeats.
 */
export const AGENT_CONNECTION_UPDATE_SECONDS = 15

/**
 * How long after its last refresh an agent counts as disconnected when its connection vanished
 * without a close (the described system's `AgentInactiveDisconnectTimeout`, twice the update period).
 */
export const AGENT_INACTIVE_DISCONNECT_SECONDS = 2 * AGENT_CONNECTION_UPDATE_SECONDS

export const workspaceBuildReasons = [
  "initiator",
  "autostart",
  "autostop",
  "dormancy",
  "failedstop",
  "autodelete",
  "task_auto_pause",
  "task_manual_pause",
  "task_resume"
] as const

export class WorkspaceBuild extends Schema.Class<WorkspaceBuild>("WorkspaceBuild")({
  id: Schema.UUID,
  created_at: Schema.Date,
  updated_at: Schema.Date,
  workspace_id: Schema.UUID,
  workspace_name: Schema.String,
  workspace_owner_id: Schema.UUID,
  workspace_owner_name: omitEmpty(Schema.String),
  workspace_owner_avatar_url: omitEmpty(Schema.String),
  template_version_id: Schema.UUID,
  template_version_name: Schema.String,
  build_number: Schema.Int,
  transition: Schema.Literal(...workspaceTransitions),
  initiator_id: Schema.UUID,
  initiator_name: Schema.String,
  job: ProvisionerJob,
  reason: Schema.Literal(...workspaceBuildReasons),
  resources: Schema.Array(WorkspaceResource),
  deadline: omitEmpty(Schema.Date),
  max_deadline: omitEmpty(Schema.Date),
  status: Schema.Literal(...workspaceStatuses),
  daily_cost: Schema.Int,
  matched_provisioners: omitEmpty(MatchedProvisioners),
  template_version_preset_id: Schema.NullOr(Schema.UUID),
  has_ai_task: omitEmpty(Schema.Boolean),
  has_external_agent: omitEmpty(Schema.Boolean)
}) {}

export class WorkspaceHealth extends Schema.Class<WorkspaceHealth>("WorkspaceHealth")({
  healthy: Schema.Boolean,
  failing_agents: Schema.Array(Schema.UUID)
}) {}

/** One user or group a workspace is shared with. */

export class Workspace extends Schema.Class<Workspace>("Workspace")({
  id: Schema.UUID,
  created_at: Schema.Date,
  updated_at: Schema.Date,
  owner_id: Schema.UUID,
  owner_name: Schema.String,
  owner_avatar_url: Schema.String,
  organization_id: Schema.UUID,
  organization_name: Schema.String,
  template_id: Schema.UUID,
  template_name: Schema.String,
  template_display_name: Schema.String,
  template_icon: Schema.String,
  template_allow_user_cancel_workspace_jobs: Schema.Boolean,
  template_active_version_id: Schema.UUID,
  template_require_active_version: Schema.Boolean,
  template_use_classic_parameter_flow: Schema.Boolean,
  latest_build: WorkspaceBuild,
  latest_app_status: Schema.NullOr(WorkspaceAppStatus),
  outdated: Schema.Boolean,
  name: Schema.String,
  autostart_schedule: omitEmpty(Schema.String),
  ttl_ms: omitEmpty(Schema.Int),
  last_used_at: Schema.Date,
  deleting_at: Schema.NullOr(Schema.Date),
  dormant_at: Schema.NullOr(Schema.Date),
  health: WorkspaceHealth,
  automatic_updates: Schema.Literal(...automaticUpdatesValues),
  allow_renames: Schema.Boolean,
  favorite: Schema.Boolean,
  next_start_at: Schema.NullOr(Schema.Date),
  is_prebuild: Schema.Boolean,
  task_id: omitEmpty(NullUuid),
  shared_with: Schema.Array(SharedWorkspaceActor)
}) {}

export class WorkspacesResponse extends Schema.Class<WorkspacesResponse>("WorkspacesResponse")({
  workspaces: Schema.Array(Workspace),
  count: Schema.Int
}) {}

export class WorkspaceBuildParameter extends Schema.Class<WorkspaceBuildParameter>("WorkspaceBuildParameter")({
  name: Schema.String,
  value: Schema.String
}) {}

/**
 * An agent's connection status from its times (the described system's rule): never connected is
 * "connecting", or "timeout" past `connection_timeout_seconds`; closed after its last connection (strictly, as the described system), or
 * not refreshed for AGENT_INACTIVE_DISCONNECT_SECONDS, is "disconnected"; else "connected".
 */
export const agentStatus = (agent: WorkspaceAgentRecord, now: number): WorkspaceAgent["status"] => {
  if (agent.first_connected_at === null) {
    const timeout = agent.connection_timeout_seconds
    return timeout > 0 && now - agent.created_at.getTime() > timeout * 1000 ? "timeout" : "connecting"
  }
  if (
    agent.disconnected_at !== null &&
    (agent.last_connected_at === null || agent.disconnected_at > agent.last_connected_at)
  ) {
    return "disconnected"
  }
  if (
    agent.last_connected_at === null ||
    now - agent.last_connected_at.getTime() > AGENT_INACTIVE_DISCONNECT_SECONDS * 1000
  ) {
    return "disconnected"
  }
  return "connected"
}

/**
 * An agent's health (the described system's current rule): unhealthy when it is off and not
 * connected, when it has not yet connected (status `connecting`, whatever its lifecycle), when
 * its connection timed out or was lost, when its startup scripts failed (`start_error`) or while
 * it shuts down. A start timeout is a soft issue: still healthy.
 */
export const agentHealth = (
  status: WorkspaceAgent["status"],
  lifecycle: string
): { healthy: boolean; reason: string } => {
  if (status !== "connected" && lifecycle === "off") return { healthy: false, reason: "agent is not running" }
  if (status === "connecting") return { healthy: false, reason: "agent has not yet connected" }
  if (status === "timeout") return { healthy: false, reason: "agent is taking too long to connect" }
  if (status === "disconnected") return { healthy: false, reason: "agent has lost connection" }
  if (lifecycle === "start_error") return { healthy: false, reason: "agent startup script exited with an error" }
  if (lifecycle === "shutting_down" || lifecycle === "shutdown_timeout" || lifecycle === "shutdown_error") {
    return { healthy: false, reason: "agent is shutting down" }
  }
  return { healthy: true, reason: "" }
}

const makeAgentHealth = wireMaker(WorkspaceAgentHealth)
const makeScript = wireMaker(WorkspaceAgentScript)
const makeAgent = wireMaker(WorkspaceAgent)
const makeWorkspaceHealth = wireMaker(WorkspaceHealth)

/** The wire form of an app status. */
export const toAppStatus = (r: AppStatusRecord): WorkspaceAppStatus => new WorkspaceAppStatus(r, true)

/** Whose workspace a resource is in: names the hosts of its subdomain apps (`subdomain_name`). */
export interface AppHostNames {
  readonly owner: string
  readonly workspace: string
}

/**
 * The wire form of a build's resource and its agents (their status and health from their
 * connection times). With `names`, subdomain apps carry their `subdomain_name`, as the described
 * system's (`{app}--{agent}--{workspace}--{user}`).
 */
export const toBuildResource = (stored: StoredResource, now: number, names?: AppHostNames): WorkspaceResource => {
  const r = stored.resource
  const imported: ImportedResource = {
    id: r.id,
    job_id: r.job_id,
    created_at: r.created_at,
    transition: r.transition,
    type: r.type,
    name: r.name,
    hide: r.hide,
    icon: r.icon,
    daily_cost: r.daily_cost,
    metadata: r.metadata,
    agents: stored.agents.map((a) => ({
      id: a.id,
      name: a.name,
      external: a.external,
      instance_id: a.instance_id,
      operating_system: a.operating_system,
      architecture: a.architecture,
      directory: a.directory,
      env: a.environment_variables,
      connection_timeout_seconds: a.connection_timeout_seconds,
      troubleshooting_url: a.troubleshooting_url,
      startup_script_behavior: a.startup_script_behavior,
      display_apps: a.display_apps,
      apps: a.apps,
      scripts: a.scripts
    }))
  }
  const byId = new Map(stored.agents.map((a) => [a.id, a]))
  return toWorkspaceResourceWith(imported, (found, resource) => {
    const a = byId.get(found.id)!
    const status = agentStatus(a, now)
    const health = agentHealth(status, a.lifecycle_state)
    const props = agentProps(found, resource)
    props.created_at = a.created_at
    props.updated_at = a.updated_at
    props.status = status
    props.lifecycle_state = a.lifecycle_state as WorkspaceAgent["lifecycle_state"]
    props.version = a.version
    props.api_version = a.api_version
    props.logs_length = a.logs_length
    props.logs_overflowed = a.logs_overflowed
    props.health = makeAgentHealth(health.reason === "" ? { healthy: health.healthy } : health)
    props.subsystems = a.subsystems as WorkspaceAgent["subsystems"]
    putNonEmpty(props, "expanded_directory", a.expanded_directory)
    putNonEmpty(props, "first_connected_at", a.first_connected_at ?? undefined)
    putNonEmpty(props, "last_connected_at", a.last_connected_at ?? undefined)
    putNonEmpty(props, "disconnected_at", a.disconnected_at ?? undefined)
    putNonEmpty(props, "started_at", a.started_at ?? undefined)
    putNonEmpty(props, "ready_at", a.ready_at ?? undefined)
    if (status === "connected" && a.latency_us !== undefined && a.latency_us !== null) {
      props.latency = { [EMBEDDED_RELAY_REGION_NAME]: { preferred: true, latency_ms: a.latency_us / 1000 } }
    }
    if (props.scripts.some((sc) => a.script_results[sc.id] !== undefined)) {
      props.scripts = props.scripts.map((sc) => {
        const result = a.script_results[sc.id]
        return result === undefined ? sc : makeScript({ ...sc, status: result.status, exit_code: result.exit_code })
      })
    }
    // The sources the agent declared follow those of its scripts; its apps carry their statuses.
    const declared = (a.log_sources ?? []).filter((s) => !props.log_sources.some((p) => p.id === s.id))
    if (declared.length > 0) {
      props.log_sources = [
        ...props.log_sources,
        ...declared.map((s) => new WorkspaceAgentLogSource(s, true))
      ]
    }
    const appHealth = a.app_health
    if (appHealth !== undefined && props.apps.some((app) => appHealth[app.id] !== undefined)) {
      props.apps = props.apps.map((app) =>
        appHealth[app.id] === undefined ? app : new WorkspaceApp({ ...app, health: appHealth[app.id]! }, true)
      )
    }
    if (names !== undefined && names.owner !== "" && props.apps.some((app) => app.subdomain)) {
      props.apps = props.apps.map((app) =>
        app.subdomain
          ? new WorkspaceApp({
            ...app,
            subdomain_name: appSubdomainName(app.slug, a.name, names.workspace, names.owner)
          }, true)
          : app
      )
    }
    const statuses = a.app_statuses
    if (statuses !== undefined) {
      props.apps = props.apps.map((app) =>
        statuses[app.id] === undefined
          ? app
          : new WorkspaceApp({ ...app, statuses: statuses[app.id]!.map(toAppStatus) }, true)
      )
    }
    return makeAgent(props)
  })
}

/** A workspace's health from its latest build's agents: every agent that is not healthy is failing. */
export const workspaceHealth = (resources: ReadonlyArray<WorkspaceResource>): WorkspaceHealth => {
  const failing = resources.flatMap((r) => (r.agents ?? []).filter((a) => !a.health.healthy).map((a) => a.id))
  return makeWorkspaceHealth({ healthy: failing.length === 0, failing_agents: failing })
}

export { putNonEmpty }
