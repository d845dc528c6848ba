/** Handlers of the authorization and session groups. */
import { Auth, AuthCheck } from "@workbay/core"
import { externalScopes, SignInCookies } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { clearSessionCookie, RequestContext, setSessionCookie, withRetryAfter } from "../RequestContext.js"

export const AuthorizationHttp = implement(WorkbayApi, "authorization", {
  scopes: () => Effect.succeed({ external: externalScopes }),
  login: ({ payload }) =>
    Effect.flatMap(Auth, (auth) => auth.login(payload.email, payload.password)).pipe(
      withRetryAfter,
      Effect.tap((r) => setSessionCookie(r.session_token, r.expires_at)),
      Effect.map((r) => ({ session_token: r.session_token }))
    ),
  requestOneTimePasscode: ({ payload }) => Effect.flatMap(Auth, (auth) => auth.requestOneTimePasscode(payload.email)),
  changePasswordWithOneTimePasscode: ({ payload }) =>
    withRetryAfter(Effect.flatMap(Auth, (auth) => auth.changePasswordWithPasscode(payload))),
  getFirstUser: () => Effect.flatMap(Auth, (auth) => auth.firstUserStatus),
  createFirstUser: ({ payload }) => Effect.flatMap(Auth, (auth) => auth.createFirstUser(payload)),
  authMethods: () => Effect.flatMap(Auth, (auth) => auth.authMethods)
})

export const SessionHttp = implement(WorkbayApi, "session", {
  authcheck: ({ payload }) => Effect.flatMap(AuthCheck, (authCheck) => authCheck.check(payload.checks)),
  validatePassword: ({ payload }) => Effect.flatMap(Auth, (auth) => auth.validatePassword(payload.password)),
  convertLogin: ({ path, payload }) =>
    Effect.flatMap(Auth, (auth) => auth.convertLogin(path.user, payload)).pipe(
      // The provider's callback completes the conversion only in the browser holding this cookie.
      Effect.tap((r) =>
        Effect.map(RequestContext, (ctx) =>
          ctx.setCookie(SignInCookies.convert, r.state_string, { expires: r.expires_at }))
      )
    ),
  logout: () => Effect.flatMap(Auth, (auth) => auth.logout).pipe(Effect.tap(() => clearSessionCookie))
})
