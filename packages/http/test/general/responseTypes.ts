/** The JSON Schemas of the deployment and general response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  mapOf,
  number,
  object,
  omitted,
  optional,
  ref,
  string
} from "../schemas/jsonSchema.js"

/** Top-level values of the deployment configuration that are structs there, hence sent even when empty. */
const deploymentStructs = {
  access_url: string,
  docs_url: string,
  agent_fallback_troubleshooting_url: string,
  address: {},
  external_auth: {}
}

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
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
  })
}
