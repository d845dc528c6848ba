/**
 * Hostile input on every operation of the API, enumerated from its definition so that new
 * endpoints join on their own: bodies deep, long, wide and wrong-typed, queries huge and
 * repeated, paths long and badly encoded, and HEAD on every GET route. Whatever comes in, the
 * answer is below 500, a Response object when it is an error, and a few kilobytes at most.
 * Nothing here is timed: the limits bound the work.
 */
import { HttpApiSchema } from "@effect/platform"
import { AgentAuthentication, Authentication, makeWorkbay, type Workbay, WorkbayApi } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { FastCheck as fc, Option, type Schema, SchemaAST } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  inTurn,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  STRONG_PASSWORD,
  UNKNOWN_ID
} from "./support.js"

/** One operation of the API, as its definition declares it. */
interface Operation {
  readonly name: string
  readonly method: string
  /** `/api/v2/users/:user/keys/:keyid` */
  readonly template: string
  readonly params: ReadonlyArray<string>
  readonly hasBody: boolean
  /** The body is raw bytes (an uploaded file), not JSON: never walked or parsed. */
  readonly rawBody: boolean
  readonly bodyFields: ReadonlyArray<string>
  readonly queryKeys: ReadonlyArray<string>
  readonly authenticated: boolean
  /** Only an agent's token reaches it (a user's answers 401 before the body is walked; see agents/Logs.test.ts). */
  readonly agentOnly: boolean
}

const fieldsOf = (schema: Option.Option<Schema.Schema.Any>): Array<string> =>
  Option.match(schema, {
    onNone: () => [],
    onSome: (s) => {
      const ast = SchemaAST.encodedAST(s.ast)
      return ast._tag === "TypeLiteral" ? ast.propertySignatures.map((p) => String(p.name)) : []
    }
  })

const operations: ReadonlyArray<Operation> = Object.values((WorkbayApi as any).groups).flatMap((group: any) =>
  Object.values(group.endpoints).map((endpoint: any): Operation => ({
    name: `${group.identifier}.${endpoint.name}`,
    method: endpoint.method,
    template: endpoint.path,
    params: [...(endpoint.path as string).matchAll(/:(\w+)/g)].map((m) => m[1]!),
    hasBody: Option.isSome(endpoint.payloadSchema),
    rawBody: Option.match(endpoint.payloadSchema as Option.Option<Schema.Schema.Any>, {
      onNone: () => false,
      onSome: (s) =>
        (s.ast._tag === "Union" ? s.ast.types : [s.ast]).every((m) =>
          HttpApiSchema.getEncoding(m).kind === "Uint8Array"
        )
    }),
    bodyFields: fieldsOf(endpoint.payloadSchema),
    queryKeys: fieldsOf(endpoint.urlParamsSchema),
    authenticated: group.middlewares.has(Authentication) || endpoint.middlewares.has(Authentication) ||
      group.middlewares.has(AgentAuthentication) || endpoint.middlewares.has(AgentAuthentication),
    agentOnly: (group.middlewares.has(AgentAuthentication) || endpoint.middlewares.has(AgentAuthentication)) &&
      !group.middlewares.has(Authentication) && !endpoint.middlewares.has(Authentication)
  }))
)
const withBody = operations.filter((o) => o.hasBody)
/** Operations whose body is JSON (or a form): the ones the body walk guards. */
const withJsonBody = withBody.filter((o) => !o.rawBody)
const gets = operations.filter((o) => o.method === "GET")

/** The operation's path with each parameter from `values` (already encoded), or `fallback`. */
const pathOf = (op: Operation, values: Readonly<Record<string, string>>, fallback = "x") =>
  op.template.replace(/:(\w+)/g, (_, name: string) => values[name] ?? fallback)

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

interface RequestInit {
  readonly body?: string | undefined
  readonly token?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

const headersOf = (init: RequestInit) => {
  const headers = new Headers(init.headers)
  if (init.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json")
  if (init.token !== undefined) headers.set(SESSION_HEADER, init.token)
  return headers
}

/** Through a real server (the node adapter). */
const overNode = (baseUrl: string) => async (method: string, path: string, init: RequestInit = {}): Promise<Answer> => {
  const res = await fetch(baseUrl + path, {
    method,
    headers: headersOf(init),
    body: init.body ?? null,
    redirect: "manual"
  })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** In process (the web adapter): no URL length limit in front of it. */
const overWeb = (workbay: Workbay) => async (method: string, path: string, init: RequestInit = {}): Promise<Answer> => {
  const res = await inTurn(workbay.web)(
    new Request(`http://workbay.test${path}`, { method, headers: headersOf(init), body: init.body ?? null })
  )
  return { status: res.status, headers: res.headers, text: await res.text() }
}

type Send = ReturnType<typeof overNode>

const MAX_ERROR_BYTES = 8 * 1024

/** Below 500; a bounded body; for an error, exactly the Response object with at most 20 validations. */
const expectSane = (a: Answer, what: string) => {
  expect(a.status, `${what} -> ${a.status} ${a.text.slice(0, 300)}`).toBeLessThan(500)
  expect(Buffer.byteLength(a.text), what).toBeLessThan(a.status >= 400 ? MAX_ERROR_BYTES : 4 * 1024 * 1024)
  if (a.status < 400 || a.text === "") return
  // The authorization endpoint's error page is HTML (docs/oauth2.md).
  if (a.headers.get("content-type")?.startsWith("text/html")) return
  const body = JSON.parse(a.text)
  // OAuth2 routes answer RFC 6749 5.2 / RFC 7591 3.2.2 errors: `{error, error_description}` (a registration's with `validations`).
  if (
    typeof body.error === "string" &&
    Object.keys(body).every((k) => k === "error" || k === "error_description" || k === "validations")
  ) return
  expect(
    Object.keys(body).filter((k) => !["message", "detail", "validations"].includes(k)),
    what
  ).toEqual([])
  expect(typeof body.message, what).toBe("string")
  expect(body.message.length).toBeGreaterThan(0)
  if (body.detail !== undefined) expect(typeof body.detail, what).toBe("string")
  if (body.validations !== undefined) {
    expect(body.validations.length, what).toBeLessThanOrEqual(20)
    for (const v of body.validations) expect(Object.keys(v).sort(), what).toEqual(["detail", "field"])
  }
}

/** `{"a":{"a":...1...}}`, 3,000 levels: about 18 KB. */
const DEEP_BODY = "{\"a\":".repeat(3000) + "1" + "}".repeat(3000)
const DEEP_PATH = Array(32).fill("a").join(".")
const TOO_DEEP = "Must not nest objects and arrays deeper than 32 levels."

const ALLOW_LIST_KINDS = /ai_model_price|workspace_proxy/

describe("hostile input through the node adapter", () => {
  let srv: ServiceTestServer
  let token: string
  let send: Send

  beforeAll(async () => {
    const started = await startWithOwner()
    srv = started.srv
    token = started.owner.token!
    send = overNode(srv.url)
  })
  afterAll(() => srv.close())

  const tokens = (body: unknown) => send("POST", "/api/v2/users/me/keys/tokens", { token, body: JSON.stringify(body) })

  it("enumerates the operations of the API, login among those with a body", () => {
    expect(operations.length).toBeGreaterThan(60)
    expect(withBody.map((o) => o.name)).toContain("authorization.login")
    expect(gets.length).toBeGreaterThan(30)
  })

  it("answers a body 3,000 levels deep with 400 at the path where it gets too deep, on every operation with a JSON body", async () => {
    const values = {
      user: "me",
      organization: "coder",
      group: UNKNOWN_ID,
      templateversion: UNKNOWN_ID,
      template: UNKNOWN_ID,
      jobID: UNKNOWN_ID,
      workspace: UNKNOWN_ID,
      workspacebuild: UNKNOWN_ID,
      id: UNKNOWN_ID,
      notification_template: UNKNOWN_ID,
      app: UNKNOWN_ID
    }
    for (const op of withJsonBody.filter((o) => !o.agentOnly)) {
      const a = await send(op.method, pathOf(op, values), { token, body: DEEP_BODY })
      expectSane(a, op.name)
      expect(a.status, op.name).toBe(400)
      expect(JSON.parse(a.text), op.name).toEqual({
        message: "Validation failed.",
        validations: [{ field: DEEP_PATH, detail: TOO_DEEP }]
      })
    }
  })

  it("answers the same body sent anonymously with 401 where a caller is needed, else 400 (POST /users/login)", async () => {
    for (const op of withBody) {
      const a = await send(op.method, pathOf(op, { user: "me", organization: "coder" }), { body: DEEP_BODY })
      expectSane(a, op.name)
      expect(a.status, op.name).toBe(op.authenticated ? 401 : 400)
    }
    const login = await send("POST", "/api/v2/users/login", { body: DEEP_BODY })
    expect(JSON.parse(login.text).validations).toEqual([{ field: DEEP_PATH, detail: TOO_DEEP }])
  })

  it("takes a deep JSON text sent as a file as bytes: never walked, refused for its content type", async () => {
    expect(withBody.filter((o) => o.rawBody).map((o) => o.name)).toEqual(["files.upload"])
    const a = await send("POST", "/api/v2/files", { token, body: DEEP_BODY })
    expect(a.status).toBe(400)
    expect(JSON.parse(a.text)).toEqual({
      message: `Unsupported content type header "application/json".`,
      detail: "Send one of: application/x-tar, application/zip, application/x-zip-compressed."
    })
    const stored = await send("POST", "/api/v2/files", {
      token,
      body: DEEP_BODY,
      headers: { "content-type": "application/x-tar" }
    })
    expect(stored.status).toBe(201)
  })

  it("refuses an allow-list of 100,000 empty objects at the field, in a few bytes", async () => {
    const a = await tokens({ allow_list: Array(100_000).fill({}) })
    expectSane(a, "allow_list")
    expect(JSON.parse(a.text)).toEqual({
      message: "Validation failed.",
      validations: [{ field: "allow_list", detail: "Must have at most 1000 items." }]
    })
  })

  it("refuses allow-lists of 100,000 and 10,000 strings at the field, in a few bytes", async () => {
    for (const n of [100_000, 10_000]) {
      const a = await tokens({ allow_list: Array(n).fill("workspace") })
      expectSane(a, `allow_list ${n}`)
      expect(Buffer.byteLength(a.text)).toBeLessThan(200)
      expect(JSON.parse(a.text).validations).toEqual([{ field: "allow_list", detail: "Must have at most 1000 items." }])
    }
  })

  it("lists 20 of the problems of a 1,000-item allow-list, each once, and says how many there were", async () => {
    for (
      const [item, field] of [
        ["workspace", (i: number) => `allow_list.${i}`],
        [{ type: "planet", id: "*" }, (i: number) => `allow_list.${i}.type`],
        [{}, (i: number) => `allow_list.${i >> 1}.${i % 2 === 0 ? "id" : "type"}`]
      ] as const
    ) {
      const a = await tokens({ allow_list: Array(1000).fill(item) })
      expectSane(a, "allow_list 1000")
      const body = JSON.parse(a.text)
      expect(body.validations.map((v: { field: string }) => v.field)).toEqual(
        Array.from({ length: 20 }, (_, i) => field(i))
      )
      // Only the first fields are formatted; the rest are counted, by item.
      expect(body.detail).toMatch(/^Only the first 20 problems are listed, of at least \d+\.$/)
      expect(Number(/least (\d+)/.exec(body.detail)![1])).toBeGreaterThanOrEqual(1000)
      // No message enumerates the resource kinds.
      expect(a.text).not.toMatch(ALLOW_LIST_KINDS)
    }
  })

  it("writes the audit entry of an audited request refused for its input", async () => {
    const a = await send("POST", "/api/v2/organizations", { token, body: JSON.stringify({ name: "x".repeat(70_000) }) })
    expect(a.status).toBe(400)
    expect(JSON.parse(a.text).validations).toEqual([{ field: "name", detail: "Must be at most 65536 characters." }])
    const audit = await send("GET", `/api/v2/audit?limit=10&q=request_id:${a.headers.get("x-request-id")}`, { token })
    expect(JSON.parse(audit.text).audit_logs).toMatchObject([
      { action: "create", resource_type: "organization", status_code: 400 }
    ])
  })

  it("refuses NUL, long strings, long lists and many parameters in the query at the parameter", async () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["/api/v2/users?q=a%00b", "q", "Must not contain NUL characters."],
      [`/api/v2/groups?group_ids=${Array(5000).fill("x").join(",")}`, "group_ids", "Must have at most 1000 items."],
      [`/api/v2/audit?${Array(2000).fill("q=a").join("&")}`, "q", "Must have at most 1000 items."],
      [
        `/api/v2/users?${Array.from({ length: 1200 }, (_, i) => `k${i}=1`).join("&")}`,
        "",
        "Must have at most 1000 fields."
      ]
    ]
    for (const [path, field, detail] of cases) {
      const a = await send("GET", path, { token })
      expectSane(a, path.slice(0, 60))
      expect(a.status).toBe(400)
      expect(JSON.parse(a.text).validations).toEqual([{ field, detail }])
    }
  })

  it("answers a path that is not valid percent-encoding with 400, and a long parameter like any other", async () => {
    for (const segment of ["%E0%A4%A", "%zz", "%"]) {
      const a = await send("GET", `/api/v2/users/${segment}`, { token })
      expectSane(a, segment)
      expect(JSON.parse(a.text)).toEqual({ message: "Request path must be valid percent-encoded UTF-8." })
    }
    const long = await send("GET", `/api/v2/users/${"a".repeat(10_000)}`, { token })
    expectSane(long, "long")
    expect(JSON.parse(long.text).message).toBe("User not found.")
    expect((await send("GET", "/elsewhere/%E0%A4%A", { token })).status).toBe(404)
  })

  it("answers numbers beyond any range as a bad value, not a server error", async () => {
    for (
      const [method, path, body] of [
        ["POST", "/api/v2/users/me/keys/tokens", "{\"lifetime\":1e999}"],
        ["POST", "/api/v2/users/me/keys/tokens", "{\"lifetime\":-1e999}"],
        ["POST", "/api/v2/users/me/keys/tokens", `{"lifetime":${"9".repeat(400)}}`],
        ["GET", "/api/v2/users?limit=1e999", undefined],
        ["GET", `/api/v2/users?limit=${"9".repeat(400)}`, undefined],
        ["GET", "/api/v2/audit?offset=-1e999", undefined]
      ] as const
    ) {
      const a = await send(method, path, { token, body })
      expectSane(a, path)
      expect(a.status, path).toBe(400)
    }
  })

  it("reads odd, long and duplicated credential headers and cookies as no credentials", async () => {
    const cases: ReadonlyArray<Record<string, string>> = [
      { authorization: `Bearer${" ".repeat(10_000)}\tx` },
      { authorization: `Bearer ${"x".repeat(10_000)}` },
      { cookie: "service_session_token=%E0%A4%A; service_session_token=x; =; ;;" },
      { cookie: `${"k=v;".repeat(2000)}` },
      { [SESSION_HEADER]: `${token}, ${token}` }
    ]
    for (const headers of cases) {
      const a = await send("GET", "/api/v2/users/me", { headers })
      expectSane(a, JSON.stringify(headers).slice(0, 60))
      expect(a.status).toBe(401)
    }
    const good = await send("GET", "/api/v2/users/me", { headers: { authorization: `Bearer  ${token}  ` } })
    expect(good.status).toBe(200)
  })

  it("answers HEAD on every GET route with the GET's status and headers and no body", async () => {
    const values = await routeValues(send, token)
    const ignored = new Set(["date", "x-request-id", "connection", "keep-alive"])
    const comparable = (h: Headers) => [...h].filter(([k]) => !ignored.has(k))
    for (const op of gets) {
      const path = pathOf(op, values)
      const before = await send("GET", path, { token })
      const head = await send("HEAD", path, { token })
      const after = await send("GET", path, { token })
      expect(head.status, op.name).toBe(before.status)
      expect(head.text, op.name).toBe("")
      expect(head.headers.get("x-request-id"), op.name).toMatch(/^[0-9a-f-]{36}$/)
      // The body may change between two reads (a timestamp); it matches one of them.
      expect([comparable(before.headers), comparable(after.headers)], op.name).toContainEqual(comparable(head.headers))
      expect([Buffer.byteLength(before.text), Buffer.byteLength(after.text)], op.name).toContain(
        Number(head.headers.get("content-length"))
      )
    }
    const anonymous = await send("HEAD", "/api/v2/users/me")
    expect(anonymous.status).toBe(401)
    expect(anonymous.text).toBe("")
  })

  it("lists HEAD in Allow wherever GET is allowed, and only there", async () => {
    const getOnly = await send("POST", "/api/v2/buildinfo", { token, body: "{}" })
    expect(getOnly.status).toBe(405)
    expect(getOnly.headers.get("allow")).toBe("GET, HEAD")
    const postOnly = await send("HEAD", "/api/v2/authcheck")
    expect(postOnly.status).toBe(405)
    expect(postOnly.headers.get("allow")).toBe("POST")
    expect(postOnly.text).toBe("")
  })
})

/** Real values for route parameters, so that HEAD is tried on answers with a body too. */
const routeValues = async (send: Send, token: string): Promise<Record<string, string>> => {
  const group = await send("POST", "/api/v2/organizations/coder/groups", {
    token,
    body: JSON.stringify({ name: "head-group" })
  })
  const created = await send("POST", "/api/v2/users/me/keys/tokens", {
    token,
    body: JSON.stringify({ token_name: "head-token" })
  })
  const file = await send("POST", "/api/v2/files", {
    token,
    body: "an archive",
    headers: { "content-type": "application/x-tar" }
  })
  expect([group.status, created.status, file.status]).toEqual([201, 201, 201])
  const key = JSON.parse((await send("GET", "/api/v2/users/me/keys/tokens/head-token", { token })).text)
  return {
    user: "me",
    organization: "coder",
    group: JSON.parse(group.text).id,
    keyname: "head-token",
    keyid: key.id,
    fileID: JSON.parse(file.text).hash
  }
}

// ---------------------------------------------------------------------------------------------
// The sweep, in process through the web adapter (no URL length limit in front of it).

/** Path segments, already as they appear in a URL. */
const SEGMENTS: ReadonlyArray<string> = [
  "a".repeat(600),
  "a".repeat(70_000),
  "%",
  "%zz",
  "%E0%A4%A",
  "%C0%AF",
  "%00",
  "%FF%FE",
  "..",
  "%2e%2e",
  "%2F",
  "%3F%23",
  "%F0%9F%98%80",
  "%ED%A0%80",
  "%20",
  "__proto__",
  "constructor",
  "-1",
  "1e999",
  UNKNOWN_ID,
  "me%00",
  "x;y",
  encodeURIComponent("ü😀")
]

/** Query strings (without `?`) for an operation: its keys abused (the first one hardest), and keys of no operation. */
const queriesFor = (op: Operation): Array<string> => {
  const [first = "q", ...rest] = op.queryKeys
  const light = (k: string) => [`${k}=%E0%A4%A`, `${k}[]=1&${k}=a&${k}=b`]
  return [
    `${first}=${"a".repeat(70_000)}`,
    Array(2000).fill(`${first}=1`).join("&"),
    `${first}=${Array(5000).fill("1").join(",")}`,
    `${first}=%`,
    `${first}=%00`,
    `${first}=1e999`,
    `${first}=-1`,
    `${first}=${"9".repeat(400)}`,
    ...[first, ...rest].flatMap(light),
    Array.from({ length: 2000 }, (_, i) => `k${i}=1`).join("&"),
    "__proto__=1&constructor=2&__proto__=3",
    "&&&===&",
    "%",
    "=%00"
  ]
}

/** Text of awkward characters: controls, quotes, `%`, `&`, `=`, lone and paired surrogates, multi-byte. */
const hardText = fc
  .array(
    fc.oneof(fc.constantFrom("\u0000", "\"", "\\", "%", "&", "=", ",", "\ud800", "é", "😀", "{", "["), fc.char()),
    {
      maxLength: 200
    }
  )
  .map((chars) => chars.join(""))

const repeatItems = (item: string, n: number) => `[${Array(n).fill(item).join(",")}]`

/** Values of the wrong type or shape for any field. */
const LIGHT_VALUES = ["[[[]]]", "{\"__proto__\":{\"polluted\":1},\"constructor\":{\"prototype\":{}}}"]
/** More of them, for the first field. */
const MORE_VALUES = ["null", "1e999", "\"\\u0000\"", "true", "-0", "9".repeat(400), "\"\\ud800\"", "[]", "{}", "[null]"]
/** Values over the limits, or at them (1,000 items that each fail). */
const HEAVY_VALUES = [
  `"${"x".repeat(70_000)}"`,
  repeatItems("{}", 2000),
  repeatItems("\"x\"", 1001),
  repeatItems("0", 1000),
  "[".repeat(5000) + "]".repeat(5000),
  `{${Array.from({ length: 1500 }, (_, i) => `"k${i}":1`).join(",")}}`,
  repeatItems("{\"type\":\"planet\",\"id\":\"x\"}", 1000)
]

/** Bodies (raw text and content type) for an operation: each field wrong-typed, the first one more and over the limits. */
const bodiesFor = (op: Operation): Array<{ readonly text: string; readonly type?: string }> => {
  const [first = "x", ...rest] = op.bodyFields
  const field = (f: string) => (v: string) => ({ text: `{${JSON.stringify(f)}:${v}}` })
  return [
    ...[...HEAVY_VALUES, ...LIGHT_VALUES, ...MORE_VALUES].map(field(first)),
    ...rest.flatMap((f) => LIGHT_VALUES.map(field(f))),
    { text: DEEP_BODY },
    { text: "[".repeat(100_000) + "]".repeat(100_000) },
    { text: "null" },
    { text: "[]" },
    { text: "\"text\"" },
    { text: "7" },
    { text: "{" },
    { text: "{\"a\":\"unterminated" },
    { text: "\ufeff{}" },
    { text: `{"${"k".repeat(70_000)}":1}` },
    { text: `{"a\\u0000":1}` },
    { text: "{}", type: "text/plain" },
    { text: "a=1&b=%zz", type: "application/x-www-form-urlencoded" },
    { text: Array.from({ length: 5000 }, (_, i) => `k${i}=1`).join("&"), type: "application/x-www-form-urlencoded" },
    { text: "{}", type: "multipart/form-data; boundary=x" }
  ]
}

describe("hostile input through the web adapter", () => {
  let workbay: Workbay
  let token: string
  let send: Send

  beforeAll(async () => {
    workbay = await makeWorkbay(Sqlite.layerMemory, { passwordHashCost: 4 })
    send = overWeb(workbay)
    const first = await send("POST", "/api/v2/users/first", {
      body: JSON.stringify({ email: "web@example.com", username: "web", password: STRONG_PASSWORD })
    })
    expect(first.status).toBe(201)
    const login = await send("POST", "/api/v2/users/login", {
      body: JSON.stringify({ email: "web@example.com", password: STRONG_PASSWORD })
    })
    token = JSON.parse(login.text).session_token
  })
  afterAll(() => workbay.dispose())

  /** Logging out would end the sweep's session; it is swept anonymously only. */
  const sweepable = operations.filter((o) => o.name !== "session.logout")

  it("answers HEAD on every GET route with the GET's status and headers and no body", async () => {
    const values = await routeValues(send, token)
    for (const op of gets) {
      const path = pathOf(op, values)
      const get = await send("GET", path, { token })
      const head = await send("HEAD", path, { token })
      expect(head.status, op.name).toBe(get.status)
      expect(head.text, op.name).toBe("")
      expect(head.headers.get("content-type"), op.name).toBe(get.headers.get("content-type"))
      expect(Number(head.headers.get("content-length")), op.name).toBe(Buffer.byteLength(get.text))
    }
  })

  it("names a path parameter longer than the string limit", async () => {
    const a = await send("GET", `/api/v2/users/${"a".repeat(70_000)}`, { token })
    expectSane(a, "long user")
    expect(JSON.parse(a.text).validations).toEqual([{ field: "user", detail: "Must be at most 65536 characters." }])
  })

  it("never answers 500 or more than a few KB to hostile paths, queries and bodies on any operation", async () => {
    let requests = 0
    for (const [n, op] of sweepable.entries()) {
      const queries = queriesFor(op)
      const bodies = op.hasBody ? bodiesFor(op) : [undefined]
      // Every body once; segments and queries in turn, from where the previous operation stopped.
      const rounds = op.hasBody ? bodies.length : op.queryKeys.length > 0 ? queries.length : 8
      for (let i = 0; i < rounds; i++) {
        const segment = op.params.length > 0 ? SEGMENTS[(n * 8 + i) % SEGMENTS.length]! : undefined
        const path = `${pathOf(op, {}, segment)}?${queries[(n * 8 + i) % queries.length]}`
        const body = bodies[i % bodies.length]
        const what = `${op.method} ${op.name} #${i}`
        expectSane(
          await send(op.method, path, {
            token,
            body: body?.text,
            headers: body?.type ? { "content-type": body.type } : {}
          }),
          what
        )
        requests++
      }
      // Anonymous too: a caller is needed first, or (login, first user, ...) the input is judged.
      const body = bodies[0]
      expectSane(await send(op.method, pathOf(op, {}, SEGMENTS[1]), { body: body?.text }), `anonymous ${op.name}`)
    }
    expectSane(await send("POST", "/api/v2/users/logout", { body: DEEP_BODY }), "anonymous logout")
    expect(requests).toBeGreaterThan(500)
    // Thousands of requests, more with every endpoint's body fields: room for a loaded machine.
  })

  it("never answers 500 or more than a few KB to generated requests", async () => {
    const op = fc.constantFrom(...sweepable)
    const segment = fc.oneof(
      fc.constantFrom(...SEGMENTS),
      fc.webSegment(),
      hardText.map((t) => encodeURIComponent(t.replace(/[\ud800-\udfff]/g, "")))
    )
    const query = fc.oneof(
      fc.webQueryParameters(),
      hardText.map((t) => encodeURI(t.replace(/[\ud800-\udfff]/g, "")))
    )
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })).map((v) => JSON.stringify(v)),
      hardText
    )
    const method = fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "get")
    await fc.assert(
      fc.asyncProperty(op, segment, query, body, method, fc.boolean(), async (o, seg, q, b, m, useOwn) => {
        const verb = useOwn ? o.method : m
        const canHaveBody = !["GET", "HEAD", "get"].includes(verb)
        const a = await send(verb, `${pathOf(o, {}, seg)}?${q}`, { token, body: canHaveBody ? b : undefined })
        expectSane(a, `${verb} ${o.name} ${seg.slice(0, 40)} ?${q.slice(0, 40)} ${b.slice(0, 60)}`)
        if (verb === "HEAD") expect(a.text).toBe("")
      }),
      { numRuns: 150 }
    )
  })

  it("answers a body over the cap with 413 before reading it whole", async () => {
    const a = await send("POST", "/api/v2/users/login", { body: `{"email":"${"x".repeat(5 * 1024 * 1024)}"}` })
    expect(a.status).toBe(413)
    expectSane(a, "413")
  })
})
