/**
 * The task conversation over the real agent connection: a real server on a real port, real SQLite,
 * a real WebSocket with `ws`. Input sent with `TaskConversation.send` arrives on the agent's open
 * connection as a `task_input` notification; output the agent reports with `append_task_log` shows
 * in the conversation's logs; without an open connection, input is refused.
 */
import { TaskAgentUnavailable, TaskConversation } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, createUser, type ServiceTestServer, startWithOwner, type TestUser } from "../support.js"
import { connect, eventually } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner } from "./fixtures.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
`

describe("task input and output over the agent connection", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      agentMonitor: false
    }))
    dev = await createUser(owner, { username: "task-dev" })
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  const conversation = <A, E>(f: (c: TaskConversation) => Effect.Effect<A, E>) =>
    srv.run(Effect.flatMap(TaskConversation, f))

  it("delivers input as task_input and stores the output the agent reports", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const agentId = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].id as string
    const refused = await conversation((c) => Effect.flip(c.send({ workspaceId: w.id, agentId, content: "early" })))
    expect(refused).toBeInstanceOf(TaskAgentUnavailable)

    const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      "Service-Session-Token": handed.get(w.id)!.get("main")!
    })
    ws.socket.send(JSON.stringify({ type: "ping", id: 1 }))
    await eventually(() => ws.messages.length === 1)

    const entry = await conversation((c) => c.send({ workspaceId: w.id, agentId, content: "fix the bug" }))
    await eventually(() => ws.messages.length === 2)
    expect(JSON.parse(ws.messages[1]!)).toEqual({
      type: "task_input",
      entry_id: entry.id,
      content: "fix the bug",
      time: entry.time.toISOString()
    })

    ws.socket.send(
      JSON.stringify({ type: "append_task_log", id: 2, entries: [{ type: "output", content: "fixed it" }] })
    )
    // A notification (no id) is answered only when it fails.
    ws.socket.send(
      JSON.stringify({ type: "append_task_log", entries: [{ content: "and tested it", time: "2030-01-01T00:00:00Z" }] })
    )
    ws.socket.send(JSON.stringify({ type: "append_task_log", id: 3, entries: [{ type: "input", content: 1 }] }))
    ws.socket.send(JSON.stringify({ type: "append_task_log", id: 4, entries: [{ content: "nul \u0000 inside" }] }))
    await eventually(() => ws.messages.length === 5)
    const answers = ws.messages.slice(2).map((m) => JSON.parse(m))
    expect(answers[0]).toMatchObject({ id: 2, result: { ids: [expect.any(Number)] } })
    expect(answers[1].id).toBe(3)
    expect(answers[1].error.message).toBe("Validation failed.")
    expect(answers[1].error.detail).toMatch(/entries\.0\.type: .*; entries\.0\.content: /)
    expect(answers[2]).toEqual({
      id: 4,
      error: { message: "Validation failed.", detail: "entries.0.content: Must not contain NUL characters." }
    })

    const logs = await conversation((c) => c.logs({ workspaceId: w.id, live: true }))
    expect(logs.snapshot).toBe(false)
    expect(logs.logs.map((e) => [e.type, e.content])).toEqual([["input", "fix the bug"], ["output", "fixed it"], [
      "output",
      "and tested it"
    ]])
    expect(logs.logs[2]!.time.toISOString()).toBe("2030-01-01T00:00:00.000Z")

    ws.socket.close(1000)
    await ws.closed
    // Closed (once the server has recorded it): input is refused again, and nothing more is recorded.
    for (
      let i = 0;
      i < 100 && (await dev.client.get(`/workspaceagents/${agentId}`)).body.status !== "disconnected";
      i++
    ) {
      await new Promise((r) => setTimeout(r, 20))
    }
    const after = await conversation((c) => Effect.flip(c.send({ workspaceId: w.id, agentId, content: "late" })))
    expect(after).toBeInstanceOf(TaskAgentUnavailable)
    const snapshot = await conversation((c) => c.logs({ workspaceId: w.id, live: false }))
    expect(snapshot.logs).toHaveLength(3)
    expect(snapshot.snapshot).toBe(true)
    expect(snapshot.snapshot_at?.toISOString()).toBe("2030-01-01T00:00:00.000Z")
  })
})
