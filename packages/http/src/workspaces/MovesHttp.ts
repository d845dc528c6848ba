/** Handlers of the workspace moves and of the daemons' move links (MoveLinks.ts joins the two links). */
import { BadGateway, PROVISIONER_KEY_HEADER, ProvisionerKeys, Replicas, WorkspaceMoves } from "@workbay/core"
import { Effect, Option } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { relayedRequest, relayHeaders } from "../Relay.js"
import { relayWebSocket, upgradeRawWebSocket } from "../WebSocket.js"
import { MoveLinks } from "./MoveLinks.js"

/** The header that carries a move link's one-time token. */
export const MOVE_TOKEN_HEADER = "workbay-move-token"

export const WorkspaceMovesHttp = implement(WorkbayApi, "workspaceMoves", {
  create: ({ path, payload }) => Effect.flatMap(WorkspaceMoves, (m) => m.create(path.workspace, payload)),
  list: ({ path }) => Effect.flatMap(WorkspaceMoves, (m) => m.list(path.workspace))
})

export const WorkspaceMoveLinkHttp = implement(WorkbayApi, "workspaceMoveLink", {
  link: ({ path, urlParams }) =>
    Effect.gen(function*() {
      const { ctx, self } = yield* relayedRequest
      const key = yield* Effect.flatMap(
        ProvisionerKeys,
        (k) => k.authenticate(path.organization, ctx.header(PROVISIONER_KEY_HEADER.toLowerCase()))
      )
      const moves = yield* WorkspaceMoves
      const move = yield* moves.authenticateLink(
        key.organization_id,
        path.move,
        urlParams.side,
        ctx.header(MOVE_TOKEN_HEADER) ?? ""
      )
      const meeting = yield* moves.meetingReplica(move.id, self.id)
      if (meeting !== self.id) {
        const address = yield* Effect.flatMap(Replicas, (r) => r.relayAddressOf(meeting))
        if (Option.isNone(address)) {
          return yield* new BadGateway({
            message: "The other host's link reached a replica this one cannot relay to.",
            detail:
              "That replica is gone, or has no relay address (--derp-server-relay-url); the move fails, ask for it again."
          })
        }
        return relayWebSocket({ address: address.value, headers: relayHeaders(self.relaySecret, ctx.ip) })
      }
      const links = yield* MoveLinks
      // A volume's frames are as large as its engine's stream hands them (the daemons send at most 1 MiB).
      return yield* upgradeRawWebSocket((ws) => links.serve(self.id, move.id, urlParams.side, ws), {
        largeMessages: true
      })
    })
})
