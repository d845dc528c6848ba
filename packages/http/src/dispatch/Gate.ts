/**
 * What may stop an authenticated request before its input is read: the rate limits (counted
 * against the user, the agent, or the address; RateLimit.ts), then the license feature gate (a
 * route of a feature the licenses do not grant answers 403, as the described system's
 * `RequireFeatureMW`; enterprise/Features.ts). A refused credential counts against the address
 * too, so guessing tokens is limited.
 */
import { type Actor, CurrentActor, CurrentAgent, Forbidden, Licensing } from "@workbay/core"
import { Clock, Context, Effect, Option, Runtime } from "effect"
import { unlicensedMessage } from "../enterprise/Features.js"
import { BYPASS_HEADER, checkLimits } from "../RateLimit.js"
import type { CountRefused } from "./Authenticate.js"
import { header, type RawRequest } from "./Raw.js"
import type { CompiledRoute } from "./Route.js"

type SetHeader = (name: string, value: string) => void

export interface Guard {
  /**
   * `inner` behind the route's rate limits, then its feature gate (`inner` itself when it has
   * neither). Authentication runs before (it is wrapped around this), so the limits see the
   * caller in `services`.
   */
  readonly guarded: <A, E, R>(
    route: CompiledRoute,
    req: RawRequest,
    setHeader: SetHeader,
    services: ReadonlyMap<string, unknown>,
    inner: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, unknown, R>
  /** A refused credential counts against the address; past the limit, 429 (identity when the route is not limited). */
  readonly countRefused: (route: CompiledRoute, req: RawRequest, setHeader: SetHeader) => CountRefused
}

const unlimited: CountRefused = (authenticate) => authenticate

export const makeGuard = <R>(runtime: Runtime.Runtime<R>): Guard => {
  // The feature gate: only with a license key configured (without one every feature is served).
  const licensing = Option.getOrUndefined(Context.getOption(runtime.context as Context.Context<unknown>, Licensing))
  const gate = licensing?.key === undefined ? undefined : licensing
  // The runtime's clock (a TestClock where a test provides one), read synchronously per limited request.
  const clock = Runtime.runSync(runtime)(Clock.clockWith(Effect.succeed))

  const guarded: Guard["guarded"] = (route, req, setHeader, services, inner) => {
    let effect: Effect.Effect<any, unknown, any> = inner
    if (gate !== undefined && route.feature !== undefined) {
      const gated = effect
      const feature = route.feature
      effect = Effect.flatMap(
        gate.enabled(feature),
        (on) => on ? gated : Effect.fail(new Forbidden({ message: unlicensedMessage(feature) }))
      )
    }
    const limiters = route.limiters
    if (limiters.length > 0) {
      const limited = effect
      effect = Effect.suspend(() => {
        const refused = checkLimits(
          limiters,
          route.name,
          {
            actor: services.get(CurrentActor.key) as Actor | undefined,
            agentId: (services.get(CurrentAgent.key) as { agent: { id: string } } | undefined)?.agent.id,
            ip: req.remoteAddress
          },
          header(req.headers, BYPASS_HEADER),
          setHeader,
          clock.unsafeCurrentTimeMillis()
        )
        return refused === undefined ? limited : Effect.fail(refused)
      })
    }
    return effect
  }

  const countRefused: Guard["countRefused"] = (route, req, setHeader) =>
    route.limiters.length === 0
      ? unlimited
      : (authenticate) =>
        Effect.catchAll(authenticate, (e) => {
          const refused = checkLimits(
            route.limiters,
            route.name,
            { ip: req.remoteAddress },
            undefined,
            setHeader,
            clock.unsafeCurrentTimeMillis()
          )
          return Effect.fail(refused ?? e)
        })

  return { guarded, countRefused }
}
