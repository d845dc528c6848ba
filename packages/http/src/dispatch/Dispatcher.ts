/**
 * The request path from bytes to handler and back, composed of parts with one job each. Routes,
 * decoders and encoders are compiled once from the HttpApi definition; each request is one
 * router lookup, synchronous Schema decoding, one fiber for the handler (authentication
 * included), and a direct write of the encoded answer. Every failure becomes the Response object.
 *
 * How a request flows through the parts:
 * 1. `handle`: the client's address (RealIp.ts); the answer callbacks wrapped to report the
 *    request when metrics or debug logs are on (Observe.ts); `HEAD` served as `GET` without the
 *    body (Respond.ts `withoutBody`).
 * 2. `serve`: the probes and the OpenAPI document; else one lookup (Route.ts), whose miss is
 *    answered there (400, 404, 405).
 * 3. The request's state: its id and `RequestContext` (Exchange.ts), its services over the
 *    runtime's (RequestRuntime.ts).
 * 4. Its effect, built inside out and run as one fiber (RequestRuntime.ts), runs:
 *    authentication (Authenticate.ts; a route that takes callers answers 401 at once without a
 *    token), the rate limits and the license feature gate (Gate.ts), the input decoded
 *    (Decode.ts, Validations.ts), the handler; the audit entry is written when it ends
 *    (AuditEntry.ts).
 * 5. Its exit is the answer (Respond.ts): a WebSocket upgrade (Upgrade.ts), an event stream, the
 *    success encoded as JSON or bytes, or the failure mapped to its status and body.
 * While spans are collected (a tracer other than Effect's built-in one), a routed request has a
 * server span from its route's lookup to its answer, the parent of its fiber's spans (Trace.ts).
 *
 * A route may instead take its body as raw bytes and answer bytes: a payload (or a member of a
 * payload union) declared with `HttpApiSchema.Uint8Array({ contentType })` takes the body as a
 * `Uint8Array` in one of the declared content types, under `maxFileBytes`, never walked or
 * parsed; a success declared the same way is written as it is, with the declared content type
 * or the one the handler chose (`RequestContext.setContentType`).
 */
import { type HttpApi, OpenApi } from "@effect/platform"
import {
  accessHostOf,
  type Auth,
  crossSiteRefusal,
  isBuiltInTracer,
  newUuid,
  Settings,
  type SettingsShape,
  ThisReplica
} from "@workbay/core"
import { Context, Effect, Exit, type Fiber, Option, Runtime } from "effect"
import { randomUUID } from "node:crypto"
import type { GroupImplementation } from "../Handlers.js"
import { answerProbe, PROBE_PATHS } from "../Probes.js"
import { makeRateLimits } from "../RateLimit.js"
import { type ClientAddress, makeClientAddress, parseAddress } from "../RealIp.js"
import { isRelayed, RELAY_CLIENT_HEADER } from "../Relay.js"
import { RequestContext, type RequestContextShape } from "../RequestContext.js"
import { WebSocketUpgrade } from "../WebSocket.js"
import { audited } from "./AuditEntry.js"
import { makeAuthentication } from "./Authenticate.js"
import { decodeRequest } from "./Decode.js"
import { makeExchange, sessionTokenOf } from "./Exchange.js"
import { makeGuard } from "./Gate.js"
import { makeObserver, type RequestSeen } from "./Observe.js"
import { type HttpOptions, resolveOptions } from "./Options.js"
import { header } from "./Raw.js"
import type { BodyLimit, RawRequest, RawResponse } from "./Raw.js"
import { makeRequestRunner, requestContext, sessionRuntime } from "./RequestRuntime.js"
import { json, JSON_HEADERS, makeResponder, responseBody, withoutBody } from "./Respond.js"
import { type CompiledRoute, compileRoutes } from "./Route.js"
import { makeRequestTracing } from "./Trace.js"
import { makeUpgrades } from "./Upgrade.js"

export interface Dispatcher {
  /** Whether a path belongs to this service (the rest can go to the host application). */
  readonly owns: (path: string) => boolean
  readonly handle: (request: RawRequest, respond: (response: RawResponse) => void) => void
  readonly maxBodyBytes: number
  /** How the body of a request to `method` and `url` is read (adapters ask before reading it). */
  readonly bodyLimit: (method: string, url: string) => BodyLimit
  /**
   * Serves a request that asks to upgrade (the adapter's `upgrade` event): a WebSocket
   * endpoint's answer goes to `accept`, any other answer (an error, a route that does not
   * upgrade) to `respond`, to be written on the socket.
   */
  readonly upgrade: (
    request: RawRequest,
    respond: (response: RawResponse) => void,
    accept: (upgrade: WebSocketUpgrade) => void
  ) => void
  /**
   * The client's address from the peer's and the request's headers: the trusted proxy headers
   * when the peer is a trusted origin (`proxyTrustedHeaders`, `proxyTrustedOrigins`; RealIp.ts).
   */
  readonly clientAddress: ClientAddress
  /**
   * The client of a request from its peer's address and headers: the one another replica names
   * when the request carries the deployment's relay secret (`relayed`, Relay.ts), else
   * {@link clientAddress}'s.
   */
  readonly requestClient: (
    peer: string,
    headers: RawRequest["headers"]
  ) => { readonly address: string; readonly relayed: boolean }
  /** The deployment's relay secret ("" when the runtime has no `ThisReplica`): what a relayed request carries. */
  readonly relaySecret: string
  /** Runs an effect on the service's runtime (WebSocket sessions), with `context` as its services when given. */
  readonly runFork: <A, E>(effect: Effect.Effect<A, E>, context?: Context.Context<never>) => Fiber.RuntimeFiber<A, E>
  readonly options: HttpOptions
  /** The deployment's settings (the app proxy reads the wildcard app host and the access URL). */
  readonly settings: SettingsShape
}

/** Methods that change nothing: a cross-site one is harmless (CrossSite.ts). */
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * Compiles `api` and its group implementations into a dispatcher running on
 * `runtime`. Every endpoint must have a handler.
 */
export const makeDispatcher = <R>(
  api: HttpApi.HttpApi.Any,
  implementations: ReadonlyArray<GroupImplementation<R>>,
  runtime: Runtime.Runtime<R | Auth | Settings>,
  options: HttpOptions = {}
): Dispatcher => {
  const settings = Context.get(runtime.context, Settings)
  const resolved = resolveOptions(options, settings)
  const rateLimits = makeRateLimits(
    options.rateLimits === false ? { ...settings, rateLimitDisableAll: true } : settings
  )
  const routes = compileRoutes(api, implementations, rateLimits, settings, resolved)
  const clientAddress = makeClientAddress(settings)
  const accessHost = accessHostOf(settings.accessUrl)
  /** The token came from the session cookie: no session header and no bearer (a browser adds neither by itself). */
  const cookieAuthenticated = (req: RawRequest, ctx: RequestContextShape) =>
    header(req.headers, resolved.sessionHeader) === undefined && header(req.headers, "authorization") === undefined &&
    ctx.cookie(resolved.sessionCookie) !== undefined
  const relaySecret = Option.match(Context.getOption(runtime.context as Context.Context<unknown>, ThisReplica), {
    onNone: () => "",
    onSome: (r) => r.relaySecret
  })
  const requestClient = (peer: string, headers: RawRequest["headers"]) =>
    relaySecret !== "" && isRelayed(relaySecret, headers)
      ? { address: parseAddress(header(headers, RELAY_CLIENT_HEADER) ?? "") ?? peer, relayed: true }
      : { address: clientAddress(peer, headers), relayed: false }
  // Spans cost about 10 us each: recorded only when someone collects them, or when asked.
  const spans = options.spans ?? !isBuiltInTracer(Runtime.runSync(runtime)(Effect.tracer))
  // Sessions (WebSockets, event streams) and the observer's work run as requests do, spans included.
  const sessions = sessionRuntime(runtime, spans)
  const runFork = <A, E>(effect: Effect.Effect<A, E>, context?: Context.Context<never>) =>
    Runtime.runFork(
      context === undefined ? sessions : Runtime.make({
        context,
        fiberRefs: sessions.fiberRefs,
        runtimeFlags: sessions.runtimeFlags
      })
    )(effect)
  const run = makeRequestRunner(runtime, spans)
  const tracing = makeRequestTracing(runtime, spans)
  const observer = makeObserver(runtime, runFork)
  const authentication = makeAuthentication(runtime, resolved)
  const guard = makeGuard(runtime)
  const responder = makeResponder(runFork)
  const answerUpgrade = makeUpgrades(settings)
  let openApiDocument: string | undefined

  const handle = (
    given: RawRequest,
    answer: (r: RawResponse) => void,
    upgrade?: (u: WebSocketUpgrade) => void
  ): void => {
    // From here on (rate limits, audit, logs) the request's address is the client's.
    // A request another replica relayed names its client (Relay.ts); believed only with the deployment's secret.
    const client = requestClient(given.remoteAddress, given.headers).address
    const req = client === given.remoteAddress ? given : { ...given, remoteAddress: client }
    const observed = observer.enabled ? observer.observe(req, answer, upgrade) : undefined
    const respond = observed === undefined ? answer : observed.respond
    // HEAD is GET without the body: the same status and headers, the length of the body it omits.
    const head = req.method === "HEAD"
    const send = head ? (r: RawResponse) => respond(withoutBody(r)) : respond
    const accept = head ? undefined : observed === undefined ? upgrade : observed.accept
    try {
      serve(req, head ? "GET" : req.method, send, accept, observed?.seen)
    } catch (error) {
      // Nothing above should throw; if it does, the caller still gets an answer and the server lives.
      responder.crash(send, error, randomUUID())
    }
  }

  const serve = (
    req: RawRequest,
    method: string,
    answer: (r: RawResponse) => void,
    upgrade: ((u: WebSocketUpgrade) => void) | undefined,
    seen: RequestSeen | undefined
  ): void => {
    let respond = answer
    let accept = upgrade
    const q = req.url.indexOf("?")
    const path = q < 0 ? req.url : req.url.slice(0, q)
    if (method === "GET" && PROBE_PATHS.has(path)) return answerProbe(runtime, path, respond)
    if (settings.swaggerEnable && method === "GET" && routes.swaggerPaths.has(path)) {
      openApiDocument ??= JSON.stringify(OpenApi.fromApi(api as any))
      return respond({ status: 200, headers: { ...JSON_HEADERS }, body: openApiDocument })
    }
    const found = routes.find(method, path)
    if (found === null || found.store === null) return respond(routes.miss(req.method, path, found))
    const route = found.store as CompiledRoute
    if (seen !== undefined) seen.route = route.template
    const requestId = newUuid()
    const traced = tracing.enabled
      ? tracing.start(req.method, route.template, requestId, header(req.headers, "traceparent"), respond, accept)
      : undefined
    if (traced !== undefined) ({ respond, accept } = traced)
    const exchange = makeExchange(req, requestId, resolved)
    // A route that takes callers answers a request without a token at once.
    const token = route.authenticated === "none" ? undefined : sessionTokenOf(req, exchange.ctx, resolved) ?? ""
    if (token === "") return respond(authentication.missing(requestId))
    // A state change with the browser's own credentials (the session cookie, not a header it never
    // adds by itself) is refused when the browser says another site made it (CrossSite.ts).
    if (token !== undefined && !SAFE_METHODS.has(method) && cookieAuthenticated(req, exchange.ctx)) {
      const refusal = crossSiteRefusal({
        origin: header(req.headers, "origin"),
        secFetchSite: header(req.headers, "sec-fetch-site"),
        host: header(req.headers, "host")
      }, accessHost)
      if (refusal !== undefined) {
        return respond(json(403, responseBody("Cross-site request refused.", refusal), { "x-request-id": requestId }))
      }
    }
    const context = requestContext(runtime.context, RequestContext, exchange.ctx)
    const services = context.unsafeMap
    if (seen !== undefined) seen.services = services
    traced?.attach(services)

    // Built inside out. Credentials are checked before the input, so an anonymous caller learns
    // nothing about an endpoint's input rules. The actor is set in the request's services in
    // place once known: Effect.provideService would cost about 9 us.
    const request: Record<string, unknown> = {}
    let effect: Effect.Effect<unknown, unknown, any> = Effect.suspend(() => {
      const problem = decodeRequest(
        route,
        found.params,
        q < 0 ? "" : req.url.slice(q + 1),
        req,
        resolved.limits,
        request
      )
      return problem === undefined ? route.handler(request) : Effect.fail(problem)
    })
    const setHeader = (name: string, value: string) => exchange.ctx.setHeader(name, value)
    effect = guard.guarded(route, req, setHeader, services, effect)
    if (token !== undefined) {
      const countRefused = guard.countRefused(route, req, setHeader)
      effect = authentication.authenticated(route, token, services, countRefused, effect)
    }
    effect = audited(route, req, exchange, services, effect)

    run(context, effect, (exit) => {
      if (Exit.isFailure(exit)) return responder.fail(respond, exit.cause, requestId, exchange.headers)
      if (exit.value instanceof WebSocketUpgrade) return answerUpgrade(req, exit.value, respond, accept, requestId)
      responder.succeed(respond, route, exchange, exit.value)
    })
  }

  return {
    owns: routes.owns,
    handle: (req, respond) => handle(req, respond),
    upgrade: handle,
    clientAddress,
    requestClient,
    relaySecret,
    maxBodyBytes: resolved.maxBodyBytes,
    bodyLimit: routes.bodyLimit,
    runFork,
    options,
    settings
  }
}
