/**
 * Where the two links of a workspace move meet (docs/provisioner-daemons.md, "Moving a
 * workspace"): the old host's daemon opens the export's link, the new host's the import's, each to
 * whichever replica its request reached. The first to claim the move makes its replica the meeting
 * one (core's `WorkspaceMoves.meetingReplica`); a link that reached another replica is relayed there
 * (Relay.ts). On the meeting replica the first socket is held until the other arrives
 * ({@link MOVE_LINK_WAIT} at most), then the two are joined frame by frame with flow control
 * (WebSocketSplice.ts): the service holds a bounded amount of a volume whatever its size.
 */
import { Context, Deferred, Duration, Effect, Layer } from "effect"
import type { WebSocket } from "ws"
import { closeSocket, type HeldSocket, holdSocket, splice } from "../WebSocketSplice.js"

/** How long a link waits for the other host's. */
export const MOVE_LINK_WAIT: Duration.Duration = Duration.minutes(2)

interface Waiting {
  readonly side: "export" | "import"
  readonly held: HeldSocket
  readonly joined: Deferred.Deferred<void>
}

export class MoveLinks extends Context.Tag("@workbay/http/MoveLinks")<MoveLinks, {
  /** Serves one side's socket on the meeting replica: joins it to the other side's, or waits for it. */
  readonly serve: (replicaId: string, moveId: string, side: "export" | "import", ws: WebSocket) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.sync(MoveLinks, () => {
    const waiting = new Map<string, Waiting>()
    const untilClosed = (ws: WebSocket) =>
      Effect.async<void>((resume) => {
        if (ws.readyState === ws.CLOSED) return resume(Effect.void)
        ws.once("close", () => resume(Effect.void))
      })
    return {
      serve: (replicaId, moveId, side, ws) =>
        Effect.gen(function*() {
          const key = `${replicaId}/${moveId}`
          const held = holdSocket(ws)
          const other = waiting.get(key)
          if (other !== undefined && other.side !== side) {
            waiting.delete(key)
            yield* Deferred.succeed(other.joined, undefined)
            return yield* splice(held, other.held)
          }
          // A second socket of the same side replaces the first (its daemon reconnected).
          if (other !== undefined) closeSocket(other.held.ws, 1008, "Another link of this side of the move opened.")
          const joined = yield* Deferred.make<void>()
          const me: Waiting = { side, held, joined }
          waiting.set(key, me)
          const met = yield* Effect.raceFirst(
            Effect.as(Deferred.await(joined), true),
            Effect.as(untilClosed(ws), false)
          ).pipe(Effect.timeoutTo({ duration: MOVE_LINK_WAIT, onTimeout: () => false, onSuccess: (v) => v }))
          if (waiting.get(key) === me) waiting.delete(key)
          if (!met) {
            closeSocket(ws, 1011, `The ${side === "export" ? "new" : "old"} host's daemon did not open its link.`)
          }
          // Joined: the other side's session runs the join; this one lasts as long as the socket.
          yield* untilClosed(ws)
        })
    }
  })
}
