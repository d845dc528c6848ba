/**
 * The request path from bytes to handler and back. Routes, decoders and
 * encoders are compiled once from the HttpApi definition; each request is one
 * router lookup, synchronous Schema decoding, one fiber for the handler, and a
 * direct write of the encoded JSON. Every failure becomes the Response object.
 *
 * A route may instead take its body as raw bytes and answer bytes: a payload (or a member of a
 * payload union) declared with `HttpApiSchema.Uint8Array({ contentType })` takes the body as a
 * `Uint8Array` in one of the declared content types, under `maxFileBytes`, never walked or
 * parsed; a success declared the same way is written as it is, with the declared content type
 * or the one the handler chose (`RequestContext.setContentType`).
 */
import {
  type HttpApi,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  OpenApi
} from "@effect/platform"
import {
  type Actor,
  AgentAuth,
  AuditRequest,
  Auth,
  BadRequest,
  compileEncoder,
  CurrentActor,
  CurrentAgent,
  DEFAULT_MAX_FILE_BYTES,
  type FeatureName,
  Forbidden,
  isAgentToken,
  Licensing,
  Metrics,
  newAuditRequest,
  OAuth2Error,
  OAuth2Unauthorized,
  secondsSince,
  Settings,
  Unauthorized,
  type Validation,
  writeAuditEntry
} from "@workbay/core"
import {
  Cause,
  Clock,
  Context,
  Effect,
  Either,
  Exit,
  Fiber,
  FiberId,
  FiberRef,
  FiberRefs,
  LogLevel,
  Option,
  ParseResult,
  Runtime,
  Schema,
  SchemaAST
} from "effect"
import FindMyWay from "find-my-way"
import { Buffer } from "node:buffer"
import { randomUUID } from "node:crypto"
import { type AuditDeclaration, Audited, defaultAction } from "./Audit.js"
import { featureOf, unlicensedMessage } from "./enterprise/Features.js"
import type { GroupImplementation } from "./Handlers.js"
import {
  clip,
  defaultInputLimits,
  type InputLimits,
  inspectInput,
  MAX_VALIDATIONS,
  tooDeepDetail,
  tooDeepJson
} from "./Limits.js"
import { answerProbe, PROBE_PATHS } from "./Probes.js"
import { BYPASS_HEADER, checkLimits, type Limiter, makeRateLimits } from "./RateLimit.js"
import { type ClientAddress, makeClientAddress } from "./RealIp.js"
import { type CookieOptions, mediaTypeOf, RequestContext, type RequestContextShape } from "./RequestContext.js"
import { AgentAuthentication, Authentication, DEFAULT_SESSION_COOKIE, DEFAULT_SESSION_HEADER } from "./Security.js"
import { EVENT_STREAM_HEADERS, EventStreamAnswer } from "./ServerSentEvents.js"
import { asksForWebSocket, WebSocketUpgrade } from "./WebSocket.js"

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
  /** Largest accepted raw body (an uploaded file, `POST /files`). Default 10 MiB. */
  readonly maxFileBytes?: number | undefined
  /** Limits on path, query and body values (400 at the field over them). Default `defaultInputLimits`. */
  readonly inputLimits?: Partial<InputLimits> | undefined
  /**
   * Record tracing spans (`Effect.withSpan`, the SQL client's spans) while serving requests.
   * Each span costs about 10 us. Default: only when the runtime has a tracer other than
   * Effect's built-in one, i.e. when someone collects them.
   */
  readonly spans?: boolean | undefined
  /** Largest message a WebSocket peer may send (past it the socket is closed with 1009). Default 32 KiB. */
  readonly maxWebSocketMessageBytes?: number | undefined
  /** Time between keep-alive pings of each WebSocket; one unanswered ping drops the socket. Default 15 s. */
  readonly webSocketPingIntervalMillis?: number | undefined
  /**
   * Apply the rate limits the settings describe (`rateLimitApi`, `rateLimitLogin`,
   * `rateLimitFiles`, `rateLimitDisableAll`; docs/configuration.md, "Rate limits"). `false` leaves
   * limiting to the host application (the settings are still reported). Default: true.
   */
  readonly rateLimits?: boolean | undefined
}

/** A request as the adapters hand it over. */
export interface RawRequest {
  readonly method: string
  /** Path and query, e.g. `/api/v2/users?limit=5`. */
  readonly url: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /**
   * The body text (undefined when there is none), its bytes (routes with a raw body, see
   * `Dispatcher.bodyLimit`), or a value a framework already parsed.
   */
  readonly body: string | Uint8Array | undefined | { readonly parsed: unknown }
  /**
   * The immediate peer's address (the socket's; "" when unknown). The dispatcher serves the
   * request under the client's address found from it (`clientAddress`, RealIp.ts).
   */
  readonly remoteAddress: string
}

export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string>>
  /** JSON text, or the bytes of a binary answer. */
  readonly body: string | Uint8Array | undefined
  /** A streaming answer (server-sent events): the adapter writes the headers, then opens it. */
  readonly stream?: StreamingBody | undefined
}

/** Where a streaming body writes: `write` resolves once the text is taken (after a drain when the buffer is full). */
export interface StreamWriter {
  readonly write: (text: string) => Promise<void>
  readonly end: () => void
}

/** A body written piece by piece; `open` starts it and answers the function that stops it (the client left). */
export interface StreamingBody {
  readonly open: (writer: StreamWriter) => () => void
}

/** How a request's body is read: as bytes or text, and up to how many bytes. */
export interface BodyLimit {
  readonly maxBytes: number
  /** Keep the bytes (the route takes a raw body); otherwise the body is read as UTF-8 text. */
  readonly binary: boolean
}

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
  /** Runs an effect on the service's runtime (WebSocket sessions). */
  readonly runFork: <A, E>(effect: Effect.Effect<A, E>) => Fiber.RuntimeFiber<A, E>
  readonly options: HttpOptions
}

interface ValidationEntry {
  readonly field: string
  readonly detail: string
}

type Decoder = (input: unknown) => Either.Either<any, ParseResult.ParseError>

interface CompiledRoute {
  readonly name: string
  /** The route's path template, as logs and metrics name it: `/api/v2/users/{user}`. */
  readonly template: string
  /**
   * Who may call: anyone (`none`), a user's key (`user`), a workspace agent's token (`agent`), or
   * either (`either`: a token of an agent's form is taken as an agent's).
   */
  readonly authenticated: "none" | "user" | "agent" | "either"
  readonly decodePath: Decoder | undefined
  readonly decodeQuery: Decoder | undefined
  readonly arrayQueryKeys: ReadonlySet<string>
  readonly decodePayload: Decoder | undefined
  readonly encodeSuccess: ((a: unknown) => Either.Either<unknown, ParseResult.ParseError>) | undefined
  /** The status of a success; the first declared when there are several. */
  readonly status: number
  /** Every declared success status (a handler may choose one with `RequestContext.setStatus`). */
  readonly successStatuses: ReadonlyArray<number>
  /** Media types of a raw body (the route takes bytes), or undefined for JSON and form bodies. */
  readonly binaryBody: ReadonlyArray<string> | undefined
  /** The declared content type of a binary success, or undefined for JSON. */
  readonly binarySuccess: string | undefined
  readonly handler: (request: any) => Effect.Effect<unknown, unknown, any>
  /** Set on state-changing routes: what their audit entries name. */
  readonly audit: AuditDeclaration | undefined
  /** The licensed feature the route needs (enterprise/Features.ts), if any. */
  readonly feature: FeatureName | undefined
  /** Its rate limiters, outermost first (RateLimit.ts); empty when limits are off. */
  readonly limiters: ReadonlyArray<Limiter>
}

/** The `path` label of requests no route matched (bounded cardinality: never the raw URL). */
export const UNKNOWN_ROUTE = "unknown"

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" } as const
const decodeOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "ignore" }

const json = (status: number, value: unknown, extra?: Record<string, string | Array<string>>): RawResponse => ({
  status,
  headers: extra ? { ...JSON_HEADERS, ...extra } : { ...JSON_HEADERS },
  body: JSON.stringify(value)
})

/** Bytes (JSON-encoded) of each part of an error body: with MAX_VALIDATIONS entries, at most about 7 KiB. */
const MESSAGE_BYTES = 256
const DETAIL_BYTES = 512
const FIELD_BYTES = 100
const VALIDATION_DETAIL_BYTES = 200

const moreNote = (listed: number, total: number, exact = true) =>
  exact
    ? `Only the first ${listed} of ${total} problems are listed.`
    : `Only the first ${listed} problems are listed, of at least ${total}.`

/**
 * The Response object, bounded whatever the error holds (input echoed in a message, thousands
 * of validations): at most MAX_VALIDATIONS validations, the detail saying how many there were,
 * and every string clipped.
 */
const responseBody = (message: string, detail?: string, validations?: ReadonlyArray<ValidationEntry>) => {
  const listed = validations !== undefined && validations.length > MAX_VALIDATIONS
    ? validations.slice(0, MAX_VALIDATIONS)
    : validations
  const note = listed !== validations ? moreNote(MAX_VALIDATIONS, validations!.length) : undefined
  const clipped = detail === undefined ? undefined : clip(detail, note === undefined ? DETAIL_BYTES : DETAIL_BYTES - 64)
  const fullDetail = note === undefined ? clipped : clipped === undefined ? note : `${clipped} ${note}`
  return {
    message: clip(message, MESSAGE_BYTES),
    ...(fullDetail !== undefined ? { detail: fullDetail } : {}),
    ...(listed !== undefined && listed.length > 0
      ? {
        validations: listed.map((v) => ({
          field: clip(v.field, FIELD_BYTES),
          detail: clip(v.detail, VALIDATION_DETAIL_BYTES)
        }))
      }
      : {})
  }
}

const badRequest = (message: string, detail?: string, validations?: ReadonlyArray<ValidationEntry>) =>
  new BadRequest(
    {
      message,
      ...(detail !== undefined ? { detail } : {}),
      ...(validations !== undefined ? { validations: validations as ReadonlyArray<Validation> } : {})
    },
    true
  )

/** Fields (pointers into the input) of one decoding failure that are formatted; the rest are only counted. */
const MAX_POINTERS = 100

/**
 * `issue` with at most `budget.left` pointers (a field or an item of the input, each usually one
 * validation); the pointers left out are counted in `budget.skipped`. Only pointers grow with
 * the input (an array of 1,000 bad items is 1,000 of them); the rest of the tree (a union's
 * members) is as wide as the schema. It recurses as deep as the schema nests, never deeper.
 */
const pruneIssue = (
  issue: ParseResult.ParseIssue,
  budget: { left: number; skipped: number }
): ParseResult.ParseIssue | undefined => {
  switch (issue._tag) {
    case "Pointer": {
      if (budget.left <= 0) {
        budget.skipped++
        return undefined
      }
      budget.left--
      const inner = pruneIssue(issue.issue, budget)
      return inner === undefined ? undefined : new ParseResult.Pointer(issue.path, issue.actual, inner)
    }
    case "Refinement": {
      const inner = pruneIssue(issue.issue, budget)
      return inner === undefined ? undefined : new ParseResult.Refinement(issue.ast, issue.actual, issue.kind, inner)
    }
    case "Transformation": {
      const inner = pruneIssue(issue.issue, budget)
      return inner === undefined
        ? undefined
        : new ParseResult.Transformation(issue.ast, issue.actual, issue.kind, inner)
    }
    case "Composite": {
      if (!Array.isArray(issue.issues)) {
        const inner = pruneIssue(issue.issues as ParseResult.ParseIssue, budget)
        return inner === undefined ? undefined : new ParseResult.Composite(issue.ast, issue.actual, inner, issue.output)
      }
      const kept: Array<ParseResult.ParseIssue> = []
      for (const child of issue.issues as ReadonlyArray<ParseResult.ParseIssue>) {
        const inner = pruneIssue(child, budget)
        if (inner !== undefined) kept.push(inner)
      }
      return kept.length === 0
        ? undefined
        : new ParseResult.Composite(
          issue.ast,
          issue.actual,
          kept as [ParseResult.ParseIssue, ...Array<ParseResult.ParseIssue>],
          issue.output
        )
    }
    default:
      return issue
  }
}

/**
 * One validation per bad field, `field` being the JSON path (or the parameter name).
 * An optional field with a wrong value fails twice (its value, and "not undefined", or "not
 * null" for a field that takes `null` as "not given"); only the real issue is kept.
 */
const formatValidations = (error: ParseResult.ParseError, prefix?: string): Array<ValidationEntry> => {
  const seen = new Map<string, string>()
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const paths = issues.map((i) => i.path.map(String).join("."))
  for (const [index, issue] of issues.entries()) {
    const own = paths[index]!
    const aboutAbsence = issue.message.startsWith("Expected undefined") || issue.message.startsWith("Expected null")
    if (aboutAbsence && paths.some((p, j) => j !== index && (p === own || p.startsWith(own === "" ? "" : `${own}.`)))) {
      continue
    }
    const path = issue.path.map(String).join(".")
    const field = prefix ? (path === "" ? prefix : path) : path
    if (seen.has(field)) continue
    seen.set(field, issue._tag === "Missing" ? "This field is required." : issue.message)
  }
  return [...seen].map(([field, detail]) => ({ field, detail }))
}

/**
 * The validations of a decoding failure, and how many problems it holds in all (at least, when
 * not `exact`). Only the first MAX_POINTERS fields are formatted, so a failure with 100,000
 * issues costs little more than one with 100.
 */
const collectValidations = (
  error: ParseResult.ParseError,
  prefix?: string
): { validations: Array<ValidationEntry>; total: number; exact: boolean } => {
  const budget = { left: MAX_POINTERS, skipped: 0 }
  const pruned = pruneIssue(error.issue, budget)
  const validations = budget.skipped === 0 || pruned === undefined
    ? formatValidations(error, prefix)
    : formatValidations(new ParseResult.ParseError({ issue: pruned }), prefix)
  return { validations, total: validations.length + budget.skipped, exact: budget.skipped === 0 }
}

/**
 * One validation per bad field, `field` being the JSON path (or the parameter name), for the
 * first MAX_POINTERS fields of `error`.
 */
export const validationsOf = (error: ParseResult.ParseError, prefix?: string): Array<ValidationEntry> =>
  collectValidations(error, prefix).validations

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

/**
 * The query parameters; a repeated one, or one of `arrays` (comma-separated), is an array. It
 * stops collecting past the limits (one parameter more, one value more), so that the walk reports
 * them without thousands of values being split first.
 */
const parseQuery = (
  query: string,
  arrays: ReadonlySet<string>,
  limits: InputLimits
): Record<string, string | Array<string>> => {
  const out = new Map<string, string | Array<string>>()
  if (query === "") return {}
  const most = limits.maxArrayItems + 1
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out.get(k)
    if (prev === undefined) {
      if (out.size > limits.maxKeys) continue
      out.set(k, arrays.has(k) ? v.split(",", most).filter((s) => s !== "") : v)
    } else if (Array.isArray(prev)) {
      if (prev.length >= most) continue
      for (const item of arrays.has(k) ? v.split(",", most - prev.length) : [v]) prev.push(item)
    } else out.set(k, [prev, v])
  }
  // From a Map: a parameter named __proto__ is a field like any other.
  return Object.fromEntries(out)
}

/** A form body (`a=1&b=2`); like the query, it stops collecting one field past the limit. */
const parseForm = (text: string, limits: InputLimits): Record<string, string> => {
  const out = new Map<string, string>()
  for (const [k, v] of new URLSearchParams(text)) {
    if (!out.has(k) && out.size > limits.maxKeys) continue
    out.set(k, v)
  }
  return Object.fromEntries(out)
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

/** The status a failed request answers with. */
const statusOfCause = (cause: Cause.Cause<unknown>): number => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return statusOfError(failure.value) ?? 500
  return Cause.isInterruptedOnly(cause) ? 503 : 500
}

/** The members of a union (each with its own annotations), or the schema itself. */
const membersOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.AST> => ast._tag === "Union" ? ast.types : [ast]

/** The declared encodings of a schema (one per union member). */
const encodingsOf = (ast: SchemaAST.AST): ReadonlyArray<HttpApiSchema.Encoding> =>
  membersOf(ast).map((member) => HttpApiSchema.getEncoding(member, HttpApiSchema.getEncoding(ast)))

/** The content types of a payload declared as bytes (`HttpApiSchema.Uint8Array`), or undefined. */
const binaryBodyOf = (schema: Option.Option<Schema.Schema.All>): ReadonlyArray<string> | undefined => {
  if (Option.isNone(schema)) return undefined
  const encodings = encodingsOf(schema.value.ast)
  return encodings.every((e) => e.kind === "Uint8Array") ? encodings.map((e) => e.contentType.toLowerCase()) : undefined
}

/** The success statuses in declaration order: a union's members may each carry one. */
const successStatusesOf = (ast: SchemaAST.AST): ReadonlyArray<number> =>
  HttpApiSchema.AnnotationStatus in ast.annotations || ast._tag !== "Union"
    ? [HttpApiSchema.getStatusSuccessAST(ast)]
    : [...new Set(ast.types.map(HttpApiSchema.getStatusSuccessAST))]

/** `make()` on first call, then the function it made: each endpoint's schemas compile when it is first served. */
const lazily = <A, B>(make: () => (a: A) => B): (a: A) => B => {
  let f: ((a: A) => B) | undefined
  return (a) => (f ??= make())(a)
}

const decoderOf = (schema: Option.Option<Schema.Schema.Any>): Decoder | undefined =>
  Option.getOrUndefined(
    Option.map(schema, (s) => lazily(() => Schema.decodeUnknownEither(s as Schema.Schema<any, any>, decodeOptions)))
  )

const hasMiddleware = (
  tag: HttpApiMiddleware.TagClassAny,
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
) => group.middlewares.has(tag) || endpoint.middlewares.has(tag)

/** Who may call an endpoint, from the authentication middlewares of its group and its own. */
const authenticationOf = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
): CompiledRoute["authenticated"] => {
  const user = hasMiddleware(Authentication as any, group, endpoint)
  const agent = hasMiddleware(AgentAuthentication as any, group, endpoint)
  return user && agent ? "either" : user ? "user" : agent ? "agent" : "none"
}

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
  // The metrics sink: the no-op default unless the runtime provides one (then every request is reported).
  const metrics = Context.get(runtime.context as Context.Context<unknown>, Metrics)
  // Looked up on first use: runtimes without agent routes (tests of other areas) need not provide it.
  let agents: AgentAuth | undefined
  const agentAuth = () => (agents ??= Context.unsafeGet(runtime.context, AgentAuth))
  // The feature gate: only with a license key configured (without one every feature is served).
  const licensing = Option.getOrUndefined(Context.getOption(runtime.context as Context.Context<unknown>, Licensing))
  const gate = licensing?.key === undefined ? undefined : licensing
  const sessionHeader = (options.sessionHeader ?? DEFAULT_SESSION_HEADER).toLowerCase()
  const sessionCookie = options.sessionCookie ?? DEFAULT_SESSION_COOKIE
  const secureCookies = options.secureCookies ?? settings.accessUrl.startsWith("https:")
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  const limits: InputLimits = { ...defaultInputLimits, ...definedOnly(options.inputLimits) }
  const rateLimits = makeRateLimits(
    options.rateLimits === false ? { ...settings, rateLimitDisableAll: true } : settings
  )
  const clientAddress = makeClientAddress(settings)
  // The runtime's clock (a TestClock where a test provides one), read synchronously per limited request.
  const clock = Runtime.runSync(runtime)(Clock.clockWith(Effect.succeed))
  const runFork = Runtime.runFork(runtime)
  // Requests run on this runtime: the same services, spans off unless wanted.
  const spans = options.spans ?? Runtime.runSync(runtime)(Effect.tracer) !== Effect.runSync(Effect.tracer)
  const fiberRefs = FiberRefs.updateAs(
    spans
      ? runtime.fiberRefs
      : FiberRefs.updateAs(runtime.fiberRefs, {
        fiberId: FiberId.none,
        fiberRef: FiberRef.currentTracerEnabled,
        value: false
      }),
    // A request's failure is its answer (a 500 logs its cause itself), not a fiber's unhandled error.
    { fiberId: FiberId.none, fiberRef: FiberRef.unhandledErrorLogLevel, value: Option.none() }
  )
  // One debug line per request, only when the runtime logs debug (read once: the check is then free).
  const logRequests =
    FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMinimumLogLevel).ordinal <= LogLevel.Debug.ordinal

  // A path parameter of any length reaches the walk, which names it when it is over the string
  // limit (no route has a regex parameter to protect). A path that is not valid percent-encoding
  // matches the bad-URL handler, whose store is null.
  const router = FindMyWay({
    ignoreTrailingSlash: true,
    caseSensitive: true,
    maxParamLength: Number.MAX_SAFE_INTEGER,
    onBadUrl: () => undefined
  })
  let hasBinaryBodies = false
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
      const successStatuses = successStatusesOf(successAst)
      const successEncodings = isVoid ? [] : encodingsOf(successAst)
      const audit = Context.getOption(endpoint.annotations, Audited)
      if (endpoint.method !== "GET" && Option.isNone(audit)) {
        throw new Error(
          `${group.identifier}.${endpoint.name} changes state but declares no audit (audited/notAudited).`
        )
      }
      const route: CompiledRoute = {
        name: `${group.identifier}.${endpoint.name}`,
        template: endpoint.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"),
        authenticated: authenticationOf(group, endpoint),
        // Compiled on first use: compiling every endpoint's schemas would cost start-up about 25 ms.
        decodePath: decoderOf(endpoint.pathSchema),
        decodeQuery: decoderOf(endpoint.urlParamsSchema),
        arrayQueryKeys: Option.match(endpoint.urlParamsSchema, {
          onNone: () => new Set<string>(),
          onSome: (s) => arrayKeys(s.ast)
        }),
        decodePayload: decoderOf(endpoint.payloadSchema),
        encodeSuccess: isVoid
          ? undefined
          : lazily(() => compileEncoder(endpoint.successSchema as Schema.Schema<any, any>)),
        status: successStatuses[0]!,
        successStatuses,
        binaryBody: binaryBodyOf(endpoint.payloadSchema),
        binarySuccess: successEncodings.length > 0 && successEncodings.every((e) => e.kind === "Uint8Array")
          ? successEncodings[0]!.contentType
          : undefined,
        handler,
        audit: Option.isSome(audit) && audit.value !== false ? audit.value : undefined,
        feature: featureOf(endpoint.method, endpoint.path),
        limiters: rateLimits.of(endpoint.method, endpoint.path)
      }
      router.on(endpoint.method as FindMyWay.HTTPMethod, endpoint.path, () => undefined, route)
      // The spec serves the OAuth2 and discovery families at the root too.
      const root = rootFormOf(endpoint.path)
      if (root !== undefined) router.on(endpoint.method as FindMyWay.HTTPMethod, root, () => undefined, route)
      if (route.binaryBody !== undefined) hasBinaryBodies = true
    }
  }

  const textBody: BodyLimit = { maxBytes: maxBodyBytes, binary: false }
  const rawBody: BodyLimit = { maxBytes: maxFileBytes, binary: true }
  const bodyLimit = (method: string, url: string): BodyLimit => {
    if (!hasBinaryBodies) return textBody
    const q = url.indexOf("?")
    const route = router.find(method as FindMyWay.HTTPMethod, q < 0 ? url : url.slice(0, q))?.store as
      | CompiledRoute
      | null
      | undefined
    return route?.binaryBody !== undefined ? rawBody : textBody
  }

  let openApiDocument: string | undefined
  const swaggerPaths = new Set(["/swagger/doc.json", "/api/v2/swagger/doc.json"])

  const owns = (path: string) =>
    path === "/api/v2" || path.startsWith("/api/v2/") || (settings.swaggerEnable && swaggerPaths.has(path)) ||
    PROBE_PATHS.has(path) ||
    rootFormOf(`/api/v2${path}`) !== undefined

  const fail = (
    respond: (r: RawResponse) => void,
    cause: Cause.Cause<unknown>,
    requestId: string,
    headers?: Record<string, string>
  ) => {
    const failure = Cause.failureOption(cause)
    if (
      Option.isSome(failure) && (failure.value instanceof OAuth2Error || failure.value instanceof OAuth2Unauthorized)
    ) {
      // RFC 6749 5.2 and RFC 7591 3.2.2: the OAuth2 error object, never cached.
      const e = failure.value
      const extra: Record<string, string> = { ...headers, "cache-control": "no-store", "x-request-id": requestId }
      if (e instanceof OAuth2Unauthorized && e.challenge !== "") extra["www-authenticate"] = e.challenge
      return respond(
        json(
          statusOfError(e) ?? 400,
          { error: e.error, error_description: clip(e.error_description, DETAIL_BYTES) },
          extra
        )
      )
    }
    if (Option.isSome(failure)) {
      const error = failure.value as { message?: string; detail?: string; validations?: ReadonlyArray<ValidationEntry> }
      const status = statusOfError(error)
      if (status !== undefined && typeof error.message === "string") {
        return respond(
          json(status, responseBody(error.message, error.detail, error.validations), {
            ...headers,
            "x-request-id": requestId
          })
        )
      }
    }
    if (Cause.isInterruptedOnly(cause)) return respond(json(503, responseBody("The request was interrupted.")))
    runFork(
      Effect.logError("Unhandled failure while serving a request", cause).pipe(
        Effect.annotateLogs("request_id", requestId)
      )
    )
    respond(
      json(500, responseBody("An internal error occurred.", `Request id: ${requestId}.`), { "x-request-id": requestId })
    )
  }

  /**
   * Wraps a request's answer callbacks to report it (metrics on): its route template is set by
   * `serve` once the route is found; the answer (or the accepted upgrade) ends the request, and
   * an accepted WebSocket is timed until its session ends.
   */
  const observed = (
    req: RawRequest,
    respond: (r: RawResponse) => void,
    accept: ((u: WebSocketUpgrade) => void) | undefined,
    seen: RequestSeen
  ) => {
    let done = false
    metrics.requestStarted()
    const finish = (status: number) => {
      if (done) return
      done = true
      metrics.requestFinished(req.method, seen.route ?? UNKNOWN_ROUTE, status, secondsSince(seen.started))
    }
    return {
      respond: (r: RawResponse) => {
        finish(r.status)
        respond(r)
      },
      accept: accept === undefined ? undefined : (u: WebSocketUpgrade) => {
        finish(101)
        const template = seen.route ?? UNKNOWN_ROUTE
        accept(
          new WebSocketUpgrade((connection) => {
            const opened = performance.now()
            return Effect.ensuring(
              u.session(connection),
              Effect.sync(() => metrics.webSocketClosed(template, secondsSince(opened)))
            )
          })
        )
      }
    }
  }

  const handle = (
    given: RawRequest,
    answer: (r: RawResponse) => void,
    upgrade?: (u: WebSocketUpgrade) => void
  ): void => {
    // From here on (rate limits, audit, logs) the request's address is the client's.
    const client = clientAddress(given.remoteAddress, given.headers)
    const req = client === given.remoteAddress ? given : { ...given, remoteAddress: client }
    // What the metrics and the request log learn of the request while it is served (neither on: nothing).
    const seen: RequestSeen | undefined = metrics.enabled || logRequests ? { started: performance.now() } : undefined
    let respond = answer
    let accept = upgrade
    if (metrics.enabled) ({ respond, accept } = observed(req, answer, upgrade, seen!))
    if (logRequests) {
      const inner = respond
      respond = (r: RawResponse) => {
        inner(r)
        logRequest(req, r, seen!)
      }
    }
    // HEAD is GET without the body: the same status and headers, the length of the body it omits.
    const head = req.method === "HEAD"
    const send = head ? (r: RawResponse) => respond(withoutBody(r)) : respond
    try {
      serve(req, head ? "GET" : req.method, send, head ? undefined : accept, seen)
    } catch (error) {
      // Nothing above should throw; if it does, the caller still gets an answer and the server lives.
      const requestId = randomUUID()
      runFork(
        Effect.logError("Unhandled failure while serving a request", Cause.die(error)).pipe(
          Effect.annotateLogs("request_id", requestId)
        )
      )
      send(
        json(500, responseBody("An internal error occurred.", `Request id: ${requestId}.`), {
          "x-request-id": requestId
        })
      )
    }
  }

  /**
   * A WebSocket endpoint's answer: the upgrade when the request asks for one (from an allowed
   * origin), else 426 Upgrade Required, as the described system's WebSocket library answers.
   */
  const answerUpgrade = (
    req: RawRequest,
    upgrade: WebSocketUpgrade,
    respond: (r: RawResponse) => void,
    accept: ((u: WebSocketUpgrade) => void) | undefined,
    requestId: string
  ) => {
    if (accept === undefined || !asksForWebSocket(req.headers)) {
      return respond(json(
        426,
        responseBody(
          "This endpoint answers with a WebSocket.",
          "Send the request as a WebSocket handshake (\"Connection: Upgrade\", \"Upgrade: websocket\")."
        ),
        { upgrade: "websocket", "x-request-id": requestId }
      ))
    }
    const origin = header(req.headers, "origin")
    if (origin !== undefined && !originAllowed(origin, header(req.headers, "host"))) {
      return respond(json(
        403,
        responseBody(
          "WebSocket origin not allowed.",
          `The request's Origin is neither the requested host nor the access URL.`
        ),
        { "x-request-id": requestId }
      ))
    }
    accept(upgrade)
  }

  /** An event stream's session on the service's runtime, interrupted when the client leaves. */
  const streamingBody = (answer: EventStreamAnswer): StreamingBody => ({
    open: (writer) => {
      const fiber = runFork(
        answer.run({ write: (text) => Effect.promise(() => writer.write(text)) }).pipe(
          Effect.ensuring(Effect.sync(() => writer.end()))
        )
      )
      return () => void runFork(Fiber.interrupt(fiber))
    }
  })

  const accessHost = (() => {
    try {
      return new URL(settings.accessUrl).host.toLowerCase()
    } catch {
      return undefined
    }
  })()
  /** A browser's cross-site WebSocket carries the victim's cookie: only the service's own origins may open one. */
  const originAllowed = (origin: string, host: string | undefined): boolean => {
    let originHost: string
    try {
      originHost = new URL(origin).host.toLowerCase()
    } catch {
      return false
    }
    return originHost === host?.toLowerCase() || originHost === accessHost
  }

  /** The debug line of a request once answered: what it asked, how it was answered, by whom. */
  const logRequest = (req: RawRequest, r: RawResponse, seen: RequestSeen) => {
    const q = req.url.indexOf("?")
    const actor = seen.services?.get(CurrentActor.key) as Actor | undefined
    const requestId = r.headers["x-request-id"]
    runFork(
      Effect.logDebug(`${req.method} ${seen.route ?? (q < 0 ? req.url : req.url.slice(0, q))} ${r.status}`).pipe(
        Effect.annotateLogs({
          method: req.method,
          route: seen.route ?? "",
          // The query is left out: it may carry codes and tokens; so is a path that holds a secret.
          path: seen.route !== undefined && SECRET_PATH_ROUTES.has(seen.route)
            ? seen.route
            : q < 0
            ? req.url
            : req.url.slice(0, q),
          status: r.status,
          duration_ms: Math.round((performance.now() - seen.started) * 100) / 100,
          request_id: typeof requestId === "string" ? requestId : "",
          remote_addr: req.remoteAddress,
          ...(actor === undefined ? {} : { user_id: actor.user.id })
        })
      )
    )
  }

  const serve = (
    req: RawRequest,
    method: string,
    respond: (r: RawResponse) => void,
    accept?: (u: WebSocketUpgrade) => void,
    seen?: RequestSeen
  ): void => {
    const q = req.url.indexOf("?")
    const path = q < 0 ? req.url : req.url.slice(0, q)
    const query = q < 0 ? "" : req.url.slice(q + 1)

    if (method === "GET" && PROBE_PATHS.has(path)) return answerProbe(runtime, path, respond)
    if (settings.swaggerEnable && method === "GET" && swaggerPaths.has(path)) {
      openApiDocument ??= JSON.stringify(OpenApi.fromApi(api as any))
      return respond({ status: 200, headers: { ...JSON_HEADERS }, body: openApiDocument })
    }

    const notFound = () => json(404, responseBody("Route not found.", `No route ${req.method} ${path}.`))
    const found = router.find(method as FindMyWay.HTTPMethod, path)
    if (found !== null && found.store === null) {
      return respond(
        owns(path) ? json(400, responseBody("Request path must be valid percent-encoded UTF-8.")) : notFound()
      )
    }
    if (found === null) {
      if (!owns(path)) return respond(notFound())
      const allowedMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
        .filter((m) => (router.find((m === "HEAD" ? "GET" : m) as FindMyWay.HTTPMethod, path)?.store ?? null) !== null)
      return allowedMethods.length > 0
        ? respond(
          json(405, responseBody("Method not allowed.", `${req.method} is not allowed on ${path}.`), {
            allow: allowedMethods.join(", ")
          })
        )
        : respond(notFound())
    }
    const route = found.store as CompiledRoute
    if (seen !== undefined) seen.route = route.template
    const requestId = randomUUID()
    const request: Record<string, unknown> = {}

    /**
     * Decodes path, query and body into `request`; a 400 with every bad field when they do not
     * fit. Each part is first walked once for what no schema should see (values over the input
     * limits, NUL characters); a part with such values is not decoded.
     */
    const decodeRequest = (): BadRequest | undefined => {
      const listed: Array<ValidationEntry> = []
      let total = 0
      let exact = true
      const add = (found: ReadonlyArray<ValidationEntry>, count: number, exactCount = true) => {
        total += count
        exact &&= exactCount
        for (const v of found) if (listed.length < MAX_VALIDATIONS) listed.push(v)
      }
      const problems = () =>
        total === 0
          ? undefined
          : badRequest(
            "Validation failed.",
            total > listed.length ? moreNote(listed.length, total, exact) : undefined,
            listed
          )
      /** Walks then decodes one part; its decoded value, or undefined when it does not fit. */
      const check = (input: unknown, decode: Decoder): unknown => {
        const inspection = inspectInput(input, limits)
        if (inspection.total > 0) return void add(inspection.violations, inspection.total)
        const r = decode(input)
        if (Either.isRight(r)) return r.right
        const collected = collectValidations(r.left)
        add(collected.validations, collected.total, collected.exact)
        return undefined
      }
      if (route.decodePath !== undefined) request.path = check(found.params, route.decodePath)
      else {
        const inspection = inspectInput(found.params, limits)
        add(inspection.violations, inspection.total)
      }
      if (route.decodeQuery !== undefined) {
        request.urlParams = check(parseQuery(query, route.arrayQueryKeys, limits), route.decodeQuery)
      }
      if (route.decodePayload !== undefined && route.binaryBody !== undefined) {
        // Bytes in a declared content type; nothing to walk or parse.
        const contentType = header(req.headers, "content-type") ?? ""
        if (!route.binaryBody.includes(mediaTypeOf(contentType))) {
          return badRequest(
            `Unsupported content type header "${contentType}".`,
            `Send one of: ${route.binaryBody.join(", ")}.`
          )
        }
        const raw = req.body
        const bytes = raw === undefined
          ? new Uint8Array(0)
          : raw instanceof Uint8Array
          ? raw
          : typeof raw === "string"
          ? Buffer.from(raw, "utf8")
          : raw.parsed instanceof Uint8Array
          ? raw.parsed
          : undefined
        if (bytes === undefined) return badRequest("Request body must be the raw bytes of the file.")
        const r = route.decodePayload(bytes)
        if (Either.isLeft(r)) return badRequest("Request body must be the raw bytes of the file.", r.left.message)
        request.payload = r.right
      } else if (route.decodePayload !== undefined) {
        let body: unknown
        // Bytes (a framework's raw body parser) are read as UTF-8 text like any body.
        const text = req.body instanceof Uint8Array ? Buffer.from(req.body).toString("utf8") : req.body
        if (typeof text === "object") body = text.parsed
        else if (text === undefined || text.trim() === "") body = {}
        else {
          const contentType = header(req.headers, "content-type") ?? ""
          if (contentType.includes("application/x-www-form-urlencoded")) body = parseForm(text, limits)
          else {
            const tooDeep = tooDeepJson(text, limits.maxDepth)
            if (tooDeep !== undefined) {
              add([{ field: tooDeep, detail: tooDeepDetail(limits) }], 1)
              return problems()
            }
            try {
              body = JSON.parse(text)
            } catch (e) {
              return badRequest("Request body must be valid JSON.", e instanceof Error ? e.message : String(e))
            }
          }
        }
        if (typeof body !== "object" || body === null || Array.isArray(body)) {
          return badRequest("Request body must be a JSON object.")
        }
        request.payload = check(body, route.decodePayload)
      }
      return problems()
    }

    const cookieHeader = header(req.headers, "cookie")
    let cookies: Map<string, string> | undefined
    const setCookies: Array<string> = []
    let chosenStatus: number | undefined
    let chosenContentType: string | undefined
    let extraHeaders: Record<string, string> | undefined
    const ctx: RequestContextShape = {
      requestId,
      ip: req.remoteAddress,
      userAgent: header(req.headers, "user-agent") ?? "",
      header: (name) => header(req.headers, name.toLowerCase()),
      cookie: (name) => (cookies ??= parseCookies(cookieHeader)).get(name),
      setCookie: (name, value, opts) => void setCookies.push(serializeCookie(name, value, secureCookies, opts)),
      setStatus: (status) => void (chosenStatus = status),
      setContentType: (contentType) => void (chosenContentType = contentType),
      setHeader: (name, value) => void ((extraHeaders ??= {})[name.toLowerCase()] = value),
      sessionCookieName: sessionCookie,
      sessionToken: () =>
        header(req.headers, sessionHeader) ?? ctx.cookie(sessionCookie) ?? bearer(header(req.headers, "authorization"))
    }

    // Credentials are checked before the input, so an anonymous caller learns nothing about
    // an endpoint's input rules. The request's services go into the context the fiber starts
    // with, and the actor is added to it in place once known: Effect.provideService would
    // cost about 9 us each.
    let effect: Effect.Effect<unknown, unknown, any> = Effect.suspend(() => {
      const problem = decodeRequest()
      return problem === undefined ? route.handler(request) : Effect.fail(problem)
    })
    if (gate !== undefined && route.feature !== undefined) {
      // After authentication (wrapped around below), before the input: a route of a feature the
      // licenses do not grant answers 403 as the described system's RequireFeatureMW.
      const inner = effect
      const feature = route.feature
      effect = Effect.flatMap(
        gate.enabled(feature),
        (on) => on ? inner : Effect.fail(new Forbidden({ message: unlicensedMessage(feature) }))
      )
    }
    const limiters = route.limiters
    if (limiters.length > 0) {
      // After authentication (wrapped around below), before the input: counted against the user,
      // the agent, or the address (RateLimit.ts).
      const inner = effect
      effect = Effect.suspend(() => {
        const refused = checkLimits(
          limiters,
          route.name,
          {
            actor: context.unsafeMap.get(CurrentActor.key) as Actor | undefined,
            agentId: (context.unsafeMap.get(CurrentAgent.key) as { agent: { id: string } } | undefined)?.agent.id,
            ip: req.remoteAddress
          },
          header(req.headers, BYPASS_HEADER),
          ctx.setHeader,
          clock.unsafeCurrentTimeMillis()
        )
        return refused === undefined ? inner : Effect.fail(refused)
      })
    }
    /** A refused credential counts against the address (guessing tokens is limited too); past the limit, 429. */
    const countRefused = <A, E>(authenticate: Effect.Effect<A, E>): Effect.Effect<A, unknown> =>
      limiters.length === 0
        ? authenticate
        : Effect.catchAll(authenticate, (e) => {
          const refused = checkLimits(
            limiters,
            route.name,
            { ip: req.remoteAddress },
            undefined,
            ctx.setHeader,
            clock.unsafeCurrentTimeMillis()
          )
          return Effect.fail(refused ?? e)
        })
    if (route.authenticated !== "none") {
      const token = header(req.headers, sessionHeader) ?? ctx.cookie(sessionCookie) ??
        bearer(header(req.headers, "authorization"))
      if (token === undefined || token === "") {
        return respond(json(
          401,
          responseBody(
            "You must be logged in to access this resource.",
            `Send a token in the "${
              options.sessionHeader ?? DEFAULT_SESSION_HEADER
            }" header, the "${sessionCookie}" cookie, or "Authorization: Bearer".`
          ),
          { "x-request-id": requestId }
        ))
      }
      const inner = effect
      const asAgent = route.authenticated === "agent" || (route.authenticated === "either" && isAgentToken(token))
      effect = asAgent
        ? Effect.flatMap(countRefused(agentAuth().authenticateActor(token)), ({ actor, session }) => {
          context.unsafeMap.set(CurrentActor.key, actor)
          context.unsafeMap.set(CurrentAgent.key, session)
          return inner
        })
        : Effect.flatMap(countRefused(auth.authenticate(token)), (actor: Actor) => {
          // This request's own context (made below, its map copied from the runtime's): set in place.
          context.unsafeMap.set(CurrentActor.key, actor)
          return inner
        })
    }

    let context = requestContext(runtime.context, RequestContext, ctx)
    if (seen !== undefined) seen.services = context.unsafeMap
    if (route.audit !== undefined) {
      // One audit entry per state-changing request, written when it ends, whatever the outcome;
      // none for a 304, which changed nothing (as the described system, which returns before it
      // starts its audit entry there).
      const declared = route.audit
      const audit = newAuditRequest(declared.resourceType, declared.action ?? defaultAction(req.method))
      context.unsafeMap.set(AuditRequest.key, audit)
      effect = Effect.onExit(
        effect,
        (exit) =>
          Effect.flatMap(
            Effect.serviceOption(CurrentActor),
            (actor) =>
              (Option.isNone(actor) && audit.userId === undefined && declared.anonymous !== true) ||
                (Exit.isSuccess(exit) && chosenStatus === 304)
                ? Effect.void
                : writeAuditEntry(audit, {
                  requestId,
                  ip: ctx.ip,
                  userAgent: ctx.userAgent,
                  statusCode: Exit.isSuccess(exit) ? chosenStatus ?? route.status : statusOfCause(exit.cause)
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
    const requestRuntime = Runtime.make({
      context,
      fiberRefs,
      runtimeFlags: runtime.runtimeFlags
    })
    Runtime.runCallback(requestRuntime, effect as Effect.Effect<unknown, unknown, R | RequestContext>, {
      onExit: (exit) => {
        if (Exit.isFailure(exit)) return fail(respond, exit.cause, requestId, extraHeaders)
        if (exit.value instanceof WebSocketUpgrade) return answerUpgrade(req, exit.value, respond, accept, requestId)
        const extra: Record<string, string | Array<string>> = { ...extraHeaders, "x-request-id": requestId }
        if (exit.value instanceof EventStreamAnswer) {
          return respond({
            status: 200,
            headers: { ...extra, ...EVENT_STREAM_HEADERS },
            body: undefined,
            stream: streamingBody(exit.value)
          })
        }
        if (setCookies.length > 0) extra["set-cookie"] = setCookies
        const status = chosenStatus ?? route.status
        if (chosenStatus !== undefined && !route.successStatuses.includes(chosenStatus)) {
          return fail(
            respond,
            Cause.die(new Error(`${route.name} answered ${chosenStatus}, which it does not declare.`)),
            requestId
          )
        }
        if (route.encodeSuccess === undefined) return respond({ status, headers: extra, body: undefined })
        const encoded = route.encodeSuccess(exit.value)
        if (Either.isLeft(encoded)) {
          return fail(
            respond,
            Cause.die(new Error(`Response of ${route.name} does not match its schema: ${encoded.left.message}`)),
            requestId
          )
        }
        if (route.binarySuccess !== undefined) {
          extra["content-type"] = chosenContentType ?? route.binarySuccess
          return respond({ status, headers: extra, body: encoded.right as Uint8Array })
        }
        respond(json(status, encoded.right, extra))
      }
    })
  }

  return {
    owns,
    handle: (req, respond) => handle(req, respond),
    upgrade: handle,
    clientAddress,
    maxBodyBytes,
    bodyLimit,
    runFork,
    options
  }
}

/** Routes whose path holds a secret (a provisioner key), logged by their template only. */
const SECRET_PATH_ROUTES: ReadonlySet<string> = new Set(["/api/v2/provisionerkeys/{provisionerkey}"])

/** What the request log line needs from inside the dispatch (filled in as it goes). */
interface RequestSeen {
  readonly started: number
  route?: string
  services?: ReadonlyMap<string, unknown>
}

/**
 * The services of one request: the runtime's, with the request's own on top. Effect's
 * `Context.add` copies the whole map of the runtime's services (about 60, some 2 us a request);
 * this map looks through to them instead, so it is made at once, and the request's entries
 * (its context, its actor once known, its audit) are set in it in place. Everything Effect does
 * with a context's map (get, has, size, iteration, copying into a new context) sees both layers.
 */
class RequestServices extends Map<string, unknown> {
  /** Both layers as one native map, made when something iterates (Effect copying the context), until the next set. */
  private flat: Map<string, unknown> | undefined
  constructor(private readonly base: ReadonlyMap<string, unknown>) {
    super()
  }
  private all(): Map<string, unknown> {
    if (this.flat === undefined) {
      const flat = new Map(this.base)
      for (const [key, value] of super.entries()) flat.set(key, value)
      this.flat = flat
    }
    return this.flat
  }
  override get(key: string): unknown {
    return super.has(key) ? super.get(key) : this.base.get(key)
  }
  override has(key: string): boolean {
    return super.has(key) || this.base.has(key)
  }
  override set(key: string, value: unknown): this {
    this.flat = undefined
    return super.set(key, value)
  }
  override delete(key: string): boolean {
    if (this.base.has(key)) throw new Error("A request cannot remove a service of the runtime.")
    this.flat = undefined
    return super.delete(key)
  }
  override get size(): number {
    return this.all().size
  }
  override entries(): MapIterator<[string, unknown]> {
    return this.all().entries()
  }
  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.all().entries()
  }
  override keys(): MapIterator<string> {
    return this.all().keys()
  }
  override values(): MapIterator<unknown> {
    return this.all().values()
  }
  override forEach(f: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.all()) f.call(thisArg, value, key, this)
  }
}

/** `Context.add(base, tag, service)` without copying `base` (see {@link RequestServices}). */
export const requestContext = <R, I, S>(
  base: Context.Context<R>,
  tag: Context.Tag<I, S>,
  service: S
): Context.Context<R | I> => {
  const services = new RequestServices(base.unsafeMap)
  services.set(tag.key, service)
  return Context.unsafeMake(services)
}

/**
 * The root form of an `/api/v2` path of the OAuth2 or discovery families (`/oauth2/...`,
 * `/.well-known/oauth-...`), which the spec serves at both; undefined for any other path.
 */
const rootFormOf = (path: string): string | undefined =>
  path.startsWith("/api/v2/oauth2/") || path.startsWith("/api/v2/.well-known/oauth-")
    ? path.slice("/api/v2".length)
    : undefined

const bearer = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  const m = /^Bearer\s+(.+)$/i.exec(authorization)
  return m ? m[1]!.trim() : undefined
}

/** A response without its body, with the body's length: the answer to HEAD. */
const withoutBody = (r: RawResponse): RawResponse =>
  r.stream !== undefined
    ? { status: r.status, headers: r.headers, body: undefined }
    : r.body === undefined
    ? r
    : {
      status: r.status,
      headers: { ...r.headers, "content-length": String(Buffer.byteLength(r.body)) },
      body: undefined
    }

/** `partial` without its undefined fields (so they take the defaults). */
const definedOnly = <A extends object>(partial: A | undefined): Partial<A> =>
  partial === undefined
    ? {}
    : Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<A>

/** Unauthorized as the dispatcher answers it, for callers that authenticate elsewhere (WebSockets). */
export const unauthorized = (message: string) => new Unauthorized({ message })
