/**
 * Two WebSockets joined (SocketJoin.ts), below the routes, on real sockets: the frames of one
 * read of a side go to the other side in one write of its connection, intact and in order. The
 * streams through the routes are in agents/Streams.test.ts.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import WebSocket, { WebSocketServer } from "ws"
import { type HeldSocket, holdSocket, joinSockets } from "../src/SocketJoin.js"

/** A server whose first two sockets are held, the second's connection counted as it is corked. */
const serve = async () => {
  const wss = new WebSocketServer({ noServer: true })
  const held: Array<HeldSocket> = []
  const corks = { n: 0 }
  const server: Server = createServer()
  server.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      const raw = socket as Socket
      const counted = held.length === 0 ? raw : {
        cork: () => {
          corks.n++
          raw.cork()
        },
        uncork: () => raw.uncork()
      }
      held.push(holdSocket(ws, counted))
    }))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { server, wss, held, corks, url }
}

const open = (url: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once("open", () => resolve(ws))
    ws.once("error", reject)
  })

describe("joinSockets", () => {
  const cleanups: Array<() => void> = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup()
  })

  it("sends the frames of one read on in one write of the other side's connection, intact and in order", async () => {
    const s = await serve()
    cleanups.push(() => s.server.close(), () => s.wss.close())
    const a = await open(s.url)
    const b = await open(s.url)
    cleanups.push(() => a.terminate(), () => b.terminate())
    while (s.held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    const cut = joinSockets(s.held[0]!, s.held[1]!, () => {})
    cleanups.push(cut)

    const frames = Array.from({ length: 8 }, (_, i) => Buffer.alloc(4096, i + 1))
    const received: Array<Buffer> = []
    const all = new Promise<void>((resolve) =>
      b.on("message", (data: Buffer) => {
        received.push(data)
        if (received.length === frames.length) resolve()
      })
    )
    // The eight frames leave A in one write, so the joining side reads them together.
    const connection = (a as unknown as { _socket: Socket })._socket
    connection.cork()
    for (const frame of frames) a.send(frame)
    connection.uncork()
    await all

    expect(received).toEqual(frames)
    // One cork a read of A's side: eight frames in at most a few writes, not eight.
    expect(s.corks.n).toBeGreaterThanOrEqual(1)
    expect(s.corks.n).toBeLessThan(frames.length)
  })
})
