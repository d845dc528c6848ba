/**
 * `GET /workspaceagents/{workspaceagent}/listening-ports` over real HTTP (docs/agents.md,
 * "Listening ports"): the service asks the agent over its real connection
 * (`listening_ports_request`), here a test agent answering on a real WebSocket, and filters its
 * answer as the described system does.
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
import { connect, type WsResult } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner } from "./fixtures.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        apps:
          - slug: code
            url: http://localhost:8080
`

/** Answers every `listening_ports_request` of `ws` with `answer(request_id)`; answers how many it saw. */
const answering = (ws: WsResult, answer: (requestId: string) => Record<string, unknown>) => {
  let seen = 0
  ws.socket.on("message", (data) => {
    const message = JSON.parse(data.toString())
    if (message.type !== "listening_ports_request") return
    seen++
    ws.socket.send(
      JSON.stringify({ type: "listening_ports", request_id: message.request_id, ...answer(message.request_id) })
    )
  })
  return () => seen
}

describe("GET /workspaceagents/{workspaceagent}/listening-ports", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let other: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      agentMonitor: false
    }))
    dev = await createUser(owner)
    other = await createUser(owner)
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  const agentOf = async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const agent = w.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    return { w, agent, token: handed.get(w.id)!.get("main")! }
  }
  const open = (token: string) =>
    connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { "Service-Session-Token": token })
  const ports = (client: Client, agentId: string) => client.get(`/workspaceagents/${agentId}/listening-ports`)

  it("asks the connected agent, leaving out low, ignored and app ports", async () => {
    const { agent, token } = await agentOf()
    const ws = await open(token)
    const seen = answering(ws, () => ({
      ports: [
        { process_name: "sshd", network: "tcp", port: 22 },
        { process_name: "x", network: "tcp", port: 5 },
        { process_name: "node", network: "tcp", port: 3000 },
        { process_name: "code-server", network: "tcp", port: 8080 },
        { process_name: "postgres", network: "tcp", port: 5432 },
        { process_name: "node", network: "tcp", port: 3000 },
        { process_name: "", network: "tcp", port: 9090 },
        { port: "nope" }
      ]
    }))
    let r = await ports(dev.client, agent.id)
    // The connection is recorded as it opens; retry until the first answer.
    for (let i = 0; i < 20 && r.status === 400; i++) r = await ports(dev.client, agent.id)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toEqual({
      ports: [{ process_name: "node", network: "tcp", port: 3000 }, { process_name: "", network: "tcp", port: 9090 }]
    })
    expect(seen()).toBeGreaterThan(0)
    // Who may read the workspace may ask.
    expect((await ports(owner, agent.id)).status).toBe(200)
    ws.socket.close(1000)
    await ws.closed
  })

  it("502 with the agent's error when it cannot list its ports", async () => {
    const { agent, token } = await agentOf()
    const ws = await open(token)
    answering(ws, () => ({ ports: [], error: "no /proc here" }))
    let r = await ports(dev.client, agent.id)
    for (let i = 0; i < 20 && r.status === 400; i++) r = await ports(dev.client, agent.id)
    expectResponse(r, 502)
    expect(r.body.detail).toBe("no /proc here")
    ws.socket.close(1000)
    await ws.closed
  })

  it("400 while the agent is not connected; 401, 404 for who may not read it or an unknown agent, 400 for a bad id", async () => {
    const { agent } = await agentOf()
    const r = await ports(dev.client, agent.id)
    expectResponse(r, 400)
    expect(r.body).toMatchObject({
      message: "Agent state is not connected.",
      detail: "Current agent state: connecting"
    })
    expectResponse(await srv.anonymous.get(`/workspaceagents/${agent.id}/listening-ports`), 401)
    expectResponse(await ports(other.client, agent.id), 404)
    expectResponse(await ports(dev.client, UNKNOWN_ID), 404)
    expectValidations(await ports(dev.client, "nope"), ["workspaceagent"])
  })
})
