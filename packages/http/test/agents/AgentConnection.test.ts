/**
 * `GET /workspaceagents/{workspaceagent}/connection` (AgentConnectionInfo) and the old name of the
 * logs route, `GET /workspaceagents/{workspaceagent}/startup-logs`, over real HTTP
 * (docs/agents.md, "Routes users call").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { connect, eventually } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner, REPORTS_TEMPLATE } from "./fixtures.js"

describe("agent connection info and startup-logs", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let other: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main", "side"], handed)],
      lifecycle: false
    }))
    dev = await createUser(owner)
    other = await createUser(owner)
    template = await makeTemplate(srv, owner, orgId, REPORTS_TEMPLATE)
  })
  afterAll(() => srv.close())

  const agentOf = async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const agent = w.latest_build.resources.flatMap((r: any) => r.agents ?? []).find((a: any) => a.name === "main")
    return { w, agent, token: handed.get(w.id)!.get("main")! }
  }

  it("connection: the relay map, relays over WebSockets, no direct connections, the hostname suffix", async () => {
    const { agent, token } = await agentOf()
    const r = await dev.client.get(`/workspaceagents/${agent.id}/connection`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toEqual({
      derp_map: (await dev.client.as(token).get("/workspaceagents/me/manifest")).body.derp_map,
      derp_force_websockets: true,
      disable_direct_connections: true,
      hostname_suffix: "coder"
    })
    expect(Object.keys(r.body.derp_map.Regions)).toEqual(["999"])
    expect((await owner.get(`/workspaceagents/${agent.id}/connection`)).status).toBe(200)
  })

  it("connection: 401, 404 for who may not read the workspace or an unknown agent, 400 for a bad id", async () => {
    const { agent } = await agentOf()
    expectResponse(await srv.anonymous.get(`/workspaceagents/${agent.id}/connection`), 401)
    expectResponse(await other.client.get(`/workspaceagents/${agent.id}/connection`), 404)
    expectResponse(await dev.client.get(`/workspaceagents/${UNKNOWN_ID}/connection`), 404)
    expectValidations(await dev.client.get(`/workspaceagents/nope/connection`), ["workspaceagent"])
  })

  it("startup-logs answers as logs, follow included; 401, 404, 400 alike", async () => {
    const { agent, token } = await agentOf()
    const source = agent.scripts[0].log_source_id
    const lines = [{ created_at: "2030-01-01T10:00:00Z", level: "info", output: "one" }, {
      created_at: "2030-01-01T10:00:01Z",
      level: "error",
      output: "two"
    }]
    expect(
      (await dev.client.as(token).patch("/workspaceagents/me/logs", { log_source_id: source, logs: lines })).status
    ).toBe(200)
    const logs = await dev.client.get(`/workspaceagents/${agent.id}/logs`)
    const old = await dev.client.get(`/workspaceagents/${agent.id}/startup-logs`)
    expect(old.status).toBe(200)
    expect(old.body).toEqual(logs.body)
    expect(old.body.map((l: any) => l.output)).toEqual(["one", "two"])
    const after = await dev.client.get(`/workspaceagents/${agent.id}/startup-logs?after=${logs.body[0].id}`)
    expect(after.body.map((l: any) => l.output)).toEqual(["two"])
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/${agent.id}/startup-logs?follow=true`, {
      "Service-Session-Token": dev.client.token!
    })
    // Each message is an array of lines (the stored ones arrive together).
    await eventually(() => ws.messages.flatMap((m) => JSON.parse(m)).length >= 2)
    expect(ws.messages.flatMap((m) => JSON.parse(m).map((l: any) => l.output))).toEqual(["one", "two"])
    ws.socket.close(1000)
    await ws.closed
    // The described system's dashboards send a bare `follow` (`?follow&after=<id>`).
    const bare = await connect(
      `${srv.wsUrl}/api/v2/workspaceagents/${agent.id}/startup-logs?follow&after=${logs.body[0].id}`,
      {
        "Service-Session-Token": dev.client.token!
      }
    )
    await eventually(() => bare.messages.length >= 1)
    expect(bare.messages.map((m) => JSON.parse(m).map((l: any) => l.output))).toEqual([["two"]])
    bare.socket.close(1000)
    await bare.closed
    expectResponse(await srv.anonymous.get(`/workspaceagents/${agent.id}/startup-logs`), 401)
    expectResponse(await other.client.get(`/workspaceagents/${agent.id}/startup-logs`), 404)
    expectResponse(await dev.client.get(`/workspaceagents/${UNKNOWN_ID}/startup-logs`), 404)
    expectValidations(await dev.client.get(`/workspaceagents/nope/startup-logs`), ["workspaceagent"])
    expectValidations(await dev.client.get(`/workspaceagents/${agent.id}/startup-logs?format=text`), ["format"])
  })
})
