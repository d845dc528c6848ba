/**
 * joinSocket (src/Pipe.ts) over a real WebSocket: bytes both ways in order, frames of at most
 * 16 KiB (or as large as the service's answer says it takes, up to 64 KiB), a slow local reader
 * slowing the socket, and the socket's close ending the join.
 */
import { once } from "node:events"
import { createServer } from "node:http"
import { PassThrough, Writable } from "node:stream"
import { afterAll, beforeAll, expect, it } from "vitest"
import WebSocket, { WebSocketServer } from "ws"
import { Client } from "../src/Client.js"
import { joinSocket, LARGE_FRAME_BYTES, MAX_FRAME_BYTES } from "../src/Pipe.js"

let server: WebSocketServer
let port: number
const frameSizes: Array<number> = []

beforeAll(async () => {
  // An echo service: each frame sent back, recorded.
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 })
  server.on("connection", (ws) => {
    ws.on("message", (data: Buffer, isBinary) => {
      frameSizes.push(isBinary ? data.length : -1)
      if (data.toString() === "close") ws.close(1000)
      else ws.send(data, { binary: true })
    })
  })
  await once(server, "listening")
  port = (server.address() as { port: number }).port
})

afterAll(() => server.close())

const open = async () => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`)
  await once(ws, "open")
  ws.pause()
  return ws
}

it("sends 4 MiB in binary frames of at most 16 KiB and receives them back in order through a slow reader", async () => {
  const ws = await open()
  const payload = Buffer.alloc(4 * 1024 * 1024)
  for (let i = 0; i < payload.length; i++) payload[i] = (i * 7 + (i >> 12)) & 0xff
  const input = new PassThrough()
  const received: Array<Buffer> = []
  let total = 0
  // A reader that takes a while for each piece and signals back-pressure early.
  const output = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, cb) {
      received.push(chunk)
      total += chunk.length
      if (total >= payload.length) ws.send("close")
      setTimeout(cb, 1)
    }
  })
  const joined = joinSocket(ws, input, output)
  input.end(payload)
  const closed = await joined
  expect(closed.code).toBe(1000)
  expect(Buffer.concat(received).equals(payload)).toBe(true)
  const binary = frameSizes.filter((n) => n >= 0)
  expect(Math.max(...binary)).toBeLessThanOrEqual(MAX_FRAME_BYTES)
  expect(binary.reduce((a, b) => a + b, 0)).toBe(payload.length)
})

it("writes the frames that arrive together in one write of the output, in order", async () => {
  // A service that sends eight frames in one write of its connection, then closes.
  const payload = Buffer.alloc(8 * MAX_FRAME_BYTES)
  for (let i = 0; i < payload.length; i++) payload[i] = (i * 13) & 0xff
  const wss = new WebSocketServer({ noServer: true })
  const http = createServer()
  http.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      socket.cork()
      for (let i = 0; i < payload.length; i += MAX_FRAME_BYTES) {
        ws.send(payload.subarray(i, i + MAX_FRAME_BYTES), { binary: true })
      }
      socket.uncork()
      ws.close(1000)
    }))
  http.listen(0, "127.0.0.1")
  await once(http, "listening")
  try {
    // A socket the command's client opened (it knows the socket's connection).
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`
    const ws = await new Client(url, undefined).socket("/frames")
    const chunks: Array<Buffer> = []
    const writes: Array<number> = []
    // Each write done at once: only a corked output collects several chunks for one `writev`.
    const output = new Writable({
      write(chunk: Buffer, _enc, cb) {
        writes.push(1)
        chunks.push(chunk)
        cb()
      },
      writev(entries, cb) {
        writes.push(entries.length)
        for (const e of entries) chunks.push(e.chunk as Buffer)
        cb()
      }
    })
    expect((await joinSocket(ws, new PassThrough(), output)).code).toBe(1000)
    expect(Buffer.concat(chunks).equals(payload)).toBe(true)
    // Eight frames in a couple of reads, so in a couple of writes, not eight.
    expect(writes.reduce((a, b) => a + b, 0)).toBe(8)
    expect(writes.length).toBeLessThan(8)
  } finally {
    wss.close()
    http.close()
  }
})

/** The sizes of the binary frames a service that says it takes `limit` received from one join of 1 MiB in 256 KiB writes. */
const framesTo = async (limit: string | undefined): Promise<Array<number>> => {
  const sizes: Array<number> = []
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 })
  if (limit !== undefined) {
    wss.on("headers", (headers: Array<string>) => void headers.push(`x-workbay-max-frame-bytes: ${limit}`))
  }
  const http = createServer()
  const payload = Buffer.alloc(1024 * 1024, 7)
  http.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      let total = 0
      ws.on("message", (data: Buffer) => {
        sizes.push(data.length)
        total += data.length
        if (total >= payload.length) ws.close(1000)
      })
    }))
  http.listen(0, "127.0.0.1")
  await once(http, "listening")
  try {
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`
    const ws = await new Client(url, undefined).socket("/tunnel")
    const input = new PassThrough({ highWaterMark: 256 * 1024 })
    const joined = joinSocket(ws, input, new PassThrough())
    for (let i = 0; i < payload.length; i += 256 * 1024) input.write(payload.subarray(i, i + 256 * 1024))
    expect((await joined).code).toBe(1000)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(payload.length)
    return sizes
  } finally {
    wss.close()
    http.close()
  }
}

it("sends frames of up to 64 KiB to a service whose answer says it takes them, and 16 KiB to one that does not say", async () => {
  const large = await framesTo("65536")
  expect(Math.max(...large)).toBe(LARGE_FRAME_BYTES)
  // A larger cap still gets 64 KiB frames; a smaller one is kept to.
  expect(Math.max(...await framesTo("1048576"))).toBe(LARGE_FRAME_BYTES)
  expect(Math.max(...await framesTo("20000"))).toBe(20000)
  // No header, or one that is not a size: the frames every service takes.
  expect(Math.max(...await framesTo(undefined))).toBe(MAX_FRAME_BYTES)
  expect(Math.max(...await framesTo("lots"))).toBe(MAX_FRAME_BYTES)
})
