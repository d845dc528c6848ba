/**
 * Relaying a request to the replica that serves it (docs/agents.md, "Several replicas"): a request
 * for an agent whose connection another replica holds is sent on to that replica's relay address,
 * as it came, with the deployment's relay secret (`x-workbay-relay`) and the client's address
 * (`x-workbay-relay-client`) added. For a WebSocket the request's head is written on a new TCP
 * connection to the replica and the two connections are joined: the replica answers the handshake
 * itself, and every byte after it passes through untouched (TCP's flow control end to end).
 */
import type { IncomingMessage } from "node:http"
import { connect } from "node:net"
import type { Duplex } from "node:stream"
import type { RequestHeaders } from "./RealIp.js"

/** The header that carries the deployment's relay secret on a relayed request. */
export const RELAY_HEADER = "x-workbay-relay"
/** The header that names the client's address on a relayed request (believed only with the secret). */
export const RELAY_CLIENT_HEADER = "x-workbay-relay-client"

/** The headers a relay adds for `clientIp`, given the deployment's secret. */
export const relayHeaders = (secret: string, clientIp: string): Record<string, string> => ({
  [RELAY_HEADER]: secret,
  [RELAY_CLIENT_HEADER]: clientIp
})

/** Whether `headers` carry the deployment's relay secret (compared in constant time). */
export const isRelayed = (secret: string, headers: RequestHeaders): boolean => {
  const given = headers[RELAY_HEADER]
  const value = typeof given === "string" ? given : given?.[0]
  if (value === undefined || secret === "" || value.length !== secret.length) return false
  let diff = 0
  for (let i = 0; i < value.length; i++) diff |= value.charCodeAt(i) ^ secret.charCodeAt(i)
  return diff === 0
}

/** The request's head as it came (its raw header lines), less the relay's own headers, plus `extra`. */
const requestHead = (req: IncomingMessage, extra: Readonly<Record<string, string>>): string => {
  let head = `${req.method ?? "GET"} ${req.url ?? "/"} HTTP/1.1\r\n`
  const raw = req.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    if (name === RELAY_HEADER || name === RELAY_CLIENT_HEADER) continue
    head += `${raw[i]}: ${raw[i + 1]}\r\n`
  }
  for (const [name, value] of Object.entries(extra)) head += `${name}: ${value}\r\n`
  return head + "\r\n"
}

/**
 * Relays an upgrade: writes the request's head to `address` and joins the two connections. A
 * replica that cannot be reached answers the client 502 on its socket.
 */
export const relayUpgrade = (
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: { readonly address: string; readonly headers: Readonly<Record<string, string>> }
): void => {
  let url: URL
  try {
    url = new URL(target.address)
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
      detail: `The relay to ${target.address} failed; try again once the agent reconnects.`
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
    upstream.write(requestHead(req, target.headers))
    if (head.length > 0) upstream.write(head)
    socket.pipe(upstream)
    upstream.pipe(socket)
  })
  socket.once("close", () => upstream.destroy())
  upstream.once("close", () => socket.destroy())
}
