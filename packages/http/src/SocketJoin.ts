/**
 * Joining two WebSockets (a client's and the agent's, for one stream; docs/agents.md, "Into the
 * workspace"): each frame of one is sent on the other as it came (text stays text, binary stays
 * binary), and a close of one closes the other with its code and reason. Flow control: while more
 * than SPLICE_HIGH_WATER_BYTES wait to be written to one side, the other is not read (its TCP
 * window fills and its sender slows), so a stream holds a bounded amount of memory however fast
 * one side sends and however slowly the other reads.
 *
 * Plain Node and `ws`, nothing of the service: the service's process joins sockets with it
 * (WebSocketSplice.ts), and so does the socket relay's own process (SocketRelayMain.ts).
 */
import type { WebSocket } from "ws"
import { clipReason, CloseCode } from "./WebSocketClose.js"

/** Bytes waiting to be written to one side past which the other side is no longer read. */
export const SPLICE_HIGH_WATER_BYTES = 256 * 1024
/** ... and under which it is read again. */
export const SPLICE_LOW_WATER_BYTES = 64 * 1024

/** The connection under a WebSocket, when known: its writes can be held and let go together. */
export interface Corkable {
  cork(): void
  uncork(): void
}

/** A socket whose frames are held from the moment it is taken until it is joined. */
export interface HeldSocket {
  readonly ws: WebSocket
  /** Its connection, when known (see `pipe`). */
  readonly connection: Corkable | undefined
  /** Frames that arrived before the join. */
  readonly queued: Array<readonly [Buffer, boolean]>
  forward: ((data: Buffer, isBinary: boolean) => void) | undefined
  closed: { readonly code: number; readonly reason: string } | undefined
  onClose: (() => void) | undefined
}

const asBuffer = (data: unknown): Buffer =>
  Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
    ? Buffer.concat(data as Array<Buffer>)
    : Buffer.from(data as ArrayBuffer)

/**
 * Starts holding `ws`'s frames and watching its close, at once (before anything can arrive unheard);
 * `connection` is the socket `ws` runs on, when the caller has it.
 */
export const holdSocket = (ws: WebSocket, connection?: Corkable): HeldSocket => {
  const held: HeldSocket = { ws, connection, queued: [], forward: undefined, closed: undefined, onClose: undefined }
  ws.on("message", (data, isBinary) => {
    const bytes = asBuffer(data)
    if (held.forward !== undefined) held.forward(bytes, isBinary)
    else held.queued.push([bytes, isBinary])
  })
  ws.once("close", (code, reason) => {
    held.closed = { code, reason: reason.toString("utf8") }
    held.onClose?.()
  })
  return held
}

/** A close code that may be sent: 1005 (none given) as 1000, 1006 (the connection dropped) and others as 1011. */
const sendableCode = (code: number): number =>
  code === 1005 ? CloseCode.normal : (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
      (code >= 3000 && code <= 4999)
    ? code
    : CloseCode.internalError

/** Closes `ws` with `code` and `reason` (made sendable); nothing when it is already closing. */
export const closeSocket = (ws: WebSocket, code: number, reason: string): void => {
  if (ws.readyState !== ws.OPEN && ws.readyState !== ws.CONNECTING) return
  const sendable = sendableCode(code)
  ws.close(
    sendable,
    clipReason(
      sendable === CloseCode.internalError && reason === "" ? "The other side of the stream broke off." : reason
    )
  )
}

/**
 * Sends each frame of `from` on `to`. The frames of one read of `from`'s connection (a read
 * holds several 16 KiB frames) go out in one write of `to`'s when its connection is known: it is
 * corked at the first and uncorked once they are all sent, so each hop costs one system call
 * (and one wake-up of the reader) a read rather than a frame.
 */
const pipe = (from: HeldSocket, to: HeldSocket) => {
  let paused = false
  let corked = false
  const written = () => {
    if (paused && to.ws.bufferedAmount <= SPLICE_LOW_WATER_BYTES) {
      paused = false
      from.ws.resume()
    }
  }
  const uncork = () => {
    corked = false
    to.connection!.uncork()
  }
  const forward = (data: Buffer, isBinary: boolean) => {
    if (to.ws.readyState !== to.ws.OPEN) return
    if (!corked && to.connection !== undefined) {
      corked = true
      to.connection.cork()
      process.nextTick(uncork)
    }
    to.ws.send(data, { binary: isBinary }, written)
    if (!paused && to.ws.bufferedAmount > SPLICE_HIGH_WATER_BYTES) {
      paused = true
      from.ws.pause()
    }
  }
  for (const [data, isBinary] of from.queued) forward(data, isBinary)
  from.queued.length = 0
  from.forward = forward
}

/**
 * Joins `a` and `b` until both are closed (then `ended` is called, once); a close of one closes
 * the other with its code and reason. Answers what cuts the join short: both closed with 1001.
 */
export const joinSockets = (a: HeldSocket, b: HeldSocket, ended: () => void): () => void => {
  pipe(a, b)
  pipe(b, a)
  let done = false
  const settle = () => {
    if (a.closed !== undefined) closeSocket(b.ws, a.closed.code, a.closed.reason)
    if (b.closed !== undefined) closeSocket(a.ws, b.closed.code, b.closed.reason)
    if (a.closed !== undefined && b.closed !== undefined && !done) {
      done = true
      ended()
    }
  }
  a.onClose = settle
  b.onClose = settle
  settle()
  return () => {
    a.onClose = undefined
    b.onClose = undefined
    closeSocket(a.ws, CloseCode.goingAway, "The stream was ended.")
    closeSocket(b.ws, CloseCode.goingAway, "The stream was ended.")
  }
}
