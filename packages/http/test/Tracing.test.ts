/**
 * Tracing as an embedder turns it on (docs/tracing.md): `makeWorkbay` given a tracer of its own
 * (here Effect's built-in spans, recorded as they are made), then the spans of one request
 * through real HTTP: one server span named after the route, with the service call and the SQL
 * statements under it, and of a provisioner job run by the built-in workers.
 */
import { Effect, Layer, Option, Tracer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, SESSION_HEADER, startWithOwner } from "./support.js"
import { createVersion, FULL_TEMPLATE, runJobs } from "./templates/versions.js"

/** Every span made, in order: Effect's own spans, through a tracer that is not the built-in one. */
const recorded: Array<Tracer.Span> = []
const builtIn = Effect.runSync(Effect.tracer)
const recording = Tracer.make({
  span: (name, parent, context, links, startTime, kind, options) => {
    const span = builtIn.span(name, parent, context, links, startTime, kind, options)
    recorded.push(span)
    return span
  },
  context: (f, fiber) => builtIn.context(f, fiber)
})

const parentId = (span: Tracer.Span) => Option.getOrUndefined(Option.map(span.parent, (p) => p.spanId))

/** The spans of the trace `root` starts, and the chain of parents of a span up to the root. */
const traceOf = (root: Tracer.Span) => {
  const spans = recorded.filter((s) => s.traceId === root.traceId)
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  const ancestors = (span: Tracer.Span): Array<string> => {
    const parent = byId.get(parentId(span) ?? "")
    return parent === undefined ? [] : [parent.name, ...ancestors(parent)]
  }
  return { spans, ancestors }
}

describe("tracing with the embedder's tracer", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ tracer: Layer.setTracer(recording) }))
  })
  afterAll(() => srv.close())

  it("records one server span per request, parent of its service calls and SQL statements", async () => {
    recorded.length = 0
    expect((await owner.get("/users/me")).status).toBe(200)
    const roots = recorded.filter((s) => s.kind === "server")
    expect(roots.map((s) => s.name)).toEqual(["GET /api/v2/users/{user}"])
    const root = roots[0]!
    expect(Option.isNone(root.parent)).toBe(true)
    expect(root.status._tag).toBe("Ended")
    expect(Object.fromEntries(root.attributes)).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/v2/users/{user}",
      "http.response.status_code": 200,
      "user.id": expect.any(String)
    })
    const { ancestors, spans } = traceOf(root)
    const get = spans.find((s) => s.name === "Users.get")
    expect(get).toBeDefined()
    expect(ancestors(get!).at(-1)).toBe(root.name)
    const statements = spans.filter((s) => s.name === "sql.execute")
    expect(statements.length).toBeGreaterThan(0)
    for (const s of statements) {
      expect(ancestors(s).at(-1)).toBe(root.name)
      expect(s.kind).toBe("client")
      expect(s.attributes.get("db.query.text")).toEqual(expect.any(String))
    }
    // Every span of the request ended, none outside its trace.
    expect(spans.every((s) => s.status._tag === "Ended")).toBe(true)
    expect(recorded.filter((s) => s.traceId !== root.traceId && s.kind === "server")).toEqual([])
    // No attribute carries the session token (nor do the names).
    const text = JSON.stringify(spans.map((s) => [s.name, [...s.attributes]]))
    expect(text).not.toContain(owner.token!)
  })

  it("records failures by their status: a 404 is no error, and an unauthenticated request has its span", async () => {
    recorded.length = 0
    expect((await owner.get("/users/00000000-0000-4000-8000-00000000abcd")).status).toBe(404)
    const res = await fetch(`${srv.url}/api/v2/users/me`, { headers: { [SESSION_HEADER]: "not-a-token" } })
    expect(res.status).toBe(401)
    const roots = recorded.filter((s) => s.kind === "server")
    expect(roots.map((s) => s.attributes.get("http.response.status_code"))).toEqual([404, 401])
    for (const root of roots) {
      expect(root.status._tag === "Ended" && root.status.exit._tag).toBe("Success")
      expect(root.attributes.has("user.id")).toBe(roots.indexOf(root) === 0)
    }
    expect(JSON.stringify(recorded.map((s) => [...s.attributes]))).not.toContain("not-a-token")
  })

  it("takes up a valid W3C traceparent as the request span's parent, and ignores an invalid one", async () => {
    recorded.length = 0
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    const parentSpanId = "00f067aa0ba902b7"
    const headers = (traceparent: string) => ({ [SESSION_HEADER]: owner.token!, traceparent })
    const me = `${srv.url}/api/v2/users/me`
    expect((await fetch(me, { headers: headers(`00-${traceId}-${parentSpanId}-01`) })).status).toBe(200)
    for (
      const bad of [
        `00-${"0".repeat(32)}-${parentSpanId}-01`,
        `00-${traceId}-${"0".repeat(16)}-01`,
        `ff-${traceId}-${parentSpanId}-01`,
        `00-${traceId.slice(1)}-${parentSpanId}-01`,
        "not a trace context"
      ]
    ) expect((await fetch(me, { headers: headers(bad) })).status).toBe(200)
    const roots = recorded.filter((s) => s.kind === "server")
    expect(roots).toHaveLength(6)
    const [taken, ...ignored] = roots
    expect(taken!.traceId).toBe(traceId)
    expect(parentId(taken!)).toBe(parentSpanId)
    // The request's own spans are in the caller's trace, under the request's span.
    const { spans, ancestors } = traceOf(taken!)
    expect(spans.some((s) => s.name === "Users.get" && ancestors(s).includes(taken!.name))).toBe(true)
    for (const root of ignored) {
      expect(Option.isNone(root.parent)).toBe(true)
      expect(root.traceId).not.toBe(traceId)
    }
  })

  it("records a span per provisioner job run, with the job's id, type and provisioner", async () => {
    const version = await createVersion(srv, owner, orgId, FULL_TEMPLATE)
    expect(version.status).toBe(201)
    await runJobs(srv)
    const jobs = recorded.filter((s) => s.attributes.get("provisioner.job.id") === version.body.job.id)
    expect(jobs.map((s) => s.name)).toEqual(["provisioner.job template_version_import"])
    const job = jobs[0]!
    expect(Object.fromEntries(job.attributes)).toMatchObject({
      "provisioner.job.type": "template_version_import",
      "provisioner.name": "workbay",
      "provisioner.job.status": "succeeded",
      "organization.id": orgId
    })
    const { spans, ancestors } = traceOf(job)
    expect(spans.some((s) => s.name === "sql.execute" && ancestors(s).includes(job.name))).toBe(true)
  })
})
