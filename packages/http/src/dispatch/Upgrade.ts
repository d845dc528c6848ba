/**
 * A WebSocket endpoint's answer (its handler succeeded with a `WebSocketUpgrade`): the upgrade,
 * handed to the adapter's `accept` (101), when the request is a WebSocket handshake from an
 * allowed origin; else 426 Upgrade Required, as the described system's WebSocket library
 * answers, or 403 for another site's origin.
 */
import type { SettingsShape } from "@workbay/core"
import { asksForWebSocket, type WebSocketUpgrade } from "../WebSocket.js"
import { header, type RawRequest, type RawResponse } from "./Raw.js"
import { json, responseBody } from "./Respond.js"

export type AnswerUpgrade = (
  req: RawRequest,
  upgrade: WebSocketUpgrade,
  respond: (r: RawResponse) => void,
  accept: ((u: WebSocketUpgrade) => void) | undefined,
  requestId: string
) => void

export const makeUpgrades = (settings: SettingsShape): AnswerUpgrade => {
  const accessHost = (() => {
    try {
      return new URL(settings.accessUrl).host.toLowerCase()
    } catch {
      return undefined
    }
  })()
  /** A browser's cross-site WebSocket carries the victim's cookie: only the service's own origins may open one. */
  const originAllowed = (origin: string, host: string | undefined): boolean => {
    let originHost: string
    try {
      originHost = new URL(origin).host.toLowerCase()
    } catch {
      return false
    }
    return originHost === host?.toLowerCase() || originHost === accessHost
  }

  return (req, upgrade, respond, accept, requestId) => {
    if (accept === undefined || !asksForWebSocket(req.headers)) {
      return respond(json(
        426,
        responseBody(
          "This endpoint answers with a WebSocket.",
          "Send the request as a WebSocket handshake (\"Connection: Upgrade\", \"Upgrade: websocket\")."
        ),
        { upgrade: "websocket", "x-request-id": requestId }
      ))
    }
    const origin = header(req.headers, "origin")
    if (origin !== undefined && !originAllowed(origin, header(req.headers, "host"))) {
      return respond(json(
        403,
        responseBody(
          "WebSocket origin not allowed.",
          `The request's Origin is neither the requested host nor the access URL.`
        ),
        { "x-request-id": requestId }
      ))
    }
    accept(upgrade)
  }
}
