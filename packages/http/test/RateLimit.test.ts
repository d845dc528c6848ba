/**
 * Rate limits (RateLimit.ts): the sliding window alone and on Effect's TestClock, then through
 * real HTTP with small limits (the defaults are 512, 60 and 12 a minute).
 */
import { type Actor, TooManyRequests } from "@workbay/core"
import { defaultSettings } from "@workbay/core"
import { Effect, Exit, TestClock, TestContext } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { WebHandler } from "../src/Adapters.js"
import { limitRequest, makeRateLimits, SlidingWindow } from "../src/RateLimit.js"
import {
  type Client,
  createUser,
  expectResponse,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser
} from "./support.js"

describe("the sliding window", () => {
  it("allows `limit` requests of a key in a window, then refuses with what is left and when it resets", () => {
    const w = new SlidingWindow(3, 60_000)
    const t0 = 120_000 // the start of a window
    expect(w.take("a", t0)).toEqual({ allowed: true, remaining: 2, reset: 180 })
    expect(w.take("a", t0 + 1)).toEqual({ allowed: true, remaining: 1, reset: 180 })
    expect(w.take("a", t0 + 2)).toEqual({ allowed: true, remaining: 0, reset: 180 })
    expect(w.take("a", t0 + 3)).toEqual({ allowed: false, remaining: 0, reset: 180 })
    // Another key has its own count.
    expect(w.take("b", t0 + 4).allowed).toBe(true)
  })

  it("weighs the previous window by how much of it still overlaps the last minute", () => {
    const w = new SlidingWindow(4, 60_000)
    for (let i = 0; i < 4; i++) expect(w.take("a", i).allowed).toBe(true)
    expect(w.take("a", 59_999).allowed).toBe(false)
    // 15 s into the next window, 3 of the previous 4 still count: one more fits.
    expect(w.take("a", 75_000)).toMatchObject({ allowed: true, remaining: 0 })
    expect(w.take("a", 75_001).allowed).toBe(false)
    // Half-way, 2 of 4 count plus the 1 taken: one more.
    expect(w.take("a", 90_000).allowed).toBe(true)
    expect(w.take("a", 90_001).allowed).toBe(false)
    // Two windows later nothing counts.
    expect(w.take("a", 180_000)).toMatchObject({ allowed: true, remaining: 3 })
  })

  it("holds a bounded number of keys under a flood of distinct callers", () => {
    const w = new SlidingWindow(10, 60_000, 1_000)
    for (let i = 0; i < 100_000; i++) w.take(`ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 1_000 + (i % 50_000))
    expect(w.size).toBeLessThanOrEqual(1_000)
    for (let i = 0; i < 100_000; i++) w.take(`ip:${i}`, 61_000 + (i % 50_000))
    expect(w.size).toBeLessThanOrEqual(2_000)
  })
})

describe("limitRequest on Effect's clock", () => {
  const limiters = makeRateLimits({ ...defaultSettings, rateLimitApi: 2 }).of("GET", "/api/v2/users/me")
  const owner = { user: { id: "u1", rbac_roles: ["owner"] } } as unknown as Actor

  it("refuses past the limit and allows again once the window has passed (TestClock)", async () => {
    const headers: Record<string, string> = {}
    const set = (k: string, v: string) => void (headers[k] = v)
    const call = limitRequest(limiters, "op", { ip: "10.0.0.1" }, undefined, set)
    const exits = await Effect.runPromise(
      Effect.gen(function*() {
        yield* TestClock.adjust("1 minute")
        const a = yield* Effect.exit(call)
        const b = yield* Effect.exit(call)
        const c = yield* Effect.exit(call)
        const retryAfter = headers["retry-after"]
        yield* TestClock.adjust("2 minutes")
        const d = yield* Effect.exit(call)
        return { a, b, c, d, retryAfter }
      }).pipe(Effect.provide(TestContext.TestContext))
    )
    expect(Exit.isSuccess(exits.a) && Exit.isSuccess(exits.b)).toBe(true)
    expect(exits.c).toEqual(
      Exit.fail(new TooManyRequests({ message: "You've been rate limited for sending more than 2 requests in 1m0s." }))
    )
    expect(exits.retryAfter).toBe("60")
    expect(Exit.isSuccess(exits.d)).toBe(true)
    expect(headers).toMatchObject({
      "x-ratelimit-limit": "2",
      "x-ratelimit-remaining": "1",
      "x-ratelimit-reset": "240"
    })
  })

  it("does not count an owner asking for the bypass", async () => {
    const run = (bypass: string | undefined) =>
      Effect.runPromise(
        Effect.exit(limitRequest(limiters, "op2", { actor: owner, ip: "" }, bypass, () => {})).pipe(
          Effect.provide(TestContext.TestContext)
        )
      )
    for (let i = 0; i < 5; i++) expect(Exit.isSuccess(await run("true"))).toBe(true)
  })
})

describe("rate limits over HTTP", () => {
  let srv: ServiceTestServer
  let owner: Client
  let member: TestUser
  const API = 5
  const LOGIN = 2

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({
      http: { rateLimits: true },
      settings: {
        rateLimitDisableAll: false,
        rateLimitApi: API,
        rateLimitLogin: LOGIN,
        rateLimitFiles: 2,
        valueSources: { rateLimitApi: "flag" },
        // The test's requests come from 127.0.0.1: a trusted proxy that names its clients.
        proxyTrustedHeaders: ["X-Forwarded-For"],
        proxyTrustedOrigins: ["127.0.0.0/8", "::1/128"]
      }
    }))
    member = await createUser(owner)
  })
  afterAll(() => srv.close())

  it("answers 429 with the Response object, Retry-After and the rate-limit headers past the per-user limit", async () => {
    const me = member.client
    for (let i = 0; i < API; i++) {
      const r = await me.get("/users/me")
      expect(r.status).toBe(200)
      expect(r.headers.get("x-ratelimit-limit")).toBe(String(API))
      expect(r.headers.get("x-ratelimit-remaining")).toBe(String(API - 1 - i))
      expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1)
    }
    const refused = await me.get("/users/me")
    expectResponse(refused, 429)
    expect(refused.body).toEqual({ message: `You've been rate limited for sending more than ${API} requests in 1m0s.` })
    expect(refused.headers.get("retry-after")).toBe("60")
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0")
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(API))
    // Per user and per operation: the owner, from the same address, is not limited; nor is another route.
    expect((await owner.get("/users/me")).status).toBe(200)
    expect((await me.get("/users/me/appearance")).status).toBe(200)
  })

  it("keys anonymous callers by address: behind a trusted proxy, each forwarded client has its own budget", async () => {
    const call = (ip: string) => fetch(`${srv.url}/api/v2/buildinfo`, { headers: { "x-forwarded-for": ip } })
    for (let i = 0; i < API; i++) expect((await call("203.0.113.7")).status).toBe(200)
    const refused = await call("203.0.113.7")
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ message: expect.stringContaining("rate limited") })
    expect((await call("203.0.113.8")).status).toBe(200)
  })

  it("counts refused credentials against the address", async () => {
    const call = () =>
      fetch(`${srv.url}/api/v2/users/me`, {
        headers: { "x-forwarded-for": "198.51.100.9", [SESSION_HEADER]: "nope-nope" }
      })
    for (let i = 0; i < API; i++) expect((await call()).status).toBe(401)
    expect((await call()).status).toBe(429)
  })

  it("lets an owner bypass with X-Coder-Bypass-Ratelimit; anybody else asking gets 428", async () => {
    for (let i = 0; i < API * 2; i++) {
      const r = await owner.request("GET", "/users/me/appearance", undefined, {
        headers: { "X-Coder-Bypass-Ratelimit": "true" }
      })
      expect(r.status).toBe(200)
    }
    const asked = await member.client.request("GET", "/organizations", undefined, {
      headers: { "X-Coder-Bypass-Ratelimit": "true" }
    })
    expectResponse(asked, 428)
    expect(asked.body.message).toBe(`"X-Coder-Bypass-Ratelimit" provided but user is not owner`)
    // Without the header the owner counts like anybody.
    let last = 0
    for (let i = 0; i <= API; i++) last = (await owner.get("/users/me/appearance")).status
    expect(last).toBe(429)
  })

  it("limits the sign-in routes more strictly, per address", async () => {
    const post = (path: string, body: unknown, ip: string) =>
      fetch(`${srv.url}/api/v2${path}`, {
        method: "POST",
        headers: { "x-forwarded-for": ip, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    const statuses: Array<number> = []
    for (let i = 0; i < LOGIN; i++) {
      statuses.push(
        (await post("/users/login", { email: member.email, password: "wrong-password-1" }, "192.0.2.1")).status
      )
    }
    expect(statuses).toEqual([401, 401])
    const refused = await post("/users/login", { email: member.email, password: "x" }, "192.0.2.1")
    expect(refused.status).toBe(429)
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(LOGIN))
    expect(await refused.json()).toEqual({
      message: `You've been rate limited for sending more than ${LOGIN} requests in 1m0s.`
    })
    // Another address is not limited; the first-user route has the same limit.
    expect((await post("/users/login", { email: member.email, password: "x" }, "192.0.2.2")).status).toBe(401)
    for (let i = 0; i < LOGIN; i++) expect((await post("/users/first", {}, "192.0.2.3")).status).not.toBe(429)
    expect((await post("/users/first", {}, "192.0.2.3")).status).toBe(429)
  })

  it("audits a forwarded client under its address: the rightmost one not a trusted proxy, not what it prepended", async () => {
    const reply = await fetch(`${srv.url}/api/v2/users/login`, {
      method: "POST",
      headers: { "x-forwarded-for": "203.0.113.99, 192.0.2.60", "content-type": "application/json" },
      body: JSON.stringify({ email: member.email, password: "wrong-password-1" })
    })
    expect(reply.status).toBe(401)
    const audit = await owner.get(`/audit?limit=10&q=request_id:${reply.headers.get("x-request-id")}`)
    expect(audit.status, JSON.stringify(audit.body)).toBe(200)
    const entries = audit.body.audit_logs
    expect(entries.map((e: any) => [e.action, e.ip])).toEqual([["login", "192.0.2.60"]])
  })

  it("the Fetch handler trusts the headers only with the peer's address, an IPv4-mapped one included", async () => {
    const web = srv.web as WebHandler
    const call = (ip: string, peer?: string) =>
      web(
        new Request(`${srv.url}/api/v2/buildinfo`, { headers: { "x-forwarded-for": ip } }),
        peer === undefined ? undefined : { remoteAddress: peer }
      )
    for (let i = 0; i < API; i++) expect((await call("2001:db8::7", "::ffff:127.0.0.1")).status).toBe(200)
    expect((await call("2001:db8::7", "::ffff:127.0.0.1")).status).toBe(429)
    expect((await call("2001:db8::8", "::1")).status).toBe(200)
    // Without the peer's address the header names nobody: not the exhausted client.
    expect((await call("2001:db8::7")).status).toBe(200)
  })

  it("reports the settings in the deployment config", async () => {
    const r = await owner.request("GET", "/deployment/config", undefined, {
      headers: { "X-Coder-Bypass-Ratelimit": "1" }
    })
    expect(r.status).toBe(200)
    expect(r.body.config.rate_limit).toEqual({ api: API, disable_all: false })
    const option = r.body.options.find((o: any) => o.flag === "api-rate-limit")
    expect(option).toMatchObject({ value: API, value_source: "flag" })
  })
})

describe("behind a proxy that is not a trusted origin", () => {
  it("ignores its forwarding headers: the budget and the audit log are the peer's", async () => {
    const { srv, owner } = await startWithOwner({
      http: { rateLimits: true },
      settings: {
        rateLimitDisableAll: false,
        rateLimitApi: 2,
        proxyTrustedHeaders: ["X-Forwarded-For", "CF-Connecting-IP"],
        proxyTrustedOrigins: ["10.0.0.0/8"]
      }
    })
    try {
      const call = (ip: string) =>
        fetch(`${srv.url}/api/v2/buildinfo`, { headers: { "x-forwarded-for": ip, "cf-connecting-ip": ip } })
      expect([
        (await call("198.51.100.1")).status,
        (await call("198.51.100.2")).status,
        (await call("198.51.100.3")).status
      ]).toEqual([200, 200, 429])
      const reply = await fetch(`${srv.url}/api/v2/users/login`, {
        method: "POST",
        headers: { "x-forwarded-for": "192.0.2.77", "content-type": "application/json" },
        body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password-1" })
      })
      const audit = await owner.get(`/audit?limit=10&q=request_id:${reply.headers.get("x-request-id")}`)
      expect(audit.status, JSON.stringify(audit.body)).toBe(200)
      const entries = audit.body.audit_logs
      expect(entries.map((e: any) => e.ip)).toEqual(["127.0.0.1"])
    } finally {
      await srv.close()
    }
  })
})

describe("rate limits turned off", () => {
  for (
    const settings of [{ rateLimitDisableAll: true, rateLimitApi: 1, rateLimitLogin: 1 }, {
      rateLimitDisableAll: false,
      rateLimitApi: 0,
      rateLimitLogin: -1
    }]
  ) {
    it(`serves every request with ${JSON.stringify(settings)}`, async () => {
      const { srv, owner } = await startWithOwner({ http: { rateLimits: true }, settings })
      try {
        for (let i = 0; i < 5; i++) {
          const r = await owner.get("/users/me")
          expect(r.status).toBe(200)
          expect(r.headers.get("x-ratelimit-limit")).toBeNull()
        }
        const r = await owner.get("/deployment/config")
        expect(r.body.config.rate_limit).toEqual(
          settings.rateLimitDisableAll ? { api: 1, disable_all: true } : { api: 0, disable_all: false }
        )
      } finally {
        await srv.close()
      }
    })
  }
})
