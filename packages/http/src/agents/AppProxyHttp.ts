/**
 * Path-based workspace apps over HTTP: `/@{owner}/{workspace}[.{agent}]/apps/{app_slug}/...`,
 * any method, outside `/api/v2` as in the described system. Not an HttpApi endpoint: the body
 * and the answer are the app's bytes, streamed. This adapter decodes the path, reads the body
 * (bounded), authenticates the caller when it sends a token (a public app needs none), makes one
 * call to the core's `AppProxy.open` and streams the app's answer back. When another replica
 * holds the agent's connection, the request is sent on to it as it came (the caller's headers,
 * credentials included: that replica authenticates and checks it again, and records the session),
 * and its answer streamed back (Relay.ts). See docs/agents.md, "Web apps".
 */
import { HttpApiSchema } from "@effect/platform"
import {
  APP_KEY_PARAM,
  APP_PROXY_MAX_REQUEST_BYTES,
  APP_PROXY_RESPONSE_TIMEOUT_SECONDS,
  type AppOpenError,
  AppProxy,
  type AppRequest,
  Auth,
  BadGateway,
  type HeaderMap,
  parseAppSubdomain,
  subdomainAppCookie,
  wildcardLabelReader
} from "@workbay/core"
import { Cause, Effect, Exit, Fiber, Option, Stream } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { readAtMost, readNodeBody, type WebRequestInfo } from "../Adapters.js"
import type { Dispatcher } from "../dispatch/Dispatcher.js"
import {
  HOP_BY_HOP,
  RELAY_CLIENT_HEADER,
  RELAY_HEADER,
  RELAY_PROTO_HEADER,
  relayAnswerHeaders,
  relayHeaders,
  relayHttp,
  relayRequestHeaders,
  type RelayTarget,
  unreachable
} from "../Relay.js"
import { DEFAULT_SESSION_COOKIE, DEFAULT_SESSION_HEADER } from "../Security.js"

/** `/@{owner}/{workspace}[.{agent}]/apps/{slug}` and the rest of the path (absent without a trailing slash). */
const APP_PATH = /^\/@([^/]+)\/([^/]+)\/apps\/([^/]+)(\/.*)?$/

/** The paths this handler answers: every path under an app prefix (its 404s included). */
const OWNED_PATH = /^\/@[^/?#]+\/[^/?#]+\/apps(?:[/?#]|$)/

/** The parts of an app path, decoded; undefined when the path is not one, or not valid percent-encoding. */
export const parseAppPath = (path: string):
  | {
    readonly owner: string
    readonly workspace: string
    readonly agent: string | undefined
    readonly slug: string
    readonly rest: string | undefined
  }
  | undefined =>
{
  const m = APP_PATH.exec(path)
  if (m === null) return undefined
  try {
    const owner = decodeURIComponent(m[1]!)
    const workspaceAndAgent = decodeURIComponent(m[2]!)
    const slug = decodeURIComponent(m[3]!)
    const dot = workspaceAndAgent.indexOf(".")
    return {
      owner,
      workspace: dot < 0 ? workspaceAndAgent : workspaceAndAgent.slice(0, dot),
      agent: dot < 0 ? undefined : workspaceAndAgent.slice(dot + 1),
      slug,
      rest: m[4]
    }
  } catch {
    return undefined
  }
}

/** A query parameter's name as a query string decoder reads it (`+` a space, percent-decoded). */
const paramName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "))
  } catch {
    return raw
  }
}

/**
 * `query` (with its `?`, or "") without the application key parameter, however its name is
 * encoded, and the rest byte for byte: an app never receives a key in its URL (docs/agents.md,
 * "Web apps").
 */
const withoutAppKey = (query: string): string => {
  if (query === "") return query
  const kept = query.slice(1).split("&").filter((part) => paramName(part.split("=", 1)[0]!) !== APP_KEY_PARAM)
  return kept.length === 0 ? "" : `?${kept.join("&")}`
}

interface ResponseFields {
  readonly message: string
  readonly detail?: string | undefined
  readonly validations?: ReadonlyArray<{ readonly field: string; readonly detail: string }> | undefined
}

/** The Response object's text. */
const responseText = (body: ResponseFields) =>
  JSON.stringify({
    message: body.message,
    ...(body.detail !== undefined ? { detail: body.detail } : {}),
    ...(body.validations !== undefined && body.validations.length > 0
      ? { validations: body.validations.map((v) => ({ field: v.field, detail: v.detail })) }
      : {})
  })

const JSON_TYPE = "application/json; charset=utf-8"

/** A request to an app path, as either adapter hands it over. */
interface IncomingAppRequest {
  readonly method: string
  /** Path and query. */
  readonly url: string
  /** Lower-case names to their values. */
  readonly headers: Readonly<Record<string, ReadonlyArray<string>>>
  readonly remoteAddress: string
  /** Whether the peer is a trusted proxy (RealIp.ts): else its trusted headers are not passed on. */
  readonly fromTrustedProxy: boolean
  readonly secure: boolean
  /** Another replica relayed it (`remoteAddress` is the client it names); it is never relayed again. */
  readonly relayed: boolean
  /** The `Host` the client named ("" when none): an app host names a subdomain app. */
  readonly host: string
}

/** How long the replica a request is relayed to has to answer its status and headers (its own bound, and a little). */
const RELAY_HEAD_TIMEOUT_MS = (APP_PROXY_RESPONSE_TIMEOUT_SECONDS + 5) * 1000

/** How an adapter answers: a Response object, or the app's answer streamed. */
interface Answerer<R> {
  readonly json: (status: number, body: ResponseFields, extra?: Record<string, string>) => R
  readonly stream: (
    status: number,
    headers: Record<string, Array<string>>,
    body: Stream.Stream<Uint8Array, unknown>
  ) => R
  /** Sends the request on to another replica and streams its answer back. */
  readonly relay: (target: RelayTarget) => R
}

const cookiesWithout = (header: string, name: string): string =>
  header.split(";").map((p) => p.trim()).filter((p) => p !== "" && p.slice(0, p.indexOf("=")).trim() !== name).join(
    "; "
  )

const readCookie = (header: string | undefined, name: string): string | undefined => {
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=")
    if (i >= 0 && part.slice(0, i).trim() === name) {
      const value = part.slice(i + 1).trim()
      try {
        return decodeURIComponent(value)
      } catch {
        return value
      }
    }
  }
  return undefined
}

/** The status of a typed failure, from its schema annotation (500 for anything else). */
const statusOf = (error: unknown): number => {
  const ast = (error as { constructor?: { ast?: Parameters<typeof HttpApiSchema.getStatusErrorAST>[0] } })?.constructor
    ?.ast
  return ast === undefined ? 500 : HttpApiSchema.getStatusErrorAST(ast)
}

export interface AppProxyHandler {
  /**
   * Whether a path is an app's (`/@owner/workspace[.agent]/apps...`, query included or not); those
   * are this handler's. Other `/@...` paths (the dashboard's workspace and terminal pages) are not.
   */
  readonly owns: (path: string) => boolean
  /**
   * Whether a request's `Host` is a subdomain app's (the wildcard app host covers it and it is
   * not the access URL's): every path on it is this handler's.
   */
  readonly ownsHost: (host: string | undefined) => boolean
  /** Serves one request to a path-based app on Node's request and response. */
  readonly node: (req: IncomingMessage, res: ServerResponse) => void
  /** Serves one request to a path-based app as a Fetch handler (the app's answer streamed in the Response). */
  readonly web: (request: Request, info?: WebRequestInfo) => Promise<Response>
}

/** The path-based app handler of `dispatcher`'s service (its runtime, session header and cookie). */
export const makeAppProxyHandler = (dispatcher: Dispatcher): AppProxyHandler => {
  const sessionHeader = (dispatcher.options.sessionHeader ?? DEFAULT_SESSION_HEADER).toLowerCase()
  const sessionCookie = dispatcher.options.sessionCookie ?? DEFAULT_SESSION_COOKIE
  const { accessUrl: access, wildcardAccessUrl: wildcard } = dispatcher.settings
  const accessUrl = new URL(access)
  const readLabel = wildcardLabelReader(wildcard)
  const appCookie = subdomainAppCookie(wildcard)
  /** Whether `host` is a subdomain app's: one the wildcard app host covers, other than the access URL's (as the described system's). */
  const ownsHost = (host: string | undefined): boolean => {
    if (host === undefined || host === "" || wildcard === "") return false
    const name = (h: string) => h.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "")
    return name(host) !== name(accessUrl.host) && readLabel(host) !== undefined
  }
  // The runtime holds every service (makeWorkbay's); the dispatcher's runFork does not say so in its type.
  const run = <A>(
    effect: Effect.Effect<A, AppOpenError, AppProxy | Auth>,
    onExit: (exit: Exit.Exit<A, AppOpenError>) => void
  ) => dispatcher.runFork(effect as Effect.Effect<A, AppOpenError>).addObserver(onExit)

  /**
   * The request's credentials (the session header, cookie, or a bearer; on an app host also the
   * app session cookie), and where they came from.
   */
  const credentials = (
    headers: IncomingAppRequest["headers"],
    onAppHost = false
  ): { token: string; from: "header" | "cookie" | "bearer" | "app-cookie" } | undefined => {
    const fromHeader = headers[sessionHeader]?.[0]
    if (fromHeader !== undefined && fromHeader !== "") return { token: fromHeader, from: "header" }
    const fromCookie = readCookie(headers.cookie?.join("; "), sessionCookie)
    if (fromCookie !== undefined && fromCookie !== "") return { token: fromCookie, from: "cookie" }
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization?.[0] ?? "")
    if (bearer !== null) return { token: bearer[1]!.trim(), from: "bearer" }
    const fromAppCookie = onAppHost ? readCookie(headers.cookie?.join("; "), appCookie) : undefined
    return fromAppCookie !== undefined && fromAppCookie !== ""
      ? { token: fromAppCookie, from: "app-cookie" }
      : undefined
  }

  /** The headers the app receives: not hop-by-hop ones, not the caller's credentials for this service; forwarding headers added. */
  const forwardedHeaders = (req: IncomingAppRequest, from: string | undefined): HeaderMap => {
    const out: Record<string, Array<string>> = {}
    for (const [name, values] of Object.entries(req.headers)) {
      if (HOP_BY_HOP.has(name) || name === "host" || name === "content-length" || name === sessionHeader) continue
      // A relay's own headers (its secret above all) never reach the app.
      if (name === RELAY_HEADER || name === RELAY_CLIENT_HEADER || name === RELAY_PROTO_HEADER) continue
      if (name === "authorization" && from === "bearer") continue
      if (name === "cookie") {
        const kept = cookiesWithout(cookiesWithout(values.join("; "), sessionCookie), appCookie)
        if (kept !== "") out.cookie = [kept]
        continue
      }
      out[name] = [...values]
    }
    // As the described system (FilterUntrustedOriginHeaders): the trusted headers only from a
    // trusted proxy; from anybody else they could name any address.
    if (!req.fromTrustedProxy) { for (const name of dispatcher.clientAddress.trustedHeaders) delete out[name] }
    // The caller's address joins the list, unless it was read from it (the Fetch handler's).
    const hops = (out["x-forwarded-for"] ?? []).join(", ").split(",").map((h) => h.trim()).filter((h) => h !== "")
    if (req.remoteAddress !== "" && hops.at(-1) !== req.remoteAddress && hops[0] !== req.remoteAddress) {
      hops.push(req.remoteAddress)
    }
    out["x-forwarded-for"] = [hops.join(", ")]
    const host = req.headers.host?.[0]
    if (host !== undefined) out["x-forwarded-host"] = [host]
    out["x-forwarded-proto"] = [req.secure ? "https" : "http"]
    return out
  }

  /** The app's headers as the caller gets them: not hop-by-hop ones, and never the service's session cookie. */
  const answerHeaders = (headers: HeaderMap): Record<string, Array<string>> => {
    const out: Record<string, Array<string>> = {}
    for (const [name, values] of Object.entries(headers)) {
      if (HOP_BY_HOP.has(name)) continue
      // A path app shares the service's origin: it may not replace the caller's session cookie,
      // nor a subdomain app its app session.
      out[name] = name === "set-cookie"
        ? values.filter((v) => {
          const cookie = v.slice(0, v.indexOf("=")).trim()
          return cookie !== sessionCookie && cookie !== appCookie
        })
        : [...values]
    }
    return out
  }

  /** Serves one app request with its body: decode, one call to `AppProxy.open`, answer. */
  const serve = <R>(req: IncomingAppRequest, body: Uint8Array, answer: Answerer<R>, done: (r: R) => void) => {
    const q = req.url.indexOf("?")
    const path = q < 0 ? req.url : req.url.slice(0, q)
    const query = q < 0 ? "" : req.url.slice(q)
    if (ownsHost(req.host)) return serveSubdomain(req, path, query, body, answer, done)
    const parsed = parseAppPath(path)
    if (parsed === undefined) {
      return done(answer.json(404, { message: "Route not found.", detail: `No route ${req.method} ${path}.` }))
    }
    // An application key has no use on a path (the session cookie reaches it): it is dropped.
    const appQuery = withoutAppKey(query)
    // The app's own relative links need the trailing slash, as the described system redirects.
    if (parsed.rest === undefined) {
      return done(answer.json(307, { message: "Temporary Redirect." }, { location: `${path}/${appQuery}` }))
    }
    const given = credentials(req.headers)
    const request: AppRequest = {
      owner: parsed.owner,
      workspace: parsed.workspace,
      agent: parsed.agent,
      slug: parsed.slug,
      path: parsed.rest + appQuery,
      method: req.method,
      headers: forwardedHeaders(req, given?.from),
      body,
      ip: req.remoteAddress,
      userAgent: req.headers["user-agent"]?.[0] ?? "",
      relayed: req.relayed
    }
    open(req, body, request, given, answer, done)
  }

  /**
   * A request to a subdomain app's host (docs/agents.md, "Subdomain apps"): the host names the
   * app; an application key in the query becomes the host's app session cookie (and leaves the
   * URL); a caller without a session for an app not open to anonymous callers is sent through the
   * access URL's `/api/v2/applications/auth-redirect` to get one.
   */
  const serveSubdomain = <R>(
    req: IncomingAppRequest,
    path: string,
    query: string,
    body: Uint8Array,
    answer: Answerer<R>,
    done: (r: R) => void
  ) => {
    const parsed = parseAppSubdomain(readLabel(req.host) ?? "")
    if (typeof parsed === "string") {
      return done(answer.json(400, { message: "Invalid application URL.", detail: parsed }))
    }
    const params = new URLSearchParams(query)
    const key = params.get(APP_KEY_PARAM)
    if (key !== null) return exchangeKey(req, path, params, key, answer, done)
    const given = credentials(req.headers, true)
    const request: AppRequest = {
      access: "subdomain",
      owner: parsed.user,
      workspace: parsed.workspace,
      agent: parsed.agent,
      slug: parsed.slugOrPort,
      port: parsed.port,
      // A key is exchanged above and never reaches here; dropped all the same, as on a path.
      path: path + withoutAppKey(query),
      method: req.method,
      headers: forwardedHeaders(req, given?.from),
      body,
      ip: req.remoteAddress,
      userAgent: req.headers["user-agent"]?.[0] ?? "",
      relayed: req.relayed
    }
    open(req, body, request, given, answer, done, () => {
      // Back here with a key, at the same URL (the access URL's scheme, as the described system's).
      const back = `${accessUrl.protocol}//${req.host}${path}${query}`
      const to = new URL("/api/v2/applications/auth-redirect", accessUrl)
      to.searchParams.set("redirect_uri", back)
      return answer.json(303, { message: "See Other." }, { location: to.toString(), "cache-control": "no-store" })
    })
  }

  /** `?coder_application_connect_api_key=`: the key, once valid, becomes this host's app session cookie; 307 to the URL without it. */
  const exchangeKey = <R>(
    req: IncomingAppRequest,
    path: string,
    params: URLSearchParams,
    key: string,
    answer: Answerer<R>,
    done: (r: R) => void
  ) => {
    run(Effect.flatMap(Auth, (auth) => auth.authenticate(key)), (exit) => {
      if (Exit.isFailure(exit)) {
        return done(answer.json(400, {
          message: "The application key is not valid.",
          detail: `Remove the ${APP_KEY_PARAM} query parameter and try again.`
        }))
      }
      params.delete(APP_KEY_PARAM)
      const rest = params.toString()
      const secure = req.secure || accessUrl.protocol === "https:"
      // Host-only (no Domain): no other app host, and not the dashboard's, ever receives it.
      const cookie = `${appCookie}=${encodeURIComponent(key)}; Path=/; HttpOnly; SameSite=Lax${
        secure ? "; Secure" : ""
      }`
      done(answer.json(307, { message: "Temporary Redirect." }, {
        location: rest === "" ? path : `${path}?${rest}`,
        "set-cookie": cookie,
        "cache-control": "no-store"
      }))
    })
  }

  /**
   * Authenticates the caller, opens the app and answers. `signIn`: how a subdomain request
   * without a usable session is answered when the app wants one. On an app host a credential
   * that does not authenticate (the app cookie, a session header, a bearer) counts as no session,
   * as in the described system (its app requests read the key as optional): a public app is
   * served, any other answers `signIn`. On a path it answers 401.
   */
  const open = <R>(
    req: IncomingAppRequest,
    body: Uint8Array,
    request: AppRequest,
    given: ReturnType<typeof credentials>,
    answer: Answerer<R>,
    done: (r: R) => void,
    signIn?: () => R
  ) => {
    const program = Effect.gen(function*() {
      const actor = given === undefined
        ? Option.none()
        : signIn !== undefined
        ? yield* Effect.option(Effect.flatMap(Auth, (auth) => auth.authenticate(given.token)))
        : Option.some(yield* Effect.flatMap(Auth, (auth) => auth.authenticate(given.token)))
      return yield* Effect.flatMap(AppProxy, (proxy) => proxy.open(request, actor))
    })
    run(program, (exit) => {
      if (Exit.isSuccess(exit)) {
        const opened = exit.value
        if (opened._tag === "Relay") {
          // As it came: the caller's headers (credentials too) and body; the relay's headers added.
          return done(answer.relay({
            address: opened.address,
            method: req.method,
            url: req.url,
            // The scheme the client used, for the app's `x-forwarded-proto` on the replica that serves it.
            headers: relayRequestHeaders(req.headers, {
              ...relayHeaders(dispatcher.relaySecret, req.remoteAddress),
              [RELAY_PROTO_HEADER]: req.secure ? "https" : "http"
            }),
            body,
            headTimeoutMs: RELAY_HEAD_TIMEOUT_MS
          }))
        }
        const { response } = opened
        return done(answer.stream(response.status, answerHeaders(response.headers), response.body))
      }
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure) && signIn !== undefined && statusOf(failure.value) === 401) return done(signIn())
      if (Option.isSome(failure)) return done(answer.json(statusOf(failure.value), failure.value))
      if (Cause.isInterruptedOnly(exit.cause)) {
        return done(answer.json(503, { message: "The request was interrupted." }))
      }
      dispatcher.runFork(Effect.logError("Unhandled failure while serving an app request", exit.cause))
      done(answer.json(500, { message: "An internal error occurred." }))
    })
  }

  const tooLarge: ResponseFields = {
    message: "Request body is too large.",
    detail: `The limit is ${APP_PROXY_MAX_REQUEST_BYTES} bytes.`
  }

  const nodeAnswer = (res: ServerResponse): Answerer<void> => ({
    json: (status, body, extra = {}) => {
      if (res.headersSent) return void res.destroy()
      const text = responseText(body)
      res.writeHead(status, { "content-type": JSON_TYPE, "content-length": String(Buffer.byteLength(text)), ...extra })
      res.end(text)
    },
    stream: (status, headers, body) => {
      res.writeHead(status, headers)
      const write = (chunk: Uint8Array) =>
        Effect.async<void>((resume) => {
          if (res.destroyed || res.write(chunk)) return resume(Effect.void)
          const drained = () => {
            res.off("drain", drained)
            res.off("close", drained)
            resume(Effect.void)
          }
          res.once("drain", drained)
          res.once("close", drained)
        })
      const fiber = dispatcher.runFork(Stream.runForEach(body, write))
      // The client left: stop reading, which tells the agent to cancel the request.
      const left = () => void (!res.writableFinished && dispatcher.runFork(Fiber.interrupt(fiber)))
      res.once("close", left)
      fiber.addObserver((exit) => {
        res.off("close", left)
        // A body that broke off cannot be answered with an error any more: the response is cut.
        if (Exit.isSuccess(exit)) res.end()
        else res.destroy()
      })
    },
    relay: (target) => {
      const controller = new AbortController()
      // The client left before the other replica answered: the relay is dropped.
      const left = () => void (!res.writableFinished && controller.abort())
      res.once("close", left)
      relayHttp(target, controller.signal).then(
        (upstream) => {
          res.off("close", left)
          if (res.destroyed) return void upstream.destroy()
          res.writeHead(upstream.statusCode ?? 502, relayAnswerHeaders(upstream))
          // Back-pressure: the other replica's answer is read as fast as the client takes it.
          upstream.pipe(res)
          // An answer that broke off cannot be answered with an error any more: the response is cut.
          upstream.once("aborted", () => res.destroy())
          upstream.once("error", () => res.destroy())
          upstream.once("close", () => void (!upstream.complete && res.destroy()))
          res.once("close", () => void (!upstream.complete && upstream.destroy()))
        },
        (error: unknown) => {
          res.off("close", left)
          if (res.destroyed) return
          nodeAnswer(res).json(502, error instanceof BadGateway ? error : unreachable(target.address, String(error)))
        }
      )
    }
  })

  const node = (req: IncomingMessage, res: ServerResponse) => {
    const client = dispatcher.requestClient(req.socket.remoteAddress ?? "", req.headers)
    const incoming: IncomingAppRequest = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: Object.fromEntries(
        Object.entries(req.headersDistinct).filter((e): e is [string, Array<string>] => e[1] !== undefined)
      ),
      remoteAddress: client.address,
      fromTrustedProxy: !client.relayed && dispatcher.clientAddress.trusts(req.socket.remoteAddress ?? ""),
      secure: client.relayed
        ? req.headers[RELAY_PROTO_HEADER] === "https"
        : "encrypted" in req.socket && req.socket.encrypted === true,
      relayed: client.relayed,
      host: req.headers.host ?? ""
    }
    const answer = nodeAnswer(res)
    readNodeBody(
      req,
      APP_PROXY_MAX_REQUEST_BYTES,
      (bytes) => serve(incoming, new Uint8Array(bytes), answer, () => {}),
      () => answer.json(413, tooLarge)
    )
  }

  const webAnswer: Answerer<Response | Promise<Response>> = {
    json: (status, body, extra = {}) =>
      new Response(responseText(body), { status, headers: { "content-type": JSON_TYPE, ...extra } }),
    stream: (status, headers, body) => {
      const out = new Headers()
      for (const [name, values] of Object.entries(headers)) for (const value of values) out.append(name, value)
      // Canceling the readable (the client left) interrupts the stream, which tells the agent to cancel.
      const readable = Stream.toReadableStream(body as Stream.Stream<Uint8Array<ArrayBuffer>, unknown>)
      return new Response(readable, { status, headers: out })
    },
    relay: (target) =>
      relayHttp(target).then(
        (upstream) => {
          const status = upstream.statusCode ?? 502
          const out = new Headers()
          for (const [name, value] of Object.entries(relayAnswerHeaders(upstream))) {
            for (const v of typeof value === "string" ? [value] : value) out.append(name, v)
          }
          if (target.method === "HEAD" || [101, 204, 205, 304].includes(status)) {
            upstream.resume()
            return new Response(null, { status, headers: out })
          }
          // The body is the other replica's, read as the client takes it; canceling it ends the relay.
          return new Response(Readable.toWeb(upstream) as ReadableStream<Uint8Array>, { status, headers: out })
        },
        (error: unknown) =>
          new Response(
            responseText(error instanceof BadGateway ? error : unreachable(target.address, String(error))),
            { status: 502, headers: { "content-type": JSON_TYPE } }
          )
      )
  }

  const web = async (request: Request, info?: WebRequestInfo): Promise<Response> => {
    const url = new URL(request.url)
    const headers: Record<string, Array<string>> = {}
    request.headers.forEach((value, name) => {
      headers[name] = name === "set-cookie" ? request.headers.getSetCookie() : [value]
    })
    const declared = Number(request.headers.get("content-length") ?? 0)
    const body = request.body === null
      ? new Uint8Array(0)
      : declared > APP_PROXY_MAX_REQUEST_BYTES
      ? undefined
      : await readAtMost(request.body, APP_PROXY_MAX_REQUEST_BYTES)
    if (body === undefined) return webAnswer.json(413, tooLarge)
    const client = dispatcher.requestClient(info?.remoteAddress ?? "", headers)
    const incoming: IncomingAppRequest = {
      method: request.method,
      url: url.pathname + url.search,
      headers,
      // As the API's web handler: the peer's address, or the client's a trusted proxy (or a relay) names.
      remoteAddress: client.address,
      fromTrustedProxy: !client.relayed && dispatcher.clientAddress.trusts(info?.remoteAddress ?? ""),
      secure: client.relayed ? request.headers.get(RELAY_PROTO_HEADER) === "https" : url.protocol === "https:",
      relayed: client.relayed,
      host: request.headers.get("host") ?? url.host
    }
    return new Promise<Response>((resolve) => serve(incoming, body, webAnswer, resolve))
  }

  return { owns: (path) => OWNED_PATH.test(path), ownsHost, node, web }
}
