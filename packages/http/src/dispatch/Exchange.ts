/**
 * One request being served: its id, the `RequestContext` its handler reads (address, headers,
 * cookies, the session token) and what the handler chose of the answer (cookies to set, a
 * status, a content type, headers), which the answer then carries (Respond.ts).
 */
import type { CookieOptions, RequestContextShape } from "../RequestContext.js"
import type { DispatchOptions } from "./Options.js"
import { header, type RawRequest } from "./Raw.js"

export interface Exchange {
  readonly requestId: string
  /** What the handler sees (`RequestContext`). */
  readonly ctx: RequestContextShape
  /** `Set-Cookie` values of the answer. */
  readonly setCookies: Array<string>
  /** The success status the handler chose (`setStatus`), if any. */
  status: number | undefined
  /** The content type of a binary answer the handler chose, if any. */
  contentType: string | undefined
  /** Headers the handler added, kept on success and on typed failures. */
  headers: Record<string, string> | undefined
}

/**
 * What a handler sees of its request: one object whose functions are its class's, not closures
 * made per request (a long-lived session, an agent's, keeps its request's context as long as it
 * lives; eight closures were some 2.5 KB of it).
 */
class ExchangeContext implements RequestContextShape {
  readonly ip: string
  readonly userAgent: string
  readonly sessionCookieName: string
  readonly sessionHeaderName: string
  private cookies: Map<string, string> | undefined
  readonly exchange: Exchange
  constructor(
    private readonly req: RawRequest,
    readonly requestId: string,
    private readonly options: DispatchOptions
  ) {
    this.ip = req.remoteAddress
    this.userAgent = header(req.headers, "user-agent") ?? ""
    this.sessionCookieName = options.sessionCookie
    this.sessionHeaderName = options.sessionHeader
    this.exchange = {
      requestId,
      ctx: this,
      setCookies: [],
      status: undefined,
      contentType: undefined,
      headers: undefined
    }
  }
  header(name: string): string | undefined {
    return header(this.req.headers, name.toLowerCase())
  }
  cookie(name: string): string | undefined {
    return (this.cookies ??= parseCookies(header(this.req.headers, "cookie"))).get(name)
  }
  setCookie(name: string, value: string, opts?: CookieOptions): void {
    this.exchange.setCookies.push(serializeCookie(name, value, this.options.secureCookies, opts))
  }
  setStatus(status: number): void {
    this.exchange.status = status
  }
  setContentType(contentType: string): void {
    this.exchange.contentType = contentType
  }
  setHeader(name: string, value: string): void {
    ;(this.exchange.headers ??= {})[name.toLowerCase()] = value
  }
  sessionToken(): string | undefined {
    return sessionTokenOf(this.req, this, this.options)
  }
}

export const makeExchange = (req: RawRequest, requestId: string, options: DispatchOptions): Exchange =>
  new ExchangeContext(req, requestId, options).exchange

/** The token a request carries: the session header, else the session cookie, else `Authorization: Bearer`. */
export const sessionTokenOf = (req: RawRequest, ctx: RequestContextShape, options: DispatchOptions) =>
  header(req.headers, options.sessionHeader) ?? ctx.cookie(options.sessionCookie) ??
    bearer(header(req.headers, "authorization"))

const bearer = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  const m = /^Bearer\s+(.+)$/i.exec(authorization)
  return m ? m[1]!.trim() : undefined
}

const parseCookies = (cookieHeader: string | undefined): Map<string, string> => {
  const map = new Map<string, string>()
  if (!cookieHeader) return map
  for (const part of cookieHeader.split(";")) {
    const i = part.indexOf("=")
    if (i < 0) continue
    const key = part.slice(0, i).trim()
    if (!map.has(key)) {
      try {
        map.set(key, decodeURIComponent(part.slice(i + 1).trim()))
      } catch {
        map.set(key, part.slice(i + 1).trim())
      }
    }
  }
  return map
}

const serializeCookie = (name: string, value: string, secure: boolean, options?: CookieOptions) => {
  let s = `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax`
  if (options?.expires) s += `; Expires=${options.expires.toUTCString()}`
  if (options?.maxAgeSeconds !== undefined) s += `; Max-Age=${options.maxAgeSeconds}`
  if (secure) s += "; Secure"
  return s
}
