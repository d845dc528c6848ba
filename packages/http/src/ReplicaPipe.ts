/**
 * A WebSocket request relayed to the replica that serves it, as its raw TCP connection (Relay.ts,
 * docs/agents.md "Several replicas"): the request's head written on a new connection to the
 * replica, then the two connections joined byte for byte. Plain Node, nothing of the service: the
 * service's process pipes with it, and so does the socket relay's (SocketRelayMain.ts).
 */
import { connect } from "node:net"
import type { Duplex } from "node:stream"

/**
 * Writes `requestHead` (and `head`, the bytes read past it) to the replica at `address` and joins
 * the two connections. A replica that cannot be reached answers the client 502 on its socket.
 */
export const pipeToReplica = (socket: Duplex, head: Buffer, requestHead: string, address: string): void => {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return void socket.destroy()
  }
  const upstream = connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 80) })
  upstream.setNoDelay(true)
  let joined = false
  const fail = () => {
    if (joined) {
      socket.destroy()
      return
    }
    const body = JSON.stringify({
      message: "The replica that holds the workspace agent's connection cannot be reached.",
      detail: `The relay to ${address} failed; try again once the agent reconnects.`
    })
    socket.end(
      `HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${
        Buffer.byteLength(body)
      }\r\n\r\n${body}`
    )
  }
  upstream.once("error", fail)
  socket.on("error", () => upstream.destroy())
  upstream.once("connect", () => {
    joined = true
    upstream.write(requestHead)
    if (head.length > 0) upstream.write(head)
    socket.pipe(upstream)
    upstream.pipe(socket)
  })
  socket.once("close", () => upstream.destroy())
  upstream.once("close", () => socket.destroy())
}
