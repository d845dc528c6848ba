/**
 * The frames of byte streams (`tunnel`, `ssh`; docs/agents.md, "Tunnels"). The client's end of one
 * takes binary frames of up to {@link BYTE_STREAM_FRAME_BYTES} (or the hub's message cap, when that
 * is larger) and says so in the handshake's answer ({@link FRAME_BYTES_HEADER}): a sender that reads
 * it sends a 64 KiB read in one frame instead of four, one that does not keeps to 16 KiB frames, and
 * a service that does not say it (an older one) is sent 16 KiB frames. Every other route keeps the
 * hub's cap. Plain Node and `ws`: the socket relay's own process loads it too.
 */
import { WebSocketServer } from "ws"

/** The largest frame a byte stream's client end takes, unless the hub's message cap is larger. */
export const BYTE_STREAM_FRAME_BYTES = 64 * 1024

/** The header of the handshake's answer that gives the largest frame the end takes (decimal bytes). */
export const FRAME_BYTES_HEADER = "x-workbay-max-frame-bytes"

/** A `ws` server (no HTTP server of its own) for byte streams' client ends, saying their cap in each answer. */
export const byteStreamServer = (maxMessageBytes: number): WebSocketServer => {
  const maxPayload = Math.max(maxMessageBytes, BYTE_STREAM_FRAME_BYTES)
  const server = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload, perMessageDeflate: false })
  server.on("headers", (headers: Array<string>) => void headers.push(`${FRAME_BYTES_HEADER}: ${maxPayload}`))
  return server
}
