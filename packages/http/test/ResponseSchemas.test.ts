/**
 * Every success response of every endpoint, checked against the JSON Schema of its type
 * as the public reference describes it (test/schemas/ResponseSchemas.ts): fields, types,
 * required fields, enums, formats (uuid, uri, email, date-time) and the fields that are
 * left out when empty. Real HTTP on a real port, over data that has every shape: users
 * with and without names and avatars, a service account, deleted users, organizations,
 * groups (the Everyone group too), tokens, audit entries of anonymous and failed logins,
 * and connection log entries of every kind.
 *
 * One row per endpoint of the WorkbayApi definition; a guard fails when an endpoint has
 * no row, so new endpoints join this table.
 */
import { AuditLogs, type ConnectionEvent, type DisconnectEvent, ProvisionerJobs, UserRepo } from "@workbay/core"
import {
  AGENT_REINIT_PREBUILD_CLAIMED,
  agentReinitChannel,
  AgentReportRepo,
  InsightsRollup,
  PubSub
} from "@workbay/core"
import { WorkbayApi } from "@workbay/http"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { withIdentityServer } from "./agents/identityServer.js"
import { closeLicensedWorld, licensedWorld } from "./enterprise/fixtures.js"
import { licenseClaims } from "./enterprise/licenses.js"
import { closeExternalAuthWorld, externalAuthWorld } from "./externalauth/fixtures.js"
import { deliver } from "./notifications/InboxFixtures.js"
import { basic, formInit, REDIRECT, register, seedCode, seedTokens } from "./oauth2/fixtures.js"
import { makeValidator, type SchemaName } from "./schemas/ResponseSchemas.js"
import { readEvents } from "./sse.js"
import {
  addMemberWithRoles,
  captureMail,
  Client,
  createOrganization,
  createUser,
  type Reply,
  type ServiceTestServer,
  SESSION_HEADER,
  sessionClient,
  startTestServer,
  startWithOwner,
  STRONG_PASSWORD,
  type TestUser,
  tokenClient,
  uniqueName
} from "./support.js"
import { connectAgent } from "./tasks/fixtures.js"
import { makeTemplate, makeVersion } from "./templates/fixtures.js"
import { createVersion, FULL_TEMPLATE, runJobs, seedTemplate } from "./templates/versions.js"
import { withGithubSignIn, withOidcSignIn } from "./users/signin/fixtures.js"
import { connect, eventually } from "./websocket.js"
import { portShareTemplate, seedWorkspace } from "./workspaces/portShareFixtures.js"
import { makeWorkspace } from "./workspaces/sharingFixtures.js"

/** What the rows share: the server, callers, and the data made before the rows run. */
interface World {
  readonly srv: ServiceTestServer
  readonly owner: Client
  readonly ownerId: string
  readonly orgId: string
  /** A member with a display name, an avatar and a theme, admin of `org`. */
  readonly alice: TestUser
  /** A member with none of those. */
  readonly bob: TestUser
  /** A service account (login type none). */
  readonly robotId: string
  /** A second organization, with display name, description and icon. */
  readonly org: { readonly id: string; readonly name: string }
  /** Groups of the default organization: one with an avatar and members, one bare. */
  readonly devs: { readonly id: string }
  readonly bare: { readonly id: string }
  readonly tokenName: string
  /** A template of the default organization with a user and a group in its access list. */
  readonly template: { readonly id: string; readonly name: string }
  /** A workspace of bob's on `template`, shared with alice (admin) and the group `devs` (use). */
  readonly workspace: { readonly id: string }
  readonly mail: ReturnType<typeof captureMail>
}

interface Row {
  /** The HttpApi group and endpoint names. */
  readonly endpoint: `${string}.${string}`
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** As the HttpApi definition declares it (`:param`). */
  readonly path: string
  readonly status: number
  /**
   * The reference type of the body, `[Type]` for a list, `none` for no body, or `binary <content type>`
   * for bytes (the content type is checked, the bytes against the upload in the row).
   */
  readonly schema: SchemaName | "none" | `binary ${string}`
  /** Sends the request (as many as make the shapes worth checking); every reply is checked. */
  readonly call: (w: World) => Promise<Reply | ReadonlyArray<Reply>>
}

/** A table row: `route` is the method and the path as the HttpApi definition declares them. */
/**
 * The `laptop` agent of the running workspace connected, opening its end of each stream it is asked
 * for (`ends`: the status of each of those handshakes), until `close`.
 */
const laptopStreams = async (w: World) => {
  const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
  const agentId: string = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])
    .find((a: any) => a.name === "laptop").id
  const credentials = await w.owner.get(`/workspaces/${running.id}/external-agent/laptop/credentials`)
  const token = credentials.body.agent_token
  const rpc = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { [SESSION_HEADER]: token })
  const ends: Array<number> = []
  rpc.socket.on("message", (data) => {
    const message = JSON.parse(data.toString())
    if (message.type !== "stream_open") return
    void connect(new URL(message.path, w.srv.wsUrl).toString(), { [SESSION_HEADER]: token }).then(
      (end) => {
        ends.push(101)
        end.socket.close()
      },
      (e) => ends.push(e.status ?? 0)
    )
  })
  for (let i = 0; i < 100; i++) {
    if ((await w.owner.get(`/workspaceagents/${agentId}`)).body.status === "connected") break
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    agentId,
    ends,
    close: async () => {
      rpc.socket.close()
      await rpc.closed
    }
  }
}

const row = (
  endpoint: Row["endpoint"],
  route: `${Row["method"]} ${string}`,
  status: number,
  schema: Row["schema"],
  call: Row["call"]
): Row => {
  const [method, path] = route.split(" ") as [Row["method"], string]
  return { endpoint, method, path, status, schema, call }
}

const AVATAR = "https://example.com/avatars/alice.png"
/** The bytes of the agent executable the rows' server serves. */
const FAKE_AGENT = "a fake agent"
const GROUP_AVATAR = "https://example.com/groups/devs.png"

/** A group to change or delete in a row without touching the shared ones. */
const throwawayGroup = async (w: World, body: Record<string, unknown> = {}) => {
  const r = await w.owner.post(`/organizations/${w.orgId}/groups`, { name: uniqueName("tmp"), ...body })
  if (r.status !== 201) throw new Error(`group: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body as { id: string; name: string }
}

/** A workspace of bob's to share or unshare in a row. */
const throwawayWorkspace = (w: World) =>
  makeWorkspace(w.srv, { organizationId: w.orgId, ownerId: w.bob.user.id, templateId: w.template.id })

/** A template of the default organization to change or delete in a row. */
const throwawayTemplate = (w: World) =>
  makeTemplate(w.srv, w.owner, { organizationId: w.orgId, createdBy: w.ownerId, name: uniqueName("tmp-tpl") })

/** Uploads `content` (taken as a tar archive) as bob. */
const uploadArchive = (w: World, content: string) =>
  w.bob.client.request("POST", "/files", undefined, { raw: content, headers: { "content-type": "application/x-tar" } })

/** A job no worker serves (pending) and one the built-in workers claimed and failed (no executor for its type yet). */
const seedJobs = async (w: World) => {
  const enqueue = (provisioner: string) =>
    w.srv.run(Effect.flatMap(ProvisionerJobs, (jobs) =>
      jobs.enqueue({
        organization_id: w.orgId,
        initiator_id: w.ownerId,
        provisioner,
        type: "template_version_import",
        file_id: randomUUID(),
        input: { template_version_id: randomUUID() },
        tags: {}
      })))
  const pending = (await enqueue("terraform")).id
  const failed = (await enqueue("workbay")).id
  for (let i = 0; i < 200; i++) {
    const job = await w.srv.run(Effect.flatMap(ProvisionerJobs, (jobs) => jobs.get(failed)))
    if (job.completed_at !== null) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return { pending, failed }
}
/** Template versions the rows read, made once: an imported version as a template's active one, a second one, a dry run. */
let versionFixture: Promise<{ v1: any; v2: any; template: { id: string; name: string }; dryRun: any }> | undefined
const versions = (w: World) =>
  versionFixture ??= (async () => {
    const made = async (extra: Record<string, unknown> = {}) => {
      const r = await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, extra)
      if (r.status !== 201) throw new Error(`version: ${r.status} ${JSON.stringify(r.body)}`)
      await runJobs(w.srv)
      return (await w.owner.get(`/templateversions/${r.body.id}`)).body
    }
    const v1 = await made({ name: "v1" })
    const template = await seedTemplate(w.srv, w.orgId, v1.id, w.ownerId)
    const v2 = await made({ name: "v2", template_id: template.id, message: "second" })
    const dry = await w.owner.post(`/templateversions/${v2.id}/dry-run`, {
      workspace_name: "dry",
      rich_parameter_values: []
    })
    await runJobs(w.srv)
    return { v1: { ...v1, template_id: template.id }, v2, template, dryRun: dry.body }
  })()

/** Bob's workspace on a template whose ports may be shared publicly, with an agent `main`; made once. */
let portShareFixture: Promise<{ id: string }> | undefined
const portShareWorkspace = (w: World) =>
  portShareFixture ??= (async () => {
    const template = await portShareTemplate(w.srv, w.owner, {
      organizationId: w.orgId,
      createdBy: w.ownerId,
      maxLevel: "public"
    })
    return seedWorkspace(w.srv, { ownerId: w.bob.user.id, organizationId: w.orgId, template })
  })()

/** Workspaces the rows read, made once: a free template, a running workspace (favorite), a stopped one, a slow one. */
let workspaceFixture: Promise<{ template: any; running: any; stopped: any }> | undefined
const WS_TEMPLATE = `parameters:
  - { name: size, default: small, mutable: true }
resources:
  - name: box
    type: machine
    agents:
      - { name: main, apps: [{ slug: code, url: "http://localhost:1" }] }
      - { name: laptop, external: true, apps: [{ slug: board, url: "http://localhost:2" }] }
`
const SLOW_WS_TEMPLATE = `resources:
  - { name: box, type: machine }
build:
  delay_ms: 3000
  import_delay_ms: 0
`
const workspacesOf = (w: World) =>
  workspaceFixture ??= (async () => {
    const v = await createVersion(w.srv, w.owner, w.orgId, WS_TEMPLATE)
    await runJobs(w.srv)
    const template = (await w.owner.post(`/organizations/${w.orgId}/templates`, {
      name: uniqueName("wst"),
      template_version_id: v.body.id
    })).body
    const make = async (name: string) => {
      const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
        name,
        template_id: template.id,
        ttl_ms: 3_600_000
      })
      if (r.status !== 200) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`)
      await runJobs(w.srv)
      return r.body
    }
    const running = await make(uniqueName("run"))
    await w.owner.put(`/workspaces/${running.id}/favorite`)
    const stopped = await make(uniqueName("stop"))
    await w.owner.post(`/workspaces/${stopped.id}/builds`, { transition: "stop" })
    await runJobs(w.srv)
    return { template, running, stopped }
  })()

/** The dev container the scripted agent of {@link withContainersAgent} knows. */
const SCRIPTED_DEVCONTAINER = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"

/**
 * Runs `f` while the running workspace's external agent "laptop" is connected and answers
 * `containers_request`s as the reference agent does (one dev container, one other container).
 */
const withContainersAgent = async <A>(w: World, f: (agentId: string) => Promise<A>): Promise<A> => {
  const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
  const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
    a.name === "laptop"
  )
  const credentials = await w.owner.get(`/workspaces/${running.id}/external-agent/laptop/credentials`)
  const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
    [SESSION_HEADER]: credentials.body.agent_token
  })
  const container = (name: string, labels: Record<string, string>) => ({
    created_at: "2030-01-01T10:00:00.000Z",
    id: `${name}-0123456789abcdef`,
    name,
    image: "workbay-test/img:1",
    labels,
    running: true,
    ports: [{ port: 8080, network: "tcp", host_ip: "0.0.0.0", host_port: 18080 }, { port: 9000, network: "tcp" }],
    status: "running",
    volumes: { "/home/dev/p": "/workspaces/p" }
  })
  ws.socket.on("message", (data) => {
    const m = JSON.parse(data.toString())
    if (m.type !== "containers_request") return
    const dc = container("p-dc", { "devcontainer.local_folder": "/home/dev/p" })
    const answers: Record<string, { status: number; body?: unknown }> = {
      list: {
        status: 200,
        body: {
          devcontainers: [{
            id: SCRIPTED_DEVCONTAINER,
            name: "p",
            workspace_folder: "/home/dev/p",
            status: "running",
            dirty: false,
            container: dc
          }],
          containers: [dc, container("db", {})]
        }
      },
      delete: { status: 204 },
      recreate: { status: 202, body: { message: "Devcontainer recreation initiated", detail: "Started." } }
    }
    ws.socket.send(JSON.stringify({ type: "containers_response", request_id: m.request_id, ...answers[m.action] }))
  })
  ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
  await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 1))
  try {
    return await f(agent.id)
  } finally {
    ws.socket.close()
  }
}

const AI_TASK_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        apps:
          - slug: claude
            command: claude
ai_task:
  app: claude
`

let aiVersion: Promise<string> | undefined
/** A version of an AI task template (made once). */
const aiVersionOf = (w: World) =>
  aiVersion ??= (async () => {
    const v = await createVersion(w.srv, w.owner, w.orgId, AI_TASK_TEMPLATE)
    await runJobs(w.srv)
    await w.owner.post(`/organizations/${w.orgId}/templates`, {
      name: uniqueName("ai"),
      template_version_id: v.body.id
    })
    return v.body.id as string
  })()

/** A task of bob's, its first build run. */
const bobsTask = async (w: World, input = "Write the docs") => {
  const r = await w.bob.client.post("/tasks/me", { input, template_version_id: await aiVersionOf(w) })
  if (r.status !== 201) throw new Error(`task: ${r.status} ${JSON.stringify(r.body)}`)
  await runJobs(w.srv)
  return r.body as { id: string; name: string; workspace_id: { uuid: string } }
}

const slowWorkspace = async (w: World) => {
  const v = await createVersion(w.srv, w.owner, w.orgId, SLOW_WS_TEMPLATE)
  await runJobs(w.srv)
  const t = (await w.owner.post(`/organizations/${w.orgId}/templates`, {
    name: uniqueName("slow"),
    template_version_id: v.body.id
  })).body
  return (await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
    name: uniqueName("slow"),
    template_id: t.id
  })).body
}

/** A client with a fresh token of the running workspace's external agent `laptop`. */
const laptopAgent = async (w: World) => {
  const credentials = await w.owner.get(
    `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
  )
  return w.owner.as(credentials.body.agent_token)
}
const ROWS_LOG_SOURCE = "5f0c1c5e-6a59-4e44-9d77-3b1f1b0a2c11"

/** The insights rows: bob's workspace reports a few minutes of use, a rollup pass folds them in, the reports read them. */
const insightsRows = (): ReadonlyArray<Row> => {
  const HOUR = 3_600_000
  const DAY = 24 * HOUR
  let seeded: Promise<void> | undefined
  const seed = (w: World) =>
    seeded ??= (async () => {
      const now = Date.now()
      for (let i = 0; i < 5; i++) {
        await w.srv.run(Effect.flatMap(AgentReportRepo, (r) =>
          r.insertStats(randomUUID(), w.workspace.id, {
            connections_by_proto: {},
            connection_count: 1,
            connection_median_latency_ms: 12,
            rx_packets: 0,
            rx_bytes: 0,
            tx_packets: 0,
            tx_bytes: 0,
            session_count_vscode: 1,
            session_count_jetbrains: 0,
            session_count_reconnecting_pty: 0,
            session_count_ssh: 1
          }, new Date(now - (i + 1) * 60_000))))
      }
      await w.srv.run(Effect.flatMap(InsightsRollup, (r) => r.pass()))
    })()
  const range = () => {
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")
    return `start_time=${iso(now - (now % DAY) - 7 * DAY)}&end_time=${iso(now - (now % HOUR) + HOUR)}`
  }
  return [
    row("insights.daus", "GET /api/v2/insights/daus", 200, "DAUsResponse", async (w) => {
      await seed(w)
      return [await w.owner.get("/insights/daus"), await w.owner.get("/insights/daus?tz_offset=-3")]
    }),
    row("insights.templates", "GET /api/v2/insights/templates", 200, "TemplateInsightsResponse", async (w) => {
      await seed(w)
      const now = Date.now()
      const midnight = new Date(now - (now % DAY)).toISOString().replace(/\.\d{3}Z$/, "Z")
      const weeks = `start_time=${
        new Date(now - (now % DAY) - 14 * DAY).toISOString().replace(/\.\d{3}Z$/, "Z")
      }&end_time=${midnight}`
      return [
        await w.owner.get(`/insights/templates?${range()}&interval=day`),
        await w.owner.get(`/insights/templates?${weeks}&interval=week`)
      ]
    }),
    row(
      "insights.userActivity",
      "GET /api/v2/insights/user-activity",
      200,
      "UserActivityInsightsResponse",
      async (w) => {
        await seed(w)
        return w.owner.get(`/insights/user-activity?${range()}`)
      }
    ),
    row("insights.userLatency", "GET /api/v2/insights/user-latency", 200, "UserLatencyInsightsResponse", async (w) => {
      await seed(w)
      return w.owner.get(`/insights/user-latency?${range()}&template_ids=${w.template.id}`)
    }),
    row(
      "insights.userStatusCounts",
      "GET /api/v2/insights/user-status-counts",
      200,
      "GetUserStatusCountsResponse",
      async (w) => {
        await seed(w)
        return [
          await w.owner.get("/insights/user-status-counts"),
          await w.owner.get("/insights/user-status-counts?timezone=America/New_York")
        ]
      }
    ),
    row("insights.templateDaus", "GET /api/v2/templates/:template/daus", 200, "DAUsResponse", async (w) => {
      await seed(w)
      return w.owner.get(`/templates/${w.template.id}/daus?tz_offset=2`)
    })
  ]
}
/** A workspace proxy of the owner's, with its token. */
const newProxy = async (w: World) => {
  const r = await w.owner.post("/workspaceproxies", {
    name: uniqueName("px"),
    display_name: "Proxy",
    icon: "/emojis/1f30d.png"
  })
  if (r.status !== 201) throw new Error(`proxy: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body as { proxy: { id: string; name: string }; proxy_token: string }
}
const proxyRequest = (w: World, path: string, token: string, body: unknown) =>
  w.srv.anonymous.request("POST", path, body, { headers: { "Coder-External-Proxy-Session-Token": token } })
const REPLICA_ID = "11111111-2222-4333-8444-555555555555"

const rows: ReadonlyArray<Row> = [
  // general
  row("general.root", "GET /api/v2", 200, "Response", (w) => w.srv.anonymous.get("/")),
  row("general.buildInfo", "GET /api/v2/buildinfo", 200, "BuildInfoResponse", (w) => w.srv.anonymous.get("/buildinfo")),
  row(
    "general.updateCheck",
    "GET /api/v2/updatecheck",
    200,
    "UpdateCheckResponse",
    (w) => w.srv.anonymous.get("/updatecheck")
  ),

  // deployment
  row(
    "deployment.cspReport",
    "POST /api/v2/csp/reports",
    200,
    "none",
    (w) => w.owner.post("/csp/reports", { "csp-report": { "blocked-uri": "https://evil.example.com/x.js" } })
  ),
  row(
    "deployment.config",
    "GET /api/v2/deployment/config",
    200,
    "DeploymentConfig",
    (w) => w.owner.get("/deployment/config")
  ),
  row(
    "deployment.ssh",
    "GET /api/v2/deployment/ssh",
    200,
    "SSHConfigResponse",
    (w) => w.bob.client.get("/deployment/ssh")
  ),
  row(
    "deployment.stats",
    "GET /api/v2/deployment/stats",
    200,
    "DeploymentStats",
    (w) => w.owner.get("/deployment/stats")
  ),
  row("deployment.experiments", "GET /api/v2/experiments", 200, "Experiments", (w) => w.bob.client.get("/experiments")),
  row(
    "deployment.availableExperiments",
    "GET /api/v2/experiments/available",
    200,
    "Experiments",
    (w) => w.bob.client.get("/experiments/available")
  ),

  // authorization (no token needed)
  row(
    "authorization.scopes",
    "GET /api/v2/auth/scopes",
    200,
    "ExternalAPIKeyScopes",
    (w) => w.srv.anonymous.get("/auth/scopes")
  ),
  row(
    "authorization.login",
    "POST /api/v2/users/login",
    201,
    "LoginWithPasswordResponse",
    (w) => w.srv.anonymous.post("/users/login", { email: w.bob.email, password: STRONG_PASSWORD })
  ),
  row(
    "authorization.requestOneTimePasscode",
    "POST /api/v2/users/otp/request",
    204,
    "none",
    (w) => w.srv.anonymous.post("/users/otp/request", { email: w.bob.email })
  ),
  row(
    "authorization.changePasswordWithOneTimePasscode",
    "POST /api/v2/users/otp/change-password",
    204,
    "none",
    async (w) => {
      const forgetful = await createUser(w.owner, { username: uniqueName("forgetful") })
      await w.srv.anonymous.post("/users/otp/request", { email: forgetful.email })
      const passcode = w.mail.passcodeFor(forgetful.email)!
      return w.srv.anonymous.post("/users/otp/change-password", {
        email: forgetful.email,
        one_time_passcode: passcode,
        password: `${STRONG_PASSWORD}-new`
      })
    }
  ),
  row(
    "authorization.getFirstUser",
    "GET /api/v2/users/first",
    200,
    "Response",
    (w) => w.srv.anonymous.get("/users/first")
  ),
  row("authorization.createFirstUser", "POST /api/v2/users/first", 201, "CreateFirstUserResponse", async () => {
    const fresh = await startTestServer()
    try {
      return await fresh.anonymous.post("/users/first", {
        email: "founder@example.com",
        username: "founder",
        name: "First Owner",
        password: STRONG_PASSWORD
      })
    } finally {
      await fresh.close()
    }
  }),
  row(
    "authorization.authMethods",
    "GET /api/v2/users/authmethods",
    200,
    "AuthMethods",
    (w) => w.srv.anonymous.get("/users/authmethods")
  ),

  // session
  row(
    "session.validatePassword",
    "POST /api/v2/users/validate-password",
    200,
    "ValidateUserPasswordResponse",
    async (w) => [
      await w.bob.client.post("/users/validate-password", { password: "short" }),
      await w.bob.client.post("/users/validate-password", { password: STRONG_PASSWORD })
    ]
  ),
  row(
    "session.convertLogin",
    "POST /api/v2/users/:user/convert-login",
    201,
    "OAuthConversionResponse",
    (w) => w.bob.client.post("/users/me/convert-login", { password: STRONG_PASSWORD, to_type: "oidc" })
  ),
  row(
    "session.authcheck",
    "POST /api/v2/authcheck",
    200,
    "AuthorizationResponse",
    (w) =>
      w.bob.client.post("/authcheck", {
        checks: {
          readSelf: { action: "read", object: { resource_type: "user", resource_id: w.bob.user.id } },
          deleteOrg: { action: "delete", object: { resource_type: "organization", resource_id: w.orgId } }
        }
      })
  ),
  row(
    "session.logout",
    "POST /api/v2/users/logout",
    200,
    "Response",
    async (w) => (await sessionClient(w.srv.anonymous, w.bob.email)).post("/users/logout")
  ),

  // users
  row("users.list", "GET /api/v2/users", 200, "GetUsersResponse", async (w) => [
    await w.owner.get("/users"),
    await w.owner.get(`/users?q=${encodeURIComponent("status:active")}&limit=2`)
  ]),
  row("users.create", "POST /api/v2/users", 201, "User", async (w) => [
    await w.owner.post("/users", {
      email: `${uniqueName("plain")}@example.com`,
      username: uniqueName("plain"),
      password: STRONG_PASSWORD
    }),
    await w.owner.post("/users", {
      email: `${uniqueName("named")}@example.com`,
      username: uniqueName("named"),
      name: "Named Person",
      password: STRONG_PASSWORD,
      roles: ["auditor"],
      organization_ids: [w.org.id]
    })
  ]),
  row("users.assignableRoles", "GET /api/v2/users/roles", 200, "[AssignableRoles]", (w) => w.owner.get("/users/roles")),
  row("users.get", "GET /api/v2/users/:user", 200, "User", async (w) => [
    await w.owner.get("/users/me"),
    await w.owner.get(`/users/${w.alice.user.id}`),
    await w.owner.get(`/users/${w.bob.username}`),
    await w.owner.get(`/users/${w.robotId}`),
    await w.alice.client.get("/users/me")
  ]),
  row("users.updateRoles", "PUT /api/v2/users/:user/roles", 200, "User", async (w) => {
    const target = await createUser(w.owner, { username: uniqueName("roles") })
    return [
      await w.owner.put(`/users/${target.user.id}/roles`, { roles: ["auditor", "template-admin"] }),
      await w.owner.put(`/users/${target.user.id}/roles`, { roles: [] })
    ]
  }),
  row(
    "users.suspend",
    "PUT /api/v2/users/:user/status/suspend",
    200,
    "User",
    async (w) =>
      w.owner.put(`/users/${(await createUser(w.owner, { username: uniqueName("susp") })).user.id}/status/suspend`)
  ),
  row("users.activate", "PUT /api/v2/users/:user/status/activate", 200, "User", async (w) => {
    const target = await createUser(w.owner, { username: uniqueName("act") })
    await w.owner.put(`/users/${target.user.id}/status/suspend`)
    return w.owner.put(`/users/${target.user.id}/status/activate`)
  }),
  row(
    "users.delete",
    "DELETE /api/v2/users/:user",
    200,
    "none",
    async (w) => w.owner.delete(`/users/${(await createUser(w.owner, { username: uniqueName("gone") })).user.id}`)
  ),
  row("users.roles", "GET /api/v2/users/:user/roles", 200, "UserRoles", async (w) => [
    await w.owner.get("/users/me/roles"),
    await w.alice.client.get("/users/me/roles")
  ]),
  row(
    "users.loginType",
    "GET /api/v2/users/:user/login-type",
    200,
    "UserLoginType",
    (w) => w.alice.client.get("/users/me/login-type")
  ),
  row("users.organizations", "GET /api/v2/users/:user/organizations", 200, "[Organization]", async (w) => [
    await w.owner.get("/users/me/organizations"),
    await w.alice.client.get("/users/me/organizations")
  ]),
  row(
    "users.organizationByName",
    "GET /api/v2/users/:user/organizations/:organizationname",
    200,
    "Organization",
    (w) => w.owner.get(`/users/me/organizations/${w.org.name}`)
  ),
  row("users.updateProfile", "PUT /api/v2/users/:user/profile", 200, "User", async (w) => {
    const u = await createUser(w.owner, { username: uniqueName("pf") })
    return await u.client.put("/users/me/profile", { username: u.username, name: "Pat Profile" })
  }),
  row("users.updatePassword", "PUT /api/v2/users/:user/password", 204, "none", async (w) => {
    const u = await createUser(w.owner, { username: uniqueName("pw") })
    return await w.owner.put(`/users/${u.user.id}/password`, { password: "Another-Horse-Battery-8" })
  }),
  row("users.getAppearance", "GET /api/v2/users/:user/appearance", 200, "UserAppearanceSettings", async (w) => [
    await w.alice.client.get("/users/me/appearance"),
    await w.bob.client.get("/users/me/appearance")
  ]),
  row(
    "users.updateAppearance",
    "PUT /api/v2/users/:user/appearance",
    200,
    "UserAppearanceSettings",
    (w) => w.bob.client.put("/users/me/appearance", { theme_preference: "light", terminal_font: "fira-code" })
  ),
  row("users.getPreferences", "GET /api/v2/users/:user/preferences", 200, "UserPreferenceSettings", async (w) => [
    await w.bob.client.get("/users/me/preferences"),
    await w.owner.get(`/users/${w.bob.user.id}/preferences`)
  ]),
  row(
    "users.updatePreferences",
    "PUT /api/v2/users/:user/preferences",
    200,
    "UserPreferenceSettings",
    (w) =>
      w.bob.client.put("/users/me/preferences", {
        collapse_assistant_steps: true,
        thinking_display_mode: "always_expanded"
      })
  ),
  row(
    "users.autofillParameters",
    "GET /api/v2/users/:user/autofill-parameters",
    200,
    "[UserParameter]",
    (w) => w.bob.client.get(`/users/me/autofill-parameters?template_id=${randomUUID()}`)
  ),
  row(
    "users.getGitSshKey",
    "GET /api/v2/users/:user/gitsshkey",
    200,
    "GitSSHKey",
    (w) => w.bob.client.get("/users/me/gitsshkey")
  ),
  row(
    "users.regenerateGitSshKey",
    "PUT /api/v2/users/:user/gitsshkey",
    200,
    "GitSSHKey",
    (w) => w.bob.client.put("/users/me/gitsshkey")
  ),
  row(
    "users.getQuietHours",
    "GET /api/v2/users/:user/quiet-hours",
    200,
    "[UserQuietHoursScheduleResponse]",
    async (w) => [await w.alice.client.get("/users/me/quiet-hours"), await w.bob.client.get("/users/me/quiet-hours")]
  ),
  row(
    "users.updateQuietHours",
    "PUT /api/v2/users/:user/quiet-hours",
    200,
    "[UserQuietHoursScheduleResponse]",
    (w) => w.alice.client.put("/users/me/quiet-hours", { schedule: "CRON_TZ=Europe/Paris 30 2 * * *" })
  ),
  row(
    "users.createSessionKey",
    "POST /api/v2/users/:user/keys",
    201,
    "GenerateAPIKeyResponse",
    (w) => w.bob.client.post("/users/me/keys")
  ),
  row("users.listTokens", "GET /api/v2/users/:user/keys/tokens", 200, "[APIKeyWithOwner]", async (w) => [
    await w.owner.get("/users/me/keys/tokens"),
    await w.owner.get("/users/me/keys/tokens?include_expired=true"),
    await w.owner.get("/users/me/keys/tokens?include_all=true"),
    await w.bob.client.get("/users/me/keys/tokens?include_all=true&include_expired=true")
  ]),
  row(
    "users.createToken",
    "POST /api/v2/users/:user/keys/tokens",
    201,
    "GenerateAPIKeyResponse",
    (w) => w.bob.client.post("/users/me/keys/tokens", { token_name: uniqueName("t"), scopes: ["user:read"] })
  ),
  row("users.tokenConfig", "GET /api/v2/users/:user/keys/tokens/tokenconfig", 200, "TokenConfig", async (w) => [
    await w.owner.get("/users/me/keys/tokens/tokenconfig"),
    await w.bob.client.get("/users/me/keys/tokens/tokenconfig")
  ]),
  row(
    "users.getTokenByName",
    "GET /api/v2/users/:user/keys/tokens/:keyname",
    200,
    "APIKey",
    (w) => w.owner.get(`/users/me/keys/tokens/${w.tokenName}`)
  ),
  row("users.deleteTokenByName", "DELETE /api/v2/users/:user/keys/tokens/:keyname", 204, "none", async (w) => {
    const name = uniqueName("doomed")
    await tokenClient(w.bob.client, { token_name: name })
    return w.bob.client.delete(`/users/me/keys/tokens/${name}`)
  }),
  row("users.getKey", "GET /api/v2/users/:user/keys/:keyid", 200, "APIKey", async (w) => {
    const key = (await w.bob.client.post("/users/me/keys")).body.key as string
    return [
      await w.bob.client.get(`/users/me/keys/${key.split("-")[0]}`),
      await w.owner.get(`/users/me/keys/${w.tokenName}`)
    ]
  }),
  row("users.deleteKey", "DELETE /api/v2/users/:user/keys/:keyid", 204, "none", async (w) => {
    const key = (await w.bob.client.post("/users/me/keys")).body.key as string
    return w.bob.client.delete(`/users/me/keys/${key.split("-")[0]}`)
  }),
  row("users.expireKey", "PUT /api/v2/users/:user/keys/:keyid/expire", 204, "none", async (w) => {
    const key = (await w.bob.client.post("/users/me/keys")).body.key as string
    return w.bob.client.put(`/users/me/keys/${key.split("-")[0]}/expire`)
  }),

  // organizations
  row("organizations.list", "GET /api/v2/organizations", 200, "[Organization]", (w) => w.owner.get("/organizations")),
  row("organizations.create", "POST /api/v2/organizations", 201, "Organization", async (w) => [
    await w.owner.post("/organizations", { name: uniqueName("bare") }),
    await w.owner.post("/organizations", {
      name: uniqueName("full"),
      display_name: "Full Org",
      description: "Everything set.",
      icon: "/emojis/1f3e2.png"
    })
  ]),
  row("organizations.get", "GET /api/v2/organizations/:organization", 200, "Organization", async (w) => [
    await w.owner.get(`/organizations/${w.orgId}`),
    await w.alice.client.get(`/organizations/${w.org.name}`)
  ]),
  row(
    "organizations.update",
    "PATCH /api/v2/organizations/:organization",
    200,
    "Organization",
    (w) => w.owner.patch(`/organizations/${w.org.id}`, { description: "Updated." })
  ),
  row(
    "organizations.delete",
    "DELETE /api/v2/organizations/:organization",
    200,
    "Response",
    async (w) => w.owner.delete(`/organizations/${(await createOrganization(w.owner)).id}`)
  ),
  row(
    "organizations.listMembers",
    "GET /api/v2/organizations/:organization/members",
    200,
    "[OrganizationMemberWithUserData]",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/members`),
      await w.owner.get(`/organizations/${w.org.id}/members`)
    ]
  ),
  row(
    "organizations.paginatedMembers",
    "GET /api/v2/organizations/:organization/paginated-members",
    200,
    "PaginatedMembersResponse",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/paginated-members`),
      await w.owner.get(`/organizations/${w.org.id}/paginated-members?limit=1&offset=1`),
      await w.bob.client.get(`/organizations/${w.orgId}/paginated-members?q=${encodeURIComponent("status:suspended")}`)
    ]
  ),
  row(
    "organizations.getWorkspaceSharing",
    "GET /api/v2/organizations/:organization/settings/workspace-sharing",
    200,
    "WorkspaceSharingSettings",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/workspace-sharing`)]
  ),
  row(
    "organizations.updateWorkspaceSharing",
    "PATCH /api/v2/organizations/:organization/settings/workspace-sharing",
    200,
    "WorkspaceSharingSettings",
    async (w) => [
      await w.owner.patch(`/organizations/${w.org.id}/settings/workspace-sharing`, {
        shareable_workspace_owners: "service_accounts"
      }),
      await w.owner.patch(`/organizations/${w.org.id}/settings/workspace-sharing`, {
        shareable_workspace_owners: "everyone"
      })
    ]
  ),
  row(
    "idpSync.getOrganizationSync",
    "GET /api/v2/settings/idpsync/organization",
    200,
    "OrganizationSyncSettings",
    async (w) => [
      await w.owner.get("/settings/idpsync/organization")
    ]
  ),
  row(
    "idpSync.patchOrganizationSync",
    "PATCH /api/v2/settings/idpsync/organization",
    200,
    "OrganizationSyncSettings",
    async (w) => [
      await w.owner.patch("/settings/idpsync/organization", { field: "", mapping: { a: [w.org.id] } })
    ]
  ),
  row(
    "idpSync.patchOrganizationSyncConfig",
    "PATCH /api/v2/settings/idpsync/organization/config",
    200,
    "OrganizationSyncSettings",
    async (w) => [await w.owner.patch("/settings/idpsync/organization/config", { field: "", assign_default: true })]
  ),
  row(
    "idpSync.patchOrganizationSyncMapping",
    "PATCH /api/v2/settings/idpsync/organization/mapping",
    200,
    "OrganizationSyncSettings",
    async (w) => [
      await w.owner.patch("/settings/idpsync/organization/mapping", { Remove: [{ Given: "a", Gets: w.org.id }] })
    ]
  ),
  row("idpSync.availableFields", "GET /api/v2/settings/idpsync/available-fields", 200, "[ClaimString]", async (w) => [
    await w.owner.get("/settings/idpsync/available-fields")
  ]),
  row("idpSync.fieldValues", "GET /api/v2/settings/idpsync/field-values", 200, "[ClaimString]", async (w) => [
    await w.owner.get("/settings/idpsync/field-values?claimField=groups")
  ]),
  row(
    "idpSync.getGroupSync",
    "GET /api/v2/organizations/:organization/settings/idpsync/groups",
    200,
    "GroupSyncSettings",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/settings/idpsync/groups`),
      await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/groups`)
    ]
  ),
  row(
    "idpSync.patchGroupSync",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/groups",
    200,
    "GroupSyncSettings",
    async (w) => [
      await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/groups`, { field: "", regex_filter: "^a" })
    ]
  ),
  row(
    "idpSync.patchGroupSyncConfig",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/groups/config",
    200,
    "GroupSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/groups/config`, { field: "" })]
  ),
  row(
    "idpSync.patchGroupSyncMapping",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/groups/mapping",
    200,
    "GroupSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/groups/mapping`, {})]
  ),
  row(
    "idpSync.getRoleSync",
    "GET /api/v2/organizations/:organization/settings/idpsync/roles",
    200,
    "RoleSyncSettings",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/roles`)]
  ),
  row(
    "idpSync.patchRoleSync",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/roles",
    200,
    "RoleSyncSettings",
    async (w) => [
      await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/roles`, {
        mapping: { a: ["organization-admin"] }
      })
    ]
  ),
  row(
    "idpSync.patchRoleSyncConfig",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/roles/config",
    200,
    "RoleSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/roles/config`, { field: "" })]
  ),
  row(
    "idpSync.patchRoleSyncMapping",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/roles/mapping",
    200,
    "RoleSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/roles/mapping`, {})]
  ),
  row(
    "idpSync.organizationAvailableFields",
    "GET /api/v2/organizations/:organization/settings/idpsync/available-fields",
    200,
    "[ClaimString]",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/available-fields`)]
  ),
  row(
    "idpSync.organizationFieldValues",
    "GET /api/v2/organizations/:organization/settings/idpsync/field-values",
    200,
    "[ClaimString]",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/field-values?claimField=groups`)]
  ),
  row(
    "organizations.createRole",
    "POST /api/v2/organizations/:organization/members/roles",
    200,
    "Role",
    async (w) => [
      await w.owner.post(`/organizations/${w.org.id}/members/roles`, {
        name: "schema-role",
        display_name: "Schema Role",
        organization_permissions: [{ negate: false, resource_type: "group", action: "read" }]
      }),
      await w.owner.post(`/organizations/${w.org.id}/members/roles`, { name: "schema-bare" })
    ]
  ),
  row(
    "organizations.updateRole",
    "PUT /api/v2/organizations/:organization/members/roles",
    200,
    "Role",
    (w) =>
      w.owner.put(`/organizations/${w.org.id}/members/roles`, {
        name: "schema-role",
        display_name: "",
        site_permissions: [],
        user_permissions: [],
        organization_permissions: [{ negate: false, resource_type: "group", action: "create" }]
      })
  ),
  row(
    "organizations.assignableRoles",
    "GET /api/v2/organizations/:organization/members/roles",
    200,
    "[AssignableRoles]",
    (w) => w.owner.get(`/organizations/${w.org.id}/members/roles`)
  ),
  row(
    "organizations.deleteRole",
    "DELETE /api/v2/organizations/:organization/members/roles/:roleName",
    204,
    "none",
    (w) => w.owner.delete(`/organizations/${w.org.id}/members/roles/schema-bare`)
  ),
  row(
    "organizations.getMember",
    "GET /api/v2/organizations/:organization/members/:user",
    200,
    "OrganizationMemberWithUserData",
    async (w) => [
      await w.owner.get(`/organizations/${w.org.id}/members/${w.alice.user.id}`),
      await w.owner.get(`/organizations/${w.orgId}/members/me`),
      await w.owner.get(`/organizations/${w.orgId}/members/${w.bob.username}`)
    ]
  ),
  row(
    "organizations.updateMemberRoles",
    "PUT /api/v2/organizations/:organization/members/:user/roles",
    200,
    "OrganizationMemberWithUserData",
    (w) => w.owner.put(`/organizations/${w.org.id}/members/${w.alice.user.id}/roles`, { roles: ["organization-admin"] })
  ),
  row(
    "organizations.addMember",
    "POST /api/v2/organizations/:organization/members/:user",
    200,
    "OrganizationMemberWithUserData",
    (w) => w.owner.post(`/organizations/${w.org.id}/members/${w.bob.user.id}`)
  ),
  row(
    "organizations.removeMember",
    "DELETE /api/v2/organizations/:organization/members/:user",
    204,
    "none",
    async (w) => {
      const passer = await createUser(w.owner, { username: uniqueName("passer") })
      await w.owner.post(`/organizations/${w.org.id}/members/${passer.user.id}`)
      return w.owner.delete(`/organizations/${w.org.id}/members/${passer.user.id}`)
    }
  ),

  // groups
  row("groups.list", "GET /api/v2/groups", 200, "[Group]", async (w) => [
    await w.owner.get("/groups"),
    await w.bob.client.get("/groups")
  ]),
  row("groups.get", "GET /api/v2/groups/:group", 200, "Group", async (w) => [
    await w.owner.get(`/groups/${w.devs.id}`),
    await w.owner.get(`/groups/${w.bare.id}`),
    await w.owner.get(`/groups/${w.orgId}`),
    await w.owner.get(`/groups/${w.devs.id}?exclude_members=true`),
    await w.bob.client.get(`/groups/${w.devs.id}`)
  ]),
  row("groups.update", "PATCH /api/v2/groups/:group", 200, "Group", async (w) => {
    const g = await throwawayGroup(w, { avatar_url: GROUP_AVATAR })
    return [
      await w.owner.patch(`/groups/${g.id}`, { display_name: "Renamed", add_users: [w.alice.user.id, w.bob.username] }),
      await w.owner.patch(`/groups/${g.id}`, { avatar_url: "" })
    ]
  }),
  row(
    "groups.delete",
    "DELETE /api/v2/groups/:group",
    200,
    "Group",
    async (w) => w.owner.delete(`/groups/${(await throwawayGroup(w)).id}`)
  ),
  row("groups.listMembers", "GET /api/v2/groups/:group/members", 200, "GroupMembersResponse", async (w) => [
    await w.owner.get(`/groups/${w.devs.id}/members`),
    await w.owner.get(`/groups/${w.orgId}/members?limit=2`)
  ]),
  row(
    "groups.getAiBudget",
    "GET /api/v2/groups/:group/ai/budget",
    200,
    "GroupAIBudget",
    (w) => w.owner.get(`/groups/${w.devs.id}/ai/budget`)
  ),
  row(
    "groups.setAiBudget",
    "PUT /api/v2/groups/:group/ai/budget",
    200,
    "GroupAIBudget",
    (w) => w.owner.put(`/groups/${w.orgId}/ai/budget`, { spend_limit_micros: 0 })
  ),
  row("groups.deleteAiBudget", "DELETE /api/v2/groups/:group/ai/budget", 204, "none", async (w) => {
    const g = await throwawayGroup(w)
    await w.owner.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 1 })
    return w.owner.delete(`/groups/${g.id}/ai/budget`)
  }),
  row("groups.getByName", "GET /api/v2/organizations/:organization/groups/:groupName", 200, "Group", async (w) => [
    await w.owner.get(`/organizations/${w.orgId}/groups/Everyone`),
    await w.owner.get(`/organizations/${w.orgId}/groups/${(await throwawayGroup(w)).name}`)
  ]),
  row("groups.listByOrganization", "GET /api/v2/organizations/:organization/groups", 200, "[Group]", async (w) => [
    await w.owner.get(`/organizations/${w.orgId}/groups`),
    await w.owner.get(`/organizations/${w.org.id}/groups`)
  ]),
  row(
    "groups.listPaginated",
    "GET /api/v2/organizations/:organization/paginated-groups",
    200,
    "PaginatedGroupsResponse",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/paginated-groups`),
      await w.owner.get(`/organizations/${w.org.id}/paginated-groups?limit=1`),
      await w.bob.client.get(`/organizations/${w.orgId}/paginated-groups?q=zzz-none`)
    ]
  ),
  row(
    "groups.listMembersByName",
    "GET /api/v2/organizations/:organization/groups/:groupName/members",
    200,
    "GroupMembersResponse",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/groups/Everyone/members`),
      await w.bob.client.get(`/organizations/${w.orgId}/groups/Everyone/members?limit=1`)
    ]
  ),
  row("groups.create", "POST /api/v2/organizations/:organization/groups", 201, "Group", async (w) => [
    await w.owner.post(`/organizations/${w.orgId}/groups`, { name: uniqueName("made") }),
    await w.owner.post(`/organizations/${w.org.id}/groups`, {
      name: uniqueName("made"),
      display_name: "Made",
      avatar_url: GROUP_AVATAR,
      quota_allowance: 3
    })
  ]),
  row(
    "groups.workspaceQuota",
    "GET /api/v2/workspace-quota/:user",
    200,
    "WorkspaceQuota",
    (w) => w.owner.get(`/workspace-quota/${w.alice.user.id}`)
  ),
  row(
    "groups.workspaceQuotaByOrganization",
    "GET /api/v2/organizations/:organization/members/:user/workspace-quota",
    200,
    "WorkspaceQuota",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/members/${w.alice.user.id}/workspace-quota`),
      await w.alice.client.get(`/organizations/${w.org.name}/members/me/workspace-quota`),
      await w.owner.get(`/organizations/${w.org.id}/members/${w.robotId}/workspace-quota`)
    ]
  ),

  // templates: files
  row("files.upload", "POST /api/v2/files", 201, "UploadResponse", (w) => uploadArchive(w, "an upload")),
  row("files.get", "GET /api/v2/files/:fileID", 200, "binary application/x-tar", async (w) => {
    const { body } = await uploadArchive(w, "a download")
    return w.bob.client.get(`/files/${body.hash}`)
  }),

  // templates: provisioner jobs and daemons
  row(
    "provisionerJobs.list",
    "GET /api/v2/organizations/:organization/provisionerjobs",
    200,
    "[ProvisionerJob]",
    async (w) => {
      await seedJobs(w)
      return [
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs`),
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs?status=pending,failed&limit=5`)
      ]
    }
  ),
  row(
    "provisionerJobs.get",
    "GET /api/v2/organizations/:organization/provisionerjobs/:job",
    200,
    "ProvisionerJob",
    async (w) => {
      const { pending, failed } = await seedJobs(w)
      return [
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs/${pending}`),
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs/${failed}`)
      ]
    }
  ),
  row(
    "provisionerJobs.listDaemons",
    "GET /api/v2/organizations/:organization/provisionerdaemons",
    200,
    "[ProvisionerDaemon]",
    async (w) => {
      await seedJobs(w)
      return [
        await w.owner.get(`/organizations/${w.orgId}/provisionerdaemons`),
        await w.bob.client.get(`/organizations/${w.org.id}/provisionerdaemons`)
      ]
    }
  ),
  // provisioner keys, and the external daemons' serve route (its first message is the daemon's `welcome`)
  row(
    "provisionerKeys.create",
    "POST /api/v2/organizations/:organization/provisionerkeys",
    201,
    "CreateProvisionerKeyResponse",
    (w) => w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key"), tags: { pool: "a" } })
  ),
  row(
    "provisionerKeys.list",
    "GET /api/v2/organizations/:organization/provisionerkeys",
    200,
    "[ProvisionerKey]",
    async (w) => {
      await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      return w.bob.client.get(`/organizations/${w.orgId}/provisionerkeys`)
    }
  ),
  row(
    "provisionerKeys.listDaemons",
    "GET /api/v2/organizations/:organization/provisionerkeys/daemons",
    200,
    "[ProvisionerKeyDaemons]",
    async (w) => {
      const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/organizations/${w.orgId}/provisionerdaemons/serve?provisioner=script&name=${
          uniqueName("d")
        }`,
        {
          "Coder-Provisioner-Daemon-Key": made.body.key
        }
      )
      await eventually(() => ws.messages.length > 0)
      const r = await w.owner.get(`/organizations/${w.orgId}/provisionerkeys/daemons`)
      ws.socket.close()
      expect((r.body as Array<any>).some((k) => k.daemons.length === 1)).toBe(true)
      return r
    }
  ),
  row(
    "provisionerKeys.delete",
    "DELETE /api/v2/organizations/:organization/provisionerkeys/:provisionerkey",
    204,
    "none",
    async (w) => {
      const name = uniqueName("key")
      await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name })
      return w.owner.delete(`/organizations/${w.orgId}/provisionerkeys/${name}`)
    }
  ),
  row("provisionerDaemonServe.key", "GET /api/v2/provisionerkeys/:provisionerkey", 200, "ProvisionerKey", async (w) => {
    const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, {
      name: uniqueName("key"),
      tags: { pool: "a" }
    })
    return w.srv.anonymous.request("GET", `/provisionerkeys/${made.body.key}`, undefined, {
      headers: { "Coder-Provisioner-Daemon-Key": made.body.key }
    })
  }),
  row(
    "provisionerDaemonServe.serve",
    "GET /api/v2/organizations/:organization/provisionerdaemons/serve",
    101,
    "none",
    async (w) => {
      const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/organizations/${w.orgId}/provisionerdaemons/serve?provisioner=script`,
        {
          "Coder-Provisioner-Daemon-Key": made.body.key
        }
      )
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      const welcome = JSON.parse(ws.messages[0]!)
      expect(welcome).toMatchObject({
        type: "welcome",
        protocol: "1.0",
        organization_id: w.orgId,
        provisioners: ["script"]
      })
      return { status: 101, body: undefined, headers: new Headers() }
    }
  ),
  // templates
  row(
    "templates.listByOrganization",
    "GET /api/v2/organizations/:organization/templates",
    200,
    "[Template]",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/templates`),
      await w.bob.client.get(`/organizations/${w.orgId}/templates?q=deprecated:true`)
    ]
  ),
  row("templates.create", "POST /api/v2/organizations/:organization/templates", 201, "Template", async (w) => {
    const version = await makeVersion(w.srv, { organizationId: w.org.id, createdBy: w.ownerId })
    return w.owner.post(`/organizations/${w.org.id}/templates`, {
      name: uniqueName("made"),
      display_name: "Made",
      icon: "/icon/made.svg",
      template_version_id: version.id,
      autostop_requirement: { days_of_week: ["monday"], weeks: 2 }
    })
  }),
  row(
    "templates.examples",
    "GET /api/v2/templates/examples",
    200,
    "[TemplateExample]",
    (w) => w.owner.get("/templates/examples")
  ),
  row(
    "templates.examplesByOrganization",
    "GET /api/v2/organizations/:organization/templates/examples",
    200,
    "[TemplateExample]",
    (w) => w.owner.get(`/organizations/${w.orgId}/templates/examples`)
  ),
  row(
    "templates.getByName",
    "GET /api/v2/organizations/:organization/templates/:templatename",
    200,
    "Template",
    (w) => w.bob.client.get(`/organizations/${w.orgId}/templates/${w.template.name}`)
  ),
  row("templates.list", "GET /api/v2/templates", 200, "[Template]", async (w) => [
    await w.owner.get("/templates"),
    await w.bob.client.get("/templates?q=deprecated:true")
  ]),
  row(
    "templates.get",
    "GET /api/v2/templates/:template",
    200,
    "Template",
    (w) => w.bob.client.get(`/templates/${w.template.id}`)
  ),
  row("templates.update", "PATCH /api/v2/templates/:template", 200, "Template", async (w) => {
    const t = await throwawayTemplate(w)
    return w.owner.patch(`/templates/${t.id}`, { display_name: "Changed", deprecation_message: "Old." })
  }),
  row(
    "templates.delete",
    "DELETE /api/v2/templates/:template",
    200,
    "Response",
    async (w) => w.owner.delete(`/templates/${(await throwawayTemplate(w)).id}`)
  ),
  row(
    "templates.getAcl",
    "GET /api/v2/templates/:template/acl",
    200,
    "TemplateACL",
    (w) => w.owner.get(`/templates/${w.template.id}/acl`)
  ),
  row(
    "templates.updateAcl",
    "PATCH /api/v2/templates/:template/acl",
    200,
    "Response",
    async (w) =>
      w.owner.patch(`/templates/${(await throwawayTemplate(w)).id}/acl`, { user_perms: { [w.bob.user.id]: "use" } })
  ),
  row(
    "templates.aclAvailable",
    "GET /api/v2/templates/:template/acl/available",
    200,
    "ACLAvailable",
    (w) => w.owner.get(`/templates/${w.template.id}/acl/available`)
  ),
  row(
    "templates.invalidatePresets",
    "POST /api/v2/templates/:template/prebuilds/invalidate",
    200,
    "InvalidatePresetsResponse",
    (w) => w.owner.post(`/templates/${w.template.id}/prebuilds/invalidate`)
  ),
  row(
    "templates.getPrebuildsSettings",
    "GET /api/v2/prebuilds/settings",
    200,
    "PrebuildsSettings",
    (w) => w.bob.client.get("/prebuilds/settings")
  ),
  row(
    "templates.updatePrebuildsSettings",
    "PUT /api/v2/prebuilds/settings",
    200,
    "PrebuildsSettings",
    async (w) => [
      await w.owner.put("/prebuilds/settings", { reconciliation_paused: true }),
      await w.owner.put("/prebuilds/settings", { reconciliation_paused: false })
    ]
  ),

  // templates: versions
  // workspaces: sharing
  row(
    "workspaceSharing.getAcl",
    "GET /api/v2/workspaces/:workspace/acl",
    200,
    "WorkspaceACL",
    (w) => w.owner.get(`/workspaces/${w.workspace.id}/acl`)
  ),
  row(
    "workspaceSharing.updateAcl",
    "PATCH /api/v2/workspaces/:workspace/acl",
    204,
    "none",
    async (w) =>
      w.owner.patch(`/workspaces/${(await throwawayWorkspace(w)).id}/acl`, { user_roles: { [w.alice.user.id]: "use" } })
  ),
  row(
    "workspaceSharing.deleteAcl",
    "DELETE /api/v2/workspaces/:workspace/acl",
    204,
    "none",
    async (w) => w.owner.delete(`/workspaces/${(await throwawayWorkspace(w)).id}/acl`)
  ),

  row(
    "templateVersions.create",
    "POST /api/v2/organizations/:organization/templateversions",
    201,
    "TemplateVersion",
    async (w) => [
      await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, { message: "a message" }),
      await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    ]
  ),
  row("templateVersions.get", "GET /api/v2/templateversions/:templateversion", 200, "TemplateVersion", async (w) => {
    const { v1, v2 } = await versions(w)
    return [await w.owner.get(`/templateversions/${v1.id}`), await w.bob.client.get(`/templateversions/${v2.id}`)]
  }),
  row(
    "templateVersions.update",
    "PATCH /api/v2/templateversions/:templateversion",
    200,
    "TemplateVersion",
    async (w) => w.owner.patch(`/templateversions/${(await versions(w)).v2.id}`, { message: "changed" })
  ),
  row(
    "templateVersions.cancel",
    "PATCH /api/v2/templateversions/:templateversion/cancel",
    200,
    "Response",
    async (w) => {
      const r = await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, { provisioner: "nobody" })
      return w.owner.patch(`/templateversions/${r.body.id}/cancel`)
    }
  ),
  row(
    "templateVersions.logs",
    "GET /api/v2/templateversions/:templateversion/logs",
    200,
    "[ProvisionerJobLog]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/logs`)
  ),
  row(
    "templateVersions.resources",
    "GET /api/v2/templateversions/:templateversion/resources",
    200,
    "[WorkspaceResource]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/resources`)
  ),
  row(
    "templateVersions.richParameters",
    "GET /api/v2/templateversions/:templateversion/rich-parameters",
    200,
    "[TemplateVersionParameter]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/rich-parameters`)
  ),
  row(
    "templateVersions.dynamicParameters",
    "GET /api/v2/templateversions/:templateversion/dynamic-parameters",
    101,
    "DynamicParametersResponse",
    async (w) => {
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/templateversions/${(await versions(w)).v1.id}/dynamic-parameters`,
        { [SESSION_HEADER]: w.owner.token! }
      )
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
    }
  ),
  row(
    "templateVersions.evaluateDynamicParameters",
    "POST /api/v2/templateversions/:templateversion/dynamic-parameters/evaluate",
    200,
    "DynamicParametersResponse",
    async (w) =>
      w.owner.post(`/templateversions/${(await versions(w)).v1.id}/dynamic-parameters/evaluate`, {
        id: 1,
        inputs: { cpus: "4" }
      })
  ),
  row(
    "templateVersions.variables",
    "GET /api/v2/templateversions/:templateversion/variables",
    200,
    "[TemplateVersionVariable]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/variables`)
  ),
  row(
    "templateVersions.externalAuth",
    "GET /api/v2/templateversions/:templateversion/external-auth",
    200,
    "[TemplateVersionExternalAuth]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/external-auth`)
  ),
  row(
    "templateVersions.presets",
    "GET /api/v2/templateversions/:templateversion/presets",
    200,
    "[Preset]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/presets`)
  ),
  row(
    "templateVersions.createDryRun",
    "POST /api/v2/templateversions/:templateversion/dry-run",
    201,
    "ProvisionerJob",
    async (w) =>
      w.bob.client.post(`/templateversions/${(await versions(w)).v1.id}/dry-run`, {
        workspace_name: "x",
        rich_parameter_values: []
      })
  ),
  row(
    "templateVersions.getDryRun",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID",
    200,
    "ProvisionerJob",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}`)
    }
  ),
  row(
    "templateVersions.dryRunLogs",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID/logs",
    200,
    "[ProvisionerJobLog]",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}/logs`)
    }
  ),
  row(
    "templateVersions.dryRunResources",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID/resources",
    200,
    "[WorkspaceResource]",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}/resources`)
    }
  ),
  row(
    "templateVersions.dryRunMatchedProvisioners",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID/matched-provisioners",
    200,
    "MatchedProvisioners",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}/matched-provisioners`)
    }
  ),
  // Removed in the described system, which answers `[]`: any list type holds it.
  row(
    "templateVersions.removedParameters",
    "GET /api/v2/templateversions/:templateversion/parameters",
    200,
    "[TemplateVersionParameter]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/parameters`)
  ),
  row(
    "templateVersions.removedSchema",
    "GET /api/v2/templateversions/:templateversion/schema",
    200,
    "[TemplateVersionParameter]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/schema`)
  ),
  row(
    "templateVersions.cancelDryRun",
    "PATCH /api/v2/templateversions/:templateversion/dry-run/:jobID/cancel",
    200,
    "Response",
    async (w) => {
      // A dry run that takes a while (`build.delay_ms`), so it is still unfinished when the cancel arrives.
      // The import waits as long (two waits of one log line), within runJobs' 10 s.
      const slow = await createVersion(
        w.srv,
        w.owner,
        w.orgId,
        FULL_TEMPLATE.replace("build:\n", "build:\n  delay_ms: 2000\n")
      )
      await runJobs(w.srv)
      const dry = await w.owner.post(`/templateversions/${slow.body.id}/dry-run`, { workspace_name: "c" })
      return w.owner.patch(`/templateversions/${slow.body.id}/dry-run/${dry.body.id}/cancel`)
    }
  ),
  row(
    "templateVersions.archive",
    "POST /api/v2/templateversions/:templateversion/archive",
    200,
    "Response",
    async (w) => w.owner.post(`/templateversions/${(await versions(w)).v2.id}/archive`)
  ),
  row(
    "templateVersions.unarchive",
    "POST /api/v2/templateversions/:templateversion/unarchive",
    200,
    "Response",
    async (w) => w.owner.post(`/templateversions/${(await versions(w)).v2.id}/unarchive`)
  ),
  row(
    "templateVersions.listByTemplate",
    "GET /api/v2/templates/:template/versions",
    200,
    "[TemplateVersion]",
    async (w) => w.owner.get(`/templates/${(await versions(w)).template.id}/versions?include_archived=true`)
  ),
  row("templateVersions.promote", "PATCH /api/v2/templates/:template/versions", 200, "Response", async (w) => {
    const { template, v2 } = await versions(w)
    return w.owner.patch(`/templates/${template.id}/versions`, { id: v2.id })
  }),
  row(
    "templateVersions.archiveUnused",
    "POST /api/v2/templates/:template/versions/archive",
    200,
    "ArchiveTemplateVersionsResponse",
    async (w) => w.owner.post(`/templates/${(await versions(w)).template.id}/versions/archive`, { all: false })
  ),
  row(
    "templateVersions.getByTemplateAndName",
    "GET /api/v2/templates/:template/versions/:templateversionname",
    200,
    "TemplateVersion",
    async (w) => w.owner.get(`/templates/${(await versions(w)).template.id}/versions/v1`)
  ),
  row(
    "templateVersions.getByOrganizationAndName",
    "GET /api/v2/organizations/:organization/templates/:templatename/versions/:templateversionname",
    200,
    "TemplateVersion",
    async (w) => w.owner.get(`/organizations/${w.orgId}/templates/${(await versions(w)).template.name}/versions/v2`)
  ),
  row(
    "templateVersions.previous",
    "GET /api/v2/organizations/:organization/templates/:templatename/versions/:templateversionname/previous",
    200,
    "TemplateVersion",
    async (w) =>
      w.owner.get(`/organizations/${w.orgId}/templates/${(await versions(w)).template.name}/versions/v2/previous`)
  ),

  // workspaces: port sharing (on bob's workspace, seeded in storage until the workspace routes exist)
  row("portShares.list", "GET /api/v2/workspaces/:workspace/port-share", 200, "WorkspaceAgentPortShares", async (w) => {
    const ws = await portShareWorkspace(w)
    const empty = await w.bob.client.get(`/workspaces/${ws.id}/port-share`)
    await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
      agent_name: "main",
      port: 8080,
      share_level: "public",
      protocol: "https"
    })
    await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
      agent_name: "main",
      port: 3000,
      share_level: "organization",
      protocol: "http"
    })
    return [empty, await w.bob.client.get(`/workspaces/${ws.id}/port-share`)]
  }),
  row(
    "portShares.upsert",
    "POST /api/v2/workspaces/:workspace/port-share",
    200,
    "WorkspaceAgentPortShare",
    async (w) => {
      const ws = await portShareWorkspace(w)
      return [
        await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
          agent_name: "main",
          port: 9000,
          share_level: "authenticated",
          protocol: "http"
        }),
        await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
          agent_name: "main",
          port: 9000,
          share_level: "public",
          protocol: "https"
        })
      ]
    }
  ),
  row("portShares.delete", "DELETE /api/v2/workspaces/:workspace/port-share", 200, "none", async (w) => {
    const ws = await portShareWorkspace(w)
    await w.bob.client.post(`/workspaces/${ws.id}/port-share`, {
      agent_name: "main",
      port: 9100,
      share_level: "public",
      protocol: "http"
    })
    return w.bob.client.delete(`/workspaces/${ws.id}/port-share`, { agent_name: "main", port: 9100 })
  }),

  // workspaces and builds
  row(
    "workspaces.create",
    "POST /api/v2/organizations/:organization/members/:user/workspaces",
    200,
    "Workspace",
    async (w) => {
      const { template } = await workspacesOf(w)
      const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
        name: uniqueName("made"),
        template_id: template.id,
        autostart_schedule: "CRON_TZ=UTC 0 9 * * 1-5",
        rich_parameter_values: [{ name: "size", value: "large" }]
      })
      await runJobs(w.srv)
      return r
    }
  ),
  row("workspaces.createForUser", "POST /api/v2/users/:user/workspaces", 200, "Workspace", async (w) => {
    const { template } = await workspacesOf(w)
    const r = await w.owner.post(`/users/${w.bob.username}/workspaces`, {
      name: uniqueName("bobs"),
      template_id: template.id
    })
    await runJobs(w.srv)
    return r
  }),
  row(
    "workspaces.availableUsers",
    "GET /api/v2/organizations/:organization/members/:user/workspaces/available-users",
    200,
    "[MinimalUser]",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/members/me/workspaces/available-users`),
      await w.bob.client.get(`/organizations/${w.orgId}/members/me/workspaces/available-users`)
    ]
  ),
  row("workspaces.list", "GET /api/v2/workspaces", 200, "WorkspacesResponse", async (w) => {
    await workspacesOf(w)
    return [
      await w.owner.get("/workspaces"),
      await w.owner.get("/workspaces?q=status:stopped&limit=1"),
      await w.bob.client.get("/workspaces")
    ]
  }),
  // The watch rows check the first `data` message: a WebSocket (101) and a server-sent event stream.
  row("workspaceWatch.watchWs", "GET /api/v2/workspaces/:workspace/watch-ws", 101, "Workspace", async (w) => {
    const { running } = await workspacesOf(w)
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaces/${running.id}/watch-ws`, {
      [SESSION_HEADER]: w.owner.token!
    })
    await eventually(() => ws.messages.some((m) => JSON.parse(m).type === "data"))
    ws.socket.close()
    const data = ws.messages.map((m) => JSON.parse(m)).find((m) => m.type === "data")
    expect(Object.keys(data).sort()).toEqual(["data", "type"])
    return { status: 101, body: data.data, headers: new Headers() }
  }),
  row("workspaceWatch.watch", "GET /api/v2/workspaces/:workspace/watch", 200, "Workspace", async (w) => {
    const { running } = await workspacesOf(w)
    const sse = await readEvents(`${w.srv.url}/api/v2/workspaces/${running.id}/watch`, {
      [SESSION_HEADER]: w.owner.token!
    })
    await eventually(() => sse.events.some((e) => e.event === "data"))
    await sse.stop()
    expect(sse.response.headers.get("content-type")).toBe("text/event-stream")
    return {
      status: sse.response.status,
      body: sse.events.find((e) => e.event === "data")!.data,
      headers: sse.response.headers
    }
  }),
  row("workspaces.get", "GET /api/v2/workspaces/:workspace", 200, "Workspace", async (w) => {
    const { running, stopped } = await workspacesOf(w)
    return [await w.owner.get(`/workspaces/${running.id}`), await w.owner.get(`/workspaces/${stopped.id}`)]
  }),
  row(
    "workspaces.getByOwnerAndName",
    "GET /api/v2/users/:user/workspace/:workspacename",
    200,
    "Workspace",
    async (w) => w.owner.get(`/users/me/workspace/${(await workspacesOf(w)).running.name}`)
  ),
  row(
    "workspaces.update",
    "PATCH /api/v2/workspaces/:workspace",
    204,
    "none",
    async (w) => w.owner.patch(`/workspaces/${(await workspacesOf(w)).stopped.id}`, { name: "" })
  ),
  row(
    "workspaces.favorite",
    "PUT /api/v2/workspaces/:workspace/favorite",
    204,
    "none",
    async (w) => w.owner.put(`/workspaces/${(await workspacesOf(w)).running.id}/favorite`)
  ),
  row(
    "workspaces.unfavorite",
    "DELETE /api/v2/workspaces/:workspace/favorite",
    204,
    "none",
    async (w) => w.owner.delete(`/workspaces/${(await workspacesOf(w)).stopped.id}/favorite`)
  ),
  // workspaces: schedules
  row(
    "workspaceSchedules.setAutostart",
    "PUT /api/v2/workspaces/:workspace/autostart",
    204,
    "none",
    async (w) =>
      w.owner.put(`/workspaces/${(await workspacesOf(w)).stopped.id}/autostart`, {
        schedule: "CRON_TZ=UTC 0 9 * * 1-5"
      })
  ),
  row(
    "workspaceSchedules.setTtl",
    "PUT /api/v2/workspaces/:workspace/ttl",
    204,
    "none",
    async (w) => w.owner.put(`/workspaces/${(await workspacesOf(w)).stopped.id}/ttl`, { ttl_ms: 3_600_000 })
  ),
  row("workspaceSchedules.extend", "PUT /api/v2/workspaces/:workspace/extend", 200, "Response", async (w) => {
    const { template } = await workspacesOf(w)
    const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
      name: uniqueName("ext"),
      template_id: template.id,
      ttl_ms: 3_600_000
    })
    await runJobs(w.srv)
    return w.owner.put(`/workspaces/${r.body.id}/extend`, { deadline: new Date(Date.now() + 7_200_000).toISOString() })
  }),
  row(
    "workspaceSchedules.setAutomaticUpdates",
    "PUT /api/v2/workspaces/:workspace/autoupdates",
    204,
    "none",
    async (w) =>
      w.owner.put(`/workspaces/${(await workspacesOf(w)).stopped.id}/autoupdates`, { automatic_updates: "always" })
  ),
  row("workspaceSchedules.setDormant", "PUT /api/v2/workspaces/:workspace/dormant", 200, "Workspace", async (w) => {
    const id = (await workspacesOf(w)).stopped.id
    return [
      await w.owner.put(`/workspaces/${id}/dormant`, { dormant: true }),
      await w.owner.put(`/workspaces/${id}/dormant`, { dormant: false })
    ]
  }),
  row(
    "workspaceSchedules.resolveAutostart",
    "GET /api/v2/workspaces/:workspace/resolve-autostart",
    200,
    "ResolveAutostartResponse",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}/resolve-autostart`)
  ),
  row(
    "workspaceSchedules.reportUsage",
    "POST /api/v2/workspaces/:workspace/usage",
    204,
    "none",
    async (w) => w.owner.post(`/workspaces/${(await workspacesOf(w)).running.id}/usage`, { app_name: "" })
  ),
  row("workspaces.createBuild", "POST /api/v2/workspaces/:workspace/builds", 200, "WorkspaceBuild", async (w) => {
    const { template } = await workspacesOf(w)
    const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
      name: uniqueName("built"),
      template_id: template.id
    })
    await runJobs(w.srv)
    const stop = await w.owner.post(`/workspaces/${r.body.id}/builds`, { transition: "stop" })
    await runJobs(w.srv)
    return stop
  }),
  row(
    "workspaces.listBuilds",
    "GET /api/v2/workspaces/:workspace/builds",
    200,
    "[WorkspaceBuild]",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).stopped.id}/builds`)
  ),
  row(
    "workspaces.getBuild",
    "GET /api/v2/workspacebuilds/:workspacebuild",
    200,
    "WorkspaceBuild",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}`)
  ),
  row(
    "workspaces.buildByNumber",
    "GET /api/v2/users/:user/workspace/:workspacename/builds/:buildnumber",
    200,
    "WorkspaceBuild",
    async (w) => w.owner.get(`/users/me/workspace/${(await workspacesOf(w)).running.name}/builds/1`)
  ),
  row(
    "workspaces.buildLogs",
    "GET /api/v2/workspacebuilds/:workspacebuild/logs",
    200,
    "[ProvisionerJobLog]",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/logs`)
  ),
  row(
    "workspaces.buildResources",
    "GET /api/v2/workspacebuilds/:workspacebuild/resources",
    200,
    "[WorkspaceResource]",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/resources`)
  ),
  row(
    "workspaces.buildParameters",
    "GET /api/v2/workspacebuilds/:workspacebuild/parameters",
    200,
    "[WorkspaceBuildParameter]",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/parameters`)
  ),
  row(
    "workspaces.buildState",
    "GET /api/v2/workspacebuilds/:workspacebuild/state",
    200,
    "binary application/json",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/state`)
  ),
  row(
    "workspaces.updateBuildState",
    "PUT /api/v2/workspacebuilds/:workspacebuild/state",
    204,
    "none",
    async (w) =>
      w.owner.put(`/workspacebuilds/${(await workspacesOf(w)).stopped.latest_build.id}/state`, { state: "e30=" })
  ),
  row(
    "workspaces.buildTimings",
    "GET /api/v2/workspacebuilds/:workspacebuild/timings",
    200,
    "WorkspaceBuildTimings",
    async (w) => w.owner.get(`/workspacebuilds/${(await workspacesOf(w)).running.latest_build.id}/timings`)
  ),
  row(
    "workspaces.workspaceTimings",
    "GET /api/v2/workspaces/:workspace/timings",
    200,
    "WorkspaceBuildTimings",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).stopped.id}/timings`)
  ),
  row("workspaces.cancelBuild", "PATCH /api/v2/workspacebuilds/:workspacebuild/cancel", 200, "Response", async (w) => {
    const slow = await slowWorkspace(w)
    const r = await w.owner.patch(`/workspacebuilds/${slow.latest_build.id}/cancel`)
    await runJobs(w.srv)
    return r
  }),

  // agents
  row("agents.get", "GET /api/v2/workspaceagents/:workspaceagent", 200, "WorkspaceAgent", async (w) => {
    const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
    const agents = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])
    return Promise.all(agents.map((a: any) => w.owner.get(`/workspaceagents/${a.id}`)))
  }),
  row(
    "agents.externalCredentials",
    "GET /api/v2/workspaces/:workspace/external-agent/:agent/credentials",
    200,
    "ExternalAgentCredentials",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`)
  ),
  // The external agent "laptop" connects and answers the service's question on its connection.
  row(
    "agents.listeningPorts",
    "GET /api/v2/workspaceagents/:workspaceagent/listening-ports",
    200,
    "WorkspaceAgentListeningPortsResponse",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
        a.name === "laptop"
      )
      const credentials = await w.owner.get(`/workspaces/${running.id}/external-agent/laptop/credentials`)
      const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
        [SESSION_HEADER]: credentials.body.agent_token
      })
      ws.socket.on("message", (data) => {
        const m = JSON.parse(data.toString())
        if (m.type === "listening_ports_request") {
          ws.socket.send(
            JSON.stringify({
              type: "listening_ports",
              request_id: m.request_id,
              ports: [{ process_name: "node", network: "tcp", port: 3000 }]
            })
          )
        }
      })
      ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
      await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 1))
      const r = await w.owner.get(`/workspaceagents/${agent.id}/listening-ports`)
      ws.socket.close()
      expect(r.body.ports).toHaveLength(1)
      return r
    }
  ),
  // The external agent "laptop" connects and answers about its dev containers, as the reference agent does.
  row(
    "agents.containers",
    "GET /api/v2/workspaceagents/:workspaceagent/containers",
    200,
    "WorkspaceAgentListContainersResponse",
    (w) => withContainersAgent(w, (agentId) => w.owner.get(`/workspaceagents/${agentId}/containers`))
  ),
  row(
    "agents.watchContainers",
    "GET /api/v2/workspaceagents/:workspaceagent/containers/watch",
    101,
    "WorkspaceAgentListContainersResponse",
    (w) =>
      withContainersAgent(w, async (agentId) => {
        const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agentId}/containers/watch`, {
          [SESSION_HEADER]: w.owner.token!
        })
        await eventually(() => ws.messages.length > 0)
        ws.socket.close()
        return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
      })
  ),
  row(
    "agents.deleteDevcontainer",
    "DELETE /api/v2/workspaceagents/:workspaceagent/containers/devcontainers/:devcontainer",
    204,
    "none",
    (w) =>
      withContainersAgent(
        w,
        (agentId) => w.owner.delete(`/workspaceagents/${agentId}/containers/devcontainers/${SCRIPTED_DEVCONTAINER}`)
      )
  ),
  row(
    "agents.recreateDevcontainer",
    "POST /api/v2/workspaceagents/:workspaceagent/containers/devcontainers/:devcontainer/recreate",
    202,
    "Response",
    (w) =>
      withContainersAgent(
        w,
        (agentId) =>
          w.owner.post(`/workspaceagents/${agentId}/containers/devcontainers/${SCRIPTED_DEVCONTAINER}/recreate`)
      )
  ),
  row("agentMe.gitSshKey", "GET /api/v2/workspaceagents/me/gitsshkey", 200, "AgentGitSSHKey", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    return w.owner.as(credentials.body.agent_token).get("/workspaceagents/me/gitsshkey")
  }),
  // Instance identity needs trust roots: each row on a server of its own that has them.
  row(
    "agentIdentity.aws",
    "POST /api/v2/workspaceagents/aws-instance-identity",
    200,
    "AuthenticateResponse",
    () => withIdentityServer((s) => s.aws())
  ),
  row(
    "agentIdentity.azure",
    "POST /api/v2/workspaceagents/azure-instance-identity",
    200,
    "AuthenticateResponse",
    () => withIdentityServer((s) => s.azure())
  ),
  row(
    "agentIdentity.google",
    "POST /api/v2/workspaceagents/google-instance-identity",
    200,
    "AuthenticateResponse",
    () => withIdentityServer((s) => s.google())
  ),
  row(
    "agentBinaries.initScript",
    "GET /api/v2/init-script/:os/:arch",
    200,
    "binary text/plain; charset=utf-8",
    (w) => w.srv.anonymous.get("/init-script/linux/amd64")
  ),
  // At the root, outside /api/v2: the server of the rows serves one (fake) executable.
  row(
    "agentBinaries.binary",
    "GET /bin/workbay-agent-:os-:arch",
    200,
    "binary application/octet-stream",
    (w) => new Client(w.srv.url).get("/bin/workbay-agent-linux-amd64")
  ),

  // The agent connection's row checks the answer of `get_manifest`, after reports that fill the Agent record's times.
  row("agentRpc.rpc", "GET /api/v2/workspaceagents/me/rpc", 101, "AgentManifest", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      [SESSION_HEADER]: credentials.body.agent_token
    })
    ws.socket.send(JSON.stringify({ type: "update_lifecycle", id: 1, state: "ready" }))
    ws.socket.send(JSON.stringify({ type: "get_manifest", id: 2 }))
    await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 2))
    ws.socket.close()
    const answer = ws.messages.map((m) => JSON.parse(m)).find((m) => m.id === 2)
    expect(Object.keys(answer).sort()).toEqual(["id", "result"])
    return { status: 101, body: answer.result, headers: new Headers() }
  }),
  row("agentRpc.manifest", "GET /api/v2/workspaceagents/me/manifest", 200, "AgentManifest", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    return w.owner.as(credentials.body.agent_token).get("/workspaceagents/me/manifest")
  }),
  // The event a claim's build sends (docs/prebuilds.md), published here on the workspace's channel.
  row(
    "agentRpc.reinit",
    "GET /api/v2/workspaceagents/me/reinit",
    200,
    "ReinitializationEvent",
    async (w) => {
      const workspaceId = (await workspacesOf(w)).running.id
      const credentials = await w.owner.get(`/workspaces/${workspaceId}/external-agent/laptop/credentials`)
      const sse = await readEvents(`${w.srv.url}/api/v2/workspaceagents/me/reinit`, {
        [SESSION_HEADER]: credentials.body.agent_token
      })
      await w.srv.run(
        Effect.flatMap(PubSub, (p) => p.publish(agentReinitChannel(workspaceId), AGENT_REINIT_PREBUILD_CLAIMED))
      )
      await eventually(() => sse.events.some((e) => e.event === "data"))
      await sse.stop()
      expect(sse.response.headers.get("content-type")).toBe("text/event-stream")
      return {
        status: sse.response.status,
        body: sse.events.find((e) => e.event === "data")!.data,
        headers: sse.response.headers
      }
    }
  ),

  row(
    "agentMetadata.watchMetadata",
    "GET /api/v2/workspaceagents/:workspaceagent/watch-metadata",
    200,
    "[WorkspaceAgentMetadata]",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
      const sse = await readEvents(`${w.srv.url}/api/v2/workspaceagents/${agent.id}/watch-metadata`, {
        [SESSION_HEADER]: w.owner.token!
      })
      await eventually(() => sse.events.some((e) => e.event === "data"))
      await sse.stop()
      expect(sse.response.headers.get("content-type")).toBe("text/event-stream")
      return {
        status: sse.response.status,
        body: sse.events.find((e) => e.event === "data")!.data,
        headers: sse.response.headers
      }
    }
  ),
  row(
    "agentMetadata.watchMetadataWs",
    "GET /api/v2/workspaceagents/:workspaceagent/watch-metadata-ws",
    101,
    "[WorkspaceAgentMetadata]",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
      const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agent.id}/watch-metadata-ws`, {
        [SESSION_HEADER]: w.owner.token!
      })
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      const data = JSON.parse(ws.messages[0]!)
      expect(Object.keys(data).sort()).toEqual(["data", "type"])
      return { status: 101, body: data.data, headers: new Headers() }
    }
  ),
  // streams (WebSockets of bytes; their frames are Workbay's own, checked in agents/Streams.test.ts):
  // the handshakes, with the laptop agent connected and opening its end when asked.
  ...(["pty", "tunnel", "ssh"] as const).map((kind) =>
    row(`agentStreams.${kind}`, `GET /api/v2/workspaceagents/:workspaceagent/${kind}`, 101, "none", async (w) => {
      const { agentId, close } = await laptopStreams(w)
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/workspaceagents/${agentId}/${kind}${kind === "tunnel" ? "?port=8080" : ""}`,
        { [SESSION_HEADER]: w.owner.token! }
      )
      ws.socket.close()
      await close()
      return { status: 101, body: undefined, headers: new Headers() }
    })
  ),
  row("agentStreamEnd.stream", "GET /api/v2/workspaceagents/me/streams/:stream", 101, "none", async (w) => {
    const { agentId, ends, close } = await laptopStreams(w)
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agentId}/ssh`, {
      [SESSION_HEADER]: w.owner.token!
    })
    await eventually(() => ends.length > 0)
    ws.socket.close()
    await close()
    return { status: ends[0]!, body: undefined, headers: new Headers() }
  }),
  // connection routes (WebSockets): the derp map's first message; the coordination routes'
  // handshakes (their messages are Workbay's own, checked in agents/Tailnet.test.ts); the
  // connection watch's `agent` message.
  row("tailnet.derpMap", "GET /api/v2/derp-map", 101, "DERPMap", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/derp-map`, { [SESSION_HEADER]: w.owner.token! })
    await eventually(() => ws.messages.length > 0)
    ws.socket.close()
    return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
  }),
  row("tailnet.coordinate", "GET /api/v2/tailnet", 101, "none", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/tailnet`, { [SESSION_HEADER]: w.owner.token! })
    ws.socket.close()
    return { status: 101, body: undefined, headers: new Headers() }
  }),
  row(
    "tailnet.agentCoordinate",
    "GET /api/v2/workspaceagents/:workspaceagent/coordinate",
    101,
    "none",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
      const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agent.id}/coordinate`, {
        [SESSION_HEADER]: w.owner.token!
      })
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      expect(JSON.parse(ws.messages[0]!)).toEqual({ type: "subscribed", agent_id: agent.id })
      return { status: 101, body: undefined, headers: new Headers() }
    }
  ),
  row("tailnetAgent.coordinate", "GET /api/v2/workspaceagents/me/coordinate", 101, "none", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/coordinate`, {
      [SESSION_HEADER]: credentials.body.agent_token
    })
    ws.socket.close()
    return { status: 101, body: undefined, headers: new Headers() }
  }),
  row(
    "tailnet.agentConnectionWatch",
    "GET /api/v2/workspaces/:workspace/agent-connection-watch",
    101,
    "[ConnectionWatchEvent]",
    async (w) => {
      const { running } = await workspacesOf(w)
      const watch = async (query: string) => {
        const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaces/${running.id}/agent-connection-watch${query}`, {
          [SESSION_HEADER]: w.owner.token!
        })
        await eventually(() => ws.messages.length >= 2)
        ws.socket.close()
        return ws.messages.map((m) => JSON.parse(m))
      }
      // The build and agent updates, then an error frame (no agent of that name).
      const frames = [...await watch("?agent_name=laptop"), ...await watch("?agent_name=ghost")]
      return { status: 101, body: frames, headers: new Headers() }
    }
  ),

  row(
    "agentReports.logSource",
    "POST /api/v2/workspaceagents/me/log-source",
    200,
    "WorkspaceAgentLogSource",
    async (w) =>
      (await laptopAgent(w)).post("/workspaceagents/me/log-source", {
        id: ROWS_LOG_SOURCE,
        display_name: "Rows",
        icon: "/icon/rows.svg"
      })
  ),
  row("agentReports.logs", "PATCH /api/v2/workspaceagents/me/logs", 200, "Response", async (w) => {
    const agent = await laptopAgent(w)
    await agent.post("/workspaceagents/me/log-source", { id: ROWS_LOG_SOURCE, display_name: "Rows" })
    return agent.patch("/workspaceagents/me/logs", {
      log_source_id: ROWS_LOG_SOURCE,
      logs: [{ created_at: new Date().toISOString(), level: "trace", output: "a line" }]
    })
  }),
  row("agentLogs.logs", "GET /api/v2/workspaceagents/:workspaceagent/logs", 200, "[WorkspaceAgentLog]", async (w) => {
    const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
    const laptop = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
      a.name === "laptop"
    )
    return w.owner.get(`/workspaceagents/${laptop.id}/logs`)
  }),
  row(
    "agentLogs.startupLogs",
    "GET /api/v2/workspaceagents/:workspaceagent/startup-logs",
    200,
    "[WorkspaceAgentLog]",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const laptop = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
        a.name === "laptop"
      )
      return w.owner.get(`/workspaceagents/${laptop.id}/startup-logs`)
    }
  ),
  row(
    "agents.connection",
    "GET /api/v2/workspaceagents/:workspaceagent/connection",
    200,
    "AgentConnectionInfo",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const laptop = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
        a.name === "laptop"
      )
      return w.owner.get(`/workspaceagents/${laptop.id}/connection`)
    }
  ),
  row(
    "agentReports.appStatus",
    "PATCH /api/v2/workspaceagents/me/app-status",
    200,
    "Response",
    async (w) =>
      (await laptopAgent(w)).patch("/workspaceagents/me/app-status", {
        app_slug: "board",
        state: "working",
        message: "Rows",
        uri: "",
        icon: ""
      })
  ),
  row(
    "agentReports.connection",
    "POST /api/v2/workspaceagents/me/connections",
    200,
    "Response",
    async (w) =>
      (await laptopAgent(w)).post("/workspaceagents/me/connections", {
        connection: { id: ROWS_LOG_SOURCE, action: "connect", type: "ssh", ip: "127.0.0.1" }
      })
  ),

  // tasks
  row("tasks.create", "POST /api/v2/tasks/:user", 201, "Task", async (w) => {
    const r = await w.bob.client.post("/tasks/me", {
      input: "Fix it",
      template_version_id: await aiVersionOf(w),
      display_name: "Fixing"
    })
    await runJobs(w.srv)
    return r
  }),
  row("tasks.list", "GET /api/v2/tasks", 200, "TasksListResponse", async (w) => {
    await bobsTask(w)
    return [
      await w.owner.get("/tasks"),
      await w.bob.client.get("/tasks?q=owner:me status:initializing"),
      await w.alice.client.get("/tasks")
    ]
  }),
  row("tasks.get", "GET /api/v2/tasks/:user/:task", 200, "Task", async (w) => {
    const t = await bobsTask(w)
    return [await w.bob.client.get(`/tasks/me/${t.id}`), await w.owner.get(`/tasks/${w.bob.username}/${t.name}`)]
  }),
  row(
    "tasks.delete",
    "DELETE /api/v2/tasks/:user/:task",
    202,
    "none",
    async (w) => w.bob.client.delete(`/tasks/me/${(await bobsTask(w)).id}`)
  ),
  row("tasks.updateInput", "PATCH /api/v2/tasks/:user/:task/input", 204, "none", async (w) => {
    const t = await bobsTask(w)
    await w.bob.client.post(`/tasks/me/${t.id}/pause`)
    await runJobs(w.srv)
    return w.bob.client.patch(`/tasks/me/${t.id}/input`, { input: "Write better docs" })
  }),
  row("tasks.send", "POST /api/v2/tasks/:user/:task/send", 204, "none", async (w) => {
    const t = await bobsTask(w)
    const agent = await connectAgent(w.srv, w.bob.client, t.workspace_id.uuid)
    const r = await w.bob.client.post(`/tasks/me/${t.id}/send`, { input: "And the changelog" })
    agent.socket.close(1000)
    await agent.closed
    return r
  }),
  row("tasks.logs", "GET /api/v2/tasks/:user/:task/logs", 200, "TaskLogsResponse", async (w) => {
    const t = await bobsTask(w)
    const live = await w.bob.client.get(`/tasks/me/${t.id}/logs`)
    await w.bob.client.post(`/tasks/me/${t.id}/pause`)
    await runJobs(w.srv)
    return [live, await w.bob.client.get(`/tasks/me/${t.id}/logs`)]
  }),
  row(
    "taskAgent.logSnapshot",
    "POST /api/v2/workspaceagents/me/tasks/:task/log-snapshot",
    204,
    "none",
    async (w) => {
      const t = await bobsTask(w)
      const agent = await connectAgent(w.srv, w.bob.client, t.workspace_id.uuid)
      const r = await w.bob.client.as(agent.token).post(
        `/workspaceagents/me/tasks/${t.id}/log-snapshot?format=agentapi`,
        { messages: [{ id: 0, role: "user", content: "Write the docs", time: "2030-01-01T10:00:00Z" }] }
      )
      agent.socket.close(1000)
      await agent.closed
      return r
    }
  ),
  // inbox: notifications delivered through the InboxDelivery port, as the notifier does
  row("inbox.list", "GET /api/v2/notifications/inbox", 200, "ListInboxNotificationsResponse", async (w) => {
    const n = await deliver(w.srv, w.bob.user.id, { targets: [randomUUID()] })
    await deliver(w.srv, w.bob.user.id, { actions: [], icon: "DEFAULT_WORKSPACE_ICON" })
    await w.bob.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true })
    return [
      await w.bob.client.get("/notifications/inbox"),
      await w.bob.client.get(`/notifications/inbox?read_status=unread&starting_before=${n.id}`),
      await w.owner.get("/notifications/inbox")
    ]
  }),
  row("inbox.watch", "GET /api/v2/notifications/inbox/watch", 101, "GetInboxNotificationResponse", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/notifications/inbox/watch?format=plaintext`, {
      [SESSION_HEADER]: w.bob.client.token!
    })
    await deliver(w.srv, w.bob.user.id)
    await eventually(() => ws.messages.length > 0)
    ws.socket.close()
    return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
  }),
  row("inbox.markAllRead", "PUT /api/v2/notifications/inbox/mark-all-as-read", 204, "none", async (w) => {
    await deliver(w.srv, w.bob.user.id)
    return w.bob.client.put("/notifications/inbox/mark-all-as-read")
  }),
  row(
    "inbox.setReadStatus",
    "PUT /api/v2/notifications/inbox/:id/read-status",
    200,
    "UpdateInboxNotificationReadStatusResponse",
    async (w) => {
      const n = await deliver(w.srv, w.bob.user.id)
      return [
        await w.bob.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true }),
        await w.bob.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: false })
      ]
    }
  ),
  row("tasks.pause", "POST /api/v2/tasks/:user/:task/pause", 202, "PauseTaskResponse", async (w) => {
    const r = await w.bob.client.post(`/tasks/me/${(await bobsTask(w)).id}/pause`)
    await runJobs(w.srv)
    return r
  }),
  // notifications
  row(
    "notifications.systemTemplates",
    "GET /api/v2/notifications/templates/system",
    200,
    "[NotificationTemplate]",
    async (w) => {
      await w.owner.put("/notifications/templates/c425f63e-716a-4bf4-ae24-78348f706c3f/method", { method: "webhook" })
      return w.bob.client.get("/notifications/templates/system")
    }
  ),
  row(
    "notifications.customTemplates",
    "GET /api/v2/notifications/templates/custom",
    200,
    "[NotificationTemplate]",
    (w) => w.bob.client.get("/notifications/templates/custom")
  ),
  row(
    "notifications.updateTemplateMethod",
    "PUT /api/v2/notifications/templates/:notification_template/method",
    200,
    "none",
    async (w) => [
      await w.owner.put("/notifications/templates/29a09665-2a4c-403f-9648-54301670e7be/method", { method: "smtp" }),
      await w.owner.put("/notifications/templates/29a09665-2a4c-403f-9648-54301670e7be/method", { method: "" })
    ]
  ),
  row(
    "notifications.getPreferences",
    "GET /api/v2/users/:user/notifications/preferences",
    200,
    "[NotificationPreference]",
    async (w) => {
      const empty = await w.alice.client.get("/users/me/notifications/preferences")
      await w.bob.client.put("/users/me/notifications/preferences", {
        template_disabled_map: { "f517da0b-cdc9-410f-ab89-a86107c420ed": true }
      })
      return [empty, await w.bob.client.get("/users/me/notifications/preferences")]
    }
  ),
  row(
    "notifications.updatePreferences",
    "PUT /api/v2/users/:user/notifications/preferences",
    200,
    "[NotificationPreference]",
    (w) =>
      w.bob.client.put("/users/me/notifications/preferences", {
        template_disabled_map: { "281fdf73-c6d6-4cbb-8ff5-888baf8a2fff": false }
      })
  ),
  row(
    "notifications.getSettings",
    "GET /api/v2/notifications/settings",
    200,
    "NotificationsSettings",
    (w) => w.bob.client.get("/notifications/settings")
  ),
  row("notifications.updateSettings", "PUT /api/v2/notifications/settings", 200, "NotificationsSettings", async (w) => [
    await w.owner.put("/notifications/settings", { notifier_paused: true }),
    await w.owner.put("/notifications/settings", { notifier_paused: false })
  ]),
  row(
    "notifications.dispatchMethods",
    "GET /api/v2/notifications/dispatch-methods",
    200,
    "NotificationMethodsResponse",
    (w) => w.bob.client.get("/notifications/dispatch-methods")
  ),
  row(
    "notifications.sendCustom",
    "POST /api/v2/notifications/custom",
    204,
    "none",
    (w) => w.bob.client.post("/notifications/custom", { content: { title: "Hello", message: "World" } })
  ),
  row(
    "notifications.sendTest",
    "POST /api/v2/notifications/test",
    200,
    "none",
    (w) => w.owner.post("/notifications/test")
  ),
  row("tasks.resume", "POST /api/v2/tasks/:user/:task/resume", 202, "PauseTaskResponse", async (w) => {
    const t = await bobsTask(w)
    await w.bob.client.post(`/tasks/me/${t.id}/pause`)
    await runJobs(w.srv)
    const r = await w.bob.client.post(`/tasks/me/${t.id}/resume`)
    await runJobs(w.srv)
    return r
  }),

  // oauth2: the app routes, the authorization server and discovery (docs/oauth2.md)
  row("oauth2Apps.list", "GET /api/v2/oauth2-provider/apps", 200, "[OAuth2ProviderApp]", async (w) => {
    await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb",
      icon: "/icon/a.svg"
    })
    return [
      await w.bob.client.get("/oauth2-provider/apps"),
      await w.owner.get(`/oauth2-provider/apps?user_id=${w.bob.user.id}`)
    ]
  }),
  row(
    "oauth2Apps.create",
    "POST /api/v2/oauth2-provider/apps",
    201,
    "OAuth2ProviderApp",
    (w) =>
      w.owner.post("/oauth2-provider/apps", { name: uniqueName("app"), callback_url: "https://app.example.com/cb" })
  ),
  row("oauth2Apps.get", "GET /api/v2/oauth2-provider/apps/:app", 200, "OAuth2ProviderApp", async (w) => {
    const app = await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb"
    })
    return w.bob.client.get(`/oauth2-provider/apps/${app.body.id}`)
  }),
  row("oauth2Apps.update", "PUT /api/v2/oauth2-provider/apps/:app", 200, "OAuth2ProviderApp", async (w) => {
    const app = await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb"
    })
    return w.owner.put(`/oauth2-provider/apps/${app.body.id}`, {
      name: uniqueName("renamed"),
      callback_url: "https://app.example.com/cb2",
      icon: null
    })
  }),
  row("oauth2Apps.delete", "DELETE /api/v2/oauth2-provider/apps/:app", 204, "none", async (w) => {
    const app = await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb"
    })
    return w.owner.delete(`/oauth2-provider/apps/${app.body.id}`)
  }),
  row(
    "oauth2Apps.listSecrets",
    "GET /api/v2/oauth2-provider/apps/:app/secrets",
    200,
    "[OAuth2ProviderAppSecret]",
    async (w) => {
      const { reg } = await seedTokens(w.srv.url, w.bob.client.token!)
      await w.owner.post(`/oauth2-provider/apps/${reg.client_id}/secrets`)
      return w.owner.get(`/oauth2-provider/apps/${reg.client_id}/secrets`)
    }
  ),
  row(
    "oauth2Apps.createSecret",
    "POST /api/v2/oauth2-provider/apps/:app/secrets",
    201,
    "OAuth2ProviderAppSecretFull",
    async (w) => {
      const app = await w.owner.post("/oauth2-provider/apps", {
        name: uniqueName("app"),
        callback_url: "https://app.example.com/cb"
      })
      return w.owner.post(`/oauth2-provider/apps/${app.body.id}/secrets`)
    }
  ),
  row(
    "oauth2Apps.deleteSecret",
    "DELETE /api/v2/oauth2-provider/apps/:app/secrets/:secretID",
    204,
    "none",
    async (w) => {
      const app = await w.owner.post("/oauth2-provider/apps", {
        name: uniqueName("app"),
        callback_url: "https://app.example.com/cb"
      })
      const secret = await w.owner.post(`/oauth2-provider/apps/${app.body.id}/secrets`)
      return w.owner.delete(`/oauth2-provider/apps/${app.body.id}/secrets/${secret.body.id}`)
    }
  ),
  row(
    "oauth2Apps.getSettings",
    "GET /api/v2/oauth2-provider/settings",
    200,
    "OAuth2ProviderSettings",
    (w) => w.owner.get("/oauth2-provider/settings")
  ),
  row(
    "oauth2Apps.updateSettings",
    "PUT /api/v2/oauth2-provider/settings",
    200,
    "OAuth2ProviderSettings",
    (w) => w.owner.put("/oauth2-provider/settings", { dynamic_client_registration_enabled: true })
  ),
  row("oauth2.authorizePage", "GET /api/v2/oauth2/authorize", 200, "binary text/html; charset=utf-8", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    const query = `client_id=${reg.client_id}&response_type=code&state=s`
    return [
      await w.srv.anonymous.get(`/oauth2/authorize?${query}`),
      await w.srv.anonymous.request("GET", `/oauth2/authorize?${query}`, undefined, {
        headers: { cookie: `service_session_token=${w.bob.client.token}` }
      })
    ]
  }),
  row("oauth2.authorize", "POST /api/v2/oauth2/authorize", 302, "none", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    return w.bob.client.post(`/oauth2/authorize?client_id=${reg.client_id}&response_type=code&state=s`)
  }),
  row(
    "oauth2.signIn",
    "POST /api/v2/oauth2/sign-in",
    303,
    "binary text/html; charset=utf-8",
    (w) =>
      w.srv.anonymous.request(
        "POST",
        "/oauth2/sign-in?client_id=x",
        undefined,
        formInit({ email: w.bob.email, password: STRONG_PASSWORD })
      )
  ),
  row("oauth2.register", "POST /api/v2/oauth2/register", 201, "OAuth2ClientRegistrationResponse", async (w) => [
    await w.srv.anonymous.post("/oauth2/register", { redirect_uris: [REDIRECT] }),
    await w.srv.anonymous.post("/oauth2/register", {
      client_name: "Full",
      redirect_uris: ["http://127.0.0.1/cb"],
      token_endpoint_auth_method: "none",
      client_uri: "https://c.example.com",
      logo_uri: "https://c.example.com/l.png",
      contacts: ["a@example.com"],
      scope: "all",
      software_id: "s",
      software_version: "1"
    })
  ]),
  row("oauth2.getClient", "GET /api/v2/oauth2/clients/:client_id", 200, "OAuth2ClientConfiguration", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT], jwks: { keys: [] } })
    return w.srv.anonymous.request("GET", `/oauth2/clients/${reg.client_id}`, undefined, {
      headers: { authorization: `Bearer ${reg.registration_access_token}` }
    })
  }),
  row("oauth2.updateClient", "PUT /api/v2/oauth2/clients/:client_id", 200, "OAuth2ClientConfiguration", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    return w.srv.anonymous.request("PUT", `/oauth2/clients/${reg.client_id}`, {
      client_name: "New",
      redirect_uris: [REDIRECT]
    }, {
      headers: { authorization: `Bearer ${reg.registration_access_token}` }
    })
  }),
  row("oauth2.deleteClient", "DELETE /api/v2/oauth2/clients/:client_id", 204, "none", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    return w.srv.anonymous.request("DELETE", `/oauth2/clients/${reg.client_id}`, undefined, {
      headers: { authorization: `Bearer ${reg.registration_access_token}` }
    })
  }),
  row("oauth2.token", "POST /api/v2/oauth2/tokens", 200, "OAuth2TokenResponse", async (w) => {
    const { reg, code, verifier } = await seedCode(w.srv.url, w.bob.client.token!, {
      token_endpoint_auth_method: "client_secret_post"
    })
    const first = await w.srv.anonymous.request(
      "POST",
      "/oauth2/tokens",
      undefined,
      formInit({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: reg.client_id,
        client_secret: reg.client_secret
      })
    )
    const refreshed = await w.srv.anonymous.request(
      "POST",
      "/oauth2/tokens",
      undefined,
      formInit({
        grant_type: "refresh_token",
        refresh_token: first.body.refresh_token,
        client_id: reg.client_id,
        client_secret: reg.client_secret
      })
    )
    return [first, refreshed]
  }),
  row("oauth2.revokeApp", "DELETE /api/v2/oauth2/tokens", 204, "none", async (w) => {
    const { reg } = await seedTokens(w.srv.url, w.bob.client.token!)
    return w.bob.client.delete(`/oauth2/tokens?client_id=${reg.client_id}`)
  }),
  row("oauth2.revoke", "POST /api/v2/oauth2/revoke", 200, "none", async (w) => {
    const { reg, tokens } = await seedTokens(w.srv.url, w.bob.client.token!)
    return w.srv.anonymous.request(
      "POST",
      "/oauth2/revoke",
      undefined,
      formInit({
        token: tokens.refresh_token,
        token_type_hint: "refresh_token"
      }, { authorization: basic(reg.client_id, reg.client_secret) })
    )
  }),
  row(
    "oauth2Discovery.authorizationServer",
    "GET /api/v2/.well-known/oauth-authorization-server",
    200,
    "OAuth2AuthorizationServerMetadata",
    (w) => w.srv.anonymous.get("/.well-known/oauth-authorization-server")
  ),
  row(
    "oauth2Discovery.protectedResource",
    "GET /api/v2/.well-known/oauth-protected-resource",
    200,
    "OAuth2ProtectedResourceMetadata",
    (w) => w.srv.anonymous.get("/.well-known/oauth-protected-resource")
  ),
  // sign-in through GitHub and OpenID Connect: each row on a server of its own wired to its provider
  row(
    "signin.githubCallback",
    "GET /api/v2/users/oauth2/github/callback",
    307,
    "none",
    () =>
      withGithubSignIn(async (
        g
      ) => [await g.srv.anonymous.get("/users/oauth2/github/callback"), (await g.signIn("octo")).answer])
  ),
  row(
    "signin.githubDevice",
    "GET /api/v2/users/oauth2/github/device",
    200,
    "ExternalAuthDevice",
    () => withGithubSignIn((g) => g.srv.anonymous.get("/users/oauth2/github/device"), { oauth2GithubDeviceFlow: true })
  ),
  row(
    "signin.oidcCallback",
    "GET /api/v2/users/oidc/callback",
    307,
    "none",
    () =>
      withOidcSignIn(async (
        o
      ) => [await o.srv.anonymous.get("/users/oidc/callback"), (await o.signIn("olivia")).answer])
  ),
  row(
    "signinSession.oidcClaims",
    "GET /api/v2/users/oidc-claims",
    200,
    "OIDCClaimsResponse",
    () => withOidcSignIn(async (o) => (await o.signIn("olivia")).client.get("/users/oidc-claims"))
  ),
  // external auth and applications: a server of their own, with providers on a local provider (externalauth/fixtures.ts)
  row("externalAuth.list", "GET /api/v2/external-auth", 200, "ListUserExternalAuthResponse", async () => {
    const x = await externalAuthWorld()
    return [await x.member.client.get("/external-auth"), await x.owner.get("/external-auth")]
  }),
  row("externalAuth.get", "GET /api/v2/external-auth/:externalauth", 200, "ExternalAuth", async () => {
    const x = await externalAuthWorld()
    return [
      await x.member.client.get("/external-auth/github"),
      await x.owner.get("/external-auth/github"),
      await x.member.client.get("/external-auth/gh-device")
    ]
  }),
  row(
    "externalAuth.unlink",
    "DELETE /api/v2/external-auth/:externalauth",
    200,
    "DeleteExternalAuthByIDResponse",
    async () => {
      const x = await externalAuthWorld()
      const u = await createUser(x.owner)
      await x.link(u.client, "github")
      await x.link(u.client, "corp")
      return [await u.client.delete("/external-auth/github"), await u.client.delete("/external-auth/corp")]
    }
  ),
  row("externalAuth.callback", "GET /api/v2/external-auth/:externalauth/callback", 307, "none", async () => {
    const x = await externalAuthWorld()
    const r = await x.link(x.owner, "corp")
    return [r.start, r.done]
  }),
  row("externalAuth.device", "GET /api/v2/external-auth/:externalauth/device", 200, "ExternalAuthDevice", async () => {
    const x = await externalAuthWorld()
    return x.member.client.get("/external-auth/gh-device/device")
  }),
  row("externalAuth.deviceExchange", "POST /api/v2/external-auth/:externalauth/device", 204, "none", async () => {
    const x = await externalAuthWorld()
    const started = await x.member.client.get("/external-auth/gh-device/device")
    x.provider.approveDevice(started.body.user_code, "device-user")
    return x.member.client.post("/external-auth/gh-device/device", { device_code: started.body.device_code })
  }),
  row(
    "agentExternalAuth.externalAuth",
    "GET /api/v2/workspaceagents/me/external-auth",
    200,
    "ExternalAuthResponse",
    async () => {
      const x = await externalAuthWorld()
      return [
        await x.agent.get(
          `/workspaceagents/me/external-auth?match=${encodeURIComponent("https://github.example/org/repo")}`
        ),
        await x.agent.get("/workspaceagents/me/external-auth?id=corp")
      ]
    }
  ),
  row("agentExternalAuth.gitAuth", "GET /api/v2/workspaceagents/me/gitauth", 200, "ExternalAuthResponse", async () => {
    const x = await externalAuthWorld()
    return [
      await x.agent.get(`/workspaceagents/me/gitauth?url=${encodeURIComponent("https://github.example/org/repo")}`),
      await x.agent.get("/workspaceagents/me/gitauth?id=gitlab")
    ]
  }),
  row("applications.host", "GET /api/v2/applications/host", 200, "AppHostResponse", async (w) => {
    const x = await externalAuthWorld()
    return [await w.bob.client.get("/applications/host"), await x.member.client.get("/applications/host")]
  }),
  ...insightsRows(),
  row("applications.authRedirect", "GET /api/v2/applications/auth-redirect", 307, "none", async (w) => {
    const x = await externalAuthWorld()
    return [
      await w.bob.client.get(`/applications/auth-redirect?redirect_uri=${encodeURIComponent(w.srv.url)}`),
      await x.member.client.get(
        `/applications/auth-redirect?redirect_uri=${encodeURIComponent("http://code.apps.example.test/")}`
      )
    ]
  }),
  // appearance, licenses and entitlements: licenses on a server with a license key (enterprise/fixtures.ts)
  row("enterprise.appearance", "GET /api/v2/appearance", 200, "AppearanceConfig", async (w) => {
    await w.owner.put("/appearance", {
      application_name: "Shapes",
      logo_url: "https://example.com/logo.png",
      service_banner: { enabled: true, message: "Hello", background_color: "#123456" },
      announcement_banners: [{ enabled: false, message: "", background_color: "#abcdef" }]
    })
    return [await w.bob.client.get("/appearance"), await w.alice.client.get("/appearance")]
  }),
  row("enterprise.updateAppearance", "PUT /api/v2/appearance", 200, "UpdateAppearanceConfig", async (w) => [
    await w.owner.put("/appearance", { application_name: "Shapes", service_banner: { enabled: false } }),
    await w.owner.put("/appearance", {
      application_name: "Shapes",
      logo_url: "https://example.com/logo.png",
      service_banner: { enabled: true, message: "Hello", background_color: "#123456" },
      announcement_banners: [{ enabled: true, message: "Up", background_color: "#abcdef" }]
    })
  ]),
  row("enterprise.entitlements", "GET /api/v2/entitlements", 200, "Entitlements", async (w) => {
    const l = await licensedWorld()
    await l.addLicense({ features: { user_limit: 1, managed_agent_limit: 100 } })
    return [await w.bob.client.get("/entitlements"), await l.member.client.get("/entitlements")]
  }),
  row("enterprise.replicas", "GET /api/v2/replicas", 200, "[Replica]", (w) => w.owner.get("/replicas")),
  row("enterprise.licenses", "GET /api/v2/licenses", 200, "[License]", async (w) => {
    const l = await licensedWorld()
    await l.addLicense()
    return [await w.owner.get("/licenses"), await l.owner.get("/licenses"), await l.member.client.get("/licenses")]
  }),
  row("enterprise.addLicense", "POST /api/v2/licenses", 201, "License", async () => {
    const l = await licensedWorld()
    return l.owner.post("/licenses", { license: await l.signer.sign(licenseClaims({ trial: true })) })
  }),
  row("enterprise.refreshEntitlements", "POST /api/v2/licenses/refresh-entitlements", 200, "Response", async (w) => [
    await w.owner.post("/licenses/refresh-entitlements"),
    await (await licensedWorld()).owner.post("/licenses/refresh-entitlements")
  ]),
  row("enterprise.deleteLicense", "DELETE /api/v2/licenses/:id", 200, "none", async () => {
    const l = await licensedWorld()
    return l.owner.delete(`/licenses/${await l.addLicense()}`)
  }),

  // audit and connection logs: last, so they read the entries every row above made
  row("audit.auditLogs", "GET /api/v2/audit", 200, "AuditLogResponse", async (w) => [
    await w.owner.get("/audit?limit=1000"),
    await w.owner.get(`/audit?limit=100&q=${encodeURIComponent("resource_type:api_key")}`),
    await w.alice.client.get(`/audit?limit=100&q=${encodeURIComponent(`organization:${w.org.name}`)}`)
  ]),
  row(
    "audit.connectionLogs",
    "GET /api/v2/connectionlog",
    200,
    "ConnectionLogResponse",
    (w) => w.owner.get("/connectionlog?limit=100")
  ),
  // debug: the health report (docs/health.md); its echo WebSocket has no body to check.
  row("debug.health", "GET /api/v2/debug/health", 200, "HealthcheckReport", async (w) => [
    await w.owner.get("/debug/health?force=true"),
    await w.owner.get("/debug/health")
  ]),
  row(
    "debug.settings",
    "GET /api/v2/debug/health/settings",
    200,
    "HealthSettings",
    (w) => w.owner.get("/debug/health/settings")
  ),
  row("debug.updateSettings", "PUT /api/v2/debug/health/settings", 200, "HealthSettings", async (w) => {
    const dismissed = await w.owner.put("/debug/health/settings", {
      dismissed_healthchecks: ["DERP", "WorkspaceProxy"]
    })
    const read = await w.owner.get("/debug/health/settings")
    const restored = await w.owner.put("/debug/health/settings", { dismissed_healthchecks: [] })
    return [dismissed, read, restored]
  }),
  row("debug.ws", "GET /api/v2/debug/ws", 101, "none", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/debug/ws`, { [SESSION_HEADER]: w.owner.token! })
    ws.socket.send("echo")
    await eventually(() => ws.messages.length > 0)
    ws.socket.close()
    expect(ws.messages).toEqual(["echo"])
    return { status: 101, body: undefined, headers: new Headers() }
  }),
  // proxies: workspace proxies, regions and the proxies' registration (docs/workspace-proxies.md)
  row("workspaceProxies.list", "GET /api/v2/workspaceproxies", 200, "RegionsResponseWorkspaceProxy", async (w) => {
    const made = await newProxy(w)
    const gone = await newProxy(w)
    await w.owner.delete(`/workspaceproxies/${gone.proxy.id}`)
    await proxyRequest(w, "/workspaceproxies/me/register", made.proxy_token, {
      access_url: w.srv.url,
      replica_id: REPLICA_ID
    })
    return w.bob.client.get("/workspaceproxies")
  }),
  row(
    "workspaceProxies.create",
    "POST /api/v2/workspaceproxies",
    201,
    "UpdateWorkspaceProxyResponse",
    async (w) => w.owner.post("/workspaceproxies", { name: uniqueName("px") })
  ),
  row("workspaceProxies.get", "GET /api/v2/workspaceproxies/:workspaceproxy", 200, "WorkspaceProxy", async (w) => {
    const made = await newProxy(w)
    const gone = await newProxy(w)
    await w.owner.delete(`/workspaceproxies/${gone.proxy.id}`)
    return [
      await w.bob.client.get(`/workspaceproxies/${made.proxy.id}`),
      await w.bob.client.get("/workspaceproxies/primary"),
      await w.owner.get(`/workspaceproxies/${gone.proxy.id}`)
    ]
  }),
  row(
    "workspaceProxies.update",
    "PATCH /api/v2/workspaceproxies/:workspaceproxy",
    200,
    "UpdateWorkspaceProxyResponse",
    async (w) => {
      const made = await newProxy(w)
      return [
        await w.owner.patch(`/workspaceproxies/${made.proxy.id}`, { display_name: "Renamed", regenerate_token: true }),
        await w.owner.patch("/workspaceproxies/primary", { icon: "/emojis/1f3e0.png" })
      ]
    }
  ),
  row("workspaceProxies.delete", "DELETE /api/v2/workspaceproxies/:workspaceproxy", 200, "Response", async (w) => {
    const made = await newProxy(w)
    return w.owner.delete(`/workspaceproxies/${made.proxy.id}`)
  }),
  row("workspaceProxies.regions", "GET /api/v2/regions", 200, "RegionsResponseRegion", async (w) => {
    await newProxy(w)
    return w.bob.client.get("/regions")
  }),
  row(
    "workspaceProxyMe.register",
    "POST /api/v2/workspaceproxies/me/register",
    201,
    "RegisterWorkspaceProxyResponse",
    async (w) => {
      const made = await newProxy(w)
      return proxyRequest(w, "/workspaceproxies/me/register", made.proxy_token, {
        access_url: w.srv.url,
        wildcard_hostname: "*.px.example.com",
        derp_enabled: true,
        replica_id: REPLICA_ID,
        version: "v2.0.0"
      })
    }
  ),
  row("workspaceProxyMe.deregister", "POST /api/v2/workspaceproxies/me/deregister", 204, "none", async (w) => {
    const made = await newProxy(w)
    return proxyRequest(w, "/workspaceproxies/me/deregister", made.proxy_token, { replica_id: REPLICA_ID })
  })
]

/** Makes the users, organizations, groups, tokens and log entries the rows read. */
const seed = async (): Promise<World> => {
  const mail = captureMail()
  const binaries = mkdtempSync(join(tmpdir(), "workbay-bin-rows-"))
  writeFileSync(join(binaries, "workbay-agent-linux-amd64"), FAKE_AGENT)
  const { srv, owner, ownerId, orgId } = await startWithOwner({ mail: mail.layer, agentBinaries: binaries })
  const named = async (username: string, name: string) => {
    const email = `${username}@example.com`
    const r = await owner.post("/users", { email, username, name, password: STRONG_PASSWORD })
    if (r.status !== 201) throw new Error(`create user: ${r.status} ${JSON.stringify(r.body)}`)
    return { client: await sessionClient(owner, email), user: r.body, username, email } as TestUser
  }
  const alice = await named("alice", "Alice Liddell")
  await srv.run(Effect.flatMap(UserRepo, (users) => users.update(alice.user.id, { avatar_url: AVATAR })))
  await alice.client.put("/users/me/appearance", { theme_preference: "dark" })
  const bob = await createUser(owner, { username: "bob" })
  const robot = await owner.post("/users", {
    email: "robot@example.com",
    username: "robot",
    login_type: "none",
    service_account: true
  })
  if (robot.status !== 201) throw new Error(`service account: ${robot.status} ${JSON.stringify(robot.body)}`)

  const org = await owner.post("/organizations", {
    name: "acme",
    display_name: "Acme Inc.",
    description: "Makers of everything.",
    icon: "https://example.com/acme.svg"
  })
  await addMemberWithRoles(owner, org.body.id, alice.user.id, ["organization-admin"])

  const devs = await owner.post(`/organizations/${orgId}/groups`, {
    name: "devs",
    display_name: "Developers",
    avatar_url: GROUP_AVATAR,
    quota_allowance: 5
  })
  await owner.patch(`/groups/${devs.body.id}`, { add_users: [alice.user.id, bob.user.id, "me"] })
  await owner.put(`/groups/${devs.body.id}/ai/budget`, { spend_limit_micros: 5_000_000 })
  const bare = await owner.post(`/organizations/${orgId}/groups`, { name: "bare" })

  const tokenName = "ci-token"
  await tokenClient(owner, { token_name: tokenName, lifetime: 24 * 3600 * 1e9 })

  // Audit entries of every kind: anonymous and failed logins, a user who later leaves.
  await srv.anonymous.post("/users/login", { email: "nobody@example.com", password: "Wrong-Password-1" })
  await srv.anonymous.post("/users/login", { email: bob.email, password: "Wrong-Password-1" })
  const leaver = await createUser(owner, { username: "leaver" })
  await leaver.client.put("/users/me/appearance", { theme_preference: "light" })
  await tokenClient(leaver.client, { token_name: "leaver-token" })
  await owner.delete(`/users/${leaver.user.id}`)
  const gone = await createOrganization(owner, "gone-org")
  await owner.delete(`/organizations/${gone.id}`)

  // Connection log entries: open and closed sessions, an app with and without a user,
  // an entry of an organization that no longer exists.
  const ws = randomUUID()
  const session = (extra: Partial<DisconnectEvent> = {}): DisconnectEvent => ({
    organizationId: orgId,
    workspaceOwnerId: alice.user.id,
    workspaceId: ws,
    workspaceName: "alice-ws",
    agentName: "main",
    type: "ssh",
    ip: "192.0.2.10",
    connectionId: randomUUID(),
    ...extra
  })
  const web = (extra: Partial<ConnectionEvent>): ConnectionEvent => ({
    organizationId: orgId,
    workspaceOwnerId: alice.user.id,
    workspaceId: ws,
    workspaceName: "alice-ws",
    agentName: "main",
    type: "workspace_app",
    ip: "198.51.100.3",
    slugOrPort: "code-server",
    statusCode: 200,
    userAgent: "Mozilla/5.0",
    ...extra
  })
  const closed = session({ type: "vscode" })
  await srv.run(
    Effect.flatMap(AuditLogs, (logs) =>
      Effect.all(
        [
          logs.connect(session()),
          logs.connect(closed),
          logs.disconnect({ ...closed, reason: "exited", exitCode: 0 }),
          logs.disconnect(session({ type: "jetbrains", reason: "" })),
          logs.connect(web({ userId: bob.user.id })),
          logs.connect(web({ type: "port_forwarding", slugOrPort: "8080", statusCode: 502 })),
          logs.connect(session({ organizationId: gone.id, workspaceOwnerId: leaver.user.id, type: "reconnecting_pty" }))
        ],
        { concurrency: 1 }
      ))
  )

  // A template with a user, a group and the Everyone group in its access list; one deprecated.
  const template = await makeTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, name: "shared" })
  await owner.patch(`/templates/${template.id}/acl`, {
    user_perms: { [alice.user.id]: "admin" },
    group_perms: { [devs.body.id]: "use" }
  })
  // A workspace of bob's shared with alice and the group devs.
  const workspace = await makeWorkspace(srv, {
    organizationId: orgId,
    ownerId: bob.user.id,
    templateId: template.id,
    userAcl: { [alice.user.id]: "admin" },
    groupAcl: { [devs.body.id]: "use" }
  })
  const old = await makeTemplate(srv, owner, {
    organizationId: orgId,
    createdBy: ownerId,
    name: "old",
    body: { display_name: "Old" }
  })
  await owner.patch(`/templates/${old.id}`, { deprecation_message: "Use shared." })

  return {
    srv,
    owner,
    ownerId,
    orgId,
    template,
    workspace,
    alice,
    bob,
    robotId: robot.body.id,
    org: org.body,
    devs: devs.body,
    bare: bare.body,
    tokenName,
    mail
  }
}

const describeErrors = (validate: ReturnType<ReturnType<typeof makeValidator>>, body: unknown) =>
  (validate.errors ?? [])
    .map(
      (e) =>
        `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)} (value: ${
          JSON.stringify(
            e.instancePath
              .split("/")
              .slice(1)
              .reduce<any>((v, k) => v?.[k], body)
          )
        })`
    )
    .join("\n")

describe("response schemas", () => {
  const validator = makeValidator()
  let world: World

  beforeAll(async () => {
    world = await seed()
  })
  afterAll(() => world?.srv.close())
  afterAll(closeExternalAuthWorld)
  afterAll(closeLicensedWorld)

  it("has a row for every endpoint of the API, with its method and path", () => {
    const defined: Array<string> = []
    for (const group of Object.values(WorkbayApi.groups)) {
      for (const endpoint of Object.values(group.endpoints)) {
        const key = `${group.identifier}.${endpoint.name}`
        defined.push(key)
        const row = rows.find((r) => r.endpoint === key)
        expect(
          row,
          `no row in the response schema table for ${key} (${endpoint.method} ${endpoint.path})`
        ).toBeDefined()
        expect(`${row!.method} ${row!.path}`, key).toBe(`${endpoint.method} ${endpoint.path}`)
      }
    }
    expect(
      rows.map((r) => r.endpoint).filter((e) => !defined.includes(e)),
      "rows of endpoints the API does not have"
    ).toEqual([])
    expect(new Set(rows.map((r) => r.endpoint)).size).toBe(rows.length)
  })

  for (const row of rows) {
    it(`${row.method} ${row.path} answers ${row.schema}`, async () => {
      const replies = await row.call(world)
      for (const reply of Array.isArray(replies) ? replies : [replies as Reply]) {
        expect(reply.status, JSON.stringify(reply.body)).toBe(row.status)
        if (row.schema === "none") {
          expect(reply.body).toBeUndefined()
          continue
        }
        if (row.schema.startsWith("binary ")) {
          expect(reply.headers.get("content-type")).toBe(row.schema.slice("binary ".length))
          // The file row downloads the text it uploaded; the build state is the provisioner's JSON.
          if (row.endpoint === "files.get") expect(reply.body).toBe("a download")
          // The authorization pages are HTML.
          else if (row.schema.includes("text/html")) expect(reply.body).toMatch(/^<!doctype html>/)
          else if (row.endpoint === "agentBinaries.initScript") expect(reply.body).toMatch(/^#!\/usr\/bin\/env sh\n/)
          else if (row.endpoint === "agentBinaries.binary") expect(reply.body).toBe(FAKE_AGENT)
          else expect(typeof reply.body).toBe("object")
          continue
        }
        const validate = validator(row.schema as SchemaName)
        const ok = validate(reply.body)
        expect(ok, `${row.endpoint} does not match ${row.schema}:\n${describeErrors(validate, reply.body)}`).toBe(true)
      }
    })
  }

  it("checks replies that carry the shapes worth checking", async () => {
    // The data above must reach the shapes the schemas constrain, or the rows prove little.
    const users = (await world.owner.get("/users")).body.users as Array<Record<string, unknown>>
    const alice = users.find((u) => u.username === "alice")!
    const bob = users.find((u) => u.username === "bob")!
    expect(alice).toMatchObject({ name: "Alice Liddell", avatar_url: AVATAR, theme_preference: "dark" })
    expect(bob).not.toHaveProperty("avatar_url")
    expect(bob).not.toHaveProperty("name")
    expect(users.find((u) => u.username === "robot")).toMatchObject({ is_service_account: true })
    const entries = (await world.owner.get("/audit?limit=1000")).body.audit_logs as Array<Record<string, any>>
    expect(entries.some((e) => e.user === null)).toBe(true)
    expect(entries.some((e) => e.is_deleted === true)).toBe(true)
    expect(entries.some((e) => e.action === "login" && e.status_code >= 400)).toBe(true)
    expect(entries.some((e) => e.resource_type === "api_key")).toBe(true)
    const connections = (await world.owner.get("/connectionlog?limit=100")).body.connection_logs as Array<
      Record<string, any>
    >
    expect(new Set(connections.map((c) => c.type)).size).toBe(6)
    expect(connections.some((c) => c.web_info?.user === null)).toBe(true)
  })
})
