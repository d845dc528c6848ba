import { makeWorkbay, type Workbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { Context, Effect, FiberRef, Runtime, Tracer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { requestContext, sessionRuntime } from "../src/dispatch/RequestRuntime.js"
import { type Client, startWithOwner, STRONG_PASSWORD, type TestServer } from "./support.js"

describe("request handling", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({ http: { maxBodyBytes: 1024 } }))
  })
  afterAll(() => srv.close())

  it("checks credentials before input: anonymous bad input is 401", async () => {
    const r = await srv.anonymous.post("/organizations", { name: 42 })
    expect(r.status).toBe(401)
    expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("an unknown token with bad input is 401, not 400", async () => {
    const r = await srv.anonymous.as("abcdefghij-abcdefghijklmnopqrstuv").post("/organizations", { name: 42 })
    expect(r.status).toBe(401)
  })

  it("refuses a JSON body that is not an object", async () => {
    for (const raw of ["[]", "null", "\"text\"", "7"]) {
      const r = await owner.request("POST", "/organizations", undefined, { raw })
      expect(r.status).toBe(400)
      expect(r.body).toEqual({ message: "Request body must be a JSON object." })
    }
  })

  it("refuses NUL characters in path, query and body with one validation at the field", async () => {
    const path = await owner.get("/users/a%00b")
    expect(path.status).toBe(400)
    expect(path.body.validations).toEqual([{ field: "user", detail: "Must not contain NUL characters." }])
    const body = await owner.post("/organizations", { name: "ok", icon: ["x", "y\u0000"] })
    expect(body.status).toBe(400)
    expect(body.body.validations).toEqual([{ field: "icon.1", detail: "Must not contain NUL characters." }])
  })

  it("refuses a body that is not JSON", async () => {
    const r = await owner.request("POST", "/organizations", undefined, { raw: "{nope" })
    expect(r.status).toBe(400)
    expect(r.body.message).toBe("Request body must be valid JSON.")
  })

  it("reports a wrong optional field once, at its real path", async () => {
    const r = await owner.post("/users", {
      email: "x@example.com",
      username: "xuser",
      password: STRONG_PASSWORD,
      organization_ids: ["not-a-uuid"]
    })
    expect(r.status).toBe(400)
    expect(r.body.validations.map((v: { field: string }) => v.field)).toEqual(["organization_ids.0"])
  })

  it("names every bad field of a body, query and path together", async () => {
    const r = await owner.post("/users", { email: "nope", username: "-x-", password: "short" })
    expect(r.status).toBe(400)
    expect(r.body.validations.map((v: { field: string }) => v.field).sort()).toEqual(["email", "password", "username"])
  })

  it("answers 413 for a body over the limit", async () => {
    const r = await owner.request("POST", "/organizations", undefined, {
      raw: JSON.stringify({ name: "a".repeat(2048) })
    })
    expect(r.status).toBe(413)
    expect(r.body.message).toBe("Request body is too large.")
  })
})

describe("web handler", () => {
  let workbay: Workbay
  beforeAll(async () => {
    workbay = await makeWorkbay(Sqlite.layerMemory, { passwordHashCost: 4 })
  })
  afterAll(() => workbay.dispose())

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    workbay.web(
      new Request(`http://workbay.test/api/v2${path}`, {
        method,
        headers: { "content-type": "application/json", ...(token ? { "Service-Session-Token": token } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {})
      })
    )

  it("serves the API on Fetch Request and Response", async () => {
    const first = await call("POST", "/users/first", {
      email: "w@example.com",
      username: "web",
      password: STRONG_PASSWORD
    })
    expect(first.status).toBe(201)
    const login = await call("POST", "/users/login", { email: "w@example.com", password: STRONG_PASSWORD })
    expect(login.status).toBe(201)
    expect(login.headers.get("set-cookie")).toContain("service_session_token=")
    const { session_token } = (await login.json()) as { session_token: string }
    const me = await call("GET", "/users/me", undefined, session_token)
    expect(me.status).toBe(200)
    expect(((await me.json()) as { username: string }).username).toBe("web")
    const anonymous = await call("GET", "/users/me")
    expect(anonymous.status).toBe(401)
    expect(((await anonymous.json()) as { message: string }).message).toEqual(expect.any(String))
  })
})

describe("a request's services (requestContext)", () => {
  const A = Context.GenericTag<"A", string>("A")
  const B = Context.GenericTag<"B", string>("B")
  const C = Context.GenericTag<"C", string>("C")
  const base = Context.make(A, "a").pipe(Context.add(B, "b"))

  it("sees the runtime's services and its own, without changing the runtime's", () => {
    const ctx = requestContext(base, C, "c")
    expect([Context.get(ctx, A), Context.get(ctx, B), Context.get(ctx, C)]).toEqual(["a", "b", "c"])
    expect(ctx.unsafeMap.size).toBe(3)
    expect([...ctx.unsafeMap.keys()].sort()).toEqual(["A", "B", "C"])
    expect(Context.getOption(base, C)._tag).toBe("None")
    // An entry set in place (the actor, the audit) shadows the runtime's.
    ctx.unsafeMap.set("B", "b2")
    expect(Context.get(ctx, B)).toBe("b2")
    expect(Context.get(base, B)).toBe("b")
    expect(ctx.unsafeMap.size).toBe(3)
    expect(Object.fromEntries(ctx.unsafeMap)).toEqual({ A: "a", B: "b2", C: "c" })
  })

  it("works with what Effect does to contexts: add, merge, omit, providing", () => {
    const ctx = requestContext(base, C, "c")
    const D = Context.GenericTag<"D", string>("D")
    const added = Context.add(ctx, D, "d")
    expect(Object.fromEntries(added.unsafeMap)).toEqual({ A: "a", B: "b", C: "c", D: "d" })
    expect(Object.fromEntries(Context.merge(ctx, Context.make(D, "d")).unsafeMap)).toEqual({
      A: "a",
      B: "b",
      C: "c",
      D: "d"
    })
    expect(Object.fromEntries(Context.omit(A)(ctx).unsafeMap)).toEqual({ B: "b", C: "c" })
    const read = Effect.runSync(Effect.provide(Effect.all([A, B, C]), ctx))
    expect(read).toEqual(["a", "b", "c"])
  })
})

describe("what sessions run on (sessionRuntime)", () => {
  const tracingOn = (runtime: Runtime.Runtime<never>) =>
    Runtime.runSync(runtime)(FiberRef.get(FiberRef.currentTracerEnabled))

  it("spans off with Effect's built-in tracer (nobody collects them), as requests; on when asked", () => {
    const runtime = Runtime.defaultRuntime
    expect(tracingOn(runtime)).toBe(true)
    expect(tracingOn(sessionRuntime(runtime))).toBe(false)
    expect(tracingOn(sessionRuntime(runtime, true))).toBe(true)
    // The runtime itself is left as it was.
    expect(tracingOn(runtime)).toBe(true)
  })

  it("spans on with a tracer someone collects from", () => {
    // Effect's own spans, through a tracer of the embedder's (another object than the built-in one).
    const builtIn = Effect.runSync(Effect.tracer)
    const tracer = Tracer.make({ span: (...args) => builtIn.span(...args), context: builtIn.context })
    const runtime = Effect.runSync(Effect.runtime<never>().pipe(Effect.withTracer(tracer)))
    expect(tracingOn(sessionRuntime(runtime))).toBe(true)
  })
})
