/**
 * JSON Schemas of the response types, written by hand from the public API reference of
 * the described system (its resource lists, required fields and formats, and which
 * fields its types leave out when empty). They are independent of the service's own
 * Effect schemas, so a response that drifts from the reference fails here even when it
 * matches our declarations.
 *
 * Conventions:
 * - Every declared field is required, as the client's types (`typesGenerated.ts`) declare a
 *   field without `?`: a field we leave out that a client reads as always present fails here.
 *   Only fields wrapped in `omitted(...)` or `optional(...)` may be absent.
 * - A field the reference omits when empty (Go's `omitempty`) is declared with `omitted(...)`:
 *   when present it is never empty (`""`, `false`, `[]`, `{}`), so sending it empty fails.
 * - `optional(...)` marks a field the client type declares optional (`?`) that may be sent empty
 *   (a pointer left out when nil, or a field only some answers carry).
 * - Objects stay open (`additionalProperties` is not set) unless the reference closes them.
 * - Formats `uuid`, `uri`, `email` and `date-time` are enforced by ajv-formats.
 */
import { Ajv, type ValidateFunction } from "ajv"
import addFormats from "ajv-formats"

type JsonSchema = Record<string, unknown>

const ref = (name: string): JsonSchema => ({ $ref: `#/definitions/${name}` })
const string: JsonSchema = { type: "string" }
const boolean: JsonSchema = { type: "boolean" }
const integer: JsonSchema = { type: "integer" }
const number: JsonSchema = { type: "number" }
const uuid: JsonSchema = { type: "string", format: "uuid" }
const uri: JsonSchema = { type: "string", format: "uri" }
const email: JsonSchema = { type: "string", format: "email" }
const dateTime: JsonSchema = { type: "string", format: "date-time" }
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: "array", items })
const mapOf = (values: JsonSchema): JsonSchema => ({ type: "object", additionalProperties: values })
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: "null" }] })
/** Schemas of fields that may be absent (`omitted`, `optional`); every other declared field is required. */
const mayBeAbsent = new WeakSet<JsonSchema>()

/** A field the client type declares optional (`?`), which may be sent empty when present. */
const optional = (schema: JsonSchema): JsonSchema => {
  const copy = { ...schema }
  mayBeAbsent.add(copy)
  return copy
}

/**
 * An object whose declared fields are all required but those marked `omitted` or `optional`.
 * `required` names fields beyond those (a field declared elsewhere, as in `allOf`).
 */
const object = (properties: Record<string, JsonSchema>, required: ReadonlyArray<string> = []): JsonSchema => {
  const all = [
    ...new Set([...required, ...Object.keys(properties).filter((key) => !mayBeAbsent.has(properties[key]!))])
  ]
  return { type: "object", properties, ...(all.length > 0 ? { required: all } : {}) }
}

/** A health report section: its own fields (all required) and the base report's. */
/** How the agent chat shows a kind of block (codersdk's display modes). */
const displayModes = ["auto", "always_expanded", "always_collapsed"]

const healthSection = (fields: Record<string, JsonSchema>): JsonSchema =>
  object({
    ...fields,
    severity: { type: "string", enum: ["ok", "warning", "error"] },
    warnings: arrayOf({ $ref: "#/definitions/HealthMessage" }),
    dismissed: boolean,
    error: omitted(string)
  })

/** A field left out when empty: present means non-empty. */
const omitted = (schema: JsonSchema): JsonSchema => {
  switch (schema.type) {
    case "string":
      return optional({ ...schema, minLength: 1 })
    case "boolean":
      return optional({ ...schema, const: true })
    case "array":
      return optional({ ...schema, minItems: 1 })
    case "object":
      return optional({ ...schema, minProperties: 1 })
    default:
      return optional(schema)
  }
}

const jobStatuses = ["pending", "running", "succeeded", "canceling", "canceled", "failed", "unknown"]
const loginTypes = ["", "github", "none", "oidc", "password", "token"]
const auditActions = [
  "create",
  "write",
  "delete",
  "start",
  "stop",
  "login",
  "logout",
  "register",
  "request_password_reset",
  "connect",
  "disconnect",
  "open",
  "close"
]
const connectionTypes = ["ssh", "vscode", "jetbrains", "reconnecting_pty", "workspace_app", "port_forwarding"]
const terminalFonts = ["", "ibm-plex-mono", "fira-code", "source-code-pro", "jetbrains-mono"]

const minimalUserFields = {
  id: uuid,
  username: string,
  name: omitted(string),
  avatar_url: omitted(uri)
}

const reducedUserFields = {
  ...minimalUserFields,
  email,
  created_at: dateTime,
  updated_at: dateTime,
  last_seen_at: dateTime,
  status: { type: "string", enum: ["active", "suspended"] },
  login_type: { type: "string", enum: loginTypes },
  theme_preference: omitted(string),
  is_service_account: omitted(boolean)
}

const userRequired = ["created_at", "email", "id", "username"]

const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

/** A template's fields are all sent: each is required here. */
const templateRequired = [
  "id",
  "created_at",
  "updated_at",
  "organization_id",
  "organization_name",
  "organization_display_name",
  "organization_icon",
  "name",
  "display_name",
  "provisioner",
  "active_version_id",
  "active_user_count",
  "build_time_stats",
  "description",
  "deprecated",
  "deprecation_message",
  "icon",
  "default_ttl_ms",
  "activity_bump_ms",
  "autostop_requirement",
  "autostart_requirement",
  "created_by_id",
  "created_by_name",
  "allow_user_autostart",
  "allow_user_autostop",
  "allow_user_cancel_workspace_jobs",
  "failure_ttl_ms",
  "time_til_dormant_ms",
  "time_til_dormant_autodelete_ms",
  "require_active_version",
  "max_port_share_level",
  "cors_behavior",
  "use_classic_parameter_flow"
]

const permission = object({ negate: boolean, resource_type: string, action: string })

/** Top-level values of the deployment configuration that are structs there, hence sent even when empty. */
const deploymentStructs = {
  access_url: string,
  docs_url: string,
  agent_fallback_troubleshooting_url: string,
  address: {},
  external_auth: {}
}

/** Every response type an endpoint answers, by the reference's name. */
export const definitions: Record<string, JsonSchema> = {
  Response: object({
    message: string,
    detail: omitted(string),
    validations: omitted(arrayOf(ref("ValidationError")))
  }),
  ValidationError: object({ field: string, detail: string }, ["detail", "field"]),

  MinimalUser: object(minimalUserFields, ["id", "username"]),
  ReducedUser: object(reducedUserFields, userRequired),
  User: object(
    {
      ...reducedUserFields,
      organization_ids: arrayOf(uuid),
      roles: arrayOf(ref("SlimRole")),
      has_ai_seat: boolean
    },
    userRequired
  ),
  SlimRole: object({ name: string, display_name: string, organization_id: omitted(string) }),
  GetUsersResponse: object({ users: arrayOf(ref("User")), count: integer }),
  AssignableRoles: object({
    name: string,
    display_name: string,
    organization_id: omitted(uuid),
    site_permissions: arrayOf(permission),
    organization_permissions: arrayOf(permission),
    user_permissions: arrayOf(permission),
    assignable: boolean,
    built_in: boolean
  }),
  Role: object({
    name: string,
    organization_id: omitted(uuid),
    display_name: string,
    site_permissions: arrayOf(permission),
    organization_permissions: arrayOf(permission),
    user_permissions: arrayOf(permission)
  }),
  UserLoginType: object({ login_type: { type: "string", enum: loginTypes } }),
  UserRoles: object({ roles: arrayOf(string), organization_roles: mapOf(arrayOf(string)) }),
  UserAppearanceSettings: object({
    terminal_font: { type: "string", enum: terminalFonts },
    theme_preference: string,
    theme_mode: string,
    theme_light: string,
    theme_dark: string
  }),
  UserPreferenceSettings: object({
    agent_chat_send_shortcut: { type: "string", enum: ["enter", "modifier_enter"] },
    code_diff_display_mode: { type: "string", enum: displayModes },
    collapse_assistant_steps: boolean,
    shell_tool_display_mode: { type: "string", enum: displayModes },
    thinking_display_mode: { type: "string", enum: displayModes }
  }, [
    "agent_chat_send_shortcut",
    "code_diff_display_mode",
    "collapse_assistant_steps",
    "shell_tool_display_mode",
    "thinking_display_mode"
  ]),
  UserParameter: object({ name: string, value: string }),
  GitSSHKey: object({ user_id: uuid, created_at: dateTime, updated_at: dateTime, public_key: string }),
  UserQuietHoursScheduleResponse: object({
    raw_schedule: string,
    user_set: boolean,
    user_can_set: boolean,
    time: string,
    timezone: string,
    next: dateTime
  }),
  APIKey: object(
    {
      id: string,
      user_id: uuid,
      last_used: dateTime,
      expires_at: dateTime,
      created_at: dateTime,
      updated_at: dateTime,
      login_type: { type: "string", enum: ["github", "oidc", "password", "token"] },
      scope: { type: "string", enum: ["all", "application_connect"] },
      scopes: arrayOf(string),
      token_name: string,
      lifetime_seconds: integer,
      allow_list: arrayOf(object({ id: string, type: string }))
    },
    [
      "created_at",
      "expires_at",
      "id",
      "last_used",
      "lifetime_seconds",
      "login_type",
      "token_name",
      "updated_at",
      "user_id"
    ]
  ),
  // An APIKey plus its owner's username (always sent; "" when the owner is unknown).
  APIKeyWithOwner: { allOf: [ref("APIKey"), object({ username: string }, ["username"])] },
  GenerateAPIKeyResponse: object({ key: string }),
  TokenConfig: object({ max_token_lifetime: integer }),

  LoginWithPasswordResponse: object({ session_token: string }, ["session_token"]),
  CreateFirstUserResponse: object({ user_id: uuid, organization_id: uuid }),
  AuthMethods: object({
    terms_of_service_url: omitted(string),
    password: object({ enabled: boolean }),
    github: object({ enabled: boolean, default_provider_configured: boolean }),
    oidc: object({ enabled: boolean, signInText: string, iconUrl: string })
  }),
  OAuthConversionResponse: object({
    state_string: string,
    expires_at: dateTime,
    to_type: { type: "string", enum: loginTypes },
    user_id: uuid
  }),
  ValidateUserPasswordResponse: object({ valid: boolean, details: string }),
  AuthorizationResponse: mapOf(boolean),
  ExternalAPIKeyScopes: object({ external: arrayOf(string) }),

  Organization: object(
    {
      id: uuid,
      name: string,
      display_name: string,
      description: string,
      icon: string,
      created_at: dateTime,
      updated_at: dateTime,
      is_default: boolean
    },
    ["created_at", "id", "is_default", "updated_at"]
  ),
  MinimalOrganization: object({ id: uuid, name: string, display_name: string, icon: string }, ["id"]),
  OrganizationMemberWithUserData: object({
    user_id: uuid,
    organization_id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    roles: arrayOf(ref("SlimRole")),
    username: string,
    name: omitted(string),
    avatar_url: omitted(string),
    email: string,
    global_roles: arrayOf(ref("SlimRole"))
  }),
  WorkspaceSharingSettings: object({
    sharing_globally_disabled: boolean,
    sharing_disabled: boolean,
    shareable_workspace_owners: { type: "string", enum: ["none", "everyone", "service_accounts"] }
  }, ["sharing_globally_disabled", "sharing_disabled", "shareable_workspace_owners"]),
  OrganizationSyncSettings: object({
    field: string,
    mapping: mapOf(arrayOf(uuid)),
    organization_assign_default: boolean
  }),
  GroupSyncSettings: object({
    field: string,
    mapping: mapOf(arrayOf(uuid)),
    regex_filter: nullable(string),
    auto_create_missing_groups: boolean,
    legacy_group_name_mapping: optional(mapOf(string))
  }),
  RoleSyncSettings: object({ field: string, mapping: mapOf(arrayOf(string)) }),
  /** An IdP claim's name or value (the claim listings answer `[ClaimString]`). */
  ClaimString: string,
  PaginatedMembersResponse: object({ members: arrayOf(ref("OrganizationMemberWithUserData")), count: integer }, [
    "members",
    "count"
  ]),

  Group: object({
    id: uuid,
    name: string,
    display_name: string,
    organization_id: uuid,
    organization_name: string,
    organization_display_name: string,
    members: arrayOf(ref("ReducedUser")),
    total_member_count: integer,
    avatar_url: omitted(uri),
    quota_allowance: integer,
    source: { type: "string", enum: ["user", "oidc"] }
  }),
  GroupMembersResponse: object({ users: arrayOf(ref("ReducedUser")), count: integer }),
  PaginatedGroup: object({
    id: uuid,
    name: string,
    display_name: string,
    organization_id: uuid,
    organization_name: string,
    organization_display_name: string,
    total_member_count: integer,
    avatar_url: omitted(uri),
    quota_allowance: integer,
    source: { type: "string", enum: ["user", "oidc"] }
  }, [
    "id",
    "name",
    "display_name",
    "organization_id",
    "organization_name",
    "organization_display_name",
    "total_member_count",
    "quota_allowance",
    "source"
  ]),
  PaginatedGroupsResponse: object({ groups: arrayOf(ref("PaginatedGroup")), count: integer }, ["groups", "count"]),
  GroupAIBudget: object({ group_id: uuid, spend_limit_micros: integer, created_at: dateTime, updated_at: dateTime }),
  WorkspaceQuota: object({ credits_consumed: integer, budget: integer }),

  // The id of the uploaded file, named `hash` in the reference.
  UploadResponse: object({ hash: uuid }, ["hash"]),
  // Template versions and their jobs (codersdk templateversions.go, provisionerdaemons.go, workspaceagents.go).
  ProvisionerJob: object({
    id: uuid,
    created_at: dateTime,
    started_at: omitted(dateTime),
    completed_at: omitted(dateTime),
    canceled_at: omitted(dateTime),
    error: omitted(string),
    error_code: omitted({ type: "string", enum: ["REQUIRED_TEMPLATE_VARIABLES"] }),
    status: { type: "string", enum: jobStatuses },
    worker_id: omitted(uuid),
    worker_name: omitted(string),
    file_id: uuid,
    tags: mapOf(string),
    queue_position: integer,
    queue_size: integer,
    organization_id: uuid,
    initiator_id: uuid,
    input: object({ template_version_id: omitted(uuid), workspace_build_id: omitted(uuid), error: omitted(string) }),
    type: { type: "string", enum: ["template_version_import", "workspace_build", "template_version_dry_run"] },
    available_workers: omitted(arrayOf(uuid)),
    metadata: object({
      template_version_name: string,
      template_id: uuid,
      template_name: string,
      template_display_name: string,
      template_icon: string,
      workspace_id: omitted(uuid),
      workspace_name: omitted(string),
      workspace_build_transition: omitted({ type: "string", enum: ["start", "stop", "delete"] })
    }, ["template_version_name", "template_id", "template_name", "template_display_name", "template_icon"]),
    logs_overflowed: boolean
  }, [
    "id",
    "created_at",
    "status",
    "file_id",
    "tags",
    "queue_position",
    "queue_size",
    "organization_id",
    "initiator_id",
    "input",
    "type",
    "metadata",
    "logs_overflowed"
  ]),
  ProvisionerJobLog: object({
    id: integer,
    created_at: dateTime,
    log_source: { type: "string", enum: ["provisioner_daemon", "provisioner"] },
    log_level: { type: "string", enum: ["trace", "debug", "info", "warn", "error"] },
    stage: string,
    output: string
  }, ["id", "created_at", "log_source", "log_level", "stage", "output"]),
  MatchedProvisioners: object({ count: integer, available: integer, most_recently_seen: omitted(dateTime) }, [
    "count",
    "available"
  ]),
  TemplateVersion: object({
    id: uuid,
    template_id: uuid,
    organization_id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    name: string,
    message: string,
    job: ref("ProvisionerJob"),
    readme: string,
    created_by: ref("MinimalUser"),
    archived: boolean,
    warnings: omitted(arrayOf({ type: "string", enum: ["UNSUPPORTED_WORKSPACES"] })),
    matched_provisioners: ref("MatchedProvisioners"),
    has_external_agent: boolean,
    has_ai_task: boolean
  }, [
    "id",
    "created_at",
    "updated_at",
    "name",
    "message",
    "job",
    "readme",
    "created_by",
    "archived",
    "has_external_agent",
    "has_ai_task"
  ]),
  WorkspaceApp: object({
    id: uuid,
    url: omitted(string),
    external: boolean,
    slug: string,
    display_name: omitted(string),
    command: omitted(string),
    icon: omitted(string),
    subdomain: boolean,
    subdomain_name: omitted(string),
    sharing_level: { type: "string", enum: ["owner", "authenticated", "organization", "public"] },
    healthcheck: object({ url: string, interval: integer, threshold: integer }),
    health: { type: "string", enum: ["disabled", "initializing", "healthy", "unhealthy"] },
    group: omitted(string),
    hidden: boolean,
    open_in: { type: "string", enum: ["slim-window", "tab"] },
    tooltip: omitted(string),
    statuses: arrayOf(ref("WorkspaceAppStatus"))
  }, ["id", "external", "slug", "subdomain", "sharing_level", "health", "hidden", "open_in", "statuses"]),
  WorkspaceAgent: object({
    id: uuid,
    parent_id: nullable(uuid),
    created_at: dateTime,
    updated_at: dateTime,
    status: { type: "string", enum: ["connecting", "connected", "disconnected", "timeout"] },
    lifecycle_state: {
      type: "string",
      enum: [
        "created",
        "starting",
        "start_timeout",
        "start_error",
        "ready",
        "shutting_down",
        "shutdown_timeout",
        "shutdown_error",
        "off"
      ]
    },
    name: string,
    resource_id: uuid,
    instance_id: omitted(string),
    architecture: string,
    environment_variables: mapOf(string),
    operating_system: string,
    logs_length: integer,
    logs_overflowed: boolean,
    directory: omitted(string),
    expanded_directory: omitted(string),
    version: string,
    api_version: string,
    apps: arrayOf(ref("WorkspaceApp")),
    first_connected_at: omitted(dateTime),
    last_connected_at: omitted(dateTime),
    disconnected_at: omitted(dateTime),
    started_at: omitted(dateTime),
    ready_at: omitted(dateTime),
    connection_timeout_seconds: integer,
    troubleshooting_url: string,
    subsystems: arrayOf(string),
    health: object({ healthy: boolean, reason: omitted(string) }, ["healthy"]),
    display_apps: arrayOf({
      type: "string",
      enum: ["vscode", "vscode_insiders", "web_terminal", "port_forwarding_helper", "ssh_helper"]
    }),
    log_sources: arrayOf(ref("WorkspaceAgentLogSource")),
    scripts: arrayOf(object({
      id: uuid,
      log_source_id: uuid,
      log_path: string,
      script: string,
      cron: string,
      run_on_start: boolean,
      run_on_stop: boolean,
      start_blocks_login: boolean,
      timeout: integer,
      display_name: string,
      status: omitted({ type: "string", enum: ["ok", "exit_failure", "timed_out", "pipes_left_open"] }),
      exit_code: omitted(integer)
    })),
    startup_script_behavior: { type: "string", enum: ["blocking", "non-blocking"] }
  }, [
    "id",
    "created_at",
    "updated_at",
    "status",
    "lifecycle_state",
    "name",
    "resource_id",
    "architecture",
    "environment_variables",
    "operating_system",
    "logs_length",
    "logs_overflowed",
    "version",
    "api_version",
    "apps",
    "connection_timeout_seconds",
    "troubleshooting_url",
    "subsystems",
    "health",
    "display_apps",
    "log_sources",
    "scripts",
    "startup_script_behavior"
  ]),
  // workspacesdk.ConnectionWatchEvent: `error` is not omitempty (null but in an error frame).
  ConnectionWatchEvent: object({
    error: nullable(object({ code: integer, retryable: boolean, message: string, details: omitted(string) })),
    build_update: optional(object({
      transition: { type: "string", enum: ["start", "stop", "delete"] },
      job_status: { type: "string", enum: jobStatuses }
    })),
    agent_update: optional(object({
      lifecycle: {
        type: "string",
        enum: [
          "created",
          "starting",
          "start_timeout",
          "start_error",
          "ready",
          "shutting_down",
          "shutdown_timeout",
          "shutdown_error",
          "off"
        ]
      },
      id: uuid
    })),
    job_log: optional(ref("ProvisionerJobLog"))
  }),
  AgentGitSSHKey: object({ private_key: string, public_key: string }, ["private_key", "public_key"]),
  WorkspaceAgentLogSource: object(
    { workspace_agent_id: uuid, id: uuid, created_at: dateTime, display_name: string, icon: string },
    ["workspace_agent_id", "id", "created_at", "display_name", "icon"]
  ),
  WorkspaceAgentLog: object({
    id: integer,
    created_at: dateTime,
    output: string,
    level: { type: "string", enum: ["trace", "debug", "info", "warn", "error"] },
    source_id: uuid
  }, ["id", "created_at", "output", "level", "source_id"]),
  WorkspaceAppStatus: object({
    id: uuid,
    created_at: dateTime,
    workspace_id: uuid,
    agent_id: uuid,
    app_id: uuid,
    state: { type: "string", enum: ["working", "idle", "complete", "failure"] },
    message: string,
    uri: string,
    icon: string,
    needs_user_attention: boolean
  }, [
    "id",
    "created_at",
    "workspace_id",
    "agent_id",
    "app_id",
    "state",
    "message",
    "uri",
    "icon",
    "needs_user_attention"
  ]),
  WorkspaceAgentMetadata: object({
    result: object({ collected_at: dateTime, age: integer, value: string, error: string }, [
      "collected_at",
      "age",
      "value",
      "error"
    ]),
    description: object({ display_name: string, key: string, script: string, interval: integer, timeout: integer }, [
      "display_name",
      "key",
      "script",
      "interval",
      "timeout"
    ])
  }, ["result", "description"]),
  // agentsdk.ReinitializationEvent (its workspace field has no JSON tag).
  ReinitializationEvent: object({ WorkspaceID: uuid, reason: { type: "string", enum: ["prebuild_claimed"] } }),
  // agentsdk.Manifest.
  AgentManifest: object({
    agent_id: uuid,
    agent_name: string,
    owner_name: string,
    workspace_id: uuid,
    workspace_name: string,
    git_auth_configs: integer,
    vscode_port_proxy_uri: string,
    apps: arrayOf(ref("WorkspaceApp")),
    derp_map: object({ Regions: { type: "object" } }, ["Regions"]),
    derp_force_websockets: boolean,
    environment_variables: mapOf(string),
    directory: string,
    motd_file: string,
    disable_direct_connections: boolean,
    metadata: arrayOf(
      object({ key: string, display_name: string, script: string, interval: integer, timeout: integer }, [
        "key",
        "display_name",
        "script",
        "interval",
        "timeout"
      ])
    ),
    scripts: arrayOf({ type: "object" })
  }, [
    "agent_id",
    "agent_name",
    "owner_name",
    "workspace_id",
    "workspace_name",
    "git_auth_configs",
    "vscode_port_proxy_uri",
    "apps",
    "derp_map",
    "derp_force_websockets",
    "environment_variables",
    "directory",
    "motd_file",
    "disable_direct_connections",
    "metadata",
    "scripts"
  ]),
  ExternalAgentCredentials: object({ agent_token: string, command: string }, ["agent_token", "command"]),
  AuthenticateResponse: object({ session_token: string }, ["session_token"]),
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
  // The described system's codersdk.Task (docs/reference/api/schemas.md), NullUUIDs as {uuid, valid}.
  Task: object({
    id: uuid,
    organization_id: uuid,
    owner_id: uuid,
    owner_name: string,
    owner_avatar_url: omitted(uri),
    name: string,
    display_name: string,
    template_id: uuid,
    template_version_id: uuid,
    template_name: string,
    template_display_name: string,
    template_icon: string,
    workspace_id: object({ uuid: string, valid: boolean }, ["uuid", "valid"]),
    workspace_name: string,
    workspace_status: omitted({
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
    }),
    workspace_build_number: omitted(integer),
    workspace_agent_id: object({ uuid: string, valid: boolean }, ["uuid", "valid"]),
    workspace_agent_lifecycle: nullable({
      type: "string",
      enum: [
        "created",
        "starting",
        "start_timeout",
        "start_error",
        "ready",
        "shutting_down",
        "shutdown_timeout",
        "shutdown_error",
        "off"
      ]
    }),
    workspace_agent_health: nullable(object({ healthy: boolean, reason: omitted(string) }, ["healthy"])),
    workspace_app_id: object({ uuid: string, valid: boolean }, ["uuid", "valid"]),
    initial_prompt: string,
    status: { type: "string", enum: ["pending", "initializing", "active", "paused", "unknown", "error"] },
    current_state: nullable(object({
      timestamp: dateTime,
      state: { type: "string", enum: ["working", "idle", "complete", "failed"] },
      message: string,
      uri: string
    }, ["timestamp", "state", "message", "uri"])),
    created_at: dateTime,
    updated_at: dateTime
  }, [
    "id",
    "organization_id",
    "owner_id",
    "owner_name",
    "name",
    "display_name",
    "template_id",
    "template_version_id",
    "template_name",
    "template_display_name",
    "template_icon",
    "workspace_id",
    "workspace_name",
    "workspace_agent_id",
    "workspace_agent_lifecycle",
    "workspace_agent_health",
    "workspace_app_id",
    "initial_prompt",
    "status",
    "current_state",
    "created_at",
    "updated_at"
  ]),
  TasksListResponse: object({ tasks: arrayOf(ref("Task")), count: integer }, ["tasks", "count"]),
  TaskLogsResponse: object({
    logs: arrayOf(
      object({ id: integer, content: string, type: { type: "string", enum: ["input", "output"] }, time: dateTime }, [
        "id",
        "content",
        "type",
        "time"
      ])
    ),
    snapshot: omitted(boolean),
    snapshot_at: omitted(dateTime)
  }, ["logs"]),
  PauseTaskResponse: object({ workspace_build: ref("WorkspaceBuild") }, ["workspace_build"]),
  // The described system's codersdk.InboxNotification and the inbox answers (docs/reference/api/notifications.md).
  InboxNotification: object({
    id: uuid,
    user_id: uuid,
    template_id: uuid,
    targets: arrayOf(uuid),
    title: string,
    content: string,
    icon: string,
    actions: arrayOf(object({ label: string, url: string }, ["label", "url"])),
    read_at: nullable(dateTime),
    created_at: dateTime
  }, ["id", "user_id", "template_id", "targets", "title", "content", "icon", "actions", "read_at", "created_at"]),
  ListInboxNotificationsResponse: object({ notifications: arrayOf(ref("InboxNotification")), unread_count: integer }, [
    "notifications",
    "unread_count"
  ]),
  GetInboxNotificationResponse: object({ notification: ref("InboxNotification"), unread_count: integer }, [
    "notification",
    "unread_count"
  ]),
  UpdateInboxNotificationReadStatusResponse: object({ notification: ref("InboxNotification"), unread_count: integer }, [
    "notification",
    "unread_count"
  ]),
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
  AgentConnectionInfo: object({
    derp_map: nullable(ref("DERPMap")),
    derp_force_websockets: boolean,
    disable_direct_connections: boolean,
    hostname_suffix: omitted(string)
  }, ["derp_map", "derp_force_websockets", "disable_direct_connections"]),
  WorkspaceAgentListeningPortsResponse: object({
    ports: arrayOf(
      object({ process_name: string, network: string, port: integer }, ["process_name", "network", "port"])
    )
  }, ["ports"]),
  NullHCLString: object({ value: string, valid: boolean }, ["value", "valid"]),
  FriendlyDiagnostic: object({
    severity: { type: "string", enum: ["error", "warning"] },
    summary: string,
    detail: string,
    extra: object({ code: string }, ["code"])
  }, ["severity", "summary", "detail", "extra"]),
  PreviewParameter: object({
    name: string,
    display_name: string,
    description: string,
    type: { type: "string", enum: ["string", "number", "bool", "list(string)"] },
    form_type: {
      type: "string",
      enum: [
        "",
        "radio",
        "slider",
        "input",
        "dropdown",
        "checkbox",
        "switch",
        "multi-select",
        "tag-select",
        "textarea",
        "error"
      ]
    },
    styling: object({
      placeholder: omitted(string),
      disabled: omitted(boolean),
      label: omitted(string),
      mask_input: omitted(boolean)
    }),
    mutable: boolean,
    default_value: ref("NullHCLString"),
    icon: string,
    options: arrayOf(
      object({ name: string, description: string, value: ref("NullHCLString"), icon: string }, [
        "name",
        "description",
        "value",
        "icon"
      ])
    ),
    validations: arrayOf(
      object({
        validation_error: string,
        validation_regex: nullable(string),
        validation_min: nullable(number),
        validation_max: nullable(number),
        validation_monotonic: nullable(string)
      }, ["validation_error", "validation_regex", "validation_min", "validation_max", "validation_monotonic"])
    ),
    required: boolean,
    order: number,
    ephemeral: boolean,
    value: ref("NullHCLString"),
    diagnostics: arrayOf(ref("FriendlyDiagnostic"))
  }, [
    "name",
    "display_name",
    "description",
    "type",
    "form_type",
    "styling",
    "mutable",
    "default_value",
    "icon",
    "options",
    "validations",
    "required",
    "order",
    "ephemeral",
    "value",
    "diagnostics"
  ]),
  DynamicParametersResponse: object({
    id: integer,
    diagnostics: arrayOf(ref("FriendlyDiagnostic")),
    parameters: arrayOf(ref("PreviewParameter"))
  }, ["id", "diagnostics", "parameters"]),
  WorkspaceAgentContainer: object({
    created_at: dateTime,
    id: string,
    name: string,
    image: string,
    labels: mapOf(string),
    running: boolean,
    ports: arrayOf(object({ port: integer, network: string, host_ip: omitted(string), host_port: omitted(integer) })),
    status: string,
    volumes: mapOf(string)
  }),
  WorkspaceAgentListContainersResponse: object({
    devcontainers: arrayOf(object({
      id: uuid,
      name: string,
      workspace_folder: string,
      config_path: omitted(string),
      status: { type: "string", enum: ["running", "stopped", "starting", "error"] },
      dirty: boolean,
      container: omitted(ref("WorkspaceAgentContainer")),
      agent: omitted(object({ id: uuid, name: string, directory: string })),
      error: omitted(string)
    })),
    containers: arrayOf(ref("WorkspaceAgentContainer")),
    warnings: omitted(arrayOf(string))
  }),
  TemplateVersionParameter: object({
    name: string,
    display_name: omitted(string),
    description: string,
    description_plaintext: string,
    type: { type: "string", enum: ["string", "number", "bool", "list(string)"] },
    form_type: {
      type: "string",
      enum: [
        "",
        "radio",
        "slider",
        "input",
        "dropdown",
        "checkbox",
        "switch",
        "multi-select",
        "tag-select",
        "textarea",
        "error"
      ]
    },
    mutable: boolean,
    default_value: string,
    icon: string,
    options: arrayOf(
      object({ name: string, description: string, value: string, icon: string }, [
        "name",
        "description",
        "value",
        "icon"
      ])
    ),
    validation_error: omitted(string),
    validation_regex: omitted(string),
    validation_min: optional(integer),
    validation_max: optional(integer),
    validation_monotonic: optional({ type: "string", enum: ["increasing", "decreasing"] }),
    required: boolean,
    ephemeral: boolean
  }, [
    "name",
    "description",
    "description_plaintext",
    "type",
    "form_type",
    "mutable",
    "default_value",
    "icon",
    "options",
    "required",
    "ephemeral"
  ]),
  TemplateVersionVariable: object({
    name: string,
    description: string,
    type: { type: "string", enum: ["string", "number", "bool"] },
    value: string,
    default_value: string,
    required: boolean,
    sensitive: boolean
  }, ["name", "description", "type", "value", "default_value", "required", "sensitive"]),
  TemplateVersionExternalAuth: object({
    id: string,
    type: string,
    display_name: string,
    display_icon: string,
    authenticate_url: uri,
    authenticated: boolean,
    optional: omitted(boolean)
  }, ["id", "type", "display_name", "display_icon", "authenticate_url", "authenticated"]),
  Preset: object({
    ID: uuid,
    Name: string,
    Parameters: arrayOf(object({ Name: string, Value: string }, ["Name", "Value"])),
    Default: boolean,
    DesiredPrebuildInstances: nullable(integer),
    Description: string,
    Icon: string
  }, ["ID", "Name", "Parameters", "Default", "DesiredPrebuildInstances", "Description", "Icon"]),
  ArchiveTemplateVersionsResponse: object({ template_id: uuid, archived_ids: arrayOf(uuid) }, [
    "template_id",
    "archived_ids"
  ]),

  ProvisionerDaemon: object({
    id: uuid,
    organization_id: uuid,
    key_id: uuid,
    created_at: dateTime,
    last_seen_at: omitted(dateTime),
    name: string,
    version: string,
    api_version: string,
    provisioners: arrayOf(string),
    tags: mapOf(string),
    key_name: nullable(string),
    status: nullable({ type: "string", enum: ["offline", "idle", "busy"] }),
    current_job: nullable(ref("ProvisionerDaemonJob")),
    previous_job: nullable(ref("ProvisionerDaemonJob"))
  }, [
    "id",
    "organization_id",
    "key_id",
    "created_at",
    "name",
    "version",
    "api_version",
    "provisioners",
    "tags",
    "key_name",
    "status",
    "current_job",
    "previous_job"
  ]),
  ProvisionerKey: object({ id: uuid, created_at: dateTime, organization: uuid, name: string, tags: mapOf(string) }, [
    "id",
    "created_at",
    "organization",
    "name",
    "tags"
  ]),
  CreateProvisionerKeyResponse: object({ key: string }, ["key"]),
  ProvisionerKeyDaemons: object({ key: ref("ProvisionerKey"), daemons: arrayOf(ref("ProvisionerDaemon")) }, [
    "key",
    "daemons"
  ]),
  ProvisionerDaemonJob: object({
    id: uuid,
    status: { type: "string", enum: jobStatuses },
    template_name: string,
    template_icon: string,
    template_display_name: string
  }, ["id", "status", "template_name", "template_icon", "template_display_name"]),
  // Templates: every field is sent (no omitempty in the reference).
  TemplateExample: object({
    id: string,
    url: string,
    name: string,
    description: string,
    icon: string,
    tags: arrayOf(string),
    markdown: string
  }, ["id", "url", "name", "description", "icon", "tags", "markdown"]),
  Template: object({
    id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    organization_id: uuid,
    organization_name: string,
    organization_display_name: string,
    organization_icon: string,
    name: string,
    display_name: string,
    provisioner: string,
    active_version_id: uuid,
    active_user_count: integer,
    build_time_stats: mapOf(ref("TransitionStats")),
    description: string,
    deprecated: boolean,
    deprecation_message: string,
    deleted: boolean,
    icon: string,
    default_ttl_ms: integer,
    activity_bump_ms: integer,
    autostop_requirement: object({ days_of_week: arrayOf({ type: "string", enum: weekdays }), weeks: integer }, [
      "days_of_week",
      "weeks"
    ]),
    autostart_requirement: object({ days_of_week: arrayOf({ type: "string", enum: weekdays }) }, ["days_of_week"]),
    created_by_id: uuid,
    created_by_name: string,
    allow_user_autostart: boolean,
    allow_user_autostop: boolean,
    allow_user_cancel_workspace_jobs: boolean,
    failure_ttl_ms: integer,
    time_til_dormant_ms: integer,
    time_til_dormant_autodelete_ms: integer,
    require_active_version: boolean,
    max_port_share_level: { type: "string", enum: ["owner", "authenticated", "organization", "public"] },
    cors_behavior: { type: "string", enum: ["simple", "passthru"] },
    use_classic_parameter_flow: boolean
  }, templateRequired),
  // Go's TransitionStats has no json tags: its keys are the field names, null until measured.
  TransitionStats: { ...object({ P50: nullable(integer), P95: nullable(integer) }), additionalProperties: false },
  TemplateUser: object(
    {
      ...reducedUserFields,
      organization_ids: arrayOf(uuid),
      roles: arrayOf(ref("SlimRole")),
      has_ai_seat: boolean,
      role: { type: "string", enum: ["admin", "use"] }
    },
    [...userRequired, "role"]
  ),
  TemplateGroup: {
    allOf: [ref("Group"), object({ role: { type: "string", enum: ["admin", "use"] } }, ["role"])]
  },
  TemplateACL: object({ users: arrayOf(ref("TemplateUser")), group: arrayOf(ref("TemplateGroup")) }, [
    "users",
    "group"
  ]),
  ACLAvailable: object({ users: arrayOf(ref("ReducedUser")), groups: arrayOf(ref("Group")) }, ["users", "groups"]),
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
  InvalidatePresetsResponse: object(
    {
      invalidated: arrayOf(object(
        { preset_name: string, template_name: string, template_version_name: string },
        ["preset_name", "template_name", "template_version_name"]
      ))
    },
    ["invalidated"]
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

  AuditLog: object({
    id: uuid,
    request_id: uuid,
    time: dateTime,
    ip: string,
    user_agent: string,
    resource_type: string,
    resource_id: uuid,
    resource_target: string,
    resource_icon: string,
    action: { type: "string", enum: auditActions },
    diff: mapOf(object({ old: {}, new: {}, secret: boolean })),
    status_code: integer,
    additional_fields: { type: "object" },
    description: string,
    resource_link: string,
    is_deleted: boolean,
    organization_id: uuid,
    organization: optional(ref("MinimalOrganization")),
    // null when no user is known (an anonymous request that named none).
    user: nullable(ref("User"))
  }),
  AuditLogResponse: object({ audit_logs: arrayOf(ref("AuditLog")), count: integer, count_cap: integer }),
  ConnectionLog: object({
    id: uuid,
    connect_time: dateTime,
    organization: ref("MinimalOrganization"),
    workspace_owner_id: uuid,
    workspace_owner_username: string,
    workspace_id: uuid,
    workspace_name: string,
    agent_name: string,
    ip: string,
    type: { type: "string", enum: connectionTypes },
    web_info: optional(object({
      user_agent: string,
      // null when the request was anonymous.
      user: nullable(ref("User")),
      slug_or_port: string,
      status_code: integer
    })),
    ssh_info: optional(object({
      connection_id: uuid,
      disconnect_time: optional(dateTime),
      disconnect_reason: optional(string),
      exit_code: optional(integer)
    }))
  }),
  ConnectionLogResponse: object({ connection_logs: arrayOf(ref("ConnectionLog")), count: integer, count_cap: integer }),

  BuildInfoResponse: object({
    external_url: string,
    version: string,
    dashboard_url: string,
    telemetry: boolean,
    workspace_proxy: boolean,
    agent_api_version: string,
    provisioner_api_version: string,
    upgrade_message: string,
    deployment_id: string,
    webpush_public_key: omitted(string)
  }),
  UpdateCheckResponse: object({ current: boolean, version: string, url: string }),
  SSHConfigResponse: object({ hostname_prefix: string, hostname_suffix: string, ssh_config_options: mapOf(string) }),
  DeploymentStats: object({
    aggregated_from: dateTime,
    collected_at: dateTime,
    next_update_at: dateTime,
    workspaces: object({
      pending: integer,
      building: integer,
      running: integer,
      failed: integer,
      stopped: integer,
      connection_latency_ms: object({ P50: number, P95: number }),
      rx_bytes: integer,
      tx_bytes: integer
    }),
    session_count: object({ vscode: integer, ssh: integer, jetbrains: integer, reconnecting_pty: integer })
  }),
  DeploymentConfig: object({ config: ref("DeploymentValues"), options: arrayOf(ref("SerpentOption")) }),
  /**
   * Every top-level value is left out when empty, except the struct-typed ones; nested values
   * are not. Known keys with a simple type are typed; the rest stays open.
   */
  DeploymentValues: {
    type: "object",
    properties: {
      ...deploymentStructs,
      verbose: boolean,
      wildcard_access_url: string,
      http_address: string,
      redirect_to_access_url: boolean,
      experiments: arrayOf(string),
      proxy_trusted_headers: arrayOf(string),
      proxy_trusted_origins: arrayOf(string),
      secure_auth_cookie: boolean,
      strict_transport_security: integer,
      strict_transport_security_options: arrayOf(string),
      disable_password_auth: boolean,
      disable_path_apps: boolean,
      browser_only: boolean,
      update_check: boolean,
      swagger: object({ enable: boolean }),
      rate_limit: object({ disable_all: boolean, api: integer }),
      session_lifetime: { type: "object" },
      config_ssh: object({ deploymentName: string, sshconfigOptions: arrayOf(string) })
    },
    patternProperties: {
      [`^(?!(${Object.keys(deploymentStructs).join("|")})$)`]: {
        not: { anyOf: [{ enum: ["", false, 0] }, { type: "array", maxItems: 0 }] }
      }
    }
  },
  SerpentOption: object({
    name: omitted(string),
    description: omitted(string),
    required: omitted(boolean),
    flag: omitted(string),
    flag_shorthand: omitted(string),
    env: omitted(string),
    yaml: omitted(string),
    default: omitted(string),
    value: optional({}),
    annotations: omitted(mapOf(string)),
    group: optional(ref("SerpentGroup")),
    use_instead: omitted(arrayOf(ref("SerpentOption"))),
    hidden: omitted(boolean),
    value_source: optional({ type: "string", enum: ["flag", "env", "yaml", "default"] })
  }),
  SerpentGroup: object({
    parent: optional(ref("SerpentGroup")),
    name: omitted(string),
    yaml: omitted(string),
    description: omitted(string)
  }),
  // The relay map (tailscale's tailcfg.DERPMap, as the described system sends it on /derp-map).
  DERPMap: object({
    HomeParams: optional(nullable(object({ RegionScore: optional(nullable(mapOf(number))) }))),
    Regions: mapOf(ref("DERPRegion")),
    OmitDefaultRegions: optional(boolean)
  }, ["Regions"]),
  DERPRegion: object({
    EmbeddedRelay: boolean,
    RegionID: integer,
    RegionCode: string,
    RegionName: string,
    Avoid: optional(boolean),
    Nodes: arrayOf(ref("DERPNode"))
  }, ["RegionID", "RegionCode", "RegionName", "Nodes"]),
  NotificationTemplate: {
    ...object({
      id: uuid,
      name: string,
      title_template: string,
      body_template: string,
      actions: string,
      group: string,
      method: string,
      kind: string,
      enabled_by_default: boolean
    }, ["id", "name", "title_template", "body_template", "actions", "group", "method", "kind", "enabled_by_default"]),
    additionalProperties: false
  },
  NotificationPreference: {
    ...object({ id: uuid, disabled: boolean, updated_at: dateTime }, ["id", "disabled", "updated_at"]),
    additionalProperties: false
  },
  NotificationMethodsResponse: {
    ...object({ available: arrayOf(string), default: string }, ["available", "default"]),
    additionalProperties: false
  },
  NotificationsSettings: { ...object({ notifier_paused: boolean }, ["notifier_paused"]), additionalProperties: false },
  PrebuildsSettings: {
    ...object({ reconciliation_paused: boolean }, ["reconciliation_paused"]),
    additionalProperties: false
  },
  // codersdk's OAuth2 types (codersdk/oauth2.go; RFC 7591, 7592, 8414, 9728, 6749 5.1).
  OAuth2ProviderApp: object({
    id: uuid,
    name: string,
    callback_url: string,
    icon: string,
    endpoints: object({ authorization: string, token: string, device_authorization: string }, [
      "authorization",
      "token",
      "device_authorization"
    ])
  }, ["id", "name", "callback_url", "icon", "endpoints"]),
  OAuth2ProviderAppSecret: object({ id: uuid, last_used_at: nullable(dateTime), client_secret_truncated: string }, [
    "id",
    "last_used_at",
    "client_secret_truncated"
  ]),
  OAuth2ProviderAppSecretFull: object({ id: uuid, client_secret_full: string }, ["id", "client_secret_full"]),
  OAuth2ProviderSettings: object({ dynamic_client_registration_enabled: boolean }, [
    "dynamic_client_registration_enabled"
  ]),
  OAuth2ClientRegistrationResponse: object({
    client_id: string,
    client_secret: omitted(string),
    client_id_issued_at: omitted(integer),
    client_secret_expires_at: omitted(integer),
    redirect_uris: omitted(arrayOf(string)),
    client_name: omitted(string),
    client_uri: omitted(string),
    logo_uri: omitted(string),
    tos_uri: omitted(string),
    policy_uri: omitted(string),
    jwks_uri: omitted(string),
    jwks: omitted({ type: "object" }),
    software_id: omitted(string),
    software_version: omitted(string),
    grant_types: arrayOf(string),
    response_types: arrayOf(string),
    token_endpoint_auth_method: string,
    scope: omitted(string),
    contacts: omitted(arrayOf(string)),
    registration_access_token: string,
    registration_client_uri: string
  }, [
    "client_id",
    "grant_types",
    "response_types",
    "token_endpoint_auth_method",
    "registration_access_token",
    "registration_client_uri"
  ]),
  OAuth2ClientConfiguration: object({
    client_id: string,
    client_id_issued_at: integer,
    client_secret_expires_at: omitted(integer),
    redirect_uris: omitted(arrayOf(string)),
    client_name: omitted(string),
    client_uri: omitted(string),
    logo_uri: omitted(string),
    tos_uri: omitted(string),
    policy_uri: omitted(string),
    jwks_uri: omitted(string),
    jwks: omitted({ type: "object" }),
    software_id: omitted(string),
    software_version: omitted(string),
    grant_types: arrayOf(string),
    response_types: arrayOf(string),
    token_endpoint_auth_method: string,
    scope: omitted(string),
    contacts: omitted(arrayOf(string)),
    registration_access_token: omitted(string),
    registration_client_uri: string
  }, [
    "client_id",
    "client_id_issued_at",
    "grant_types",
    "response_types",
    "token_endpoint_auth_method",
    "registration_client_uri"
  ]),
  OAuth2AuthorizationServerMetadata: object({
    issuer: string,
    authorization_endpoint: string,
    token_endpoint: string,
    registration_endpoint: omitted(string),
    revocation_endpoint: omitted(string),
    response_types_supported: arrayOf(string),
    grant_types_supported: omitted(arrayOf(string)),
    code_challenge_methods_supported: omitted(arrayOf(string)),
    scopes_supported: omitted(arrayOf(string)),
    token_endpoint_auth_methods_supported: omitted(arrayOf(string))
  }, ["issuer", "authorization_endpoint", "token_endpoint", "response_types_supported"]),
  OAuth2ProtectedResourceMetadata: object({
    resource: string,
    authorization_servers: arrayOf(string),
    scopes_supported: omitted(arrayOf(string)),
    bearer_methods_supported: omitted(arrayOf(string))
  }, ["resource", "authorization_servers"]),
  OAuth2TokenResponse: object({
    access_token: string,
    token_type: string,
    expires_in: omitted(integer),
    refresh_token: omitted(string),
    scope: omitted(string),
    expiry: optional(dateTime)
  }),
  // External auth (the described system's codersdk and agentsdk types; docs/reference/api/git.md, agents.md).
  ExternalAuthLink: {
    ...object({
      provider_id: string,
      created_at: dateTime,
      updated_at: dateTime,
      has_refresh_token: boolean,
      expires: dateTime,
      authenticated: boolean,
      validate_error: string
    }, ["provider_id", "created_at", "updated_at", "has_refresh_token", "expires", "authenticated", "validate_error"]),
    additionalProperties: false
  },
  ExternalAuthLinkProvider: object({
    id: string,
    type: string,
    device: boolean,
    display_name: string,
    display_icon: string,
    allow_refresh: boolean,
    allow_validate: boolean,
    supports_revocation: boolean,
    code_challenge_methods_supported: arrayOf(string)
  }, ["id", "type", "device", "display_name", "display_icon", "allow_refresh", "allow_validate"]),
  ListUserExternalAuthResponse: object({
    providers: arrayOf(ref("ExternalAuthLinkProvider")),
    links: arrayOf(ref("ExternalAuthLink"))
  }, [
    "providers",
    "links"
  ]),
  ExternalAuthUser: object({ id: integer, login: string, avatar_url: string, profile_url: string, name: string }, [
    "id",
    "login",
    "avatar_url",
    "profile_url",
    "name"
  ]),
  ExternalAuthAppInstallation: object({ id: integer, account: ref("ExternalAuthUser"), configure_url: string }, [
    "id",
    "account",
    "configure_url"
  ]),
  ExternalAuth: object({
    authenticated: boolean,
    device: boolean,
    display_name: string,
    user: nullable(ref("ExternalAuthUser")),
    app_installable: boolean,
    installations: arrayOf(ref("ExternalAuthAppInstallation")),
    app_install_url: string
  }, ["authenticated", "device", "display_name", "user", "app_installable", "installations", "app_install_url"]),
  ExternalAuthDevice: object({
    device_code: string,
    user_code: string,
    verification_uri: string,
    expires_in: integer,
    interval: integer
  }, [
    "device_code",
    "user_code",
    "verification_uri",
    "expires_in",
    "interval"
  ]),
  DeleteExternalAuthByIDResponse: object({ token_revoked: boolean, token_revocation_error: omitted(string) }, [
    "token_revoked"
  ]),
  ExternalAuthResponse: {
    ...object({
      access_token: string,
      token_extra: nullable({ type: "object" }),
      url: string,
      type: string,
      username: string,
      password: string
    }, ["access_token", "token_extra", "url", "type", "username", "password"]),
    additionalProperties: false
  },
  AppHostResponse: { ...object({ host: string }, ["host"]), additionalProperties: false },
  DAUsResponse: object({
    entries: arrayOf(object({ amount: integer, date: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } })),
    tz_hour_offset: integer
  }),
  TemplateAppUsage: object({
    display_name: string,
    icon: string,
    seconds: integer,
    slug: string,
    template_ids: arrayOf(uuid),
    times_used: integer,
    type: { type: "string", enum: ["builtin", "app"] }
  }),
  TemplateParameterUsage: object({
    description: string,
    display_name: string,
    name: string,
    type: string,
    template_ids: arrayOf(uuid),
    options: optional(arrayOf(object({ description: string, icon: string, name: string, value: string }))),
    values: arrayOf(object({ count: integer, value: string }))
  }),
  TemplateInsightsResponse: object({
    interval_reports: arrayOf(object({
      active_users: integer,
      end_time: dateTime,
      interval: { type: "string", enum: ["day", "week"] },
      start_time: dateTime,
      template_ids: arrayOf(uuid)
    })),
    report: object({
      active_users: integer,
      apps_usage: arrayOf(ref("TemplateAppUsage")),
      end_time: dateTime,
      parameters_usage: arrayOf(ref("TemplateParameterUsage")),
      start_time: dateTime,
      template_ids: arrayOf(uuid)
    })
  }),
  // The reference marks avatar_url `uri` but leaves it in when empty (no omitempty): a string here.
  UserActivityInsightsResponse: object({
    report: object({
      end_time: dateTime,
      start_time: dateTime,
      template_ids: arrayOf(uuid),
      users: arrayOf(
        object({ avatar_url: string, seconds: integer, template_ids: arrayOf(uuid), user_id: uuid, username: string })
      )
    })
  }),
  UserLatencyInsightsResponse: object({
    report: object({
      end_time: dateTime,
      start_time: dateTime,
      template_ids: arrayOf(uuid),
      users: arrayOf(object({
        avatar_url: string,
        latency_ms: object({ p50: number, p95: number }),
        template_ids: arrayOf(uuid),
        user_id: uuid,
        username: string
      }))
    })
  }),
  GetUserStatusCountsResponse: object({ status_counts: mapOf(arrayOf(object({ count: integer, date: dateTime }))) }),
  DERPNode: object({
    Name: string,
    RegionID: integer,
    HostName: string,
    CertName: optional(string),
    IPv4: optional(string),
    IPv6: optional(string),
    STUNPort: optional(integer),
    STUNOnly: optional(boolean),
    DERPPort: optional(integer),
    InsecureForTests: optional(boolean),
    ForceHTTP: optional(boolean),
    STUNTestIP: optional(string),
    CanPort80: optional(boolean)
  }, ["Name", "RegionID", "HostName"]),
  // Sign-in through GitHub and OpenID Connect (typesGenerated: ExternalAuthDevice, OAuth2DeviceFlowCallbackResponse, OIDCClaimsResponse).
  OAuth2DeviceFlowCallbackResponse: {
    ...object({ redirect_url: string }, ["redirect_url"]),
    additionalProperties: false
  },
  OIDCClaimsResponse: { ...object({ claims: { type: "object" } }, ["claims"]), additionalProperties: false },
  // Appearance, licenses and entitlements (typesGenerated: AppearanceConfig, BannerConfig, LinkConfig, License, Entitlements, Feature).
  BannerConfig: {
    ...object({ enabled: boolean, message: omitted(string), background_color: omitted(string) }, ["enabled"]),
    additionalProperties: false
  },
  LinkConfig: object({
    name: string,
    target: string,
    icon: { enum: ["bug", "chat", "docs", "star"] },
    location: omitted(string)
  }, ["name", "target", "icon"]),
  AppearanceConfig: object({
    application_name: string,
    logo_url: string,
    docs_url: string,
    service_banner: ref("BannerConfig"),
    announcement_banners: arrayOf(ref("BannerConfig")),
    support_links: arrayOf(ref("LinkConfig"))
  }, ["application_name", "logo_url", "docs_url", "service_banner", "announcement_banners"]),
  UpdateAppearanceConfig: object({
    application_name: string,
    logo_url: string,
    service_banner: ref("BannerConfig"),
    announcement_banners: arrayOf(ref("BannerConfig"))
  }, ["application_name", "logo_url", "service_banner", "announcement_banners"]),
  // codersdk Replica (enterprise `GET /replicas`); database_latency in microseconds.
  Replica: object({
    id: uuid,
    hostname: string,
    created_at: dateTime,
    relay_address: string,
    region_id: integer,
    error: string,
    database_latency: integer
  }, ["id", "hostname", "created_at", "relay_address", "region_id", "error", "database_latency"]),
  License: {
    ...object({ id: integer, uuid, uploaded_at: dateTime, claims: { type: "object" } }, [
      "id",
      "uuid",
      "uploaded_at",
      "claims"
    ]),
    additionalProperties: false
  },
  UsagePeriod: object({ issued_at: dateTime, start: dateTime, end: dateTime }, ["issued_at", "start", "end"]),
  Feature: {
    ...object({
      entitlement: { enum: ["entitled", "grace_period", "not_entitled"] },
      enabled: boolean,
      limit: optional(integer),
      actual: optional(integer),
      usage_period: optional(ref("UsagePeriod"))
    }, ["entitlement", "enabled"]),
    additionalProperties: false
  },
  Entitlements: object({
    features: mapOf(ref("Feature")),
    warnings: arrayOf(string),
    errors: arrayOf(string),
    has_license: boolean,
    trial: boolean,
    require_telemetry: boolean,
    refreshed_at: dateTime
  }, ["features", "warnings", "errors", "has_license", "trial", "require_telemetry", "refreshed_at"]),
  // codersdk's workspace proxy types (codersdk/workspaceproxy.go, enterprise/wsproxy/wsproxysdk).
  Region: {
    ...object({
      id: uuid,
      name: string,
      display_name: string,
      icon_url: string,
      healthy: boolean,
      path_app_url: string,
      wildcard_hostname: string
    }, ["id", "name", "display_name", "icon_url", "healthy", "path_app_url", "wildcard_hostname"]),
    additionalProperties: false
  },
  WorkspaceProxy: object({
    id: uuid,
    name: string,
    display_name: string,
    icon_url: string,
    healthy: boolean,
    path_app_url: string,
    wildcard_hostname: string,
    derp_enabled: boolean,
    derp_only: boolean,
    status: optional(object({
      status: { type: "string", enum: ["ok", "unreachable", "unhealthy", "unregistered"] },
      report: optional(object({ errors: arrayOf(string), warnings: arrayOf(string) })),
      checked_at: dateTime
    })),
    created_at: dateTime,
    updated_at: dateTime,
    deleted: boolean,
    version: string
  }, [
    "id",
    "name",
    "display_name",
    "icon_url",
    "healthy",
    "path_app_url",
    "wildcard_hostname",
    "derp_enabled",
    "derp_only",
    "created_at",
    "updated_at",
    "deleted",
    "version"
  ]),
  RegionsResponseRegion: { ...object({ regions: arrayOf(ref("Region")) }, ["regions"]), additionalProperties: false },
  RegionsResponseWorkspaceProxy: {
    ...object({ regions: arrayOf(ref("WorkspaceProxy")) }, ["regions"]),
    additionalProperties: false
  },
  UpdateWorkspaceProxyResponse: object({ proxy: ref("WorkspaceProxy"), proxy_token: string }, ["proxy", "proxy_token"]),
  RegisterWorkspaceProxyResponse: object({
    derp_mesh_key: string,
    derp_region_id: integer,
    derp_force_websockets: boolean,
    sibling_replicas: arrayOf({ type: "object" })
  }, ["derp_mesh_key", "derp_region_id", "derp_force_websockets", "sibling_replicas"]),
  // healthsdk (codersdk/healthsdk/healthsdk.go): every section has severity, warnings and dismissed; `error` is omitempty.
  HealthMessage: object({ code: string, message: string }, ["code", "message"]),
  HealthSettings: {
    ...object({
      dismissed_healthchecks: arrayOf({
        type: "string",
        enum: ["DERP", "AccessURL", "Websocket", "Database", "WorkspaceProxy", "ProvisionerDaemons"]
      })
    }, ["dismissed_healthchecks"]),
    additionalProperties: false
  },
  HealthcheckReport: object({
    time: dateTime,
    healthy: boolean,
    severity: { type: "string", enum: ["ok", "warning", "error"] },
    coder_version: string,
    database: healthSection({
      healthy: boolean,
      reachable: boolean,
      latency: string,
      latency_ms: integer,
      threshold_ms: integer
    }),
    access_url: healthSection({
      healthy: boolean,
      access_url: string,
      reachable: boolean,
      status_code: integer,
      healthz_response: string
    }),
    websocket: healthSection({ healthy: boolean, body: string, code: integer }),
    derp: healthSection({ healthy: boolean, regions: { type: "object" }, netcheck_logs: arrayOf(string) }),
    workspace_proxy: healthSection({ healthy: boolean, workspace_proxies: ref("RegionsResponseWorkspaceProxy") }),
    provisioner_daemons: healthSection({
      items: arrayOf(
        object({ provisioner_daemon: { type: "object" }, warnings: arrayOf(ref("HealthMessage")) }, [
          "provisioner_daemon",
          "warnings"
        ])
      )
    })
  }, [
    "time",
    "healthy",
    "severity",
    "coder_version",
    "database",
    "access_url",
    "websocket",
    "derp",
    "workspace_proxy",
    "provisioner_daemons"
  ])
}

/** Schema names a table row may use: a type, or `[Type]` for a list of it. */
export type SchemaName = keyof typeof definitions | `[${string}]` | "Experiments"

const root = { $id: "reference", definitions: { ...definitions, Experiments: arrayOf(string) } }

/** An ajv instance that knows every definition and enforces the formats. */
export const makeValidator = () => {
  const ajv = new Ajv({ allErrors: true, strict: true, allowMatchingProperties: true })
  addFormats.default(ajv, ["uuid", "uri", "email", "date-time"])
  ajv.addSchema(root)
  const cache = new Map<string, ValidateFunction>()
  /** The validator of `name` (`User`) or of a list of it (`[User]`). */
  return (name: string): ValidateFunction => {
    const cached = cache.get(name)
    if (cached !== undefined) return cached
    const list = /^\[(.+)\]$/.exec(name)
    const target = list === null ? name : list[1]!
    if (!(target in root.definitions)) throw new Error(`No schema named ${target}.`)
    const schema = list === null
      ? { $ref: `reference#/definitions/${target}` }
      : { type: "array", items: { $ref: `reference#/definitions/${target}` } }
    const validate = ajv.compile(schema)
    cache.set(name, validate)
    return validate
  }
}
