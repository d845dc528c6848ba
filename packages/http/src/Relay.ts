/**
 * Relaying a request to the replica that serves it (docs/agents.md, "Several replicas"): a request
 * for an agent whose connection another replica holds is sent on to that replica's relay address,
 * as it came, with the deployment's relay secret (`x-workbay-relay`) and the client's address
 * (`x-workbay-relay-client`) added. For a WebSocket the request's head is written on a new TCP
 * connection to the replica and the two connections are joined: the replica answers the handshake
 * itself, and every byte after it passes through untouched (TCP's flow control end to end). A
 * plain request (an app's, listening ports) is sent again as a new HTTP request ({@link relayHttp},
 * {@link relayJson}) with the caller's headers less hop-by-hop ones: the other replica
 * authenticates and checks it again.
 */
import {
  BadGateway,
  BadRequest,
  Forbidden,
  GatewayTimeout,
  lazily,
  NotFound,
  ResponseBody,
  ThisReplica
} from "@workbay/core"
import { Effect, Schema } from "effect"
import { type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import type { Duplex } from "node:stream"
import type { RequestHeaders } from "./RealIp.js"
import { pipeToReplica } from "./ReplicaPipe.js"
import { RequestContext } from "./RequestContext.js"

/** The header that carries the deployment's relay secret on a relayed request. */
export const RELAY_HEADER = "x-workbay-relay"
/** The header that names the client's address on a relayed request (believed only with the secret). */
export const RELAY_CLIENT_HEADER = "x-workbay-relay-client"
/** The header that names the scheme the client used (`https`, `http`) on a relayed app request. */
export const RELAY_PROTO_HEADER = "x-workbay-relay-proto"

/** The headers a relay adds for `clientIp`, given the deployment's secret. */
export const relayHeaders = (secret: string, clientIp: string): Record<string, string> => ({
  [RELAY_HEADER]: secret,
  [RELAY_CLIENT_HEADER]: clientIp
})

/** Whether `headers` carry the deployment's relay secret (compared in constant time). */
export const isRelayed = (secret: string, headers: RequestHeaders): boolean => {
  const given = headers[RELAY_HEADER]
  const value = typeof given === "string" ? given : given?.[0]
  if (value === undefined || secret === "" || value.length !== secret.length) return false
  let diff = 0
  for (let i = 0; i < value.length; i++) diff |= value.charCodeAt(i) ^ secret.charCodeAt(i)
  return diff === 0
}

/** The request's head as it came (its raw header lines), less the relay's own headers, plus `extra`. */
export const relayRequestHead = (req: IncomingMessage, extra: Readonly<Record<string, string>>): string => {
  let head = `${req.method ?? "GET"} ${req.url ?? "/"} HTTP/1.1\r\n`
  const raw = req.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    if (name === RELAY_HEADER || name === RELAY_CLIENT_HEADER || name === RELAY_PROTO_HEADER) continue
    head += `${raw[i]}: ${raw[i + 1]}\r\n`
  }
  for (const [name, value] of Object.entries(extra)) head += `${name}: ${value}\r\n`
  return head + "\r\n"
}

/**
 * Relays an upgrade: writes the request's head to `address` and joins the two connections
 * (ReplicaPipe.ts). A replica that cannot be reached answers the client 502 on its socket.
 */
export const relayUpgrade = (
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: { readonly address: string; readonly headers: Readonly<Record<string, string>> }
): void => pipeToReplica(socket, head, relayRequestHead(req, target.headers), target.address)

/** Whether the request being served came from another replica (it carries the deployment's relay secret). */
export const relayedRequest = Effect.gen(function*() {
  const ctx = yield* RequestContext
  const self = yield* ThisReplica
  return { ctx, self, relayed: self.relaySecret !== "" && ctx.header(RELAY_HEADER) === self.relaySecret }
})

/** Headers of one hop only: never passed on, either way. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade"
])

/**
 * The headers of a relayed request: the caller's as received (lower-case names), less hop-by-hop
 * ones (and those its `Connection` names), `content-length` (the body is sent again, its length
 * set anew) and any relay headers of its own; plus `extra` (the relay's).
 */
export const relayRequestHeaders = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  extra: Readonly<Record<string, string>>
): OutgoingHttpHeaders => {
  const connection = headers.connection
  const named = new Set(
    (typeof connection === "string" ? [connection] : connection ?? []).flatMap((v) =>
      v.split(",").map((n) => n.trim().toLowerCase())
    )
  )
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (value === undefined || HOP_BY_HOP.has(lower) || named.has(lower)) continue
    if (
      lower === "content-length" || lower === RELAY_HEADER || lower === RELAY_CLIENT_HEADER ||
      lower === RELAY_PROTO_HEADER
    ) continue
    // One value as a string (Node takes `host` only so); several as lines of their own.
    out[lower] = typeof value === "string" ? value : value.length === 1 || lower === "host" ? value[0] : [...value]
  }
  return Object.assign(out, extra)
}

/** The headers of a relayed answer as the client gets them: less hop-by-hop ones. */
export const relayAnswerHeaders = (answer: IncomingMessage): Record<string, string | Array<string>> => {
  const out: Record<string, string | Array<string>> = {}
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue
    out[name] = value
  }
  return out
}

/** The Response object of a relay to `address` that could not reach it. */
export const unreachable = (address: string, reason: string) =>
  new BadGateway({
    message: "The replica that holds the workspace agent's connection cannot be reached.",
    detail: `The relay to ${address} failed (${reason}); try again once the agent reconnects.`
  })

/** A plain request to relay: sent to `address` (`http(s)://host:port`) with `url`'s path and query. */
export interface RelayTarget {
  readonly address: string
  readonly method: string
  /** Path and query, as the client sent them. */
  readonly url: string
  readonly headers: OutgoingHttpHeaders
  readonly body?: Uint8Array | undefined
  /** How long the other replica has to answer the status and headers; the body then streams unbounded. */
  readonly headTimeoutMs: number
}

/**
 * Sends a request on to another replica; resolves with its answer once its status and headers
 * came (the body to be read, or piped, by the caller: it streams with back-pressure), rejects
 * with {@link unreachable} when the replica cannot be reached or does not answer in time.
 * `signal` aborts the relay (the client left).
 */
export const relayHttp = (target: RelayTarget, signal?: AbortSignal): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    let url: URL
    try {
      url = new URL(target.url, target.address)
    } catch {
      return reject(unreachable(target.address, "not a URL"))
    }
    const body = target.body ?? new Uint8Array(0)
    const headers: OutgoingHttpHeaders = { ...target.headers }
    if (body.length > 0 || !["GET", "HEAD", "DELETE", "OPTIONS"].includes(target.method)) {
      headers["content-length"] = String(body.length)
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    let settled = false
    const req = send(url, { method: target.method, headers, agent: false, ...(signal ? { signal } : {}) })
    const timer = setTimeout(() => {
      fail(`no answer within ${Math.round(target.headTimeoutMs / 1000)} s`)
      req.destroy()
    }, target.headTimeoutMs)
    const fail = (reason: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(unreachable(target.address, reason))
    }
    req.once("error", (e) => fail(e.message))
    req.once("response", (answer) => {
      if (settled) return void answer.destroy()
      settled = true
      clearTimeout(timer)
      resolve(answer)
    })
    req.end(body.length > 0 ? body : undefined)
  })

/** Reads a relayed answer's body to its end, at most `limit` bytes (undefined past it). */
const readAll = (answer: IncomingMessage, limit: number): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    answer.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        answer.destroy()
        return resolve(undefined)
      }
      chunks.push(chunk)
    })
    answer.once("end", () => resolve(Buffer.concat(chunks)))
    answer.once("error", reject)
    answer.once("aborted", () => reject(new Error("the answer broke off")))
  })

/**
 * Relays a JSON request (a route of the API) to another replica and answers its status and parsed
 * body; a replica that cannot be reached, does not answer within `timeoutMs`, or answers no JSON
 * fails with a BadGateway.
 */
export const relayJson = (
  target: Omit<RelayTarget, "headTimeoutMs"> & { readonly timeoutMs: number }
): Effect.Effect<{ readonly status: number; readonly body: unknown }, BadGateway> =>
  Effect.tryPromise({
    try: async (signal) => {
      const controller = new AbortController()
      const abort = () => controller.abort()
      let timedOut = false
      signal.addEventListener("abort", abort)
      const timer = setTimeout(() => {
        timedOut = true
        abort()
      }, target.timeoutMs)
      try {
        const answer = await relayHttp({ ...target, headTimeoutMs: target.timeoutMs }, controller.signal)
        const text = await readAll(answer, 16 * 1024 * 1024)
        if (text === undefined) throw unreachable(target.address, "its answer is too large")
        // An answer without a body (204) carries no JSON.
        if (answer.statusCode === 204) return { status: 204, body: undefined }
        try {
          return { status: answer.statusCode ?? 502, body: JSON.parse(text.toString("utf8")) as unknown }
        } catch {
          throw unreachable(target.address, `it answered ${answer.statusCode} without JSON`)
        }
      } catch (e) {
        if (timedOut) throw unreachable(target.address, `no answer within ${Math.round(target.timeoutMs / 1000)} s`)
        throw e
      } finally {
        clearTimeout(timer)
        signal.removeEventListener("abort", abort)
      }
    },
    catch: (e) => e instanceof BadGateway ? e : unreachable(target.address, e instanceof Error ? e.message : String(e))
  })

/** A refusal's Response fields. */
export interface ResponseFields {
  readonly message: string
  readonly detail?: string
  readonly validations?: ResponseBody["validations"]
}

/** The errors a replica's answer may carry back, by status (any other status comes back as 502). */
const relayedErrors = {
  400: BadRequest,
  403: Forbidden,
  404: NotFound,
  502: BadGateway,
  504: GatewayTimeout
} as const

const decodeResponse = lazily(() => Schema.decodeUnknown(ResponseBody))

/**
 * Relays the current request (a GET of the API, `url`, or the `method` given) to the replica at `address`, with the
 * caller's credentials as they came and the relay's headers, and answers as that replica did: its
 * success (200, or the `status` given) decoded with `schema`, its refusal as the same error with its Response object (any other
 * status as a 502 naming it).
 */
export const relayRoute = <A, I, E = never>(
  address: string,
  url: string,
  schema: Schema.Schema<A, I>,
  timeoutMs: number,
  options: {
    readonly method?: string
    readonly status?: number
    /** Errors the route declares beyond the usual ones, by status. */
    readonly errors?: Readonly<Record<number, (fields: ResponseFields) => E>>
  } = {}
) =>
  Effect.gen(function*() {
    const { ctx, self } = yield* relayedRequest
    const credentials: Record<string, string> = {}
    for (const name of [ctx.sessionHeaderName, "cookie", "authorization", "user-agent"]) {
      const value = name === undefined ? undefined : ctx.header(name)
      if (name !== undefined && value !== undefined) credentials[name.toLowerCase()] = value
    }
    const answer = yield* relayJson({
      address,
      method: options.method ?? "GET",
      url,
      headers: { ...credentials, accept: "application/json", ...relayHeaders(self.relaySecret, ctx.ip) },
      timeoutMs
    })
    if (answer.status === (options.status ?? 200)) {
      return yield* Effect.mapError(Schema.decodeUnknown(schema)(answer.body), () =>
        new BadGateway({
          message: "The replica that holds the workspace agent's connection answered something else.",
          detail: `Its answer to the relayed request was not a ${String(schema.ast)}.`
        }))
    }
    const body = yield* Effect.orElseSucceed(
      decodeResponse(answer.body),
      () =>
        new ResponseBody({
          message: `The replica that holds the workspace agent's connection answered ${answer.status}.`
        })
    )
    const fields = {
      message: body.message,
      ...(body.detail !== undefined ? { detail: body.detail } : {}),
      ...(body.validations !== undefined ? { validations: body.validations } : {})
    }
    const extra = options.errors?.[answer.status]
    if (extra !== undefined) return yield* Effect.fail(extra(fields))
    const error = relayedErrors[answer.status as keyof typeof relayedErrors]
    if (error !== undefined) return yield* Effect.fail(new error(fields))
    return yield* new BadGateway({
      message: body.message,
      detail: `The replica that holds the workspace agent's connection answered ${answer.status}${
        body.detail === undefined || body.detail === "" ? "" : `: ${body.detail}`
      }`
    })
  })
