/**
 * The dev container routes over real HTTP (docs/agents.md, "Dev containers"): the service asks the
 * agent over its real connection (`containers_request`), here a test agent answering on a real
 * WebSocket as the reference agent does; the watch is a real WebSocket. The reference agent against
 * the real Docker daemon: packages/agent/test/Containers.test.ts.
 */
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
  UNKNOWN_ID
} from "../support.js"
import { connect, eventually, refusal, type WsResult } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner } from "./fixtures.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
`

const DC_ID = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"

const container = (name: string, labels: Record<string, string> = {}, running = true) => ({
  created_at: "2030-01-01T10:00:00.000Z",
  id: `${name}-id`,
  name,
  image: "workbay-test/img:1",
  labels,
  running,
  ports: [{ port: 8080, network: "tcp", host_ip: "0.0.0.0", host_port: 18080 }, { port: 9000, network: "tcp" }],
  status: running ? "running" : "exited",
  volumes: { "/home/dev/project": "/workspaces/project" }
})

/** A scripted agent's dev containers: answers `containers_request`s as the reference agent does. */
const scripted = (ws: WsResult) => {
  const state = {
    containers: [
      container("project-dc", {
        "devcontainer.local_folder": "/home/dev/project",
        "devcontainer.config_file": "/home/dev/project/.devcontainer/devcontainer.json"
      }),
      container("db", { app: "db" }, false)
    ],
    status: "running" as string,
    asked: [] as Array<string>
  }
  ws.socket.on("message", (data) => {
    const m = JSON.parse(data.toString())
    if (m.type !== "containers_request") return
    state.asked.push(m.action)
    const answer = (status: number, body?: unknown) =>
      ws.socket.send(JSON.stringify({ type: "containers_response", request_id: m.request_id, status, body }))
    const dc = state.containers.find((c) => c.labels["devcontainer.local_folder"] !== undefined)
    if (m.action === "list") {
      return answer(200, {
        devcontainers: dc === undefined ? [] : [{
          id: DC_ID,
          name: "project",
          workspace_folder: "/home/dev/project",
          config_path: "/home/dev/project/.devcontainer/devcontainer.json",
          status: state.status,
          dirty: false,
          container: dc
        }],
        containers: state.containers
      })
    }
    if (m.devcontainer_id !== DC_ID || dc === undefined) return answer(404, { message: "Devcontainer not found." })
    if (state.status === "starting") return answer(409, { message: "Devcontainer recreation already in progress." })
    if (m.action === "delete") {
      state.containers = state.containers.filter((c) => c !== dc)
      return answer(204)
    }
    state.status = "starting"
    return answer(202, { message: "Devcontainer recreation initiated", detail: "Recreation has started." })
  })
  return state
}

describe("dev container routes", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let other: TestUser
  let templateAdmin: TestUser
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
    templateAdmin = await createUser(owner, { roles: ["template-admin"] })
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  const agentOf = async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const agent = w.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    return { w, agent, token: handed.get(w.id)!.get("main")! }
  }
  const open = async (token: string, agentId: string) => {
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { "Service-Session-Token": token })
    // The connection is recorded as it opens: wait until the agent counts as connected.
    for (let i = 0; i < 100; i++) {
      if ((await dev.client.get(`/workspaceagents/${agentId}`)).body.status === "connected") break
      await new Promise((r) => setTimeout(r, 20))
    }
    return ws
  }

  it("lists the agent's containers and dev containers, filtered by labels; 400 bad label, 401, 404", async () => {
    const { agent, token } = await agentOf()
    expect((await dev.client.get(`/workspaceagents/${agent.id}/containers`)).body).toMatchObject({
      message: "Agent state is not connected."
    })
    const ws = await open(token, agent.id)
    scripted(ws)
    const r = await dev.client.get(`/workspaceagents/${agent.id}/containers`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.containers.map((c: any) => c.name)).toEqual(["project-dc", "db"])
    expect(r.body.devcontainers).toEqual([
      expect.objectContaining({ id: DC_ID, name: "project", status: "running", dirty: false })
    ])
    expect(r.body.containers[0].ports[1]).toEqual({ port: 9000, network: "tcp" })
    expect(r.body.warnings).toBeUndefined()
    const one = await dev.client.get(`/workspaceagents/${agent.id}/containers?label=app=db`)
    expect(one.body.containers.map((c: any) => c.name)).toEqual(["db"])
    const none = await dev.client.get(`/workspaceagents/${agent.id}/containers?label=app=db&label=x=y`)
    expect(none.body.containers).toEqual([])
    // Who may read the workspace may list (a template admin, the owner).
    expect((await templateAdmin.client.get(`/workspaceagents/${agent.id}/containers`)).status).toBe(200)
    expectValidations(await dev.client.get(`/workspaceagents/${agent.id}/containers?label=nokey`), ["label"])
    expectResponse(await srv.anonymous.get(`/workspaceagents/${agent.id}/containers`), 401)
    expectResponse(await other.client.get(`/workspaceagents/${agent.id}/containers`), 404)
    expectResponse(await dev.client.get(`/workspaceagents/${UNKNOWN_ID}/containers`), 404)
    expectValidations(await dev.client.get("/workspaceagents/nope/containers"), ["workspaceagent"])
    ws.socket.close(1000)
    await ws.closed
  })

  it("recreate (202, then 409 while starting) and delete (204) reach the agent; 404 unknown, 404 without ssh, 401, 400", async () => {
    const { agent, token } = await agentOf()
    const ws = await open(token, agent.id)
    const state = scripted(ws)
    const base = `/workspaceagents/${agent.id}/containers/devcontainers`
    expectResponse(await dev.client.post(`${base}/${UNKNOWN_ID}/recreate`), 404)
    // A template admin reads the workspace but may not run commands on its machine.
    expectResponse(await templateAdmin.client.post(`${base}/${DC_ID}/recreate`), 404)
    expectResponse(await templateAdmin.client.delete(`${base}/${DC_ID}`), 404)
    expectResponse(await other.client.delete(`${base}/${DC_ID}`), 404)
    expectResponse(await srv.anonymous.post(`${base}/${DC_ID}/recreate`), 401)
    expectValidations(await dev.client.post(`/workspaceagents/nope/containers/devcontainers/${DC_ID}/recreate`), [
      "workspaceagent"
    ])
    expectValidations(await dev.client.delete(`${base}/${"x".repeat(200)}`), ["devcontainer"])
    const recreated = await dev.client.post(`${base}/${DC_ID}/recreate`)
    expect(recreated.status, JSON.stringify(recreated.body)).toBe(202)
    expect(recreated.body).toEqual({ message: "Devcontainer recreation initiated", detail: "Recreation has started." })
    const busy = await dev.client.post(`${base}/${DC_ID}/recreate`)
    expectResponse(busy, 409)
    expect(busy.body.message).toBe("Devcontainer recreation already in progress.")
    expect((await dev.client.get(`/workspaceagents/${agent.id}/containers`)).body.devcontainers[0].status).toBe(
      "starting"
    )
    state.status = "running"
    const deleted = await dev.client.delete(`${base}/${DC_ID}`)
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204)
    expect((await dev.client.get(`/workspaceagents/${agent.id}/containers`)).body.devcontainers).toEqual([])
    expectResponse(await dev.client.delete(`${base}/${DC_ID}`), 404)
    // Each change is audited, naming the agent.
    const audit = await owner.get(`/audit?q=resource_type:workspace_agent&limit=10`)
    const mine = (audit.body.audit_logs as Array<any>).filter((e) => e.resource_id === agent.id)
    expect(mine.length).toBeGreaterThanOrEqual(2)
    ws.socket.close(1000)
    await ws.closed
  })

  it("watch: the list at once, again when it changes (at once after a delete through the service); 401, 404, 400", async () => {
    const { agent, token } = await agentOf()
    const url = `${srv.wsUrl}/api/v2/workspaceagents/${agent.id}/containers/watch`
    const headers = { [SESSION_HEADER]: dev.client.token! }
    expect((await refusal(connect(url, headers))).status).toBe(400)
    const ws = await open(token, agent.id)
    scripted(ws)
    const watch = await connect(url, headers)
    await eventually(() => watch.messages.length >= 1)
    const first = JSON.parse(watch.messages[0]!)
    expect(first.containers.map((c: any) => c.name)).toEqual(["project-dc", "db"])
    expect(first.devcontainers[0].id).toBe(DC_ID)
    expect((await dev.client.delete(`/workspaceagents/${agent.id}/containers/devcontainers/${DC_ID}`)).status).toBe(204)
    await eventually(() => watch.messages.length >= 2)
    expect(JSON.parse(watch.messages[1]!).devcontainers).toEqual([])
    expect((await dev.client.get(`/workspaceagents/${agent.id}/containers/watch`)).status).toBe(426)
    // The agent's connection ends: so does the watch.
    ws.socket.close(1000)
    await watch.closed
    expect((await refusal(connect(url))).status).toBe(401)
    expect((await refusal(connect(url, { [SESSION_HEADER]: other.client.token! }))).status).toBe(404)
    expect((await refusal(connect(`${srv.wsUrl}/api/v2/workspaceagents/nope/containers/watch`, headers))).status)
      .toBe(400)
  })
})
