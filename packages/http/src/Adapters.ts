/**
 * Adapters from Node's `(req, res)`, Node's `upgrade` event and the web `Request -> Response`
 * to the dispatcher.
 */
import { createReadStream } from "node:fs"
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http"
import { type Duplex, Readable } from "node:stream"
import type { Dispatcher } from "./dispatch/Dispatcher.js"
import type { RawRequest, RawResponse } from "./dispatch/Raw.js"
import type { WebSocketHub } from "./WebSocket.js"

/** A Node request handler; `next` (Express, Connect) receives requests outside the service's paths. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/**
 * A Node `upgrade` listener (`server.on("upgrade", handler)`): serves the WebSocket routes.
 * Upgrades outside the service's paths go to `next` when given (another listener of the
 * application), else answer 404.
 */
export type NodeUpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, next?: () => void) => void

/**
 * What a Fetch-API server knows of a request beyond the `Request`: the address of the peer that
 * sent it (Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP(request)?.address`).
 */
export interface WebRequestInfo {
  readonly remoteAddress?: string | undefined
}

/**
 * A web-standard handler (Fetch API). Without the peer's address (`info.remoteAddress`) the
 * request has no known client address, and no proxy header is trusted for it.
 */
export type WebHandler = (request: Request, info?: WebRequestInfo) => Promise<Response>

const writeNode = (res: ServerResponse, r: RawResponse) => {
  if (res.headersSent) return
  if (r.file !== undefined) {
    const file = createReadStream(r.file.path)
    // A file gone or unreadable after its headers were chosen: the connection is cut, the length unmet.
    file.once("error", () => res.destroy())
    res.once("close", () => file.destroy())
    res.writeHead(r.status, r.headers)
    file.pipe(res)
    return
  }
  if (r.stream !== undefined) {
    res.writeHead(r.status, r.headers)
    res.flushHeaders()
    const stop = r.stream.open({
      write: (text) =>
        new Promise<void>((resolve) => {
          if (res.writableEnded || res.destroyed) return resolve()
          if (res.write(text)) return resolve()
          const done = () => {
            res.off("drain", done)
            res.off("close", done)
            resolve()
          }
          res.once("drain", done)
          res.once("close", done)
        }),
      end: () => {
        if (!res.writableEnded) res.end()
      }
    })
    res.once("close", stop)
    return
  }
  if (r.body === undefined) {
    res.writeHead(r.status, r.headers)
    res.end()
    return
  }
  r.headers["content-length"] = String(Buffer.byteLength(r.body))
  res.writeHead(r.status, r.headers)
  res.end(r.body)
}

const tooLarge = (max: number): RawResponse => ({
  status: 413,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: JSON.stringify({ message: "Request body is too large.", detail: `The limit is ${max} bytes.` })
})

const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined ||
  (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0")

export const toNodeHandler = (dispatcher: Dispatcher): NodeHandler => (req, res, next) => {
  const url = req.url ?? "/"
  if (next !== undefined) {
    const q = url.indexOf("?")
    if (!dispatcher.owns(q < 0 ? url : url.slice(0, q))) return next()
  }
  const method = req.method ?? "GET"
  const remoteAddress = req.socket.remoteAddress ?? ""
  // Written out whole, not `{ ...base, body }`: a spread copy that adds a key is V8's slow path on
  // Node 20 (about 1 us a request).
  const request = (body: RawRequest["body"]): RawRequest => ({ method, url, headers: req.headers, remoteAddress, body })
  const respond = (r: RawResponse) => writeNode(res, r)
  // A framework's body parser may have consumed the stream already.
  const preParsed = (req as { body?: unknown }).body
  if (preParsed !== undefined && req.readableEnded) {
    const body = typeof preParsed === "string" || preParsed instanceof Uint8Array ? preParsed : { parsed: preParsed }
    return dispatcher.handle(request(body), respond)
  }
  if (!hasBody(req)) return dispatcher.handle(request(undefined), respond)
  // Routes that take a file keep its bytes, under their own limit; the rest read UTF-8 text.
  const limit = dispatcher.bodyLimit(method, url)
  readNodeBody(
    req,
    limit.maxBytes,
    (bytes) => dispatcher.handle(request(limit.binary ? bytes : bytes.toString("utf8")), respond),
    () => respond(tooLarge(limit.maxBytes))
  )
}

/**
 * Reads a Node request's body, never holding more than `maxBytes` of it: `done` with its bytes,
 * or `tooLarge` (once) when its declared length or what arrives passes `maxBytes`.
 */
export const readNodeBody = (
  req: IncomingMessage,
  maxBytes: number,
  done: (bytes: Buffer) => void,
  tooLarge: () => void
): void => {
  const declared = Number(req.headers["content-length"] ?? 0)
  if (declared > maxBytes) {
    tooLarge()
    req.resume()
    return
  }
  const chunks: Array<Buffer> = []
  let size = 0
  let aborted = false
  req.on("data", (chunk: Buffer) => {
    if (aborted) return
    size += chunk.length
    if (size > maxBytes) {
      aborted = true
      tooLarge()
      return
    }
    chunks.push(chunk)
  })
  req.on("end", () => {
    if (!aborted) done(Buffer.concat(chunks))
  })
  req.on("error", () => {
    aborted = true
  })
}

/** The body's bytes, or undefined once they pass `max`: a body is never held whole before its size is known. */
export const readAtMost = async (stream: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | undefined> => {
  const reader = stream.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

export const toWebHandler = (dispatcher: Dispatcher): WebHandler => async (request, info) => {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, key) => {
    headers[key] = value
  })
  let body: string | Uint8Array | undefined
  if (request.body !== null) {
    const limit = dispatcher.bodyLimit(request.method, url.pathname)
    const declared = Number(headers["content-length"] ?? 0)
    const bytes = declared > limit.maxBytes ? undefined : await readAtMost(request.body, limit.maxBytes)
    if (bytes === undefined) {
      const r = tooLarge(limit.maxBytes)
      return new Response(r.body as string, { status: r.status, headers: r.headers as Record<string, string> })
    }
    body = limit.binary ? bytes : new TextDecoder().decode(bytes)
  }
  const raw: RawRequest = {
    method: request.method,
    url: url.pathname + url.search,
    headers,
    body,
    // The dispatcher reads the trusted proxy headers only when this peer is a trusted origin.
    remoteAddress: info?.remoteAddress ?? ""
  }
  const r = await new Promise<RawResponse>((resolve) => dispatcher.handle(raw, resolve))
  const out = new Headers()
  for (const [k, v] of Object.entries(r.headers)) {
    if (Array.isArray(v)) { for (const item of v) out.append(k, item) }
    else out.set(k, v)
  }
  if (r.file !== undefined) {
    return new Response(Readable.toWeb(createReadStream(r.file.path)) as ReadableStream<Uint8Array>, {
      status: r.status,
      headers: out
    })
  }
  if (r.stream !== undefined) {
    const body = r.stream
    const encoder = new TextEncoder()
    let stop: (() => void) | undefined
    const readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        stop = body.open({
          write: async (text) => {
            try {
              controller.enqueue(encoder.encode(text))
            } catch {
              // The reader is gone; the stream is being stopped.
            }
          },
          end: () => {
            try {
              controller.close()
            } catch {
              // Already closed or canceled.
            }
          }
        })
      },
      cancel: () => stop?.()
    })
    return new Response(readable, { status: r.status, headers: out })
  }
  // HEAD answers come without a body but with the content-length of the GET they mirror.
  return new Response((r.body ?? null) as BodyInit | null, { status: r.status, headers: out })
}

/** Writes an HTTP answer on a socket that asked to upgrade, and closes it. */
const writeOnSocket = (socket: Duplex, r: RawResponse) => {
  if (socket.destroyed) return
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body)
  let text = `HTTP/1.1 ${r.status} ${
    STATUS_CODES[r.status] ?? ""
  }\r\nConnection: close\r\nContent-Length: ${body.length}\r\n`
  for (const [k, v] of Object.entries(r.headers)) {
    if (k === "content-length" || k === "connection") continue
    for (const item of Array.isArray(v) ? v : [v]) text += `${k}: ${item}\r\n`
  }
  socket.end(Buffer.concat([Buffer.from(text + "\r\n", "latin1"), body]))
}

/** The `upgrade` listener of `dispatcher`'s WebSocket routes, accepted into `hub`. */
export const toNodeUpgradeHandler =
  (dispatcher: Dispatcher, hub: WebSocketHub): NodeUpgradeHandler => (req, socket, head, next) => {
    const url = req.url ?? "/"
    const q = url.indexOf("?")
    // Until the upgrade, a reset by the peer must not become an uncaught error.
    const ignore = () => undefined
    socket.on("error", ignore)
    if (!dispatcher.owns(q < 0 ? url : url.slice(0, q))) {
      socket.off("error", ignore)
      if (next !== undefined) return next()
      return writeOnSocket(socket, {
        status: 404,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({ message: "Route not found." })
      })
    }
    dispatcher.upgrade(
      {
        method: req.method ?? "GET",
        url,
        headers: req.headers,
        body: undefined,
        remoteAddress: req.socket.remoteAddress ?? ""
      },
      (r) => writeOnSocket(socket, r),
      (upgrade) => {
        socket.off("error", ignore)
        hub.accept(req, socket, head, upgrade)
      }
    )
  }
