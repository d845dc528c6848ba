/** Task test support. */
import { SqlClient } from "@effect/sql"
import { hashAgentToken } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { Client, ServiceTestServer } from "../support.js"
import { connect, eventually } from "../websocket.js"

/** An AI task template: the agent `main` runs the app `claude`, and is handed the prompt. */
export const AI_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        env: { PROMPT: "\${task.prompt}", TASK: "\${task.id}" }
        apps:
          - slug: claude
            command: claude
            hidden: true
          - slug: code
            url: http://localhost:8080
ai_task:
  app: claude
`

/**
 * Connects the agent of workspace `workspaceId` (its latest build's first agent) over a real
 * WebSocket on the agent connection, with a token of the test's own: its stored hash is replaced
 * (for servers whose provisioner does not record the tokens it hands out). Answers the socket,
 * with the agent's token beside it (`token`: for the agent's own HTTP routes).
 */
export const connectAgent = async (srv: ServiceTestServer, client: Client, workspaceId: string) => {
  const w = (await client.get(`/workspaces/${workspaceId}`)).body
  const agent = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
  const token = randomUUID()
  await srv.run(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`UPDATE workspace_agents SET auth_token_hash = ${hashAgentToken(token)} WHERE id = ${agent.id}`.pipe(
          Effect.orDie
        )
    ) as Effect.Effect<unknown>
  )
  const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { "Service-Session-Token": token })
  ws.socket.send(JSON.stringify({ type: "update_lifecycle", id: 1, state: "ready" }))
  await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 1))
  return Object.assign(ws, { token })
}
