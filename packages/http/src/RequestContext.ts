/** Per-request facts a handler may need (caller address, user agent, request id) and response cookies. */
import { Context, Effect } from "effect"

export interface CookieOptions {
  readonly expires?: Date | undefined
  readonly maxAgeSeconds?: number | undefined
}

export interface RequestContextShape {
  readonly requestId: string
  readonly ip: string
  readonly userAgent: string
  readonly header: (name: string) => string | undefined
  readonly cookie: (name: string) => string | undefined
  /** Adds a `Set-Cookie` to the response. */
  readonly setCookie: (name: string, value: string, options?: CookieOptions) => void
  /** Name of the session cookie of this deployment. */
  readonly sessionCookieName: string
}

export class RequestContext extends Context.Tag("@workbay/http/RequestContext")<RequestContext, RequestContextShape>() {}

/** Sets the session cookie (login). */
export const setSessionCookie = (token: string, expires: Date) =>
  Effect.map(RequestContext, (ctx) => ctx.setCookie(ctx.sessionCookieName, token, { expires }))

/** Clears the session cookie (logout). */
export const clearSessionCookie = Effect.map(RequestContext, (ctx) =>
  ctx.setCookie(ctx.sessionCookieName, "", { maxAgeSeconds: 0, expires: new Date(0) }))
