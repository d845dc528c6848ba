/**
 * Black-box tests of GET /connectionlog. No workspaces exist yet, so entries are recorded
 * through the core API (AuditLogs.connect/disconnect, what agents will call) on the test
 * server's own runtime, then read over HTTP.
 */
import { AuditLogs, type ConnectionEvent, type DisconnectEvent, MemberRepo } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectIsoDate,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  UUID_PATTERN
} from "../support.js"

/** The fields of the spec's Connection log entry; ssh_info and web_info by type. */
const BASE_FIELDS = [
  "agent_name",
  "connect_time",
  "id",
  "ip",
  "organization",
  "type",
  "workspace_id",
  "workspace_name",
  "workspace_owner_id",
  "workspace_owner_username"
]
const SSH_TYPES = ["ssh", "vscode", "jetbrains", "reconnecting_pty"]

const expectConnectionShape = (e: any) => {
  const web = e.type === "workspace_app" || e.type === "port_forwarding"
  expect(Object.keys(e).sort()).toEqual([...BASE_FIELDS, web ? "web_info" : "ssh_info"].sort())
  expect(typeof e.agent_name).toBe("string")
  expectIsoDate(e.connect_time)
  expect(e.id).toMatch(UUID_PATTERN)
  expect(typeof e.ip).toBe("string")
  expect(Object.keys(e.organization).sort()).toEqual(["display_name", "icon", "id", "name"])
  expect([...SSH_TYPES, "workspace_app", "port_forwarding"]).toContain(e.type)
  expect(e.workspace_id).toMatch(UUID_PATTERN)
  expect(typeof e.workspace_name).toBe("string")
  expect(e.workspace_owner_id).toMatch(UUID_PATTERN)
  expect(typeof e.workspace_owner_username).toBe("string")
  if (web) {
    expect(Object.keys(e.web_info).sort()).toEqual(["slug_or_port", "status_code", "user", "user_agent"])
    expect(Number.isInteger(e.web_info.status_code)).toBe(true)
  } else {
    // The disconnect fields appear once the session ended; exit_code when it was reported.
    expect([
      ["connection_id"],
      ["connection_id", "disconnect_reason", "disconnect_time"],
      ["connection_id", "disconnect_reason", "disconnect_time", "exit_code"]
    ]).toContainEqual(Object.keys(e.ssh_info).sort())
    expect(e.ssh_info.connection_id).toMatch(UUID_PATTERN)
    if (e.ssh_info.disconnect_time !== undefined) expectIsoDate(e.ssh_info.disconnect_time)
  }
}

describe("connection log", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let otherOrgId: string
  let dev: TestUser
  const ws = randomUUID()
  const devWs = randomUUID()
  const sessions = { open: randomUUID(), closed: randomUUID(), otherOrg: randomUUID() }

  const record = (effect: (logs: AuditLogs) => Effect.Effect<unknown, unknown>) =>
    srv.run(Effect.flatMap(AuditLogs, effect))

  const list = async (client: Client, q = "", extra = "") => {
    const r = await client.get(`/connectionlog?limit=100${extra}${q === "" ? "" : `&q=${encodeURIComponent(q)}`}`)
    expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200)
    return r.body as { connection_logs: Array<any>; count: number; count_cap: number }
  }

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
    otherOrgId =
      (await owner.post("/organizations", { name: "other-org", display_name: "Other", icon: "/other.svg" })).body.id
    dev = await createUser(owner, { username: "dev-user" })
    const t = (minutes: number) => new Date(Date.UTC(2024, 5, 1, 12, minutes))
    const ssh = (
      connectionId: string,
      extra: Partial<Omit<ConnectionEvent, "connectionId">> = {}
    ): DisconnectEvent => ({
      organizationId: orgId,
      workspaceOwnerId: ownerId,
      workspaceId: ws,
      workspaceName: "main-ws",
      agentName: "main",
      type: "ssh",
      ip: "192.0.2.10",
      connectionId,
      ...extra
    })
    await record((logs) => logs.connect(ssh(sessions.open, { time: t(0) })))
    await record((logs) => logs.connect(ssh(sessions.closed, { time: t(10), type: "vscode" })))
    await record((logs) =>
      logs.disconnect({ ...ssh(sessions.closed, { type: "vscode" }), time: t(20), reason: "exited", exitCode: 3 })
    )
    await record((logs) =>
      logs.connect({
        organizationId: orgId,
        workspaceOwnerId: dev.user.id,
        workspaceId: devWs,
        workspaceName: "dev-ws",
        agentName: "agent",
        type: "workspace_app",
        ip: "198.51.100.3",
        slugOrPort: "code-server",
        statusCode: 200,
        userId: ownerId,
        userAgent: "Mozilla/5.0 test",
        time: t(30)
      })
    )
    await record((logs) =>
      logs.connect({
        organizationId: orgId,
        workspaceOwnerId: dev.user.id,
        workspaceId: devWs,
        workspaceName: "dev-ws",
        agentName: "agent",
        type: "port_forwarding",
        ip: "198.51.100.4",
        slugOrPort: "8080",
        statusCode: 502,
        userAgent: "curl/8",
        time: t(40)
      })
    )
    await record((logs) =>
      logs.connect(ssh(sessions.otherOrg, { organizationId: otherOrgId, time: t(50), type: "jetbrains" }))
    )
  })
  afterAll(() => srv.close())

  it("lists every entry newest first, each field as the spec lists it", async () => {
    const page = await list(owner)
    expect(page.count).toBe(5)
    expect(page.count_cap).toBe(2000)
    expect(page.connection_logs.map((e) => e.type)).toEqual([
      "jetbrains",
      "port_forwarding",
      "workspace_app",
      "vscode",
      "ssh"
    ])
    for (const e of page.connection_logs) expectConnectionShape(e)
    const [jetbrains, forwarded, app, vscode, open] = page.connection_logs
    expect(open).toMatchObject({
      agent_name: "main",
      connect_time: "2024-06-01T12:00:00.000Z",
      ip: "192.0.2.10",
      type: "ssh",
      organization: { id: orgId, name: "coder", display_name: "Coder", icon: "" },
      workspace_id: ws,
      workspace_name: "main-ws",
      workspace_owner_id: ownerId,
      workspace_owner_username: "admin",
      ssh_info: { connection_id: sessions.open }
    })
    expect(vscode.ssh_info).toEqual({
      connection_id: sessions.closed,
      disconnect_time: "2024-06-01T12:20:00.000Z",
      disconnect_reason: "exited",
      exit_code: 3
    })
    expect(app).toMatchObject({
      type: "workspace_app",
      workspace_owner_username: "dev-user",
      ip: "198.51.100.3",
      web_info: { slug_or_port: "code-server", status_code: 200, user_agent: "Mozilla/5.0 test" }
    })
    const me = (await owner.get("/users/me")).body
    expect(app.web_info.user).toEqual(me)
    expect(forwarded.web_info).toEqual({ slug_or_port: "8080", status_code: 502, user: null, user_agent: "curl/8" })
    expect(jetbrains.organization).toEqual({
      id: otherOrgId,
      name: "other-org",
      display_name: "Other",
      icon: "/other.svg"
    })
  })

  it("pages with limit and offset", async () => {
    const all = (await list(owner)).connection_logs.map((e) => e.id)
    const r = await owner.get("/connectionlog?limit=2&offset=1")
    expect(r.body.connection_logs.map((e: any) => e.id)).toEqual(all.slice(1, 3))
    expect(r.body.count).toBe(5)
    expect((await owner.get("/connectionlog?limit=0")).body.connection_logs).toHaveLength(5)
  })

  it("q filters by each key", async () => {
    const ids = async (q: string) => (await list(owner, q)).connection_logs.map((e) => e.type)
    expect(await ids("workspace_owner:dev-user")).toEqual(["port_forwarding", "workspace_app"])
    expect(await ids("workspace_owner:ADMIN")).toEqual(["jetbrains", "vscode", "ssh"])
    expect(await ids("workspace_owner:me")).toEqual(["jetbrains", "vscode", "ssh"])
    expect(await ids(`workspace_owner:${dev.user.id}`)).toEqual(["port_forwarding", "workspace_app"])
    expect(await ids(`workspace_owner_email:${dev.email}`)).toEqual(["port_forwarding", "workspace_app"])
    expect(await ids("type:ssh")).toEqual(["ssh"])
    expect(await ids("type:workspace_app")).toEqual(["workspace_app"])
    expect(await ids("username:admin")).toEqual(["workspace_app"])
    expect(await ids("user_email:admin@example.com")).toEqual(["workspace_app"])
    expect(await ids("status:ongoing")).toEqual(["jetbrains", "ssh"])
    expect(await ids("status:completed")).toEqual(["vscode"])
    expect(await ids("connected_after:2024-06-01T12:30:00Z")).toEqual(["jetbrains", "port_forwarding", "workspace_app"])
    expect(await ids("connected_before:2024-06-01T12:10:00Z")).toEqual(["vscode", "ssh"])
    expect(await ids("connected_after:2024-06-01 connected_before:2024-06-01")).toHaveLength(5)
    expect(await ids("connected_after:2024-06-02")).toEqual([])
    expect(await ids("organization:other-org")).toEqual(["jetbrains"])
    expect(await ids(`organization:${orgId}`)).toHaveLength(4)
    expect(await ids(`workspace_id:${devWs}`)).toEqual(["port_forwarding", "workspace_app"])
    expect(await ids(`connection_id:${sessions.closed}`)).toEqual(["vscode"])
    expect(await ids("type:ssh status:completed")).toEqual([])
    expect((await list(owner, "status:ongoing")).count).toBe(2)
  })

  it("refuses unknown keys and bad values with one validation on q", async () => {
    for (
      const q of [
        "nope:1",
        "type:telnet",
        "status:paused",
        "connected_after:soon",
        "connected_before:2024-02-30",
        "workspace_id:abc",
        "connection_id:xyz",
        "organization:no-such-org",
        "free text"
      ]
    ) {
      expectValidations(await owner.get(`/connectionlog?limit=10&q=${encodeURIComponent(q)}`), ["q"])
    }
  })

  it("requires limit", async () => {
    expectValidations(await owner.get("/connectionlog"), ["limit"])
    expectValidations(await owner.get("/connectionlog?limit=x"), ["limit"])
    expectValidations(await owner.get("/connectionlog?limit=10&offset=-1"), ["offset"])
  })

  it("answers 401 without a token and 403 to members; auditors read everything", async () => {
    expectResponse(await srv.anonymous.get("/connectionlog?limit=10"), 401)
    expectResponse(await dev.client.get("/connectionlog?limit=10"), 403)
    const auditor = await createUser(owner, { username: "conn-auditor", roles: ["auditor"] })
    expect((await list(auditor.client)).count).toBe(5)
  })

  it("organization auditors and admins read their organizations' entries only", async () => {
    const orgAuditor = await createUser(owner, { username: "conn-org-auditor" })
    const orgAdmin = await createUser(owner, { username: "conn-org-admin" })
    for (const u of [orgAuditor, orgAdmin]) {
      expect((await owner.post(`/organizations/other-org/members/${u.username}`)).status).toBe(200)
    }
    await srv.run(Effect.flatMap(MemberRepo, (m) =>
      Effect.all([
        m.updateRoles(otherOrgId, orgAuditor.user.id, ["organization-auditor"], new Date()),
        m.updateRoles(otherOrgId, orgAdmin.user.id, ["organization-admin"], new Date())
      ])))
    for (const reader of [orgAuditor, orgAdmin]) {
      const page = await list(reader.client)
      expect(page.count).toBe(1)
      expect(page.connection_logs[0].ssh_info.connection_id).toBe(sessions.otherOrg)
      expect((await list(reader.client, `organization:${orgId}`)).count).toBe(0)
    }
    // Members of the default organization without an auditing role still get 403.
    expectResponse(await dev.client.get("/connectionlog?limit=10"), 403)
  })

  it("counts up to count_cap + 1", async () => {
    await srv.run(
      Effect.flatMap(
        AuditLogs,
        (logs) =>
          Effect.forEach(Array.from({ length: 2003 }, (_, i) => i), (i) =>
            logs.connect({
              organizationId: orgId,
              workspaceOwnerId: ownerId,
              workspaceId: randomUUID(),
              workspaceName: `bulk-${i}`,
              agentName: "main",
              type: "port_forwarding",
              slugOrPort: String(1000 + i),
              statusCode: 200,
              time: new Date(Date.UTC(2023, 0, 1) + i * 1000)
            }), { discard: true })
      )
    )
    const r = await owner.get("/connectionlog?limit=5000&q=type:port_forwarding")
    expect(r.body.count).toBe(2001)
    expect(r.body.count_cap).toBe(2000)
    expect(r.body.connection_logs).toHaveLength(1000)
  })

  it("never answers 5xx to junk queries, whoever asks", async () => {
    const junk = [
      "%00",
      "%ff",
      "%22",
      "a:b:c",
      "date_from:2024-13-45",
      "date_to:yesterday",
      "organization:%00x",
      "username:%22%22",
      "resource_type:" + "x".repeat(5000),
      "connected_after:not-a-date",
      "status:maybe",
      "type:%F0%9F%98%80",
      ":::",
      "q:q:q"
    ]
    const routes: Array<readonly [string, string]> = [
      ["GET", "/connectionlog"],
      ["GET", "/connectionlog?limit=-1"],
      ["GET", "/connectionlog?limit=50&offset=-5"],
      ["GET", "/connectionlog?limit=%00"],
      ...junk.map((q) => ["GET", `/connectionlog?limit=5&q=${q}`] as const)
    ]
    for (const client of [owner, dev.client]) await expectNoServerErrors(client, routes)
  })
})
