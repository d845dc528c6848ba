/**
 * A slow agent costs the server bounded memory (issue 44, "Nothing falls over at the edges"): an
 * agent that sends requests on its connection and never reads the answers. The server answers in
 * order and waits for the socket to drain before the next answer, and stops reading once its
 * receive buffer is full, so what it holds for that agent stays near the WebSocket high-water mark
 * however much the agent sends; the agent then reads, and gets every answer, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WEBSOCKET_HIGH_WATER_BYTES } from "../../src/WebSocket.js"
import { type Client, type ServiceTestServer, startWithOwner } from "../support.js"
import { connect, eventually } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner } from "./fixtures.js"

// A manifest of about 40 KB: each answer to get_manifest is large, so a few hundred of them
// would be megabytes if the server buffered them.
const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        env: { BIG: "${"x".repeat(40_000)}" }
`

describe("a slow agent", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      agentMonitor: false
    }))
  })
  afterAll(() => srv.close())

  it("that never reads its answers costs bounded memory, and gets every answer once it reads", async () => {
    const template = await makeTemplate(srv, owner, orgId, TEMPLATE)
    const w = await makeWorkspace(srv, owner, orgId, template.id)
    const token = handed.get(w.id)!.get("main")!
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { "Service-Session-Token": token })
    const raw = (ws.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket
    raw.pause()
    const requests = 400
    for (let id = 1; id <= requests; id++) ws.socket.send(JSON.stringify({ id, type: "get_manifest" }))
    // 400 answers of 40 KB are 16 MB: the server holds about the high-water mark of them.
    await new Promise((r) => setTimeout(r, 1500))
    // (The kernel's buffers hold some; the rest waits in the server, up to about the mark.)
    const held = srv.webSockets.bufferedBytes()
    expect(held).toBeGreaterThan(0)
    expect(held).toBeLessThan(WEBSOCKET_HIGH_WATER_BYTES + 128 * 1024)
    raw.resume()
    await eventually(() => ws.messages.length >= requests, 30_000)
    const ids = ws.messages.map((m) => JSON.parse(m) as { id: number; result?: { agent_id?: string } })
    expect(ids.map((m) => m.id)).toEqual(Array.from({ length: requests }, (_, i) => i + 1))
    expect(ids.every((m) => typeof m.result?.agent_id === "string")).toBe(true)
    ws.socket.close(1000)
    await ws.closed
  })
})
