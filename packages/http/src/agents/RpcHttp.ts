/** Handlers of the agent connection group: the socket is bridged to the core's protocol (`serveAgentConnection`). */
import {
  AGENT_REPLACED_REASON,
  AgentManifests,
  AgentMetadataWatch,
  AgentReinit,
  scopedInPlace,
  serveAgentConnection,
  withAppTunnel
} from "@workbay/core"
import { Effect, Stream } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { eventStream, followEvents } from "../ServerSentEvents.js"
import { CloseCode, streamSession, upgradeWebSocket } from "../WebSocket.js"

export const AgentRpcHttp = implement(WorkbayApi, "agentRpc", {
  rpc: () =>
    upgradeWebSocket((connection) =>
      // The connection also carries requests to the agent's web apps (withAppTunnel, docs/agents.md "Web apps").
      withAppTunnel({
        // The peer's messages until the socket closes.
        receive: Effect.orElseSucceed(connection.receive, () => undefined),
        send: (text) => Effect.ignore(connection.send(text)),
        nextRoundTrip: Effect.orElseSucceed(connection.nextRoundTrip, () => undefined),
        latestRoundTrip: connection.latestRoundTrip,
        closeReplaced: connection.close(CloseCode.normal, AGENT_REPLACED_REASON)
      }).pipe(
        // A replaced agent's connection was closed with the reason already.
        Effect.flatMap(serveAgentConnection),
        // The session's scope over the handler's services, not a copy of them (some 7 KB a connected agent).
        scopedInPlace
      )
    ),
  manifest: () => Effect.flatMap(AgentManifests, (m) => m.manifest),
  reinit: () =>
    Effect.flatMap(
      AgentReinit,
      (r) => followEvents(Effect.map(r.follow, (next) => Effect.map(next, (data) => ({ event: "data", data }))))
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
