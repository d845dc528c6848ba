/**
 * The agent's TCP tunnels (`tcp` streams) to real local TCP servers, through a real local
 * WebSocket server playing the service's stream endpoint: 10 MiB both ways intact in frames of at
 * most 16 KiB, a port nobody listens on refused with 1011, either side ending the other, an
 * unknown kind refused. A tunnel counts as use in the agent's next stats report.
 */
import { createHash, randomBytes } from "node:crypto"
import { type AddressInfo, createServer, type Server, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FRAME_BYTES } from "../src/StreamSocket.js"
import { type Harness, record, startHarness, waitFor } from "./streams.js"

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return (server.address() as AddressInfo).port
}

describe("the agent's TCP tunnels", () => {
  let h: Harness
  let echoPort: number
  const echo = createServer((s) => s.pipe(s))
  const accepted: Array<Socket> = []
  const holder = createServer((s) => void accepted.push(s))
  let holderPort: number
  beforeAll(async () => {
    h = await startHarness()
    echoPort = await listen(echo)
    holderPort = await listen(holder)
  })
  afterAll(async () => {
    await h.close()
    echo.close()
    for (const s of accepted) s.destroy()
    holder.close()
  })

  it("carries 10 MiB to a local TCP server and back, intact, in frames of at most 16 KiB", async () => {
    const ws = await h.open({ kind: "tcp", port: echoPort })
    const data = randomBytes(10 * 1024 * 1024)
    const received: Array<Buffer> = []
    let bytes = 0
    let largest = 0
    const done = new Promise<void>((resolve) =>
      ws.on("message", (frame: Buffer) => {
        received.push(frame)
        bytes += frame.length
        largest = Math.max(largest, frame.length)
        if (bytes >= data.length) resolve()
      })
    )
    // As the service sends: frames of at most 16 KiB, waiting while its socket holds much.
    for (let i = 0; i < data.length; i += FRAME_BYTES) {
      ws.send(data.subarray(i, i + FRAME_BYTES))
      if (ws.bufferedAmount > 1024 * 1024) await waitFor(() => ws.bufferedAmount < 256 * 1024)
    }
    await done
    expect(largest).toBeLessThanOrEqual(FRAME_BYTES)
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex")
    expect(sha(Buffer.concat(received))).toBe(sha(data))
    expect(h.streams.counts().tcp).toBeGreaterThanOrEqual(1)
    ws.close()
    // Closed, the tunnel still counts as use in the next stats report (opened since the last), once.
    await waitFor(() => h.streams.counts().tcp === 0)
    expect(h.streams.usage().tcp).toBeGreaterThanOrEqual(1)
    expect(h.streams.usage().tcp).toBe(0)
  })

  it("closes the stream with 1011 and the error for a port nobody listens on", async () => {
    // A port just freed: nobody listens on it.
    const server = createServer()
    const port = await listen(server)
    await new Promise<void>((r) => server.close(() => r()))
    const ws = await h.open({ kind: "tcp", port })
    const close = await record(ws).close()
    expect(close.code).toBe(1011)
    expect(close.reason).toMatch(/ECONNREFUSED/)
    expect(Buffer.byteLength(close.reason)).toBeLessThanOrEqual(123)
  })

  it("closes the stream with 1000 when the TCP connection ends, and ends the connection when the stream closes", async () => {
    const ws = await h.open({ kind: "tcp", port: holderPort })
    const out = record(ws)
    await waitFor(() => accepted.length === 1)
    const first = accepted[0]!
    first.end("bye")
    expect(await out.close()).toMatchObject({ code: 1000 })
    expect(out.text()).toBe("bye")

    const ws2 = await h.open({ kind: "tcp", port: holderPort })
    await waitFor(() => accepted.length === 2)
    const second = accepted[1]!
    const got: Array<Buffer> = []
    second.on("data", (d: Buffer) => got.push(d))
    const ended = new Promise<void>((r) => second.on("end", () => r()))
    ws2.send(Buffer.from("last words"))
    ws2.close()
    await ended
    expect(Buffer.concat(got).toString()).toBe("last words")
  })

  it("stops reading the TCP connection while the stream's socket does not drain, and goes on after", async () => {
    const size = 64 * 1024 * 1024
    const data = randomBytes(size)
    const sender = createServer((s) => {
      s.write(data, () => void (finished = true))
      s.end()
    })
    let finished = false
    const port = await listen(sender)
    const ws = await h.open({ kind: "tcp", port })
    // The client reads nothing: the service's socket, then the agent's, then the TCP connection fill.
    ws.pause()
    let server: Socket | undefined
    sender.once("connection", (s) => void (server = s))
    await waitFor(() => server !== undefined)
    // Until what the local server could hand over stops growing (the kernel's buffers and the
    // agent's 256 KiB are full): far from all of it.
    let last = -1
    let same = 0
    while (same < 25 && !finished) {
      await new Promise((r) => setTimeout(r, 40))
      const now = server!.bytesWritten - server!.writableLength
      same = now === last ? same + 1 : 0
      last = now
    }
    expect(finished).toBe(false)
    expect(last).toBeLessThan(size / 2)
    // Read again: everything arrives, intact.
    const received: Array<Buffer> = []
    const out = record(ws)
    ws.on("message", (frame: Buffer) => void received.push(frame))
    ws.resume()
    expect(await out.close()).toMatchObject({ code: 1000 })
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex")
    expect(sha(Buffer.concat(received))).toBe(sha(data))
    sender.close()
  })

  it("refuses a kind it does not serve with 1011", async () => {
    const ws = await h.open({ kind: "vnc" })
    expect(await record(ws).close()).toEqual({ code: 1011, reason: "This agent serves no \"vnc\" stream." })
  })
})
