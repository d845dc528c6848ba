/** The authentication middleware tag: every group that needs a caller declares it. */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { CurrentActor, Unauthorized } from "@workbay/core"

/** Default names; deployments rename them after their product (see HttpOptions). */
export const DEFAULT_SESSION_HEADER = "Service-Session-Token"
export const DEFAULT_SESSION_COOKIE = "service_session_token"

/**
 * Authenticates the caller from the session header, the session cookie or
 * `Authorization: Bearer`, and provides `CurrentActor`. The security entries
 * document the schemes in the OpenAPI document.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Unauthorized,
  provides: CurrentActor,
  security: {
    sessionHeader: HttpApiSecurity.apiKey({ in: "header", key: DEFAULT_SESSION_HEADER }),
    sessionCookie: HttpApiSecurity.apiKey({ in: "cookie", key: DEFAULT_SESSION_COOKIE }),
    bearer: HttpApiSecurity.bearer
  }
}) {}
