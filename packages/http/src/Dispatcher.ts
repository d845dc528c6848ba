/**
 * The request path from bytes to handler and back. Routes, decoders and
 * encoders are compiled once from the HttpApi definition; each request is one
 * router lookup, synchronous Schema decoding, one fiber for the handler, and a
 * direct write of the encoded JSON. Every failure becomes the Response object.
 */
import { HttpApiMiddleware, type HttpApi, type HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  type Actor, Auth, AuditRequest, BadRequest, CurrentActor, newAuditRequest, Settings, Unauthorized, type Validation,
  writeAuditEntry
} from "@workbay/core"
import { type AuditDeclaration, Audited, defaultAction } from "./Audit.js"
import { Cause, Context, Effect, Either, Exit, FiberRef, FiberRefs, FiberId, Option, ParseResult, Runtime, Schema, SchemaAST } from "effect"
import FindMyWay from "find-my-way"
import { randomUUID } from "node:crypto"
import type { GroupImplementation } from "./Handlers.js"
import { type CookieOptions, RequestContext, type RequestContextShape } from "./RequestContext.js"
import { Authentication, DEFAULT_SESSION_COOKIE, DEFAULT_SESSION_HEADER } from "./Security.js"

/** Options of the HTTP layer. */
export interface HttpOptions {
  /** Header carrying the session or API token. Default `Service-Session-Token`. */
  readonly sessionHeader?: string | undefined
  /** Cookie carrying the session token. Default `service_session_token`. */
  readonly sessionCookie?: string | undefined
  /** Mark cookies `Secure` (serve over HTTPS). Default: when the access URL is https. */
  readonly secureCookies?: boolean | undefined
  /** Largest accepted request body. Default 4 MiB. */
  readonly maxBodyBytes?: number | undefined
  /**
   * Record tracing spans (`Effect.withSpan`, the SQL client's spans) while serving requests.
   * Each span costs about 10 us. Default: only when the runtime has a tracer other than
   * Effect's built-in one, i.e. when someone collects them.
   */
  readonly spans?: boolean | undefined
}

/** A request as the adapters hand it over. */
export interface RawRequest {
  readonly method: string
  /** Path and query, e.g. `/api/v2/users?limit=5`. */
  readonly url: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** The body text (undefined when there is none), or a value a framework already parsed. */
  readonly body: string | undefined | { readonly parsed: unknown }
  readonly remoteAddress: string
}

export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string>>
  readonly body: string | undefined
}

export interface Dispatcher {
  /** Whether a path belongs to this service (the rest can go to the host application). */
  readonly owns: (path: string) => boolean
  readonly handle: (request: RawRequest, respond: (response: RawResponse) => void) => void
  readonly maxBodyBytes: number
}

interface ValidationEntry {
  readonly field: string
  readonly detail: string
}

type Decoder = (input: unknown) => Either.Either<any, ParseResult.ParseError>

interface CompiledRoute {
  readonly name: string
  readonly authenticated: boolean
  readonly decodePath: Decoder | undefined
  readonly decodeQuery: Decoder | undefined
  readonly arrayQueryKeys: ReadonlySet<string>
  readonly decodePayload: Decoder | undefined
  readonly encodeSuccess: ((a: unknown) => Either.Either<unknown, ParseResult.ParseError>) | undefined
  readonly status: number
  readonly handler: (request: any) => Effect.Effect<unknown, unknown, any>
  /** Set on state-changing routes: what their audit entries name. */
  readonly audit: AuditDeclaration | undefined
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" } as const
const decodeOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "ignore" }

const json = (status: number, value: unknown, extra?: Record<string, string | Array<string>>): RawResponse => ({
  status,
  headers: extra ? { ...JSON_HEADERS, ...extra } : { ...JSON_HEADERS },
  body: JSON.stringify(value)
})

const responseBody = (message: string, detail?: string, validations?: ReadonlyArray<ValidationEntry>) => ({
  message,
  ...(detail !== undefined ? { detail } : {}),
  ...(validations !== undefined && validations.length > 0 ? { validations } : {})
})

const badRequest = (message: string, detail?: string, validations?: ReadonlyArray<ValidationEntry>) =>
  new BadRequest(
    {
      message,
      ...(detail !== undefined ? { detail } : {}),
      ...(validations !== undefined ? { validations: validations as ReadonlyArray<Validation> } : {})
    },
    true
  )

/**
 * One validation per bad field, `field` being the JSON path (or the parameter name).
 * An optional field with a wrong value fails twice (its value, and "not undefined", or "not
 * null" for a field that takes `null` as "not given"); only the real issue is kept.
 */
export const validationsOf = (error: ParseResult.ParseError, prefix?: string): Array<ValidationEntry> => {
  const seen = new Map<string, string>()
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const paths = issues.map((i) => i.path.map(String).join("."))
  for (const [index, issue] of issues.entries()) {
    const own = paths[index]!
    const aboutAbsence = issue.message.startsWith("Expected undefined") || issue.message.startsWith("Expected null")
    if (aboutAbsence && paths.some((p, j) => j !== index && (p === own || p.startsWith(own === "" ? "" : `${own}.`)))) continue
    const path = issue.path.map(String).join(".")
    const field = prefix ? (path === "" ? prefix : path) : path
    if (seen.has(field)) continue
    seen.set(field, issue._tag === "Missing" ? "This field is required." : issue.message)
  }
  return [...seen].map(([field, detail]) => ({ field, detail }))
}

/** Keys of a Struct schema whose values are arrays (repeated query parameters). */
const arrayKeys = (ast: SchemaAST.AST): Set<string> => {
  const keys = new Set<string>()
  const unwrap = (a: SchemaAST.AST): SchemaAST.AST =>
    a._tag === "Transformation" ? unwrap(a.from) : a._tag === "Refinement" ? unwrap(a.from) : a
  const root = unwrap(ast)
  if (root._tag !== "TypeLiteral") return keys
  for (const ps of root.propertySignatures) {
    let t = unwrap(ps.type)
    if (t._tag === "Union") t = t.types.map(unwrap).find((x) => x._tag !== "UndefinedKeyword") ?? t
    if (t._tag === "TupleType") keys.add(String(ps.name))
  }
  return keys
}

const parseQuery = (query: string, arrays: ReadonlySet<string>): Record<string, string | Array<string>> => {
  const out: Record<string, string | Array<string>> = {}
  if (query === "") return out
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out[k]
    if (prev === undefined) out[k] = arrays.has(k) ? v.split(",").filter((s) => s !== "") : v
    else if (Array.isArray(prev)) prev.push(...(arrays.has(k) ? v.split(",") : [v]))
    else out[k] = [prev, v]
  }
  return out
}

const header = (headers: RawRequest["headers"], name: string): string | undefined => {
  const v = headers[name]
  return v === undefined ? undefined : typeof v === "string" ? v : v[0]
}

const parseCookies = (cookieHeader: string | undefined): Map<string, string> => {
  const map = new Map<string, string>()
  if (!cookieHeader) return map
  for (const part of cookieHeader.split(";")) {
    const i = part.indexOf("=")
    if (i < 0) continue
    const key = part.slice(0, i).trim()
    if (!map.has(key)) {
      try {
        map.set(key, decodeURIComponent(part.slice(i + 1).trim()))
      } catch {
        map.set(key, part.slice(i + 1).trim())
      }
    }
  }
  return map
}

const serializeCookie = (name: string, value: string, secure: boolean, options?: CookieOptions) => {
  let s = `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax`
  if (options?.expires) s += `; Expires=${options.expires.toUTCString()}`
  if (options?.maxAgeSeconds !== undefined) s += `; Max-Age=${options.maxAgeSeconds}`
  if (secure) s += "; Secure"
  return s
}

const errorStatusCache = new WeakMap<object, number>()
/** The HTTP status of a typed failure, read from its schema annotation. */
const statusOfError = (error: unknown): number | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const ctor = (error as { constructor?: { ast?: SchemaAST.AST } }).constructor
  if (ctor === undefined || ctor.ast === undefined) return undefined
  let status = errorStatusCache.get(ctor)
  if (status === undefined) {
    status = HttpApiSchema.getStatusErrorAST(ctor.ast)
    errorStatusCache.set(ctor, status)
  }
  return status
}

/**
 * One validation per string in `value` holding a NUL character (at its path). No text column
 * stores one (Postgres refuses it), so such input is a bad request, never a storage error.
 */
const nulFields = (value: unknown, path = "", out: Array<ValidationEntry> = []): Array<ValidationEntry> => {
  if (typeof value === "string") {
    if (value.includes("\u0000") && !out.some((v) => v.field === path)) {
      out.push({ field: path, detail: "Must not contain NUL characters." })
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      nulFields(k, path, out)
      nulFields(v, path === "" ? k : `${path}.${k}`, out)
    }
  }
  return out
}

/** The status a failed request answers with. */
const statusOfCause = (cause: Cause.Cause<unknown>): number => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return statusOfError(failure.value) ?? 500
  return Cause.isInterruptedOnly(cause) ? 503 : 500
}

/** `make()` on first call, then the function it made: each endpoint's schemas compile when it is first served. */
const lazily = <A, B>(make: () => (a: A) => B): ((a: A) => B) => {
  let f: ((a: A) => B) | undefined
  return (a) => (f ??= make())(a)
}

const decoderOf = (schema: Option.Option<Schema.Schema.Any>): Decoder | undefined =>
  Option.getOrUndefined(Option.map(schema, (s) => lazily(() => Schema.decodeUnknownEither(s as Schema.Schema<any, any>, decodeOptions))))

const hasAuthentication = (middlewares: ReadonlySet<HttpApiMiddleware.TagClassAny>) => middlewares.has(Authentication as any)

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
  const auth = Context.get(runtime.context, Auth)
  const sessionHeader = (options.sessionHeader ?? DEFAULT_SESSION_HEADER).toLowerCase()
  const sessionCookie = options.sessionCookie ?? DEFAULT_SESSION_COOKIE
  const secureCookies = options.secureCookies ?? settings.accessUrl.startsWith("https:")
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024
  const runFork = Runtime.runFork(runtime)
  // Requests run on this runtime: the same services, spans off unless wanted.
  const spans = options.spans ?? Runtime.runSync(runtime)(Effect.tracer) !== Effect.runSync(Effect.tracer)
  const fiberRefs = spans
    ? runtime.fiberRefs
    : FiberRefs.updateAs(runtime.fiberRefs, { fiberId: FiberId.none, fiberRef: FiberRef.currentTracerEnabled, value: false })

  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 500 })
  const byGroup = new Map(implementations.map((i) => [i.group, i.handlers]))
  const groups = (api as unknown as HttpApi.HttpApi.AnyWithProps).groups
  for (const group of Object.values(groups) as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    const handlers = byGroup.get(group.identifier)
    if (handlers === undefined) throw new Error(`No implementation for group "${group.identifier}".`)
    for (const endpoint of Object.values(group.endpoints)) {
      const handler = handlers[endpoint.name]
      if (handler === undefined) throw new Error(`No handler for ${group.identifier}.${endpoint.name}.`)
      const successAst = endpoint.successSchema.ast
      const isVoid = HttpApiSchema.isVoid(successAst)
      const audit = Context.getOption(endpoint.annotations, Audited)
      if (endpoint.method !== "GET" && Option.isNone(audit)) {
        throw new Error(`${group.identifier}.${endpoint.name} changes state but declares no audit (audited/notAudited).`)
      }
      const route: CompiledRoute = {
        name: `${group.identifier}.${endpoint.name}`,
        authenticated: hasAuthentication(group.middlewares) || hasAuthentication(endpoint.middlewares),
        // Compiled on first use: compiling every endpoint's schemas would cost start-up about 25 ms.
        decodePath: decoderOf(endpoint.pathSchema),
        decodeQuery: decoderOf(endpoint.urlParamsSchema),
        arrayQueryKeys: Option.match(endpoint.urlParamsSchema, { onNone: () => new Set<string>(), onSome: (s) => arrayKeys(s.ast) }),
        decodePayload: decoderOf(endpoint.payloadSchema),
        encodeSuccess: isVoid
          ? undefined
          : lazily(() => Schema.encodeUnknownEither(endpoint.successSchema as Schema.Schema<any, any>)),
        status: HttpApiSchema.getStatusSuccessAST(successAst),
        handler,
        audit: Option.isSome(audit) && audit.value !== false ? audit.value : undefined
      }
      router.on(endpoint.method as FindMyWay.HTTPMethod, endpoint.path, () => undefined, route)
    }
  }

  let openApiDocument: string | undefined
  const swaggerPaths = new Set(["/swagger/doc.json", "/api/v2/swagger/doc.json"])

  const owns = (path: string) =>
    path === "/api/v2" || path.startsWith("/api/v2/") || (settings.swaggerEnable && swaggerPaths.has(path))

  const fail = (respond: (r: RawResponse) => void, cause: Cause.Cause<unknown>, requestId: string) => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const error = failure.value as { message?: string; detail?: string; validations?: ReadonlyArray<ValidationEntry> }
      const status = statusOfError(error)
      if (status !== undefined && typeof error.message === "string") {
        return respond(json(status, responseBody(error.message, error.detail, error.validations), { "x-request-id": requestId }))
      }
    }
    if (Cause.isInterruptedOnly(cause)) return respond(json(503, responseBody("The request was interrupted.")))
    runFork(Effect.logError("Unhandled failure while serving a request", cause).pipe(Effect.annotateLogs("request_id", requestId)))
    respond(json(500, responseBody("An internal error occurred.", `Request id: ${requestId}.`), { "x-request-id": requestId }))
  }

  const handle = (req: RawRequest, respond: (r: RawResponse) => void): void => {
    const q = req.url.indexOf("?")
    const path = q < 0 ? req.url : req.url.slice(0, q)
    const query = q < 0 ? "" : req.url.slice(q + 1)

    if (settings.swaggerEnable && req.method === "GET" && swaggerPaths.has(path)) {
      openApiDocument ??= JSON.stringify(OpenApi.fromApi(api as any))
      return respond({ status: 200, headers: { ...JSON_HEADERS }, body: openApiDocument })
    }

    const found = router.find(req.method as FindMyWay.HTTPMethod, path)
    if (found === null) {
      if (!owns(path)) return respond(json(404, responseBody("Route not found.", `No route ${req.method} ${path}.`)))
      const allowedMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => router.find(m as FindMyWay.HTTPMethod, path) !== null)
      return allowedMethods.length > 0
        ? respond(json(405, responseBody("Method not allowed.", `${req.method} is not allowed on ${path}.`), { allow: allowedMethods.join(", ") }))
        : respond(json(404, responseBody("Route not found.", `No route ${req.method} ${path}.`)))
    }
    const route = found.store as CompiledRoute
    const requestId = randomUUID()
    const request: Record<string, unknown> = {}

    /** Decodes path, query and body into `request`; a 400 with every bad field when they do not fit. */
    const decodeRequest = (): BadRequest | undefined => {
      let validations: Array<ValidationEntry> | undefined
      const nulInPath = nulFields(found.params)
      if (nulInPath.length > 0) (validations ??= []).push(...nulInPath)
      else if (route.decodePath !== undefined) {
        const r = route.decodePath(found.params)
        if (Either.isRight(r)) request.path = r.right
        else (validations ??= []).push(...validationsOf(r.left))
      }
      if (route.decodeQuery !== undefined) {
        const params = parseQuery(query, route.arrayQueryKeys)
        const nul = nulFields(params)
        const r = nul.length === 0 ? route.decodeQuery(params) : undefined
        if (r === undefined) (validations ??= []).push(...nul)
        else if (Either.isRight(r)) request.urlParams = r.right
        else (validations ??= []).push(...validationsOf(r.left))
      }
      if (route.decodePayload !== undefined) {
        let body: unknown
        if (typeof req.body === "object") body = req.body.parsed
        else if (req.body === undefined || req.body.trim() === "") body = {}
        else {
          const contentType = header(req.headers, "content-type") ?? ""
          if (contentType.includes("application/x-www-form-urlencoded")) {
            body = Object.fromEntries(new URLSearchParams(req.body))
          } else {
            try {
              body = JSON.parse(req.body)
            } catch (e) {
              return badRequest("Request body must be valid JSON.", e instanceof Error ? e.message : String(e))
            }
          }
        }
        if (typeof body !== "object" || body === null || Array.isArray(body)) {
          return badRequest("Request body must be a JSON object.")
        }
        const nul = nulFields(body)
        if (nul.length > 0) return badRequest("Validation failed.", undefined, [...(validations ?? []), ...nul])
        const r = route.decodePayload(body)
        if (Either.isRight(r)) request.payload = r.right
        else (validations ??= []).push(...validationsOf(r.left))
      }
      return validations === undefined ? undefined : badRequest("Validation failed.", undefined, validations)
    }

    const cookieHeader = header(req.headers, "cookie")
    let cookies: Map<string, string> | undefined
    const setCookies: Array<string> = []
    const ctx: RequestContextShape = {
      requestId,
      ip: req.remoteAddress,
      userAgent: header(req.headers, "user-agent") ?? "",
      header: (name) => header(req.headers, name.toLowerCase()),
      cookie: (name) => (cookies ??= parseCookies(cookieHeader)).get(name),
      setCookie: (name, value, opts) => void setCookies.push(serializeCookie(name, value, secureCookies, opts)),
      sessionCookieName: sessionCookie
    }

    // Credentials are checked before the input, so an anonymous caller learns nothing about
    // an endpoint's input rules. The request's services go into the context the fiber starts
    // with, and the actor is added to it in place once known: Effect.provideService would
    // cost about 9 us each.
    let effect: Effect.Effect<unknown, unknown, any> = Effect.suspend(() => {
      const problem = decodeRequest()
      return problem === undefined ? route.handler(request) : Effect.fail(problem)
    })
    if (route.authenticated) {
      const token = header(req.headers, sessionHeader) ?? ctx.cookie(sessionCookie) ?? bearer(header(req.headers, "authorization"))
      if (token === undefined || token === "") {
        return respond(json(401, responseBody(
          "You must be logged in to access this resource.",
          `Send a token in the "${options.sessionHeader ?? DEFAULT_SESSION_HEADER}" header, the "${sessionCookie}" cookie, or "Authorization: Bearer".`
        ), { "x-request-id": requestId }))
      }
      const inner = effect
      effect = Effect.flatMap(auth.authenticate(token), (actor: Actor) =>
        Effect.zipRight(FiberRef.update(FiberRef.currentContext, Context.add(CurrentActor, actor)), inner))
    }

    let context = Context.add(runtime.context, RequestContext, ctx)
    if (route.audit !== undefined) {
      // One audit entry per state-changing request, written when it ends, whatever the outcome.
      const declared = route.audit
      const audit = newAuditRequest(declared.resourceType, declared.action ?? defaultAction(req.method))
      context = Context.add(context, AuditRequest, audit)
      effect = Effect.onExit(effect, (exit) =>
        Effect.flatMap(Effect.serviceOption(CurrentActor), (actor) =>
          Option.isNone(actor) && audit.userId === undefined && declared.anonymous !== true
            ? Effect.void
            : writeAuditEntry(audit, {
              requestId,
              ip: ctx.ip,
              userAgent: ctx.userAgent,
              statusCode: Exit.isSuccess(exit) ? route.status : statusOfCause(exit.cause)
            }).pipe(
              Effect.catchAllCause((cause) =>
                Effect.logError("Could not write the audit entry of a request", cause).pipe(
                  Effect.annotateLogs("request_id", requestId)
                ))
            )))
    }
    const requestRuntime = Runtime.make({
      context,
      fiberRefs,
      runtimeFlags: runtime.runtimeFlags
    })
    Runtime.runCallback(requestRuntime, effect as Effect.Effect<unknown, unknown, R | RequestContext>, {
      onExit: (exit) => {
        if (Exit.isFailure(exit)) return fail(respond, exit.cause, requestId)
        const extra: Record<string, string | Array<string>> = { "x-request-id": requestId }
        if (setCookies.length > 0) extra["set-cookie"] = setCookies
        if (route.encodeSuccess === undefined) return respond({ status: route.status, headers: extra, body: undefined })
        const encoded = route.encodeSuccess(exit.value)
        if (Either.isLeft(encoded)) {
          return fail(respond, Cause.die(new Error(`Response of ${route.name} does not match its schema: ${encoded.left.message}`)), requestId)
        }
        respond(json(route.status, encoded.right, extra))
      }
    })
  }

  return { owns, handle, maxBodyBytes }
}

const bearer = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  const m = /^Bearer\s+(.+)$/i.exec(authorization)
  return m ? m[1]!.trim() : undefined
}

/** Unauthorized as the dispatcher answers it, for callers that authenticate elsewhere (WebSockets). */
export const unauthorized = (message: string) => new Unauthorized({ message })
