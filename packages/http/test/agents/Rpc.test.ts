/**
 * The agent connection end to end: a real server on a real port, real SQLite, a real WebSocket
 * with `ws` carrying the JSON protocol of docs/agents.md ("The agent connection"). The agent's
 * token (handed to a recording provisioner) opens `GET /workspaceagents/me/rpc`; its reports show
 * on the Agent record, the workspace's health, the manifest and the deployment stats.
 */
import { AgentReportRepo } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readEvents } from "../sse.js"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser,
  uniqueName,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { connect, eventually, refusal, type WsResult } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner } from "./fixtures.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        directory: ~/src
        env: { EDITOR: vim }
        apps:
          - slug: code
            url: http://localhost:8080
            healthcheck: { url: "http://localhost:8080/health", interval: 5, threshold: 2 }
        scripts:
          - display_name: Install
            script: echo installing
            run_on_start: true
            timeout: 60
        metadata:
          - key: load
            display_name: Load
            script: cat /proc/loadavg
            interval: 5
          - key: disk
            script: df -h
      - name: side
`

/**
 * `read` again until `done` holds of its answer: stats and metadata values are written with the
 * next flush of the server's report batches, within a second (docs/agents.md, "Batched reports").
 */
const flushed = async <A>(read: () => Promise<A>, done: (a: A) => boolean): Promise<A> => {
  const until = Date.now() + 10_000
  let answer = await read()
  while (!done(answer) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20))
    answer = await read()
  }
  return answer
}

/** A client of the agent connection: requests by id, answers by id, everything else kept in order. */
class AgentSocket {
  private next = 1
  constructor(readonly ws: WsResult) {}
  /** Sends `body` with a fresh id and waits for the answer of that id. */
  async request(type: string, body: Record<string, unknown> = {}): Promise<any> {
    const id = this.next++
    this.ws.socket.send(JSON.stringify({ type, id, ...body }))
    let found: any
    await eventually(() => {
      found = this.ws.messages.map((m) => JSON.parse(m)).find((m) => m.id === id)
      return found !== undefined
    })
    return found
  }
  sendRaw(text: string) {
    this.ws.socket.send(text)
  }
  async close() {
    this.ws.socket.close(1000)
    await this.ws.closed
  }
}

describe("the agent connection: GET /workspaceagents/me/rpc", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  const recording = recordingProvisioner(["main", "side"], handed)

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recording],
      lifecycle: false,
      agentMonitor: false
    }))
    dev = await createUser(owner, { username: "rpc-dev" })
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  const rpcUrl = () => `${srv.wsUrl}/api/v2/workspaceagents/me/rpc`
  /** A workspace of dev's, its agents by name (as the workspace shows them) and their tokens. */
  const workspace = async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    return { w, tokens: handed.get(w.id)! }
  }
  const open = async (token: string) => new AgentSocket(await connect(rpcUrl(), { "Service-Session-Token": token }))
  const agentsOf = async (workspaceId: string) => {
    const w = (await dev.client.get(`/workspaces/${workspaceId}`)).body
    const agents = Object.fromEntries(
      (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).map((a: any) => [a.name, a])
    )
    return { workspace: w, agents }
  }
  const agentRecord = async (workspaceId: string, name: string) => {
    const { agents } = await agentsOf(workspaceId)
    const r = await dev.client.get(`/workspaceagents/${agents[name].id}`)
    expect(r.status).toBe(200)
    return r.body
  }

  it("refuses the upgrade with 401 without a token, with a user's key, or with an unknown agent token", async () => {
    expect((await refusal(connect(rpcUrl()))).status).toBe(401)
    const userKey = await refusal(connect(rpcUrl(), { "Service-Session-Token": dev.client.token! }))
    expect(userKey.status).toBe(401)
    expect(userKey.body.message).toBeTypeOf("string")
    expect(
      (await refusal(connect(rpcUrl(), { "Service-Session-Token": "6a1c1e0e-7f57-4d0e-9d1e-3d5b7c4b2a10" }))).status
    ).toBe(401)
  })

  it("opening sets first and last connected times: the agent is connected, and healthy", async () => {
    const { w, tokens } = await workspace()
    const before = await agentRecord(w.id, "main")
    expect(before.status).toBe("connecting")
    expect(before.first_connected_at).toBeUndefined()
    const socket = await open(tokens.get("main")!)
    // The first answer means the connection was recorded (it is, before any message is read).
    expect((await socket.request("heartbeat")).result).toEqual({})
    const after = await agentRecord(w.id, "main")
    expect(after.status).toBe("connected")
    expect(after.first_connected_at).toBeTypeOf("string")
    expect(after.last_connected_at).toBe(after.first_connected_at)
    expect(after.disconnected_at).toBeUndefined()
    expect(after.health).toEqual({ healthy: true })
    // The other agent of the build is untouched.
    expect((await agentRecord(w.id, "side")).status).toBe("connecting")
    await socket.close()
  })

  it("the agent's latency: the round trip of the service's first ping, under the embedded relay's region; none once closed", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    await socket.request("ping")
    // The service pings at accept; the WebSocket client answers by itself (RFC 6455).
    await expect.poll(async () => (await agentRecord(w.id, "main")).latency, { timeout: 10_000 }).toBeDefined()
    const { latency } = await agentRecord(w.id, "main")
    expect(Object.keys(latency)).toEqual(["Coder Embedded Relay"])
    expect(latency["Coder Embedded Relay"].preferred).toBe(true)
    expect(latency["Coder Embedded Relay"].latency_ms).toBeGreaterThan(0)
    await socket.close()
    await expect.poll(async () => (await agentRecord(w.id, "main")).status).toBe("disconnected")
    expect((await agentRecord(w.id, "main")).latency).toBeUndefined()
  })

  it("heartbeats do not write: last_connected_at stays until the refresh period passes", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    await socket.request("ping")
    const first = (await agentRecord(w.id, "main")).last_connected_at
    for (let i = 0; i < 20; i++) await socket.request("heartbeat")
    expect((await agentRecord(w.id, "main")).last_connected_at).toBe(first)
    await socket.close()
  })

  it("closing sets disconnected_at: the agent is disconnected and unhealthy, and so is the workspace", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    await socket.request("heartbeat")
    await socket.close()
    let record: any
    for (let i = 0; i < 100; i++) {
      record = await agentRecord(w.id, "main")
      if (record.disconnected_at !== undefined) break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(record.status).toBe("disconnected")
    expect(record.health).toEqual({ healthy: false, reason: "agent has lost connection" })
    const { workspace: ws } = await agentsOf(w.id)
    expect(ws.health.healthy).toBe(false)
    // The other agent never connected: unhealthy too ("agent has not yet connected").
    expect(ws.health.failing_agents).toHaveLength(2)
    expect(ws.health.failing_agents).toContain(record.id)
  })

  it("update_lifecycle: starting sets started_at, ready sets ready_at, as the record shows", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const started = "2030-01-01T10:00:00.000Z"
    const a = await socket.request("update_lifecycle", { state: "starting", changed_at: started })
    expect(a.result).toEqual({ state: "starting", changed_at: started })
    const mid = await agentRecord(w.id, "main")
    expect(mid.lifecycle_state).toBe("starting")
    expect(mid.started_at).toBe(started)
    expect(mid.ready_at).toBeUndefined()
    const b = await socket.request("update_lifecycle", { state: "ready" })
    expect(b.result.state).toBe("ready")
    const done = await agentRecord(w.id, "main")
    expect(done.lifecycle_state).toBe("ready")
    expect(done.started_at).toBe(started)
    expect(done.ready_at).toBe(b.result.changed_at)
    expect(done.health).toEqual({ healthy: true })
    await socket.close()
  })

  it("accepts the described system's wrapped forms too: {lifecycle}, {startup}, {timing} (the reference agent's)", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const started = "2030-01-01T10:00:00.000Z"
    expect((await socket.request("update_lifecycle", { lifecycle: { state: "starting", changed_at: started } })).result)
      .toEqual({ state: "starting", changed_at: started })
    expect(
      (await socket.request("update_startup", { startup: { version: "v9", expanded_directory: "/x", subsystems: [] } }))
        .result.version
    )
      .toBe("v9")
    const script = (await agentRecord(w.id, "main")).scripts[0]
    expect(
      (await socket.request("script_completed", {
        timing: {
          script_id: script.id,
          started_at: started,
          ended_at: started,
          exit_code: 0,
          status: "ok",
          timeout: false
        }
      })).result
    ).toEqual({})
    const record = await agentRecord(w.id, "main")
    expect([record.lifecycle_state, record.started_at, record.version, record.scripts[0].status]).toEqual([
      "starting",
      started,
      "v9",
      "ok"
    ])
    expect((await socket.request("update_lifecycle", { lifecycle: { state: "nope" } })).error.detail).toContain("state")
    await socket.close()
  })

  it("batch_update_app_health sets the health of the agent's checked apps; another id is an error", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const app = (await agentRecord(w.id, "main")).apps[0]
    expect(app.health).toBe("initializing")
    expect((await socket.request("batch_update_app_health", { updates: [{ id: app.id, health: "healthy" }] })).result)
      .toEqual({})
    expect((await agentRecord(w.id, "main")).apps[0].health).toBe("healthy")
    await socket.request("batch_update_app_health", { updates: [{ id: app.id, health: "unhealthy" }] })
    expect((await agentRecord(w.id, "main")).apps[0].health).toBe("unhealthy")
    const other = await socket.request("batch_update_app_health", { updates: [{ id: UNKNOWN_ID, health: "healthy" }] })
    expect(other.error.message).toBe("Unknown app.")
    const bad = await socket.request("batch_update_app_health", { updates: [{ id: app.id, health: "great" }] })
    expect(bad.error.detail).toContain("updates.0.health")
    await socket.close()
  })

  it("batch_create_logs stores a batch as the logs route does, knows sources declared later, and answers log_limit_exceeded past the cap", async () => {
    const { w, tokens } = await workspace()
    const token = tokens.get("main")!
    const socket = await open(token)
    const main = await agentRecord(w.id, "main")
    const script = main.scripts[0].log_source_id
    const line = (output: string, level = "info") => ({ created_at: new Date().toISOString(), level, output })
    expect(
      (await socket.request("batch_create_logs", { log_source_id: script, logs: [line("one"), line("two", "warn")] }))
        .result
    )
      .toEqual({ log_limit_exceeded: false })
    const read = (await dev.client.get(`/workspaceagents/${main.id}/logs`)).body
    expect(read.map((l: any) => [l.output, l.level, l.source_id])).toEqual([["one", "info", script], [
      "two",
      "warn",
      script
    ]])
    // A source declared after the connection opened.
    const asMain = dev.client.as(token)
    const later = "8c5e1b58-1111-4c55-9d4f-0f4f5e1d2c3b"
    expect((await asMain.post("/workspaceagents/me/log-source", { id: later, display_name: "Later" })).status).toBe(200)
    expect((await socket.request("batch_create_logs", { log_source_id: later, logs: [line("three")] })).result).toEqual(
      { log_limit_exceeded: false }
    )
    // Refusals: an unknown source, bad fields (each named), no lines.
    expect((await socket.request("batch_create_logs", { log_source_id: UNKNOWN_ID, logs: [line("x")] })).error)
      .toMatchObject({
        message: "Unknown log source.",
        detail: expect.stringContaining("log_source_id: ")
      })
    const bad = await socket.request("batch_create_logs", {
      log_source_id: "nope",
      logs: [{ created_at: "yesterday", level: "loud", output: 1 }]
    })
    expect(bad.error.message).toBe("Validation failed.")
    for (const field of ["log_source_id", "logs.0.created_at", "logs.0.level", "logs.0.output"]) {
      expect(bad.error.detail).toContain(`${field}: `)
    }
    expect((await socket.request("batch_create_logs", { log_source_id: script, logs: [] })).error.message).toBe(
      "No logs provided."
    )
    // Fill the agent's room through the route, then a batch over the connection passes the cap.
    const big = (n: number, count: number) => Array.from({ length: count }, () => line("x".repeat(n)))
    for (const logs of [big(60_000, 8), big(60_000, 8), big(44_000, 2)]) {
      expect((await asMain.patch("/workspaceagents/me/logs", { log_source_id: script, logs })).status).toBe(200)
    }
    expect(
      (await socket.request("batch_create_logs", { log_source_id: script, logs: [line("y".repeat(2000))] })).result
    )
      .toEqual({ log_limit_exceeded: true })
    expect(await agentRecord(w.id, "main")).toMatchObject({ logs_overflowed: true })
    expect((await socket.request("batch_create_logs", { log_source_id: script, logs: [line("tiny")] })).result).toEqual(
      { log_limit_exceeded: true }
    )
    await socket.close()
  })

  it("start_error makes the agent unhealthy with the described system's reason; start_timeout does not", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    await socket.request("update_lifecycle", { state: "start_timeout" })
    expect((await agentRecord(w.id, "main")).health).toEqual({ healthy: true })
    await socket.request("update_lifecycle", { state: "start_error" })
    const record = await agentRecord(w.id, "main")
    expect(record.health).toEqual({ healthy: false, reason: "agent startup script exited with an error" })
    expect(record.ready_at).toBeTypeOf("string")
    const { workspace: ws } = await agentsOf(w.id)
    expect(ws.health.healthy).toBe(false)
    expect(ws.health.failing_agents).toContain(record.id)
    await socket.request("update_lifecycle", { state: "shutting_down" })
    expect((await agentRecord(w.id, "main")).health).toEqual({ healthy: false, reason: "agent is shutting down" })
    await socket.close()
  })

  it("bad messages answer errors naming the field, and the connection stays usable", async () => {
    const { tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const badState = await socket.request("update_lifecycle", { state: "sleeping" })
    expect(badState.error.message).toBe("Validation failed.")
    expect(badState.error.detail).toContain("state")
    const badStats = await socket.request("update_stats", { stats: { rx_bytes: -1, tx_bytes: "x" } })
    expect(badStats.error.detail).toContain("stats.rx_bytes")
    expect(badStats.error.detail).toContain("stats.tx_bytes")
    // Values past what the columns hold are refused, never stored.
    const huge = await socket.request("update_stats", { stats: { rx_bytes: 1e300 } })
    expect(huge.error.detail).toContain("stats.rx_bytes")
    const far = await socket.request("update_lifecycle", { state: "ready", changed_at: "+275760-09-13T00:00:00.000Z" })
    expect(far.error.detail).toContain("changed_at")
    const unknown = await socket.request("reboot")
    expect(unknown.error.message).toBe("Unknown message type.")
    socket.sendRaw("{not json")
    socket.sendRaw("[1,2]")
    socket.sendRaw(JSON.stringify({ id: { nested: true }, type: "ping" }))
    await eventually(() => socket.ws.messages.filter((m) => JSON.parse(m).id === null).length === 3)
    const nullAnswers = socket.ws.messages.map((m) => JSON.parse(m)).filter((m) => m.id === null)
    expect(nullAnswers.map((m) => m.error.message)).toEqual([
      "The message is not JSON.",
      "A message is a JSON object.",
      "Validation failed."
    ])
    // A notification (no id) that succeeds is not answered; the next request is.
    const count = socket.ws.messages.length
    socket.sendRaw(JSON.stringify({ type: "heartbeat" }))
    expect((await socket.request("ping")).result).toEqual({})
    expect(socket.ws.messages.length).toBe(count + 1)
    await socket.close()
  })

  it("update_startup stores the version, expanded directory and subsystems", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const r = await socket.request("update_startup", {
      version: "v2.1.0",
      expanded_directory: "/home/dev/src",
      subsystems: ["envbox"]
    })
    expect(r.result).toEqual({ version: "v2.1.0", expanded_directory: "/home/dev/src", subsystems: ["envbox"] })
    const record = await agentRecord(w.id, "main")
    expect(record.version).toBe("v2.1.0")
    expect(record.expanded_directory).toBe("/home/dev/src")
    expect(record.subsystems).toEqual(["envbox"])
    expect((await socket.request("update_startup", { version: "v", subsystems: ["docker"] })).error.detail).toContain(
      "subsystems"
    )
    await socket.close()
  })

  it("script_completed stores each script's result on the record's scripts; an unknown script is an error", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const script = (await agentRecord(w.id, "main")).scripts[0]
    expect(script.status).toBeUndefined()
    const ok = await socket.request("script_completed", {
      script_id: script.id,
      started_at: "2030-01-01T10:00:00Z",
      ended_at: "2030-01-01T10:00:05Z",
      exit_code: 0
    })
    expect(ok.result).toEqual({})
    let shown = (await agentRecord(w.id, "main")).scripts[0]
    expect([shown.status, shown.exit_code]).toEqual(["ok", 0])
    await socket.request("script_completed", {
      script_id: script.id,
      started_at: "2030-01-01T10:00:00Z",
      ended_at: "2030-01-01T10:01:00Z",
      exit_code: 1,
      timeout: true
    })
    shown = (await agentRecord(w.id, "main")).scripts[0]
    expect([shown.status, shown.exit_code]).toEqual(["timed_out", 1])
    await socket.request("script_completed", {
      script_id: script.id,
      started_at: "2030-01-01T10:00:00Z",
      ended_at: "2030-01-01T10:01:00Z",
      exit_code: 3
    })
    expect((await agentRecord(w.id, "main")).scripts[0].status).toBe("exit_failure")
    const unknown = await socket.request("script_completed", {
      script_id: "6a1c1e0e-7f57-4d0e-9d1e-3d5b7c4b2a10",
      started_at: "2030-01-01T10:00:00Z",
      ended_at: "2030-01-01T10:00:01Z",
      exit_code: 0
    })
    expect(unknown.error.message).toBe("Unknown script.")
    await socket.close()
  })

  it("get_manifest and GET /workspaceagents/me/manifest answer the agent's view of its workspace", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const over = (await socket.request("get_manifest")).result
    const plain = await dev.client.as(tokens.get("main")!).get("/workspaceagents/me/manifest")
    expect(plain.status).toBe(200)
    expect(plain.body).toEqual(over)
    const record = await agentRecord(w.id, "main")
    expect(over.agent_id).toBe(record.id)
    expect(over.agent_name).toBe("main")
    expect(over.owner_name).toBe("rpc-dev")
    expect(over.workspace_id).toBe(w.id)
    expect(over.workspace_name).toBe(w.name)
    expect(over.directory).toBe("~/src")
    expect(over.environment_variables).toEqual({ EDITOR: "vim" })
    expect(over.apps.map((a: any) => a.slug)).toEqual(["code"])
    expect(over.scripts.map((s: any) => s.display_name)).toEqual(["Install"])
    // The deployment's relay map (by default one region: the relay embedded at the access URL).
    expect(Object.keys(over.derp_map.Regions).length).toBeGreaterThan(0)
    // The template's metadata items (interval and timeout default to 10 s and 5 s).
    expect(over.metadata).toEqual([
      { key: "load", display_name: "Load", script: "cat /proc/loadavg", interval: 5, timeout: 5 },
      { key: "disk", display_name: "disk", script: "df -h", interval: 10, timeout: 5 }
    ])
    // Another agent's manifest is its own.
    const side = await dev.client.as(tokens.get("side")!).get("/workspaceagents/me/manifest")
    expect(side.body.agent_name).toBe("side")
    expect(side.body.apps).toEqual([])
    await socket.close()
  })

  it("GET /workspaceagents/me/manifest answers 401 without a token or with a user's key", async () => {
    expectResponse(await dev.client.as(undefined).get("/workspaceagents/me/manifest"), 401)
    expectResponse(await dev.client.get("/workspaceagents/me/manifest"), 401)
  })

  it("batch_update_metadata stores values by key (cut past 2048 bytes, with an error saying so)", async () => {
    const { w, tokens } = await workspace()
    const agentId = (await agentRecord(w.id, "main")).id as string
    const socket = await open(tokens.get("main")!)
    const at = "2030-01-01T10:00:00Z"
    const r = await socket.request("batch_update_metadata", {
      metadata: [
        { key: "load", result: { collected_at: at, age: 1, value: "0.5", error: "" } },
        { key: "big", result: { collected_at: at, age: 0, value: "x".repeat(3000), error: "" } }
      ]
    })
    expect(r.result).toEqual({})
    const stored = await flushed(
      () => srv.run(Effect.flatMap(AgentReportRepo, (repo) => repo.listMetadata(agentId))),
      (values) => values.length === 2
    )
    expect(stored.map((m) => [m.key, m.value.length, m.error])).toEqual([
      ["big", 2048, "value of 3000 bytes exceeded 2048 bytes"],
      ["load", 3, ""]
    ])
    const bad = await socket.request("batch_update_metadata", {
      metadata: [{ key: "", result: { collected_at: "yesterday" } }]
    })
    expect(bad.error.detail).toContain("metadata.0.key")
    expect(bad.error.detail).toContain("metadata.0.result.collected_at")
    await socket.close()
  })

  it("watch-metadata (server-sent events and WebSocket) sends the template's items at once, then the reported values", async () => {
    const { w, tokens } = await workspace()
    const agentId = (await agentRecord(w.id, "main")).id as string
    const sse = await readEvents(`${srv.url}/api/v2/workspaceagents/${agentId}/watch-metadata`, {
      [SESSION_HEADER]: dev.client.token!
    })
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/${agentId}/watch-metadata-ws`, {
      [SESSION_HEADER]: dev.client.token!
    })
    const dataOf = () => sse.events.filter((e) => e.event === "data").map((e) => e.data)
    await eventually(() => dataOf().length === 1 && ws.messages.length === 1)
    const first = dataOf()[0]
    expect(first.map((m: any) => [m.description.key, m.result.value, m.result.collected_at])).toEqual([
      ["load", "", "0001-01-01T00:00:00Z"],
      ["disk", "", "0001-01-01T00:00:00Z"]
    ])
    expect(first[0].description).toEqual({
      key: "load",
      display_name: "Load",
      script: "cat /proc/loadavg",
      interval: 5,
      timeout: 5
    })
    expect(JSON.parse(ws.messages[0]!)).toEqual({ type: "data", data: first })
    const socket = await open(tokens.get("main")!)
    await socket.request("batch_update_metadata", {
      metadata: [
        { key: "load", result: { collected_at: "2030-01-01T10:00:00Z", age: 1, value: "0.5", error: "" } },
        { key: "extra", result: { collected_at: "2030-01-01T10:00:00Z", value: "x" } }
      ]
    })
    await eventually(() => dataOf().length === 2 && ws.messages.length === 2)
    const second = dataOf()[1]
    expect(second.map((m: any) => [m.description.key, m.result.value])).toEqual([["load", "0.5"], ["disk", ""], [
      "extra",
      "x"
    ]])
    expect(second[0].result).toEqual({ collected_at: "2030-01-01T10:00:00.000Z", age: 1, value: "0.5", error: "" })
    expect(JSON.parse(ws.messages[1]!).data).toEqual(second)
    await sse.stop()
    ws.socket.close()
    await socket.close()
  })

  it("watch-metadata answers 401 without a token, 404 to who may not read the workspace or for an unknown agent, 400 for a bad id", async () => {
    const { w, tokens } = await workspace()
    const agentId = (await agentRecord(w.id, "main")).id as string
    const stranger = await createUser(owner, { username: uniqueName("rpc-stranger") })
    expectResponse(await dev.client.as(undefined).get(`/workspaceagents/${agentId}/watch-metadata`), 401)
    expectResponse(await dev.client.as(tokens.get("main")!).get(`/workspaceagents/${agentId}/watch-metadata`), 401)
    expectResponse(await stranger.client.get(`/workspaceagents/${agentId}/watch-metadata`), 404)
    expectResponse(await dev.client.get(`/workspaceagents/${UNKNOWN_ID}/watch-metadata`), 404)
    expectValidations(await dev.client.get("/workspaceagents/not-a-uuid/watch-metadata"), ["workspaceagent"])
    expect(
      (await refusal(connect(`${srv.wsUrl}/api/v2/workspaceagents/${agentId}/watch-metadata-ws`, {
        [SESSION_HEADER]: stranger.client.token!
      }))).status
    ).toBe(404)
  })

  it("update_stats answers the report interval; GET /deployment/stats sums the reports", async () => {
    const base = (await owner.get("/deployment/stats")).body
    const { tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    const stats = {
      connections_by_proto: { ssh: 1 },
      connection_count: 1,
      connection_median_latency_ms: 12.5,
      rx_packets: 10,
      rx_bytes: 1000,
      tx_packets: 5,
      tx_bytes: 500,
      session_count_vscode: 1,
      session_count_jetbrains: 0,
      session_count_reconnecting_pty: 0,
      session_count_ssh: 2
    }
    expect((await socket.request("update_stats", { stats })).result).toEqual({ report_interval_seconds: 30 })
    expect(
      (await socket.request("update_stats", {
        stats: { ...stats, session_count_ssh: 1, connection_median_latency_ms: 20 }
      })).result
    )
      .toEqual({ report_interval_seconds: 30 })
    const after = await flushed(
      async () => (await owner.get("/deployment/stats")).body,
      (body) => body.workspaces.rx_bytes - base.workspaces.rx_bytes >= 2000
    )
    expect(after.workspaces.rx_bytes - base.workspaces.rx_bytes).toBe(2000)
    expect(after.workspaces.tx_bytes - base.workspaces.tx_bytes).toBe(1000)
    // Sessions as each agent last reported them.
    expect(after.session_count.ssh - base.session_count.ssh).toBe(1)
    expect(after.session_count.vscode - base.session_count.vscode).toBe(1)
    expect(after.workspaces.connection_latency_ms.P50).toBeGreaterThan(0)
    // A member may not read the deployment stats.
    expectResponse(await dev.client.get("/deployment/stats"), 403)
    await socket.close()
  })

  it("an open connection is closed (1000, with the reason) once a newer build replaces its agent", async () => {
    const { w, tokens } = await workspace()
    const socket = await open(tokens.get("main")!)
    await socket.request("heartbeat")
    const side = await open(tokens.get("side")!)
    expect((await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" })).status).toBe(200)
    await runJobs(srv)
    const closed = await socket.ws.closed
    expect(closed.code).toBe(1000)
    expect(closed.reason).toContain("replaced")
    expect((await side.ws.closed).code).toBe(1000)
  })

  it("a stopped workspace's agent token is refused at the handshake", async () => {
    const { w, tokens } = await workspace()
    expect((await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" })).status).toBe(200)
    await runJobs(srv)
    expect((await refusal(connect(rpcUrl(), { "Service-Session-Token": tokens.get("main")! }))).status).toBe(401)
  })
})
