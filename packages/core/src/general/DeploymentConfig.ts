/**
 * The deployment configuration as `GET /deployment/config` reports it:
 * `config`, Coder's deployment values, and `options`, one descriptor per
 * setting this service really has.
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
import { isEmptyValue, omitEmpty, putNonEmpty } from "../Wire.js"

// ---------------------------------------------------------------------------
// Wire schemas
//
// Option and group descriptors follow the described system's option type: every
// field is left out when empty (no flag, no env, `hidden: false`, no parent, ...).

/** A group of options; `parent` is absent for top-level groups. */
export interface DeploymentOptionGroup {
  readonly name?: string
  readonly description?: string
  readonly yaml?: string
  readonly parent?: DeploymentOptionGroup
}

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
// Groups (Coder's, plus "General" for the options Coder leaves at the top level)

const group = (name: string, yaml: string, description = "", parent?: DeploymentOptionGroup): DeploymentOptionGroup => {
  const g: Types.Mutable<DeploymentOptionGroup> = { name }
  putNonEmpty(g, "description", description)
  putNonEmpty(g, "yaml", yaml)
  if (parent !== undefined) g.parent = parent
  return g
}

const general = group("General", "", "Settings of the deployment as a whole.")
const networking = group("Networking", "networking")
const networkingHttp = group("HTTP", "http", "", networking)
const networkingTls = group(
  "TLS",
  "tls",
  "Configure TLS / HTTPS for your deployment. If you're running it behind a TLS-terminating reverse proxy or are accessing it over a secure link, you can safely ignore these settings.",
  networking
)
const database = group("Database", "database", "Where the deployment stores its data.")
const introspection = group("Introspection", "introspection", "Configure logging, tracing, and metrics exporting.")
const logging = group("Logging", "logging", "", introspection)
const tracing = group("Tracing", "tracing", "", introspection)
const prometheus = group("Prometheus", "prometheus", "", introspection)
const oauth2 = group("OAuth2", "oauth2", "Configure login and user-provisioning with GitHub via oAuth2.")
const oauth2Github = group("GitHub", "github", "", oauth2)
const oidc = group("OIDC", "oidc")
const telemetry = group(
  "Telemetry",
  "telemetry",
  "Telemetry is critical to our ability to improve the product. Please only disable telemetry when required by your organization's security policy."
)
const provisioning = group(
  "Provisioning",
  "provisioning",
  "Tune the behavior of the provisioner, which is responsible for creating, updating, and deleting workspace resources."
)
const retention = group("Retention", "retention", "Configure how long data is kept before it is deleted.")
const quietHours = group(
  "User Quiet Hours Schedule",
  "userQuietHoursSchedule",
  "Allow users to set quiet hours schedules each day for workspaces to avoid workspaces stopping during the day due to template scheduling."
)
const client = group(
  "Client",
  "client",
  "These options change the behavior of how clients interact with the deployment. Clients include the CLI, the VS Code extension, and the web UI."
)
const notifications = group(
  "Notifications",
  "notifications",
  "Configure how notifications are processed and delivered."
)
const notificationsEmail = group("Email", "email", "Configure how email notifications are sent.", notifications)
const notificationsEmailAuth = group(
  "Email Authentication",
  "emailAuth",
  "Configure SMTP authentication options.",
  notificationsEmail
)
const inbox = group("Inbox", "inbox", "", notifications)
const notificationsEmailTls = group(
  "Email TLS",
  "emailTLS",
  "Configure TLS for your SMTP server target.",
  notificationsEmail
)
const notificationsWebhook = group("Webhook", "webhook", "", notifications)
const instanceIdentity = group(
  "Instance Identity",
  "instanceIdentity",
  "Trust roots of the signed documents agents on cloud instances exchange for their token."
)

// ---------------------------------------------------------------------------
// Option table

type Kind = "string" | "bool" | "int" | "duration" | "strings" | "json" | "providers"
type SettingKey = Exclude<keyof SettingsShape, "version" | "deploymentId" | "valueSources">

interface OptionSpec {
  readonly setting: SettingKey
  readonly name: string
  readonly description: string
  readonly flag: string
  readonly env?: string
  readonly shorthand?: string
  readonly yaml: string
  /** The option's group; none for the few the described system lists outside any. */
  readonly group?: DeploymentOptionGroup
  readonly kind: Kind
  /** Dotted path of the value inside `config`; none for settings Coder does not have. */
  readonly path?: string
  readonly hidden?: boolean
  readonly secret?: boolean
  readonly enterprise?: boolean
  readonly useInstead?: ReadonlyArray<SettingKey>
}

const spec: ReadonlyArray<OptionSpec> = [
  // Networking
  {
    setting: "accessUrl",
    name: "Access URL",
    description: "The URL that users will use to access the deployment.",
    flag: "access-url",
    yaml: "accessURL",
    group: networking,
    kind: "string",
    path: "access_url"
  },
  {
    setting: "wildcardAccessUrl",
    name: "Wildcard Access URL",
    description: "Specifies the wildcard hostname to use for workspace applications in the form \"*.example.com\".",
    flag: "wildcard-access-url",
    yaml: "wildcardAccessURL",
    group: networking,
    kind: "string",
    path: "wildcard_access_url"
  },
  {
    setting: "docsUrl",
    name: "Docs URL",
    description: "Specifies the custom docs URL.",
    flag: "docs-url",
    yaml: "docsURL",
    group: networking,
    kind: "string",
    path: "docs_url"
  },
  {
    setting: "redirectToAccessUrl",
    name: "Redirect to Access URL",
    description: "Specifies whether to redirect requests that do not match the access URL host.",
    flag: "redirect-to-access-url",
    yaml: "redirectToAccessURL",
    group: networking,
    kind: "bool",
    path: "redirect_to_access_url"
  },
  {
    setting: "httpAddress",
    name: "HTTP Address",
    description: "HTTP bind address of the server. Unset to disable the HTTP endpoint.",
    flag: "http-address",
    yaml: "httpAddress",
    group: networkingHttp,
    kind: "string",
    path: "http_address"
  },
  {
    setting: "proxyTrustedHeaders",
    name: "Proxy Trusted Headers",
    description:
      "Headers to trust for forwarding IP addresses. e.g. Cf-Connecting-Ip, True-Client-Ip, X-Forwarded-For.",
    flag: "proxy-trusted-headers",
    yaml: "proxyTrustedHeaders",
    group: networking,
    kind: "strings",
    path: "proxy_trusted_headers"
  },
  {
    setting: "proxyTrustedOrigins",
    name: "Proxy Trusted Origins",
    description: "Origin addresses to respect \"proxy-trusted-headers\". e.g. 192.168.1.0/24.",
    flag: "proxy-trusted-origins",
    yaml: "proxyTrustedOrigins",
    group: networking,
    kind: "strings",
    path: "proxy_trusted_origins"
  },
  {
    setting: "secureAuthCookie",
    name: "Secure Auth Cookie",
    description: "Controls if the 'Secure' property is set on browser session cookies.",
    flag: "secure-auth-cookie",
    yaml: "secureAuthCookie",
    group: networking,
    kind: "bool",
    path: "http_cookies.secure_auth_cookie"
  },
  {
    setting: "sameSiteCookie",
    name: "SameSite Auth Cookie",
    description: "Controls the 'SameSite' property is set on browser session cookies.",
    flag: "samesite-auth-cookie",
    yaml: "sameSiteAuthCookie",
    group: networking,
    kind: "string",
    path: "http_cookies.same_site"
  },
  {
    setting: "strictTransportSecurity",
    name: "Strict-Transport-Security",
    description:
      "Controls if the 'Strict-Transport-Security' header is set on all static file responses. This header should only be set if the server is accessed via HTTPS. This value is the MaxAge in seconds of the header.",
    flag: "strict-transport-security",
    yaml: "strictTransportSecurity",
    group: networkingTls,
    kind: "int",
    path: "strict_transport_security"
  },
  {
    setting: "strictTransportSecurityOptions",
    name: "Strict-Transport-Security Options",
    description:
      "Two optional fields can be set in the Strict-Transport-Security header; 'includeSubDomains' and 'preload'. The 'strict-transport-security' flag must be set to a non-zero value for these options to be used.",
    flag: "strict-transport-security-options",
    yaml: "strictTransportSecurityOptions",
    group: networkingTls,
    kind: "strings",
    path: "strict_transport_security_options"
  },
  {
    setting: "additionalCspPolicy",
    name: "Additional CSP Policy",
    description:
      "Additional Content Security Policy directives, e.g. \"script-src https://example.com\". They open the attack surface of the deployment.",
    flag: "additional-csp-policy",
    yaml: "additionalCSPPolicy",
    group: networkingHttp,
    kind: "strings",
    path: "additional_csp_policy"
  },
  {
    setting: "browserOnly",
    name: "Browser Only",
    description: "Whether the deployment only allows connections to workspaces via the browser.",
    flag: "browser-only",
    yaml: "browserOnly",
    group: networking,
    kind: "bool",
    path: "browser_only",
    enterprise: true
  },
  {
    setting: "disablePathApps",
    name: "Disable Path Apps",
    description:
      "Disable workspace apps that are not served from subdomains. Path-based apps can make requests to the API and pose a security risk when the workspace serves malicious JavaScript.",
    flag: "disable-path-apps",
    yaml: "disablePathApps",
    group: general,
    kind: "bool",
    path: "disable_path_apps"
  },
  {
    setting: "dangerousAllowPathAppSharing",
    name: "DANGEROUS: Allow Path App Sharing",
    description:
      "Allow workspace apps that are not served from subdomains to be shared. Path-based app sharing is DISABLED by default for security purposes. Path-based apps can make requests to the API and pose a security risk when the workspace serves malicious JavaScript. Path-based apps can be disabled entirely with --disable-path-apps for further security.",
    flag: "dangerous-allow-path-app-sharing",
    yaml: "allowPathAppSharing",
    group: general,
    kind: "bool",
    path: "dangerous.allow_path_app_sharing"
  },
  {
    setting: "dangerousAllowPathAppSiteOwnerAccess",
    name: "DANGEROUS: Allow Site Owners to Access Path Apps",
    description:
      "Allow site-owners to access workspace apps from workspaces they do not own. Owners cannot access path-based apps they do not own by default. Path-based apps can make requests to the API and pose a security risk when the workspace serves malicious JavaScript. Path-based apps can be disabled entirely with --disable-path-apps for further security.",
    flag: "dangerous-allow-path-app-site-owner-access",
    yaml: "allowPathAppSiteOwnerAccess",
    group: general,
    kind: "bool",
    path: "dangerous.allow_path_app_site_owner_access"
  },
  {
    setting: "disableOwnerWorkspaceExec",
    name: "Disable Owner Workspace Access",
    description: "Remove the permission for the 'owner' role to have workspace execution on all workspaces.",
    flag: "disable-owner-workspace-access",
    yaml: "disableOwnerWorkspaceAccess",
    group: general,
    kind: "bool",
    path: "disable_owner_workspace_exec"
  },
  {
    setting: "rateLimitApi",
    name: "API Rate Limit",
    description:
      "Maximum number of requests per minute allowed to the API per user, or per IP address for unauthenticated users. Negative values mean no rate limit.",
    flag: "api-rate-limit",
    env: "WORKBAY_API_RATE_LIMIT",
    yaml: "apiRateLimit",
    group: networkingHttp,
    kind: "int",
    path: "rate_limit.api",
    hidden: true
  },
  {
    setting: "rateLimitDisableAll",
    name: "Disable All Rate Limits",
    description: "Disables all rate limits. This is not recommended in production.",
    flag: "dangerous-disable-rate-limits",
    env: "WORKBAY_DANGEROUS_DISABLE_RATE_LIMITS",
    yaml: "disableAllRateLimits",
    group: networkingHttp,
    kind: "bool",
    path: "rate_limit.disable_all",
    hidden: true
  },

  // Sessions and tokens
  {
    setting: "sessionDuration",
    name: "Session Duration",
    description:
      "The token expiry duration for browser sessions. Sessions may last longer if they are actively making requests, but this functionality can be disabled via --disable-session-expiry-refresh.",
    flag: "session-duration",
    yaml: "sessionDuration",
    group: networkingHttp,
    kind: "duration",
    path: "session_lifetime.default_duration"
  },
  {
    setting: "disableSessionExpiryRefresh",
    name: "Disable Session Expiry Refresh",
    description:
      "Disable automatic session expiry bumping due to activity. This forces all sessions to become invalid after the session expiry duration has been reached.",
    flag: "disable-session-expiry-refresh",
    yaml: "disableSessionExpiryRefresh",
    group: networkingHttp,
    kind: "bool",
    path: "session_lifetime.disable_expiry_refresh"
  },
  {
    setting: "defaultTokenLifetime",
    name: "Default Token Lifetime",
    description:
      "The default lifetime duration for API tokens. This value is used when creating a token without specifying a duration.",
    flag: "default-token-lifetime",
    yaml: "defaultTokenLifetime",
    group: networkingHttp,
    kind: "duration",
    path: "session_lifetime.default_token_lifetime"
  },
  {
    setting: "maxTokenLifetime",
    name: "Max Token Lifetime",
    description: "The maximum lifetime duration users can specify when creating an API token.",
    flag: "max-token-lifetime",
    yaml: "maxTokenLifetime",
    group: networkingHttp,
    kind: "duration",
    path: "session_lifetime.max_token_lifetime"
  },
  {
    setting: "maxAdminTokenLifetime",
    name: "Maximum Admin Token Lifetime",
    description: "The maximum lifetime duration administrators can specify when creating an API token.",
    flag: "max-admin-token-lifetime",
    yaml: "maxAdminTokenLifetime",
    group: networkingHttp,
    kind: "duration",
    path: "session_lifetime.max_admin_token_lifetime"
  },
  {
    setting: "oneTimePasscodeLifetime",
    name: "One-Time Passcode Lifetime",
    description: "How long a one-time passcode for a password reset stays valid.",
    flag: "one-time-passcode-lifetime",
    yaml: "oneTimePasscodeLifetime",
    group: networkingHttp,
    kind: "duration",
    hidden: true
  },
  {
    setting: "disablePasswordAuth",
    name: "Disable Password Authentication",
    description:
      "Disable password authentication. This is recommended for security purposes in production deployments that rely on an identity provider. Owners can still sign in with their password to avoid lock out.",
    flag: "disable-password-auth",
    yaml: "disablePasswordAuth",
    group: networkingHttp,
    kind: "bool",
    path: "disable_password_auth"
  },

  // Database and secrets
  {
    setting: "pgConnectionUrl",
    name: "Postgres Connection URL",
    description: "URL of a PostgreSQL database. If empty, data is stored in the embedded SQLite database.",
    flag: "database-url",
    env: "DATABASE_URL",
    yaml: "",
    group: database,
    kind: "string",
    path: "pg_connection_url",
    secret: true
  },
  {
    setting: "pgAuth",
    name: "Postgres Auth",
    description:
      "Type of auth to use when connecting to postgres. For AWS RDS, using IAM authentication (awsiamrds) is recommended.",
    flag: "postgres-auth",
    yaml: "pgAuth",
    group: database,
    kind: "string",
    path: "pg_auth"
  },
  {
    setting: "pgConnMaxOpen",
    name: "Postgres Connection Max Open",
    description: "Maximum number of open connections to the database.",
    flag: "postgres-conn-max-open",
    yaml: "pgConnMaxOpen",
    group: database,
    kind: "int",
    path: "pg_conn_max_open"
  },
  {
    setting: "pgConnMaxIdle",
    name: "Postgres Connection Max Idle",
    description:
      "Maximum number of idle connections to the database. Set to \"auto\" (the default) to use max open / 3.",
    flag: "postgres-conn-max-idle",
    yaml: "pgConnMaxIdle",
    group: database,
    kind: "string",
    path: "pg_conn_max_idle"
  },
  {
    setting: "scimApiKey",
    name: "SCIM API Key",
    description:
      "Enables SCIM and sets the authentication header for the built-in SCIM server. New users are automatically created with OIDC authentication.",
    flag: "scim-auth-header",
    yaml: "",
    group: general,
    kind: "string",
    path: "scim_api_key",
    secret: true,
    enterprise: true
  },
  {
    setting: "externalTokenEncryptionKeys",
    name: "External Token Encryption Keys",
    description:
      "Encrypt OIDC and Git authentication tokens with AES-256-GCM in the database. The value must be a comma-separated list of base64-encoded keys.",
    flag: "external-token-encryption-keys",
    yaml: "",
    group: general,
    kind: "strings",
    path: "external_token_encryption_keys",
    secret: true,
    enterprise: true
  },

  // OIDC
  {
    setting: "oidcAllowSignups",
    name: "OIDC Allow Signups",
    description: "Whether new users can sign up with OIDC.",
    flag: "oidc-allow-signups",
    yaml: "allowSignups",
    group: oidc,
    kind: "bool",
    path: "oidc.allow_signups"
  },
  {
    setting: "oidcClientId",
    name: "OIDC Client ID",
    description: "Client ID to use for Login with OIDC.",
    flag: "oidc-client-id",
    yaml: "clientID",
    group: oidc,
    kind: "string",
    path: "oidc.client_id"
  },
  {
    setting: "oidcClientSecret",
    name: "OIDC Client Secret",
    description: "Client secret to use for Login with OIDC.",
    flag: "oidc-client-secret",
    yaml: "",
    group: oidc,
    kind: "string",
    path: "oidc.client_secret",
    secret: true
  },
  {
    setting: "oidcEmailDomain",
    name: "OIDC Email Domain",
    description: "Email domains that clients logging in with OIDC must match.",
    flag: "oidc-email-domain",
    yaml: "emailDomain",
    group: oidc,
    kind: "strings",
    path: "oidc.email_domain"
  },
  {
    setting: "oidcIssuerUrl",
    name: "OIDC Issuer URL",
    description: "Issuer URL to use for Login with OIDC.",
    flag: "oidc-issuer-url",
    yaml: "issuerURL",
    group: oidc,
    kind: "string",
    path: "oidc.issuer_url"
  },
  {
    setting: "oidcScopes",
    name: "OIDC Scopes",
    description: "Scopes to grant when authenticating with OIDC.",
    flag: "oidc-scopes",
    yaml: "scopes",
    group: oidc,
    kind: "strings",
    path: "oidc.scopes"
  },
  {
    setting: "oidcSignInText",
    name: "OpenID Connect sign in text",
    description: "The text to show on the OpenID Connect sign in button.",
    flag: "oidc-sign-in-text",
    yaml: "signInText",
    group: oidc,
    kind: "string",
    path: "oidc.sign_in_text"
  },
  {
    setting: "oidcIconUrl",
    name: "OpenID connect icon URL",
    description: "URL pointing to the icon to use on the OpenID Connect login button.",
    flag: "oidc-icon-url",
    yaml: "iconURL",
    group: oidc,
    kind: "string",
    path: "oidc.icon_url"
  },
  {
    setting: "oidcEmailField",
    name: "OIDC Email Field",
    description: "OIDC claim field to use as the email.",
    flag: "oidc-email-field",
    yaml: "emailField",
    group: oidc,
    kind: "string",
    path: "oidc.email_field"
  },
  {
    setting: "oidcUsernameField",
    name: "OIDC Username Field",
    description: "OIDC claim field to use as the username.",
    flag: "oidc-username-field",
    yaml: "usernameField",
    group: oidc,
    kind: "string",
    path: "oidc.username_field"
  },
  {
    setting: "oidcNameField",
    name: "OIDC Name Field",
    description: "OIDC claim field to use as the name.",
    flag: "oidc-name-field",
    yaml: "nameField",
    group: oidc,
    kind: "string",
    path: "oidc.name_field"
  },
  {
    setting: "oidcIgnoreEmailVerified",
    name: "OIDC Ignore Email Verified",
    description: "Ignore the email_verified claim from the upstream provider.",
    flag: "oidc-ignore-email-verified",
    yaml: "ignoreEmailVerified",
    group: oidc,
    kind: "bool",
    path: "oidc.ignore_email_verified"
  },
  {
    setting: "oidcIgnoreUserInfo",
    name: "OIDC Ignore UserInfo",
    description: "Ignore the userinfo endpoint and only use the ID token for user information.",
    flag: "oidc-ignore-userinfo",
    yaml: "ignoreUserInfo",
    group: oidc,
    kind: "bool",
    path: "oidc.ignore_user_info"
  },
  {
    setting: "oidcSignupsDisabledText",
    name: "OIDC Signups Disabled Text",
    description: "The text to show on the error page when signups are disabled.",
    flag: "oidc-signups-disabled-text",
    yaml: "signupsDisabledText",
    group: oidc,
    kind: "string",
    path: "oidc.signups_disabled_text"
  },
  {
    setting: "oidcGroupField",
    name: "OIDC Group Field",
    description: "This field must be set if using the group sync feature and the scope name is not 'groups'.",
    flag: "oidc-group-field",
    yaml: "groupField",
    group: oidc,
    kind: "string",
    path: "oidc.groups_field"
  },
  {
    setting: "oidcGroupMapping",
    name: "OIDC Group Mapping",
    description:
      "A map of OIDC group IDs and the group they should map to. This is useful for when OIDC providers only return group IDs.",
    flag: "oidc-group-mapping",
    yaml: "groupMapping",
    group: oidc,
    kind: "json",
    path: "oidc.group_mapping"
  },
  {
    setting: "oidcGroupAutoCreate",
    name: "Enable OIDC Group Auto Create",
    description: "Automatically creates missing groups from a user's groups claim.",
    flag: "oidc-group-auto-create",
    yaml: "enableGroupAutoCreate",
    group: oidc,
    kind: "bool",
    path: "oidc.group_auto_create"
  },
  {
    setting: "oidcGroupRegexFilter",
    name: "OIDC Regex Group Filter",
    description: "If provided any group name not matching the regex is ignored.",
    flag: "oidc-group-regex-filter",
    yaml: "groupRegexFilter",
    group: oidc,
    kind: "string",
    path: "oidc.group_regex_filter"
  },
  {
    setting: "oidcUserRoleField",
    name: "OIDC User Role Field",
    description: "This field must be set if using the user roles sync feature.",
    flag: "oidc-user-role-field",
    yaml: "userRoleField",
    group: oidc,
    kind: "string",
    path: "oidc.user_role_field"
  },
  {
    setting: "oidcUserRoleMapping",
    name: "OIDC User Role Mapping",
    description: "A map of the OIDC passed in user roles and the groups in Coder it should map to.",
    flag: "oidc-user-role-mapping",
    yaml: "userRoleMapping",
    group: oidc,
    kind: "json",
    path: "oidc.user_role_mapping"
  },
  {
    setting: "oidcUserRolesDefault",
    name: "OIDC User Roles Default",
    description:
      "If user role sync is enabled, these roles are always included for all authenticated users. The 'member' role is always assigned.",
    flag: "oidc-user-role-default",
    yaml: "userRoleDefault",
    group: oidc,
    kind: "strings",
    path: "oidc.user_roles_default"
  },

  // GitHub OAuth2
  {
    setting: "oauth2GithubClientId",
    name: "OAuth2 GitHub Client ID",
    description: "Client ID for Login with GitHub.",
    flag: "oauth2-github-client-id",
    yaml: "clientID",
    group: oauth2Github,
    kind: "string",
    path: "oauth2.github.client_id"
  },
  {
    setting: "oauth2GithubClientSecret",
    name: "OAuth2 GitHub Client Secret",
    description: "Client secret for Login with GitHub.",
    flag: "oauth2-github-client-secret",
    yaml: "",
    group: oauth2Github,
    kind: "string",
    path: "oauth2.github.client_secret",
    secret: true
  },
  {
    setting: "oauth2GithubDeviceFlow",
    name: "OAuth2 GitHub Device Flow",
    description: "Enable device flow for Login with GitHub.",
    flag: "oauth2-github-device-flow",
    yaml: "deviceFlow",
    group: oauth2Github,
    kind: "bool",
    path: "oauth2.github.device_flow"
  },
  {
    setting: "oauth2GithubDefaultProviderEnable",
    name: "OAuth2 GitHub Default Provider Enable",
    description: "Enable the default GitHub OAuth2 provider.",
    flag: "oauth2-github-default-provider-enable",
    yaml: "defaultProviderEnable",
    group: oauth2Github,
    kind: "bool",
    path: "oauth2.github.default_provider_enable"
  },
  {
    setting: "oauth2GithubAllowedOrgs",
    name: "OAuth2 GitHub Allowed Orgs",
    description: "Organizations the user must be a member of to Login with GitHub.",
    flag: "oauth2-github-allowed-orgs",
    yaml: "allowedOrgs",
    group: oauth2Github,
    kind: "strings",
    path: "oauth2.github.allowed_orgs"
  },
  {
    setting: "oauth2GithubAllowedTeams",
    name: "OAuth2 GitHub Allowed Teams",
    description:
      "Teams inside organizations the user must be a member of to Login with GitHub. Structured as: <organization-name>/<team-slug>.",
    flag: "oauth2-github-allowed-teams",
    yaml: "allowedTeams",
    group: oauth2Github,
    kind: "strings",
    path: "oauth2.github.allowed_teams"
  },
  {
    setting: "oauth2GithubAllowSignups",
    name: "OAuth2 GitHub Allow Signups",
    description: "Whether new users can sign up with GitHub.",
    flag: "oauth2-github-allow-signups",
    yaml: "allowSignups",
    group: oauth2Github,
    kind: "bool",
    path: "oauth2.github.allow_signups"
  },
  {
    setting: "oauth2GithubAllowEveryone",
    name: "OAuth2 GitHub Allow Everyone",
    description: "Allow all logins, setting this option means allowed orgs and teams must be empty.",
    flag: "oauth2-github-allow-everyone",
    yaml: "allowEveryone",
    group: oauth2Github,
    kind: "bool",
    path: "oauth2.github.allow_everyone"
  },
  {
    setting: "oauth2GithubEnterpriseBaseUrl",
    name: "OAuth2 GitHub Enterprise Base URL",
    description: "Base URL of a GitHub Enterprise deployment to use for Login with GitHub.",
    flag: "oauth2-github-enterprise-base-url",
    yaml: "enterpriseBaseURL",
    group: oauth2Github,
    kind: "string",
    path: "oauth2.github.enterprise_base_url"
  },

  // Retention
  {
    setting: "retentionApiKeys",
    name: "API Keys Retention",
    description: "How long expired API keys are kept before they are deleted. Set to 0 to keep them forever.",
    flag: "api-keys-retention",
    yaml: "apiKeys",
    group: retention,
    kind: "duration",
    path: "retention.api_keys"
  },
  {
    setting: "retentionAuditLogs",
    name: "Audit Logs Retention",
    description: "How long audit log entries are kept. Set to 0 to keep them forever.",
    flag: "audit-logs-retention",
    yaml: "auditLogs",
    group: retention,
    kind: "duration",
    path: "retention.audit_logs"
  },
  {
    setting: "retentionConnectionLogs",
    name: "Connection Logs Retention",
    description: "How long connection log entries are kept. Set to 0 to keep them forever.",
    flag: "connection-logs-retention",
    yaml: "connectionLogs",
    group: retention,
    kind: "duration",
    path: "retention.connection_logs"
  },
  {
    setting: "retentionWorkspaceAgentLogs",
    name: "Workspace Agent Logs Retention",
    description: "How long workspace agent logs are kept. Set to 0 to keep them forever.",
    flag: "workspace-agent-logs-retention",
    yaml: "workspaceAgentLogs",
    group: retention,
    kind: "duration",
    path: "retention.workspace_agent_logs"
  },

  // Notifications
  {
    setting: "emailFrom",
    name: "Notifications: Email: From Address",
    description: "The sender's address to use.",
    flag: "email-from",
    yaml: "from",
    group: notificationsEmail,
    kind: "string",
    path: "notifications.email.from"
  },
  {
    setting: "emailSmarthost",
    name: "Notifications: Email: Smarthost",
    description: "The intermediary SMTP host through which emails are sent.",
    flag: "email-smarthost",
    yaml: "smarthost",
    group: notificationsEmail,
    kind: "string",
    path: "notifications.email.smarthost"
  },
  {
    setting: "emailHello",
    name: "Notifications: Email: Hello",
    description: "The hostname identifying the SMTP server.",
    flag: "email-hello",
    yaml: "hello",
    group: notificationsEmail,
    kind: "string",
    path: "notifications.email.hello"
  },
  {
    setting: "emailAuthUsername",
    name: "Notifications: Email Auth: Username",
    description: "Username to use with PLAIN/LOGIN authentication.",
    flag: "email-auth-username",
    yaml: "username",
    group: notificationsEmailAuth,
    kind: "string",
    path: "notifications.email.auth.username"
  },
  {
    setting: "emailAuthPassword",
    name: "Notifications: Email Auth: Password",
    description: "Password to use with PLAIN/LOGIN authentication.",
    flag: "email-auth-password",
    yaml: "",
    group: notificationsEmailAuth,
    kind: "string",
    path: "notifications.email.auth.password",
    secret: true
  },
  {
    setting: "notificationsInboxEnabled",
    name: "Notifications: Inbox: Enabled",
    description: "Enable the inbox.",
    flag: "notifications-inbox-enabled",
    yaml: "enabled",
    group: inbox,
    kind: "bool",
    path: "notifications.inbox.enabled"
  },
  {
    setting: "emailAuthIdentity",
    name: "Notifications: Email Auth: Identity",
    description: "Identity to use with PLAIN authentication.",
    flag: "email-auth-identity",
    yaml: "identity",
    group: notificationsEmailAuth,
    kind: "string",
    path: "notifications.email.auth.identity"
  },
  {
    setting: "emailForceTls",
    name: "Notifications: Email: Force TLS",
    description: "Force a TLS connection to the configured SMTP smarthost.",
    flag: "email-force-tls",
    yaml: "forceTLS",
    group: notificationsEmail,
    kind: "bool",
    path: "notifications.email.force_tls"
  },
  {
    setting: "emailTlsStartTls",
    name: "Notifications: Email TLS: StartTLS",
    description: "Enable STARTTLS to upgrade insecure SMTP connections using TLS.",
    flag: "email-tls-starttls",
    yaml: "startTLS",
    group: notificationsEmailTls,
    kind: "bool",
    path: "notifications.email.tls.start_tls"
  },
  {
    setting: "emailTlsServerName",
    name: "Notifications: Email TLS: Server Name",
    description: "Server name to verify against the target certificate.",
    flag: "email-tls-server-name",
    yaml: "serverName",
    group: notificationsEmailTls,
    kind: "string",
    path: "notifications.email.tls.server_name"
  },
  {
    setting: "emailTlsInsecureSkipVerify",
    name: "Notifications: Email TLS: Skip Certificate Verification (Insecure)",
    description: "Skip verification of the target server's certificate (insecure).",
    flag: "email-tls-skip-verify",
    yaml: "insecureSkipVerify",
    group: notificationsEmailTls,
    kind: "bool",
    path: "notifications.email.tls.insecure_skip_verify"
  },
  {
    setting: "emailTlsCaFile",
    name: "Notifications: Email TLS: Certificate Authority File",
    description: "CA certificate file to use.",
    flag: "email-tls-ca-cert-file",
    yaml: "caCertFile",
    group: notificationsEmailTls,
    kind: "string",
    path: "notifications.email.tls.ca_file"
  },
  {
    setting: "emailTlsCertFile",
    name: "Notifications: Email TLS: Certificate File",
    description: "Certificate file to use.",
    flag: "email-tls-cert-file",
    yaml: "certFile",
    group: notificationsEmailTls,
    kind: "string",
    path: "notifications.email.tls.cert_file"
  },
  {
    setting: "emailTlsKeyFile",
    name: "Notifications: Email TLS: Certificate Key File",
    description: "Certificate key file to use.",
    flag: "email-tls-cert-key-file",
    yaml: "certKeyFile",
    group: notificationsEmailTls,
    kind: "string",
    path: "notifications.email.tls.key_file"
  },
  {
    setting: "notificationsMethod",
    name: "Notifications: Method",
    description: "Which delivery method to use (available options: 'smtp', 'webhook').",
    flag: "notifications-method",
    yaml: "method",
    group: notifications,
    kind: "string",
    path: "notifications.method"
  },
  {
    setting: "notificationsDispatchTimeout",
    name: "Notifications: Dispatch Timeout",
    description: "How long to wait while a notification is being sent before giving up.",
    flag: "notifications-dispatch-timeout",
    yaml: "dispatchTimeout",
    group: notifications,
    kind: "duration",
    path: "notifications.dispatch_timeout"
  },
  {
    setting: "notificationsMaxSendAttempts",
    name: "Notifications: Max Send Attempts",
    description: "The upper limit of attempts to send a notification.",
    flag: "notifications-max-send-attempts",
    yaml: "maxSendAttempts",
    group: notifications,
    kind: "int",
    path: "notifications.max_send_attempts"
  },
  {
    setting: "notificationsRetryInterval",
    name: "Notifications: Retry Interval",
    description: "The minimum time between retries.",
    flag: "notifications-retry-interval",
    yaml: "retryInterval",
    group: notifications,
    kind: "duration",
    path: "notifications.retry_interval",
    hidden: true
  },
  {
    setting: "notificationsLeasePeriod",
    name: "Notifications: Lease Period",
    description:
      "How long a notifier should lease a message. This is effectively how long a notification is 'owned' by a notifier, and once this period expires it will be available for lease by another notifier.",
    flag: "notifications-lease-period",
    yaml: "leasePeriod",
    group: notifications,
    kind: "duration",
    path: "notifications.lease_period",
    hidden: true
  },
  {
    setting: "notificationsLeaseCount",
    name: "Notifications: Lease Count",
    description: "How many notifications a notifier should lease per fetch interval.",
    flag: "notifications-lease-count",
    yaml: "leaseCount",
    group: notifications,
    kind: "int",
    path: "notifications.lease_count",
    hidden: true
  },
  {
    setting: "notificationsFetchInterval",
    name: "Notifications: Fetch Interval",
    description: "How often to query the database for queued notifications.",
    flag: "notifications-fetch-interval",
    yaml: "fetchInterval",
    group: notifications,
    kind: "duration",
    path: "notifications.fetch_interval",
    hidden: true
  },
  {
    setting: "notificationsWebhookEndpoint",
    name: "Notifications: Webhook: Endpoint",
    description: "The endpoint to which to send webhooks.",
    flag: "notifications-webhook-endpoint",
    yaml: "endpoint",
    group: notificationsWebhook,
    kind: "string",
    path: "notifications.webhook.endpoint"
  },

  // Introspection
  {
    setting: "verbose",
    name: "Verbose",
    description: "Output debug-level logs.",
    flag: "verbose",
    shorthand: "v",
    yaml: "verbose",
    group: logging,
    kind: "bool",
    path: "verbose",
    hidden: true,
    useInstead: ["logFilter"]
  },
  {
    setting: "logFilter",
    name: "Log Filter",
    description: "Filter debug logs by matching against a given regex. Use .* to match all debug logs.",
    flag: "log-filter",
    shorthand: "l",
    yaml: "filter",
    group: logging,
    kind: "strings",
    path: "logging.log_filter"
  },
  {
    setting: "telemetryEnable",
    name: "Telemetry Enable",
    description: "Whether telemetry is enabled or not.",
    flag: "telemetry",
    env: "WORKBAY_TELEMETRY_ENABLE",
    yaml: "enable",
    group: telemetry,
    kind: "bool",
    path: "telemetry.enable"
  },
  {
    setting: "traceEnable",
    name: "Trace Enable",
    description: "Whether application tracing data is collected.",
    flag: "trace",
    env: "WORKBAY_TRACE_ENABLE",
    yaml: "enable",
    group: tracing,
    kind: "bool",
    path: "trace.enable"
  },
  {
    setting: "traceHoneycombApiKey",
    name: "Trace Honeycomb API Key",
    description: "Enables trace exporting to Honeycomb.io using the provided API Key.",
    flag: "trace-honeycomb-api-key",
    yaml: "",
    group: tracing,
    kind: "string",
    path: "trace.honeycomb_api_key",
    secret: true
  },
  {
    setting: "prometheusEnable",
    name: "Prometheus Enable",
    description: "Serve prometheus metrics on the address defined by prometheus address.",
    flag: "prometheus-enable",
    env: "WORKBAY_PROMETHEUS_ENABLE",
    yaml: "enable",
    group: prometheus,
    kind: "bool",
    path: "prometheus.enable"
  },
  {
    setting: "prometheusAddress",
    name: "Prometheus Address",
    description: "The bind address to serve prometheus metrics.",
    flag: "prometheus-address",
    env: "WORKBAY_PROMETHEUS_ADDRESS",
    yaml: "address",
    group: prometheus,
    kind: "string",
    path: "prometheus.address"
  },
  {
    setting: "updateCheck",
    name: "Update Check",
    description: "Periodically check for new releases and inform the owner. The check is performed once per day.",
    flag: "update-check",
    yaml: "updateCheck",
    group: general,
    kind: "bool",
    path: "update_check"
  },
  {
    setting: "swaggerEnable",
    name: "Enable swagger endpoint",
    description: "Expose the swagger endpoint via /swagger.",
    flag: "swagger-enable",
    yaml: "enableSwagger",
    group: general,
    kind: "bool",
    path: "swagger.enable"
  },
  {
    setting: "experiments",
    name: "Experiments",
    description:
      "Enable one or more experiments. These are not ready for production. Separate multiple experiments with commas, or enter '*' to opt-in to all available experiments.",
    flag: "experiments",
    yaml: "experiments",
    group: general,
    kind: "strings",
    path: "experiments"
  },

  // Provisioning
  {
    setting: "provisionerDaemons",
    name: "Provisioner Daemons",
    description:
      "Number of provisioner daemons to create on start. If builds are stuck in queued state for a long time, consider increasing this.",
    flag: "provisioner-daemons",
    yaml: "daemons",
    group: provisioning,
    kind: "int",
    path: "provisioner.daemons"
  },
  {
    setting: "provisionerForceCancelInterval",
    name: "Force Cancel Interval",
    description: "Time to force cancel provisioning tasks that are stuck.",
    flag: "provisioner-force-cancel-interval",
    yaml: "forceCancelInterval",
    group: provisioning,
    kind: "duration",
    path: "provisioner.force_cancel_interval"
  },
  {
    setting: "proxyHealthStatusInterval",
    name: "Proxy Health Check Interval",
    description: "The interval in which coderd should be checking the status of workspace proxies.",
    flag: "proxy-health-interval",
    yaml: "proxyHealthInterval",
    group: networking,
    kind: "duration",
    path: "proxy_health_status_interval"
  },
  {
    setting: "supportLinks",
    name: "Support Links",
    description: "Support links to display in the top right drop down menu.",
    flag: "support-links",
    env: "WORKBAY_SUPPORT_LINKS",
    yaml: "supportLinks",
    kind: "json",
    path: "support.links"
  },
  {
    setting: "provisionerDaemonPsk",
    name: "Provisioner Daemon Pre-shared Key (PSK)",
    description: "Pre-shared key to authenticate external provisioner daemons to the server.",
    flag: "provisioner-daemon-psk",
    yaml: "",
    group: provisioning,
    kind: "string",
    path: "provisioner.daemon_psk",
    secret: true
  },

  // Quiet hours
  {
    setting: "defaultQuietHoursSchedule",
    name: "Default Quiet Hours Schedule",
    description:
      "The default daily cron schedule applied to users that haven't set a custom quiet hours schedule themselves. The day-of-month, month and day-of-week must be *.",
    flag: "default-quiet-hours-schedule",
    env: "WORKBAY_QUIET_HOURS_DEFAULT_SCHEDULE",
    yaml: "defaultQuietHoursSchedule",
    group: quietHours,
    kind: "string",
    path: "user_quiet_hours_schedule.default_schedule"
  },
  {
    setting: "allowCustomQuietHours",
    name: "Allow Custom Quiet Hours",
    description:
      "Allow users to set their own quiet hours schedule. If false, users can't change their quiet hours schedule and the site default is always used.",
    flag: "allow-custom-quiet-hours",
    yaml: "allowCustomQuietHours",
    group: quietHours,
    kind: "bool",
    path: "user_quiet_hours_schedule.allow_user_custom"
  },

  // Client
  {
    setting: "sshHostnamePrefix",
    name: "SSH Host Prefix",
    description: "The SSH deployment prefix is used in the Host of the ssh config.",
    flag: "ssh-hostname-prefix",
    yaml: "sshHostnamePrefix",
    group: client,
    kind: "string",
    path: "config_ssh.deploymentName"
  },
  {
    setting: "sshHostnameSuffix",
    name: "Workspace Hostname Suffix",
    description: "Workspace hostnames use this suffix in SSH config and Coder Connect on Coder Desktop.",
    flag: "workspace-hostname-suffix",
    yaml: "workspaceHostnameSuffix",
    group: client,
    kind: "string",
    path: "workspace_hostname_suffix"
  },
  {
    setting: "sshConfigOptions",
    name: "SSH Config Options",
    description:
      "These SSH config options will override the default SSH config options. Provide options in \"key=value\" or \"key value\" format separated by commas.",
    flag: "ssh-config-options",
    yaml: "sshConfigOptions",
    group: client,
    kind: "strings",
    path: "config_ssh.sshconfigOptions"
  },
  {
    setting: "cliUpgradeMessage",
    name: "CLI Upgrade Message",
    description: "The upgrade message to display to users when a client/server mismatch is detected.",
    flag: "cli-upgrade-message",
    yaml: "cliUpgradeMessage",
    group: client,
    kind: "string",
    path: "cli_upgrade_message"
  },
  {
    setting: "webTerminalRenderer",
    name: "Web Terminal Renderer",
    description: "The renderer to use when opening a web terminal. Valid values are 'canvas', 'webgl', or 'dom'.",
    flag: "web-terminal-renderer",
    yaml: "webTerminalRenderer",
    group: client,
    kind: "string",
    path: "web_terminal_renderer"
  },
  {
    setting: "sshKeygenAlgorithm",
    name: "SSH Keygen Algorithm",
    description:
      "The algorithm to use for generating ssh keys. Accepted values are \"ed25519\", \"ecdsa\", or \"rsa4096\".",
    flag: "ssh-keygen-algorithm",
    yaml: "sshKeygenAlgorithm",
    group: general,
    kind: "string",
    path: "ssh_keygen_algorithm"
  },
  {
    setting: "termsOfServiceUrl",
    name: "Terms of Service URL",
    description: "A URL to an external Terms of Service that must be accepted by users when logging in.",
    flag: "terms-of-service-url",
    yaml: "termsOfServiceURL",
    group: general,
    kind: "string",
    path: "terms_of_service_url"
  },
  {
    setting: "allowWorkspaceRenames",
    name: "Allow Workspace Renames",
    description: "DEPRECATED: Allow users to rename their workspaces. Use only for temporary compatibility reasons.",
    flag: "allow-workspace-renames",
    yaml: "allowWorkspaceRenames",
    group: general,
    kind: "bool",
    path: "allow_workspace_renames"
  },
  {
    setting: "enableTerraformDebugMode",
    name: "Enable Terraform debug mode",
    description: "Allow administrators to enable Terraform debug output.",
    flag: "enable-terraform-debug-mode",
    yaml: "enableTerraformDebugMode",
    group: logging,
    kind: "bool",
    path: "enable_terraform_debug_mode"
  },
  {
    setting: "hideAiTasks",
    name: "Hide AI Tasks",
    description: "Hide AI tasks from the dashboard.",
    flag: "hide-ai-tasks",
    yaml: "hideAITasks",
    group: client,
    kind: "bool",
    path: "hide_ai_tasks"
  },
  {
    setting: "disableWorkspaceSharing",
    name: "Disable Workspace Sharing",
    description:
      "Disable workspace sharing. Workspace ACL checking is disabled and only owners can access their workspaces.",
    flag: "disable-workspace-sharing",
    yaml: "disableWorkspaceSharing",
    group: general,
    kind: "bool",
    path: "disable_workspace_sharing"
  },
  {
    setting: "disableChatSharing",
    name: "Disable Chat Sharing",
    description: "Disable sharing of AI chats with other users.",
    flag: "disable-chat-sharing",
    yaml: "disableChatSharing",
    group: general,
    kind: "bool",
    path: "disable_chat_sharing"
  },
  {
    setting: "awsInstanceIdentityCertificates",
    name: "AWS Instance Identity Certificates",
    description:
      "PEM certificates of the AWS regions whose signed instance identity documents agents may exchange for their token (the flag names a file). None: refused.",
    flag: "aws-instance-identity-certificates",
    yaml: "awsCertificates",
    group: instanceIdentity,
    kind: "strings"
  },
  {
    setting: "azureInstanceIdentityCertificates",
    name: "Azure Instance Identity Certificates",
    description:
      "PEM certificates an Azure attested document's signer must chain to (the flag names a file). None: refused.",
    flag: "azure-instance-identity-certificates",
    yaml: "azureCertificates",
    group: instanceIdentity,
    kind: "strings"
  },
  {
    setting: "googleInstanceIdentityKeys",
    name: "Google Instance Identity Keys",
    description:
      "Keys of Google's instance identity tokens: JWKS JSON, a JSON map of key ids to PEM certificates, or PEM (the flag names a file). None: refused.",
    flag: "google-instance-identity-keys",
    yaml: "googleKeys",
    group: instanceIdentity,
    kind: "strings"
  },
  {
    setting: "externalAuth",
    name: "External Auth Providers",
    description:
      "External Authentication providers (set with WORKBAY_EXTERNAL_AUTH_<n>_<FIELD> variables). Client secrets are never shown.",
    flag: "external-auth-providers",
    yaml: "externalAuthProviders",
    group: general,
    kind: "providers",
    path: "external_auth",
    hidden: true
  }
]

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

const toWire = (kind: Kind, value: unknown): unknown => {
  if (kind === "duration") return toNanos(value as Duration.Duration)
  if (kind === "strings") return [...(value as ReadonlyArray<string>)]
  if (kind === "providers") return (value as ReadonlyArray<ExternalAuthConfig>).map(publicConfig)
  return value
}

const formatDefault = (kind: Kind, value: unknown): string => {
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

const envOf = (o: OptionSpec) => o.env ?? `WORKBAY_${o.flag.toUpperCase().replace(/-/g, "_")}`

const descriptor = (
  o: OptionSpec,
  settings: SettingsShape,
  useInstead: ReadonlyArray<DeploymentOption>
): DeploymentOption => {
  const value = toWire(o.kind, settings[o.setting])
  const fallback = toWire(o.kind, defaultSettings[o.setting])
  const annotations: Record<string, string> = {}
  if (o.kind === "duration") annotations.format_duration = "true"
  if (o.enterprise) annotations.enterprise = "true"
  if (o.secret) annotations.secret = "true"
  const d: Types.Mutable<DeploymentOption> = { name: o.name }
  putNonEmpty(d, "description", o.description)
  putNonEmpty(d, "flag", o.flag)
  putNonEmpty(d, "flag_shorthand", o.shorthand)
  putNonEmpty(d, "env", envOf(o))
  putNonEmpty(d, "yaml", o.yaml)
  if (!o.secret) {
    putNonEmpty(d, "default", formatDefault(o.kind, defaultSettings[o.setting]))
    // Every non-secret option has a value, empty or not (the described system sends it too).
    d.value = redactUrl(value)
  }
  putNonEmpty(d, "value_source", settings.valueSources[o.setting] ?? (sameValue(value, fallback) ? "default" : ""))
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
    reconciliation_interval: ns("15 seconds"),
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
  for (const o of spec) {
    const useInstead = (o.useInstead ?? []).map((k) => {
      const target = spec.find((s) => s.setting === k)!
      return built.get(k) ?? descriptor(target, settings, [])
    })
    built.set(o.setting, descriptor(o, settings, useInstead))
  }
  const config = fixedConfig()
  for (const o of spec) {
    if (o.path !== undefined) setPath(config, o.path, o.secret ? "" : toWire(o.kind, settings[o.setting]))
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
