/**
 * The stream routes over real HTTP and real WebSockets (docs/agents.md, "Into the workspace"):
 * `pty`, `tunnel` and `ssh` to an agent, whose other end a test agent opens back on
 * `/workspaceagents/me/streams/{stream}` when asked on its real connection. What is checked here is
 * the service's part: who may open what, the `stream_open` message, the joining of the two sockets
 * (frames as they came, closes passed on, oversized frames refused). The reference agent's part
 * (a real terminal, TCP, SSH) is tested in packages/agent and end to end in packages/server.
 */
import { PortShareRepo } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import type { SocketRelayOptions } from "../../src/SocketRelay.js"
import {
  type Client,
  createUser,
  expectValidations,
  type ServiceTestServer,
  socketRelayFromSource,
  socketRelayPids,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { connect, refusal, type WsResult } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner } from "./fixtures.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
`

/**
 * The test agent's end of a stream: echoes a tunnel's bytes, answers a terminal's frames as output,
 * refuses port 1. Its listener is attached before the socket opens: frames may come with the handshake.
 */
const serveStream = (url: string, token: string, open: any) => {
  const end = new WebSocket(url, { headers: { "Service-Session-Token": token } })
  // A client that left before the agent came answers 404 here: nothing to serve.
  end.on("error", () => undefined)
  if (open.kind === "tcp" && open.port === 1) {
    end.once("open", () => end.close(1011, "connect ECONNREFUSED 127.0.0.1:1"))
    return
  }
  end.on("message", (data, isBinary) => {
    if (open.kind === "pty") end.send(Buffer.from(`got ${isBinary ? "binary" : "text"}: ${data.toString()}`))
    else {
      // In frames of at most 16 KiB, as the reference agent sends: its end keeps the service's cap.
      const bytes = data as Buffer
      for (let i = 0; i < bytes.length; i += 16 * 1024) end.send(bytes.subarray(i, i + 16 * 1024), { binary: isBinary })
    }
  })
}

/** The pids of this process's socket relays (SocketRelayMain.ts started by SocketRelay.ts). */
describe.each<[string, SocketRelayOptions | undefined]>([
  ["joined in the service's process", undefined],
  ["joined in the socket relay's process", socketRelayFromSource]
])("streams into a workspace: pty, tunnel, ssh, %s", (_, streamRelay) => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let stranger: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()
  const opened: Array<any> = []

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      agentMonitor: false,
      http: { streamRelay }
    }))
    dev = await createUser(owner)
    stranger = await createUser(owner)
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  /** A workspace of `dev` whose agent is connected: the agent's id, its connection, its token. */
  const connectedAgent = async (answer = true) => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const agent = w.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    const token = handed.get(w.id)!.get("main")!
    const rpc = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { "Service-Session-Token": token })
    rpc.socket.on("message", async (data) => {
      const message = JSON.parse(data.toString())
      if (message.type !== "stream_open") return
      opened.push(message)
      if (!answer) return
      serveStream(new URL(message.path, srv.wsUrl).toString(), token, message)
    })
    // The connection is recorded as it opens.
    for (let i = 0; i < 50; i++) {
      if ((await dev.client.get(`/workspaceagents/${agent.id}`)).body.status === "connected") break
      await new Promise((r) => setTimeout(r, 20))
    }
    return { w, agentId: agent.id as string, token, rpc }
  }

  const open = (client: Client, path: string) =>
    connect(`${srv.wsUrl}/api/v2${path}`, { "Service-Session-Token": client.token ?? "" })
  /** The kind of the latest stream the agent was asked for, once it is `kind`. */
  const askedFor = async (kind: string) => {
    for (let i = 0; i < 100 && opened.at(-1)?.kind !== kind; i++) await new Promise((r) => setTimeout(r, 20))
    return opened.at(-1)
  }
  const nextMessage = (ws: WsResult) =>
    new Promise<{ data: Buffer; isBinary: boolean }>((resolve) =>
      ws.socket.once("message", (data, isBinary) => resolve({ data: data as Buffer, isBinary }))
    )

  it("a tunnel carries bytes both ways, and the agent is told the port, the client and the caller", async () => {
    const { agentId, rpc } = await connectedAgent()
    const ws = await open(dev.client, `/workspaceagents/${agentId}/tunnel?port=8080`)
    const payload = Buffer.alloc(16 * 1024, 7)
    const echoed = nextMessage(ws)
    ws.socket.send(payload)
    const back = await echoed
    expect(back.isBinary).toBe(true)
    expect(Buffer.compare(back.data, payload)).toBe(0)
    const message = opened.at(-1)
    expect(message).toMatchObject({ type: "stream_open", kind: "tcp", port: 8080, user: dev.user.username })
    expect(message.path).toMatch(/^\/api\/v2\/workspaceagents\/me\/streams\/[0-9a-f-]{36}\?replica=/)
    expect(message.remote_address).toBe("127.0.0.1")
    ws.socket.close(1000)
    await ws.closed
    rpc.socket.close()
  })

  it("a terminal passes the client's JSON frames to the agent and its output back as binary", async () => {
    const { agentId, rpc } = await connectedAgent()
    const reconnect = crypto.randomUUID()
    const ws = await open(dev.client, `/workspaceagents/${agentId}/pty?reconnect=${reconnect}&width=120&height=40`)
    const out = nextMessage(ws)
    ws.socket.send(JSON.stringify({ data: "ls\r" }))
    const back = await out
    expect(back.isBinary).toBe(true)
    expect(back.data.toString()).toBe(`got text: {"data":"ls\\r"}`)
    expect(opened.at(-1)).toMatchObject({ kind: "pty", reconnect, width: 120, height: 40, command: "" })
    ws.socket.close(1000)
    rpc.socket.close()
  })

  it("ssh asks the agent for an ssh stream; the owner's shared user with `use` may open it", async () => {
    const { w, agentId, rpc } = await connectedAgent()
    const ws = await open(dev.client, `/workspaceagents/${agentId}/ssh`)
    expect(await askedFor("ssh")).toMatchObject({ kind: "ssh" })
    ws.socket.close(1000)
    // Not yet shared: the stranger learns nothing (404), before any upgrade.
    expect((await refusal(open(stranger.client, `/workspaceagents/${agentId}/ssh`))).status).toBe(404)
    expect((await dev.client.patch(`/workspaces/${w.id}/acl`, { user_roles: { [stranger.user.id]: "use" } })).status)
      .toBe(204)
    const shared = await open(stranger.client, `/workspaceagents/${agentId}/pty`)
    shared.socket.close(1000)
    rpc.socket.close()
  })

  it("the agent's refusal closes the client's socket with 1011 and its reason", async () => {
    const { agentId, rpc } = await connectedAgent()
    const ws = await open(dev.client, `/workspaceagents/${agentId}/tunnel?port=1`)
    expect(await ws.closed).toEqual({ code: 1011, reason: "connect ECONNREFUSED 127.0.0.1:1" })
    rpc.socket.close()
  })

  it("a frame over the message limit closes the socket with 1009", async () => {
    const { agentId, rpc } = await connectedAgent()
    const ws = await open(dev.client, `/workspaceagents/${agentId}/pty`)
    // A terminal's end takes the service's cap (32 KiB here), and says nothing of frames.
    expect(ws.headers["x-workbay-max-frame-bytes"]).toBeUndefined()
    ws.socket.send(Buffer.alloc(40 * 1024))
    expect((await ws.closed).code).toBe(1009)
    rpc.socket.close()
  })

  it("a tunnel's and an SSH session's end say they take frames of 64 KiB, carry one, and close a larger one with 1009", async () => {
    const { agentId, rpc } = await connectedAgent()
    const ws = await open(dev.client, `/workspaceagents/${agentId}/tunnel?port=8080`)
    expect(ws.headers["x-workbay-max-frame-bytes"]).toBe("65536")
    const payload = Buffer.alloc(64 * 1024)
    for (let i = 0; i < payload.length; i++) payload[i] = (i * 31) & 0xff
    const back: Array<Buffer> = []
    const echoed = new Promise<void>((resolve) =>
      ws.socket.on("message", (data) => {
        back.push(data as Buffer)
        if (back.reduce((n, b) => n + b.length, 0) >= payload.length) resolve()
      })
    )
    ws.socket.send(payload)
    await echoed
    expect(Buffer.concat(back).equals(payload)).toBe(true)
    ws.socket.send(Buffer.alloc(64 * 1024 + 1))
    expect((await ws.closed).code).toBe(1009)
    const ssh = await open(dev.client, `/workspaceagents/${agentId}/ssh`)
    expect(ssh.headers["x-workbay-max-frame-bytes"]).toBe("65536")
    ssh.socket.close(1000)
    rpc.socket.close()
  })

  it("a tunnel to a port shared with the organization opens for a member; other ports answer 403", async () => {
    const { w, agentId, rpc } = await connectedAgent()
    await srv.run(Effect.flatMap(PortShareRepo, (r) =>
      r.upsert({
        workspace_id: w.id,
        agent_name: "main",
        port: 3000,
        share_level: "organization",
        protocol: "http"
      })))
    // The member may read no workspace of dev's: 404 for a port nobody shared.
    expect((await refusal(open(stranger.client, `/workspaceagents/${agentId}/tunnel?port=3001`))).status).toBe(404)
    const ws = await open(stranger.client, `/workspaceagents/${agentId}/tunnel?port=3000`)
    const echoed = nextMessage(ws)
    ws.socket.send(Buffer.from("hello"))
    expect((await echoed).data.toString()).toBe("hello")
    ws.socket.close(1000)
    // A template admin reads the workspace but may not ssh into it: 403 for an unshared port.
    const admin = await createUser(owner, { roles: ["template-admin"] })
    const refused = await refusal(open(admin.client, `/workspaceagents/${agentId}/tunnel?port=3001`))
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe("You may not reach this port.")
    rpc.socket.close()
  })

  it("answers before any upgrade: 401 without a key, 404 unknown, 400 bad input, 400 when not connected", async () => {
    const { agentId, rpc, token } = await connectedAgent()
    expect((await refusal(connect(`${srv.wsUrl}/api/v2/workspaceagents/${agentId}/pty`))).status).toBe(401)
    // An agent's token is not a user's key.
    expect(
      (await refusal(
        connect(`${srv.wsUrl}/api/v2/workspaceagents/${agentId}/pty`, { "Service-Session-Token": token })
      )).status
    ).toBe(401)
    expect((await refusal(open(dev.client, `/workspaceagents/${UNKNOWN_ID}/ssh`))).status).toBe(404)
    const bad = await refusal(open(dev.client, `/workspaceagents/${agentId}/tunnel?port=0`))
    expect(bad.status).toBe(400)
    expectValidations({ status: bad.status, body: bad.body, headers: {} } as any, ["port"])
    const missing = await refusal(open(dev.client, `/workspaceagents/${agentId}/tunnel`))
    expectValidations({ status: missing.status, body: missing.body, headers: {} } as any, ["port"])
    const badPty = await refusal(open(dev.client, `/workspaceagents/${agentId}/pty?reconnect=x&width=0`))
    expectValidations({ status: badPty.status, body: badPty.body, headers: {} } as any, ["reconnect", "width"])
    expect((await refusal(open(dev.client, `/workspaceagents/not-an-id/ssh`))).status).toBe(400)
    rpc.socket.close()
    await rpc.closed
    let r: Awaited<ReturnType<typeof refusal>> | undefined
    for (let i = 0; i < 50; i++) {
      r = await refusal(open(dev.client, `/workspaceagents/${agentId}/ssh`))
      if (r.status === 400) break
      await new Promise((done) => setTimeout(done, 20))
    }
    expect(r!.status).toBe(400)
    expect(r!.body.message).toBe("Agent state is not connected.")
  })

  it("the agent's end: 401 without its token, 404 for a stream nobody waits for or another agent's", async () => {
    const { token, rpc } = await connectedAgent(false)
    const other = await connectedAgent(false)
    const endUrl = (id: string) => `${srv.wsUrl}/api/v2/workspaceagents/me/streams/${id}`
    expect((await refusal(connect(endUrl(UNKNOWN_ID)))).status).toBe(401)
    expect((await refusal(connect(endUrl(UNKNOWN_ID), { "Service-Session-Token": token }))).status).toBe(404)
    // A stream asked of `other`'s agent is not this agent's to open.
    const asked = open(dev.client, `/workspaceagents/${other.agentId}/ssh`)
    const client = await asked
    const message = await askedFor("ssh")
    expect(
      (await refusal(connect(new URL(message.path, srv.wsUrl).toString(), { "Service-Session-Token": token }))).status
    ).toBe(404)
    expect((await refusal(connect(`${endUrl("nope")}`, { "Service-Session-Token": token }))).status).toBe(400)
    client.socket.close()
    rpc.socket.close()
    other.rpc.socket.close()
  })

  if (streamRelay !== undefined) {
    it(
      "the relay's process carries the frames: killed, its streams close and the next stream starts it again",
      async () => {
        const { agentId, rpc } = await connectedAgent()
        const first = await open(dev.client, `/workspaceagents/${agentId}/tunnel?port=8080`)
        const echoed = nextMessage(first)
        first.socket.send(Buffer.from("one"))
        expect((await echoed).data.toString()).toBe("one")
        // Counted among the service's open WebSockets while the relay holds them (the client's and the agent's end).
        expect(srv.webSockets.size()).toBeGreaterThanOrEqual(3)
        const pids = socketRelayPids()
        expect(pids).toHaveLength(1)
        process.kill(pids[0]!, "SIGKILL")
        // The stream's sockets were the relay's: they go with it.
        expect((await first.closed).code).toBe(1006)
        const second = await open(dev.client, `/workspaceagents/${agentId}/tunnel?port=8080`)
        const again = nextMessage(second)
        second.socket.send(Buffer.from("two"))
        expect((await again).data.toString()).toBe("two")
        const restarted = socketRelayPids()
        expect(restarted).toHaveLength(1)
        expect(restarted[0]).not.toBe(pids[0])
        second.socket.close(1000)
        expect((await second.closed).code).toBe(1000)
        rpc.socket.close()
      }
    )
  }

  if (streamRelay !== undefined) {
    it(
      "a stopping service closes the relay's streams with 1001 and stops its process",
      async () => {
        const own = await startWithOwner({
          provisioners: [recordingProvisioner(["main"], handed)],
          lifecycle: false,
          agentMonitor: false,
          http: { streamRelay }
        })
        const before = socketRelayPids()
        const user = await createUser(own.owner)
        const t = await makeTemplate(own.srv, own.owner, own.orgId, TEMPLATE)
        const w = await makeWorkspace(own.srv, user.client, own.orgId, t.id)
        const agent = w.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
        const token = handed.get(w.id)!.get("main")!
        const rpc = await connect(`${own.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { "Service-Session-Token": token })
        rpc.socket.on("message", (data) => {
          const message = JSON.parse(data.toString())
          if (message.type === "stream_open") {
            serveStream(new URL(message.path, own.srv.wsUrl).toString(), token, message)
          }
        })
        for (let i = 0; i < 50; i++) {
          if ((await user.client.get(`/workspaceagents/${agent.id}`)).body.status === "connected") break
          await new Promise((r) => setTimeout(r, 20))
        }
        const ws = await connect(`${own.srv.wsUrl}/api/v2/workspaceagents/${agent.id}/tunnel?port=8080`, {
          "Service-Session-Token": user.client.token ?? ""
        })
        const echoed = nextMessage(ws)
        ws.socket.send(Buffer.from("up"))
        expect((await echoed).data.toString()).toBe("up")
        const started = socketRelayPids().filter((pid) => !before.includes(pid))
        expect(started).toHaveLength(1)
        await own.srv.close()
        expect(await ws.closed).toEqual({ code: 1001, reason: "The server is shutting down." })
        expect(socketRelayPids()).not.toContain(started[0])
      }
    )
  }
})
