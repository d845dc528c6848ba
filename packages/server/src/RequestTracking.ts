/**
 * Counts a server's requests in flight (event streams aside: they never end by themselves), for
 * the graceful shutdown. Once the server is closing, each connection is closed after its answer
 * (`Connection: close`).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"

export interface RequestTracker {
  /** Resolves once no request is in flight, or after `ms`; from then on connections close after their answer. */
  readonly drained: (ms: number) => Promise<void>
}

export const trackRequests = (server: Server): RequestTracker => {
  let active = 0
  let closing = false
  const waiters = new Set<() => void>()
  const settle = () => {
    if (active === 0) for (const w of waiters) w()
  }
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    active++
    let counted = true
    const done = () => {
      if (!counted) return
      counted = false
      active--
      settle()
    }
    if (closing) res.shouldKeepAlive = false
    const writeHead = res.writeHead
    res.writeHead = function(this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      if (closing) res.shouldKeepAlive = false
      const answer = writeHead.apply(this, args)
      const given = args.find((a) => typeof a === "object" && a !== null && !Array.isArray(a)) as Record<string, unknown> | undefined
      const type = given?.["content-type"] ?? res.getHeader("content-type")
      if (String(type ?? "").startsWith("text/event-stream")) done()
      return answer
    } as ServerResponse["writeHead"]
    res.once("finish", done)
    res.once("close", done)
  })
  return {
    drained: (ms) =>
      new Promise<void>((resolve) => {
        closing = true
        if (active === 0) return resolve()
        const timer = setTimeout(finish, ms)
        function finish() {
          clearTimeout(timer)
          waiters.delete(finish)
          resolve()
        }
        waiters.add(finish)
      })
  }
}
