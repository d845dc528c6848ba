/**
 * Test support: a stand-in for the service's side of streams, for the agent as a whole (the
 * library, the bundled command, the executable) until the service's stream routes can be used
 * here. It speaks the agent connection as docs/agents.md writes it (`/workspaceagents/me/rpc`:
 * requests answered, `stream_open` sent), accepts the coordination connection, the stream sockets
 * (`/workspaceagents/me/streams/<id>`) and the connection reports
 * (`POST /workspaceagents/me/connections`). Every route checks the agent's token.
 */
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { type WebSocket, WebSocketServer } from "ws"

export interface StandIn {
  readonly url: string
  /** The connection reports the agent posted (their `connection`). */
  readonly reports: Array<Record<string, unknown>>
  /** The `stats` of each `update_stats`. */
  readonly stats: Array<Record<string, number>>
  /** Resolves once the agent has read its manifest. */
  readonly manifestRead: Promise<void>
  /** Sends a `stream_open` and answers the service's end of the stream's socket. */
  readonly open: (fields: Record<string, unknown>) => Promise<WebSocket & { readonly streamId: string }>
  readonly close: () => Promise<void>
}

export const startStandIn = async (
  { token, directory, env }: { token: string; directory: string; env: Record<string, string> }
): Promise<StandIn> => {
  const reports: Array<Record<string, unknown>> = []
  const stats: Array<Record<string, number>> = []
  const waiting = new Map<string, (ws: WebSocket) => void>()
  let rpc: WebSocket | undefined
  let manifestRead!: () => void
  const read = new Promise<void>((r) => (manifestRead = r))
  const authorized = (req: IncomingMessage) =>
    req.headers["coder-session-token"] === token || req.headers.authorization === `Bearer ${token}`

  const http = createServer((req, res) => {
    if (!authorized(req)) return res.writeHead(401).end("{}")
    if (req.method === "POST" && req.url === "/api/v2/workspaceagents/me/connections") {
      let body = ""
      req.on("data", (d) => (body += d))
      req.on("end", () => {
        reports.push(JSON.parse(body).connection)
        res.writeHead(204).end()
      })
      return
    }
    res.writeHead(404).end("{}")
  })
  const wss = new WebSocketServer({ noServer: true })
  http.on("upgrade", (req, socket, head) => {
    if (!authorized(req)) {
      socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n")
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const path = req.url ?? ""
      const stream = /^\/api\/v2\/workspaceagents\/me\/streams\/([^?]+)/.exec(path)?.[1]
      if (stream !== undefined) {
        const resolve = waiting.get(stream)
        waiting.delete(stream)
        return resolve === undefined ? ws.close(1008) : resolve(ws)
      }
      if (path === "/api/v2/workspaceagents/me/rpc") {
        rpc = ws
        ws.on("message", (data) => {
          const message = JSON.parse(String(data))
          if (message.id === undefined) return
          let result: unknown = {}
          if (message.type === "get_manifest") {
            manifestRead()
            result = {
              agent_id: randomUUID(),
              agent_name: "main",
              workspace_id: randomUUID(),
              workspace_name: "box",
              directory,
              environment_variables: env,
              scripts: [],
              apps: [],
              metadata: []
            }
          } else if (message.type === "update_stats") {
            stats.push(message.stats)
            result = { report_interval_seconds: 1 }
          }
          ws.send(JSON.stringify({ id: message.id, result }))
        })
      }
      // The coordination connection: accepted, nothing to say.
    })
  })
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()))
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  return {
    url,
    reports,
    stats,
    manifestRead: read,
    open: async (fields) => {
      await read
      const streamId = randomUUID()
      const socket = new Promise<WebSocket>((resolve) => waiting.set(streamId, resolve))
      rpc!.send(JSON.stringify({
        type: "stream_open",
        stream_id: streamId,
        path: `/api/v2/workspaceagents/me/streams/${streamId}?replica=${randomUUID()}`,
        remote_address: "192.0.2.10",
        user: "alice",
        ...fields
      }))
      return Object.assign(await socket, { streamId })
    },
    close: async () => {
      for (const c of wss.clients) c.terminate()
      http.closeAllConnections()
      await new Promise<void>((r) => http.close(() => r()))
    }
  }
}
