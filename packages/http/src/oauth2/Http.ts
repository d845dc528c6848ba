/** Handlers of the OAuth2 groups: decode, one service call, encode (pages rendered by Pages.ts). */
import { type AuthorizePage, OAuth2Apps, OAuth2Provider, OAuth2Settings } from "@workbay/core"
import { Effect } from "effect"
import { Buffer } from "node:buffer"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { RequestContext, type RequestContextShape } from "../RequestContext.js"
import { DEFAULT_SESSION_HEADER } from "../Security.js"
import { consentPage, errorPage, pageHeaders, redirectPage, signInPage } from "./Pages.js"

const bytes = (text: string) => new Uint8Array(Buffer.from(text, "utf8"))

/** The authorization request's query, as it came (the pages post back to the same query). */
const queryOf = (q: Readonly<Record<string, string | undefined>>) => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, v)
  return params.toString()
}

/**
 * The longest authorization request query the pages carry back (a sign-in or consent form posts
 * to it). A real request's query is a few hundred characters; a longer one is refused with the
 * error page rather than echoed into every page it passes through.
 */
export const MAX_PAGE_QUERY = 4096

/** The error page for a query longer than `MAX_PAGE_QUERY`, or undefined. */
const tooLong = (ctx: RequestContextShape, query: string): Uint8Array | undefined => {
  if (query.length <= MAX_PAGE_QUERY) return undefined
  return render(ctx, {
    kind: "error",
    message: `The authorization request is too long: its query may have at most ${MAX_PAGE_QUERY} characters.`
  }, "")
}

const setHeaders = (ctx: RequestContextShape, headers: Readonly<Record<string, string>>) => {
  for (const [k, v] of Object.entries(headers)) ctx.setHeader(k, v)
}

/** Renders what the authorization endpoint decided. */
const render = (ctx: RequestContextShape, result: AuthorizePage, query: string): Uint8Array => {
  switch (result.kind) {
    case "consent":
      setHeaders(ctx, pageHeaders(result.redirectUri))
      return bytes(consentPage(result, query))
    case "signIn":
      setHeaders(ctx, pageHeaders())
      return bytes(signInPage(query, result.message))
    case "redirect":
      setHeaders(ctx, pageHeaders())
      ctx.setStatus(302)
      ctx.setHeader("location", result.location)
      return bytes(redirectPage(result.location))
    case "error":
      setHeaders(ctx, pageHeaders())
      ctx.setStatus(400)
      return bytes(errorPage(result.message))
  }
}

const originOf = (ctx: RequestContextShape) => ({
  origin: ctx.header("origin"),
  secFetchSite: ctx.header("sec-fetch-site"),
  host: ctx.header("host")
})

/** The session a browser presents to the authorization page: its cookie (or the session header). */
const sessionTokenOf = (ctx: RequestContextShape) =>
  ctx.cookie(ctx.sessionCookieName) ?? ctx.header(DEFAULT_SESSION_HEADER.toLowerCase())

export const OAuth2AppsHttp = implement(WorkbayApi, "oauth2Apps", {
  list: ({ urlParams }) => Effect.flatMap(OAuth2Apps, (s) => s.list(urlParams)),
  create: ({ payload }) => Effect.flatMap(OAuth2Apps, (s) => s.create(payload)),
  get: ({ path }) => Effect.flatMap(OAuth2Apps, (s) => s.get(path.app)),
  update: ({ path, payload }) => Effect.flatMap(OAuth2Apps, (s) => s.update(path.app, payload)),
  delete: ({ path }) => Effect.flatMap(OAuth2Apps, (s) => s.delete(path.app)),
  listSecrets: ({ path }) => Effect.flatMap(OAuth2Apps, (s) => s.listSecrets(path.app)),
  createSecret: ({ path }) => Effect.flatMap(OAuth2Apps, (s) => s.createSecret(path.app)),
  deleteSecret: ({ path }) => Effect.flatMap(OAuth2Apps, (s) => s.deleteSecret(path.app, path.secretID)),
  getSettings: () => Effect.flatMap(OAuth2Settings, (s) => s.get),
  updateSettings: ({ payload }) => Effect.flatMap(OAuth2Settings, (s) => s.update(payload))
})

export const OAuth2Http = implement(WorkbayApi, "oauth2", {
  authorizePage: ({ urlParams }) =>
    Effect.gen(function*() {
      const ctx = yield* RequestContext
      const query = queryOf(urlParams)
      const refused = tooLong(ctx, query)
      if (refused !== undefined) return refused
      const result = yield* Effect.flatMap(OAuth2Provider, (p) => p.authorizePage(urlParams, sessionTokenOf(ctx)))
      return render(ctx, result, query)
    }),
  authorize: ({ payload, urlParams }) =>
    Effect.gen(function*() {
      const ctx = yield* RequestContext
      // Only a session the browser sends by itself (the cookie) needs the form's CSRF token.
      const viaCookie = ctx.cookie(ctx.sessionCookieName) !== undefined && ctx.header("authorization") === undefined &&
        ctx.header(DEFAULT_SESSION_HEADER.toLowerCase()) === undefined
      const location = yield* Effect.flatMap(OAuth2Provider, (p) =>
        p.authorize(urlParams, payload, { ...originOf(ctx), viaCookie }))
      ctx.setHeader("location", location)
      ctx.setHeader("cache-control", "no-store")
    }),
  signIn: ({ payload, urlParams }) =>
    Effect.gen(function*() {
      const ctx = yield* RequestContext
      const query = queryOf(urlParams)
      const refused = tooLong(ctx, query)
      if (refused !== undefined) return refused
      const result = yield* Effect.flatMap(OAuth2Provider, (p) => p.signIn(payload, originOf(ctx)))
      if (!result.ok) {
        setHeaders(ctx, pageHeaders())
        ctx.setStatus(401)
        return bytes(signInPage(query, result.message))
      }
      ctx.setCookie(ctx.sessionCookieName, result.session_token, { expires: result.expires_at })
      const location = `authorize${query === "" ? "" : `?${query}`}`
      setHeaders(ctx, pageHeaders())
      ctx.setStatus(303)
      ctx.setHeader("location", location)
      return bytes(redirectPage(location))
    }),
  register: ({ payload }) => Effect.flatMap(OAuth2Apps, (s) => s.register(payload)),
  getClient: ({ path }) =>
    Effect.flatMap(
      RequestContext,
      (ctx) => Effect.flatMap(OAuth2Apps, (s) => s.getClient(path.client_id, ctx.header("authorization")))
    ),
  updateClient: ({ path, payload }) =>
    Effect.flatMap(
      RequestContext,
      (ctx) => Effect.flatMap(OAuth2Apps, (s) => s.updateClient(path.client_id, ctx.header("authorization"), payload))
    ),
  deleteClient: ({ path }) =>
    Effect.flatMap(
      RequestContext,
      (ctx) => Effect.flatMap(OAuth2Apps, (s) => s.deleteClient(path.client_id, ctx.header("authorization")))
    ),
  token: ({ payload }) =>
    Effect.flatMap(RequestContext, (ctx) => {
      // RFC 6749 5.1: token answers (and errors, see the dispatcher) are never cached.
      ctx.setHeader("cache-control", "no-store")
      ctx.setHeader("pragma", "no-cache")
      return Effect.flatMap(OAuth2Provider, (p) => p.token(payload, ctx.header("authorization")))
    }),
  revokeApp: ({ urlParams }) => Effect.flatMap(OAuth2Provider, (p) => p.revokeApp(urlParams.client_id)),
  revoke: ({ payload }) =>
    Effect.flatMap(
      RequestContext,
      (ctx) => Effect.flatMap(OAuth2Provider, (p) => p.revoke(payload, ctx.header("authorization")))
    )
})

export const OAuth2DiscoveryHttp = implement(WorkbayApi, "oauth2Discovery", {
  authorizationServer: () => Effect.flatMap(OAuth2Provider, (p) => p.authorizationServer),
  protectedResource: () => Effect.flatMap(OAuth2Provider, (p) => p.protectedResource)
})
