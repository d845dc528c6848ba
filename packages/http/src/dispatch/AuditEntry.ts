/**
 * One audit entry per state-changing request (a route with an `audited` declaration, Audit.ts),
 * written when the request ends, whatever the outcome. None for a 304, which changed nothing (as
 * the described system, which returns before it starts its audit entry there), nor for a success
 * its service said changed nothing, nor for an anonymous caller unless the route says so. The
 * services fill the entry in (`AuditRequest`) while they serve.
 */
import { AuditRequest, CurrentActor, newAuditRequest, writeAuditEntry } from "@workbay/core"
import { Effect, Exit, Option } from "effect"
import { defaultAction } from "../Audit.js"
import type { Exchange } from "./Exchange.js"
import type { RawRequest } from "./Raw.js"
import { statusOfCause } from "./Respond.js"
import type { CompiledRoute } from "./Route.js"

/** `inner` writing the audit entry of `route` when it ends (`inner` itself for a route without one). */
export const audited = <A, E, R>(
  route: CompiledRoute,
  req: RawRequest,
  exchange: Exchange,
  services: Map<string, unknown>,
  inner: Effect.Effect<A, E, R>
) => {
  const declared = route.audit
  if (declared === undefined) return inner
  const audit = newAuditRequest(declared.resourceType, declared.action ?? defaultAction(req.method))
  services.set(AuditRequest.key, audit)
  const { requestId, ctx } = exchange
  return Effect.onExit(
    inner,
    (exit) =>
      Effect.flatMap(
        Effect.serviceOption(CurrentActor),
        (actor) =>
          (Option.isNone(actor) && audit.userId === undefined && declared.anonymous !== true) ||
            (Exit.isSuccess(exit) && (exchange.status === 304 || audit.unchanged === true))
            ? Effect.void
            : writeAuditEntry(audit, {
              requestId,
              ip: ctx.ip,
              userAgent: ctx.userAgent,
              statusCode: Exit.isSuccess(exit) ? exchange.status ?? route.status : statusOfCause(exit.cause)
            }).pipe(
              Effect.catchAllCause((cause) =>
                Effect.logError("Could not write the audit entry of a request", cause).pipe(
                  Effect.annotateLogs("request_id", requestId)
                )
              )
            )
      )
  )
}
