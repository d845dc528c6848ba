/**
 * Support of the connection route tests: a provisioner that records the agent tokens it is
 * handed, a template with agents, JSON messages of a socket, and setting an agent's connection
 * times straight in its row (the agent connection that sets them is another route's).
 */
import { SqlClient } from "@effect/sql"
import { publishWorkspaceChange } from "@workbay/core"
import { Effect } from "effect"
import type { ServiceTestServer } from "../support.js"
import { eventually, type WsResult } from "../websocket.js"
import { recordingProvisioner as recording } from "./fixtures.js"

export const AGENTS_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
      - name: side
build:
  logs: ["Building the box", "Box built"]
`

/** The built-in provisioner recording each build's agent tokens (fixtures.ts), with a lookup by workspace and agent name. */
export const recordingProvisioner = (names: ReadonlyArray<string> = ["main", "side"]) => {
  const handed = new Map<string, Map<string, string>>()
  const provisioner = recording(names, handed)
  return { provisioner, token: (workspaceId: string, name = "main") => handed.get(workspaceId)?.get(name) }
}

/** The socket's messages, parsed. */
export const json = (ws: WsResult): Array<any> => ws.messages.map((m) => JSON.parse(m))

/** Waits for a message matching `match` among those received after the first `from`; answers it. */
export const waitFor = async (ws: WsResult, match: (m: any) => boolean, from = 0, ms = 5000) => {
  let found: any
  await eventually(() => (found = json(ws).slice(from).find(match)) !== undefined, ms)
  return found
}

export const send = (ws: WsResult, message: unknown) =>
  ws.socket.send(typeof message === "string" ? message : JSON.stringify(message))

/** Sets an agent's connection times in its row and signals its workspace's watchers, as the agent connection does. */
export const setAgentConnected = (srv: ServiceTestServer, agentId: string, workspaceId: string, at = new Date()) =>
  srv.run(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE workspace_agents SET first_connected_at = ${at.toISOString()}, last_connected_at = ${at.toISOString()}
        WHERE id = ${agentId}`.pipe(Effect.orDie)
      yield* publishWorkspaceChange(workspaceId)
    }) as Effect.Effect<void>
  )

/** A tailnet node as the described system's agents and clients send it (opaque to the service). */
export const node = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  as_of: new Date().toISOString(),
  key: `nodekey:${id.toString(16).padStart(64, "0")}`,
  disco: `discokey:${id.toString(16).padStart(64, "1")}`,
  preferred_derp: 999,
  derp_latency: { "999-v4": 0.01 },
  derp_forced_websockets: {},
  addresses: [`fd7a:115c:a1e0::${id}/128`],
  allowed_ips: [`fd7a:115c:a1e0::${id}/128`],
  endpoints: ["192.0.2.1:41641"],
  ...extra
})

/** Sets an agent's lifecycle state in its row and signals its workspace's watchers, as the agent's `update_lifecycle` does. */
export const setAgentLifecycle = (srv: ServiceTestServer, agentId: string, workspaceId: string, state: string) =>
  srv.run(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE workspace_agents SET lifecycle_state = ${state} WHERE id = ${agentId}`.pipe(Effect.orDie)
      yield* publishWorkspaceChange(workspaceId)
    }) as Effect.Effect<void>
  )
