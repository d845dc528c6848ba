/**
 * Task input across replicas: two services on one Postgres schema. The agent's connection is open
 * on replica B; input sent through replica A's `TaskConversation` reaches it as `task_input`
 * (the entry's id through LISTEN/NOTIFY, the entry read from the database), and the output it
 * reports on B shows in A's logs.
 */
import { TaskConversation } from "@workbay/core"
import { Effect } from "effect"
import { describe, expect, inject, it } from "vitest"
import { AGENTS_TEMPLATE, recordingProvisioner, send, waitFor } from "../../http/test/agents/tailnet.js"
import { type ServiceTestServer, SESSION_HEADER } from "../../http/test/support.js"
import { connect } from "../../http/test/websocket.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import { twoReplicas } from "./replicas.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("task input across replicas on Postgres", () => {
  const recording = recordingProvisioner()
  const replicas = twoReplicas(url, recording.provisioner)

  it(
    "input sent on replica A reaches the agent connected to replica B; its output shows on A",
    { timeout: 60_000 },
    async () => {
      const { a, b, owner, orgId } = replicas
      const template = await makeTemplate(a, owner, orgId, AGENTS_TEMPLATE)
      const w = await makeWorkspace(a, owner, orgId, template.id)
      const agentId = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents).find((x: any) =>
        x.name === "main"
      ).id as string
      const agent = await connect(`${b.wsUrl}/api/v2/workspaceagents/me/rpc`, {
        [SESSION_HEADER]: recording.token(w.id)!
      })
      send(agent, { type: "ping", id: 1 })
      await waitFor(agent, (m) => m.id === 1, 0, 10_000)
      const conversation = <X, E>(srv: ServiceTestServer, f: (c: TaskConversation) => Effect.Effect<X, E>) =>
        srv.run(Effect.flatMap(TaskConversation, f))
      const entry = await conversation(a, (c) => c.send({ workspaceId: w.id, agentId, content: "from replica A" }))
      expect(await waitFor(agent, (m) => m.type === "task_input", 0, 10_000)).toEqual({
        type: "task_input",
        entry_id: entry.id,
        content: "from replica A",
        time: entry.time.toISOString()
      })
      send(agent, { type: "append_task_log", id: 2, entries: [{ content: "answered on B" }] })
      await waitFor(agent, (m) => m.id === 2, 0, 10_000)
      const logs = await conversation(a, (c) => c.logs({ workspaceId: w.id, live: true }))
      expect(logs.logs.map((e) => [e.type, e.content])).toEqual([["input", "from replica A"], [
        "output",
        "answered on B"
      ]])
      agent.socket.close()
    }
  )
})
