/**
 * Following the reinitialization stream against a real HTTP server speaking server-sent events:
 * the agent's token sent, `data` events delivered (split across chunks too), pings and events that
 * are not JSON passed over (the latter logged), a refused answer and a dropped connection
 * followed by a new request, and nothing more once closed.
 */
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { followReinit, type ReinitEvent } from "../src/Reinit.js"

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe("the reinitialization stream", () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })

  /** A server whose n-th request (0-based) is answered by `answer(n, res)`; its requests' headers kept. */
  const serve = async (answer: (n: number, res: ServerResponse) => void) => {
    const requests: Array<{ url: string | undefined; authorization: string | undefined }> = []
    const server = createServer((req, res) => {
      requests.push({ url: req.url, authorization: req.headers.authorization })
      answer(requests.length - 1, res)
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    cleanups.push(() => {
      server.closeAllConnections()
      return new Promise((r) => server.close(() => r()))
    })
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
  }

  const follow = (url: string) => {
    const events: Array<ReinitEvent> = []
    const logs: Array<string> = []
    const reinit = followReinit({
      url,
      token: () => "agent-token",
      onEvent: (e) => events.push(e),
      log: (l) => logs.push(l)
    })
    cleanups.push(() => reinit.close())
    return { events, logs, reinit }
  }

  it("delivers data events, passes over pings and events that are not JSON, with the agent's token", async () => {
    const { requests, url } = await serve((_, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.write("event: ping\ndata: \n\n")
      res.write("event: data\ndata: {\"WorkspaceID\":\"w1\",")
      setTimeout(() => {
        res.write("\"reason\":\"prebuild_claimed\"}\n\n")
        res.write("event: data\ndata: not json\n\n")
      }, 50)
    })
    const { events, logs } = follow(url)
    await until(() => events.length === 1 && logs.length === 1, "the event and the log line")
    expect(events).toEqual([{ WorkspaceID: "w1", reason: "prebuild_claimed" }])
    expect(logs[0]).toMatch(/^reinit: an event that is not JSON/)
    expect(requests).toEqual([{ url: "/api/v2/workspaceagents/me/reinit", authorization: "Bearer agent-token" }])
  })

  it("asks again after a refused answer and after the stream breaks off, and stops once closed", async () => {
    const { requests, url } = await serve((n, res) => {
      if (n === 0) return void res.writeHead(503).end("busy")
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.write(`event: data\ndata: {"WorkspaceID":"w${n}","reason":"r"}\n\n`)
      // The first stream is cut; the second stays open.
      if (n === 1) setTimeout(() => res.socket?.destroy(), 20)
    })
    const { events, logs, reinit } = follow(url)
    await until(() => events.length === 2, "two streams' events")
    expect(events.map((e) => e.WorkspaceID)).toEqual(["w1", "w2"])
    expect(logs[0]).toBe("reinit: the service answered 503")
    expect(logs[1]).toMatch(/^reinit: the stream broke off/)
    reinit.close()
    const asked = requests.length
    await new Promise((r) => setTimeout(r, 600))
    expect(requests.length).toBe(asked)
    expect(logs).toHaveLength(2)
  })
})
