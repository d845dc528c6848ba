/**
 * The HTTP JSON API client: `rest`, the typed client of `@workbay/client` (every route under
 * `<url>/api/v2` with its request and answer types, refusals read by its `apiErrorOf` into
 * {@link ApiError}s: the service's Response `message`, `detail` and `validations`), and WebSockets
 * opened on the same routes.
 *
 * The token travels as `Authorization: Bearer <token>`, which every deployment accepts whatever
 * it named its session header (`Service-Session-Token` by default, `--session-header`;
 * packages/http/src/dispatch/Exchange.ts reads the header, then the cookie, then the bearer).
 */
import { apiErrorOf, makeClient, type WorkbayClient } from "@workbay/client"
import type { Socket } from "node:net"
import WebSocket from "ws"
import { CliError } from "./Errors.js"

/** The connection each WebSocket a client opened runs on (Pipe.ts writes a read's frames in one write of it). */
const connections = new WeakMap<WebSocket, Socket>()

/** The connection `ws` runs on, when a client opened it. */
export const connectionOf = (ws: WebSocket): Socket | undefined => connections.get(ws)

/**
 * The header of a handshake's answer giving the largest frame the service's end takes (a byte
 * stream's: `tunnel`, `ssh`; docs/agents.md, "Tunnels"), and what each socket's answer said.
 */
export const FRAME_BYTES_HEADER = "x-workbay-max-frame-bytes"
const frameLimits = new WeakMap<WebSocket, number>()

/** The largest frame the service's end of `ws` said it takes, when it said so. */
export const frameLimitOf = (ws: WebSocket): number | undefined => frameLimits.get(ws)

/** A deployment URL as typed (`host:port`, with or without scheme, `/api/v2` or a trailing slash): its root URL. */
export const normalizeUrl = (input: string): string => {
  let text = input.trim()
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new CliError(`"${input}" is not a URL.`, 2)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CliError(`"${input}" is not an http or https URL.`, 2)
  }
  url.search = ""
  url.hash = ""
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v2$/, "")
  return `${url.origin}${path}`
}

/** Query parameters; a list repeats its parameter (`tag=a&tag=b`). */
type Query = Record<string, string | number | boolean | ReadonlyArray<string> | undefined>

/** The CliError of a request that did not reach the deployment (the cause's message when it has one). */
const unreachable = (url: string, e: unknown): CliError => {
  const cause = e instanceof Error && e.cause instanceof Error
    ? e.cause.message
    : e instanceof Error
    ? e.message
    : e
  return new CliError(`Could not reach ${url}: ${String(cause)}`)
}

export class Client {
  /** The API root: `<url>/api/v2`. */
  readonly api: string
  /** The typed client of every route (`rest.GET("/api/v2/...")`), with the token when there is one. */
  readonly rest: WorkbayClient

  constructor(readonly url: string, readonly token: string | undefined) {
    this.api = `${url}/api/v2`
    this.rest = makeClient({
      url,
      ...(token === undefined ? {} : { token }),
      fetch: (request: Request) =>
        fetch(request).catch((e: unknown) => {
          throw unreachable(url, e)
        })
    })
  }

  /** The absolute URL of `path` (under /api/v2) with `query`. */
  urlOf(path: string, query: Query = {}, protocol: "http" | "ws" = "http"): string {
    const u = new URL(`${this.api}${path}`)
    for (const [k, v] of Object.entries(query)) {
      if (Array.isArray(v)) { for (const one of v) u.searchParams.append(k, one) }
      else if (v !== undefined) u.searchParams.set(k, String(v))
    }
    if (protocol === "ws") u.protocol = u.protocol === "https:" ? "wss:" : "ws:"
    return u.toString()
  }

  /**
   * Opens a WebSocket on `path` (under /api/v2) with the token (and `headers`, such as a
   * provisioner daemon's key): resolves once open, **paused**;
   * a refusal before the upgrade rejects with its ApiError. The caller attaches its listeners,
   * then calls `resume()`: frames that came with the upgrade's answer are emitted on a
   * `process.nextTick`, before an `await` would have returned, and would be lost otherwise.
   */
  socket(path: string, query: Query = {}, headers: Record<string, string> = {}): Promise<WebSocket> {
    const ws = new WebSocket(this.urlOf(path, query, "ws"), {
      headers: this.token === undefined ? headers : { ...headers, authorization: `Bearer ${this.token}` },
      // Frames from the service are at most what it splits them in; a generous bound.
      maxPayload: 64 * 1024 * 1024
    })
    ws.once("upgrade", (response) => {
      connections.set(ws, response.socket)
      const limit = Number(response.headers[FRAME_BYTES_HEADER])
      if (Number.isSafeInteger(limit) && limit > 0) frameLimits.set(ws, limit)
    })
    return new Promise((resolve, reject) => {
      ws.once("open", () => {
        ws.pause()
        ws.removeAllListeners("error")
        resolve(ws)
      })
      ws.once("unexpected-response", (_req, res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (d: string) => (text += d))
        res.on("end", () => reject(apiErrorOf(res.statusCode ?? 0, res.statusMessage ?? "", text)))
        res.on("error", reject)
      })
      ws.once("error", (e) => reject(new CliError(`Could not reach ${this.url}: ${e.message}`)))
    })
  }
}
