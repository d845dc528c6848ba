/**
 * Streams into a workspace (docs/agents.md, "Into the workspace: terminals, tunnels and SSH"):
 * the web terminal, TCP tunnels and SSH, each carried by a WebSocket the agent opens back to the
 * service for that stream. This module holds the rules: who may open which stream (through the
 * one evaluator), whether the agent can be reached, and where: on this replica (the agent's
 * connection is here: the `stream_open` notification is sent on it) or on the replica that holds
 * it (the request is relayed to its address). The transport (the sockets, their joining, the relay)
 * is http's.
 */
import { Effect, Option } from "effect"
import { type Actor, allowed, CurrentActor } from "../Actor.js"
import { Replicas, ThisReplica } from "../enterprise/Replicas.js"
import { BadGateway, type BadRequest, Forbidden, NotFound } from "../Errors.js"
import { isUuid, newUuid } from "../Ids.js"
import { span } from "../Tracing.js"
import { PortShareRepo } from "../workspaces/PortShare.js"
import { WorkspaceSharing } from "../workspaces/Sharing.js"
import { type AgentInBuild, AgentRepo } from "./Agent.js"
import { connectedAgentHolder } from "./Holder.js"
import type { AgentPtyQuery } from "./Requests.js"
import { AgentTunnels } from "./Tunnels.js"

/** How long the agent has to open a stream it was asked for. */
export const STREAM_OPEN_TIMEOUT_SECONDS = 10

/** What a client asks to open. */
export type StreamRequest =
  | { readonly kind: "pty"; readonly query: typeof AgentPtyQuery.Type }
  | { readonly kind: "tcp"; readonly port: number }
  | { readonly kind: "ssh" }

/** Where a stream is served: here (after `open` told the agent), or relayed to another replica. */
export type StreamPlan =
  | {
    readonly _tag: "Here"
    readonly streamId: string
    readonly agentId: string
    /** Sends the `stream_open` notification on the agent's connection here; 502 when it has none any more. */
    readonly open: Effect.Effect<void, BadGateway>
  }
  | { readonly _tag: "Relay"; readonly address: string }

export class AgentStreams extends Effect.Service<AgentStreams>()("@workbay/core/AgentStreams", {
  effect: Effect.gen(function*() {
    const agents = yield* AgentRepo
    const sharing = yield* WorkspaceSharing
    const shares = yield* PortShareRepo
    const tunnels = yield* AgentTunnels
    const replicas = yield* Replicas
    const self = yield* ThisReplica

    /** The agent of a latest build of a live workspace the caller may read, else 404. */
    const find = (ref: string) =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* agents.findById(ref.toLowerCase()) : Option.none<AgentInBuild>()
        if (Option.isNone(found)) return yield* NotFound.resource("Workspace agent")
        const { build, latest_build_number, workspace } = found.value
        if (workspace.deleted || build.build_number !== latest_build_number) {
          return yield* NotFound.resource("Workspace agent")
        }
        return found.value
      })

    /**
     * Who may open `request` on the agent: `ssh` on the workspace for every stream (404 otherwise,
     * so a stranger learns nothing); a tunnel also to a port the port-share rules open to the
     * caller with `application_connect` (403 for a caller who may read the workspace but not reach
     * that port).
     */
    const authorizeStream = (found: AgentInBuild, request: StreamRequest, actor: Actor) =>
      Effect.gen(function*() {
        const object = sharing.object(found.workspace)
        if (yield* allowed("ssh", object)) return
        if (request.kind === "tcp") {
          const share = yield* shares.find(found.workspace.id, found.agent.name, request.port)
          const user = actor.user
          const level = Option.getOrUndefined(Option.map(share, (s) => s.share_level))
          const reaches = level === "public" ||
            (level === "authenticated" &&
              (yield* allowed("application_connect", { type: "workspace", ownerId: user.id, anyOrg: true }))) ||
            (level === "organization" &&
              (yield* allowed("application_connect", {
                type: "workspace",
                ownerId: user.id,
                orgId: found.workspace.organization_id
              })))
          if (reaches) return
          if (yield* allowed("read", object)) {
            return yield* new Forbidden({
              message: "You may not reach this port.",
              detail: `Port ${request.port} of agent "${found.agent.name}" is not shared with you.`
            })
          }
        }
        return yield* NotFound.resource("Workspace agent")
      })

    const openMessage = (
      streamId: string,
      request: StreamRequest,
      client: StreamClient,
      username: string
    ) => {
      const base = {
        type: "stream_open",
        stream_id: streamId,
        path: `/api/v2/workspaceagents/me/streams/${streamId}?replica=${self.id}`,
        kind: request.kind,
        remote_address: client.ip,
        user: username
      }
      switch (request.kind) {
        case "pty":
          return {
            ...base,
            reconnect: request.query.reconnect ?? newUuid(),
            width: request.query.width ?? 80,
            height: request.query.height ?? 24,
            command: request.query.command ?? "",
            container: request.query.container ?? "",
            container_user: request.query.container_user ?? ""
          }
        case "tcp":
          return { ...base, port: request.port }
        case "ssh":
          return base
      }
    }

    /**
     * A user's stream (`pty`, `tunnel`, `ssh`): the checks, then where it is served. `relayed`:
     * the request came from another replica (a replica never relays one again).
     */
    const prepare = (
      ref: string,
      request: StreamRequest,
      client: StreamClient
    ): Effect.Effect<StreamPlan, NotFound | Forbidden | BadRequest | BadGateway, CurrentActor> =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const found = yield* find(ref)
        yield* authorizeStream(found, request, actor)
        const agentId = found.agent.id
        const holder = yield* connectedAgentHolder(found.agent, {
          connectedHere: tunnels.connectedHere(agentId),
          relayed: client.relayed
        }).pipe(Effect.provideService(Replicas, replicas))
        if (holder._tag === "Relay") return holder
        const streamId = newUuid()
        const text = JSON.stringify(openMessage(streamId, request, client, actor.user.username))
        const open = Effect.flatMap(tunnels.notify(agentId, text), (sent) =>
          sent
            ? Effect.void
            : Effect.fail(
              new BadGateway({
                message: "The workspace agent is not connected.",
                detail: "Its connection closed before the stream was asked for."
              })
            ))
        return { _tag: "Here", streamId, agentId, open } as const
      }).pipe(span("AgentStreams.prepare"))

    /**
     * The agent's side of a stream (`GET /workspaceagents/me/streams/{stream}?replica=`): served
     * here when `replica` is this one (or not named), else relayed to that replica; 404 for a
     * replica that is gone.
     */
    const agentSide = (replicaId: string | undefined, relayed: boolean) =>
      Effect.gen(function*() {
        if (replicaId === undefined || replicaId === self.id) return { _tag: "Here" } as const
        const address = relayed ? Option.none<string>() : yield* replicas.relayAddressOf(replicaId)
        if (Option.isNone(address)) return yield* NotFound.resource("Stream")
        return { _tag: "Relay", address: address.value } as const
      })

    return { prepare, agentSide } as const
  })
}) {}

/** Where the request for a stream comes from (the client's address, for the agent's reports), and whether another replica relayed it. */
export interface StreamClient {
  readonly ip: string
  readonly relayed: boolean
}
