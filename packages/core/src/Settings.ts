/**
 * Deployment settings that rules depend on. The server fills them from the
 * environment and flags; embedders pass them to `layer` or take the defaults.
 * Defaults follow Coder's where Coder has the setting. `GET /deployment/config`
 * reports every one of them (secret-bearing ones never with their value).
 */
import { Context, Duration, Layer } from "effect"
import type { DerpMap } from "./agents/RelayMap.js"
import type { ExternalAuthConfig } from "./externalauth/Provider.js"

/** Where a setting's value came from, as `GET /deployment/config` reports it. */
export type SettingSource = "flag" | "env" | "yaml" | "default"

export interface SettingsShape {
  // Networking
  /** The public URL of the deployment. */
  readonly accessUrl: string
  /** Wildcard host for subdomain apps, e.g. `*.example.com`; empty when unset. */
  readonly wildcardAccessUrl: string
  readonly docsUrl: string
  readonly redirectToAccessUrl: boolean
  /** HTTP bind address of the server. */
  readonly httpAddress: string
  readonly proxyTrustedHeaders: ReadonlyArray<string>
  readonly proxyTrustedOrigins: ReadonlyArray<string>
  readonly secureAuthCookie: boolean
  /** SameSite attribute of the session cookie. */
  readonly sameSiteCookie: "lax" | "strict" | "none"
  /** Max-age in seconds of the Strict-Transport-Security header; 0 disables it. */
  readonly strictTransportSecurity: number
  readonly strictTransportSecurityOptions: ReadonlyArray<string>
  readonly additionalCspPolicy: ReadonlyArray<string>
  readonly browserOnly: boolean
  readonly disablePathApps: boolean
  /**
   * Path-based apps honour their `sharing_level` (Coder's `--dangerous-allow-path-app-sharing`).
   * Off: only the workspace's owner opens them (and anyone a `public` app, without a session).
   */
  readonly dangerousAllowPathAppSharing: boolean
  /** Site owners may open other users' path-based `owner` apps (Coder's `--dangerous-allow-path-app-site-owner-access`). */
  readonly dangerousAllowPathAppSiteOwnerAccess: boolean
  readonly disableOwnerWorkspaceExec: boolean
  /** Requests per minute per user (or IP) on the API; negative for no limit. */
  readonly rateLimitApi: number
  readonly rateLimitDisableAll: boolean
  /**
   * Requests per minute per IP (per user when signed in) on each sign-in route: password login,
   * one-time passcodes, password checks and changes, the first user, the OAuth2 token,
   * revocation and registration routes. <= 0 for no limit. Not a deployment option (as in the
   * described system, where only `disable_all` turns it off); embedders and tests set it.
   */
  readonly rateLimitLogin: number
  /** Requests per minute per user on `/files` (upload and download). <= 0 for no limit. */
  readonly rateLimitFiles: number

  // Sessions and tokens
  /** Lifetime of a login session. */
  readonly sessionDuration: Duration.Duration
  /** When true, sessions are not extended on use. */
  readonly disableSessionExpiryRefresh: boolean
  /** Lifetime of a token created without `lifetime`. */
  readonly defaultTokenLifetime: Duration.Duration
  /** Upper bound of a token's lifetime for members. */
  readonly maxTokenLifetime: Duration.Duration
  /** Upper bound of a token's lifetime for owners. */
  readonly maxAdminTokenLifetime: Duration.Duration
  /** Lifetime of a one-time passcode. */
  readonly oneTimePasscodeLifetime: Duration.Duration
  readonly disablePasswordAuth: boolean

  // Database and secrets (never reported with their value)
  /** PostgreSQL connection URL (secret). */
  readonly pgConnectionUrl: string
  readonly pgAuth: "password" | "awsiamrds"
  readonly pgConnMaxOpen: number
  readonly pgConnMaxIdle: string
  /** Header value authenticating the SCIM endpoint (secret). */
  readonly scimApiKey: string
  /** Keys encrypting external tokens at rest (secret). */
  readonly externalTokenEncryptionKeys: ReadonlyArray<string>

  // Login providers
  readonly oidcClientId: string
  /** OIDC client secret (secret). */
  readonly oidcClientSecret: string
  readonly oidcIssuerUrl: string
  readonly oidcAllowSignups: boolean
  readonly oidcEmailDomain: ReadonlyArray<string>
  readonly oidcScopes: ReadonlyArray<string>
  readonly oidcSignInText: string
  readonly oidcIconUrl: string
  /** Claims naming the new user's email, username and name (docs/sign-in.md). */
  readonly oidcEmailField: string
  readonly oidcUsernameField: string
  readonly oidcNameField: string
  /** Sign in even when the provider says `email_verified: false`. */
  readonly oidcIgnoreEmailVerified: boolean
  /** Take claims from the ID token only, without asking the userinfo endpoint. */
  readonly oidcIgnoreUserInfo: boolean
  /** Shown when a sign-in would create a user and signups are off. */
  readonly oidcSignupsDisabledText: string
  /** Claim holding the user's groups; empty turns group sync off. */
  readonly oidcGroupField: string
  /** Claim value to group name; unmapped values are group names themselves. */
  readonly oidcGroupMapping: Readonly<Record<string, string>>
  /** Create groups the claim names that do not exist yet (with source `oidc`). */
  readonly oidcGroupAutoCreate: boolean
  /** Only claim values matching this regular expression are synced. */
  readonly oidcGroupRegexFilter: string
  /** Claim holding the user's roles; empty turns role sync off. */
  readonly oidcUserRoleField: string
  /** Claim value to site roles; unmapped values are site role names themselves. */
  readonly oidcUserRoleMapping: Readonly<Record<string, ReadonlyArray<string>>>
  /** Site roles every user gets from role sync, beside the claim's. */
  readonly oidcUserRolesDefault: ReadonlyArray<string>
  readonly oauth2GithubClientId: string
  /** GitHub OAuth2 client secret (secret). */
  readonly oauth2GithubClientSecret: string
  readonly oauth2GithubAllowSignups: boolean
  readonly oauth2GithubAllowEveryone: boolean
  readonly oauth2GithubAllowedOrgs: ReadonlyArray<string>
  readonly oauth2GithubAllowedTeams: ReadonlyArray<string>
  readonly oauth2GithubEnterpriseBaseUrl: string
  readonly oauth2GithubDeviceFlow: boolean
  readonly oauth2GithubDefaultProviderEnable: boolean

  // Retention (0 keeps forever)
  readonly retentionApiKeys: Duration.Duration
  readonly retentionAuditLogs: Duration.Duration
  readonly retentionConnectionLogs: Duration.Duration
  readonly retentionWorkspaceAgentLogs: Duration.Duration

  // Notifications (email)
  readonly emailFrom: string
  readonly emailSmarthost: string
  readonly emailHello: string
  readonly emailAuthUsername: string
  /** SMTP password (secret). */
  readonly emailAuthPassword: string
  readonly notificationsInboxEnabled: boolean
  /** Identity for PLAIN authentication (rarely needed). */
  readonly emailAuthIdentity: string
  /** Connect over TLS from the start (implicit TLS, usually port 465). */
  readonly emailForceTls: boolean
  /** Upgrade to TLS with STARTTLS (required when on). */
  readonly emailTlsStartTls: boolean
  readonly emailTlsServerName: string
  readonly emailTlsInsecureSkipVerify: boolean
  /** Files of the CA certificate and the client certificate and key for mail TLS. */
  readonly emailTlsCaFile: string
  readonly emailTlsCertFile: string
  readonly emailTlsKeyFile: string
  // Notifications (the queue and the notifier; docs/notifications.md)
  /** The default delivery method: smtp or webhook (inbox messages are enqueued beside it). */
  readonly notificationsMethod: string
  /** How long one send may take before it counts as failed. */
  readonly notificationsDispatchTimeout: Duration.Duration
  readonly notificationsMaxSendAttempts: number
  readonly notificationsRetryInterval: Duration.Duration
  /** How long a notifier holds the messages it leased; past it another may lease them. */
  readonly notificationsLeasePeriod: Duration.Duration
  /** How many messages one fetch leases. */
  readonly notificationsLeaseCount: number
  readonly notificationsFetchInterval: Duration.Duration
  /** Where the webhook method POSTs; empty: the method is not configured. */
  readonly notificationsWebhookEndpoint: string

  // Introspection
  readonly verbose: boolean
  readonly logFilter: ReadonlyArray<string>
  readonly telemetryEnable: boolean
  readonly traceEnable: boolean
  /** Honeycomb API key for trace export (secret). */
  readonly traceHoneycombApiKey: string
  readonly updateCheck: boolean
  /** Whether the standalone server serves Prometheus metrics, and where (docs/operations.md, "Metrics"). */
  readonly prometheusEnable: boolean
  readonly prometheusAddress: string

  // Provisioning
  readonly provisionerDaemons: number
  /** Pre-shared key of external provisioner daemons (secret). */
  readonly provisionerDaemonPsk: string
  readonly provisionerForceCancelInterval: Duration.Duration
  /** Time between health checks of the workspace proxies (docs/workspace-proxies.md). */
  readonly proxyHealthStatusInterval: Duration.Duration

  // Features and clients
  /** Serves the OpenAPI document when on. */
  readonly swaggerEnable: boolean
  readonly experiments: ReadonlyArray<string>
  /** Default quiet-hours schedule (cron with CRON_TZ), and whether users may set theirs. */
  readonly defaultQuietHoursSchedule: string
  readonly allowCustomQuietHours: boolean
  readonly sshHostnamePrefix: string
  /** Hostname suffix of workspaces in SSH config (Coder's workspace hostname suffix). */
  readonly sshHostnameSuffix: string
  /** Extra SSH config options, each `key=value` or `key value`. */
  readonly sshConfigOptions: ReadonlyArray<string>
  readonly sshKeygenAlgorithm: "ed25519" | "ecdsa" | "rsa4096"
  readonly cliUpgradeMessage: string
  readonly webTerminalRenderer: "canvas" | "webgl" | "dom"
  readonly termsOfServiceUrl: string
  readonly allowWorkspaceRenames: boolean
  readonly enableTerraformDebugMode: boolean
  readonly hideAiTasks: boolean
  readonly disableWorkspaceSharing: boolean
  readonly disableChatSharing: boolean
  /** The relay (DERP) map clients and agents use; null: the embedded relay at the access URL. See agents/RelayMap.ts. */
  readonly relayMap: DerpMap | null

  // Cloud instance identity of agents (trust roots; none configured refuses that kind)
  /** PEM certificates of AWS regions whose keys sign instance identity documents (RSA SHA-256). */
  readonly awsInstanceIdentityCertificates: ReadonlyArray<string>
  /** PEM certificates an Azure attested document's signer must chain to (roots, or intermediates one trusts). */
  readonly azureInstanceIdentityCertificates: ReadonlyArray<string>
  /** Google's identity token keys: JWKS JSON, a JSON map of key ids to PEM certificates, or PEM certificates or keys. */
  readonly googleInstanceIdentityKeys: ReadonlyArray<string>

  // External auth for workspaces (docs/external-auth.md)
  /** Providers users link for their workspaces (GitHub, GitLab, generic OAuth2); client secrets never reported. */
  readonly externalAuth: ReadonlyArray<ExternalAuthConfig>

  // Licenses and appearance (docs/enterprise.md)
  /** Ed25519 public key (PEM or JWK) licenses are verified with; empty: no licenses, every feature entitled. */
  readonly licensePublicKey: string
  /** Links of the dashboard's support menu; empty: the described system's defaults (the docs link first). */
  readonly supportLinks: ReadonlyArray<
    { readonly name: string; readonly target: string; readonly icon: string; readonly location?: string | undefined }
  >

  // Identity of this deployment
  readonly version: string
  readonly deploymentId: string
  /** Where settings came from, by setting name; unlisted ones are reported as defaults or unset. */
  readonly valueSources: Readonly<Partial<Record<string, SettingSource>>>
}

export const defaultSettings: SettingsShape = {
  accessUrl: "http://localhost:3000",
  wildcardAccessUrl: "",
  docsUrl: "https://coder.com/docs",
  redirectToAccessUrl: false,
  httpAddress: "127.0.0.1:3000",
  proxyTrustedHeaders: [],
  proxyTrustedOrigins: [],
  secureAuthCookie: false,
  sameSiteCookie: "lax",
  strictTransportSecurity: 0,
  strictTransportSecurityOptions: [],
  additionalCspPolicy: [],
  browserOnly: false,
  disablePathApps: false,
  dangerousAllowPathAppSharing: false,
  dangerousAllowPathAppSiteOwnerAccess: false,
  disableOwnerWorkspaceExec: false,
  rateLimitApi: 512,
  rateLimitDisableAll: false,
  rateLimitLogin: 60,
  rateLimitFiles: 12,

  sessionDuration: Duration.hours(24),
  disableSessionExpiryRefresh: false,
  defaultTokenLifetime: Duration.days(30),
  maxTokenLifetime: Duration.days(30),
  maxAdminTokenLifetime: Duration.days(7 * 52),
  oneTimePasscodeLifetime: Duration.minutes(15),
  disablePasswordAuth: false,

  pgConnectionUrl: "",
  pgAuth: "password",
  pgConnMaxOpen: 10,
  pgConnMaxIdle: "auto",
  scimApiKey: "",
  externalTokenEncryptionKeys: [],

  oidcClientId: "",
  oidcClientSecret: "",
  oidcIssuerUrl: "",
  oidcAllowSignups: true,
  oidcEmailDomain: [],
  oidcScopes: ["openid", "profile", "email"],
  oidcSignInText: "OpenID Connect",
  oidcIconUrl: "",
  oidcEmailField: "email",
  oidcUsernameField: "preferred_username",
  oidcNameField: "name",
  oidcIgnoreEmailVerified: false,
  oidcIgnoreUserInfo: false,
  oidcSignupsDisabledText: "",
  oidcGroupField: "",
  oidcGroupMapping: {},
  oidcGroupAutoCreate: false,
  oidcGroupRegexFilter: ".*",
  oidcUserRoleField: "",
  oidcUserRoleMapping: {},
  oidcUserRolesDefault: [],
  oauth2GithubClientId: "",
  oauth2GithubClientSecret: "",
  oauth2GithubAllowSignups: false,
  oauth2GithubAllowEveryone: false,
  oauth2GithubAllowedOrgs: [],
  oauth2GithubAllowedTeams: [],
  oauth2GithubEnterpriseBaseUrl: "",
  oauth2GithubDeviceFlow: false,
  oauth2GithubDefaultProviderEnable: true,

  retentionApiKeys: Duration.days(7),
  retentionAuditLogs: Duration.zero,
  retentionConnectionLogs: Duration.zero,
  retentionWorkspaceAgentLogs: Duration.days(7),

  emailFrom: "",
  emailSmarthost: "",
  emailHello: "localhost",
  emailAuthUsername: "",
  emailAuthPassword: "",
  notificationsInboxEnabled: true,
  emailAuthIdentity: "",
  emailForceTls: false,
  emailTlsStartTls: false,
  emailTlsServerName: "",
  emailTlsInsecureSkipVerify: false,
  emailTlsCaFile: "",
  emailTlsCertFile: "",
  emailTlsKeyFile: "",
  notificationsMethod: "smtp",
  notificationsDispatchTimeout: Duration.minutes(1),
  notificationsMaxSendAttempts: 5,
  notificationsRetryInterval: Duration.minutes(5),
  notificationsLeasePeriod: Duration.minutes(2),
  notificationsLeaseCount: 20,
  notificationsFetchInterval: Duration.seconds(15),
  notificationsWebhookEndpoint: "",

  verbose: false,
  logFilter: [],
  telemetryEnable: false,
  traceEnable: false,
  traceHoneycombApiKey: "",
  updateCheck: false,
  prometheusEnable: false,
  prometheusAddress: "127.0.0.1:2112",

  provisionerDaemons: 3,
  provisionerDaemonPsk: "",
  provisionerForceCancelInterval: Duration.minutes(10),
  proxyHealthStatusInterval: Duration.minutes(1),

  swaggerEnable: false,
  experiments: [],
  defaultQuietHoursSchedule: "CRON_TZ=UTC 0 0 * * *",
  allowCustomQuietHours: true,
  sshHostnamePrefix: "coder.",
  sshHostnameSuffix: "coder",
  sshConfigOptions: [],
  sshKeygenAlgorithm: "ed25519",
  cliUpgradeMessage: "",
  webTerminalRenderer: "canvas",
  termsOfServiceUrl: "",
  allowWorkspaceRenames: false,
  enableTerraformDebugMode: false,
  hideAiTasks: false,
  disableWorkspaceSharing: false,
  disableChatSharing: false,
  relayMap: null,

  awsInstanceIdentityCertificates: [],
  azureInstanceIdentityCertificates: [],
  googleInstanceIdentityKeys: [],

  externalAuth: [],

  licensePublicKey: "",
  supportLinks: [],

  version: "v0.1.0",
  deploymentId: "00000000-0000-4000-8000-000000000000",
  valueSources: {}
}

export class Settings extends Context.Tag("@workbay/core/Settings")<Settings, SettingsShape>() {
  static readonly layer = (overrides: Partial<SettingsShape> = {}) =>
    Layer.succeed(Settings, { ...defaultSettings, ...overrides })
}
