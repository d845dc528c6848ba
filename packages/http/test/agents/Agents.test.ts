/**
 * Agent tokens end to end over real HTTP: each build's provisioner is handed a token per agent
 * (a provisioner here records them); the token reaches its agent's own routes and the extend
 * route, nothing else, and stops working once a newer build replaces its agent. Users read an
 * agent, and get an external agent's credentials (the build's token, the same on every read).
 */
import { AgentRepo, hashAgentToken } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID,
  UUID_PATTERN
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { connect, eventually } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner } from "./fixtures.js"

const HOUR = 3_600_000

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
      - name: side
  - name: laptop
    type: machine
    agents:
      - name: outside
        external: true
`

describe("agent tokens and the agent routes", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let stranger: TestUser
  let template: { id: string }
  /** The tokens the provisioner was handed, by workspace id and agent name (the latest build's). */
  const handed = new Map<string, Map<string, string>>()

  /** The built-in provisioner, recording the token of each agent it is asked about. */
  const recording = recordingProvisioner(["main", "side", "outside"], handed)

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ provisioners: [recording], lifecycle: false }))
    dev = await createUser(owner, { username: "agent-dev" })
    stranger = await createUser(owner, { username: "agent-stranger" })
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  const workspace = (body: Record<string, unknown> = {}) => makeWorkspace(srv, dev.client, orgId, template.id, body)
  const asAgent = (token: string) => dev.client.as(token)
  const agentsOf = (w: { latest_build: any }) =>
    Object.fromEntries(
      (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).map((a: any) => [a.name, a])
    )

  it("the token handed to the provisioner reaches the agent's own routes: GET /workspaceagents/me/gitsshkey", async () => {
    const w = await workspace()
    const token = handed.get(w.id)!.get("main")!
    expect(token).toMatch(UUID_PATTERN)
    const r = await asAgent(token).get("/workspaceagents/me/gitsshkey")
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(["private_key", "public_key"])
    expect(r.body.private_key).toContain("PRIVATE KEY")
    // The workspace owner's key pair.
    expect(r.body.public_key).toBe((await dev.client.get("/users/me/gitsshkey")).body.public_key)
  })

  it("agent routes answer 401 without a token, with a user's key, or with an unknown agent token", async () => {
    expectResponse(await dev.client.as(undefined).get("/workspaceagents/me/gitsshkey"), 401)
    expectResponse(await dev.client.get("/workspaceagents/me/gitsshkey"), 401)
    expectResponse(await asAgent(UNKNOWN_ID).get("/workspaceagents/me/gitsshkey"), 401)
    expectResponse(await asAgent("not-a-token").get("/workspaceagents/me/gitsshkey"), 401)
  })

  it("an agent token reaches nothing else: user routes answer 401", async () => {
    const w = await workspace()
    const token = handed.get(w.id)!.get("main")!
    for (const path of ["/users/me", `/workspaces/${w.id}`, "/workspaces", `/workspaceagents/${agentsOf(w).main.id}`]) {
      expectResponse(await asAgent(token).get(path), 401)
    }
    expectResponse(await asAgent(token).post(`/workspaces/${w.id}/builds`, { transition: "stop" }), 401)
  })

  it("a token stops working once a stop build replaces its agent; the next start build hands out new ones", async () => {
    const w = await workspace()
    const first = handed.get(w.id)!.get("main")!
    expect((await asAgent(first).get("/workspaceagents/me/gitsshkey")).status).toBe(200)
    expect((await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" })).status).toBe(200)
    await runJobs(srv)
    expectResponse(await asAgent(first).get("/workspaceagents/me/gitsshkey"), 401)
    expect((await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "start" })).status).toBe(200)
    await runJobs(srv)
    const second = handed.get(w.id)!.get("main")!
    expect(second).not.toBe(first)
    expect((await asAgent(second).get("/workspaceagents/me/gitsshkey")).status).toBe(200)
    expectResponse(await asAgent(first).get("/workspaceagents/me/gitsshkey"), 401)
    // Each agent of a build has its own token.
    expect(new Set(handed.get(w.id)!.values()).size).toBe(3)
  })

  it("a deleted workspace's agent tokens stop working", async () => {
    const w = await workspace()
    const token = handed.get(w.id)!.get("side")!
    expect((await asAgent(token).get("/workspaceagents/me/gitsshkey")).status).toBe(200)
    expect((await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "delete" })).status).toBe(200)
    await runJobs(srv)
    expectResponse(await asAgent(token).get("/workspaceagents/me/gitsshkey"), 401)
  })

  it("an agent may extend its own workspace's deadline with its token, and no other workspace's", async () => {
    const w = await workspace({ ttl_ms: HOUR })
    const other = await workspace({ ttl_ms: HOUR })
    const token = handed.get(w.id)!.get("main")!
    const deadline = new Date(Date.now() + 2 * HOUR).toISOString()
    const r = await asAgent(token).put(`/workspaces/${w.id}/extend`, { deadline })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(Date.parse((await dev.client.get(`/workspaces/${w.id}`)).body.latest_build.deadline)).toBe(
      Date.parse(deadline)
    )
    // Another workspace of the same owner lies outside the agent's token.
    expectResponse(await asAgent(token).put(`/workspaces/${other.id}/extend`, { deadline }), 403)
    expectValidations(await asAgent(token).put(`/workspaces/${w.id}/extend`, { deadline: "soon" }), ["deadline"])
    // Users still extend with their own keys.
    expect((await dev.client.put(`/workspaces/${other.id}/extend`, { deadline })).status).toBe(200)
    // The extension is audited as the owner's.
    const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${w.id} action:write`)}&limit=5`)
    expect(logs.body.audit_logs[0].user.id).toBe(dev.user.id)
  })

  describe("GET /workspaceagents/{agent}", () => {
    it("answers the agent to who may read its workspace", async () => {
      const w = await workspace()
      const main = agentsOf(w).main
      const r = await dev.client.get(`/workspaceagents/${main.id}`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({
        id: main.id,
        name: "main",
        status: "connecting",
        lifecycle_state: "created",
        resource_id: main.resource_id
      })
      expect((await owner.get(`/workspaceagents/${main.id}`)).status).toBe(200)
    })

    it("401 anonymous, 404 for a stranger and an unknown agent, 400 for a bad id", async () => {
      const w = await workspace()
      const id = agentsOf(w).main.id
      expectResponse(await dev.client.as(undefined).get(`/workspaceagents/${id}`), 401)
      expectResponse(await stranger.client.get(`/workspaceagents/${id}`), 404)
      expectResponse(await dev.client.get(`/workspaceagents/${UNKNOWN_ID}`), 404)
      expectValidations(await dev.client.get("/workspaceagents/nope"), ["workspaceagent"])
    })
  })

  describe("GET /workspaces/{workspace}/external-agent/{agent}/credentials", () => {
    const path = (w: { id: string }, agent = "outside") => `/workspaces/${w.id}/external-agent/${agent}/credentials`

    it("answers the build's token (the one its provisioner was handed) and the command that starts the reference agent, the same on every read", async () => {
      const w = await workspace()
      const r = await dev.client.get(path(w))
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["agent_token", "command"])
      expect(r.body.agent_token).toMatch(UUID_PATTERN)
      expect(r.body.agent_token).toBe(handed.get(w.id)!.get("outside"))
      expect(r.body.command).toContain(`--token ${r.body.agent_token}`)
      expect(r.body.command).toMatch(/^npx -y @workbay\/agent --url \S+ --token /)
      const again = await dev.client.get(path(w))
      expect(again.body).toEqual(r.body)
      // An owner reading it (the dashboard's page) changes nothing either.
      expect((await owner.get(path(w))).body.agent_token).toBe(r.body.agent_token)
      expect((await asAgent(r.body.agent_token).get("/workspaceagents/me/gitsshkey")).status).toBe(200)
    })

    it("an agent connected with the token stays connected while the credentials are read", async () => {
      const w = await workspace()
      const { agent_token } = (await dev.client.get(path(w))).body
      const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { [SESSION_HEADER]: agent_token })
      const request = async (id: number) => {
        ws.socket.send(JSON.stringify({ type: "heartbeat", id }))
        await eventually(() => ws.messages.some((m) => JSON.parse(m).id === id))
      }
      await request(1)
      for (let i = 0; i < 3; i++) expect((await dev.client.get(path(w))).body.agent_token).toBe(agent_token)
      await request(2)
      expect(await Promise.race([ws.closed, new Promise((resolve) => setTimeout(() => resolve("open"), 300))])).toBe(
        "open"
      )
      expect((await dev.client.get(`/workspaceagents/${agentsOf(w).outside.id}`)).body.status).toBe("connected")
      ws.socket.close(1000)
      await ws.closed
    })

    it("a new build makes a new token; the previous one stops working", async () => {
      const w = await workspace()
      const first = (await dev.client.get(path(w))).body.agent_token
      const built = await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "start" })
      expect(built.status, JSON.stringify(built.body)).toBe(200)
      await runJobs(srv)
      const second = (await dev.client.get(path(w))).body.agent_token
      expect(second).toMatch(UUID_PATTERN)
      expect(second).not.toBe(first)
      expect(second).toBe(handed.get(w.id)!.get("outside"))
      expectResponse(await asAgent(first).get("/workspaceagents/me/gitsshkey"), 401)
      expect((await asAgent(second).get("/workspaceagents/me/gitsshkey")).status).toBe(200)
    })

    it("reads write no audit entry; an agent that keeps no token gets one, once, audited as a write with its token a secret", async () => {
      const w = await workspace()
      const id = agentsOf(w).outside.id
      const entries = async () => {
        const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${id}`)}&limit=5`)
        expect(logs.status, JSON.stringify(logs.body)).toBe(200)
        return logs.body.audit_logs as Array<any>
      }
      expect((await dev.client.get(path(w))).status).toBe(200)
      expect(await entries()).toEqual([])
      // As an agent built before tokens were kept (or whose instance identity replaced it): none kept.
      const handedToken = handed.get(w.id)!.get("outside")!
      await srv.run(Effect.flatMap(AgentRepo, (repo) => repo.setTokenHash(id, hashAgentToken(handedToken), new Date())))
      const minted = (await dev.client.get(path(w))).body.agent_token
      expect(minted).not.toBe(handedToken)
      expectResponse(await asAgent(handedToken).get("/workspaceagents/me/gitsshkey"), 401)
      expect((await dev.client.get(path(w))).body.agent_token).toBe(minted)
      const [entry, ...rest] = await entries()
      expect(rest).toEqual([])
      expect(entry).toMatchObject({
        action: "write",
        resource_type: "workspace_agent",
        resource_target: "outside",
        status_code: 200
      })
      expect(entry.diff).toEqual({ agent_token: { old: "", new: "", secret: true } })
      expect(JSON.stringify(entry)).not.toContain(minted)
    })

    it("400 for an agent its provisioner starts, 404 for an unknown agent or a stranger, 401 anonymous, 400 bad id", async () => {
      const w = await workspace()
      expectValidations(await dev.client.get(path(w, "main")), ["agent"])
      expectResponse(await dev.client.get(path(w, "ghost")), 404)
      expectResponse(await stranger.client.get(path(w)), 404)
      expectResponse(await dev.client.as(undefined).get(path(w)), 401)
      expectResponse(await dev.client.get(path({ id: UNKNOWN_ID })), 404)
      expectValidations(await dev.client.get(path({ id: "nope" })), ["workspace"])
    })

    it("403 for who may use the workspace but not change it", async () => {
      const w = await workspace()
      const user = await createUser(owner, { username: "agent-user" })
      expect((await dev.client.patch(`/workspaces/${w.id}/acl`, { user_roles: { [user.user.id]: "use" } })).status)
        .toBe(204)
      expect((await user.client.get(`/workspaceagents/${agentsOf(w).outside.id}`)).status).toBe(200)
      expectResponse(await user.client.get(path(w)), 403)
    })
  })
})
