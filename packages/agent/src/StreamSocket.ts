/**
 * The agent's end of one stream (docs/agents.md, "Into the workspace: terminals, tunnels and
 * SSH"): the WebSocket it opens back to the service for the stream alone. Bytes go in frames of
 * at most 16 KiB; while more than 256 KiB wait to be sent on it, whoever feeds it waits
 * (`whenDrained`); a stream the agent cannot serve is closed with 1011 and a reason of at most
 * 123 bytes.
 */
import { Duplex } from "node:stream"
import WebSocket from "ws"

/** The largest frame the agent sends (the service's rule for every sender). */
export const FRAME_BYTES = 16 * 1024
/** Past this much waiting to be sent on a socket, the side that feeds it is not read. */
export const HIGH_WATER_BYTES = 256 * 1024
/** A WebSocket close reason is at most 123 bytes (RFC 6455). */
const MAX_REASON_BYTES = 123

/** `reason` cut to at most 123 bytes of UTF-8, between characters. */
export const closeReason = (reason: string): string => {
  if (Buffer.byteLength(reason) <= MAX_REASON_BYTES) return reason
  let out = ""
  for (const ch of reason) {
    if (Buffer.byteLength(`${out}${ch}…`) > MAX_REASON_BYTES) break
    out += ch
  }
  return `${out}…`
}

/**
 * Opens a stream's socket: `path` (as the `stream_open` message names it) resolved against the
 * service's URL, with the agent's token as a bearer (as its other requests: the session header's name is the
 * deployment's choice).
 */
export const openStreamSocket = (serviceUrl: string, path: string, token: string): WebSocket => {
  const target = new URL(path, serviceUrl)
  if (target.protocol === "http:") target.protocol = "ws:"
  if (target.protocol === "https:") target.protocol = "wss:"
  return new WebSocket(target, {
    headers: { authorization: `Bearer ${token}` },
    // The service's frames are at most 32 KiB; anything far larger is not the stream.
    maxPayload: 1024 * 1024,
    perMessageDeflate: false
  })
}

/** A stream's WebSocket, as the agent sends on it. */
export class StreamSocket {
  private readonly waiting: Array<() => void> = []
  /** The connection the socket runs on, once upgraded. */
  private connection: Duplex | undefined

  constructor(readonly ws: WebSocket) {
    // A closed socket takes nothing more: whoever waits for it goes on (and finds it closed).
    ws.on("close", () => this.release())
    ws.once("upgrade", (response) => void (this.connection = response.socket))
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN
  }

  /** Whether more than 256 KiB wait to be sent. */
  get congested(): boolean {
    return this.ws.bufferedAmount > HIGH_WATER_BYTES
  }

  /**
   * Sends `data` as binary frames of at most 16 KiB (nothing once the socket is closing), in one
   * write of the connection (corked while they are sent).
   */
  send(data: Uint8Array): void {
    if (!this.open) return
    const connection = data.length > FRAME_BYTES ? this.connection : undefined
    connection?.cork()
    for (let i = 0; i < data.length; i += FRAME_BYTES) {
      // Each frame handed to the network may bring the waiting under the mark.
      this.ws.send(data.subarray(i, i + FRAME_BYTES), { binary: true }, () => this.check())
    }
    connection?.uncork()
  }

  /** Runs `go` once at most 256 KiB wait to be sent (at once when so), or when the socket closed. */
  whenDrained(go: () => void): void {
    if (!this.congested || !this.open) go()
    else this.waiting.push(go)
  }

  /** Closes the socket (once it is open, when it still connects) with `code` and `reason`, cut to fit. */
  close(code: number, reason = ""): void {
    const ws = this.ws
    if (ws.readyState === WebSocket.CLOSING || ws.readyState === WebSocket.CLOSED) return
    if (ws.readyState === WebSocket.CONNECTING) {
      ws.once("open", () => this.close(code, reason))
      return
    }
    ws.close(code, closeReason(reason))
    // The closing handshake reads the service's close frame: a paused socket would wait for it in vain.
    if (ws.isPaused) ws.resume()
  }

  private check() {
    if (!this.congested) this.release()
  }

  private release() {
    for (const go of this.waiting.splice(0)) go()
  }
}

/**
 * The bytes of a stream's socket as a Duplex (for a TCP connection or an SSH server): a write is
 * sent in frames of at most 16 KiB and done while at most 256 KiB wait, else once they drained;
 * what arrives is read, and the socket pauses while the reader does not keep up. Ending the
 * writable side closes the socket with 1000; the socket closing ends the readable side.
 */
export const socketDuplex = (socket: StreamSocket): Duplex => {
  const ws = socket.ws
  const duplex = new Duplex({
    write(chunk: Buffer, _encoding, callback) {
      if (!socket.open) return callback(new Error("The stream's socket is closed."))
      socket.send(chunk)
      socket.whenDrained(() => callback())
    },
    final(callback) {
      socket.close(1000)
      callback()
    },
    read() {
      if (ws.isPaused) ws.resume()
    },
    destroy(error, callback) {
      socket.close(error === null ? 1000 : 1011, error?.message ?? "")
      callback(error)
    }
  })
  ws.on("message", (data: Buffer) => {
    if (!duplex.push(data)) ws.pause()
  })
  ws.on("close", () => duplex.push(null))
  return duplex
}
