/**
 * Web apps through the agent connection (docs/agents.md, "Web apps"): the service sends
 * `{type: "app_request", request_id, method, url, headers, body}` (body in base64) on
 * `/workspaceagents/me/rpc`; the agent performs the request against its local app and answers
 * `{type: "app_response", request_id, status, headers}`, then the body in `app_body` frames
 * (`data`: base64, at most 16 KiB each) and `{type: "app_end", request_id, error?}`. An
 * `{type: "app_cancel", request_id}` stops a request. The agent only reaches its own apps and the
 * ports of its loopback (`http(s)://127.0.0.1:<port>`, the subdomain port form): any other URL is refused.
 */
import { type IncomingMessage, request as httpRequest } from "node:http"
import type { ClientRequest } from "node:http"
import { request as httpsRequest } from "node:https"

/** The largest body piece of one `app_body` frame (before base64). */
export const APP_CHUNK_BYTES = 16 * 1024

export interface AppProxyOptions {
  /** Sends one message on the agent connection (dropped while disconnected). */
  readonly send: (message: Record<string, unknown>) => void
  /** The URLs of the agent's apps (its manifest's), whose origins the agent may reach. */
  readonly appUrls: () => ReadonlyArray<string>
  readonly log: (line: string) => void
}

export interface AppProxy {
  /** Handles a message of the service; false when it is not about app requests. */
  readonly handle: (message: Record<string, unknown>) => boolean
  /** The requests in flight now or, when more, started since the last call (for `update_stats`). */
  readonly usage: () => number
  /** Stops every request in flight. */
  readonly close: () => void
}

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

export const makeAppProxy = (options: AppProxyOptions): AppProxy => {
  const inFlight = new Map<string, ClientRequest>()
  /** Requests to an app started since the last `usage()`. */
  let started = 0

  const end = (requestId: string, error?: string) => {
    inFlight.delete(requestId)
    options.send({ type: "app_end", request_id: requestId, ...(error !== undefined ? { error } : {}) })
  }

  const start = (message: Record<string, unknown>) => {
    const requestId = message.request_id as string
    const url = typeof message.url === "string" ? message.url : ""
    const origin = originOf(url)
    const allowed = new Set(options.appUrls().map(originOf).filter((o) => o !== undefined))
    // A port of this machine's loopback is an app too (the subdomain port form, `{port}--agent--...`):
    // the service opens one only to whom its port-share rules allow.
    const loopbackPort = origin !== undefined && /^https?:\/\/127\.0\.0\.1:\d+$/.test(origin)
    if (
      origin === undefined || !(allowed.has(origin) || loopbackPort) || !/^https?:$/.test(new URL(url).protocol)
    ) {
      return end(
        requestId,
        `The agent serves only its own apps; ${JSON.stringify(url.slice(0, 200))} is not one of them.`
      )
    }
    started++
    const headers: Record<string, Array<string>> = {}
    if (message.headers !== null && typeof message.headers === "object") {
      for (const [name, values] of Object.entries(message.headers as Record<string, unknown>)) {
        if (Array.isArray(values)) headers[name] = values.filter((v): v is string => typeof v === "string")
      }
    }
    const body = typeof message.body === "string" ? Buffer.from(message.body, "base64") : Buffer.alloc(0)
    if (body.length > 0) headers["content-length"] = [String(body.length)]
    const method = typeof message.method === "string" ? message.method : "GET"
    const make = url.startsWith("https:") ? httpsRequest : httpRequest
    let answered = false
    const req = make(url, { method, headers }, (res: IncomingMessage) => {
      answered = true
      options.send({
        type: "app_response",
        request_id: requestId,
        status: res.statusCode ?? 502,
        headers: res.headersDistinct
      })
      // Each piece goes on as the app gives it (a streaming answer is not held back), cut to the frame size.
      res.on("data", (chunk: Buffer) => {
        if (!inFlight.has(requestId)) return
        for (let i = 0; i < chunk.length; i += APP_CHUNK_BYTES) {
          options.send({
            type: "app_body",
            request_id: requestId,
            data: chunk.subarray(i, i + APP_CHUNK_BYTES).toString("base64")
          })
        }
      })
      res.on("end", () => void (inFlight.has(requestId) && end(requestId)))
      res.on("error", (e) => void (inFlight.has(requestId) && end(requestId, e.message)))
    })
    inFlight.set(requestId, req)
    req.on("error", (e) => {
      if (!inFlight.has(requestId)) return
      if (!answered) options.log(`app request to ${url}: ${e.message}`)
      end(requestId, e.message)
    })
    req.end(body)
  }

  return {
    handle: (message) => {
      if (message.type === "app_request" && typeof message.request_id === "string") {
        start(message)
        return true
      }
      if (message.type === "app_cancel" && typeof message.request_id === "string") {
        const req = inFlight.get(message.request_id)
        inFlight.delete(message.request_id)
        req?.destroy()
        return true
      }
      return false
    },
    usage: () => {
      const used = Math.max(inFlight.size, started)
      started = 0
      return used
    },
    close: () => {
      for (const req of inFlight.values()) req.destroy()
      inFlight.clear()
    }
  }
}
