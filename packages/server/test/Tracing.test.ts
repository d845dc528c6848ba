/**
 * The standalone server's tracing (docs/tracing.md): `--trace` and OpenTelemetry's variables, and
 * what a collector receives. The bundled server runs as a process and exports over OTLP/HTTP to a
 * receiver in this test, which decodes what arrives (OTLP's JSON encoding); the span tree of one
 * authenticated request is checked, and that nothing is sent while tracing is off.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { afterAll, describe, expect, inject, it } from "vitest"
import { DEFAULT_TRACES_ENDPOINT, helpText, loadConfig, traceExportOf } from "../src/index.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, type ServerProcess, startServerProcess } from "./process.js"

const pgUrl = inject("workbayPgUrl")

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-tracing-"))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** An attribute as OTLP's JSON encoding carries it. */
interface OtlpAttribute {
  readonly key: string
  readonly value: {
    readonly stringValue?: string
    readonly intValue?: number | string
    readonly boolValue?: boolean
    readonly doubleValue?: number
  }
}

/** A span as received, with its resource's attributes and its own read into plain values. */
interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string
  readonly name: string
  readonly kind: number
  readonly attributes: Record<string, unknown>
  readonly resource: Record<string, unknown>
}

/** OTLP span kinds. */
const SERVER = 2
const CLIENT = 3

const valueOf = (v: OtlpAttribute["value"]): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue

const attributesOf = (attributes: ReadonlyArray<OtlpAttribute> | undefined) =>
  Object.fromEntries((attributes ?? []).map((a) => [a.key, valueOf(a.value)]))

/** An OTLP/HTTP receiver of traces: every request's raw body, and the spans decoded from them. */
const startReceiver = async () => {
  const bodies: Array<string> = []
  const spans: Array<ReceivedSpan> = []
  const paths: Array<string> = []
  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => resolve(Buffer.concat(chunks)))
      req.on("error", reject)
    })
  const server: Server = createServer((req, res) => {
    void read(req).then((raw) => {
      const text = (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8")
      paths.push(`${req.method} ${req.url} ${req.headers["content-type"]}`)
      bodies.push(text)
      const payload = JSON.parse(text) as {
        resourceSpans?: Array<{
          resource?: { attributes?: Array<OtlpAttribute> }
          scopeSpans?: Array<{
            spans?: Array<{
              traceId: string
              spanId: string
              parentSpanId?: string
              name: string
              kind: number
              attributes?: Array<OtlpAttribute>
            }>
          }>
        }>
      }
      for (const rs of payload.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes)
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? "",
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              resource
            })
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    spans,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** The server span of GET /users/me that answered 200, once received (a bounded wait). */
const requestSpan = async (receiver: Receiver) => {
  const find = () =>
    receiver.spans.find((s) =>
      s.kind === SERVER && s.attributes["http.route"] === "/api/v2/users/{user}" &&
      s.attributes["http.response.status_code"] === 200
    )
  await expect.poll(find, { timeout: 30_000 }).toBeDefined()
  return find()!
}

/** The spans of `root`'s trace, and the names of a span's parents up to the root. */
const treeOf = (receiver: Receiver, root: ReceivedSpan) => {
  const spans = receiver.spans.filter((s) => s.traceId === root.traceId)
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  const ancestors = (span: ReceivedSpan): Array<string> => {
    const parent = byId.get(span.parentSpanId)
    return parent === undefined ? [] : [parent.name, ...ancestors(parent)]
  }
  return { spans, ancestors }
}

const me = (server: ServerProcess, token: string) =>
  fetch(`${server.url}/api/v2/users/me`, { headers: { "Service-Session-Token": token } })

describe("tracing configuration", () => {
  it("reads --trace and WORKBAY_TRACE_ENABLE, and OpenTelemetry's endpoint and service name", () => {
    expect(loadConfig([], { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).trace).toBeUndefined()
    expect(loadConfig(["--trace", "true"], {}).trace).toEqual({
      endpoint: DEFAULT_TRACES_ENDPOINT,
      serviceName: "workbay"
    })
    expect(loadConfig([], { WORKBAY_TRACE_ENABLE: "true" }).trace?.endpoint).toBe("http://localhost:4318/v1/traces")
    expect(loadConfig(["--trace", "false"], { WORKBAY_TRACE_ENABLE: "true" }).trace).toBeUndefined()
    expect(traceExportOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).endpoint).toBe(
      "http://collector:4318/v1/traces"
    )
    expect(traceExportOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://c.example/otlp/" }).endpoint).toBe(
      "https://c.example/otlp/v1/traces"
    )
    expect(
      traceExportOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:9999/in",
        OTEL_SERVICE_NAME: "workbay-eu"
      })
    ).toEqual({ endpoint: "http://traces:9999/in", serviceName: "workbay-eu" })
    expect(() => loadConfig(["--trace", "true"], { OTEL_EXPORTER_OTLP_ENDPOINT: "collector" })).toThrow(
      /Invalid OTLP traces endpoint/
    )
    expect(() => loadConfig(["--trace", "maybe"], {})).toThrow(/--trace/)
    expect(helpText()).toContain("--trace")
    expect(helpText()).toContain("WORKBAY_TRACE_ENABLE")
  })
})

describe("tracing of the standalone server", () => {
  const receivers: Array<Receiver> = []
  const servers: Array<ServerProcess> = []
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await Promise.all(receivers.map((r) => r.close()))
  })
  const receiver = async () => {
    const r = await startReceiver()
    receivers.push(r)
    return r
  }
  const start = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
    const s = await startServerProcess(["--data-dir", tempDir(), ...args], env)
    servers.push(s)
    return s
  }

  /**
   * Checks the span tree `collector` received of one `GET /users/me` as `token`, on a server whose
   * statements are `system`'s: the route's server span, the service calls under it, and its SQL.
   */
  const checkRequestTree = async (collector: Receiver, token: string, system: string) => {
    const root = await requestSpan(collector)
    expect(collector.paths.every((p) => p.startsWith("POST /v1/traces application/json"))).toBe(true)
    expect(root.name).toBe("GET /api/v2/users/{user}")
    expect(root.parentSpanId).toBe("")
    expect(root.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/v2/users/{user}",
      "http.response.status_code": 200,
      "workbay.request.id": expect.any(String),
      "user.id": expect.any(String)
    })
    expect(root.resource).toMatchObject({ "service.name": "workbay", "service.version": expect.any(String) })

    const { ancestors, spans } = treeOf(collector, root)
    // The service calls, children of the request's span.
    for (const name of ["Auth.authenticate", "Users.get"]) {
      const call = spans.find((s) => s.name === name)
      expect(call, name).toBeDefined()
      expect(call!.parentSpanId).toBe(root.spanId)
    }
    // Its SQL statements, under it (through a service call), with their text and no parameter.
    const statements = spans.filter((s) => s.name === "sql.execute")
    expect(statements.length).toBeGreaterThan(0)
    for (const s of statements) {
      expect(ancestors(s).at(-1)).toBe(root.name)
      expect(s.kind).toBe(CLIENT)
      expect(s.attributes).toMatchObject({ "db.system.name": system, "db.query.text": expect.any(String) })
    }
    expect(statements.some((s) => String(s.attributes["db.query.text"]).includes("FROM api_keys"))).toBe(true)

    // Nothing that arrived carries the session token, nor its secret part.
    const secret = token.split("-")[1]!
    for (const body of collector.bodies) {
      expect(body).not.toContain(token)
      expect(body).not.toContain(secret)
    }
  }

  it("exports each request's span tree over OTLP/HTTP: the route's server span over its service calls and SQL", async () => {
    const collector = await receiver()
    const server = await start(["--trace", "true"], {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: "100"
    })
    // The start-up lines follow the "ready" line the start waits for.
    await expect.poll(server.stdout).toContain(
      `Tracing: spans exported over OTLP/HTTP to ${collector.url}/v1/traces as workbay.`
    )
    const token = await firstOwnerSession(server.url)
    expect((await me(server, token)).status).toBe(200)
    await checkRequestTree(collector, token, "sqlite")
  })

  it.skipIf(pgUrl === null)("on Postgres too, its reads on the pool included", async () => {
    const db = await freshDatabase(pgUrl!)
    try {
      const collector = await receiver()
      const server = await start(["--trace", "true", "--database-url", db.url], {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_BSP_SCHEDULE_DELAY: "100"
      })
      const token = await firstOwnerSession(server.url)
      expect((await me(server, token)).status).toBe(200)
      await checkRequestTree(collector, token, "postgresql")
      await server.stop()
    } finally {
      await db.drop()
    }
  })

  it("exports the spans still batched when the server stops", async () => {
    const collector = await receiver()
    const server = await start(["--trace", "true"], {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
      OTEL_SERVICE_NAME: "workbay-test",
      // Nothing is exported on a schedule within the test: only the shutdown's flush sends.
      OTEL_BSP_SCHEDULE_DELAY: "600000"
    })
    const token = await firstOwnerSession(server.url)
    expect((await me(server, token)).status).toBe(200)
    expect(collector.spans).toEqual([])
    expect(await server.stop("SIGTERM")).toBe(0)
    const root = await requestSpan(collector)
    expect(root.resource["service.name"]).toBe("workbay-test")
  })

  it("sends nothing without --trace, even with OpenTelemetry's variables set", async () => {
    const collector = await receiver()
    const server = await start([], {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: "50"
    })
    const token = await firstOwnerSession(server.url)
    expect((await me(server, token)).status).toBe(200)
    // Many times the schedule's delay, and then the shutdown (which would flush what was batched).
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(await server.stop("SIGTERM")).toBe(0)
    expect(collector.bodies).toEqual([])
    expect(server.stdout()).toContain("Docker provisioner")
    expect(server.stdout()).not.toContain("Tracing:")
  })
})
