/** Handlers of the connection routes: the checks happen before the upgrade; the sessions are core's. */
import { AGENT_REPLACED_REASON, ConnectionWatch, Coordinator, RelayMap } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { CloseCode, followSession, streamSession, upgradeMessageHandler, upgradeWebSocket } from "../WebSocket.js"

export const TailnetHttp = implement(WorkbayApi, "tailnet", {
  derpMap: () =>
    Effect.flatMap(RelayMap, (relays) => upgradeWebSocket(followSession((sendLatest) => relays.listen(sendLatest)))),
  coordinate: () => Effect.flatMap(Coordinator, (c) => upgradeWebSocket((conn) => c.serveClient(conn))),
  agentCoordinate: ({ path }) =>
    Effect.flatMap(Coordinator, (c) =>
      Effect.flatMap(
        c.checkAgentClient(path.workspaceagent),
        (agentId) => upgradeWebSocket((conn) => c.serveClient(conn, agentId))
      )),
  agentConnectionWatch: ({ path, urlParams }) =>
    Effect.flatMap(
      ConnectionWatch,
      (w) => w.agentConnection(path.workspace, urlParams.agent_name === "" ? undefined : urlParams.agent_name)
    ).pipe(
      Effect.flatMap((messages) => upgradeWebSocket(streamSession(messages)))
    )
})

export const TailnetAgentHttp = implement(WorkbayApi, "tailnetAgent", {
  coordinate: () =>
    Effect.flatMap(
      Coordinator,
      (c) =>
        // Each message is handed to the open session: no fiber waits between an agent's messages.
        // A replaced agent's connection is closed with the reason by the coordinator.
        upgradeMessageHandler((connection) =>
          Effect.map(
            c.openAgent({
              send: connection.send,
              closeReplaced: connection.close(CloseCode.normal, AGENT_REPLACED_REASON)
            }),
            (open) => open.handle
          )
        )
    )
})
