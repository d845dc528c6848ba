/**
 * Path-based workspace apps over HTTP: `/@{owner}/{workspace}[.{agent}]/apps/{app_slug}/...`,
 * any method, outside `/api/v2` as in the described system. Not an HttpApi endpoint: the body
 * and the answer are the app's bytes, streamed. This adapter decodes the path, reads the body
 * (bounded), authenticates the caller when it sends a token (a public app needs none), makes one
 * call to the core's `AppProxy.open` and streams the app's answer back. See docs/agents.md, "Web apps".
 */
import {
  APP_PROXY_MAX_REQUEST_BYTES, type AppOpenError, AppProxy, type AppRequest, Auth, type HeaderMap
} from "@workbay/core"
import { HttpApiSchema } from "@effect/platform"
import { Cause, Effect, Exit, Fiber, Option, Stream } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { readNodeBody } from "../Adapters.js"
import type { Dispatcher } from "../Dispatcher.js"
import { DEFAULT_SESSION_COOKIE, DEFAULT_SESSION_HEADER } from "../Security.js"

/** Headers of one hop only: never passed on, either way. */
const HOP_BY_HOP = new Set([
  "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"
])

/** `/@{owner}/{workspace}[.{agent}]/apps/{slug}` and the rest of the path (absent without a trailing slash). */
const APP_PATH = /^\/@([^/]+)\/([^/]+)\/apps\/([^/]+)(\/.*)?$/

/** The parts of an app path, decoded; undefined when the path is not one, or not valid percent-encoding. */
export const parseAppPath = (path: string):
  | { readonly owner: string; readonly workspace: string; readonly agent: string | undefined; readonly slug: string; readonly rest: string | undefined }
  | undefined => {
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

interface ResponseFields {
  readonly message: string
  readonly detail?: string | undefined
  readonly validations?: ReadonlyArray<{ readonly field: string; readonly detail: string }> | undefined
}

/** A Response object answer. */
const jsonAnswer = (res: ServerResponse, status: number, body: ResponseFields, extra: Record<string, string> = {}) => {
  if (res.headersSent) return void res.destroy()
  const text = JSON.stringify({
    message: body.message,
    ...(body.detail !== undefined ? { detail: body.detail } : {}),
    ...(body.validations !== undefined && body.validations.length > 0
      ? { validations: body.validations.map((v) => ({ field: v.field, detail: v.detail })) }
      : {})
  })
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)), ...extra })
  res.end(text)
}

const cookiesWithout = (header: string, name: string): string =>
  header.split(";").map((p) => p.trim()).filter((p) => p !== "" && p.slice(0, p.indexOf("=")).trim() !== name).join("; ")

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
  const ast = (error as { constructor?: { ast?: Parameters<typeof HttpApiSchema.getStatusErrorAST>[0] } })?.constructor?.ast
  return ast === undefined ? 500 : HttpApiSchema.getStatusErrorAST(ast)
}

export interface AppProxyHandler {
  /** Whether a path is an app's (`/@...`); those are this handler's. */
  readonly owns: (path: string) => boolean
  /** Serves one request to a path-based app on Node's request and response. */
  readonly node: (req: IncomingMessage, res: ServerResponse) => void
}

/** The path-based app handler of `dispatcher`'s service (its runtime, session header and cookie). */
export const makeAppProxyHandler = (dispatcher: Dispatcher): AppProxyHandler => {
  const sessionHeader = (dispatcher.options.sessionHeader ?? DEFAULT_SESSION_HEADER).toLowerCase()
  const sessionCookie = dispatcher.options.sessionCookie ?? DEFAULT_SESSION_COOKIE
  // The runtime holds every service (makeWorkbay's); the dispatcher's runFork does not say so in its type.
  const run = <A>(effect: Effect.Effect<A, AppOpenError, AppProxy | Auth>, onExit: (exit: Exit.Exit<A, AppOpenError>) => void) =>
    dispatcher.runFork(effect as Effect.Effect<A, AppOpenError>).addObserver(onExit)

  /** The request's credentials (the session header, cookie, or a bearer), and where it came from. */
  const credentials = (req: IncomingMessage): { token: string; from: "header" | "cookie" | "bearer" } | undefined => {
    const fromHeader = req.headers[sessionHeader]
    if (typeof fromHeader === "string" && fromHeader !== "") return { token: fromHeader, from: "header" }
    const fromCookie = readCookie(req.headers.cookie, sessionCookie)
    if (fromCookie !== undefined && fromCookie !== "") return { token: fromCookie, from: "cookie" }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")
    return bearer === null ? undefined : { token: bearer[1]!.trim(), from: "bearer" }
  }

  /** The headers the app receives: not hop-by-hop ones, not the caller's credentials for this service; forwarding headers added. */
  const forwardedHeaders = (req: IncomingMessage, from: string | undefined): HeaderMap => {
    const out: Record<string, Array<string>> = {}
    for (const [name, values] of Object.entries(req.headersDistinct)) {
      if (values === undefined || HOP_BY_HOP.has(name) || name === "host" || name === "content-length" || name === sessionHeader) continue
      if (name === "authorization" && from === "bearer") continue
      if (name === "cookie") {
        const kept = cookiesWithout(values.join("; "), sessionCookie)
        if (kept !== "") out.cookie = [kept]
        continue
      }
      out[name] = [...values]
    }
    out["x-forwarded-for"] = [[...(out["x-forwarded-for"] ?? []), req.socket.remoteAddress ?? ""].filter((v) => v !== "").join(", ")]
    if (req.headers.host !== undefined) out["x-forwarded-host"] = [req.headers.host]
    out["x-forwarded-proto"] = ["encrypted" in req.socket && req.socket.encrypted ? "https" : "http"]
    return out
  }

  /** Writes the app's answer: its status and headers (not hop-by-hop ones), then its body as it comes. */
  const stream = (res: ServerResponse, answer: { status: number; headers: HeaderMap; body: Stream.Stream<Uint8Array, unknown> }) => {
    const headers: Record<string, Array<string>> = {}
    for (const [name, values] of Object.entries(answer.headers)) {
      if (HOP_BY_HOP.has(name)) continue
      // The app shares the service's origin: it may not replace the caller's session cookie.
      headers[name] = name === "set-cookie" ? values.filter((v) => v.slice(0, v.indexOf("=")).trim() !== sessionCookie) : [...values]
    }
    res.writeHead(answer.status, headers)
    const write = (chunk: Uint8Array) =>
      Effect.async<void>((resume) => {
        if (res.destroyed || res.write(chunk)) return resume(Effect.void)
        const done = () => {
          res.off("drain", done)
          res.off("close", done)
          resume(Effect.void)
        }
        res.once("drain", done)
        res.once("close", done)
      })
    const fiber = dispatcher.runFork(Stream.runForEach(answer.body, write))
    // The client left: stop reading, which tells the agent to cancel the request.
    const left = () => void (!res.writableFinished && dispatcher.runFork(Fiber.interrupt(fiber)))
    res.once("close", left)
    fiber.addObserver((exit) => {
      res.off("close", left)
      // A body that broke off cannot be answered with an error any more: the response is cut.
      if (Exit.isSuccess(exit)) res.end()
      else res.destroy()
    })
  }

  const serve = (req: IncomingMessage, res: ServerResponse, body: Uint8Array) => {
    const url = req.url ?? "/"
    const q = url.indexOf("?")
    const path = q < 0 ? url : url.slice(0, q)
    const query = q < 0 ? "" : url.slice(q)
    const parsed = parseAppPath(path)
    if (parsed === undefined) return jsonAnswer(res, 404, { message: "Route not found.", detail: `No route ${req.method} ${path}.` })
    // The app's own relative links need the trailing slash, as the described system redirects.
    if (parsed.rest === undefined) return jsonAnswer(res, 307, { message: "Temporary Redirect." }, { location: `${path}/${query}` })
    const given = credentials(req)
    const request: AppRequest = {
      owner: parsed.owner,
      workspace: parsed.workspace,
      agent: parsed.agent,
      slug: parsed.slug,
      path: parsed.rest + query,
      method: req.method ?? "GET",
      headers: forwardedHeaders(req, given?.from),
      body,
      ip: req.socket.remoteAddress ?? "",
      userAgent: req.headers["user-agent"] ?? ""
    }
    const program = Effect.gen(function*() {
      const actor = given === undefined ? Option.none() : Option.some(yield* Effect.flatMap(Auth, (auth) => auth.authenticate(given.token)))
      return yield* Effect.flatMap(AppProxy, (proxy) => proxy.open(request, actor))
    })
    run(program, (exit) => {
      if (Exit.isSuccess(exit)) return stream(res, exit.value)
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure)) return jsonAnswer(res, statusOf(failure.value), failure.value)
      if (Cause.isInterruptedOnly(exit.cause)) return jsonAnswer(res, 503, { message: "The request was interrupted." })
      dispatcher.runFork(Effect.logError("Unhandled failure while serving an app request", exit.cause))
      jsonAnswer(res, 500, { message: "An internal error occurred." })
    })
  }

  const node = (req: IncomingMessage, res: ServerResponse) =>
    readNodeBody(
      req,
      APP_PROXY_MAX_REQUEST_BYTES,
      (bytes) => serve(req, res, new Uint8Array(bytes)),
      () => jsonAnswer(res, 413, { message: "Request body is too large.", detail: `The limit is ${APP_PROXY_MAX_REQUEST_BYTES} bytes.` })
    )

  return { owns: (path) => path.startsWith("/@"), node }
}
