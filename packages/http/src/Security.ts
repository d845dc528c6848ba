/** The authentication middleware tag: every group that needs a caller declares it. */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { CurrentActor, CurrentAgent, Unauthorized } from "@workbay/core"

/** Default names; deployments rename them after their product (see HttpOptions). */
export const DEFAULT_SESSION_HEADER = "Service-Session-Token"
export const DEFAULT_SESSION_COOKIE = "service_session_token"

/** Where a token may come: the session header, the session cookie, or `Authorization: Bearer`. */
const credentials = {
  sessionHeader: HttpApiSecurity.apiKey({ in: "header", key: DEFAULT_SESSION_HEADER }),
  sessionCookie: HttpApiSecurity.apiKey({ in: "cookie", key: DEFAULT_SESSION_COOKIE }),
  bearer: HttpApiSecurity.bearer
}

/**
 * Authenticates the caller from the session header, the session cookie or
 * `Authorization: Bearer`, and provides `CurrentActor`. The security entries
 * document the schemes in the OpenAPI document.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Unauthorized,
  provides: CurrentActor,
  security: credentials
}) {}

/**
 * Authenticates a workspace agent from its token, in the same header, cookie or bearer as a
 * user's key, and provides `CurrentAgent` (and `CurrentActor`: the agent acts as its workspace's
 * owner through a token limited to that workspace; see core's agents/AgentAuth.ts). Routes under
 * `/workspaceagents/me/` declare it alone: only an agent's token reaches them. A route that
 * declares both this and {@link Authentication} (`PUT /workspaces/{workspace}/extend`) takes
 * either: a token of an agent's form is an agent's.
 */
export class AgentAuthentication extends HttpApiMiddleware.Tag<AgentAuthentication>()("AgentAuthentication", {
  failure: Unauthorized,
  provides: CurrentAgent,
  security: credentials
}) {}
