/**
 * WebSocket test support: a server whose API is Workbay's plus test-only groups (routes the
 * described system does not have), with the same assembly as `makeWorkbay`; and a `ws` client
 * that records messages, the close and handshake refusals.
 */
import type { HttpApiGroup } from "@effect/platform"
import {
  type GroupImplementation,
  type HttpOptions,
  implementations,
  makeDispatcher,
  servicesLayer,
  WorkbayApi,
  type WorkbayHandlerShape,
  type WorkbayOptions,
  type WorkbayServices
} from "@workbay/http"
import type { StoragePorts } from "@workbay/storage-sql"
import * as Sqlite from "@workbay/storage-sqlite"
import { type Effect, type Layer, ManagedRuntime } from "effect"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import WebSocket from "ws"
import { makeWebSocketHub } from "../src/WebSocket.js"
import { handlerShape } from "../src/Workbay.js"
import { Client } from "./support.js"

export interface WsTestServer {
  readonly url: string
  readonly wsUrl: string
  readonly anonymous: Client
  readonly server: Server
  readonly handler: WorkbayHandlerShape
  readonly run: <A, E>(effect: Effect.Effect<A, E, WorkbayServices>) => Promise<A>
  readonly close: () => Promise<void>
}

/** Starts Workbay's API plus `groups` (implemented by `extra`) on a random port, upgrades included. */
export const startWsServer = async (
  groups: ReadonlyArray<HttpApiGroup.HttpApiGroup.Any>,
  extra: ReadonlyArray<GroupImplementation<any>>,
  options: WorkbayOptions & { readonly storage?: Layer.Layer<StoragePorts, unknown>; readonly http?: HttpOptions } = {}
): Promise<WsTestServer> => {
  const runtime = ManagedRuntime.make(
    servicesLayer(options.storage ?? Sqlite.layerMemory, { passwordHashCost: 4, ...options })
  )
  const rt = await runtime.runtime()
  let api: any = WorkbayApi
  for (const g of groups) api = api.add(g)
  const dispatcher = makeDispatcher(
    api,
    [...implementations, ...extra] as ReadonlyArray<GroupImplementation<any>>,
    rt as any,
    options.http
  )
  const hub = makeWebSocketHub({
    maxMessageBytes: options.http?.maxWebSocketMessageBytes ?? 32 * 1024,
    pingIntervalMillis: options.http?.webSocketPingIntervalMillis ?? 15_000,
    runFork: dispatcher.runFork
  })
  const handler = handlerShape(dispatcher, hub)
  const server = createServer()
  handler.attach(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    anonymous: new Client(`http://127.0.0.1:${port}/api/v2`),
    server,
    handler,
    run: (effect) => runtime.runPromise(effect as any),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      await hub.close()
      server.closeAllConnections()
      await closed
      await runtime.dispose()
    }
  }
}

export interface WsResult {
  readonly messages: Array<string>
  /** The close code and reason, once closed. */
  readonly closed: Promise<{ code: number; reason: string }>
  readonly socket: WebSocket
  /** The headers of the handshake's answer (101). */
  readonly headers: IncomingHttpHeaders
}

/** Connects; resolves when open (rejects with the refusal's status and body). */
export const connect = (
  url: string,
  headers: Record<string, string> = {},
  options: WebSocket.ClientOptions = {}
): Promise<WsResult> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, ...options })
    const messages: Array<string> = []
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on("close", (code, reason) => done({ code, reason: reason.toString() }))
    )
    socket.on("message", (data) => messages.push(data.toString()))
    let answered: IncomingHttpHeaders = {}
    socket.once("upgrade", (res) => void (answered = res.headers))
    socket.on("open", () => resolve({ messages, closed, socket, headers: answered }))
    socket.on("unexpected-response", (_req, res) => {
      let body = ""
      res.on("data", (c: Buffer) => (body += c.toString()))
      res.on("end", () =>
        reject(
          Object.assign(new Error(`refused: ${res.statusCode}`), { status: res.statusCode, body, headers: res.headers })
        ))
    })
    socket.on("error", (e) => reject(e))
  })

/** The refusal of a handshake: its status and parsed body. */
export const refusal = async (
  attempt: Promise<unknown>
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> => {
  try {
    await attempt
  } catch (e) {
    const err = e as { status?: number; body?: string; headers?: Record<string, unknown> }
    if (err.status === undefined) throw e
    let body: unknown = err.body
    try {
      body = JSON.parse(err.body ?? "")
    } catch {
      // not JSON
    }
    return { status: err.status, body, headers: err.headers ?? {} }
  }
  throw new Error("the handshake was accepted")
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export const eventually = async (check: () => boolean, ms = 30_000) => {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error(`${check} did not hold within ${ms / 1000} s`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
