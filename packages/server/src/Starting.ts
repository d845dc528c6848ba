/**
 * What the server answers while it starts (storage connecting, migrations running): `/healthz`
 * 200 (the process serves), everything else 503 with the Response object, so that a load
 * balancer sees it alive but not ready (docs/health.md).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"

const starting = (req: IncomingMessage, res: ServerResponse) => {
  const path = (req.url ?? "/").split("?")[0]
  if (path === "/healthz") {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(
      req.method === "HEAD" ? undefined : "OK"
    )
    return
  }
  res.writeHead(503, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "retry-after": "1"
  })
    .end(
      JSON.stringify({
        message: "Not ready.",
        detail: "The service is starting: its database is connecting or being migrated."
      })
    )
}

const startingUpgrade = (_req: IncomingMessage, socket: Duplex) => {
  socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
}

/** Answers `server`'s requests and upgrades as a starting service until the returned function is called. */
export const answerWhileStarting = (server: Server): () => void => {
  server.on("request", starting)
  server.on("upgrade", startingUpgrade)
  return () => {
    server.off("request", starting)
    server.off("upgrade", startingUpgrade)
  }
}
