/**
 * Handlers of the stream routes (docs/agents.md, "Into the workspace"). A user's stream is checked
 * by core's `AgentStreams.prepare`; served here, the client's socket is held, the agent is asked
 * for the stream on its connection, and the socket the agent opens back
 * (`/workspaceagents/me/streams/{stream}`) is handed over (StreamEnds.ts) and joined to it
 * (WebSocketSplice.ts: in this process, or in the socket relay's, SocketRelay.ts). Served by
 * another replica, the request is relayed to it (Relay.ts), as is an agent's end of a stream
 * another replica waits for.
 */
import {
  AgentStreams,
  BadGateway,
  CurrentAgent,
  NotFound,
  STREAM_OPEN_TIMEOUT_SECONDS,
  type StreamPlan,
  type StreamRequest
} from "@workbay/core"
import { Duration, Effect, Option } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { relayedRequest, relayHeaders } from "../Relay.js"
import { relayWebSocket, upgradeStreamEnd } from "../WebSocket.js"
import { closeEnd, endClosed, spliceEnds, type StreamEnd } from "../WebSocketSplice.js"
import { StreamEnds } from "./StreamEnds.js"

/** The client's end of a stream served here: ask the agent, join the agent's end to it. */
const serveHere = (plan: Extract<StreamPlan, { _tag: "Here" }>, replicaId: string) => (client: StreamEnd) =>
  Effect.gen(function*() {
    const agent = yield* Effect.scoped(
      Effect.flatMap(StreamEnds, (ends) => ends.expect(replicaId, plan.streamId, plan.agentId)).pipe(
        Effect.flatMap((agentEnd) => Effect.zipRight(plan.open, agentEnd)),
        Effect.timeoutFail({
          duration: Duration.seconds(STREAM_OPEN_TIMEOUT_SECONDS),
          onTimeout: () => new BadGateway({ message: "The workspace agent did not open the stream.", detail: "" })
        })
      )
    ).pipe(
      Effect.tapError((e) => Effect.sync(() => closeEnd(client, 1011, e.message))),
      Effect.option
    )
    if (agent._tag === "None") return
    yield* spliceEnds(client, agent.value)
  })

const userStream = (ref: string, request: StreamRequest) =>
  Effect.gen(function*() {
    const { ctx, relayed, self } = yield* relayedRequest
    const plan = yield* Effect.flatMap(AgentStreams, (s) => s.prepare(ref, request, { ip: ctx.ip, relayed }))
    if (plan._tag === "Relay") {
      return relayWebSocket({ address: plan.address, headers: relayHeaders(self.relaySecret, ctx.ip) })
    }
    // A tunnel's or an SSH session's client may send larger frames (StreamFrames.ts); a terminal's keeps the cap.
    return yield* upgradeStreamEnd(serveHere(plan, self.id), { byteStream: request.kind !== "pty" })
  })

export const AgentStreamsHttp = implement(WorkbayApi, "agentStreams", {
  pty: ({ path, urlParams }) => userStream(path.workspaceagent, { kind: "pty", query: urlParams }),
  tunnel: ({ path, urlParams }) => userStream(path.workspaceagent, { kind: "tcp", port: urlParams.port }),
  ssh: ({ path }) => userStream(path.workspaceagent, { kind: "ssh" })
})

export const AgentStreamEndHttp = implement(WorkbayApi, "agentStreamEnd", {
  stream: ({ path, urlParams }) =>
    Effect.gen(function*() {
      const { ctx, relayed, self } = yield* relayedRequest
      const side = yield* Effect.flatMap(AgentStreams, (s) => s.agentSide(urlParams.replica, relayed))
      if (side._tag === "Relay") {
        return relayWebSocket({ address: side.address, headers: relayHeaders(self.relaySecret, ctx.ip) })
      }
      const session = yield* CurrentAgent
      const wait = yield* Effect.flatMap(StreamEnds, (ends) => ends.take(self.id, path.stream, session.agent.id))
      if (Option.isNone(wait)) return yield* NotFound.resource("Stream")
      // The agent's end lives as long as the client's session joins it; this session only hands it over.
      return yield* upgradeStreamEnd((end) => Effect.zipRight(wait.value(end), endClosed(end)))
    })
})
