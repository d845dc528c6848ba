/**
 * The reference agent's side of web apps (Proxy.ts), against a real local HTTP app: a request to
 * one of its apps is answered with `app_response`, `app_body` pieces and `app_end`; a URL outside
 * its apps is refused; `app_cancel` stops a request at the app. Requests count as use in the
 * next stats report.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { APP_CHUNK_BYTES, makeAppProxy } from "../src/Proxy.js"

describe("the agent's app proxy", () => {
  let port: number
  let closed = 0
  const app = createServer((req, res) => {
    if (req.url === "/hang") {
      res.writeHead(200)
      res.write("x")
      res.on("close", () => void closed++)
      return
    }
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      res.writeHead(201, { "x-seen": `${req.method} ${req.url} ${req.headers["x-test"]}` })
      res.end(req.url === "/large" ? Buffer.alloc(APP_CHUNK_BYTES * 2 + 5, 1) : Buffer.concat(chunks))
    })
  })
  beforeAll(async () => {
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()))
    port = (app.address() as AddressInfo).port
  })
  afterAll(() => void app.close())

  const proxy = () => {
    const sent: Array<Record<string, any>> = []
    const p = makeAppProxy({
      send: (m) => void sent.push(m),
      appUrls: () => [`http://127.0.0.1:${port}/base`],
      log: () => {}
    })
    const ended = (id: string) =>
      new Promise<void>((resolve) => {
        const check = () => (sent.some((m) => m.type === "app_end" && m.request_id === id)
          ? resolve()
          : setTimeout(check, 10))
        check()
      })
    return { p, sent, ended }
  }

  it("performs a request against its app and streams the answer back in frames of at most 16 KiB", async () => {
    const { p, sent, ended } = proxy()
    expect(
      p.handle({
        type: "app_request",
        request_id: "r1",
        method: "PUT",
        url: `http://127.0.0.1:${port}/echo`,
        headers: { "x-test": ["yes"] },
        body: Buffer.from("hello").toString("base64")
      })
    ).toBe(true)
    await ended("r1")
    expect(sent[0]).toMatchObject({
      type: "app_response",
      request_id: "r1",
      status: 201,
      headers: { "x-seen": ["PUT /echo yes"] }
    })
    expect(Buffer.from(sent.filter((m) => m.type === "app_body").map((m) => m.data).join(""), "base64").toString())
      .toBe("hello")
    expect(sent.at(-1)).toEqual({ type: "app_end", request_id: "r1" })

    p.handle({
      type: "app_request",
      request_id: "r2",
      method: "GET",
      url: `http://127.0.0.1:${port}/large`,
      headers: {},
      body: ""
    })
    await ended("r2")
    const pieces = sent.filter((m) => m.type === "app_body" && m.request_id === "r2").map((m) =>
      Buffer.from(m.data, "base64")
    )
    expect(pieces.every((b) => b.length <= APP_CHUNK_BYTES)).toBe(true)
    expect(Buffer.concat(pieces).length).toBe(APP_CHUNK_BYTES * 2 + 5)
    // Both count as use in the next stats report (done already, started since the last), once.
    expect(p.usage()).toBe(2)
    expect(p.usage()).toBe(0)
  })

  it("refuses a URL outside its apps' origins, and reports an app it cannot reach", async () => {
    const { p, sent, ended } = proxy()
    p.handle({
      type: "app_request",
      request_id: "r3",
      method: "GET",
      url: "http://192.0.2.1:8080/",
      headers: {},
      body: ""
    })
    await ended("r3")
    expect(sent).toEqual([{ type: "app_end", request_id: "r3", error: expect.stringMatching(/only its own apps/) }])
    // A loopback port is one (the subdomain port form): tried, and reported when nothing listens.
    sent.length = 0
    p.handle({
      type: "app_request",
      request_id: "r4",
      method: "GET",
      url: "http://127.0.0.1:1/",
      headers: {},
      body: ""
    })
    await ended("r4")
    expect(sent).toEqual([{ type: "app_end", request_id: "r4", error: expect.not.stringMatching(/only its own apps/) }])
    expect(p.handle({ type: "update_stats" })).toBe(false)
  })

  it("stops a request at the app on app_cancel", async () => {
    const { p, sent } = proxy()
    p.handle({
      type: "app_request",
      request_id: "r4",
      method: "GET",
      url: `http://127.0.0.1:${port}/hang`,
      headers: {},
      body: ""
    })
    while (!sent.some((m) => m.type === "app_body")) await new Promise((r) => setTimeout(r, 10))
    const before = closed
    expect(p.handle({ type: "app_cancel", request_id: "r4" })).toBe(true)
    while (closed === before) await new Promise((r) => setTimeout(r, 10))
    expect(sent.some((m) => m.type === "app_end")).toBe(false)
  })
})
