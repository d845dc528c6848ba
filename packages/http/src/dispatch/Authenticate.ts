/**
 * Who calls: the token a request carries (session header, cookie or Bearer; Exchange.ts) as a
 * user's actor (`Auth`) or a workspace agent's (`AgentAuth`), set in the request's services as
 * `CurrentActor` (and `CurrentAgent`). A route that takes callers answers 401 at once when the
 * request carries no token; a refused token fails the request with the service's error.
 */
import { type Actor, AgentAuth, Auth, CurrentActor, CurrentAgent, isAgentToken, Unauthorized } from "@workbay/core"
import { Context, Effect, type Runtime } from "effect"
import type { DispatchOptions } from "./Options.js"
import type { RawResponse } from "./Raw.js"
import { json, responseBody } from "./Respond.js"
import type { CompiledRoute } from "./Route.js"

/** Unauthorized as the dispatcher answers it, for callers that authenticate elsewhere (WebSockets). */
export const unauthorized = (message: string) => new Unauthorized({ message })

/** Wraps the effect of checking a credential (a refused one counts against the address, Gate.ts). */
export type CountRefused = <A, E>(authenticate: Effect.Effect<A, E>) => Effect.Effect<A, unknown>

export interface Authentication {
  /** The 401 answer to a request without a token on a route that takes callers. */
  readonly missing: (requestId: string) => RawResponse
  /**
   * `inner` run as the caller of `token` (a user, or an agent where the route takes agents):
   * the actor is set in `services`, the request's own map, before `inner` runs.
   */
  readonly authenticated: <A, E, R>(
    route: CompiledRoute,
    token: string,
    services: Map<string, unknown>,
    countRefused: CountRefused,
    inner: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, unknown, R>
}

export const makeAuthentication = <R>(
  runtime: Runtime.Runtime<R | Auth>,
  options: DispatchOptions
): Authentication => {
  const auth = Context.get(runtime.context, Auth)
  // Looked up on first use: runtimes without agent routes (tests of other areas) need not provide it.
  let agents: AgentAuth | undefined
  const agentAuth = () => (agents ??= Context.unsafeGet(runtime.context as Context.Context<unknown>, AgentAuth))

  const missing = (requestId: string) =>
    json(
      401,
      responseBody(
        "You must be logged in to access this resource.",
        `Send a token in the "${options.sessionHeaderName}" header, the "${options.sessionCookie}" cookie, or "Authorization: Bearer".`
      ),
      { "x-request-id": requestId }
    )

  const authenticated: Authentication["authenticated"] = (route, token, services, countRefused, inner) =>
    route.authenticated === "agent" || (route.authenticated === "either" && isAgentToken(token))
      ? Effect.flatMap(countRefused(agentAuth().authenticateActor(token)), ({ actor, session }) => {
        services.set(CurrentActor.key, actor)
        services.set(CurrentAgent.key, session)
        return inner
      })
      : Effect.flatMap(countRefused(auth.authenticate(token)), (actor: Actor) => {
        services.set(CurrentActor.key, actor)
        return inner
      })

  return { missing, authenticated }
}
