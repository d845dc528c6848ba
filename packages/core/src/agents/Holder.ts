/**
 * Where a request that needs an agent's connection is served (docs/agents.md, "Several
 * replicas"): the one rule of the stream routes (`pty`, `tunnel`, `ssh`), the path-based apps and
 * the listening ports and the dev container routes. Here when this process holds the agent's connection; else relayed to the
 * replica the agent's row names as its holder (`last_connected_replica_id`), at that replica's
 * relay address; a 502 when there is none to relay to (no holder recorded, a holder that is gone
 * or registered no relay address) and for a request that was itself relayed (a replica never
 * relays a request again). Callers check who may ask, and whether the agent is connected, first.
 */
import { Clock, Effect, Option } from "effect"
import { Replicas } from "../enterprise/Replicas.js"
import { BadGateway, BadRequest } from "../Errors.js"
import type { WorkspaceAgentRecord } from "../workspaces/WorkspaceBuild.js"
import { agentStatus } from "../workspaces/WorkspaceWire.js"

/** Where the request is served: on this replica, or relayed to the one at `address`. */
export type AgentHolder =
  | { readonly _tag: "Here" }
  | { readonly _tag: "Relay"; readonly address: string }

/** The answer for an agent connected to another replica that cannot be relayed to. */
export const notConnectedHere = () =>
  new BadGateway({
    message: "The workspace agent is connected to another replica of the service, which cannot be reached.",
    detail:
      "That replica registered no relay address (derpServerRelayUrl, --derp-server-relay-url), or it is gone; try again once the agent reconnects."
  })

/**
 * Where a request for `agent` is served. `connectedHere`: this process holds the agent's
 * connection (`AgentTunnels.connectedHere`); `relayed`: the request came from another replica.
 */
export const agentHolder = (
  agent: { readonly last_connected_replica_id?: string | null | undefined },
  where: { readonly connectedHere: boolean; readonly relayed: boolean }
): Effect.Effect<AgentHolder, BadGateway, Replicas> =>
  Effect.gen(function*() {
    if (where.connectedHere) return { _tag: "Here" } as const
    const holder = agent.last_connected_replica_id
    if (where.relayed || holder === null || holder === undefined) return yield* notConnectedHere()
    const address = yield* Effect.flatMap(Replicas, (replicas) => replicas.relayAddressOf(holder))
    if (Option.isNone(address)) return yield* notConnectedHere()
    return { _tag: "Relay", address: address.value } as const
  })

/**
 * Where a request that needs the agent connected is served (the streams, listening ports, dev
 * containers): 400 "Agent state is not connected." unless it is, else `agentHolder`'s answer.
 */
export const connectedAgentHolder = (
  agent: WorkspaceAgentRecord,
  where: { readonly connectedHere: boolean; readonly relayed: boolean }
): Effect.Effect<AgentHolder, BadGateway | BadRequest, Replicas> =>
  Effect.gen(function*() {
    const status = agentStatus(agent, yield* Clock.currentTimeMillis)
    if (status !== "connected") {
      return yield* new BadRequest({
        message: "Agent state is not connected.",
        detail: `Current agent state: ${status}`
      })
    }
    return yield* agentHolder(agent, where)
  })
