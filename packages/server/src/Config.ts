/**
 * Server configuration from flags and environment variables (flags win). The deployment
 * settings the server takes (flag, variable, help, how the text reads) are declared once, in
 * the settings table of @workbay/core (settings/Table.ts: those with `help`); the flags below
 * are the server's own, about this process rather than the deployment.
 */
import {
  checkRelayMap,
  type DerpMap,
  type ExternalAuthConfig,
  externalAuthFromEnv,
  resolveProviders,
  type Setting,
  settingEnv,
  type SettingKey,
  settingsList,
  SettingTypes
} from "@workbay/core"
import { Duration, Either } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { parseArgs } from "node:util"

export const { encryptionKeys, parseDuration, parseHostPort } = SettingTypes

/** A setting as given: its value and where it came from. */
export interface GivenSetting<A> {
  readonly value: A
  readonly source: "flag" | "env"
}

/** A retention setting as given: its duration and where it came from. */
export type RetentionSetting = GivenSetting<Duration.Duration>

export interface ServerConfig {
  readonly port: number
  readonly host: string | undefined
  readonly dataDir: string
  readonly sqliteLocking: "exclusive" | "normal"
  /** Where the streams into workspaces are joined: a process of the server's own (the socket relay), or its own. */
  readonly streamRelay: "process" | "inline"
  readonly databaseUrl: string | undefined
  readonly accessUrl: string
  readonly sessionHeader: string | undefined
  readonly sessionCookie: string | undefined
  readonly swaggerEnable: boolean
  readonly experiments: ReadonlyArray<string>
  readonly logLevel: string
  /** How log lines are written: human (default) or json. See docs/operations.md. */
  readonly logFormat: "human" | "json"
  /** How long a shutdown (SIGTERM, SIGINT) waits for in-flight requests and running jobs. */
  readonly shutdownTimeout: Duration.Duration
  /**
   * The provisioner jobs' hang detector: sweep interval, timeout and how long a job bound to a host
   * waits for that host's daemon (absent: the defaults, 1m, 5m and 2m).
   */
  readonly hangDetector: {
    readonly interval?: Duration.Duration | undefined
    readonly timeout?: Duration.Duration | undefined
    readonly hostWait?: Duration.Duration | undefined
  }
  readonly help: boolean
  /** Built-in provisioner workers in this process; 0 runs none (an API-only replica). */
  readonly provisionerDaemons: number
  /** Time between ticks of the workspace lifecycle executor (autostart, autostop, dormancy); absent: one minute. */
  readonly autobuildPollInterval?: Duration.Duration | undefined
  /** Retention settings given by flag or environment; absent ones keep the deployment defaults. */
  readonly retention: {
    readonly auditLogs?: RetentionSetting | undefined
    readonly connectionLogs?: RetentionSetting | undefined
    readonly apiKeys?: RetentionSetting | undefined
    readonly workspaceAgentLogs?: RetentionSetting | undefined
  }
  /** The deployment setting `disable_workspace_sharing` when given by flag or environment; absent keeps it off. */
  readonly disableWorkspaceSharing?: GivenSetting<boolean> | undefined
  /** Path-based app switches given by flag or environment (absent: off). See docs/agents.md, "Web apps". */
  readonly pathApps: {
    readonly disable?: GivenSetting<boolean> | undefined
    readonly allowSharing?: GivenSetting<boolean> | undefined
    readonly allowSiteOwnerAccess?: GivenSetting<boolean> | undefined
  }
  /** The relay map read from `--derp-config-path`; absent: the embedded relay at the access URL. */
  readonly relayMap?: DerpMap | undefined
  /**
   * Trust roots of agents' cloud instance identity, read from the files the flags name (absent:
   * none, and that kind of identity is refused). See docs/agents.md, "Instance identity".
   */
  readonly instanceIdentity: {
    /** PEM certificates of AWS regions. */
    readonly aws?: GivenSetting<string> | undefined
    /** PEM certificates an Azure attested document's signer must chain to. */
    readonly azure?: GivenSetting<string> | undefined
    /** Google's keys: JWKS JSON, a JSON map of key ids to PEM certificates, or PEM. */
    readonly google?: GivenSetting<string> | undefined
  }
  /** The command the external agent credentials route answers (see `agentCommandOf`); undefined: found at start. */
  readonly agentCommand: string | undefined
  /** The folder of the agent's executables (see `agentBinariesOf`); undefined: found at start. */
  readonly agentBinaries: string | undefined
  /** The folder of the command line's executables (see `cliBinariesOf`); undefined: found at start. */
  readonly cliBinaries: string | undefined
  /** Deployment settings given by flag or environment (`settingFlags`), by setting name (absent: the defaults). */
  readonly settings: Readonly<Record<string, GivenSetting<unknown>>>
  /**
   * External auth providers from `WORKBAY_EXTERNAL_AUTH_<n>_<FIELD>` variables (or a JSON list in
   * `--external-auth-providers`); absent: none. See docs/external-auth.md.
   */
  readonly externalAuth?: GivenSetting<ReadonlyArray<ExternalAuthConfig>> | undefined
  /** Prometheus metrics (docs/operations.md, "Metrics"): served on `address` (host:port) when `enable`. */
  readonly prometheus: {
    readonly enable?: GivenSetting<boolean> | undefined
    readonly address?: GivenSetting<{ readonly host: string; readonly port: number; readonly text: string }> | undefined
  }
  /** Where spans go while `--trace` is on (docs/tracing.md); undefined when it is off. */
  readonly trace: TraceExport | undefined
}

/** The export of spans: OpenTelemetry's own variables, read as its SDKs read them. */
export interface TraceExport {
  /** The OTLP/HTTP traces URL. */
  readonly endpoint: string
  /** The `service.name` of the spans' resource. */
  readonly serviceName: string
}

/** OpenTelemetry's default OTLP/HTTP traces URL. */
export const DEFAULT_TRACES_ENDPOINT = "http://localhost:4318/v1/traces"

/**
 * The export `env` describes: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` with `v1/traces` appended, else the default; `OTEL_SERVICE_NAME`,
 * else `workbay`.
 */
export const traceExportOf = (env: NodeJS.ProcessEnv): TraceExport => {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  const endpoint = traces
    ? traces
    : base
    ? `${base.endsWith("/") ? base : `${base}/`}v1/traces`
    : DEFAULT_TRACES_ENDPOINT
  try {
    new URL(endpoint)
  } catch {
    throw new Error(
      `Invalid OTLP traces endpoint "${endpoint}" (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).`
    )
  }
  return { endpoint, serviceName: env.OTEL_SERVICE_NAME?.trim() || "workbay" }
}

/** A flag of the server: its variable, the text used when neither is given, its `--help` text. */
export interface ServerOption {
  readonly flag: string
  readonly env: string
  readonly default: string
  readonly help: string
  /** The setting of the table the flag gives; absent for the server's own flags. */
  readonly setting?: SettingKey
}

/** The server's own flags: how this process runs (where it listens and stores, how it logs and stops). */
const processOptions: ReadonlyArray<ServerOption> = [
  { flag: "port", env: "PORT", default: "3000", help: "Port to listen on." },
  { flag: "host", env: "HOST", default: "", help: "Address to bind (default: all interfaces)." },
  {
    flag: "data-dir",
    env: "WORKBAY_DATA_DIR",
    default: ".workbay",
    help: "Folder of the SQLite database (workbay.db)."
  },
  {
    flag: "sqlite-locking",
    env: "WORKBAY_SQLITE_LOCKING",
    default: "exclusive",
    help:
      "exclusive: the server holds the SQLite file alone (faster); normal: other processes may read it while it runs."
  },
  {
    flag: "session-header",
    env: "WORKBAY_SESSION_HEADER",
    default: "Service-Session-Token",
    help: "Header carrying session and API tokens."
  },
  {
    flag: "session-cookie",
    env: "WORKBAY_SESSION_COOKIE",
    default: "service_session_token",
    help: "Cookie carrying the session token."
  },
  {
    flag: "log-level",
    env: "WORKBAY_LOG_LEVEL",
    default: "info",
    help: "debug (one line per request), info, warning, error or none."
  },
  {
    flag: "log-format",
    env: "WORKBAY_LOG_FORMAT",
    default: "human",
    help: "How log lines (on standard error) are written: human or json (one object a line)."
  },
  {
    flag: "shutdown-timeout",
    env: "WORKBAY_SHUTDOWN_TIMEOUT",
    default: "30s",
    help: "On SIGTERM or SIGINT, how long in-flight requests and running provisioner jobs may take to finish."
  },
  {
    flag: "provisioner-hang-detector-interval",
    env: "WORKBAY_PROVISIONER_HANG_DETECTOR_INTERVAL",
    default: "",
    help: "Time between sweeps for hung provisioner jobs. Default: 1m."
  },
  {
    flag: "provisioner-hang-timeout",
    env: "WORKBAY_PROVISIONER_HANG_TIMEOUT",
    default: "",
    help: "A running provisioner job without an update for this long is failed as hung. Default: 5m."
  },
  {
    flag: "provisioner-host-wait",
    env: "WORKBAY_PROVISIONER_HOST_WAIT",
    default: "",
    help:
      "A provisioner job bound to a host is failed when no daemon of that host took it for this long (checked at each hang detector sweep). Default: 2m."
  },
  {
    flag: "autobuild-poll-interval",
    env: "WORKBAY_AUTOBUILD_POLL_INTERVAL",
    default: "",
    help:
      "Time between ticks of the workspace lifecycle executor (autostart, autostop, dormancy; e.g. 30s, 1m). One replica ticks at a time. Default: 1m."
  },
  {
    flag: "derp-config-path",
    env: "WORKBAY_DERP_CONFIG_PATH",
    default: "",
    help: "A JSON file with the relay (DERP) map clients and agents use. Default: the embedded relay at the access URL."
  },
  {
    flag: "agent-command",
    env: "WORKBAY_AGENT_COMMAND",
    default: "",
    help:
      "The command external agent credentials name (default: this installation's agent bundle, node .../packages/agent/bin/workbay-agent.mjs; else npx -y @workbay/agent)."
  },
  {
    flag: "stream-relay",
    env: "WORKBAY_STREAM_RELAY",
    default: "process",
    help:
      "Where the streams into workspaces (terminals, tunnels, SSH) are joined: process (the socket relay, a process of the server's own, so that their frames never wait for the API's work; docs/agents.md) or inline (in the server's process)."
  },
  {
    flag: "agent-binaries",
    env: "WORKBAY_AGENT_BINARIES",
    default: "",
    help:
      "The folder of the agent's executables served at /bin (workbay-agent-<os>-<arch> with manifest.json, made by scripts/executables.mjs). Default: this installation's packages/agent/dist/bin, built by npm start."
  },
  {
    flag: "cli-binaries",
    env: "WORKBAY_CLI_BINARIES",
    default: "",
    help:
      "The folder of the workbay command line's executables served at /bin (workbay-<os>-<arch> with manifest.json, made by scripts/executables.mjs cli). Default: this installation's packages/cli/dist/bin, built by npm start."
  }
]

/** The settings of the table the server takes: those with a `--help` text. */
const settingOptions: ReadonlyArray<ServerOption> = settingsList.flatMap(([key, s]) =>
  s.help === undefined || s.flag === undefined
    ? []
    : [{ flag: s.flag, env: settingEnv({ flag: s.flag, env: s.env }), default: "", help: s.help, setting: key }]
)

/**
 * The order of `--help`: the order the flags were added in, kept as it was before the settings
 * table. Flags not named here (settings added since) follow, in table order.
 */
const helpOrder: ReadonlyArray<string> = [
  ...["port", "host", "data-dir", "sqlite-locking", "database-url", "access-url", "session-header", "session-cookie"],
  ...["swagger-enable", "experiments", "log-level", "log-format", "shutdown-timeout"],
  ...[
    "provisioner-hang-detector-interval",
    "provisioner-hang-timeout",
    "provisioner-host-wait",
    "provisioner-daemons",
    "autobuild-poll-interval"
  ],
  ...["audit-logs-retention", "connection-logs-retention", "api-keys-retention", "workspace-agent-logs-retention"],
  ...["disable-path-apps", "dangerous-allow-path-app-sharing", "dangerous-allow-path-app-site-owner-access"],
  ...["derp-config-path", "disable-workspace-sharing", "aws-instance-identity-certificates"],
  ...["azure-instance-identity-certificates", "google-instance-identity-keys", "agent-command", "agent-binaries"],
  "cli-binaries",
  ...["notifications-method", "notifications-dispatch-timeout", "notifications-max-send-attempts"],
  ...["notifications-retry-interval", "notifications-lease-period", "notifications-lease-count"],
  ...["notifications-fetch-interval", "notifications-webhook-endpoint", "notifications-inbox-enabled"],
  ...["email-from", "email-smarthost", "email-hello", "email-auth-username", "email-auth-password"],
  ...["email-auth-identity", "email-force-tls", "email-tls-starttls", "email-tls-server-name", "email-tls-skip-verify"],
  ...["email-tls-ca-cert-file", "email-tls-cert-file", "email-tls-cert-key-file"],
  ...["oauth2-github-client-id", "oauth2-github-client-secret", "oauth2-github-allowed-orgs"],
  ...["oauth2-github-allowed-teams", "oauth2-github-allow-signups", "oauth2-github-allow-everyone"],
  ...["oauth2-github-enterprise-base-url", "oauth2-github-device-flow"],
  ...["oidc-issuer-url", "oidc-client-id", "oidc-client-secret", "oidc-allow-signups", "oidc-email-domain"],
  ...[
    "oidc-scopes",
    "oidc-sign-in-text",
    "oidc-icon-url",
    "oidc-email-field",
    "oidc-username-field",
    "oidc-name-field"
  ],
  ...["oidc-ignore-email-verified", "oidc-ignore-userinfo", "oidc-signups-disabled-text", "oidc-group-field"],
  ...["oidc-group-mapping", "oidc-group-auto-create", "oidc-group-regex-filter", "oidc-user-role-field"],
  ...["oidc-user-role-mapping", "oidc-user-role-default", "license-public-key", "support-links"],
  ...["proxy-health-interval", "proxy-trusted-headers", "proxy-trusted-origins", "api-rate-limit"],
  ...["dangerous-disable-rate-limits", "external-token-encryption-keys", "prometheus-enable", "prometheus-address"],
  "external-auth-providers"
]

/** Every flag the server takes, in `--help` order: its own and the settings'. Drives parsing and `--help`. */
export const options: ReadonlyArray<ServerOption> = (() => {
  const all = [...processOptions, ...settingOptions]
  const rank = (o: ServerOption) => {
    const i = helpOrder.indexOf(o.flag)
    return i === -1 ? helpOrder.length + all.indexOf(o) : i
  }
  return all.sort((a, b) => rank(a) - rank(b))
})()

/** The settings the server gives its own fields (ServerConfig) rather than `settings`. */
const typedSettings: ReadonlySet<SettingKey> = new Set<SettingKey>([
  "pgConnectionUrl",
  "accessUrl",
  "swaggerEnable",
  "experiments",
  "provisionerDaemons",
  "retentionAuditLogs",
  "retentionConnectionLogs",
  "retentionApiKeys",
  "retentionWorkspaceAgentLogs",
  "disableWorkspaceSharing",
  "disablePathApps",
  "dangerousAllowPathAppSharing",
  "dangerousAllowPathAppSiteOwnerAccess",
  "awsInstanceIdentityCertificates",
  "azureInstanceIdentityCertificates",
  "googleInstanceIdentityKeys",
  "externalAuth"
])

const declarations: ReadonlyMap<SettingKey, Setting<unknown>> = new Map(settingsList)

export const helpText = () =>
  [
    "Usage: npm start -- [flags]   (or: node packages/server/dist/main.mjs [flags])",
    "       npm start -- dbcrypt <rotate|decrypt|delete> [flags]   (the keys of values encrypted at rest; dbcrypt --help)",
    "",
    "Serves the Workbay API (/api/v2). Every flag can also be set by its environment variable.",
    "",
    ...options.map((o) =>
      `  --${o.flag.padEnd(16)} ${o.env.padEnd(24)} ${o.help}${o.default ? ` Default: ${o.default}.` : ""}`
    ),
    "  --help                                            Show this help."
  ].join("\n")

/** Reads flags from `argv` and the environment from `env`. Throws on unknown flags or a bad port. */
export const loadConfig = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): ServerConfig => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ...Object.fromEntries(options.map((o) => [o.flag, { type: "string" as const }])),
      help: { type: "boolean" as const }
    },
    strict: true,
    allowPositionals: false
  })
  const flagged = values as Record<string, string | boolean | undefined>
  const optionOf = (flag: string) => options.find((x) => x.flag === flag)!
  /** The trimmed text a flag (else its variable) gives, with where it came from; undefined when neither is set. */
  const given = (flag: string): GivenSetting<string> | undefined => {
    const fromFlag = flagged[flag] as string | undefined
    const text = (fromFlag ?? env[optionOf(flag).env])?.trim()
    return text === undefined || text === ""
      ? undefined
      : { value: text, source: fromFlag !== undefined ? "flag" : "env" }
  }
  /** The text of a flag, else its variable (untrimmed, empty kept), else the flag's default. */
  const get = (flag: string, fallback = optionOf(flag).default): string =>
    (flagged[flag] as string | undefined) ?? env[optionOf(flag).env] ?? fallback
  /** A setting given by flag or variable, read as its kind reads it; undefined when neither is set. */
  const settingOf = <A>(key: SettingKey): GivenSetting<A> | undefined => {
    const s = declarations.get(key)!
    const g = given(s.flag!)
    return g === undefined ? undefined : { value: s.type.parse(s.flag!, g.value) as A, source: g.source }
  }
  /** The text of the file a flag or variable names; undefined when neither is set. */
  const fileOf = (key: SettingKey): GivenSetting<string> | undefined => {
    const flag = declarations.get(key)!.flag!
    const g = given(flag)
    if (g === undefined) return undefined
    try {
      return { value: readFileSync(g.value, "utf8"), source: g.source }
    } catch (e) {
      throw new Error(`Cannot read --${flag} file "${g.value}": ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  /** A duration flag of the background work; undefined when unset and without default. */
  const durationOf = (
    flag:
      | "shutdown-timeout"
      | "provisioner-hang-detector-interval"
      | "provisioner-hang-timeout"
      | "provisioner-host-wait"
  ) => {
    const text = get(flag).trim()
    return text === "" ? undefined : SettingTypes.duration().parse(flag, text)
  }
  const port = Number(get("port"))
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port "${get("port")}".`)
  // The server's own default (the deployment config reports the setting's).
  const daemonsText = get("provisioner-daemons", "2")
  const provisionerDaemons = Number(daemonsText)
  if (!Number.isInteger(provisionerDaemons) || provisionerDaemons < 0 || provisionerDaemons > 64) {
    throw new Error(`Invalid --provisioner-daemons "${daemonsText}" (a whole number from 0 to 64).`)
  }
  const dataDir = resolve(get("data-dir"))
  const sqliteLocking = get("sqlite-locking").trim().toLowerCase()
  if (sqliteLocking !== "exclusive" && sqliteLocking !== "normal") {
    throw new Error(`Invalid --sqlite-locking "${get("sqlite-locking")}" (exclusive or normal).`)
  }
  const streamRelay = get("stream-relay").trim().toLowerCase()
  if (streamRelay !== "process" && streamRelay !== "inline") {
    throw new Error(`Invalid --stream-relay "${get("stream-relay")}" (process or inline).`)
  }
  const relayMapPath = get("derp-config-path")
  const autobuildText = get("autobuild-poll-interval").trim()
  const autobuildPollInterval = autobuildText === ""
    ? undefined
    : SettingTypes.duration("30s, 1m", true).parse("autobuild-poll-interval", autobuildText)
  const logLevel = get("log-level").trim().toLowerCase()
  if (!["trace", "debug", "info", "warning", "warn", "error", "fatal", "none"].includes(logLevel)) {
    throw new Error(`Invalid --log-level "${get("log-level")}" (debug, info, warning, error or none).`)
  }
  const logFormat = get("log-format").trim().toLowerCase()
  if (logFormat !== "human" && logFormat !== "json") {
    throw new Error(`Invalid --log-format "${get("log-format")}" (human or json).`)
  }
  const settings: Record<string, GivenSetting<unknown>> = Object.fromEntries(settingOptions.flatMap((o) => {
    if (typedSettings.has(o.setting!)) return []
    const g = settingOf(o.setting!)
    return g === undefined ? [] : [[o.setting!, g]]
  }))
  const prometheusEnable = settings.prometheusEnable as GivenSetting<boolean> | undefined
  const prometheusAddress = settings.prometheusAddress as GivenSetting<string> | undefined
  const traceEnable = settings.traceEnable as GivenSetting<boolean> | undefined
  return {
    port,
    host: get("host") || undefined,
    dataDir,
    sqliteLocking,
    streamRelay,
    databaseUrl: get("database-url") || undefined,
    accessUrl: get("access-url") || `http://localhost:${port}`,
    sessionHeader: get("session-header"),
    sessionCookie: get("session-cookie"),
    swaggerEnable: SettingTypes.truthy(get("swagger-enable")),
    experiments: get("experiments").split(",").map((s) => s.trim()).filter((s) => s !== ""),
    logLevel,
    logFormat,
    shutdownTimeout: durationOf("shutdown-timeout") ?? Duration.seconds(30),
    hangDetector: {
      interval: durationOf("provisioner-hang-detector-interval"),
      timeout: durationOf("provisioner-hang-timeout"),
      hostWait: durationOf("provisioner-host-wait")
    },
    help: values.help === true,
    provisionerDaemons,
    autobuildPollInterval,
    retention: {
      auditLogs: settingOf("retentionAuditLogs"),
      connectionLogs: settingOf("retentionConnectionLogs"),
      apiKeys: settingOf("retentionApiKeys"),
      workspaceAgentLogs: settingOf("retentionWorkspaceAgentLogs")
    },
    disableWorkspaceSharing: settingOf("disableWorkspaceSharing"),
    prometheus: {
      enable: prometheusEnable,
      address: prometheusAddress &&
        { value: parseHostPort(prometheusAddress.value, "prometheus-address"), source: prometheusAddress.source }
    },
    pathApps: {
      disable: settingOf("disablePathApps"),
      allowSharing: settingOf("dangerousAllowPathAppSharing"),
      allowSiteOwnerAccess: settingOf("dangerousAllowPathAppSiteOwnerAccess")
    },
    relayMap: relayMapPath === "" ? undefined : readRelayMap(relayMapPath),
    instanceIdentity: {
      aws: fileOf("awsInstanceIdentityCertificates"),
      azure: fileOf("azureInstanceIdentityCertificates"),
      google: fileOf("googleInstanceIdentityKeys")
    },
    agentCommand: get("agent-command") || undefined,
    agentBinaries: get("agent-binaries") || undefined,
    cliBinaries: get("cli-binaries") || undefined,
    externalAuth: externalAuthOf(flagged["external-auth-providers"] as string | undefined, env, port),
    settings,
    trace: traceEnable?.value === true ? traceExportOf(env) : undefined
  }
}

/**
 * The external auth providers given by `--external-auth-providers` (JSON), its variable, or the
 * numbered variables; checked as the service checks them (with a placeholder access URL).
 */
const externalAuthOf = (
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  port: number
): GivenSetting<ReadonlyArray<ExternalAuthConfig>> | undefined => {
  const json = flag ?? env.WORKBAY_EXTERNAL_AUTH_PROVIDERS
  const configs = json !== undefined && json.trim() !== ""
    ? SettingTypes.providers.parse("external-auth-providers", json)
    : externalAuthFromEnv(env)
  if (configs.length === 0) return undefined
  const checked = resolveProviders(configs, `http://localhost:${port}`)
  if (Either.isLeft(checked)) throw new Error(`Invalid external auth providers: ${checked.left.join(" ")}`)
  return { value: configs, source: flag !== undefined ? "flag" : "env" }
}

/** The relay map in the JSON file at `path`; throws with the problems when it is not one. */
const readRelayMap = (path: string): DerpMap => {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, "utf8"))
  } catch (e) {
    throw new Error(`Cannot read the relay map --derp-config-path "${path}": ${(e as Error).message}`)
  }
  const checked = checkRelayMap(json)
  if (Either.isLeft(checked)) throw new Error(`Invalid relay map in "${path}": ${checked.left.join(" ")}`)
  return checked.right.map
}

export const sqlitePath = (config: ServerConfig) => join(config.dataDir, "workbay.db")

/**
 * The command the credentials route answers: the configured one, else this installation's own
 * agent (its bundle beside the server's, or in the working folder's checkout or node_modules), else
 * undefined (the service's default, the reference agent from the npm registry).
 */
export const agentCommandOf = (config: ServerConfig, entry = process.argv[1]): string | undefined => {
  if (config.agentCommand !== undefined) return config.agentCommand
  const candidates = [
    ...(entry === undefined ? [] : [resolve(dirname(entry), "../../agent")]),
    resolve("packages/agent"),
    resolve("node_modules/@workbay/agent")
  ]
  const found = candidates.find((dir) => existsSync(join(dir, "dist", "workbay-agent.mjs")))
  return found === undefined ? undefined : `${process.execPath} ${join(found, "bin", "workbay-agent.mjs")}`
}

/**
 * The folder of the agent's executables served at `/bin/` (scripts/executables.mjs builds them
 * into packages/agent/dist/bin): beside the server's bundle in this checkout, or in the working
 * folder's checkout or node_modules; undefined when none was built (then `/bin/` serves none).
 */
export const agentBinariesOf = (config: ServerConfig, entry = process.argv[1]): string | undefined =>
  config.agentBinaries ?? builtFolder("agent", entry)

/** The folder of the command line's executables served at `/bin/` (packages/cli/dist/bin), found the same way. */
export const cliBinariesOf = (config: ServerConfig, entry = process.argv[1]): string | undefined =>
  config.cliBinaries ?? builtFolder("cli", entry)

/** A package's `dist/bin` holding a `manifest.json`: beside the server's bundle, in the working folder's checkout, or in node_modules. */
const builtFolder = (pkg: "agent" | "cli", entry: string | undefined): string | undefined => {
  const candidates = [
    ...(entry === undefined ? [] : [resolve(dirname(entry), `../../${pkg}/dist/bin`)]),
    resolve(`packages/${pkg}/dist/bin`),
    resolve(`node_modules/@workbay/${pkg}/dist/bin`)
  ]
  return candidates.find((dir) => existsSync(join(dir, "manifest.json")))
}

/**
 * The socket relay the server starts (`--stream-relay process`, docs/agents.md "The socket relay"):
 * its bundle beside the server's (scripts/build.mjs, and the tests' bundles), else its TypeScript
 * source when the server runs from source; undefined when inline, or when neither is there (then
 * the streams are joined in the server's process).
 */
export const streamRelayOf = (
  config: ServerConfig,
  entry = process.argv[1]
): { readonly script: string; readonly execArgv?: ReadonlyArray<string> } | undefined => {
  if (config.streamRelay === "inline" || entry === undefined) return undefined
  const bundled = join(dirname(entry), "socket-relay.cjs")
  if (existsSync(bundled)) return { script: bundled }
  const source = resolve(dirname(entry), "../../http/src/SocketRelayMain.ts")
  return entry.endsWith(".ts") && existsSync(source) ? { script: source, execArgv: ["--import", "tsx"] } : undefined
}

/**
 * The built dashboard served at `/` (packages/dashboard/dist, which scripts/build.mjs builds):
 * beside the server's bundle in this checkout, or in the working folder's checkout or
 * node_modules; undefined when none was built (then the server serves the API only).
 */
export const dashboardDirOf = (entry = process.argv[1]): string | undefined => {
  const candidates = [
    ...(entry === undefined ? [] : [resolve(dirname(entry), "../../dashboard/dist")]),
    resolve("packages/dashboard/dist"),
    resolve("node_modules/@workbay/dashboard/dist")
  ]
  return candidates.find((dir) => existsSync(join(dir, "index.html")))
}

/** A connection URL with its password replaced, for logs. */
export const redactUrl = (url: string) => url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1****@")
