/** Requests with a `Host` of their own (fetch cannot set it): subdomain apps' tests. */
import { request as httpRequest } from "node:http"

export interface HostAnswer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
  readonly json: () => any
}

/** One request to `baseUrl` + `path` with this `Host` (and, with `upgrade`, a WebSocket upgrade's headers). */
export const sendToHost = (
  baseUrl: string,
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; upgrade?: boolean } = {}
): Promise<HostAnswer> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, {
      method: init.method ?? "GET",
      headers: { host, ...init.headers, ...(init.upgrade ? { connection: "Upgrade", upgrade: "websocket" } : {}) }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) })
      })
    })
    req.on("error", reject)
    req.end()
  })
