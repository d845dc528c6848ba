/**
 * Joins a stream route's WebSocket (`/workspaceagents/{id}/ssh`, `/tunnel`; docs/agents.md,
 * "Tunnels") to local bytes: what `input` gives is sent in binary frames of at most 64 KiB when
 * the service's answer to the handshake said it takes them (`x-workbay-max-frame-bytes`), else of
 * at most 16 KiB, and each frame received is written to `output`. Back-pressure both ways: while more than 256 KiB
 * wait to be sent on the socket, `input` is paused until they are written; while `output` is
 * full, the socket stops reading (so the service, and through it the agent, slows down).
 * There is no half-close: the end of `input` sends nothing; the socket's close ends `output`.
 */
import { Duplex, PassThrough, type Readable, type Writable } from "node:stream"
import type WebSocket from "ws"
import { connectionOf, frameLimitOf } from "./Client.js"

/** The frames sent to a service that did not say what it takes (its cap is 32 KiB by default). */
export const MAX_FRAME_BYTES = 16 * 1024
/** The largest frames sent, when the service says it takes them: a 64 KiB read in one frame. */
export const LARGE_FRAME_BYTES = 64 * 1024
export const HIGH_WATER_BYTES = 256 * 1024

export interface Closed {
  readonly code: number
  readonly reason: string
}

/** Pipes `input` to `ws` and `ws` to `output` until the socket closes: its close code and reason. */
export const joinSocket = (ws: WebSocket, input: Readable, output: Writable): Promise<Closed> =>
  new Promise((resolve, reject) => {
    // The frames of one chunk of `input` go out in one write of the socket's connection, and the
    // frames of one read of it in one write of `output` (docs/agents.md, "Tunnels").
    const connection = connectionOf(ws)
    const frameBytes = Math.min(LARGE_FRAME_BYTES, frameLimitOf(ws) ?? MAX_FRAME_BYTES)
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
      if (ws.readyState !== ws.OPEN) return
      connection?.cork()
      try {
        sendFrames(bytes)
      } finally {
        connection?.uncork()
      }
    }
    const sendFrames = (bytes: Buffer) => {
      for (let i = 0; i < bytes.length; i += frameBytes) {
        const last = i + frameBytes >= bytes.length
        const piece = bytes.subarray(i, i + frameBytes)
        if (last && ws.bufferedAmount + piece.length > HIGH_WATER_BYTES) {
          input.pause()
          ws.send(piece, { binary: true }, () => input.resume())
        } else {
          ws.send(piece, { binary: true })
        }
      }
    }
    input.on("data", onData)
    input.resume()
    // One wait for `drain` at a time: frames already read when the socket paused are written too.
    let draining = false
    let corked = false
    const uncork = () => {
      corked = false
      output.uncork()
    }
    ws.on("message", (data: Buffer | ArrayBuffer | Array<Buffer>) => {
      // A Buffer as it came (ws's default), not copied.
      const bytes = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data as ArrayBuffer)
      if (!corked) {
        corked = true
        output.cork()
        process.nextTick(uncork)
      }
      if (!output.write(bytes) && !draining) {
        draining = true
        ws.pause()
        output.once("drain", () => {
          draining = false
          ws.resume()
        })
      }
    })
    ws.once("close", (code, reason) => {
      input.removeListener("data", onData)
      resolve({ code, reason: reason.toString() })
    })
    ws.once("error", (e) => {
      input.removeListener("data", onData)
      reject(e)
    })
    // Opened paused by Client.socket, so that no frame is emitted before the listener above.
    ws.resume()
  })

/**
 * A stream route's WebSocket as a Duplex (for an SSH client over `/ssh`): what is written goes in
 * frames of the size {@link joinSocket} picks (a service that does not say what it takes refuses a
 * message above its limit, 32 KiB by default, with 1009: an SSH packet is up to 32 KiB and more),
 * what comes is read, both with
 * {@link joinSocket}'s back-pressure; the socket's close ends it.
 */
export const webSocketDuplex = (ws: WebSocket): Duplex => {
  const toSocket = new PassThrough()
  const fromSocket = new PassThrough()
  const duplex = Duplex.from({ readable: fromSocket, writable: toSocket })
  joinSocket(ws, toSocket, fromSocket).then(
    () => fromSocket.end(),
    (e: unknown) => duplex.destroy(e instanceof Error ? e : new Error(String(e)))
  )
  return duplex
}
