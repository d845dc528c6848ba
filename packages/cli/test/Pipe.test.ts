/**
 * joinSocket (src/Pipe.ts) over a real WebSocket: bytes both ways in order, frames of at most
 * 16 KiB, a slow local reader slowing the socket, and the socket's close ending the join.
 */
import { once } from "node:events"
import { PassThrough, Writable } from "node:stream"
import { afterAll, beforeAll, expect, it } from "vitest"
import WebSocket, { WebSocketServer } from "ws"
import { joinSocket, MAX_FRAME_BYTES } from "../src/Pipe.js"

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
