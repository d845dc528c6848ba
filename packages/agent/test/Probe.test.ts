/**
 * The app health check against real HTTP servers: healthy on an answer below 500 (a 404 and a
 * redirect are answers), unhealthy on a 5xx, on no answer within the time limit, on a refused
 * connection and on a URL that is not http(s).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { probeHealth } from "../src/Probe.js"

describe("the app health check", () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/ok") return void res.end("x".repeat(100_000))
      if (req.url === "/missing") return void res.writeHead(404).end()
      if (req.url === "/moved") return void res.writeHead(302, { location: "/broken" }).end()
      if (req.url === "/broken") return void res.writeHead(503).end()
      // /silent: never answers.
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })

  it("is healthy on an answer below 500 and unhealthy on a 5xx", async () => {
    expect(await probeHealth(`${base}/ok`, 2000)).toBe(true)
    expect(await probeHealth(`${base}/ok`, 2000)).toBe(true)
    expect(await probeHealth(`${base}/missing`, 2000)).toBe(true)
    expect(await probeHealth(`${base}/moved`, 2000)).toBe(true)
    expect(await probeHealth(`${base}/broken`, 2000)).toBe(false)
  })

  it("is unhealthy when no answer comes within the time limit", async () => {
    const started = Date.now()
    expect(await probeHealth(`${base}/silent`, 300)).toBe(false)
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
  })

  it("is unhealthy on a refused connection and on a URL that is not http(s)", async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()))
    const port = (closed.address() as AddressInfo).port
    await new Promise((r) => closed.close(r))
    expect(await probeHealth(`http://127.0.0.1:${port}/`, 2000)).toBe(false)
    expect(await probeHealth("file:///etc/passwd", 2000)).toBe(false)
    expect(await probeHealth("not a url", 2000)).toBe(false)
  })
})
