/**
 * Handlers of the debug group. The health report's WebSocket check is made here, where the
 * WebSocket machinery is: a `ws` client opens `<access URL>/api/v2/debug/ws` with the caller's
 * own token, sends a message and waits for its echo (5 s at most), through the same upgrade
 * path, hub and sockets every WebSocket route uses.
 */
import { authorize, Health, Settings, type WebsocketReport } from "@workbay/core"
import { Effect } from "effect"
import { WebSocket } from "ws"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { orNotModified, RequestContext } from "../RequestContext.js"
import { upgradeWebSocket, WebSocketClosed } from "../WebSocket.js"

const ECHO = "ping"

/** Opens the echo WebSocket at `accessUrl` with `token` and checks one round trip. */
export const websocketCheck = (accessUrl: string, token: string | undefined): Effect.Effect<WebsocketReport> =>
  Effect.async<WebsocketReport>((resume) => {
    const report = (
      r: Omit<WebsocketReport, "dismissed" | "warnings" | "severity"> & { error?: string }
    ): WebsocketReport => ({
      ...r,
      dismissed: false,
      warnings: [],
      severity: r.healthy ? "ok" : "error"
    })
    let url: string
    try {
      const u = new URL("/api/v2/debug/ws", accessUrl)
      u.protocol = u.protocol === "https:" ? "wss:" : "ws:"
      url = u.href
    } catch {
      return resume(Effect.succeed(report({ healthy: false, body: "", code: 0, error: "EWS01: Invalid access URL" })))
    }
    let done = false
    const socket = new WebSocket(url, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      handshakeTimeout: 5_000
    })
    const finish = (r: WebsocketReport) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.removeAllListeners()
      socket.on("error", () => {})
      socket.terminate()
      resume(Effect.succeed(r))
    }
    const timer = setTimeout(
      () => finish(report({ healthy: false, body: "", code: 0, error: "EWS03: No echo within 5s" })),
      5_000
    )
    socket.on("unexpected-response", (_req, res) => {
      let body = ""
      res.on("data", (chunk: Buffer) => void (body.length < 1024 && (body += chunk.toString())))
      res.on(
        "end",
        () =>
          finish(
            report({
              healthy: false,
              body,
              code: res.statusCode ?? 0,
              error: `EWS02: Upgrade answered ${res.statusCode}`
            })
          )
      )
    })
    socket.on("open", () => socket.send(ECHO))
    socket.on("message", (data) => {
      const text = String(data)
      finish(
        text === ECHO
          ? report({ healthy: true, body: "", code: 101 })
          : report({
            healthy: false,
            body: text.slice(0, 1024),
            code: 101,
            error: "EWS04: The echo differed from the message sent"
          })
      )
    })
    socket.on("error", (e) => finish(report({ healthy: false, body: "", code: 0, error: `EWS01: ${e.message}` })))
    return Effect.sync(() => finish(report({ healthy: false, body: "", code: 0, error: "interrupted" })))
  })

export const DebugHttp = implement(WorkbayApi, "debug", {
  health: ({ urlParams }) =>
    Effect.gen(function*() {
      const health = yield* Health
      const settings = yield* Settings
      const ctx = yield* RequestContext
      return yield* health.report(urlParams.force === true, {
        websocket: websocketCheck(settings.accessUrl, ctx.sessionToken?.())
      })
    }),
  settings: () => Effect.flatMap(Health, (h) => h.settings),
  updateSettings: ({ payload }) => orNotModified(Effect.flatMap(Health, (h) => h.updateSettings(payload))),
  ws: () =>
    Effect.zipRight(
      authorize("read", { type: "debug_info" }),
      upgradeWebSocket((connection) =>
        Effect.forever(Effect.flatMap(connection.receive, (text) => connection.send(text))).pipe(
          Effect.catchIf((e): e is WebSocketClosed => e instanceof WebSocketClosed, () => Effect.void)
        )
      )
    )
})
