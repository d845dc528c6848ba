/** Handlers of the agent connection group: the socket is bridged to the core's protocol (`openAgentConnection`). */
import {
  AGENT_REPLACED_REASON,
  AgentManifests,
  AgentMetadataWatch,
  AgentReinit,
  openAgentConnection,
  withAppTunnel
} from "@workbay/core"
import { Effect, Stream } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { eventStream, followEvents } from "../ServerSentEvents.js"
import { CloseCode, streamSession, upgradeMessageHandler, upgradeWebSocket } from "../WebSocket.js"

export const AgentRpcHttp = implement(WorkbayApi, "agentRpc", {
  rpc: () =>
    // Each message is handed to the open connection: no fiber waits between an agent's messages.
    upgradeMessageHandler((connection) =>
      // The connection also carries requests to the agent's web apps (withAppTunnel, docs/agents.md "Web apps").
      withAppTunnel({
        send: (text: string) => Effect.ignore(connection.send(text)),
        nextRoundTrip: Effect.orElseSucceed(connection.nextRoundTrip, () => undefined),
        latestRoundTrip: connection.latestRoundTrip,
        // A replaced agent's connection is closed with the reason.
        closeReplaced: connection.close(CloseCode.normal, AGENT_REPLACED_REASON)
      }).pipe(
        Effect.flatMap(openAgentConnection),
        Effect.map((open) => open.handle)
      )
    ),
  manifest: () => Effect.flatMap(AgentManifests, (m) => m.manifest),
  reinit: () =>
    Effect.flatMap(
      AgentReinit,
      (r) => followEvents((emit) => r.listen((data) => emit({ event: "data", data })))
    )
})

const metadata = (agent: string) => Effect.flatMap(AgentMetadataWatch, (w) => w.watch(agent))

export const AgentMetadataHttp = implement(WorkbayApi, "agentMetadata", {
  watchMetadata: ({ path }) =>
    Effect.flatMap(
      metadata(path.workspaceagent),
      (lists) => eventStream(Stream.map(lists, (data) => ({ event: "data", data })))
    ),
  watchMetadataWs: ({ path }) =>
    Effect.flatMap(
      metadata(path.workspaceagent),
      (lists) => upgradeWebSocket(streamSession(Stream.map(lists, (data) => `{"type":"data","data":${data}}`)))
    )
})
