/** Server configuration from flags and environment variables (flags win). */
import {
  checkRelayMap,
  type DerpMap,
  type ExternalAuthConfig,
  externalAuthFromEnv,
  resolveProviders
} from "@workbay/core"
import { Duration, Either } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { parseArgs } from "node:util"

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
  /** The provisioner jobs' hang detector: sweep interval and timeout (absent: the defaults, 1m and 5m). */
  readonly hangDetector: {
    readonly interval?: Duration.Duration | undefined
    readonly timeout?: Duration.Duration | undefined
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
}

/**
 * How a deployment setting's flag value is read: text, a switch, a comma-separated list, a JSON
 * object, a duration (`30s`, `5m`, `1h30m`), a whole number of at least 1 (count) or of any sign (int), an http(s) URL, the
 * notification method, a JSON list of links (`[{"name","target","icon"}]`), or a listener's `host:port` (address).
 */
type SettingFlagKind =
  | "string"
  | "bool"
  | "strings"
  | "json"
  | "duration"
  | "count"
  | "int"
  | "url"
  | "method"
  | "links"
  | "address"

/** A deployment setting given by flag or environment (the described system's flag names). */
interface SettingFlag {
  readonly flag: string
  /** The variable; default `WORKBAY_<FLAG>`. */
  readonly env?: string
  readonly setting: string
  readonly kind: SettingFlagKind
  readonly help: string
}

/**
 * The deployment settings the server takes by flag or variable, by area; unset ones keep the
 * deployment defaults. Each reaches makeWorkbay's settings with its source, which
 * `/deployment/config` reports.
 */
export const settingFlags: ReadonlyArray<SettingFlag> = [
  // Notifications (docs/notifications.md)
  {
    flag: "notifications-method",
    setting: "notificationsMethod",
    kind: "method",
    help: "Default delivery method of notifications: smtp or webhook (inbox messages go out beside it). Default: smtp."
  },
  {
    flag: "notifications-dispatch-timeout",
    setting: "notificationsDispatchTimeout",
    kind: "duration",
    help: "How long one send may take. Default: 1m."
  },
  {
    flag: "notifications-max-send-attempts",
    setting: "notificationsMaxSendAttempts",
    kind: "count",
    help: "Attempts before a notification fails for good. Default: 5."
  },
  {
    flag: "notifications-retry-interval",
    setting: "notificationsRetryInterval",
    kind: "duration",
    help: "Time between attempts. Default: 5m."
  },
  {
    flag: "notifications-lease-period",
    setting: "notificationsLeasePeriod",
    kind: "duration",
    help: "How long a notifier holds the messages it leased. Default: 2m."
  },
  {
    flag: "notifications-lease-count",
    setting: "notificationsLeaseCount",
    kind: "count",
    help: "Messages leased per fetch. Default: 20."
  },
  {
    flag: "notifications-fetch-interval",
    setting: "notificationsFetchInterval",
    kind: "duration",
    help: "Time between fetches of queued notifications. Default: 15s."
  },
  {
    flag: "notifications-webhook-endpoint",
    setting: "notificationsWebhookEndpoint",
    kind: "url",
    help: "URL the webhook method POSTs to. Default: none (webhook off)."
  },
  {
    flag: "notifications-inbox-enabled",
    setting: "notificationsInboxEnabled",
    kind: "bool",
    help: "Deliver notifications to the users' inbox too. Default: true."
  },
  { flag: "email-from", setting: "emailFrom", kind: "string", help: "Sender address of notification mail." },
  {
    flag: "email-smarthost",
    setting: "emailSmarthost",
    kind: "string",
    help: "host:port of the SMTP server mail goes through. Default: none (mail off)."
  },
  {
    flag: "email-hello",
    setting: "emailHello",
    kind: "string",
    help: "Hostname given to the SMTP server (EHLO). Default: localhost."
  },
  {
    flag: "email-auth-username",
    setting: "emailAuthUsername",
    kind: "string",
    help: "Username for PLAIN/LOGIN authentication."
  },
  {
    flag: "email-auth-password",
    setting: "emailAuthPassword",
    kind: "string",
    help: "Password for PLAIN/LOGIN authentication."
  },
  {
    flag: "email-auth-identity",
    setting: "emailAuthIdentity",
    kind: "string",
    help: "Identity for PLAIN authentication."
  },
  {
    flag: "email-force-tls",
    setting: "emailForceTls",
    kind: "bool",
    help: "Connect to the smarthost over TLS from the start. Default: false."
  },
  {
    flag: "email-tls-starttls",
    setting: "emailTlsStartTls",
    kind: "bool",
    help: "Require STARTTLS. Default: false (used when offered)."
  },
  {
    flag: "email-tls-server-name",
    env: "WORKBAY_EMAIL_TLS_SERVERNAME",
    setting: "emailTlsServerName",
    kind: "string",
    help: "Server name to verify the smarthost's certificate against."
  },
  {
    flag: "email-tls-skip-verify",
    env: "WORKBAY_EMAIL_TLS_SKIPVERIFY",
    setting: "emailTlsInsecureSkipVerify",
    kind: "bool",
    help: "Do not verify the smarthost's certificate (insecure). Default: false."
  },
  {
    flag: "email-tls-ca-cert-file",
    env: "WORKBAY_EMAIL_TLS_CACERTFILE",
    setting: "emailTlsCaFile",
    kind: "string",
    help: "CA certificate file for the smarthost's TLS."
  },
  {
    flag: "email-tls-cert-file",
    env: "WORKBAY_EMAIL_TLS_CERTFILE",
    setting: "emailTlsCertFile",
    kind: "string",
    help: "Client certificate file for the smarthost's TLS."
  },
  {
    flag: "email-tls-cert-key-file",
    env: "WORKBAY_EMAIL_TLS_CERTKEYFILE",
    setting: "emailTlsKeyFile",
    kind: "string",
    help: "Client certificate key file for the smarthost's TLS."
  },
  // Sign-in (docs/sign-in.md)
  {
    flag: "oauth2-github-client-id",
    setting: "oauth2GithubClientId",
    kind: "string",
    help: "Client id of the GitHub OAuth app for sign-in."
  },
  {
    flag: "oauth2-github-client-secret",
    setting: "oauth2GithubClientSecret",
    kind: "string",
    help: "Client secret of the GitHub OAuth app (secret)."
  },
  {
    flag: "oauth2-github-allowed-orgs",
    setting: "oauth2GithubAllowedOrgs",
    kind: "strings",
    help: "GitHub organizations whose members may sign in (comma-separated)."
  },
  {
    flag: "oauth2-github-allowed-teams",
    setting: "oauth2GithubAllowedTeams",
    kind: "strings",
    help: "Teams (<org>/<team-slug>) whose members may sign in (comma-separated)."
  },
  {
    flag: "oauth2-github-allow-signups",
    setting: "oauth2GithubAllowSignups",
    kind: "bool",
    help: "Create users on their first GitHub sign-in. Default: false."
  },
  {
    flag: "oauth2-github-allow-everyone",
    setting: "oauth2GithubAllowEveryone",
    kind: "bool",
    help: "Let any GitHub user sign in (no organization check). Default: false."
  },
  {
    flag: "oauth2-github-enterprise-base-url",
    setting: "oauth2GithubEnterpriseBaseUrl",
    kind: "string",
    help: "Base URL of a GitHub Enterprise server. Default: github.com."
  },
  {
    flag: "oauth2-github-device-flow",
    setting: "oauth2GithubDeviceFlow",
    kind: "bool",
    help: "Sign in through GitHub's device flow. Default: false."
  },
  {
    flag: "oidc-issuer-url",
    setting: "oidcIssuerUrl",
    kind: "string",
    help: "Issuer URL of the OpenID provider (discovery)."
  },
  { flag: "oidc-client-id", setting: "oidcClientId", kind: "string", help: "Client id at the OpenID provider." },
  {
    flag: "oidc-client-secret",
    setting: "oidcClientSecret",
    kind: "string",
    help: "Client secret at the OpenID provider (secret)."
  },
  {
    flag: "oidc-allow-signups",
    setting: "oidcAllowSignups",
    kind: "bool",
    help: "Create users on their first OIDC sign-in. Default: true."
  },
  {
    flag: "oidc-email-domain",
    setting: "oidcEmailDomain",
    kind: "strings",
    help: "Email domains allowed to sign in (comma-separated). Default: any."
  },
  {
    flag: "oidc-scopes",
    setting: "oidcScopes",
    kind: "strings",
    help: "Scopes asked for. Default: openid,profile,email."
  },
  { flag: "oidc-sign-in-text", setting: "oidcSignInText", kind: "string", help: "Text of the sign-in button." },
  { flag: "oidc-icon-url", setting: "oidcIconUrl", kind: "string", help: "Icon of the sign-in button." },
  {
    flag: "oidc-email-field",
    setting: "oidcEmailField",
    kind: "string",
    help: "Claim holding the email. Default: email."
  },
  {
    flag: "oidc-username-field",
    setting: "oidcUsernameField",
    kind: "string",
    help: "Claim holding the username. Default: preferred_username."
  },
  { flag: "oidc-name-field", setting: "oidcNameField", kind: "string", help: "Claim holding the name. Default: name." },
  {
    flag: "oidc-ignore-email-verified",
    setting: "oidcIgnoreEmailVerified",
    kind: "bool",
    help: "Sign in even when email_verified is false. Default: false."
  },
  {
    flag: "oidc-ignore-userinfo",
    setting: "oidcIgnoreUserInfo",
    kind: "bool",
    help: "Use the ID token's claims only. Default: false."
  },
  {
    flag: "oidc-signups-disabled-text",
    setting: "oidcSignupsDisabledText",
    kind: "string",
    help: "Shown when signups are off."
  },
  {
    flag: "oidc-group-field",
    setting: "oidcGroupField",
    kind: "string",
    help: "Claim holding the user's groups (turns group sync on)."
  },
  {
    flag: "oidc-group-mapping",
    setting: "oidcGroupMapping",
    kind: "json",
    help: "JSON map of claim values to group names."
  },
  {
    flag: "oidc-group-auto-create",
    setting: "oidcGroupAutoCreate",
    kind: "bool",
    help: "Create groups the claim names. Default: false."
  },
  {
    flag: "oidc-group-regex-filter",
    setting: "oidcGroupRegexFilter",
    kind: "string",
    help: "Only claim values matching this expression are synced. Default: .*"
  },
  {
    flag: "oidc-user-role-field",
    setting: "oidcUserRoleField",
    kind: "string",
    help: "Claim holding the user's roles (turns role sync on)."
  },
  {
    flag: "oidc-user-role-mapping",
    setting: "oidcUserRoleMapping",
    kind: "json",
    help: "JSON map of claim values to lists of site roles."
  },
  {
    flag: "oidc-user-role-default",
    setting: "oidcUserRolesDefault",
    kind: "strings",
    help: "Site roles every user gets from role sync (comma-separated)."
  },
  // Licenses, appearance and workspace proxies (docs/enterprise.md, docs/workspace-proxies.md)
  {
    flag: "license-public-key",
    setting: "licensePublicKey",
    kind: "string",
    help:
      "Ed25519 public key (PEM, or a JWK as JSON) licenses are verified with. Default: none (no licenses; every feature entitled)."
  },
  {
    flag: "support-links",
    setting: "supportLinks",
    kind: "links",
    help:
      "Links of the dashboard's help menu, a JSON list of {\"name\", \"target\", \"icon\"} (icon: bug, chat, docs or star, or an image URL; \"location\": navbar or dropdown). Default: the built-in ones."
  },
  {
    flag: "proxy-health-interval",
    setting: "proxyHealthStatusInterval",
    kind: "duration",
    help: "Time between health checks of workspace proxies. Default: 1m."
  },
  // Behind a load balancer (docs/operations.md, "Behind a load balancer")
  {
    flag: "proxy-trusted-headers",
    setting: "proxyTrustedHeaders",
    kind: "strings",
    help:
      "Headers a trusted proxy names the client's address in, tried in order (comma-separated), e.g. X-Forwarded-For,CF-Connecting-IP. Default: none."
  },
  {
    flag: "proxy-trusted-origins",
    setting: "proxyTrustedOrigins",
    kind: "strings",
    help:
      "CIDRs of the proxies whose --proxy-trusted-headers are believed (comma-separated), e.g. 10.0.0.0/8,fd00::/8. Default: none (the socket's address is the client's)."
  },
  // Rate limits (docs/configuration.md, "Rate limits")
  {
    flag: "api-rate-limit",
    setting: "rateLimitApi",
    kind: "int",
    help:
      "Requests per minute per user (per IP address when anonymous) on each API operation; 0 or less: no limit. Counted per replica. Default: 512."
  },
  {
    flag: "dangerous-disable-rate-limits",
    setting: "rateLimitDisableAll",
    kind: "bool",
    help: "Turn every rate limit off (the API's, sign-in's and files'). Not for production. Default: false."
  },
  // Metrics (docs/operations.md, "Metrics"); the server also listens on the address when enabled
  {
    flag: "prometheus-enable",
    setting: "prometheusEnable",
    kind: "bool",
    help: "Serve Prometheus metrics (GET /metrics) on --prometheus-address. Default: false."
  },
  {
    flag: "prometheus-address",
    setting: "prometheusAddress",
    kind: "address",
    help: "host:port of the Prometheus metrics listener (port 0: any free port). Default: 127.0.0.1:2112."
  }
]

const settingEnv = (f: SettingFlag) => f.env ?? `WORKBAY_${f.flag.toUpperCase().replace(/-/g, "_")}`

function settingOptions() {
  return settingFlags.map((f) => ({ flag: f.flag, env: settingEnv(f), default: "", help: f.help }))
}

/** Every option: flag, environment variable, default and meaning. Drives parsing and `--help`. */
export const options = [
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
    flag: "database-url",
    env: "DATABASE_URL",
    default: "",
    help: "postgres://... to store in PostgreSQL instead of SQLite."
  },
  {
    flag: "access-url",
    env: "WORKBAY_ACCESS_URL",
    default: "",
    help: "Public URL of the deployment (default http://localhost:PORT)."
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
    flag: "swagger-enable",
    env: "WORKBAY_SWAGGER_ENABLE",
    default: "false",
    help: "Serve the OpenAPI document at /swagger/doc.json."
  },
  {
    flag: "experiments",
    env: "WORKBAY_EXPERIMENTS",
    default: "",
    help: "Comma-separated experiments to enable ('*' for all)."
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
    flag: "provisioner-daemons",
    env: "WORKBAY_PROVISIONER_DAEMONS",
    default: "2",
    help: "Built-in provisioner workers in this process (0: none, e.g. API-only replicas)."
  },
  {
    flag: "autobuild-poll-interval",
    env: "WORKBAY_AUTOBUILD_POLL_INTERVAL",
    default: "",
    help:
      "Time between ticks of the workspace lifecycle executor (autostart, autostop, dormancy; e.g. 30s, 1m). One replica ticks at a time. Default: 1m."
  },
  {
    flag: "audit-logs-retention",
    env: "WORKBAY_AUDIT_LOGS_RETENTION",
    default: "",
    help: "How long audit entries are kept (e.g. 90d, 720h; 0 keeps forever). Default: forever."
  },
  {
    flag: "connection-logs-retention",
    env: "WORKBAY_CONNECTION_LOGS_RETENTION",
    default: "",
    help: "How long connection log entries are kept (0 keeps forever). Default: forever."
  },
  {
    flag: "api-keys-retention",
    env: "WORKBAY_API_KEYS_RETENTION",
    default: "",
    help: "How long expired API keys are kept before deletion (0 keeps forever). Default: 7d."
  },
  {
    flag: "workspace-agent-logs-retention",
    env: "WORKBAY_WORKSPACE_AGENT_LOGS_RETENTION",
    default: "",
    help: "How long workspace agent log lines are kept (0 keeps forever). Default: 7d."
  },
  {
    flag: "disable-path-apps",
    env: "WORKBAY_DISABLE_PATH_APPS",
    default: "false",
    help: "Refuse every path-based workspace app (/@owner/workspace/apps/...) with 403."
  },
  {
    flag: "dangerous-allow-path-app-sharing",
    env: "WORKBAY_DANGEROUS_ALLOW_PATH_APP_SHARING",
    default: "false",
    help:
      "Let path-based apps honour their sharing_level (off: only the workspace's owner opens them). Shared path apps can call the API as their visitors."
  },
  {
    flag: "dangerous-allow-path-app-site-owner-access",
    env: "WORKBAY_DANGEROUS_ALLOW_PATH_APP_SITE_OWNER_ACCESS",
    default: "false",
    help: "Let site owners open other users' owner-level path-based apps."
  },
  {
    flag: "derp-config-path",
    env: "WORKBAY_DERP_CONFIG_PATH",
    default: "",
    help: "A JSON file with the relay (DERP) map clients and agents use. Default: the embedded relay at the access URL."
  },
  {
    flag: "disable-workspace-sharing",
    env: "WORKBAY_DISABLE_WORKSPACE_SHARING",
    default: "false",
    help: "Turn workspace sharing off: workspace access lists grant nothing and cannot be changed."
  },
  {
    flag: "aws-instance-identity-certificates",
    env: "WORKBAY_AWS_INSTANCE_IDENTITY_CERTIFICATES",
    default: "",
    help:
      "File of PEM certificates of the AWS regions whose signed instance identity documents agents may exchange for their token. Default: none (refused)."
  },
  {
    flag: "azure-instance-identity-certificates",
    env: "WORKBAY_AZURE_INSTANCE_IDENTITY_CERTIFICATES",
    default: "",
    help: "File of PEM certificates (roots) an Azure attested document's signer must chain to. Default: none (refused)."
  },
  {
    flag: "google-instance-identity-keys",
    env: "WORKBAY_GOOGLE_INSTANCE_IDENTITY_KEYS",
    default: "",
    help:
      "File of Google's identity token keys (JWKS JSON, a JSON map of key ids to PEM certificates, or PEM). Default: none (refused)."
  },
  {
    flag: "agent-command",
    env: "WORKBAY_AGENT_COMMAND",
    default: "",
    help:
      "The command external agent credentials name (default: this installation's agent bundle, node .../packages/agent/bin/workbay-agent.mjs; else npx -y @workbay/agent)."
  },
  ...settingOptions(),
  {
    flag: "external-auth-providers",
    env: "WORKBAY_EXTERNAL_AUTH_PROVIDERS",
    default: "",
    help:
      "External auth providers as a JSON list of {type, id, client_id, client_secret, ...}. Or WORKBAY_EXTERNAL_AUTH_<n>_<FIELD> variables (TYPE, ID, CLIENT_ID, CLIENT_SECRET, AUTH_URL, TOKEN_URL, VALIDATE_URL, REGEX, SCOPES, DEVICE_FLOW, ...)."
  }
] as const

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** Parses `0`, or one or more `<number><unit>` parts (`ms`, `s`, `m`, `h`, `d`): `30d`, `1h30m`. */
export const parseDuration = (text: string): Duration.Duration | undefined => {
  const t = text.trim()
  if (/^0+$/.test(t)) return Duration.zero
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(t)) return undefined
  let ms = 0
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) ms += Number(n) * durationUnits[unit!]!
  return Duration.millis(ms)
}

/**
 * The duration a flag gives, or an error naming the flag with examples (`hint`); `positive`
 * refuses zero. Every duration flag goes through it.
 */
const durationFlag = (flag: string, text: string, hint = "30s, 5m, 1h", positive = false): Duration.Duration => {
  const value = parseDuration(text)
  if (value === undefined || (positive && Duration.toMillis(value) <= 0)) {
    throw new Error(`Invalid duration "${text}" for --${flag} (use e.g. ${hint}).`)
  }
  return value
}

export const helpText = () =>
  [
    "Usage: npm start -- [flags]   (or: node packages/server/dist/main.mjs [flags])",
    "",
    "Serves the Workbay API (/api/v2). Every flag can also be set by its environment variable.",
    "",
    ...options.map((o) =>
      `  --${o.flag.padEnd(16)} ${o.env.padEnd(24)} ${o.help}${o.default ? ` Default: ${o.default}.` : ""}`
    ),
    "  --help                                            Show this help."
  ].join("\n")

/** `host:port` (IPv6 in brackets: `[::1]:2112`; an empty host: all interfaces). */
export const parseHostPort = (text: string, flag: string): { host: string; port: number; text: string } => {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]]*)):(\d{1,5})$/.exec(text)
  const port = m === null ? NaN : Number(m[3])
  if (m === null || !Number.isInteger(port) || port > 65535) {
    throw new Error(`Invalid --${flag} "${text}" (host:port, e.g. 127.0.0.1:2112 or [::1]:2112).`)
  }
  return { host: m[1] ?? m[2] ?? "", port, text }
}

const truthy = (s: string) => ["1", "true", "yes", "on"].includes(s.toLowerCase())
const falsy = (s: string) => ["0", "false", "no", "off"].includes(s.toLowerCase())
/** A switch's value, or an error naming the flag. */
const parseBool = (flag: string, text: string): boolean => {
  if (!truthy(text) && !falsy(text)) throw new Error(`Invalid value "${text}" for --${flag} (use true or false).`)
  return truthy(text)
}

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
  type Flag = (typeof options)[number]["flag"]
  const flagged = values as Record<string, string | boolean | undefined>
  /** The trimmed text a flag (else its variable) gives, with where it came from; undefined when neither is set. */
  const givenText = (flag: string, envName: string): GivenSetting<string> | undefined => {
    const fromFlag = flagged[flag] as string | undefined
    const text = (fromFlag ?? env[envName])?.trim()
    return text === undefined || text === ""
      ? undefined
      : { value: text, source: fromFlag !== undefined ? "flag" : "env" }
  }
  const given = (flag: Flag) => givenText(flag, options.find((x) => x.flag === flag)!.env)
  const get = (flag: Flag): string => {
    const o = options.find((x) => x.flag === flag)!
    return (flagged[flag] as string | undefined) ?? env[o.env] ?? o.default
  }
  /** A retention flag or variable, parsed; undefined when neither is set. */
  const retentionOf = (
    flag: "audit-logs-retention" | "connection-logs-retention" | "api-keys-retention" | "workspace-agent-logs-retention"
  ): RetentionSetting | undefined => {
    const g = given(flag)
    return g === undefined
      ? undefined
      : { value: durationFlag(flag, g.value, "90d, 720h, 1h30m or 0"), source: g.source }
  }
  /** A switch given by flag or variable; undefined when neither is set. A value that is neither on nor off is refused. */
  const switchOf = (
    flag:
      | "disable-workspace-sharing"
      | "disable-path-apps"
      | "dangerous-allow-path-app-sharing"
      | "dangerous-allow-path-app-site-owner-access"
  ): GivenSetting<boolean> | undefined => {
    const g = given(flag)
    return g === undefined ? undefined : { value: parseBool(flag, g.value), source: g.source }
  }
  /** The text of the file a flag or variable names; undefined when neither is set. */
  const fileOf = (
    flag:
      | "aws-instance-identity-certificates"
      | "azure-instance-identity-certificates"
      | "google-instance-identity-keys"
  ): GivenSetting<string> | undefined => {
    const g = given(flag)
    if (g === undefined) return undefined
    try {
      return { value: readFileSync(g.value, "utf8"), source: g.source }
    } catch (e) {
      throw new Error(`Cannot read --${flag} file "${g.value}": ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  /** A duration flag of the background work; undefined when unset and without default. */
  const durationOf = (flag: "shutdown-timeout" | "provisioner-hang-detector-interval" | "provisioner-hang-timeout") => {
    const text = get(flag).trim()
    return text === "" ? undefined : durationFlag(flag, text)
  }
  const port = Number(get("port"))
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port "${get("port")}".`)
  const provisionerDaemons = Number(get("provisioner-daemons"))
  if (!Number.isInteger(provisionerDaemons) || provisionerDaemons < 0 || provisionerDaemons > 64) {
    throw new Error(`Invalid --provisioner-daemons "${get("provisioner-daemons")}" (a whole number from 0 to 64).`)
  }
  const dataDir = resolve(get("data-dir"))
  const sqliteLocking = get("sqlite-locking").trim().toLowerCase()
  if (sqliteLocking !== "exclusive" && sqliteLocking !== "normal") {
    throw new Error(`Invalid --sqlite-locking "${get("sqlite-locking")}" (exclusive or normal).`)
  }
  const relayMapPath = get("derp-config-path")
  const autobuildText = get("autobuild-poll-interval").trim()
  const autobuildPollInterval = autobuildText === ""
    ? undefined
    : durationFlag("autobuild-poll-interval", autobuildText, "30s, 1m", true)
  const logLevel = get("log-level").trim().toLowerCase()
  if (!["trace", "debug", "info", "warning", "warn", "error", "fatal", "none"].includes(logLevel)) {
    throw new Error(`Invalid --log-level "${get("log-level")}" (debug, info, warning, error or none).`)
  }
  const logFormat = get("log-format").trim().toLowerCase()
  if (logFormat !== "human" && logFormat !== "json") {
    throw new Error(`Invalid --log-format "${get("log-format")}" (human or json).`)
  }
  const settings: Record<string, GivenSetting<unknown>> = Object.fromEntries(settingFlags.flatMap((f) => {
    const g = givenText(f.flag, settingEnv(f))
    return g === undefined ? [] : [[f.setting, { value: parseSetting(f, g.value), source: g.source }]]
  }))
  const prometheusEnable = settings.prometheusEnable as GivenSetting<boolean> | undefined
  const prometheusAddress = settings.prometheusAddress as GivenSetting<string> | undefined
  return {
    port,
    host: get("host") || undefined,
    dataDir,
    sqliteLocking,
    databaseUrl: get("database-url") || undefined,
    accessUrl: get("access-url") || `http://localhost:${port}`,
    sessionHeader: get("session-header"),
    sessionCookie: get("session-cookie"),
    swaggerEnable: truthy(get("swagger-enable")),
    experiments: get("experiments").split(",").map((s) => s.trim()).filter((s) => s !== ""),
    logLevel,
    logFormat,
    shutdownTimeout: durationOf("shutdown-timeout") ?? Duration.seconds(30),
    hangDetector: {
      interval: durationOf("provisioner-hang-detector-interval"),
      timeout: durationOf("provisioner-hang-timeout")
    },
    help: values.help === true,
    provisionerDaemons,
    autobuildPollInterval,
    retention: {
      auditLogs: retentionOf("audit-logs-retention"),
      connectionLogs: retentionOf("connection-logs-retention"),
      apiKeys: retentionOf("api-keys-retention"),
      workspaceAgentLogs: retentionOf("workspace-agent-logs-retention")
    },
    disableWorkspaceSharing: switchOf("disable-workspace-sharing"),
    prometheus: {
      enable: prometheusEnable,
      address: prometheusAddress &&
        { value: parseHostPort(prometheusAddress.value, "prometheus-address"), source: prometheusAddress.source }
    },
    pathApps: {
      disable: switchOf("disable-path-apps"),
      allowSharing: switchOf("dangerous-allow-path-app-sharing"),
      allowSiteOwnerAccess: switchOf("dangerous-allow-path-app-site-owner-access")
    },
    relayMap: relayMapPath === "" ? undefined : readRelayMap(relayMapPath),
    instanceIdentity: {
      aws: fileOf("aws-instance-identity-certificates"),
      azure: fileOf("azure-instance-identity-certificates"),
      google: fileOf("google-instance-identity-keys")
    },
    agentCommand: get("agent-command") || undefined,
    externalAuth: externalAuthOf(flagged["external-auth-providers"] as string | undefined, env, port),
    settings
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
  let configs: ReadonlyArray<ExternalAuthConfig>
  if (json !== undefined && json.trim() !== "") {
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch (e) {
      throw new Error(`Invalid --external-auth-providers: not JSON (${(e as Error).message}).`)
    }
    if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === "object" && p !== null)) {
      throw new Error("Invalid --external-auth-providers: a JSON list of provider objects is expected.")
    }
    configs = parsed as ReadonlyArray<ExternalAuthConfig>
  } else configs = externalAuthFromEnv(env)
  if (configs.length === 0) return undefined
  const checked = resolveProviders(configs, `http://localhost:${port}`)
  if (Either.isLeft(checked)) throw new Error(`Invalid external auth providers: ${checked.left.join(" ")}`)
  return { value: configs, source: flag !== undefined ? "flag" : "env" }
}

/** The value of a setting flag, or an error naming the flag. */
const parseSetting = (f: SettingFlag, text: string): unknown => {
  switch (f.kind) {
    case "string":
      return text
    case "bool":
      return parseBool(f.flag, text)
    case "strings":
      return text.split(",").map((t) => t.trim()).filter((t) => t !== "")
    case "json": {
      const value = parseJson(f, text)
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new Error(`Invalid --${f.flag}: a JSON object is expected.`)
      }
      return value
    }
    case "links": {
      const value = parseJson(f, text)
      const isLink = (l: unknown) =>
        typeof l === "object" && l !== null && ["name", "target", "icon"].every((k) =>
          typeof (l as Record<string, unknown>)[k] === "string"
        ) &&
        ["navbar", "dropdown", undefined].includes((l as Record<string, unknown>).location as string | undefined)
      if (!Array.isArray(value) || !value.every(isLink)) {
        throw new Error(`Invalid --${f.flag}: a JSON list of {"name", "target", "icon"} objects is expected.`)
      }
      return value
    }
    case "method":
      if (text !== "smtp" && text !== "webhook" && text !== "inbox") {
        throw new Error(`Invalid --${f.flag} "${text}" (smtp, webhook or inbox).`)
      }
      return text
    case "duration":
      return durationFlag(f.flag, text)
    case "address":
      return parseHostPort(text, f.flag).text
    case "count": {
      const n = Number(text)
      if (!Number.isInteger(n) || n < 1) {
        throw new Error(`Invalid --${f.flag} "${text}" (a whole number of at least 1).`)
      }
      return n
    }
    case "int": {
      const n = Number(text)
      if (!Number.isSafeInteger(n)) throw new Error(`Invalid --${f.flag} "${text}" (a whole number).`)
      return n
    }
    case "url":
      if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
        throw new Error(`Invalid --${f.flag} "${text}" (an http or https URL).`)
      }
      return text
  }
}

const parseJson = (f: SettingFlag, text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`Invalid --${f.flag}: not JSON.`)
  }
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

/** A connection URL with its password replaced, for logs. */
export const redactUrl = (url: string) => url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1****@")
