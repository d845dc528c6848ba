/**
 * A stream's two ends joined (docs/agents.md, "Into the workspace"): a client's socket and the
 * agent's, each either held in this process (SocketJoin.ts) or handed to the socket relay's
 * process (SocketRelay.ts). Two ends here are joined here; two ends in the relay are joined
 * there.
 */
import { Effect } from "effect"
import { closeSocket, type HeldSocket, joinSockets } from "./SocketJoin.js"
import type { SocketRelay } from "./SocketRelay.js"
import { CloseCode } from "./WebSocketClose.js"

export {
  closeSocket,
  type HeldSocket,
  holdSocket,
  SPLICE_HIGH_WATER_BYTES,
  SPLICE_LOW_WATER_BYTES
} from "./SocketJoin.js"

/** One end of a stream: held in this process, or handed to the socket relay. */
export type StreamEnd =
  | { readonly _tag: "Held"; readonly held: HeldSocket }
  | { readonly _tag: "Handed"; readonly id: number; readonly relay: SocketRelay }

/** Joins `a` and `b` until both are closed; a close of one closes the other with its code and reason. */
export const splice = (a: HeldSocket, b: HeldSocket): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    const cut = joinSockets(a, b, () => resume(Effect.void))
    return Effect.sync(cut)
  })

/** Closes an end with `code` and `reason` (made sendable); nothing when it is already closing. */
export const closeEnd = (end: StreamEnd, code: number, reason: string): void =>
  end._tag === "Held" ? closeSocket(end.held.ws, code, reason) : end.relay.close(end.id, code, reason)

/** Completes once the end is closed. */
export const endClosed = (end: StreamEnd): Effect.Effect<void> =>
  end._tag === "Handed" ? end.relay.closed(end.id) : Effect.async<void>((resume) => {
    const ws = end.held.ws
    if (end.held.closed !== undefined || ws.readyState === ws.CLOSED) return resume(Effect.void)
    const done = () => resume(Effect.void)
    ws.once("close", done)
    return Effect.sync(() => void ws.off("close", done))
  })

/**
 * Joins two ends until both are closed. Ends served apart (one here, one in the relay: a TLS
 * listener beside a plain one) cannot be joined: both are closed with 1011.
 */
export const spliceEnds = (a: StreamEnd, b: StreamEnd): Effect.Effect<void> => {
  if (a._tag === "Held" && b._tag === "Held") return splice(a.held, b.held)
  if (a._tag === "Handed" && b._tag === "Handed" && a.relay === b.relay) return a.relay.join(a.id, b.id)
  return Effect.sync(() => {
    const reason = "The stream's two ends are served apart and cannot be joined."
    closeEnd(a, CloseCode.internalError, reason)
    closeEnd(b, CloseCode.internalError, reason)
  })
}
