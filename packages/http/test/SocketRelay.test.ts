/**
 * The socket relay's own edges (SocketRelay.ts), below the routes: what the service's side does
 * when its relay's process is gone before the service has seen it go. The streams through the
 * relay, route by route, are in agents/Streams.test.ts.
 */
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { makeSocketRelay, type SocketRelay } from "../src/SocketRelay.js"
import { socketRelayFromSource, socketRelayPids } from "./support.js"

/** Blocks this process (its event loop does not run) until `pid` has died: a zombie not yet reaped, or gone. */
const blockUntilDead = (pid: number) => {
  const deadline = Date.now() + 10_000
  const pause = new Int32Array(new SharedArrayBuffer(4))
  while (Date.now() < deadline) {
    let state: string | undefined
    try {
      state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0]
    } catch {
      return
    }
    if (state === "Z" || state === "X") return
    Atomics.wait(pause, 0, 0, 5)
  }
  throw new Error(`process ${pid} did not die`)
}

type Client = { readonly ws: WebSocket; readonly closed: Promise<{ code: number; reason: string }> }

const openClient = (url: string): Promise<Client> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.once("close", (code, reason) => done({ code, reason: reason.toString() }))
    )
    ws.once("open", () => resolve({ ws, closed }))
    ws.once("error", reject)
  })

describe("the socket relay's process", () => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it("killed, its exit not yet seen by the service: the next socket is handed to a new relay, not lost", async () => {
    const warnings: Array<string> = []
    const relay: SocketRelay = makeSocketRelay({
      ...socketRelayFromSource,
      maxPayload: 1 << 20,
      pingIntervalMillis: 30_000,
      warn: (message) => warnings.push(message)
    })
    cleanups.push(() => relay.stop())
    let killBeforeTake: number | undefined
    const ids: Array<number | undefined> = []
    const server = createServer()
    server.on("upgrade", (req, socket, head) => {
      if (killBeforeTake !== undefined) {
        process.kill(killBeforeTake, "SIGKILL")
        // Its channel is closed now, but this process has not run its event loop since: to the
        // service the relay still looks connected.
        blockUntilDead(killBeforeTake)
      }
      ids.push(relay.take(req, socket, head, false))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())))
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`

    const first = await openClient(url)
    const [killed] = socketRelayPids()
    expect(killed).toBeDefined()
    killBeforeTake = killed
    const second = await openClient(url)
    expect(ids.every((id) => id !== undefined)).toBe(true)
    // The first end went with the killed relay; the second is held by a new one.
    expect((await first.closed).code).toBe(1006)
    const now = socketRelayPids()
    expect(now).toHaveLength(1)
    expect(now[0]).not.toBe(killed)
    relay.close(ids[1]!, 1000, "done")
    expect(await second.closed).toEqual({ code: 1000, reason: "done" })
    await Effect.runPromise(relay.closed(ids[1]!))
    expect(relay.size()).toBe(0)
    expect(warnings.some((message) => message.startsWith("The socket relay exited (SIGKILL)"))).toBe(true)
  })

  it("killed, its exit not yet seen: two ends handed and joined meanwhile are joined by the new relay", async () => {
    const relay: SocketRelay = makeSocketRelay({
      ...socketRelayFromSource,
      maxPayload: 1 << 20,
      pingIntervalMillis: 30_000,
      warn: () => undefined
    })
    cleanups.push(() => relay.stop())
    let killBeforeTake: number | undefined
    const waiting: Array<Parameters<SocketRelay["take"]>> = []
    const server = createServer()
    server.on("upgrade", (req, socket, head) => {
      if (killBeforeTake === undefined) return void relay.take(req, socket, head, false)
      // Both ends of the next stream, handed and joined in one turn of the loop after the kill.
      waiting.push([req, socket, head, false])
      if (waiting.length < 2) return
      process.kill(killBeforeTake, "SIGKILL")
      blockUntilDead(killBeforeTake)
      const [a, b] = waiting.map((args) => relay.take(...args))
      void Effect.runPromise(relay.join(a!, b!))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())))
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`

    const first = await openClient(url)
    const [killed] = socketRelayPids()
    killBeforeTake = killed
    const [one, other] = await Promise.all([openClient(url), openClient(url)])
    expect((await first.closed).code).toBe(1006)
    const received = new Promise<string>((resolve) => other.ws.once("message", (data) => resolve(data.toString())))
    one.ws.send("through the new relay")
    expect(await received).toBe("through the new relay")
    // Joined: a close of one end closes the other with its code.
    one.ws.close(1000, "bye")
    expect(await other.closed).toEqual({ code: 1000, reason: "bye" })
    expect(socketRelayPids()).not.toContain(killed)
  })
})
