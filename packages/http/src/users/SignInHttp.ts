/** Handlers of the sign-in groups: decode the callback, one service call, then the cookies and the redirect it asks for. */
import {
  type CallbackAnswer,
  type CallbackInput,
  type CallbackQuery,
  DeviceFlowCallbackResponse,
  GithubSignIn,
  OidcSignIn
} from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { RequestContext } from "../RequestContext.js"

const withCookies = (query: typeof CallbackQuery.Type) =>
  Effect.map(RequestContext, (ctx): CallbackInput => ({ ...query, cookie: (name) => ctx.cookie(name) }))

/** Sets the answer's cookies (the session's among them) and its redirect, or answers where to go (device flow). */
const answer = (a: CallbackAnswer) =>
  Effect.map(RequestContext, (ctx) => {
    for (const c of a.cookies) ctx.setCookie(c.name, c.value, { maxAgeSeconds: c.maxAgeSeconds })
    if (a.session !== undefined) {
      ctx.setCookie(ctx.sessionCookieName, a.session.token, { expires: a.session.expires_at })
    }
    if (a.status === 307) {
      ctx.setStatus(307)
      ctx.setHeader("location", a.location)
      // The 307 has no body: the endpoint's empty success answers it.
      return undefined as unknown as DeviceFlowCallbackResponse
    }
    ctx.setStatus(200)
    return new DeviceFlowCallbackResponse({ redirect_url: a.location }, true)
  })

export const SignInHttp = implement(WorkbayApi, "signin", {
  githubCallback: ({ urlParams }) =>
    withCookies(urlParams).pipe(
      Effect.flatMap((input) => Effect.flatMap(GithubSignIn, (g) => g.callback(input))),
      Effect.flatMap(answer)
    ),
  githubDevice: () => Effect.flatMap(GithubSignIn, (g) => g.device),
  oidcCallback: ({ urlParams }) =>
    withCookies(urlParams).pipe(
      Effect.flatMap((input) => Effect.flatMap(OidcSignIn, (o) => o.callback(input))),
      Effect.flatMap(answer),
      Effect.asVoid
    )
})

export const SignInSessionHttp = implement(WorkbayApi, "signinSession", {
  oidcClaims: () => Effect.flatMap(OidcSignIn, (o) => o.claims)
})
