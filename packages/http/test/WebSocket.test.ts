/**
 * WebSocket routes in the dispatcher, through a real `ws` client on a real port: a test-only
 * group (the described system has no such route) whose endpoint upgrades. Authentication as
 * HTTP (header, cookie, Bearer), errors before the upgrade as HTTP answers on the socket, 426
 * without a handshake, the origin check, the message cap, the keep-alive and the close on dispose.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CurrentActor, NotFound } from "@workbay/core"
import { Authentication, makePrometheusMetrics } from "@workbay/http"
import { Duration, Effect, Schema } from "effect"
import type { Socket } from "node:net"
import { createConnection } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { implement } from "../src/Handlers.js"
import {
  CloseCode,
  followSession,
  upgradeMessageHandler,
  upgradeWebSocket,
  WebSocketUpgradeSchema
} from "../src/WebSocket.js"
import { bootstrapOwner, type Client, UNKNOWN_ID } from "./support.js"
import { connect, eventually, refusal, startWsServer, type WsTestServer } from "./websocket.js"

class WsTestApi extends HttpApiGroup.make("wsTest")
  .add(
    HttpApiEndpoint.get("greet", "/test/greet/:id")
      .setPath(Schema.Struct({ id: Schema.UUID }))
      .setUrlParams(Schema.Struct({
        times: Schema.optional(Schema.NumberFromString),
        latest: Schema.optional(Schema.NumberFromString),
        hold: Schema.optional(Schema.NumberFromString),
        follow: Schema.optional(Schema.String),
        handler: Schema.optional(Schema.String)
      }))
      .addSuccess(Schema.Struct({ greeting: Schema.String }))
      .addSuccess(WebSocketUpgradeSchema)
  )
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/** `latest=N`: N messages of about 1 MB handed to `sendLatest` at once; the count once all are handed over. */
const LATEST_BYTES = 1024 * 1024
let latestSent = 0

/** `hold=N`: the session takes nothing until this is resolved. */
const release = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}
let held = release()

/** `handler`: what the handler sessions' scopes saw, in order (their opening, their finalizers). */
const handlerEvents: Array<string> = []
/** `handler`: how many messages each handler session took past its controls. */
const handled = new Map<string, number>()

/** Greets `times` times over a WebSocket when `follow` is given, or once as JSON; the unknown id is 404. */
const WsTestHttp = implement(
  { groups: { wsTest: WsTestApi } } as any,
  "wsTest" as never,
  {
    greet: ({ path, urlParams }: any) =>
      Effect.gen(function*() {
        if (path.id === UNKNOWN_ID) return yield* NotFound.resource("Greeting")
        const actor = yield* CurrentActor
        const greeting = `hello ${actor.user.username}`
        if (urlParams.follow === undefined) return { greeting }
        if (urlParams.latest !== undefined) {
          const count: number = urlParams.latest
          return yield* upgradeWebSocket(followSession((sendLatest) =>
            Effect.sync(() => {
              for (let i = 1; i <= count; i++) sendLatest(`${i} ${"x".repeat(LATEST_BYTES)}`)
              latestSent = count
            })
          ))
        }
        if (urlParams.handler !== undefined) {
          // A handler session: each message answered in order, one at a time (each takes a few ms);
          // "fail" is a defect, "bye" closes the socket; the scope's finalizer runs at the close.
          const name: string = urlParams.handler
          return yield* upgradeMessageHandler((conn) =>
            Effect.gen(function*() {
              handlerEvents.push(`${name} open`)
              yield* Effect.addFinalizer(() => Effect.sync(() => void handlerEvents.push(`${name} closed`)))
              let n = 0
              return (text: string) =>
                Effect.gen(function*() {
                  if (text === "fail") {
                    // Fails after a moment: the messages sent after it wait meanwhile.
                    yield* Effect.sleep(Duration.millis(100))
                    return yield* Effect.die(new Error("the handler failed"))
                  }
                  if (text === "bye") return yield* conn.close(CloseCode.normal, "bye")
                  handled.set(name, (handled.get(name) ?? 0) + 1)
                  yield* Effect.sleep(Duration.millis(text.length % 3))
                  yield* Effect.orDie(conn.send(`${++n} ${text} ${greeting}`))
                })
            })
          )
        }
        if (urlParams.hold !== undefined) {
          // Takes nothing until the test releases it, then `hold` messages, answering their sizes.
          const count: number = urlParams.hold
          return yield* upgradeWebSocket((conn) =>
            Effect.gen(function*() {
              yield* Effect.promise(() => held.promise)
              const sizes: Array<number> = []
              for (let i = 0; i < count; i++) sizes.push((yield* Effect.orDie(conn.receive)).length)
              yield* Effect.orDie(conn.send(sizes.join(",")))
              yield* conn.closed
            }), { largeMessages: true })
        }
        return yield* upgradeWebSocket((conn) =>
          Effect.gen(function*() {
            for (let i = 0; i < (urlParams.times ?? 1); i++) yield* Effect.orDie(conn.send(greeting))
            if (urlParams.times === 0) yield* conn.closed
          })
        )
      })
  } as any
)

const ID = "3f1b3c6e-6c0a-4a52-9d1e-0a8d1f4c2b11"
let srv: WsTestServer
let owner: Client

beforeAll(async () => {
  srv = await startWsServer([WsTestApi], [WsTestHttp], {
    http: { maxWebSocketMessageBytes: 1024, webSocketPingIntervalMillis: 200 }
  })
  owner = (await bootstrapOwner(srv as any)).client
})
afterAll(() => srv?.close())

const wsPath = (query = "follow&times=2", id = ID) => `${srv.wsUrl}/api/v2/test/greet/${id}?${query}`

describe("WebSocket routes", () => {
  it("upgrades with the session header, the cookie or Bearer; messages then a 1000 close", async () => {
    for (
      const headers of [
        { "Service-Session-Token": owner.token! },
        { cookie: `service_session_token=${owner.token!}` },
        { authorization: `Bearer ${owner.token!}` }
      ]
    ) {
      const ws = await connect(wsPath(), headers)
      expect(await ws.closed).toEqual({ code: CloseCode.normal, reason: "" })
      expect(ws.messages).toEqual(["hello admin", "hello admin"])
    }
  })

  it("the same route answers JSON without follow, and 426 to a follow that is not a handshake", async () => {
    expect((await owner.get(`/test/greet/${ID}`)).body).toEqual({ greeting: "hello admin" })
    const plain = await owner.get(`/test/greet/${ID}?follow`)
    expect(plain.status).toBe(426)
    expect(plain.headers.get("upgrade")).toBe("websocket")
    expect(plain.body.message).toBe("This endpoint answers with a WebSocket.")
  })

  it("answers errors before the upgrade as HTTP on the socket: 401, 404, 400, 403 for a foreign origin", async () => {
    const anonymous = await refusal(connect(wsPath()))
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.message).toBe("You must be logged in to access this resource.")
    expect((await refusal(connect(wsPath(), { "Service-Session-Token": "bad-token" }))).status).toBe(401)
    const auth = { "Service-Session-Token": owner.token! }
    expect((await refusal(connect(wsPath("follow", UNKNOWN_ID), auth))).status).toBe(404)
    const bad = await refusal(connect(wsPath("follow&times=many"), auth))
    expect(bad.status).toBe(400)
    expect(bad.body.validations.map((v: { field: string }) => v.field)).toEqual(["times"])
    expect((await refusal(connect(`${srv.wsUrl}/api/v2/test/nothing`, auth))).status).toBe(404)
    expect((await refusal(connect(`${srv.wsUrl}/elsewhere`, auth))).status).toBe(404)
    const foreign = await refusal(connect(wsPath(), { ...auth, origin: "https://evil.example" }))
    expect(foreign.status).toBe(403)
    const same = await connect(wsPath(), { ...auth, origin: srv.url })
    expect((await same.closed).code).toBe(1000)
  })

  it("a route that does not upgrade answers its JSON on the socket", async () => {
    const r = await refusal(connect(`${srv.wsUrl}/api/v2/users/me`, { "Service-Session-Token": owner.token! }))
    expect(r.status).toBe(200)
    expect(r.body.username).toBe("admin")
  })

  it("closes with 1009 a peer message over the cap", async () => {
    const ws = await connect(wsPath("follow&times=0"), { "Service-Session-Token": owner.token! })
    ws.socket.send("x".repeat(2000))
    expect((await ws.closed).code).toBe(1009)
  })

  it("sendLatest: a backed-up socket skips to the latest message, in order, and gets the last one", async () => {
    latestSent = 0
    const ws = await connect(wsPath("follow&latest=20"), { "Service-Session-Token": owner.token! })
    // The peer stops reading until every message was handed over: the socket backs up.
    const raw = (ws.socket as any)._socket as Socket
    raw.pause()
    await eventually(() => latestSent === 20)
    raw.resume()
    await eventually(() => ws.messages.at(-1)?.startsWith("20 ") === true)
    const numbers = ws.messages.map((m) => Number(m.slice(0, m.indexOf(" "))))
    expect(numbers.length).toBeLessThan(20)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(new Set(numbers).size).toBe(numbers.length)
    ws.socket.close()
  })

  it("stops reading a peer whose unread messages pass 16 MiB, and reads on once they are taken", async () => {
    // A server of its own with the default keep-alive (15 s): the shared one pings every 200 ms for
    // the test of unanswered pings, and under a CPU hog a socket still being read (not yet paused)
    // could miss two of those sweeps while this client's pongs wait behind its own 96 MiB.
    const own = await startWsServer([WsTestApi], [WsTestHttp])
    const boot = await bootstrapOwner(own as any)
    held = release()
    const ws = await connect(`${own.wsUrl}/api/v2/test/greet/${ID}?follow&hold=24`, {
      "Service-Session-Token": boot.client.token!
    })
    // 24 messages of 4 MiB (96 MiB): far fewer than the 64 messages the count bound allows.
    const MESSAGE = 4 * 1024 * 1024
    for (let i = 0; i < 24; i++) ws.socket.send(String(i % 10).repeat(MESSAGE))
    // The server stops reading past 16 MiB unread: what the loopback's buffers (up to 32 MiB
    // received, 4 MiB sent) cannot hold stays with the client (it would all be read, and the
    // client's buffer empty, without the byte bound).
    await new Promise((r) => setTimeout(r, 1000))
    expect(ws.socket.readyState).toBe(ws.socket.OPEN)
    expect(ws.socket.bufferedAmount).toBeGreaterThan(16 * 1024 * 1024)
    held.resolve()
    await eventually(() => ws.messages.length === 1)
    expect(ws.messages[0]).toBe(Array(24).fill(MESSAGE).join(","))
    expect(ws.socket.bufferedAmount).toBe(0)
    ws.socket.close()
    await own.close()
  })

  it("drops a peer that stops answering pings", async () => {
    // A raw handshake, then silence: the server's pings go unanswered.
    const socket = createConnection({ host: "127.0.0.1", port: Number(new URL(srv.url).port) })
    const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()))
    socket.on("error", () => undefined)
    let head = ""
    socket.on("data", (d) => (head += d.toString("latin1")))
    socket.write(
      `GET /api/v2/test/greet/${ID}?follow&times=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nService-Session-Token: ${owner
          .token!}\r\n\r\n`
    )
    await eventually(() => head.startsWith("HTTP/1.1 101"))
    await ended
  })

  it("closes every socket with 1001 when the service closes", async () => {
    const own = await startWsServer([WsTestApi], [WsTestHttp])
    const boot = await bootstrapOwner(own as any)
    const ws = await connect(`${own.wsUrl}/api/v2/test/greet/${ID}?follow&times=0`, {
      "Service-Session-Token": boot.client.token!
    })
    await own.close()
    expect((await ws.closed).code).toBe(CloseCode.goingAway)
  })

  it("a handler session answers each message in order, ends on the peer's close, and closes its scope", async () => {
    const ws = await connect(wsPath("follow&handler=a"), { "Service-Session-Token": owner.token! })
    const sent = Array.from({ length: 30 }, (_, i) => "m".repeat(i + 1))
    for (const m of sent) ws.socket.send(m)
    await eventually(() => ws.messages.length === sent.length)
    expect(ws.messages).toEqual(sent.map((m, i) => `${i + 1} ${m} hello admin`))
    expect(handlerEvents).toEqual(["a open"])
    ws.socket.close(1000)
    await ws.closed
    await eventually(() => handlerEvents.length === 2)
    expect(handlerEvents).toEqual(["a open", "a closed"])
  })

  it("a handler session closes the socket itself, and a failing handler closes it with 1011", async () => {
    handlerEvents.length = 0
    const bye = await connect(wsPath("follow&handler=b"), { "Service-Session-Token": owner.token! })
    bye.socket.send("one")
    bye.socket.send("bye")
    expect(await bye.closed).toEqual({ code: CloseCode.normal, reason: "bye" })
    expect(bye.messages).toEqual(["1 one hello admin"])
    const failing = await connect(wsPath("follow&handler=c"), { "Service-Session-Token": owner.token! })
    // "after" arrives while "fail" is handled: the failure closes the socket, and what waits then
    // is not handled.
    failing.socket.send("fail")
    failing.socket.send("after")
    expect((await failing.closed).code).toBe(CloseCode.internalError)
    expect(failing.messages).toEqual([])
    expect(handled.get("c")).toBeUndefined()
    await eventually(() => handlerEvents.length === 4)
    expect([...handlerEvents].sort()).toEqual(["b closed", "b open", "c closed", "c open"])
  })

  it("a handler session is served the same with the metrics on (their observer times it)", async () => {
    handlerEvents.length = 0
    const own = await startWsServer([WsTestApi], [WsTestHttp], { metrics: makePrometheusMetrics() })
    const boot = await bootstrapOwner(own as any)
    const ws = await connect(`${own.wsUrl}/api/v2/test/greet/${ID}?follow&handler=m`, {
      "Service-Session-Token": boot.client.token!
    })
    ws.socket.send("x")
    await eventually(() => ws.messages.length === 1)
    expect(ws.messages).toEqual(["1 x hello admin"])
    ws.socket.close(1000)
    await eventually(() => handlerEvents.length === 2)
    await own.close()
  })

  it("a handler session's scope is closed before the service's close completes", async () => {
    handlerEvents.length = 0
    const own = await startWsServer([WsTestApi], [WsTestHttp])
    const boot = await bootstrapOwner(own as any)
    const ws = await connect(`${own.wsUrl}/api/v2/test/greet/${ID}?follow&handler=d`, {
      "Service-Session-Token": boot.client.token!
    })
    ws.socket.send("x")
    await eventually(() => ws.messages.length === 1)
    await own.close()
    expect(handlerEvents).toEqual(["d open", "d closed"])
    expect((await ws.closed).code).toBe(CloseCode.goingAway)
  })

  it("documents a WebSocket route's 101 without a body in the OpenAPI document", () => {
    const doc = OpenApi.fromApi(HttpApi.make("t").add(WsTestApi)) as any
    const responses = doc.paths["/api/v2/test/greet/{id}"].get.responses
    expect(responses["101"].content).toBeUndefined()
    expect(responses["101"].description).toContain("WebSocket")
    expect(responses["200"].content["application/json"]).toBeDefined()
  })
})
