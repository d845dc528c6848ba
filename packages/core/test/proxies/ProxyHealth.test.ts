/**
 * The proxies' health checker: the check itself against real local HTTP servers (answering,
 * failing, vanishing, hanging), and its periodic fiber with Effect's TestClock deciding when a
 * tick runs, over the core services on an in-memory SQLite storage.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  ProxyHealth,
  proxyHealthPeriodic,
  TickLock,
  type WorkspaceProxyRecord,
  WorkspaceProxyRepo
} from "@workbay/core"
import { Duration, Effect, Layer, Option } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { checkProxyUrl } from "../../src/proxies/ProxyHealth.js"
import { newProxyToken } from "../../src/proxies/WorkspaceProxies.js"
import { services } from "../services.js"

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0)

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** A local HTTP server whose behaviour a test swaps; `close` makes it vanish (connections refused). */
const localServer = async (initial: Handler) => {
  let handler = initial
  const server: Server = createServer((req, res) => handler(req, res))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    set: (h: Handler) => void (handler = h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

const json = (status: number, body: unknown): Handler => (req, res) => {
  if (req.url !== "/healthz-report") {
    res.writeHead(404)
    res.end()
    return
  }
  res.writeHead(status, { "content-type": "application/json" })
  res.end(typeof body === "string" ? body : JSON.stringify(body))
}
const healthy = json(200, { errors: [], warnings: [] })

const withServer = <A, E, R>(
  handler: Handler,
  use: (s: Awaited<ReturnType<typeof localServer>>) => Effect.Effect<A, E, R>
) => Effect.acquireUseRelease(Effect.promise(() => localServer(handler)), use, (s) => Effect.promise(() => s.close()))

describe("checkProxyUrl against local servers", () => {
  it.live("answering with an empty report: ok", () =>
    withServer(
      json(200, { errors: [], warnings: ["old version"] }),
      (s) =>
        Effect.map(checkProxyUrl(s.url), (c) =>
          expect(c).toEqual({ status: "ok", report: { errors: [], warnings: ["old version"] } }))
    ))

  it.live("a report with errors: unhealthy, the errors kept", () =>
    withServer(
      json(200, { errors: ["derp down"], warnings: [] }),
      (s) =>
        Effect.map(checkProxyUrl(s.url), (c) =>
          expect(c).toEqual({ status: "unhealthy", report: { errors: ["derp down"], warnings: [] } }))
    ))

  it.live("failing with 500: unhealthy", () =>
    withServer(json(500, "boom"), (s) =>
      Effect.map(checkProxyUrl(s.url), (c) => {
        expect(c.status).toBe("unhealthy")
        expect(c.report.errors[0]).toContain("unexpected status code 500")
      })))

  it.live("a report that is not JSON: unhealthy", () =>
    withServer(json(200, "<html>"), (s) =>
      Effect.map(checkProxyUrl(s.url), (c) => {
        expect(c.status).toBe("unhealthy")
        expect(c.report.errors[0]).toContain("decode health report")
      })))

  it.live("no report route but /healthz answering 200: ok; failing: unhealthy", () =>
    withServer((req, res) => {
      res.writeHead(req.url === "/healthz" ? 200 : 404)
      res.end("OK")
    }, (s) =>
      Effect.gen(function*() {
        expect((yield* checkProxyUrl(s.url)).status).toBe("ok")
        s.set((_req, res) => {
          res.writeHead(_req.url === "/healthz" ? 503 : 404)
          res.end()
        })
        expect((yield* checkProxyUrl(s.url)).status).toBe("unhealthy")
      })))

  it.live("vanished (connection refused): unreachable", () =>
    Effect.gen(function*() {
      const s = yield* Effect.promise(() => localServer(healthy))
      yield* Effect.promise(() => s.close())
      const c = yield* checkProxyUrl(s.url)
      expect(c.status).toBe("unreachable")
      expect(c.report.errors[0]).toMatch(/^request to proxy failed: /)
    }))

  it.live("hanging past the timeout: unreachable", () =>
    withServer(
      () => {/* never answers */},
      (s) => Effect.map(checkProxyUrl(s.url, 200), (c) => expect(c.status).toBe("unreachable"))
    ))
})

/** Inserts a live proxy registered at `url` ("" = unregistered). */
const proxyAt = (url: string, name: string) =>
  Effect.gen(function*() {
    const id = randomUUID()
    const at = new Date(T0)
    const record: WorkspaceProxyRecord = {
      id,
      name,
      display_name: name,
      icon: "",
      url,
      wildcard_hostname: "",
      derp_enabled: true,
      derp_only: false,
      version: "",
      deleted: false,
      token_hashed_secret: newProxyToken(id).hashed,
      created_at: at,
      updated_at: at,
      status: "unregistered",
      status_report: { errors: [], warnings: [] },
      status_checked_at: at
    }
    yield* Effect.orDie(Effect.flatMap(WorkspaceProxyRepo, (r) => r.insert(record)))
    return id
  })

const statusOf = (id: string) =>
  Effect.flatMap(WorkspaceProxyRepo, (r) => r.findById(id)).pipe(Effect.map((p) => Option.getOrThrow(p)))

/** Waits (in real time: the check is real IO) until `id`'s status is `status`. */
const until = (id: string, status: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      const p = yield* statusOf(id)
      if (p.status === status) return p
      yield* Effect.promise(() => new Promise((r) => setTimeout(r, 10)))
    }
    return yield* statusOf(id)
  })

/** Real time for in-flight checks to land, when a test expects nothing to change. */
const quiet = Effect.promise(() => new Promise((r) => setTimeout(r, 150)))

describe("the periodic health checker with the TestClock", () => {
  it.scoped("checks at start and then once per proxy_health_status_interval: ok, unhealthy, unreachable", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const server = yield* Effect.promise(() => localServer(healthy))
      yield* Effect.addFinalizer(() => Effect.promise(() => server.close()))
      const registered = yield* proxyAt(server.url, "fra")
      const unregistered = yield* proxyAt("", "ams")

      yield* Layer.buildWithScope(proxyHealthPeriodic(), yield* Effect.scope)
      const first = yield* until(registered, "ok")
      expect(first.status).toBe("ok")
      expect(first.status_checked_at.getTime()).toBe(T0)
      expect((yield* statusOf(unregistered)).status).toBe("unregistered")

      // The proxy starts failing: nothing changes before the interval is up.
      server.set(json(500, "down"))
      yield* TestClock.adjust(Duration.seconds(30))
      yield* quiet
      expect((yield* statusOf(registered)).status).toBe("ok")
      yield* TestClock.adjust(Duration.seconds(30))
      const failing = yield* until(registered, "unhealthy")
      expect(failing.status).toBe("unhealthy")
      expect(failing.status_checked_at.getTime()).toBe(T0 + 60_000)

      // It vanishes: unreachable at the next tick.
      yield* Effect.promise(() => server.close())
      yield* TestClock.adjust(Duration.minutes(1))
      const gone = yield* until(registered, "unreachable")
      expect(gone.status).toBe("unreachable")
      expect(gone.status_report.errors[0]).toMatch(/^request to proxy failed/)
    }).pipe(Effect.provide(services({ proxyHealthStatusInterval: Duration.minutes(1) }))))

  it.scoped("leaves a deleted proxy's status alone", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const server = yield* Effect.promise(() => localServer(healthy))
      yield* Effect.addFinalizer(() => Effect.promise(() => server.close()))
      const id = yield* proxyAt(server.url, "gone")
      yield* Effect.flatMap(WorkspaceProxyRepo, (r) => r.markDeleted(id, new Date(T0)))
      const tick = yield* Effect.flatMap(ProxyHealth, (h) => h.tick)
      expect(tick.ran).toBe(true)
      expect(tick.checked.map((c) => c.id)).not.toContain(id)
      expect((yield* statusOf(id)).status).toBe("unregistered")
    }).pipe(Effect.provide(services())))

  it.scoped("runs once per tick across replicas: a tick finds the lock held and does nothing", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const id = yield* proxyAt("", "solo")
      const health = yield* ProxyHealth
      const lock = yield* TickLock
      const inner = yield* lock.withTryLock("workspace-proxy-health", health.tick)
      expect(Option.getOrThrow(inner)).toEqual({ ran: false, checked: [] })
      const free = yield* health.tick
      expect(free.ran).toBe(true)
      expect(free.checked.map((c) => c.id)).toContain(id)
    }).pipe(Effect.provide(services())))
})
