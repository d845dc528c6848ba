/**
 * The routes, compiled once from the HttpApi definition and its group implementations into a
 * find-my-way router whose entries hold everything a request of that endpoint needs: its
 * decoders and encoder (Schema compiled on the endpoint's first request), who may call, its
 * audit declaration, its licensed feature, its rate limiters. A request is then one lookup.
 */
import {
  type HttpApi,
  type HttpApiEndpoint,
  type HttpApiGroup,
  type HttpApiMiddleware,
  HttpApiSchema
} from "@effect/platform"
import { compileEncoder, type FeatureName, lazily, once, type SettingsShape } from "@workbay/core"
import { Context, type Effect, type Either, Option, type ParseResult, Schema, type SchemaAST } from "effect"
import FindMyWay from "find-my-way"
import { type AuditDeclaration, Audited } from "../Audit.js"
import { featureOf } from "../enterprise/Features.js"
import type { GroupImplementation } from "../Handlers.js"
import { PROBE_PATHS } from "../Probes.js"
import type { Limiter, RateLimits } from "../RateLimit.js"
import { AgentAuthentication, Authentication } from "../Security.js"
import type { DispatchOptions } from "./Options.js"
import type { BodyLimit, RawResponse } from "./Raw.js"
import { type AnsweredRoute, json, responseBody } from "./Respond.js"

export type Decoder = (input: unknown) => Either.Either<any, ParseResult.ParseError>

export interface CompiledRoute extends AnsweredRoute {
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

export interface Routes {
  /**
   * One router lookup: the route (`store`) and its path parameters; null when no route of
   * `method` has `path`, a null `store` when `path` is not valid percent-encoding.
   */
  readonly find: (method: string, path: string) => FindMyWay.FindResult<FindMyWay.HTTPVersion.V1> | null
  /** The answer to a request `find` found no route for: 400 (a bad path), 405 with `Allow`, or 404. */
  readonly miss: (
    method: string,
    path: string,
    found: FindMyWay.FindResult<FindMyWay.HTTPVersion.V1> | null
  ) => RawResponse
  /** Whether a path belongs to this service (the rest can go to the host application). */
  readonly owns: (path: string) => boolean
  /** Paths of the OpenAPI document (served when `swaggerEnable`). */
  readonly swaggerPaths: ReadonlySet<string>
  /** How the body of a request to `method` and `url` is read. */
  readonly bodyLimit: (method: string, url: string) => BodyLimit
}

/**
 * The router's options. A path parameter of any length reaches the walk, which names it when it is
 * over the string limit (no route has a regex parameter to protect). A path that is not valid
 * percent-encoding matches the bad-URL handler, whose store is null.
 */
export const ROUTER_OPTIONS: FindMyWay.Config<FindMyWay.HTTPVersion.V1> = {
  ignoreTrailingSlash: true,
  caseSensitive: true,
  maxParamLength: Number.MAX_SAFE_INTEGER,
  onBadUrl: () => undefined
}

/** Compiles `api` with its handlers; every endpoint must have one, and every state-changing one an audit declaration. */
export const compileRoutes = <R>(
  api: HttpApi.HttpApi.Any,
  implementations: ReadonlyArray<GroupImplementation<R>>,
  rateLimits: RateLimits,
  settings: SettingsShape,
  options: DispatchOptions
): Routes => {
  const router = FindMyWay(ROUTER_OPTIONS)
  const rootPrefixes: Array<string> = []
  const byGroup = new Map(implementations.map((i) => [i.group, i.handlers]))
  const groups = (api as unknown as HttpApi.HttpApi.AnyWithProps).groups
  for (const group of Object.values(groups) as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    const handlers = byGroup.get(group.identifier)
    if (handlers === undefined) throw new Error(`No implementation for group "${group.identifier}".`)
    for (const endpoint of Object.values(group.endpoints)) {
      const handler = handlers[endpoint.name]
      if (handler === undefined) throw new Error(`No handler for ${group.identifier}.${endpoint.name}.`)
      const route = compileRoute(group, endpoint, handler, rateLimits)
      router.on(endpoint.method as FindMyWay.HTTPMethod, endpoint.path, () => undefined, route)
      // The spec serves the OAuth2 and discovery families at the root too.
      const root = rootFormOf(endpoint.path)
      if (root !== undefined) router.on(endpoint.method as FindMyWay.HTTPMethod, root, () => undefined, route)
      // A route declared outside /api/v2 (the agent's executables at /bin/): its paths are the service's.
      if (!endpoint.path.startsWith("/api/v2/")) rootPrefixes.push(endpoint.path.split(":")[0]!)
    }
  }

  const find = (method: string, path: string) => router.find(method as FindMyWay.HTTPMethod, path)

  const swaggerPaths: ReadonlySet<string> = new Set(["/swagger/doc.json", "/api/v2/swagger/doc.json"])
  const owns = (path: string) =>
    path === "/api/v2" || path.startsWith("/api/v2/") || (settings.swaggerEnable && swaggerPaths.has(path)) ||
    PROBE_PATHS.has(path) ||
    rootFormOf(`/api/v2${path}`) !== undefined ||
    rootPrefixes.some((prefix) => path.startsWith(prefix))

  const miss: Routes["miss"] = (method, path, found) => {
    const notFound = () => json(404, responseBody("Route not found.", `No route ${method} ${path}.`))
    if (found !== null) {
      return owns(path) ? json(400, responseBody("Request path must be valid percent-encoded UTF-8.")) : notFound()
    }
    if (!owns(path)) return notFound()
    const allowedMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
      .filter((m) => (router.find((m === "HEAD" ? "GET" : m) as FindMyWay.HTTPMethod, path)?.store ?? null) !== null)
    return allowedMethods.length > 0
      ? json(405, responseBody("Method not allowed.", `${method} is not allowed on ${path}.`), {
        allow: allowedMethods.join(", ")
      })
      : notFound()
  }

  const textBody: BodyLimit = { maxBytes: options.maxBodyBytes, binary: false }
  const rawBody: BodyLimit = { maxBytes: options.maxFileBytes, binary: true }
  const bodyLimit = (method: string, url: string): BodyLimit => {
    const q = url.indexOf("?")
    const route = router.find(method as FindMyWay.HTTPMethod, q < 0 ? url : url.slice(0, q))?.store as
      | CompiledRoute
      | null
      | undefined
    return route?.binaryBody !== undefined ? rawBody : textBody
  }

  return { find, miss, owns, swaggerPaths, bodyLimit }
}

const compileRoute = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  handler: CompiledRoute["handler"],
  rateLimits: RateLimits
): CompiledRoute => {
  const audit = Context.getOption(endpoint.annotations, Audited)
  if (endpoint.method !== "GET" && Option.isNone(audit)) {
    throw new Error(
      `${group.identifier}.${endpoint.name} changes state but declares no audit (audited/notAudited).`
    )
  }
  // What the schemas declare (success statuses and encodings, a binary body, repeated query keys)
  // is read on the route's first request: read here, it made every endpoint's class schemas build
  // their transformations at each start, about 20 ms for 317 endpoints.
  const success = once(() => successOf(endpoint.successSchema.ast))
  const arrayQueryKeys = once(() =>
    Option.match(endpoint.urlParamsSchema, {
      onNone: () => new Set<string>(),
      onSome: (s) => arrayKeys(s.ast)
    })
  )
  const binaryBody = once(() => binaryBodyOf(endpoint.payloadSchema))
  const encodeSuccess = once(() =>
    success().isVoid ? undefined : lazily(() => compileEncoder(endpoint.successSchema as Schema.Schema<any, any>))
  )
  return {
    name: `${group.identifier}.${endpoint.name}`,
    template: endpoint.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"),
    authenticated: authenticationOf(group, endpoint),
    // Compiled on first use: compiling every endpoint's schemas would cost start-up about 25 ms.
    decodePath: decoderOf(endpoint.pathSchema),
    decodeQuery: decoderOf(endpoint.urlParamsSchema),
    get arrayQueryKeys() {
      return arrayQueryKeys()
    },
    decodePayload: decoderOf(endpoint.payloadSchema),
    get encodeSuccess() {
      return encodeSuccess()
    },
    get status() {
      return success().statuses[0]!
    },
    get successStatuses() {
      return success().statuses
    },
    get binaryBody() {
      return binaryBody()
    },
    get binarySuccess() {
      return success().binary
    },
    handler,
    audit: Option.isSome(audit) && audit.value !== false ? audit.value : undefined,
    feature: featureOf(endpoint.method, endpoint.path),
    limiters: rateLimits.of(endpoint.method, endpoint.path)
  }
}

const decodeOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "ignore" }

const decoderOf = (schema: Option.Option<Schema.Schema.Any>): Decoder | undefined =>
  Option.getOrUndefined(
    Option.map(schema, (s) => lazily(() => Schema.decodeUnknownEither(s as Schema.Schema<any, any>, decodeOptions)))
  )

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

/**
 * What a success schema declares: whether it is void, its statuses in declaration order (a union's
 * members may each carry one), and the content type of a binary success.
 */
const successOf = (ast: SchemaAST.AST) => {
  const isVoid = HttpApiSchema.isVoid(ast)
  const encodings = isVoid ? [] : encodingsOf(ast)
  return {
    isVoid,
    statuses: successStatusesOf(ast),
    binary: encodings.length > 0 && encodings.every((e) => e.kind === "Uint8Array")
      ? encodings[0]!.contentType
      : undefined
  }
}

/** The success statuses in declaration order: a union's members may each carry one. */
const successStatusesOf = (ast: SchemaAST.AST): ReadonlyArray<number> =>
  HttpApiSchema.AnnotationStatus in ast.annotations || ast._tag !== "Union"
    ? [HttpApiSchema.getStatusSuccessAST(ast)]
    : [...new Set(ast.types.map(HttpApiSchema.getStatusSuccessAST))]

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
 * The root form of an `/api/v2` path of the OAuth2 or discovery families (`/oauth2/...`,
 * `/.well-known/oauth-...`), which the spec serves at both; undefined for any other path.
 */
export const rootFormOf = (path: string): string | undefined =>
  path.startsWith("/api/v2/oauth2/") || path.startsWith("/api/v2/.well-known/oauth-")
    ? path.slice("/api/v2".length)
    : undefined
