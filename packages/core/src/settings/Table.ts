/**
 * The deployment settings, one declaration each (see Setting.ts for what a declaration holds).
 * Everything else is derived from this table: the settings' value type (`SettingsShape`) and
 * defaults (`defaultSettings`, Settings.ts), the options of `GET /deployment/config`
 * (general/DeploymentConfig.ts, in the order of this table), and the standalone server's flags,
 * environment variables and `--help` (packages/server, Config.ts). Defaults follow the described
 * system's where it has the setting.
 *
 * To add a setting: declare it here; give it `help` for the server to take it by flag and
 * variable, and `name` (with description, yaml, group, path) for the deployment config to report it.
 */
import { Duration } from "effect"
import type { DerpMap } from "../DerpMap.js"
import * as Group from "./Groups.js"
import { type Setting, setting } from "./Setting.js"
import {
  address,
  bool,
  count,
  duration,
  inCode,
  int,
  jsonObject,
  keys,
  links,
  oneOf,
  providers,
  type SettingType,
  strings,
  text,
  url,
  wordsOf
} from "./Types.js"

/** Retention periods: 0 keeps forever. */
const retentionPeriod = duration("90d, 720h, 1h30m or 0")
/** The notifications' delivery method (the setting stays any text for embedders). */
const method: SettingType<string> = oneOf("smtp", "webhook", "inbox")

export const settingsTable = {
  // Networking
  /** The public URL of the deployment. */
  accessUrl: setting({
    type: text,
    default: "http://localhost:3000",
    flag: "access-url",
    help: "Public URL of the deployment (default http://localhost:PORT).",
    name: "Access URL",
    description: "The URL that users will use to access the deployment.",
    yaml: "accessURL",
    group: Group.networking,
    path: "access_url"
  }),
  /** Wildcard host for subdomain apps, e.g. `*.example.com`; empty when unset. */
  wildcardAccessUrl: setting({
    type: text,
    default: "",
    flag: "wildcard-access-url",
    help:
      "The wildcard host subdomain apps are served on, e.g. *.apps.example.com: each app at <app>--<agent>--<workspace>--<user>.apps.example.com (point the wildcard's DNS at the service). Default: none (subdomain apps are not served).",
    name: "Wildcard Access URL",
    description: "Specifies the wildcard hostname to use for workspace applications in the form \"*.example.com\".",
    yaml: "wildcardAccessURL",
    group: Group.networking,
    path: "wildcard_access_url"
  }),
  docsUrl: setting({
    type: text,
    default: "https://coder.com/docs",
    flag: "docs-url",
    name: "Docs URL",
    description: "Specifies the custom docs URL.",
    yaml: "docsURL",
    group: Group.networking,
    path: "docs_url"
  }),
  redirectToAccessUrl: setting({
    type: bool,
    default: false,
    flag: "redirect-to-access-url",
    name: "Redirect to Access URL",
    description: "Specifies whether to redirect requests that do not match the access URL host.",
    yaml: "redirectToAccessURL",
    group: Group.networking,
    path: "redirect_to_access_url"
  }),
  /** HTTP bind address of the server. */
  httpAddress: setting({
    type: text,
    default: "127.0.0.1:3000",
    flag: "http-address",
    name: "HTTP Address",
    description: "HTTP bind address of the server. Unset to disable the HTTP endpoint.",
    yaml: "httpAddress",
    group: Group.networkingHttp,
    path: "http_address"
  }),
  proxyTrustedHeaders: setting({
    type: strings,
    default: [],
    flag: "proxy-trusted-headers",
    help:
      "Headers a trusted proxy names the client's address in, tried in order (comma-separated), e.g. X-Forwarded-For,CF-Connecting-IP. Default: none.",
    name: "Proxy Trusted Headers",
    description:
      "Headers to trust for forwarding IP addresses. e.g. Cf-Connecting-Ip, True-Client-Ip, X-Forwarded-For.",
    yaml: "proxyTrustedHeaders",
    group: Group.networking,
    path: "proxy_trusted_headers"
  }),
  proxyTrustedOrigins: setting({
    type: strings,
    default: [],
    flag: "proxy-trusted-origins",
    help:
      "CIDRs of the proxies whose --proxy-trusted-headers are believed (comma-separated), e.g. 10.0.0.0/8,fd00::/8. Default: none (the socket's address is the client's).",
    name: "Proxy Trusted Origins",
    description: "Origin addresses to respect \"proxy-trusted-headers\". e.g. 192.168.1.0/24.",
    yaml: "proxyTrustedOrigins",
    group: Group.networking,
    path: "proxy_trusted_origins"
  }),
  secureAuthCookie: setting({
    type: bool,
    default: false,
    flag: "secure-auth-cookie",
    name: "Secure Auth Cookie",
    description: "Controls if the 'Secure' property is set on browser session cookies.",
    yaml: "secureAuthCookie",
    group: Group.networking,
    path: "http_cookies.secure_auth_cookie"
  }),
  /** SameSite attribute of the session cookie. */
  sameSiteCookie: setting({
    type: oneOf("lax", "strict", "none"),
    default: "lax",
    flag: "samesite-auth-cookie",
    name: "SameSite Auth Cookie",
    description: "Controls the 'SameSite' property is set on browser session cookies.",
    yaml: "sameSiteAuthCookie",
    group: Group.networking,
    path: "http_cookies.same_site"
  }),
  /** Max-age in seconds of the Strict-Transport-Security header; 0 disables it. */
  strictTransportSecurity: setting({
    type: int,
    default: 0,
    flag: "strict-transport-security",
    name: "Strict-Transport-Security",
    description:
      "Controls if the 'Strict-Transport-Security' header is set on all static file responses. This header should only be set if the server is accessed via HTTPS. This value is the MaxAge in seconds of the header.",
    yaml: "strictTransportSecurity",
    group: Group.networkingTls,
    path: "strict_transport_security"
  }),
  strictTransportSecurityOptions: setting({
    type: strings,
    default: [],
    flag: "strict-transport-security-options",
    name: "Strict-Transport-Security Options",
    description:
      "Two optional fields can be set in the Strict-Transport-Security header; 'includeSubDomains' and 'preload'. The 'strict-transport-security' flag must be set to a non-zero value for these options to be used.",
    yaml: "strictTransportSecurityOptions",
    group: Group.networkingTls,
    path: "strict_transport_security_options"
  }),
  additionalCspPolicy: setting({
    type: strings,
    default: [],
    flag: "additional-csp-policy",
    name: "Additional CSP Policy",
    description:
      "Additional Content Security Policy directives, e.g. \"script-src https://example.com\". They open the attack surface of the deployment.",
    yaml: "additionalCSPPolicy",
    group: Group.networkingHttp,
    path: "additional_csp_policy"
  }),
  browserOnly: setting({
    type: bool,
    default: false,
    flag: "browser-only",
    name: "Browser Only",
    description: "Whether the deployment only allows connections to workspaces via the browser.",
    yaml: "browserOnly",
    group: Group.networking,
    path: "browser_only",
    enterprise: true
  }),
  disablePathApps: setting({
    type: bool,
    default: false,
    flag: "disable-path-apps",
    help: "Refuse every path-based workspace app (/@owner/workspace/apps/...) with 403. Default: false.",
    name: "Disable Path Apps",
    description:
      "Disable workspace apps that are not served from subdomains. Path-based apps can make requests to the API and pose a security risk when the workspace serves malicious JavaScript.",
    yaml: "disablePathApps",
    group: Group.general,
    path: "disable_path_apps"
  }),
  /**
   * Path-based apps honour their `sharing_level` (Coder's `--dangerous-allow-path-app-sharing`).
   * Off: only the workspace's owner opens them (and anyone a `public` app, without a session).
   */
  dangerousAllowPathAppSharing: setting({
    type: bool,
    default: false,
    flag: "dangerous-allow-path-app-sharing",
    help:
      "Let path-based apps honour their sharing_level (off: only the workspace's owner opens them). Shared path apps can call the API as their visitors. Default: false.",
    name: "DANGEROUS: Allow Path App Sharing",
    description:
      "Allow workspace apps that are not served from subdomains to be shared. Path-based app sharing is DISABLED by default for security purposes. Path-based apps can make requests to the API and pose a security risk when the workspace serves malicious JavaScript. Path-based apps can be disabled entirely with --disable-path-apps for further security.",
    yaml: "allowPathAppSharing",
    group: Group.general,
    path: "dangerous.allow_path_app_sharing"
  }),
  /** Site owners may open other users' path-based `owner` apps (Coder's `--dangerous-allow-path-app-site-owner-access`). */
  dangerousAllowPathAppSiteOwnerAccess: setting({
    type: bool,
    default: false,
    flag: "dangerous-allow-path-app-site-owner-access",
    help: "Let site owners open other users' owner-level path-based apps. Default: false.",
    name: "DANGEROUS: Allow Site Owners to Access Path Apps",
    description:
      "Allow site-owners to access workspace apps from workspaces they do not own. Owners cannot access path-based apps they do not own by default. Path-based apps can make requests to the API and pose a security risk when the workspace serves malicious JavaScript. Path-based apps can be disabled entirely with --disable-path-apps for further security.",
    yaml: "allowPathAppSiteOwnerAccess",
    group: Group.general,
    path: "dangerous.allow_path_app_site_owner_access"
  }),
  disableOwnerWorkspaceExec: setting({
    type: bool,
    default: false,
    flag: "disable-owner-workspace-access",
    name: "Disable Owner Workspace Access",
    description: "Remove the permission for the 'owner' role to have workspace execution on all workspaces.",
    yaml: "disableOwnerWorkspaceAccess",
    group: Group.general,
    path: "disable_owner_workspace_exec"
  }),
  /** Requests per minute per user (or IP) on the API; negative for no limit. */
  rateLimitApi: setting({
    type: int,
    default: 512,
    flag: "api-rate-limit",
    help:
      "Requests per minute per user (per IP address when anonymous) on each API operation; 0 or less: no limit. Counted per replica. Default: 512.",
    name: "API Rate Limit",
    description:
      "Maximum number of requests per minute allowed to the API per user, or per IP address for unauthenticated users. Negative values mean no rate limit.",
    yaml: "apiRateLimit",
    group: Group.networkingHttp,
    path: "rate_limit.api",
    hidden: true
  }),
  rateLimitDisableAll: setting({
    type: bool,
    default: false,
    flag: "dangerous-disable-rate-limits",
    help: "Turn every rate limit off (the API's, sign-in's and files'). Not for production. Default: false.",
    name: "Disable All Rate Limits",
    description: "Disables all rate limits. This is not recommended in production.",
    yaml: "disableAllRateLimits",
    group: Group.networkingHttp,
    path: "rate_limit.disable_all",
    hidden: true
  }),
  /**
   * Requests per minute per IP (per user when signed in) on each sign-in route: password login,
   * one-time passcodes, password checks and changes, the first user, the OAuth2 token,
   * revocation and registration routes. <= 0 for no limit. Not a deployment option (as in the
   * described system, where only `disable_all` turns it off); embedders and tests set it.
   */
  rateLimitLogin: setting({
    type: int,
    default: 60
  }),
  /** Requests per minute per user on `/files` (upload and download). <= 0 for no limit. */
  rateLimitFiles: setting({
    type: int,
    default: 12
  }),

  // Sessions and tokens
  /** Lifetime of a login session. */
  sessionDuration: setting({
    type: duration(),
    default: Duration.hours(24),
    flag: "session-duration",
    name: "Session Duration",
    description:
      "The token expiry duration for browser sessions. Sessions may last longer if they are actively making requests, but this functionality can be disabled via --disable-session-expiry-refresh.",
    yaml: "sessionDuration",
    group: Group.networkingHttp,
    path: "session_lifetime.default_duration"
  }),
  /** When true, sessions are not extended on use. */
  disableSessionExpiryRefresh: setting({
    type: bool,
    default: false,
    flag: "disable-session-expiry-refresh",
    name: "Disable Session Expiry Refresh",
    description:
      "Disable automatic session expiry bumping due to activity. This forces all sessions to become invalid after the session expiry duration has been reached.",
    yaml: "disableSessionExpiryRefresh",
    group: Group.networkingHttp,
    path: "session_lifetime.disable_expiry_refresh"
  }),
  /** Lifetime of a token created without `lifetime`. */
  defaultTokenLifetime: setting({
    type: duration(),
    default: Duration.days(30),
    flag: "default-token-lifetime",
    name: "Default Token Lifetime",
    description:
      "The default lifetime duration for API tokens. This value is used when creating a token without specifying a duration.",
    yaml: "defaultTokenLifetime",
    group: Group.networkingHttp,
    path: "session_lifetime.default_token_lifetime"
  }),
  /** Upper bound of a token's lifetime for members. */
  maxTokenLifetime: setting({
    type: duration(),
    default: Duration.days(30),
    flag: "max-token-lifetime",
    name: "Max Token Lifetime",
    description: "The maximum lifetime duration users can specify when creating an API token.",
    yaml: "maxTokenLifetime",
    group: Group.networkingHttp,
    path: "session_lifetime.max_token_lifetime"
  }),
  /** Upper bound of a token's lifetime for owners. */
  maxAdminTokenLifetime: setting({
    type: duration(),
    default: Duration.days(7 * 52),
    flag: "max-admin-token-lifetime",
    name: "Maximum Admin Token Lifetime",
    description: "The maximum lifetime duration administrators can specify when creating an API token.",
    yaml: "maxAdminTokenLifetime",
    group: Group.networkingHttp,
    path: "session_lifetime.max_admin_token_lifetime"
  }),
  /** Lifetime of a one-time passcode. */
  oneTimePasscodeLifetime: setting({
    type: duration(),
    default: Duration.minutes(15),
    flag: "one-time-passcode-lifetime",
    name: "One-Time Passcode Lifetime",
    description: "How long a one-time passcode for a password reset stays valid.",
    yaml: "oneTimePasscodeLifetime",
    group: Group.networkingHttp,
    hidden: true
  }),
  disablePasswordAuth: setting({
    type: bool,
    default: false,
    flag: "disable-password-auth",
    name: "Disable Password Authentication",
    description:
      "Disable password authentication. This is recommended for security purposes in production deployments that rely on an identity provider. Owners can still sign in with their password to avoid lock out.",
    yaml: "disablePasswordAuth",
    group: Group.networkingHttp,
    path: "disable_password_auth"
  }),

  // Database and secrets
  /** PostgreSQL connection URL (secret). */
  pgConnectionUrl: setting({
    type: text,
    default: "",
    flag: "database-url",
    env: "DATABASE_URL",
    help: "postgres://... to store in PostgreSQL instead of SQLite.",
    name: "Postgres Connection URL",
    description: "URL of a PostgreSQL database. If empty, data is stored in the embedded SQLite database.",
    yaml: "",
    group: Group.database,
    path: "pg_connection_url",
    secret: true
  }),
  pgAuth: setting({
    type: oneOf("password", "awsiamrds"),
    default: "password",
    flag: "postgres-auth",
    name: "Postgres Auth",
    description:
      "Type of auth to use when connecting to postgres. For AWS RDS, using IAM authentication (awsiamrds) is recommended.",
    yaml: "pgAuth",
    group: Group.database,
    path: "pg_auth"
  }),
  pgConnMaxOpen: setting({
    type: count,
    default: 10,
    flag: "postgres-conn-max-open",
    name: "Postgres Connection Max Open",
    description: "Maximum number of open connections to the database.",
    help:
      "With --database-url: the most connections a replica opens for its queries (the listening one is apart). Default: 10.",
    yaml: "pgConnMaxOpen",
    group: Group.database,
    path: "pg_conn_max_open"
  }),
  pgConnMaxIdle: setting({
    type: text,
    default: "auto",
    flag: "postgres-conn-max-idle",
    name: "Postgres Connection Max Idle",
    description:
      "Maximum number of idle connections to the database. Set to \"auto\" (the default) to use max open / 3.",
    yaml: "pgConnMaxIdle",
    group: Group.database,
    path: "pg_conn_max_idle"
  }),
  /** Header value authenticating the SCIM endpoint (secret). */
  scimApiKey: setting({
    type: text,
    default: "",
    flag: "scim-auth-header",
    name: "SCIM API Key",
    description:
      "Enables SCIM and sets the authentication header for the built-in SCIM server. New users are automatically created with OIDC authentication.",
    yaml: "",
    group: Group.general,
    path: "scim_api_key",
    secret: true,
    enterprise: true
  }),
  /** Keys encrypting external tokens at rest (secret). */
  externalTokenEncryptionKeys: setting({
    type: keys,
    default: [],
    flag: "external-token-encryption-keys",
    help:
      "Keys (comma-separated, each base64 of 32 random bytes) encrypting external auth tokens and external agents' tokens at rest with AES-256-GCM: the first encrypts, the others only decrypt (rotate with `dbcrypt rotate`). Default: none (stored unencrypted, with a warning).",
    name: "External Token Encryption Keys",
    description:
      "Encrypt OIDC and Git authentication tokens with AES-256-GCM in the database. The value must be a comma-separated list of base64-encoded keys.",
    yaml: "",
    group: Group.general,
    path: "external_token_encryption_keys",
    secret: true,
    enterprise: true
  }),

  // OIDC
  oidcAllowSignups: setting({
    type: bool,
    default: true,
    flag: "oidc-allow-signups",
    help: "Create users on their first OIDC sign-in. Default: true.",
    name: "OIDC Allow Signups",
    description: "Whether new users can sign up with OIDC.",
    yaml: "allowSignups",
    group: Group.oidc,
    path: "oidc.allow_signups"
  }),
  oidcClientId: setting({
    type: text,
    default: "",
    flag: "oidc-client-id",
    help: "Client id at the OpenID provider.",
    name: "OIDC Client ID",
    description: "Client ID to use for Login with OIDC.",
    yaml: "clientID",
    group: Group.oidc,
    path: "oidc.client_id"
  }),
  /** OIDC client secret (secret). */
  oidcClientSecret: setting({
    type: text,
    default: "",
    flag: "oidc-client-secret",
    help: "Client secret at the OpenID provider (secret).",
    name: "OIDC Client Secret",
    description: "Client secret to use for Login with OIDC.",
    yaml: "",
    group: Group.oidc,
    path: "oidc.client_secret",
    secret: true
  }),
  oidcEmailDomain: setting({
    type: strings,
    default: [],
    flag: "oidc-email-domain",
    help: "Email domains allowed to sign in (comma-separated). Default: any.",
    name: "OIDC Email Domain",
    description: "Email domains that clients logging in with OIDC must match.",
    yaml: "emailDomain",
    group: Group.oidc,
    path: "oidc.email_domain"
  }),
  oidcIssuerUrl: setting({
    type: text,
    default: "",
    flag: "oidc-issuer-url",
    help: "Issuer URL of the OpenID provider (discovery).",
    name: "OIDC Issuer URL",
    description: "Issuer URL to use for Login with OIDC.",
    yaml: "issuerURL",
    group: Group.oidc,
    path: "oidc.issuer_url"
  }),
  oidcScopes: setting({
    type: strings,
    default: ["openid", "profile", "email"],
    flag: "oidc-scopes",
    help: "Scopes asked for. Default: openid,profile,email.",
    name: "OIDC Scopes",
    description: "Scopes to grant when authenticating with OIDC.",
    yaml: "scopes",
    group: Group.oidc,
    path: "oidc.scopes"
  }),
  oidcSignInText: setting({
    type: text,
    default: "OpenID Connect",
    flag: "oidc-sign-in-text",
    help: "Text of the sign-in button.",
    name: "OpenID Connect sign in text",
    description: "The text to show on the OpenID Connect sign in button.",
    yaml: "signInText",
    group: Group.oidc,
    path: "oidc.sign_in_text"
  }),
  oidcIconUrl: setting({
    type: text,
    default: "",
    flag: "oidc-icon-url",
    help: "Icon of the sign-in button.",
    name: "OpenID connect icon URL",
    description: "URL pointing to the icon to use on the OpenID Connect login button.",
    yaml: "iconURL",
    group: Group.oidc,
    path: "oidc.icon_url"
  }),
  /** Claims naming the new user's email, username and name (docs/sign-in.md). */
  oidcEmailField: setting({
    type: text,
    default: "email",
    flag: "oidc-email-field",
    help: "Claim holding the email. Default: email.",
    name: "OIDC Email Field",
    description: "OIDC claim field to use as the email.",
    yaml: "emailField",
    group: Group.oidc,
    path: "oidc.email_field"
  }),
  oidcUsernameField: setting({
    type: text,
    default: "preferred_username",
    flag: "oidc-username-field",
    help: "Claim holding the username. Default: preferred_username.",
    name: "OIDC Username Field",
    description: "OIDC claim field to use as the username.",
    yaml: "usernameField",
    group: Group.oidc,
    path: "oidc.username_field"
  }),
  oidcNameField: setting({
    type: text,
    default: "name",
    flag: "oidc-name-field",
    help: "Claim holding the name. Default: name.",
    name: "OIDC Name Field",
    description: "OIDC claim field to use as the name.",
    yaml: "nameField",
    group: Group.oidc,
    path: "oidc.name_field"
  }),
  /** Sign in even when the provider says `email_verified: false`. */
  oidcIgnoreEmailVerified: setting({
    type: bool,
    default: false,
    flag: "oidc-ignore-email-verified",
    help: "Sign in even when email_verified is false. Default: false.",
    name: "OIDC Ignore Email Verified",
    description: "Ignore the email_verified claim from the upstream provider.",
    yaml: "ignoreEmailVerified",
    group: Group.oidc,
    path: "oidc.ignore_email_verified"
  }),
  /** Take claims from the ID token only, without asking the userinfo endpoint. */
  oidcIgnoreUserInfo: setting({
    type: bool,
    default: false,
    flag: "oidc-ignore-userinfo",
    help: "Use the ID token's claims only. Default: false.",
    name: "OIDC Ignore UserInfo",
    description: "Ignore the userinfo endpoint and only use the ID token for user information.",
    yaml: "ignoreUserInfo",
    group: Group.oidc,
    path: "oidc.ignore_user_info"
  }),
  /** Shown when a sign-in would create a user and signups are off. */
  oidcSignupsDisabledText: setting({
    type: text,
    default: "",
    flag: "oidc-signups-disabled-text",
    help: "Shown when signups are off.",
    name: "OIDC Signups Disabled Text",
    description: "The text to show on the error page when signups are disabled.",
    yaml: "signupsDisabledText",
    group: Group.oidc,
    path: "oidc.signups_disabled_text"
  }),
  /** Claim holding the user's groups; empty turns group sync off. */
  oidcGroupField: setting({
    type: text,
    default: "",
    flag: "oidc-group-field",
    help: "Claim holding the user's groups (turns group sync on).",
    name: "OIDC Group Field",
    description: "This field must be set if using the group sync feature and the scope name is not 'groups'.",
    yaml: "groupField",
    group: Group.oidc,
    path: "oidc.groups_field"
  }),
  /** Claim value to group name; unmapped values are group names themselves. */
  oidcGroupMapping: setting({
    type: jsonObject<Readonly<Record<string, string>>>(),
    default: {},
    flag: "oidc-group-mapping",
    help: "JSON map of claim values to group names.",
    name: "OIDC Group Mapping",
    description:
      "A map of OIDC group IDs and the group they should map to. This is useful for when OIDC providers only return group IDs.",
    yaml: "groupMapping",
    group: Group.oidc,
    path: "oidc.group_mapping"
  }),
  /** Create groups the claim names that do not exist yet (with source `oidc`). */
  oidcGroupAutoCreate: setting({
    type: bool,
    default: false,
    flag: "oidc-group-auto-create",
    help: "Create groups the claim names. Default: false.",
    name: "Enable OIDC Group Auto Create",
    description: "Automatically creates missing groups from a user's groups claim.",
    yaml: "enableGroupAutoCreate",
    group: Group.oidc,
    path: "oidc.group_auto_create"
  }),
  /** Only claim values matching this regular expression are synced. */
  oidcGroupRegexFilter: setting({
    type: text,
    default: ".*",
    flag: "oidc-group-regex-filter",
    help: "Only claim values matching this expression are synced. Default: .*",
    name: "OIDC Regex Group Filter",
    description: "If provided any group name not matching the regex is ignored.",
    yaml: "groupRegexFilter",
    group: Group.oidc,
    path: "oidc.group_regex_filter"
  }),
  /** Group names of which a user's group claim must name one to sign in; empty: no such rule. */
  oidcAllowedGroups: setting({
    type: strings,
    default: [],
    flag: "oidc-allowed-groups",
    help: "Only users whose group claim names one of these groups may sign in (comma-separated).",
    name: "OIDC Allowed Groups",
    description:
      "If provided any group name not in the list will not be allowed to authenticate. This allows for restricting access to a specific set of groups. This filter is applied after the group mapping and before the regex filter.",
    yaml: "groupAllowed",
    group: Group.oidc,
    path: "oidc.group_allow_list"
  }),
  /** Claim holding the user's roles; empty turns role sync off. */
  oidcUserRoleField: setting({
    type: text,
    default: "",
    flag: "oidc-user-role-field",
    help: "Claim holding the user's roles (turns role sync on).",
    name: "OIDC User Role Field",
    description: "This field must be set if using the user roles sync feature.",
    yaml: "userRoleField",
    group: Group.oidc,
    path: "oidc.user_role_field"
  }),
  /** Claim value to site roles; unmapped values are site role names themselves. */
  oidcUserRoleMapping: setting({
    type: jsonObject<Readonly<Record<string, ReadonlyArray<string>>>>(),
    default: {},
    flag: "oidc-user-role-mapping",
    help: "JSON map of claim values to lists of site roles.",
    name: "OIDC User Role Mapping",
    description: "A map of the OIDC passed in user roles and the groups in Coder it should map to.",
    yaml: "userRoleMapping",
    group: Group.oidc,
    path: "oidc.user_role_mapping"
  }),
  /** Site roles every user gets from role sync, beside the claim's. */
  oidcUserRolesDefault: setting({
    type: strings,
    default: [],
    flag: "oidc-user-role-default",
    help: "Site roles every user gets from role sync (comma-separated).",
    name: "OIDC User Roles Default",
    description:
      "If user role sync is enabled, these roles are always included for all authenticated users. The 'member' role is always assigned.",
    yaml: "userRoleDefault",
    group: Group.oidc,
    path: "oidc.user_roles_default"
  }),

  // GitHub OAuth2
  oauth2GithubClientId: setting({
    type: text,
    default: "",
    flag: "oauth2-github-client-id",
    help: "Client id of the GitHub OAuth app for sign-in.",
    name: "OAuth2 GitHub Client ID",
    description: "Client ID for Login with GitHub.",
    yaml: "clientID",
    group: Group.oauth2Github,
    path: "oauth2.github.client_id"
  }),
  /** GitHub OAuth2 client secret (secret). */
  oauth2GithubClientSecret: setting({
    type: text,
    default: "",
    flag: "oauth2-github-client-secret",
    help: "Client secret of the GitHub OAuth app (secret).",
    name: "OAuth2 GitHub Client Secret",
    description: "Client secret for Login with GitHub.",
    yaml: "",
    group: Group.oauth2Github,
    path: "oauth2.github.client_secret",
    secret: true
  }),
  oauth2GithubDeviceFlow: setting({
    type: bool,
    default: false,
    flag: "oauth2-github-device-flow",
    help: "Sign in through GitHub's device flow. Default: false.",
    name: "OAuth2 GitHub Device Flow",
    description: "Enable device flow for Login with GitHub.",
    yaml: "deviceFlow",
    group: Group.oauth2Github,
    path: "oauth2.github.device_flow"
  }),
  oauth2GithubDefaultProviderEnable: setting({
    type: bool,
    default: true,
    flag: "oauth2-github-default-provider-enable",
    name: "OAuth2 GitHub Default Provider Enable",
    description: "Enable the default GitHub OAuth2 provider.",
    yaml: "defaultProviderEnable",
    group: Group.oauth2Github,
    path: "oauth2.github.default_provider_enable"
  }),
  oauth2GithubAllowedOrgs: setting({
    type: strings,
    default: [],
    flag: "oauth2-github-allowed-orgs",
    help: "GitHub organizations whose members may sign in (comma-separated).",
    name: "OAuth2 GitHub Allowed Orgs",
    description: "Organizations the user must be a member of to Login with GitHub.",
    yaml: "allowedOrgs",
    group: Group.oauth2Github,
    path: "oauth2.github.allowed_orgs"
  }),
  oauth2GithubAllowedTeams: setting({
    type: strings,
    default: [],
    flag: "oauth2-github-allowed-teams",
    help: "Teams (<org>/<team-slug>) whose members may sign in (comma-separated).",
    name: "OAuth2 GitHub Allowed Teams",
    description:
      "Teams inside organizations the user must be a member of to Login with GitHub. Structured as: <organization-name>/<team-slug>.",
    yaml: "allowedTeams",
    group: Group.oauth2Github,
    path: "oauth2.github.allowed_teams"
  }),
  oauth2GithubAllowSignups: setting({
    type: bool,
    default: false,
    flag: "oauth2-github-allow-signups",
    help: "Create users on their first GitHub sign-in. Default: false.",
    name: "OAuth2 GitHub Allow Signups",
    description: "Whether new users can sign up with GitHub.",
    yaml: "allowSignups",
    group: Group.oauth2Github,
    path: "oauth2.github.allow_signups"
  }),
  oauth2GithubAllowEveryone: setting({
    type: bool,
    default: false,
    flag: "oauth2-github-allow-everyone",
    help: "Let any GitHub user sign in (no organization check). Default: false.",
    name: "OAuth2 GitHub Allow Everyone",
    description: "Allow all logins, setting this option means allowed orgs and teams must be empty.",
    yaml: "allowEveryone",
    group: Group.oauth2Github,
    path: "oauth2.github.allow_everyone"
  }),
  oauth2GithubEnterpriseBaseUrl: setting({
    type: text,
    default: "",
    flag: "oauth2-github-enterprise-base-url",
    help: "Base URL of a GitHub Enterprise server. Default: github.com.",
    name: "OAuth2 GitHub Enterprise Base URL",
    description: "Base URL of a GitHub Enterprise deployment to use for Login with GitHub.",
    yaml: "enterpriseBaseURL",
    group: Group.oauth2Github,
    path: "oauth2.github.enterprise_base_url"
  }),

  // Retention
  retentionApiKeys: setting({
    type: retentionPeriod,
    default: Duration.days(7),
    flag: "api-keys-retention",
    help: "How long expired API keys are kept before deletion (0 keeps forever). Default: 7d.",
    name: "API Keys Retention",
    description: "How long expired API keys are kept before they are deleted. Set to 0 to keep them forever.",
    yaml: "apiKeys",
    group: Group.retention,
    path: "retention.api_keys"
  }),
  retentionAuditLogs: setting({
    type: retentionPeriod,
    default: Duration.zero,
    flag: "audit-logs-retention",
    help: "How long audit entries are kept (e.g. 90d, 720h; 0 keeps forever). Default: forever.",
    name: "Audit Logs Retention",
    description: "How long audit log entries are kept. Set to 0 to keep them forever.",
    yaml: "auditLogs",
    group: Group.retention,
    path: "retention.audit_logs"
  }),
  retentionConnectionLogs: setting({
    type: retentionPeriod,
    default: Duration.zero,
    flag: "connection-logs-retention",
    help: "How long connection log entries are kept (0 keeps forever). Default: forever.",
    name: "Connection Logs Retention",
    description: "How long connection log entries are kept. Set to 0 to keep them forever.",
    yaml: "connectionLogs",
    group: Group.retention,
    path: "retention.connection_logs"
  }),
  retentionWorkspaceAgentLogs: setting({
    type: retentionPeriod,
    default: Duration.days(7),
    flag: "workspace-agent-logs-retention",
    help: "How long workspace agent log lines are kept (0 keeps forever). Default: 7d.",
    name: "Workspace Agent Logs Retention",
    description: "How long workspace agent logs are kept. Set to 0 to keep them forever.",
    yaml: "workspaceAgentLogs",
    group: Group.retention,
    path: "retention.workspace_agent_logs"
  }),

  // Notifications
  emailFrom: setting({
    type: text,
    default: "",
    flag: "email-from",
    help: "Sender address of notification mail.",
    name: "Notifications: Email: From Address",
    description: "The sender's address to use.",
    yaml: "from",
    group: Group.notificationsEmail,
    path: "notifications.email.from"
  }),
  emailSmarthost: setting({
    type: text,
    default: "",
    flag: "email-smarthost",
    help: "host:port of the SMTP server mail goes through. Default: none (mail off).",
    name: "Notifications: Email: Smarthost",
    description: "The intermediary SMTP host through which emails are sent.",
    yaml: "smarthost",
    group: Group.notificationsEmail,
    path: "notifications.email.smarthost"
  }),
  emailHello: setting({
    type: text,
    default: "localhost",
    flag: "email-hello",
    help: "Hostname given to the SMTP server (EHLO). Default: localhost.",
    name: "Notifications: Email: Hello",
    description: "The hostname identifying the SMTP server.",
    yaml: "hello",
    group: Group.notificationsEmail,
    path: "notifications.email.hello"
  }),
  emailAuthUsername: setting({
    type: text,
    default: "",
    flag: "email-auth-username",
    help: "Username for PLAIN/LOGIN authentication.",
    name: "Notifications: Email Auth: Username",
    description: "Username to use with PLAIN/LOGIN authentication.",
    yaml: "username",
    group: Group.notificationsEmailAuth,
    path: "notifications.email.auth.username"
  }),
  /** SMTP password (secret). */
  emailAuthPassword: setting({
    type: text,
    default: "",
    flag: "email-auth-password",
    help: "Password for PLAIN/LOGIN authentication.",
    name: "Notifications: Email Auth: Password",
    description: "Password to use with PLAIN/LOGIN authentication.",
    yaml: "",
    group: Group.notificationsEmailAuth,
    path: "notifications.email.auth.password",
    secret: true
  }),
  notificationsInboxEnabled: setting({
    type: bool,
    default: true,
    flag: "notifications-inbox-enabled",
    help: "Deliver notifications to the users' inbox too. Default: true.",
    name: "Notifications: Inbox: Enabled",
    description: "Enable the inbox.",
    yaml: "enabled",
    group: Group.inbox,
    path: "notifications.inbox.enabled"
  }),
  /** Identity for PLAIN authentication (rarely needed). */
  emailAuthIdentity: setting({
    type: text,
    default: "",
    flag: "email-auth-identity",
    help: "Identity for PLAIN authentication.",
    name: "Notifications: Email Auth: Identity",
    description: "Identity to use with PLAIN authentication.",
    yaml: "identity",
    group: Group.notificationsEmailAuth,
    path: "notifications.email.auth.identity"
  }),
  /** Connect over TLS from the start (implicit TLS, usually port 465). */
  emailForceTls: setting({
    type: bool,
    default: false,
    flag: "email-force-tls",
    help: "Connect to the smarthost over TLS from the start. Default: false.",
    name: "Notifications: Email: Force TLS",
    description: "Force a TLS connection to the configured SMTP smarthost.",
    yaml: "forceTLS",
    group: Group.notificationsEmail,
    path: "notifications.email.force_tls"
  }),
  /** Upgrade to TLS with STARTTLS (required when on). */
  emailTlsStartTls: setting({
    type: bool,
    default: false,
    flag: "email-tls-starttls",
    help: "Require STARTTLS. Default: false (used when offered).",
    name: "Notifications: Email TLS: StartTLS",
    description: "Enable STARTTLS to upgrade insecure SMTP connections using TLS.",
    yaml: "startTLS",
    group: Group.notificationsEmailTls,
    path: "notifications.email.tls.start_tls"
  }),
  emailTlsServerName: setting({
    type: text,
    default: "",
    flag: "email-tls-server-name",
    env: "WORKBAY_EMAIL_TLS_SERVERNAME",
    help: "Server name to verify the smarthost's certificate against.",
    name: "Notifications: Email TLS: Server Name",
    description: "Server name to verify against the target certificate.",
    yaml: "serverName",
    group: Group.notificationsEmailTls,
    path: "notifications.email.tls.server_name"
  }),
  emailTlsInsecureSkipVerify: setting({
    type: bool,
    default: false,
    flag: "email-tls-skip-verify",
    env: "WORKBAY_EMAIL_TLS_SKIPVERIFY",
    help: "Do not verify the smarthost's certificate (insecure). Default: false.",
    name: "Notifications: Email TLS: Skip Certificate Verification (Insecure)",
    description: "Skip verification of the target server's certificate (insecure).",
    yaml: "insecureSkipVerify",
    group: Group.notificationsEmailTls,
    path: "notifications.email.tls.insecure_skip_verify"
  }),
  /** Files of the CA certificate and the client certificate and key for mail TLS. */
  emailTlsCaFile: setting({
    type: text,
    default: "",
    flag: "email-tls-ca-cert-file",
    env: "WORKBAY_EMAIL_TLS_CACERTFILE",
    help: "CA certificate file for the smarthost's TLS.",
    name: "Notifications: Email TLS: Certificate Authority File",
    description: "CA certificate file to use.",
    yaml: "caCertFile",
    group: Group.notificationsEmailTls,
    path: "notifications.email.tls.ca_file"
  }),
  emailTlsCertFile: setting({
    type: text,
    default: "",
    flag: "email-tls-cert-file",
    env: "WORKBAY_EMAIL_TLS_CERTFILE",
    help: "Client certificate file for the smarthost's TLS.",
    name: "Notifications: Email TLS: Certificate File",
    description: "Certificate file to use.",
    yaml: "certFile",
    group: Group.notificationsEmailTls,
    path: "notifications.email.tls.cert_file"
  }),
  emailTlsKeyFile: setting({
    type: text,
    default: "",
    flag: "email-tls-cert-key-file",
    env: "WORKBAY_EMAIL_TLS_CERTKEYFILE",
    help: "Client certificate key file for the smarthost's TLS.",
    name: "Notifications: Email TLS: Certificate Key File",
    description: "Certificate key file to use.",
    yaml: "certKeyFile",
    group: Group.notificationsEmailTls,
    path: "notifications.email.tls.key_file"
  }),
  /** The default delivery method: smtp or webhook (inbox messages are enqueued beside it). */
  notificationsMethod: setting({
    type: method,
    default: "smtp",
    flag: "notifications-method",
    help: "Default delivery method of notifications: smtp or webhook (inbox messages go out beside it). Default: smtp.",
    name: "Notifications: Method",
    description: "Which delivery method to use (available options: 'smtp', 'webhook').",
    yaml: "method",
    group: Group.notifications,
    path: "notifications.method"
  }),
  /** How long one send may take before it counts as failed. */
  notificationsDispatchTimeout: setting({
    type: duration(),
    default: Duration.minutes(1),
    flag: "notifications-dispatch-timeout",
    help: "How long one send may take. Default: 1m.",
    name: "Notifications: Dispatch Timeout",
    description: "How long to wait while a notification is being sent before giving up.",
    yaml: "dispatchTimeout",
    group: Group.notifications,
    path: "notifications.dispatch_timeout"
  }),
  notificationsMaxSendAttempts: setting({
    type: count,
    default: 5,
    flag: "notifications-max-send-attempts",
    help: "Attempts before a notification fails for good. Default: 5.",
    name: "Notifications: Max Send Attempts",
    description: "The upper limit of attempts to send a notification.",
    yaml: "maxSendAttempts",
    group: Group.notifications,
    path: "notifications.max_send_attempts"
  }),
  notificationsRetryInterval: setting({
    type: duration(),
    default: Duration.minutes(5),
    flag: "notifications-retry-interval",
    help: "Time between attempts. Default: 5m.",
    name: "Notifications: Retry Interval",
    description: "The minimum time between retries.",
    yaml: "retryInterval",
    group: Group.notifications,
    path: "notifications.retry_interval",
    hidden: true
  }),
  /** How long a notifier holds the messages it leased; past it another may lease them. */
  notificationsLeasePeriod: setting({
    type: duration(),
    default: Duration.minutes(2),
    flag: "notifications-lease-period",
    help: "How long a notifier holds the messages it leased. Default: 2m.",
    name: "Notifications: Lease Period",
    description:
      "How long a notifier should lease a message. This is effectively how long a notification is 'owned' by a notifier, and once this period expires it will be available for lease by another notifier.",
    yaml: "leasePeriod",
    group: Group.notifications,
    path: "notifications.lease_period",
    hidden: true
  }),
  /** How many messages one fetch leases. */
  notificationsLeaseCount: setting({
    type: count,
    default: 20,
    flag: "notifications-lease-count",
    help: "Messages leased per fetch. Default: 20.",
    name: "Notifications: Lease Count",
    description: "How many notifications a notifier should lease per fetch interval.",
    yaml: "leaseCount",
    group: Group.notifications,
    path: "notifications.lease_count",
    hidden: true
  }),
  notificationsFetchInterval: setting({
    type: duration(),
    default: Duration.seconds(15),
    flag: "notifications-fetch-interval",
    help: "Time between fetches of queued notifications. Default: 15s.",
    name: "Notifications: Fetch Interval",
    description: "How often to query the database for queued notifications.",
    yaml: "fetchInterval",
    group: Group.notifications,
    path: "notifications.fetch_interval",
    hidden: true
  }),
  /** Where the webhook method POSTs; empty: the method is not configured. */
  notificationsWebhookEndpoint: setting({
    type: url,
    default: "",
    flag: "notifications-webhook-endpoint",
    help: "URL the webhook method POSTs to. Default: none (webhook off).",
    name: "Notifications: Webhook: Endpoint",
    description: "The endpoint to which to send webhooks.",
    yaml: "endpoint",
    group: Group.notificationsWebhook,
    path: "notifications.webhook.endpoint"
  }),

  // Introspection
  verbose: setting({
    type: bool,
    default: false,
    flag: "verbose",
    shorthand: "v",
    name: "Verbose",
    description: "Output debug-level logs.",
    yaml: "verbose",
    group: Group.logging,
    path: "verbose",
    hidden: true,
    useInstead: ["logFilter"]
  }),
  logFilter: setting({
    type: strings,
    default: [],
    flag: "log-filter",
    shorthand: "l",
    name: "Log Filter",
    description: "Filter debug logs by matching against a given regex. Use .* to match all debug logs.",
    yaml: "filter",
    group: Group.logging,
    path: "logging.log_filter"
  }),
  telemetryEnable: setting({
    type: bool,
    default: false,
    flag: "telemetry",
    env: "WORKBAY_TELEMETRY_ENABLE",
    name: "Telemetry Enable",
    description: "Whether telemetry is enabled or not.",
    yaml: "enable",
    group: Group.telemetry,
    path: "telemetry.enable"
  }),
  /** Whether the standalone server collects and exports spans (docs/tracing.md). */
  traceEnable: setting({
    type: bool,
    default: false,
    flag: "trace",
    env: "WORKBAY_TRACE_ENABLE",
    help:
      "Collect tracing spans (requests, service calls, SQL, provisioner jobs) and export them over OTLP/HTTP to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces, else http://localhost:4318/v1/traces. Default: false.",
    name: "Trace Enable",
    description: "Whether application tracing data is collected.",
    yaml: "enable",
    group: Group.tracing,
    path: "trace.enable"
  }),
  /** Honeycomb API key for trace export (secret). */
  traceHoneycombApiKey: setting({
    type: text,
    default: "",
    flag: "trace-honeycomb-api-key",
    name: "Trace Honeycomb API Key",
    description: "Enables trace exporting to Honeycomb.io using the provided API Key.",
    yaml: "",
    group: Group.tracing,
    path: "trace.honeycomb_api_key",
    secret: true
  }),
  /** Whether the standalone server serves Prometheus metrics, and where (docs/operations.md, "Metrics"). */
  prometheusEnable: setting({
    type: bool,
    default: false,
    flag: "prometheus-enable",
    help: "Serve Prometheus metrics (GET /metrics) on --prometheus-address. Default: false.",
    name: "Prometheus Enable",
    description: "Serve prometheus metrics on the address defined by prometheus address.",
    yaml: "enable",
    group: Group.prometheus,
    path: "prometheus.enable"
  }),
  prometheusAddress: setting({
    type: address,
    default: "127.0.0.1:2112",
    flag: "prometheus-address",
    help: "host:port of the Prometheus metrics listener (port 0: any free port). Default: 127.0.0.1:2112.",
    name: "Prometheus Address",
    description: "The bind address to serve prometheus metrics.",
    yaml: "address",
    group: Group.prometheus,
    path: "prometheus.address"
  }),
  updateCheck: setting({
    type: bool,
    default: false,
    flag: "update-check",
    name: "Update Check",
    description: "Periodically check for new releases and inform the owner. The check is performed once per day.",
    yaml: "updateCheck",
    group: Group.general,
    path: "update_check"
  }),
  /** Serves the OpenAPI document when on. */
  swaggerEnable: setting({
    type: bool,
    default: false,
    flag: "swagger-enable",
    help: "Serve the OpenAPI document at /swagger/doc.json. Default: false.",
    name: "Enable swagger endpoint",
    description: "Expose the swagger endpoint via /swagger.",
    yaml: "enableSwagger",
    group: Group.general,
    path: "swagger.enable"
  }),
  experiments: setting({
    type: strings,
    default: [],
    flag: "experiments",
    help: "Comma-separated experiments to enable ('*' for all).",
    name: "Experiments",
    description:
      "Enable one or more experiments. These are not ready for production. Separate multiple experiments with commas, or enter '*' to opt-in to all available experiments.",
    yaml: "experiments",
    group: Group.general,
    path: "experiments"
  }),

  // Provisioning
  provisionerDaemons: setting({
    type: int,
    default: 3,
    flag: "provisioner-daemons",
    help: "Built-in provisioner workers in this process (0: none, e.g. API-only replicas). Default: 2.",
    name: "Provisioner Daemons",
    description:
      "Number of provisioner daemons to create on start. If builds are stuck in queued state for a long time, consider increasing this.",
    yaml: "daemons",
    group: Group.provisioning,
    path: "provisioner.daemons"
  }),
  provisionerForceCancelInterval: setting({
    type: duration(),
    default: Duration.minutes(10),
    flag: "provisioner-force-cancel-interval",
    name: "Force Cancel Interval",
    description: "Time to force cancel provisioning tasks that are stuck.",
    yaml: "forceCancelInterval",
    group: Group.provisioning,
    path: "provisioner.force_cancel_interval"
  }),
  // Docker: the docker provisioner (@workbay/docker, docs/docker.md); Workbay's own settings.
  /** auto: on when a Docker daemon answers at start-up; the server reports what it chose. */
  dockerProvisioner: setting({
    type: oneOf("auto", "on", "off"),
    default: "auto",
    flag: "docker",
    help:
      "The docker provisioner (workspaces as containers): auto (on when a Docker daemon answers at start-up), on (start-up fails without one) or off. Default: auto.",
    name: "Docker Provisioner",
    description:
      "Whether the docker provisioner runs: auto turns it on when a Docker daemon answers at start-up. Reported as on or off once decided.",
    yaml: "enable",
    group: Group.docker
  }),
  dockerHost: setting({
    type: text,
    default: "",
    flag: "docker-host",
    env: "DOCKER_HOST",
    help: "The Docker daemon's address (unix:///path or tcp://host:port). Default: unix:///var/run/docker.sock.",
    name: "Docker Host",
    description: "Where the Docker daemon listens; empty for unix:///var/run/docker.sock.",
    yaml: "host",
    group: Group.docker
  }),
  dockerNetwork: setting({
    type: text,
    default: "bridge",
    flag: "docker-network",
    help:
      "The network of workspace containers whose template names none (bridge, host, or a network's name). Default: bridge.",
    name: "Docker Network",
    description:
      "The network of workspace containers whose template names none. host shares the host's network with them (the operator's choice; templates may not ask for it unless allowed).",
    yaml: "network",
    group: Group.docker
  }),
  dockerAgentUrl: setting({
    type: text,
    default: "",
    flag: "docker-agent-url",
    help:
      "The URL agents in workspace containers reach this deployment at. Default: the access URL, with a loopback host replaced by host.docker.internal unless containers share the host's network.",
    name: "Docker Agent URL",
    description:
      "The deployment's URL as agents in workspace containers reach it; empty derives it from the access URL.",
    yaml: "agentURL",
    group: Group.docker
  }),
  dockerAllow: setting({
    type: wordsOf("privileged", "host-network", "host-pid", "bind-mounts"),
    default: [],
    flag: "docker-allow",
    help:
      "DANGEROUS: what templates may ask of workspace containers that weakens their isolation from the host: privileged, host-network, host-pid, bind-mounts (comma-separated). Default: none.",
    name: "Docker Allowances (dangerous)",
    description:
      "Container settings templates may use although they weaken isolation from the host: privileged, host-network, host-pid, bind-mounts.",
    yaml: "allow",
    group: Group.docker
  }),
  /** Time between health checks of the workspace proxies (docs/workspace-proxies.md). */
  proxyHealthStatusInterval: setting({
    type: duration(),
    default: Duration.minutes(1),
    flag: "proxy-health-interval",
    help: "Time between health checks of workspace proxies. Default: 1m.",
    name: "Proxy Health Check Interval",
    description: "The interval in which coderd should be checking the status of workspace proxies.",
    yaml: "proxyHealthInterval",
    group: Group.networking,
    path: "proxy_health_status_interval"
  }),
  /** Links of the dashboard's support menu; empty: the described system's defaults (the docs link first). */
  supportLinks: setting({
    type: links,
    default: [],
    flag: "support-links",
    help:
      "Links of the dashboard's help menu, a JSON list of {\"name\", \"target\", \"icon\"} (icon: bug, chat, docs or star, or an image URL; \"location\": navbar or dropdown). Default: the built-in ones.",
    name: "Support Links",
    description: "Support links to display in the top right drop down menu.",
    yaml: "supportLinks",
    path: "support.links"
  }),
  /** Pre-shared key of external provisioner daemons (secret). */
  provisionerDaemonPsk: setting({
    type: text,
    default: "",
    flag: "provisioner-daemon-psk",
    name: "Provisioner Daemon Pre-shared Key (PSK)",
    description: "Pre-shared key to authenticate external provisioner daemons to the server.",
    yaml: "",
    group: Group.provisioning,
    path: "provisioner.daemon_psk",
    secret: true
  }),

  // Quiet hours
  /** Default quiet-hours schedule (cron with CRON_TZ), and whether users may set theirs. */
  defaultQuietHoursSchedule: setting({
    type: text,
    default: "CRON_TZ=UTC 0 0 * * *",
    flag: "default-quiet-hours-schedule",
    env: "WORKBAY_QUIET_HOURS_DEFAULT_SCHEDULE",
    name: "Default Quiet Hours Schedule",
    description:
      "The default daily cron schedule applied to users that haven't set a custom quiet hours schedule themselves. The day-of-month, month and day-of-week must be *.",
    yaml: "defaultQuietHoursSchedule",
    group: Group.quietHours,
    path: "user_quiet_hours_schedule.default_schedule"
  }),
  allowCustomQuietHours: setting({
    type: bool,
    default: true,
    flag: "allow-custom-quiet-hours",
    name: "Allow Custom Quiet Hours",
    description:
      "Allow users to set their own quiet hours schedule. If false, users can't change their quiet hours schedule and the site default is always used.",
    yaml: "allowCustomQuietHours",
    group: Group.quietHours,
    path: "user_quiet_hours_schedule.allow_user_custom"
  }),

  // Client
  sshHostnamePrefix: setting({
    type: text,
    default: "coder.",
    flag: "ssh-hostname-prefix",
    name: "SSH Host Prefix",
    description: "The SSH deployment prefix is used in the Host of the ssh config.",
    yaml: "sshHostnamePrefix",
    group: Group.client,
    path: "config_ssh.deploymentName"
  }),
  /** Hostname suffix of workspaces in SSH config (Coder's workspace hostname suffix). */
  sshHostnameSuffix: setting({
    type: text,
    default: "coder",
    flag: "workspace-hostname-suffix",
    name: "Workspace Hostname Suffix",
    description: "Workspace hostnames use this suffix in SSH config and Coder Connect on Coder Desktop.",
    yaml: "workspaceHostnameSuffix",
    group: Group.client,
    path: "workspace_hostname_suffix"
  }),
  /** Extra SSH config options, each `key=value` or `key value`. */
  sshConfigOptions: setting({
    type: strings,
    default: [],
    flag: "ssh-config-options",
    name: "SSH Config Options",
    description:
      "These SSH config options will override the default SSH config options. Provide options in \"key=value\" or \"key value\" format separated by commas.",
    yaml: "sshConfigOptions",
    group: Group.client,
    path: "config_ssh.sshconfigOptions"
  }),
  cliUpgradeMessage: setting({
    type: text,
    default: "",
    flag: "cli-upgrade-message",
    name: "CLI Upgrade Message",
    description: "The upgrade message to display to users when a client/server mismatch is detected.",
    yaml: "cliUpgradeMessage",
    group: Group.client,
    path: "cli_upgrade_message"
  }),
  webTerminalRenderer: setting({
    type: oneOf("canvas", "webgl", "dom"),
    default: "canvas",
    flag: "web-terminal-renderer",
    name: "Web Terminal Renderer",
    description: "The renderer to use when opening a web terminal. Valid values are 'canvas', 'webgl', or 'dom'.",
    yaml: "webTerminalRenderer",
    group: Group.client,
    path: "web_terminal_renderer"
  }),
  sshKeygenAlgorithm: setting({
    type: oneOf("ed25519", "ecdsa", "rsa4096"),
    default: "ed25519",
    flag: "ssh-keygen-algorithm",
    name: "SSH Keygen Algorithm",
    description:
      "The algorithm to use for generating ssh keys. Accepted values are \"ed25519\", \"ecdsa\", or \"rsa4096\".",
    yaml: "sshKeygenAlgorithm",
    group: Group.general,
    path: "ssh_keygen_algorithm"
  }),
  termsOfServiceUrl: setting({
    type: text,
    default: "",
    flag: "terms-of-service-url",
    name: "Terms of Service URL",
    description: "A URL to an external Terms of Service that must be accepted by users when logging in.",
    yaml: "termsOfServiceURL",
    group: Group.general,
    path: "terms_of_service_url"
  }),
  allowWorkspaceRenames: setting({
    type: bool,
    default: false,
    flag: "allow-workspace-renames",
    name: "Allow Workspace Renames",
    description: "DEPRECATED: Allow users to rename their workspaces. Use only for temporary compatibility reasons.",
    yaml: "allowWorkspaceRenames",
    group: Group.general,
    path: "allow_workspace_renames"
  }),
  enableTerraformDebugMode: setting({
    type: bool,
    default: false,
    flag: "enable-terraform-debug-mode",
    name: "Enable Terraform debug mode",
    description: "Allow administrators to enable Terraform debug output.",
    yaml: "enableTerraformDebugMode",
    group: Group.logging,
    path: "enable_terraform_debug_mode"
  }),
  hideAiTasks: setting({
    type: bool,
    default: false,
    flag: "hide-ai-tasks",
    name: "Hide AI Tasks",
    description: "Hide AI tasks from the dashboard.",
    yaml: "hideAITasks",
    group: Group.client,
    path: "hide_ai_tasks"
  }),
  disableWorkspaceSharing: setting({
    type: bool,
    default: false,
    flag: "disable-workspace-sharing",
    help: "Turn workspace sharing off: workspace access lists grant nothing and cannot be changed. Default: false.",
    name: "Disable Workspace Sharing",
    description:
      "Disable workspace sharing. Workspace ACL checking is disabled and only owners can access their workspaces.",
    yaml: "disableWorkspaceSharing",
    group: Group.general,
    path: "disable_workspace_sharing"
  }),
  disableChatSharing: setting({
    type: bool,
    default: false,
    flag: "disable-chat-sharing",
    name: "Disable Chat Sharing",
    description: "Disable sharing of AI chats with other users.",
    yaml: "disableChatSharing",
    group: Group.general,
    path: "disable_chat_sharing"
  }),
  /**
   * Where the other replicas reach this one (`http://10.0.0.5:3000`): requests for an agent connected
   * here that land on another replica are relayed to it (docs/agents.md, "Several replicas").
   */
  derpServerRelayUrl: setting({
    type: url,
    default: "",
    flag: "derp-server-relay-url",
    help:
      "An HTTP URL the other replicas reach this one at, to relay terminals, tunnels, SSH and apps of agents connected here. Required with several replicas. The standalone server defaults it to http://<--host>:<--port> when --host names an address.",
    name: "DERP Server Relay URL",
    description:
      "An HTTP URL the other replicas reach this one at, to relay requests for the agents connected to it. Required for several replicas.",
    yaml: "relayURL",
    group: Group.networking,
    path: "derp.server.relay_url"
  }),
  /** The relay (DERP) map clients and agents use; null: the embedded relay at the access URL. See agents/RelayMap.ts. */
  relayMap: setting({
    type: inCode<DerpMap | null>(),
    default: null
  }),
  /** PEM certificates of AWS regions whose keys sign instance identity documents (RSA SHA-256). */
  awsInstanceIdentityCertificates: setting({
    type: strings,
    default: [],
    flag: "aws-instance-identity-certificates",
    help:
      "File of PEM certificates of the AWS regions whose signed instance identity documents agents may exchange for their token. Default: none (refused).",
    name: "AWS Instance Identity Certificates",
    description:
      "PEM certificates of the AWS regions whose signed instance identity documents agents may exchange for their token (the flag names a file). None: refused.",
    yaml: "awsCertificates",
    group: Group.instanceIdentity
  }),
  /** PEM certificates an Azure attested document's signer must chain to (roots, or intermediates one trusts). */
  azureInstanceIdentityCertificates: setting({
    type: strings,
    default: [],
    flag: "azure-instance-identity-certificates",
    help:
      "File of PEM certificates (roots) an Azure attested document's signer must chain to. Default: none (refused).",
    name: "Azure Instance Identity Certificates",
    description:
      "PEM certificates an Azure attested document's signer must chain to (the flag names a file). None: refused.",
    yaml: "azureCertificates",
    group: Group.instanceIdentity
  }),
  /** Google's identity token keys: JWKS JSON, a JSON map of key ids to PEM certificates, or PEM certificates or keys. */
  googleInstanceIdentityKeys: setting({
    type: strings,
    default: [],
    flag: "google-instance-identity-keys",
    help:
      "File of Google's identity token keys (JWKS JSON, a JSON map of key ids to PEM certificates, or PEM). Default: none (refused).",
    name: "Google Instance Identity Keys",
    description:
      "Keys of Google's instance identity tokens: JWKS JSON, a JSON map of key ids to PEM certificates, or PEM (the flag names a file). None: refused.",
    yaml: "googleKeys",
    group: Group.instanceIdentity
  }),
  /** Providers users link for their workspaces (GitHub, GitLab, generic OAuth2); client secrets never reported. */
  externalAuth: setting({
    type: providers,
    default: [],
    flag: "external-auth-providers",
    help:
      "External auth providers as a JSON list of {type, id, client_id, client_secret, ...}. Or WORKBAY_EXTERNAL_AUTH_<n>_<FIELD> variables (TYPE, ID, CLIENT_ID, CLIENT_SECRET, AUTH_URL, TOKEN_URL, VALIDATE_URL, REGEX, SCOPES, DEVICE_FLOW, ...).",
    name: "External Auth Providers",
    description:
      "External Authentication providers (set with WORKBAY_EXTERNAL_AUTH_<n>_<FIELD> variables). Client secrets are never shown.",
    yaml: "externalAuthProviders",
    group: Group.general,
    path: "external_auth",
    hidden: true
  }),
  /** Ed25519 public key (PEM or JWK) licenses are verified with; empty: no licenses, every feature entitled. */

  // Licenses (docs/enterprise.md)
  /** Ed25519 public key (PEM or JWK) licenses are verified with; empty: no licenses, every feature entitled. */
  licensePublicKey: setting({
    type: text,
    default: "",
    flag: "license-public-key",
    help:
      "Ed25519 public key (PEM, or a JWK as JSON) licenses are verified with. Default: none (no licenses; every feature entitled)."
  })
} as const

/** A setting's name: a key of the table. */
export type SettingKey = keyof typeof settingsTable

/** The value of every setting of the table, by name (each as its kind reads it). */
export type SettingValues = {
  readonly [K in SettingKey]: (typeof settingsTable)[K] extends Setting<infer A> ? A : never
}

/** The table's declarations as one list, in table order (the deployment config's order). */
export const settingsList: ReadonlyArray<readonly [SettingKey, Setting<unknown>]> = Object.entries(
  settingsTable
) as never
