/**
 * Counts a server's requests in flight (event streams aside: they never end by themselves), and
 * its connections, for the graceful shutdown. Once the server is closing, each connection is
 * closed after its answer (`Connection: close`); a keep-alive connection waiting between requests
 * is closed at once; a connection accepted whose first request has not been read yet (its bytes
 * may sit unread on a busy server) is given a short grace to send it, instead of being reset as
 * Node's `server.close()` does with every connection it deems idle.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { Server as NetServer, type Socket } from "node:net"

/** How long a connection accepted before the shutdown may take to send its first request. */
export const FIRST_REQUEST_GRACE_MS = 2_000

export interface RequestTracker {
  /**
   * Stops listening (after one more turn of the event loop, so that connections the kernel queued
   * before the signal are accepted, not reset), closes idle keep-alive connections, and resolves
   * once no request is in flight and no new connection is waiting to send its first (the latter
   * for at most FIRST_REQUEST_GRACE_MS), or after `ms`. `listenerClosed` settles once the server
   * stopped listening and every connection ended.
   */
  readonly drain: (ms: number) => Promise<void>
  readonly listenerClosed: Promise<void>
}

interface Connection {
  /** Requests read on it so far. */
  served: number
  /** Whether a request is being answered on it. */
  busy: boolean
  /** A WebSocket now: closed by the hub (1001), not here. */
  upgraded: boolean
}

export const trackRequests = (server: Server): RequestTracker => {
  let active = 0
  let closing = false
  const connections = new Map<Socket, Connection>()
  const waiters = new Set<() => void>()
  const waitingFirst = () => {
    for (const c of connections.values()) if (c.served === 0 && !c.upgraded) return true
    return false
  }
  let graceOver = false
  const settle = () => {
    if (closing && active === 0 && (graceOver || !waitingFirst())) { for (const w of waiters) w() }
  }
  server.prependListener("connection", (socket: Socket) => {
    connections.set(socket, { served: 0, busy: false, upgraded: false })
    socket.once("close", () => {
      connections.delete(socket)
      settle()
    })
  })
  server.prependListener("upgrade", (req: IncomingMessage) => {
    const connection = connections.get(req.socket)
    if (connection !== undefined) connection.upgraded = true
  })
  // Before the service's own listener: on SQLite a request can be answered within it, synchronously.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket)
    if (connection !== undefined) {
      connection.served++
      connection.busy = true
    }
    active++
    let counted = true
    const done = () => {
      if (!counted) return
      counted = false
      active--
      if (connection !== undefined) connection.busy = false
      settle()
    }
    if (closing) res.shouldKeepAlive = false
    const writeHead = res.writeHead
    res.writeHead = function(this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      if (closing) res.shouldKeepAlive = false
      const answer = writeHead.apply(this, args)
      const given = args.find((a) => typeof a === "object" && a !== null && !Array.isArray(a)) as
        | Record<string, unknown>
        | undefined
      const type = given?.["content-type"] ?? res.getHeader("content-type")
      if (String(type ?? "").startsWith("text/event-stream")) done()
      return answer
    } as ServerResponse["writeHead"]
    res.once("finish", done)
    res.once("close", done)
  })
  let closedListener!: () => void
  const listenerClosed = new Promise<void>((resolve) => (closedListener = resolve))
  return {
    listenerClosed,
    drain: async (ms) => {
      closing = true
      // One more poll phase: connections queued in the kernel before the signal are accepted.
      await new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 0))
      // The listening socket only: `http.Server.close` would also reset every connection it deems
      // idle, those whose first request is still unread among them.
      NetServer.prototype.close.call(server, () => closedListener())
      for (const [socket, c] of connections) if (c.served > 0 && !c.busy && !c.upgraded) socket.destroy()
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, ms)
        const grace = setTimeout(() => {
          graceOver = true
          settle()
        }, Math.min(FIRST_REQUEST_GRACE_MS, ms))
        function finish() {
          clearTimeout(timer)
          clearTimeout(grace)
          waiters.delete(finish)
          resolve()
        }
        waiters.add(finish)
        settle()
      })
    }
  }
}
