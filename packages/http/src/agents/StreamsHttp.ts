/**
 * Handlers of the stream routes (docs/agents.md, "Into the workspace"). A user's stream is checked
 * by core's `AgentStreams.prepare`; served here, the client's socket is held, the agent is asked
 * for the stream on its connection, and the socket the agent opens back
 * (`/workspaceagents/me/streams/{stream}`) is joined to it (WebSocketSplice.ts). Served by
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
import { Deferred, Duration, Effect } from "effect"
import type { WebSocket } from "ws"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { relayedRequest, relayHeaders } from "../Relay.js"
import { relayWebSocket, upgradeRawWebSocket } from "../WebSocket.js"
import { closeSocket, type HeldSocket, holdSocket, splice } from "../WebSocketSplice.js"

/** Streams this process waits for the agent to open, by replica and stream id. */
const waiting = new Map<string, { readonly agentId: string; readonly end: Deferred.Deferred<HeldSocket> }>()
const waitKey = (replicaId: string, streamId: string) => `${replicaId}/${streamId}`

/** The client's side of a stream served here: hold its socket, ask the agent, join the agent's socket to it. */
const serveHere = (plan: Extract<StreamPlan, { _tag: "Here" }>, replicaId: string) => (ws: WebSocket) =>
  Effect.gen(function*() {
    const client = holdSocket(ws)
    const key = waitKey(replicaId, plan.streamId)
    const end = yield* Deferred.make<HeldSocket>()
    waiting.set(key, { agentId: plan.agentId, end })
    const agent = yield* plan.open.pipe(
      Effect.zipRight(Deferred.await(end)),
      Effect.timeoutFail({
        duration: Duration.seconds(STREAM_OPEN_TIMEOUT_SECONDS),
        onTimeout: () => new BadGateway({ message: "The workspace agent did not open the stream.", detail: "" })
      }),
      Effect.ensuring(Effect.sync(() => waiting.delete(key))),
      Effect.tapError((e) => Effect.sync(() => closeSocket(ws, 1011, e.message))),
      Effect.option
    )
    if (agent._tag === "None") return
    yield* splice(client, agent.value)
  })

const userStream = (ref: string, request: StreamRequest) =>
  Effect.gen(function*() {
    const { ctx, relayed, self } = yield* relayedRequest
    const plan = yield* Effect.flatMap(AgentStreams, (s) => s.prepare(ref, request, { ip: ctx.ip, relayed }))
    if (plan._tag === "Relay") {
      return relayWebSocket({ address: plan.address, headers: relayHeaders(self.relaySecret, ctx.ip) })
    }
    return yield* upgradeRawWebSocket(serveHere(plan, self.id))
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
      const wait = waiting.get(waitKey(self.id, path.stream.toLowerCase()))
      if (wait === undefined || wait.agentId !== session.agent.id) return yield* NotFound.resource("Stream")
      waiting.delete(waitKey(self.id, path.stream.toLowerCase()))
      // The agent's socket lives as long as the client's session joins it; this session only hands it over.
      return yield* upgradeRawWebSocket((ws) =>
        Effect.zipRight(
          Deferred.succeed(wait.end, holdSocket(ws)),
          Effect.async<void>((resume) => {
            if (ws.readyState === ws.CLOSED) return resume(Effect.void)
            ws.once("close", () => resume(Effect.void))
          })
        )
      )
    })
})
