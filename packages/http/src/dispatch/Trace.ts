/**
 * The span of each routed request while spans are collected (docs/tracing.md): one server span
 * named after the route (`GET /api/v2/users/{user}`), the parent of everything the request's
 * fiber records (service calls, SQL statements), ended when the answer is written, with the
 * status it carries. It records the method, the route's template, the status, the request's id
 * and the caller's user id: never the path as sent, the query or a header (they may carry tokens).
 * A valid W3C `traceparent` header makes the span a child of the caller's (its trace id and parent
 * span id, as any OpenTelemetry server takes them up); an invalid one is ignored.
 * Off (Effect's built-in tracer), nothing here runs.
 */
import { Headers, HttpTraceContext } from "@effect/platform"
import { type Actor, CurrentActor } from "@workbay/core"
import { Context, Effect, Exit, Option, Runtime, Tracer } from "effect"
import type { WebSocketUpgrade } from "../WebSocket.js"
import type { RawResponse } from "./Raw.js"

/** A request being traced: its answer callbacks, which end its span. */
export interface TracedRequest {
  readonly respond: (r: RawResponse) => void
  readonly accept: ((u: WebSocketUpgrade) => void) | undefined
  /** Makes the span the parent of what the request's fiber records, and reads the caller from `services` at the end. */
  readonly attach: (services: Map<string, unknown>) => void
}

export interface RequestTracing {
  /** Whether requests are traced (else `start` need not be called). */
  readonly enabled: boolean
  /** Starts the span of a request to the route `template` (`traceparent`: the request's header). */
  readonly start: (
    method: string,
    template: string,
    requestId: string,
    traceparent: string | undefined,
    respond: (r: RawResponse) => void,
    accept: ((u: WebSocketUpgrade) => void) | undefined
  ) => TracedRequest
}

/** An id of zeros only is invalid (W3C Trace Context): such a header is ignored, as a malformed one is. */
const zeros = /^0+$/

/** The caller's span named by a `traceparent` header, when the header is valid. */
const callerSpan = (traceparent: string | undefined): Option.Option<Tracer.AnySpan> =>
  traceparent === undefined
    ? Option.none()
    : Option.filter(
      HttpTraceContext.w3c(Headers.unsafeFromRecord({ traceparent: traceparent.trim() })),
      (span) => !zeros.test(span.traceId) && !zeros.test(span.spanId)
    )

/** The request spans of `runtime`'s tracer (`enabled`: whether its spans are collected). */
export const makeRequestTracing = <R>(runtime: Runtime.Runtime<R>, enabled: boolean): RequestTracing => {
  if (!enabled) return { enabled, start: () => ({ respond: () => {}, accept: undefined, attach: () => {} }) }
  const [tracer, clock] = Runtime.runSync(runtime)(Effect.all([Effect.tracer, Effect.clock]))
  const start: RequestTracing["start"] = (method, template, requestId, traceparent, respond, accept) => {
    const span = tracer.span(
      `${method} ${template}`,
      callerSpan(traceparent),
      Context.empty(),
      [],
      clock.unsafeCurrentTimeNanos(),
      "server"
    )
    span.attribute("http.request.method", method)
    span.attribute("http.route", template)
    span.attribute("workbay.request.id", requestId)
    let services: Map<string, unknown> | undefined
    let ended = false
    const end = (status: number) => {
      if (ended) return
      ended = true
      span.attribute("http.response.status_code", status)
      const actor = services?.get(CurrentActor.key) as Actor | undefined
      if (actor !== undefined) span.attribute("user.id", actor.user.id)
      // As OpenTelemetry's HTTP conventions: a server span is an error for a 5xx answer only.
      span.end(clock.unsafeCurrentTimeNanos(), status >= 500 ? Exit.fail(`Answered ${status}.`) : Exit.void)
    }
    return {
      respond: (r) => {
        end(r.status)
        respond(r)
      },
      accept: accept === undefined ? undefined : (u) => {
        end(101)
        accept(u)
      },
      attach: (s) => {
        services = s
        s.set(Tracer.ParentSpan.key, span)
      }
    }
  }
  return { enabled, start }
}
