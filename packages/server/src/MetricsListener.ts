/** The Prometheus listener: `GET /metrics` (and `/`), the exposition text; 404 elsewhere. */
import type { PrometheusMetrics } from "@workbay/http"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface MetricsListener {
  /** `http://host:port/metrics`. */
  readonly url: string
  readonly close: () => Promise<void>
}

/** Listens on `at` (an empty host: all interfaces) and serves `metrics`. */
export const serveMetrics = async (
  metrics: PrometheusMetrics,
  at: { readonly host: string; readonly port: number }
): Promise<MetricsListener> => {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]
    if ((req.method !== "GET" && req.method !== "HEAD") || (path !== "/metrics" && path !== "/")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found. Metrics are at /metrics.\n")
      return
    }
    metrics.text().then(
      (text) =>
        res.writeHead(200, { "content-type": metrics.contentType }).end(req.method === "HEAD" ? undefined : text),
      () => res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Collecting the metrics failed.\n")
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(at.port, at.host === "" ? undefined : at.host, () => resolve())
  })
  const bound = server.address() as AddressInfo
  const host = at.host === "" ? "localhost" : at.host
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${bound.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
