/**
 * The HTTP JSON API client: requests under `<url>/api/v2` with the session token, refusals turned
 * into {@link ApiError}s (the service's Response `message`, `detail` and `validations`), and
 * WebSockets opened on the same routes.
 *
 * The token travels as `Authorization: Bearer <token>`, which every deployment accepts whatever
 * it named its session header (`Service-Session-Token` by default, `--session-header`;
 * packages/http/src/dispatch/Exchange.ts reads the header, then the cookie, then the bearer).
 */
import WebSocket from "ws"
import { ApiError, CliError, type Validation } from "./Errors.js"

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

type Query = Record<string, string | number | boolean | undefined>

export interface RequestOptions {
  readonly query?: Query
  readonly body?: unknown
  /** Raw bytes with their content type instead of a JSON body. */
  readonly bytes?: { readonly data: Uint8Array; readonly contentType: string }
  /** Statuses answered without throwing (their body is returned). */
  readonly accept?: ReadonlyArray<number>
}

export interface ApiResponse<A> {
  readonly status: number
  readonly body: A
}

/** The ApiError of a refused request: its Response body when it has one, else the status line and text. */
export const apiErrorOf = (status: number, statusText: string, text: string): ApiError => {
  try {
    const body = JSON.parse(text) as { message?: unknown; detail?: unknown; validations?: unknown }
    if (typeof body.message === "string") {
      const validations = Array.isArray(body.validations)
        ? (body.validations as Array<Validation>).filter((v) => typeof v?.field === "string")
        : []
      return new ApiError(status, body.message, typeof body.detail === "string" ? body.detail : undefined, validations)
    }
  } catch {
    // not JSON: the status line and the text below
  }
  const snippet = text.trim().slice(0, 500)
  return new ApiError(status, `The service answered ${status} ${statusText}.`.replace(/ \./, "."), snippet, [])
}

export class Client {
  /** The API root: `<url>/api/v2`. */
  readonly api: string

  constructor(readonly url: string, readonly token: string | undefined) {
    this.api = `${url}/api/v2`
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.token === undefined ? extra : { ...extra, authorization: `Bearer ${this.token}` }
  }

  /** The absolute URL of `path` (under /api/v2) with `query`. */
  urlOf(path: string, query: Query = {}, protocol: "http" | "ws" = "http"): string {
    const u = new URL(`${this.api}${path}`)
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v))
    if (protocol === "ws") u.protocol = u.protocol === "https:" ? "wss:" : "ws:"
    return u.toString()
  }

  async request<A = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<A>> {
    const init: RequestInit = { method, headers: this.headers({ accept: "application/json" }) }
    if (options.bytes !== undefined) {
      init.headers = this.headers({ accept: "application/json", "content-type": options.bytes.contentType })
      init.body = options.bytes.data as unknown as BodyInit
    } else if (options.body !== undefined) {
      init.headers = this.headers({ accept: "application/json", "content-type": "application/json" })
      init.body = JSON.stringify(options.body)
    }
    let res: Response
    try {
      res = await fetch(this.urlOf(path, options.query), init)
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error
        ? e.cause.message
        : e instanceof Error
        ? e.message
        : e
      throw new CliError(`Could not reach ${this.url}: ${String(cause)}`)
    }
    const text = await res.text()
    if (!res.ok && !(options.accept ?? []).includes(res.status)) throw apiErrorOf(res.status, res.statusText, text)
    let body: any = undefined
    if (text !== "") {
      try {
        body = JSON.parse(text)
      } catch {
        body = text
      }
    }
    return { status: res.status, body: body as A }
  }

  get<A = any>(path: string, query?: Query): Promise<A> {
    return this.request<A>("GET", path, query === undefined ? {} : { query }).then((r) => r.body)
  }

  post<A = any>(path: string, body?: unknown): Promise<A> {
    return this.request<A>("POST", path, body === undefined ? {} : { body }).then((r) => r.body)
  }

  patch<A = any>(path: string, body?: unknown): Promise<A> {
    return this.request<A>("PATCH", path, body === undefined ? {} : { body }).then((r) => r.body)
  }

  /**
   * Opens a WebSocket on `path` (under /api/v2) with the token: resolves once open, **paused**;
   * a refusal before the upgrade rejects with its ApiError. The caller attaches its listeners,
   * then calls `resume()`: frames that came with the upgrade's answer are emitted on a
   * `process.nextTick`, before an `await` would have returned, and would be lost otherwise.
   */
  socket(path: string, query: Query = {}): Promise<WebSocket> {
    const ws = new WebSocket(this.urlOf(path, query, "ws"), {
      headers: this.headers(),
      // Frames from the service are at most what it splits them in; a generous bound.
      maxPayload: 64 * 1024 * 1024
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
