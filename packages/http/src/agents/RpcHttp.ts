/** Handlers of the agent connection group: the socket is bridged to the core's protocol (`serveAgentConnection`). */
import { AgentManifests, serveAgentConnection } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { upgradeWebSocket } from "../WebSocket.js"

export const AgentRpcHttp = implement(WorkbayApi, "agentRpc", {
  rpc: () =>
    upgradeWebSocket((connection) =>
      serveAgentConnection({
        incoming: connection.messages,
        send: (text) => Effect.ignore(connection.send(text))
      })
    ),
  manifest: () => Effect.flatMap(AgentManifests, (m) => m.manifest)
})
