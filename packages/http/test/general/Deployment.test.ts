/**
 * Black-box tests of the deployment group: deployment config, SSH config,
 * stats and experiments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectFields } from "../shapes.js"
import { type Client, createUser, expectIsoDate, expectResponse, startWithOwner, type TestServer } from "../support.js"

/** Every top-level key the spec lists for `config` (an empty value is absent; see CONFIG_STRUCTS). */
const CONFIG_KEYS = [
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

/** Top-level values that are structs in the described system: sent even when empty. */
const CONFIG_STRUCTS = ["access_url", "address", "agent_fallback_troubleshooting_url", "docs_url", "external_auth"]

/** Checks `config` holds only known keys and no empty top-level value but the struct ones. */
const expectConfigKeys = (c: Record<string, unknown>) => {
  expect(Object.keys(c).filter((k) => !CONFIG_KEYS.includes(k))).toEqual([])
  for (const [k, v] of Object.entries(c)) {
    if (CONFIG_STRUCTS.includes(k)) continue
    const empty = v === "" || v === false || v === 0 || (Array.isArray(v) && v.length === 0)
    expect(empty, `config.${k} is sent empty (${JSON.stringify(v)}); it should be absent`).toBe(false)
  }
}

const HOUR_NS = 3_600_000_000_000
const DAY_NS = 24 * HOUR_NS

/** The fields of an option descriptor that are absent when empty (`value` is absent for secret-bearing options). */
const OPTION_OPTIONAL = [
  "annotations",
  "default",
  "description",
  "env",
  "flag",
  "flag_shorthand",
  "group",
  "hidden",
  "required",
  "use_instead",
  "value_source",
  "yaml"
]

/** Checks a group descriptor `{name, description?, yaml?, parent?}` and its parents. */
const expectGroup = (g: any) => {
  expectFields(g, ["name"], ["description", "parent", "yaml"])
  expect(typeof g.name).toBe("string")
  expect(g.name).not.toBe("")
  if (g.parent !== undefined) expectGroup(g.parent)
}

/** Checks every field of an option descriptor; secret ones carry no value, empty fields are absent. */
const expectOption = (o: any) => {
  const secret = o.annotations?.secret === "true"
  expectFields(o, secret ? ["name"] : ["name", "value"], OPTION_OPTIONAL)
  for (const k of ["name", "description", "flag", "flag_shorthand", "env", "yaml", "default", "value_source"]) {
    if (k in o) expect(typeof o[k], k).toBe("string")
  }
  if ("value_source" in o) expect(["default", "flag", "env", "yaml"]).toContain(o.value_source)
  if ("hidden" in o) expect(o.hidden).toBe(true)
  if ("required" in o) expect(o.required).toBe(true)
  for (const v of Object.values(o.annotations ?? {})) expect(typeof v).toBe("string")
  // Only the few options the described system lists outside any group (support links) have none.
  if (o.name === "Support Links") expect(o).not.toHaveProperty("group")
  else expectGroup(o.group)
  for (const u of o.use_instead ?? []) expectOption(u)
}

const SECRETS = {
  pgConnectionUrl: "postgres://workbay:PgSecret-91f2@db.internal:5432/workbay",
  scimApiKey: "ScimSecret-3a7c",
  // Real keys (32 bytes each): the service checks them at start.
  externalTokenEncryptionKeys: [
    "RXh0S2V5U2VjcmV0LTQ0YjktLS0tLS0tLS0tLS0tLS0=",
    "RXh0S2V5U2VjcmV0LTU1YzgtLS0tLS0tLS0tLS0tLS0="
  ],
  oidcClientSecret: "OidcSecret-6d1e",
  oauth2GithubClientSecret: "GithubSecret-0b8f",
  emailAuthPassword: "SmtpSecret-77aa",
  traceHoneycombApiKey: "HoneySecret-c0de",
  provisionerDaemonPsk: "PskSecret-5e5e"
}

describe("deployment routes", () => {
  let srv: TestServer
  let owner: Client
  let member: Client
  let auditor: Client

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
    member = (await createUser(owner)).client
    auditor = (await createUser(owner, { roles: ["auditor"] })).client
  })
  afterAll(() => srv.close())

  describe("GET /deployment/config", () => {
    it("holds the config keys with a value, and sensible defaults", async () => {
      const r = await owner.get("/deployment/config")
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["config", "options"])
      const c = r.body.config
      expectConfigKeys(c)
      // Empty by default, hence absent (as in the described system).
      for (const k of ["experiments", "disable_password_auth", "pg_connection_url", "write_config", "verbose"]) {
        expect(c, k).not.toHaveProperty(k)
      }
      expect(c.access_url).toBe(srv.url)
      expect(c.session_lifetime).toEqual({
        default_duration: 24 * HOUR_NS,
        default_token_lifetime: 30 * DAY_NS,
        disable_expiry_refresh: false,
        max_admin_token_lifetime: 364 * DAY_NS,
        max_token_lifetime: 30 * DAY_NS,
        refresh_default_duration: expect.any(Number)
      })
      expect(c.rate_limit).toEqual({ api: 512, disable_all: false })
      expect(c.retention).toEqual({
        api_keys: 7 * DAY_NS,
        audit_logs: 0,
        connection_logs: 0,
        workspace_agent_logs: 7 * DAY_NS
      })
      for (const v of Object.values(c.retention)) expect(Number.isInteger(v)).toBe(true)
      expect(c.swagger).toEqual({ enable: false })
      expect(c.http_cookies).toEqual({ secure_auth_cookie: false, same_site: "lax", host_prefix: false })
      expect(c.user_quiet_hours_schedule).toEqual({
        default_schedule: "CRON_TZ=UTC 0 0 * * *",
        allow_user_custom: true
      })
      expect(c.config_ssh).toEqual({ deploymentName: "coder.", sshconfigOptions: [] })
      expect(c.workspace_hostname_suffix).toBe("coder")
      expect(c.oidc).toMatchObject({
        client_id: "",
        client_secret: "",
        allow_signups: true,
        scopes: ["openid", "profile", "email"]
      })
      expect(c.oauth2.github).toMatchObject({ client_id: "", client_secret: "", default_provider_enable: true })
      expect(c.pg_auth).toBe("password")
      expect(c.agent_stat_refresh_interval).toBe(30_000_000_000)
      expect(c.healthcheck).toEqual({ refresh: 600_000_000_000, threshold_database: 15_000_000 })
      // What agents are told: relayed over WebSockets, no direct connections.
      expect(c.derp.config).toEqual({ block_direct: true, force_websockets: true, url: "", path: "" })
    })

    it("describes every setting with an option descriptor", async () => {
      const r = await owner.get("/deployment/config")
      const options = r.body.options
      expect(Array.isArray(options)).toBe(true)
      expect(options.length).toBeGreaterThan(40)
      for (const o of options) expectOption(o)
      const names = options.map((o: any) => o.name)
      expect(new Set(names).size).toBe(names.length)

      const byName = (name: string) => options.find((o: any) => o.name === name)
      const access = byName("Access URL")
      expect(access).toMatchObject({
        flag: "access-url",
        env: "WORKBAY_ACCESS_URL",
        yaml: "accessURL",
        value: srv.url
      })
      // Not hidden, not required, no shorthand, a top-level group: those fields are absent.
      for (const k of ["hidden", "required", "flag_shorthand", "use_instead"]) expect(access).not.toHaveProperty(k)
      expect(access.group).toEqual({ name: "Networking", yaml: "networking" })
      const session = byName("Session Duration")
      expect(session).toMatchObject({
        flag: "session-duration",
        default: "24h0m0s",
        value: 24 * HOUR_NS,
        value_source: "default",
        annotations: { format_duration: "true" }
      })
      expect(session.group).toMatchObject({ name: "HTTP", parent: { name: "Networking" } })
      expect(byName("Experiments")).toMatchObject({ flag: "experiments", value: [] })
      expect(byName("Experiments")).not.toHaveProperty("default")
      expect(byName("Enable swagger endpoint")).toMatchObject({
        flag: "swagger-enable",
        value: false,
        default: "false"
      })
      expect(byName("Verbose").use_instead.map((o: any) => o.name)).toEqual(["Log Filter"])
    })

    it("marks secret-bearing options and never carries their value", async () => {
      const r = await owner.get("/deployment/config")
      const secrets = r.body.options.filter((o: any) => o.annotations?.secret === "true")
      expect(secrets.map((o: any) => o.name).sort()).toEqual([
        "External Token Encryption Keys",
        "Notifications: Email Auth: Password",
        "OAuth2 GitHub Client Secret",
        "OIDC Client Secret",
        "Postgres Connection URL",
        "Provisioner Daemon Pre-shared Key (PSK)",
        "SCIM API Key",
        "Trace Honeycomb API Key"
      ])
      for (const o of secrets) {
        expect(o).not.toHaveProperty("value")
        expect(o).not.toHaveProperty("default")
      }
    })

    it("lets an auditor read it", async () => {
      const r = await auditor.get("/deployment/config")
      expect(r.status).toBe(200)
      expect(r.body).toEqual((await owner.get("/deployment/config")).body)
    })

    it("answers 403 to a member and 401 without a token", async () => {
      expectResponse(await member.get("/deployment/config"), 403)
      expectResponse(await srv.anonymous.get("/deployment/config"), 401)
      expectResponse(await owner.as("bogus").get("/deployment/config"), 401)
    })

    it("ignores query parameters", async () => {
      expect((await owner.get("/deployment/config?secrets=true&limit=-1")).status).toBe(200)
    })
  })

  describe("GET /deployment/config with settings", () => {
    let custom: TestServer
    let customOwner: Client

    beforeAll(async () => {
      ;({ srv: custom, owner: customOwner } = await startWithOwner({
        settings: {
          ...SECRETS,
          accessUrl: "https://workbay.example.com",
          experiments: ["*", "Custom-Thing", "custom-thing"],
          swaggerEnable: true,
          sshConfigOptions: ["ForwardAgent=yes", "ServerAliveInterval 30", "bogus"],
          sshHostnamePrefix: "wb.",
          sshHostnameSuffix: "workbay",
          rateLimitApi: -1,
          supportLinks: [{ name: "On call", target: "https://pager.example.com", icon: "chat", location: "navbar" }],
          oidcIssuerUrl: "https://client:IssuerSecret-9d9d@idp.example.com/realms/main",
          valueSources: { accessUrl: "env" }
        }
      }))
    })
    afterAll(() => custom.close())

    it("never includes a secret value anywhere in the body", async () => {
      const res = await fetch(`${custom.url}/api/v2/deployment/config`, {
        headers: { "Service-Session-Token": customOwner.token! }
      })
      expect(res.status).toBe(200)
      const text = await res.text()
      const secrets = [
        ...Object.values(SECRETS).flat(),
        "PgSecret",
        "ScimSecret",
        "OidcSecret",
        "GithubSecret",
        "SmtpSecret",
        "HoneySecret",
        "PskSecret",
        "RXh0S2V5",
        "IssuerSecret"
      ]
      for (const secret of secrets) expect(text).not.toContain(secret)
      const { config, options } = JSON.parse(text)
      // Blanked top-level secrets are empty, hence absent; nested ones are blanked in place.
      for (const k of ["pg_connection_url", "scim_api_key", "external_token_encryption_keys"]) {
        expect(config).not.toHaveProperty(k)
      }
      expect(config.oidc.client_secret).toBe("")
      expect(config.oauth2.github.client_secret).toBe("")
      expect(config.notifications.email.auth.password).toBe("")
      expect(config.trace.honeycomb_api_key).toBe("")
      expect(config.provisioner.daemon_psk).toBe("")
      expect(config.oidc.issuer_url).toBe("https://client@idp.example.com/realms/main")
      const pg = options.find((o: any) => o.name === "Postgres Connection URL")
      expect(pg.annotations).toMatchObject({ secret: "true" })
      expect(pg).not.toHaveProperty("value")
    })

    it("reports the configured values and where they came from", async () => {
      const r = await customOwner.get("/deployment/config")
      expect(r.status).toBe(200)
      const { config, options } = r.body
      expect(config.access_url).toBe("https://workbay.example.com")
      expect(config.experiments).toEqual(["*", "Custom-Thing", "custom-thing"])
      expect(config.swagger).toEqual({ enable: true })
      expect(config.rate_limit).toEqual({ api: -1, disable_all: false })
      expect(config.support).toEqual({
        links: [{ name: "On call", target: "https://pager.example.com", icon: "chat", location: "navbar" }]
      })
      expect(options.find((o: any) => o.name === "Support Links")).toMatchObject({
        flag: "support-links",
        value: [{ name: "On call", target: "https://pager.example.com", icon: "chat", location: "navbar" }]
      })
      expect(config.config_ssh).toEqual({
        deploymentName: "wb.",
        sshconfigOptions: ["ForwardAgent=yes", "ServerAliveInterval 30", "bogus"]
      })
      const access = options.find((o: any) => o.name === "Access URL")
      expect(access).toMatchObject({ value: "https://workbay.example.com", value_source: "env" })
      const swagger = options.find((o: any) => o.name === "Enable swagger endpoint")
      expect(swagger).toMatchObject({ value: true })
      expect(swagger).not.toHaveProperty("value_source")
    })

    it("serves the SSH settings", async () => {
      const r = await customOwner.get("/deployment/ssh")
      expect(r.status).toBe(200)
      expect(r.body).toEqual({
        hostname_prefix: "wb.",
        hostname_suffix: "workbay",
        ssh_config_options: { ForwardAgent: "yes", ServerAliveInterval: "30" }
      })
    })

    it("expands and de-duplicates experiments", async () => {
      const available = await customOwner.get("/experiments/available")
      const r = await customOwner.get("/experiments")
      expect(r.status).toBe(200)
      expect(r.body).toEqual([...available.body, "custom-thing"])
    })
  })

  describe("GET /deployment/ssh", () => {
    it("answers the SSH settings to any user", async () => {
      for (const client of [owner, member]) {
        const r = await client.get("/deployment/ssh")
        expect(r.status).toBe(200)
        expect(r.body).toEqual({ hostname_prefix: "coder.", hostname_suffix: "coder", ssh_config_options: {} })
      }
    })

    it("answers 401 without a token", async () => {
      expectResponse(await srv.anonymous.get("/deployment/ssh"), 401)
    })
  })

  describe("GET /deployment/stats", () => {
    it("answers stats to owners and auditors", async () => {
      for (const client of [owner, auditor]) {
        const r = await client.get("/deployment/stats")
        expect(r.status).toBe(200)
        expect(Object.keys(r.body).sort()).toEqual([
          "aggregated_from",
          "collected_at",
          "next_update_at",
          "session_count",
          "workspaces"
        ])
        expectIsoDate(r.body.aggregated_from)
        expectIsoDate(r.body.collected_at)
        expectIsoDate(r.body.next_update_at)
        expect(Date.parse(r.body.aggregated_from)).toBeLessThanOrEqual(Date.parse(r.body.collected_at))
        expect(Date.parse(r.body.collected_at)).toBeLessThanOrEqual(Date.parse(r.body.next_update_at))
        expect(r.body.session_count).toEqual({ jetbrains: 0, reconnecting_pty: 0, ssh: 0, vscode: 0 })
        expect(r.body.workspaces).toEqual({
          building: 0,
          failed: 0,
          pending: 0,
          running: 0,
          stopped: 0,
          rx_bytes: 0,
          tx_bytes: 0,
          // No agent reported a latency: -1, as the described system.
          connection_latency_ms: { P50: -1, P95: -1 }
        })
      }
    })

    it("answers 403 to a member and 401 without a token", async () => {
      expectResponse(await member.get("/deployment/stats"), 403)
      expectResponse(await srv.anonymous.get("/deployment/stats"), 401)
    })
  })

  describe("GET /experiments and /experiments/available", () => {
    it("lists no enabled experiments by default", async () => {
      for (const client of [owner, member]) {
        const r = await client.get("/experiments")
        expect(r.status).toBe(200)
        expect(r.body).toEqual([])
      }
    })

    it("lists the safe experiments", async () => {
      const r = await member.get("/experiments/available")
      expect(r.status).toBe(200)
      expect(Array.isArray(r.body)).toBe(true)
      expect(r.body.length).toBeGreaterThan(0)
      for (const e of r.body) expect(typeof e).toBe("string")
      expect(new Set(r.body).size).toBe(r.body.length)
    })

    it("answers 401 without a token", async () => {
      expectResponse(await srv.anonymous.get("/experiments"), 401)
      expectResponse(await srv.anonymous.get("/experiments/available"), 401)
    })
  })

  describe("routing", () => {
    it("answers 405 for a wrong method", async () => {
      for (
        const path of [
          "/deployment/config",
          "/deployment/ssh",
          "/deployment/stats",
          "/experiments",
          "/experiments/available"
        ]
      ) {
        const r = await owner.post(path, {})
        expectResponse(r, 405)
        expect(r.headers.get("allow")).toBe("GET, HEAD")
      }
    })
  })
})
