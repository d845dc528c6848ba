/** The JSON Schemas of the agents, their apps, logs, containers and connections response types (see ../schemas/ResponseSchemas.ts). */
import { jobStatuses } from "../provisioners/responseTypes.js"
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  mapOf,
  nullable,
  number,
  object,
  omitted,
  optional,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
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
  }, ["Name", "RegionID", "HostName"])
}
