/** The JSON Schemas of the workspaces, builds, sharing and port sharing response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  nullable,
  object,
  omitted,
  optional,
  ref,
  string,
  uri,
  uuid
} from "../schemas/jsonSchema.js"
import { minimalUserFields } from "../users/responseTypes.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  WorkspaceResource: object({
    id: uuid,
    created_at: dateTime,
    job_id: uuid,
    workspace_transition: { type: "string", enum: ["start", "stop", "delete"] },
    type: string,
    name: string,
    hide: boolean,
    icon: string,
    agents: omitted(arrayOf(ref("WorkspaceAgent"))),
    metadata: omitted(
      arrayOf(object({ key: string, value: string, sensitive: boolean }, ["key", "value", "sensitive"]))
    ),
    daily_cost: integer
  }, ["id", "created_at", "job_id", "workspace_transition", "type", "name", "hide", "icon", "daily_cost"]),
  // Workspaces and builds (codersdk workspaces.go, workspacebuilds.go).
  WorkspaceBuild: object({
    id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    workspace_id: uuid,
    workspace_name: string,
    workspace_owner_id: uuid,
    workspace_owner_name: omitted(string),
    workspace_owner_avatar_url: omitted(uri),
    template_version_id: uuid,
    template_version_name: string,
    build_number: integer,
    transition: { type: "string", enum: ["start", "stop", "delete"] },
    initiator_id: uuid,
    initiator_name: string,
    job: ref("ProvisionerJob"),
    reason: {
      type: "string",
      enum: [
        "initiator",
        "autostart",
        "autostop",
        "dormancy",
        "failedstop",
        "autodelete",
        "task_auto_pause",
        "task_manual_pause",
        "task_resume"
      ]
    },
    resources: arrayOf(ref("WorkspaceResource")),
    deadline: optional(dateTime),
    max_deadline: optional(dateTime),
    status: {
      type: "string",
      enum: [
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
      ]
    },
    daily_cost: integer,
    matched_provisioners: optional(
      object({ count: integer, available: integer, most_recently_seen: optional(dateTime) })
    ),
    template_version_preset_id: nullable(uuid),
    has_ai_task: omitted(boolean),
    has_external_agent: omitted(boolean)
  }, [
    "id",
    "created_at",
    "updated_at",
    "workspace_id",
    "workspace_name",
    "workspace_owner_id",
    "template_version_id",
    "template_version_name",
    "build_number",
    "transition",
    "initiator_id",
    "initiator_name",
    "job",
    "reason",
    "resources",
    "status",
    "daily_cost",
    "template_version_preset_id"
  ]),
  Workspace: object({
    id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    owner_id: uuid,
    owner_name: string,
    owner_avatar_url: string,
    organization_id: uuid,
    organization_name: string,
    template_id: uuid,
    template_name: string,
    template_display_name: string,
    template_icon: string,
    template_allow_user_cancel_workspace_jobs: boolean,
    template_active_version_id: uuid,
    template_require_active_version: boolean,
    template_use_classic_parameter_flow: boolean,
    latest_build: ref("WorkspaceBuild"),
    latest_app_status: nullable(ref("WorkspaceAppStatus")),
    outdated: boolean,
    name: string,
    autostart_schedule: omitted(string),
    ttl_ms: optional(integer),
    last_used_at: dateTime,
    deleting_at: nullable(dateTime),
    dormant_at: nullable(dateTime),
    health: object({ healthy: boolean, failing_agents: arrayOf(uuid) }, ["healthy", "failing_agents"]),
    automatic_updates: { type: "string", enum: ["always", "never"] },
    allow_renames: boolean,
    favorite: boolean,
    next_start_at: nullable(dateTime),
    is_prebuild: boolean,
    task_id: object({ uuid: string, valid: boolean }, ["uuid", "valid"]),
    shared_with: arrayOf(object({
      id: uuid,
      actor_type: { type: "string", enum: ["user", "group"] },
      name: string,
      avatar_url: omitted(uri),
      roles: arrayOf(string)
    }, ["id", "actor_type", "name", "roles"]))
  }, [
    "id",
    "created_at",
    "updated_at",
    "owner_id",
    "owner_name",
    "organization_id",
    "organization_name",
    "template_id",
    "template_name",
    "template_display_name",
    "template_icon",
    "template_allow_user_cancel_workspace_jobs",
    "template_active_version_id",
    "template_require_active_version",
    "template_use_classic_parameter_flow",
    "latest_build",
    "latest_app_status",
    "outdated",
    "name",
    "last_used_at",
    "deleting_at",
    "dormant_at",
    "health",
    "automatic_updates",
    "allow_renames",
    "favorite",
    "next_start_at"
  ]),
  WorkspacesResponse: object({ workspaces: arrayOf(ref("Workspace")), count: integer }, ["workspaces", "count"]),
  WorkspaceBuildParameter: object({ name: string, value: string }, ["name", "value"]),
  // Build timings (typesGenerated: WorkspaceBuildTimings, ProvisionerTiming, AgentScriptTiming, AgentConnectionTiming, TimingStage).
  WorkspaceBuildTimings: object({
    provisioner_timings: arrayOf(object({
      job_id: uuid,
      started_at: dateTime,
      ended_at: dateTime,
      stage: ref("TimingStage"),
      source: string,
      action: string,
      resource: string
    }, ["job_id", "started_at", "ended_at", "stage", "source", "action", "resource"])),
    agent_script_timings: arrayOf(object({
      started_at: dateTime,
      ended_at: dateTime,
      exit_code: integer,
      stage: ref("TimingStage"),
      status: string,
      display_name: string,
      workspace_agent_id: uuid,
      workspace_agent_name: string
    }, [
      "started_at",
      "ended_at",
      "exit_code",
      "stage",
      "status",
      "display_name",
      "workspace_agent_id",
      "workspace_agent_name"
    ])),
    agent_connection_timings: arrayOf(object({
      started_at: dateTime,
      ended_at: dateTime,
      stage: ref("TimingStage"),
      workspace_agent_id: uuid,
      workspace_agent_name: string
    }, ["started_at", "ended_at", "stage", "workspace_agent_id", "workspace_agent_name"]))
  }, ["provisioner_timings", "agent_script_timings", "agent_connection_timings"]),
  TimingStage: { type: "string", enum: ["init", "plan", "graph", "apply", "start", "stop", "cron", "connect"] },
  ResolveAutostartResponse: object({ parameter_mismatch: boolean }, ["parameter_mismatch"]),
  WorkspaceUser: object(
    { ...minimalUserFields, role: { type: "string", enum: ["admin", "use"] } },
    ["id", "username", "role"]
  ),
  WorkspaceGroup: {
    allOf: [ref("Group"), object({ role: { type: "string", enum: ["admin", "use"] } }, ["role"])]
  },
  WorkspaceACL: object({ users: arrayOf(ref("WorkspaceUser")), group: arrayOf(ref("WorkspaceGroup")) }, [
    "users",
    "group"
  ]),
  SharedWorkspaceActor: object(
    {
      actor_type: { type: "string", enum: ["group", "user"] },
      avatar_url: omitted(uri),
      id: uuid,
      name: string,
      roles: arrayOf({ type: "string", enum: ["admin", "use"] })
    },
    ["actor_type", "id", "name", "roles"]
  ),
  // Port sharing (codersdk workspaceagentportshare.go): no field is left out when empty.
  WorkspaceAgentPortShare: object(
    {
      workspace_id: uuid,
      agent_name: string,
      port: integer,
      share_level: { type: "string", enum: ["owner", "authenticated", "organization", "public"] },
      protocol: { type: "string", enum: ["http", "https"] }
    },
    ["workspace_id", "agent_name", "port", "share_level", "protocol"]
  ),
  WorkspaceAgentPortShares: object({ shares: arrayOf(ref("WorkspaceAgentPortShare")) }, ["shares"]),
  // Workbay's: a move of a stopped workspace between provisioner hosts (docs/provisioner-daemons.md).
  WorkspaceMove: object({
    id: uuid,
    organization_id: uuid,
    workspace_id: uuid,
    from_host: string,
    to_host: string,
    initiator_id: uuid,
    created_at: dateTime,
    completed_at: nullable(dateTime),
    status: { type: "string", enum: ["pending", "running", "succeeded", "failed"] },
    error: string,
    volumes: arrayOf(
      object({ name: string, bytes: integer, sha256: string }, ["name", "bytes", "sha256"])
    ),
    export_job_id: uuid,
    import_job_id: uuid,
    cleanup_job_id: nullable(uuid),
    cleanup_status: { type: "string", enum: ["none", "pending", "running", "succeeded", "failed"] }
  }, [
    "id",
    "organization_id",
    "workspace_id",
    "from_host",
    "to_host",
    "initiator_id",
    "created_at",
    "completed_at",
    "status",
    "error",
    "volumes",
    "export_job_id",
    "import_job_id",
    "cleanup_job_id",
    "cleanup_status"
  ])
}
