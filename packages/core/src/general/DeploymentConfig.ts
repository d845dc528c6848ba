/**
 * The deployment configuration as `GET /deployment/config` reports it:
 * `config`, Coder's deployment values, and `options`, one descriptor per
 * setting this service really has, derived from the settings table
 * (settings/Table.ts: the settings with a `name`, in table order).
 *
 * As in the described system, a top-level value of `config` that is empty
 * (`""`, `false`, `0`, an empty list) is left out, except the URL and address
 * values, which are structs there and always sent; nested values are all sent.
 *
 * Secrets are never reported: a secret-bearing option has the annotation
 * `secret: "true"` and no `value`, and its place in `config` is blanked (so at
 * the top level it is absent). As a second line of defence every key of
 * `config` whose name looks like it carries a password, secret, key or token is
 * blanked as well.
 */
import { Duration, Schema, type Types } from "effect"
import { type ExternalAuthConfig, publicConfig } from "../externalauth/Provider.js"
import { defaultSettings, type SettingsShape } from "../Settings.js"
import type { OptionGroup } from "../settings/Groups.js"
import { type Setting, settingEnv } from "../settings/Setting.js"
import { type SettingKey, settingsList } from "../settings/Table.js"
import type { WireKind } from "../settings/Types.js"
import { isEmptyValue, omitEmpty, putNonEmpty } from "../Wire.js"

// ---------------------------------------------------------------------------
// Wire schemas
//
// Option and group descriptors follow the described system's option type: every
// field is left out when empty (no flag, no env, `hidden: false`, no parent, ...).

/** A group of options (settings/Groups.ts); `parent` is absent for top-level groups. */
export type DeploymentOptionGroup = OptionGroup

export const DeploymentOptionGroup: Schema.Schema<DeploymentOptionGroup> = Schema.Struct({
  name: omitEmpty(Schema.String),
  description: omitEmpty(Schema.String),
  yaml: omitEmpty(Schema.String),
  parent: omitEmpty(Schema.suspend((): Schema.Schema<DeploymentOptionGroup> => DeploymentOptionGroup))
}).annotations({ identifier: "DeploymentOptionGroup" })

/** One option descriptor. `value` is absent for secret-bearing options; empty fields are absent. */
export interface DeploymentOption {
  readonly name?: string
  readonly description?: string
  readonly flag?: string
  readonly flag_shorthand?: string
  readonly env?: string
  readonly yaml?: string
  readonly default?: string
  readonly value?: unknown
  /** `flag`, `env`, `yaml`, `default`, or absent when set another way (by an embedder's code). */
  readonly value_source?: string
  readonly hidden?: boolean
  readonly required?: boolean
  readonly annotations?: { readonly [key: string]: string }
  readonly group?: DeploymentOptionGroup
  readonly use_instead?: ReadonlyArray<DeploymentOption>
}

export const DeploymentOption: Schema.Schema<DeploymentOption> = Schema.Struct({
  name: omitEmpty(Schema.String),
  description: omitEmpty(Schema.String),
  flag: omitEmpty(Schema.String),
  flag_shorthand: omitEmpty(Schema.String),
  env: omitEmpty(Schema.String),
  yaml: omitEmpty(Schema.String),
  default: omitEmpty(Schema.String),
  value: Schema.optional(Schema.Unknown),
  value_source: omitEmpty(Schema.String),
  hidden: omitEmpty(Schema.Boolean),
  required: omitEmpty(Schema.Boolean),
  annotations: omitEmpty(Schema.Record({ key: Schema.String, value: Schema.String })),
  group: omitEmpty(DeploymentOptionGroup),
  use_instead: omitEmpty(Schema.Array(Schema.suspend((): Schema.Schema<DeploymentOption> => DeploymentOption)))
}).annotations({ identifier: "DeploymentOption" })

export const DeploymentConfigResponse = Schema.Struct({
  config: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  options: Schema.Array(DeploymentOption)
}).annotations({ identifier: "DeploymentConfig" })
export type DeploymentConfigResponse = typeof DeploymentConfigResponse.Type

// ---------------------------------------------------------------------------
// Options: one per setting of the table (settings/Table.ts) that has a name, in table order

/** A setting the deployment config reports: its declaration has a name. */
type Reported = readonly [SettingKey, Setting<unknown> & { readonly name: string; readonly flag: string }]

const reported: ReadonlyArray<Reported> = settingsList.filter((e): e is Reported => e[1].name !== undefined)

// ---------------------------------------------------------------------------
// Values

/** Go's `time.Duration.String()`: `24h0m0s`, `1m0s`, `30s`, `15ms`, `0s`. */
export const formatGoDuration = (nanos: number): string => {
  if (nanos === 0) return "0s"
  const sign = nanos < 0 ? "-" : ""
  let rest = Math.abs(nanos)
  if (rest < 1e9) {
    const [unit, size] = rest < 1e3 ? ["ns", 1] : rest < 1e6 ? ["µs", 1e3] : ["ms", 1e6]
    return `${sign}${Number((rest / size).toFixed(9))}${unit}`
  }
  const hours = Math.floor(rest / 3.6e12)
  rest -= hours * 3.6e12
  const minutes = Math.floor(rest / 6e10)
  rest -= minutes * 6e10
  const seconds = Number((rest / 1e9).toFixed(9))
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`
  return `${sign}${seconds}s`
}

/** Nanoseconds, as Go's `time.Duration` marshals to JSON. */
export const toNanos = (d: Duration.Duration): number => Number(Duration.unsafeToNanos(d))

const toWire = (kind: WireKind, value: unknown): unknown => {
  if (kind === "duration") return toNanos(value as Duration.Duration)
  if (kind === "strings") return [...(value as ReadonlyArray<string>)]
  if (kind === "providers") return (value as ReadonlyArray<ExternalAuthConfig>).map(publicConfig)
  return value
}

const formatDefault = (kind: WireKind, value: unknown): string => {
  switch (kind) {
    case "duration":
      return formatGoDuration(toNanos(value as Duration.Duration))
    case "strings":
      return (value as ReadonlyArray<string>).join(",")
    case "json":
      return JSON.stringify(value)
    case "providers":
      return ""
    default:
      return String(value)
  }
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

const descriptor = (
  [key, o]: Reported,
  settings: SettingsShape,
  useInstead: ReadonlyArray<DeploymentOption>
): DeploymentOption => {
  const kind = o.type.wire
  const value = toWire(kind, settings[key])
  const fallback = toWire(kind, defaultSettings[key])
  const annotations: Record<string, string> = {}
  if (kind === "duration") annotations.format_duration = "true"
  if (o.enterprise) annotations.enterprise = "true"
  if (o.secret) annotations.secret = "true"
  const d: Types.Mutable<DeploymentOption> = { name: o.name }
  putNonEmpty(d, "description", o.description)
  putNonEmpty(d, "flag", o.flag)
  putNonEmpty(d, "flag_shorthand", o.shorthand)
  putNonEmpty(d, "env", settingEnv(o))
  putNonEmpty(d, "yaml", o.yaml)
  if (!o.secret) {
    putNonEmpty(d, "default", formatDefault(kind, defaultSettings[key]))
    // Every non-secret option has a value, empty or not (the described system sends it too).
    d.value = redactUrl(value)
  }
  putNonEmpty(d, "value_source", settings.valueSources[key] ?? (sameValue(value, fallback) ? "default" : ""))
  putNonEmpty(d, "hidden", o.hidden)
  putNonEmpty(d, "annotations", annotations)
  if (o.group !== undefined) d.group = o.group
  putNonEmpty(d, "use_instead", useInstead)
  return d
}

const ns = (d: Duration.DurationInput) => toNanos(Duration.decode(d))

/** Coder's values for what this service has no setting for. */
const fixedConfig = (): Record<string, unknown> => ({
  address: "",
  agent_fallback_troubleshooting_url: "https://coder.com/docs/admin/templates/troubleshooting",
  agent_stat_refresh_interval: ns("30 seconds"),
  ai: {
    bridge: {
      enabled: false,
      openai: { base_url: "https://api.openai.com/v1/", key: "" },
      anthropic: { base_url: "https://api.anthropic.com/", key: "" }
    }
  },
  autobuild_poll_interval: ns("1 minute"),
  cache_directory: "",
  config: "",
  dangerous: { allow_path_app_sharing: false, allow_path_app_site_owner_access: false, allow_all_cors: false },
  derp: {
    server: {
      enable: true,
      region_id: 999,
      region_code: "coder",
      region_name: "Coder Embedded Relay",
      stun_addresses: [
        "stun.l.google.com:19302",
        "stun1.l.google.com:19302",
        "stun2.l.google.com:19302",
        "stun3.l.google.com:19302",
        "stun4.l.google.com:19302"
      ],
      relay_url: ""
    },
    // What Workbay does: peers are relayed over WebSockets, with no direct path (the agents' manifest says the same).
    config: { block_direct: true, force_websockets: true, url: "", path: "" }
  },
  enable_authz_recording: false,
  ephemeral_deployment: false,
  external_auth: [],
  external_auth_github_default_provider_enable: true,
  healthcheck: { refresh: ns("10 minutes"), threshold_database: ns("15 millis") },
  http_cookies: { host_prefix: false },
  job_hang_detector_interval: ns("1 minute"),
  logging: { human: "/dev/stderr", json: "", stackdriver: "" },
  metrics_cache_refresh_interval: ns("4 hours"),
  notifications: {
    max_send_attempts: 5,
    retry_interval: ns("5 minutes"),
    sync_interval: ns("2 seconds"),
    sync_buffer_size: 50,
    lease_period: ns("2 minutes"),
    lease_count: 20,
    fetch_interval: ns("15 seconds"),
    method: "smtp",
    dispatch_timeout: ns("1 minute"),
    email: {
      auth: { identity: "", password_file: "" },
      tls: { start_tls: false, server_name: "", insecure_skip_verify: false, ca_file: "", cert_file: "", key_file: "" },
      force_tls: false
    },
    webhook: { endpoint: "" },
    inbox: {}
  },
  oauth2: { github: {} },
  oidc: {
    client_key_file: "",
    client_cert_file: "",
    ignore_email_verified: false,
    username_field: "preferred_username",
    name_field: "name",
    email_field: "email",
    auth_url_params: { access_type: "offline" },
    ignore_user_info: false,
    source_user_info_from_access_token: false,
    organization_field: "",
    organization_mapping: {},
    organization_assign_default: true,
    group_auto_create: false,
    group_regex_filter: ".*",
    group_allow_list: [],
    groups_field: "",
    group_mapping: {},
    user_role_field: "",
    user_role_mapping: {},
    user_roles_default: [],
    signups_disabled_text: "",
    skip_issuer_checks: false
  },
  pprof: { enable: false, address: "127.0.0.1:6060" },
  prometheus: {
    enable: false,
    address: "127.0.0.1:2112",
    collect_agent_stats: false,
    collect_db_metrics: false,
    aggregate_agent_stats_by: ["agent_name", "template_name", "username", "workspace_name"]
  },
  provisioner: {
    daemon_types: ["terraform"],
    daemon_poll_interval: ns("1 second"),
    daemon_poll_jitter: ns("100 millis")
  },
  proxy_health_status_interval: ns("1 minute"),
  rate_limit: {},
  retention: {},
  session_lifetime: { refresh_default_duration: ns("30 days") },
  stats_collection: { usage_stats: { enable: true } },
  support: { links: [] },
  swagger: {},
  telemetry: { trace: false, url: "" },
  template_builder: { enable: false },
  tls: {
    enable: false,
    address: "127.0.0.1:3443",
    redirect_http: true,
    cert_file: [],
    client_auth: "none",
    client_ca_file: "",
    key_file: [],
    min_version: "tls12",
    client_cert_file: "",
    client_key_file: "",
    supported_ciphers: [],
    allow_insecure_ciphers: false
  },
  trace: { capture_logs: false, data_dog: false },
  user_quiet_hours_schedule: {},
  wgtunnel_host: "",
  workspace_prebuilds: {
    reconciliation_interval: ns("1 minute"),
    reconciliation_backoff_interval: ns("15 seconds"),
    reconciliation_backoff_lookback: ns("1 hour"),
    failure_hard_limit: 3
  },
  write_config: false
})

const setPath = (target: Record<string, unknown>, path: string, value: unknown) => {
  const keys = path.split(".")
  let node = target
  for (const key of keys.slice(0, -1)) {
    const next = node[key]
    if (typeof next === "object" && next !== null && !Array.isArray(next)) node = next as Record<string, unknown>
    else node = (node[key] = {}) as Record<string, unknown>
  }
  node[keys[keys.length - 1]!] = value
}

/** Key names that carry secrets, whatever option they came from. */
const secretKey = /(password|secret|(^|_)keys?|(^|_)psk|(^|_)token|connection_url|credential)$/i

/** `scheme://user:password@host`: the password part of credentials written into a URL. */
const urlCredentials = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#@]*@/i

/** Drops a password written into a URL, wherever the URL appears. */
const redactUrl = (value: unknown): unknown =>
  typeof value === "string" ? value.replace(urlCredentials, "$1@") : Array.isArray(value) ? value.map(redactUrl) : value

/** Blanks every secret-looking value, at any depth. */
const scrub = (value: unknown, key = ""): unknown => {
  if (key !== "" && secretKey.test(key) && (typeof value === "string" || Array.isArray(value))) return ""
  if (typeof value === "string") return redactUrl(value)
  if (Array.isArray(value)) return value.map((v) => scrub(v))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, k)]))
  }
  return value
}

/** `GET /deployment/config` for `settings`: the full config and one descriptor per setting, without secrets. */
export const deploymentConfig = (settings: SettingsShape): DeploymentConfigResponse => {
  const built = new Map<SettingKey, DeploymentOption>()
  for (const entry of reported) {
    const useInstead = (entry[1].useInstead ?? []).map((k) => {
      const target = reported.find(([key]) => key === k)!
      return built.get(target[0]) ?? descriptor(target, settings, [])
    })
    built.set(entry[0], descriptor(entry, settings, useInstead))
  }
  const config = fixedConfig()
  for (const [key, o] of reported) {
    if (o.path !== undefined) setPath(config, o.path, o.secret ? "" : toWire(o.type.wire, settings[key]))
  }
  const scrubbed = scrub(config) as Record<string, unknown>
  const kept = Object.keys(scrubbed).sort().filter((k) =>
    alwaysSent.has(k) || !isEmptyValue(scrubbed[k]) || isObject(scrubbed[k])
  )
  return { config: Object.fromEntries(kept.map((k) => [k, scrubbed[k]])), options: [...built.values()] }
}

const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v)

/** Top-level values that are structs in the described system (URLs, addresses, external auth): sent even when empty. */
const alwaysSent: ReadonlySet<string> = new Set([
  "access_url",
  "address",
  "agent_fallback_troubleshooting_url",
  "docs_url",
  "external_auth"
])

/** Top-level keys `config` may hold (the spec's list); empty values among them are absent. */
export const deploymentConfigKeys: ReadonlyArray<string> = [
  "access_url",
  "additional_csp_policy",
  "address",
  "agent_fallback_troubleshooting_url",
  "agent_stat_refresh_interval",
  "ai",
  "allow_workspace_renames",
  "autobuild_poll_interval",
  "browser_only",
  "cache_directory",
  "cli_upgrade_message",
  "config",
  "config_ssh",
  "dangerous",
  "derp",
  "disable_chat_sharing",
  "disable_owner_workspace_exec",
  "disable_password_auth",
  "disable_path_apps",
  "disable_workspace_sharing",
  "docs_url",
  "enable_authz_recording",
  "enable_terraform_debug_mode",
  "ephemeral_deployment",
  "experiments",
  "external_auth",
  "external_auth_github_default_provider_enable",
  "external_token_encryption_keys",
  "healthcheck",
  "hide_ai_tasks",
  "http_address",
  "http_cookies",
  "job_hang_detector_interval",
  "logging",
  "metrics_cache_refresh_interval",
  "notifications",
  "oauth2",
  "oidc",
  "pg_auth",
  "pg_conn_max_idle",
  "pg_conn_max_open",
  "pg_connection_url",
  "pprof",
  "prometheus",
  "provisioner",
  "proxy_health_status_interval",
  "proxy_trusted_headers",
  "proxy_trusted_origins",
  "rate_limit",
  "redirect_to_access_url",
  "retention",
  "scim_api_key",
  "session_lifetime",
  "ssh_keygen_algorithm",
  "stats_collection",
  "strict_transport_security",
  "strict_transport_security_options",
  "support",
  "swagger",
  "telemetry",
  "template_builder",
  "terms_of_service_url",
  "tls",
  "trace",
  "update_check",
  "user_quiet_hours_schedule",
  "verbose",
  "web_terminal_renderer",
  "wgtunnel_host",
  "wildcard_access_url",
  "workspace_hostname_suffix",
  "workspace_prebuilds",
  "write_config"
]
