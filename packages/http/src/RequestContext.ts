/**
 * Per-request facts a handler may need (caller address, user agent, request id), response cookies,
 * and the status and content type of answers that have a choice of them.
 */
import { RetryLater } from "@workbay/core"
import { Context, Effect, Option } from "effect"

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
  /** Answers with `status`, one of the endpoint's declared success statuses (default: the first). */
  readonly setStatus: (status: number) => void
  /** The content type of a binary answer (default: the one its schema declares). */
  readonly setContentType: (contentType: string) => void
  /** Adds a response header (a redirect's Location, Cache-Control, a page's security headers), success or failure. */
  readonly setHeader: (name: string, value: string) => void
  /** Name of the session cookie of this deployment. */
  readonly sessionCookieName: string
  /** Name of the session header of this deployment (lower case). */
  readonly sessionHeaderName?: string | undefined
  /** The token the request carried (header, cookie or Bearer), for calls made on the caller's behalf (the health report's WebSocket check). */
  readonly sessionToken?: (() => string | undefined) | undefined
}

export class RequestContext
  extends Context.Tag("@workbay/http/RequestContext")<RequestContext, RequestContextShape>()
{}

/** Sets the session cookie (login). */
export const setSessionCookie = (token: string, expires: Date) =>
  Effect.map(RequestContext, (ctx) => ctx.setCookie(ctx.sessionCookieName, token, { expires }))

/** Clears the session cookie (logout). */
export const clearSessionCookie = Effect.map(
  RequestContext,
  (ctx) => ctx.setCookie(ctx.sessionCookieName, "", { maxAgeSeconds: 0, expires: new Date(0) })
)

/** The media type of a `Content-Type` header: no parameters, lower case. */
export const mediaTypeOf = (contentType: string): string => {
  const semi = contentType.indexOf(";")
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
}

/** The media type of the request body (empty when it has no `Content-Type`). */
export const requestMediaType = Effect.map(RequestContext, (ctx) => mediaTypeOf(ctx.header("content-type") ?? ""))

/**
 * Adds `Retry-After` to the answer when `effect` fails with a wait it knows (`RetryLater`: an
 * account's sign-in back-off).
 */
export const withRetryAfter = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | RequestContext> =>
  Effect.tapError(effect, (e) =>
    e instanceof RetryLater
      ? Effect.map(RequestContext, (ctx) => ctx.setHeader("retry-after", String(e.retryAfterSeconds)))
      : Effect.void)

/** Answers a redirect to `location` (the endpoint declares the status, e.g. 307, as its success). */
export const redirectTo = (location: string) => Effect.map(RequestContext, (ctx) => ctx.setHeader("location", location))

/** Nothing changed: 304 with no body (and no audit entry: the dispatcher writes none for a 304). */
export const notModified = Effect.map(RequestContext, (ctx) => void ctx.setStatus(304))

/** The changed thing, or 304 with no body when a service answers that nothing changed. */
export const orNotModified = <A, E, R>(effect: Effect.Effect<Option.Option<A>, E, R>) =>
  Effect.flatMap(effect, Option.match({ onNone: () => notModified, onSome: Effect.succeed }))
