/**
 * The bad-input sweep, generated from the request schemas: for EVERY operation of the API (read
 * from its definition, so new endpoints join on their own), cases built by walking the encoded
 * Schema AST of its body (per field: the wrong type, null, missing when required, huge, negative
 * and fractional numbers, long and odd strings, NUL, lone surrogates), an extra field, malformed
 * JSON, wrong content types, odd path segments and bad query values; each sent by an anonymous
 * caller, a member, a workspace agent (its own routes only, with its token) and an owner, with real resources in the path (a user, organization, group,
 * template, version, job, workspace, build, agent, token, file, OAuth2 app, proxy...) so the
 * requests reach the handlers beyond 404. Every answer is below 500, every error body is the
 * Response object, a refused request (>= 400) changes no data (a fingerprint of the database:
 * row counts per table and the latest `updated_at` of each table that has one, read before and
 * after each request), and the server answers afterwards. Deterministic: the base bodies come
 * from `Arbitrary.make(schema)` with a fixed seed. SQLite, in process (`workbay.web`).
 */
import { SqlClient } from "@effect/sql"
import { AgentAuthentication, Authentication, WorkbayApi } from "@workbay/http"
import { Arbitrary, Effect, FastCheck as fc, Option, Schema, SchemaAST } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createUser, type ServiceTestServer, SESSION_HEADER, startWithOwner, UNKNOWN_ID } from "./support.js"
import { runJobs } from "./templates/versions.js"
import { makeTemplate } from "./workspaces/fixtures.js"

// ---------------------------------------------------------------------------------------------
// The operations and their request schemas.

type Kind = "string" | "number" | "boolean" | "array" | "object" | "unknown"

interface Field {
  /** `allow_list.0.type`: where the field is in the body. */
  readonly name: string
  readonly path: ReadonlyArray<string | number>
  readonly kind: Kind
  readonly required: boolean
}

interface Operation {
  readonly name: string
  readonly method: string
  readonly template: string
  readonly params: ReadonlyArray<string>
  readonly payload: Option.Option<Schema.Schema.Any>
  readonly fields: ReadonlyArray<Field>
  readonly queryKeys: ReadonlyArray<string>
  readonly authenticated: boolean
  /** Whether a workspace agent's token is taken (the agent's own routes). */
  readonly agent: boolean
}

/** What a value of `ast` is on the wire (its encoded side). */
const kindOf = (ast: SchemaAST.AST): Kind => {
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
    case "Enums":
      return "string"
    case "NumberKeyword":
      return "number"
    case "BooleanKeyword":
      return "boolean"
    case "Literal":
      return typeof ast.literal === "string"
        ? "string"
        : typeof ast.literal === "number"
        ? "number"
        : typeof ast.literal === "boolean"
        ? "boolean"
        : "unknown"
    case "TupleType":
      return "array"
    case "TypeLiteral":
      return "object"
    case "Refinement":
      return kindOf(ast.from)
    case "Transformation":
      return kindOf(ast.from)
    case "Suspend":
      return kindOf(ast.f())
    case "Union": {
      const kinds = ast.types.map(kindOf).filter((k) => k !== "unknown")
      return kinds[0] ?? "unknown"
    }
    default:
      return "unknown"
  }
}

/** The object or list `ast` is, through refinements, transformations, suspensions and nullable unions. */
const structural = (ast: SchemaAST.AST): SchemaAST.AST | undefined => {
  switch (ast._tag) {
    case "TypeLiteral":
    case "TupleType":
      return ast
    case "Refinement":
    case "Transformation":
      return structural(ast.from)
    case "Suspend":
      return structural(ast.f())
    case "Union":
      return ast.types.map(structural).find((t) => t !== undefined)
    default:
      return undefined
  }
}

/** The fields of an object schema, and of the objects in it (and in its lists) down to `depth` levels. */
const walk = (ast: SchemaAST.AST, prefix: ReadonlyArray<string | number>, depth: number): Array<Field> => {
  const literal = structural(ast)
  if (literal?._tag !== "TypeLiteral") return []
  return literal.propertySignatures.flatMap((p) => {
    const path = [...prefix, String(p.name)]
    const field: Field = { name: path.join("."), path, kind: kindOf(p.type), required: !p.isOptional }
    if (depth <= 1) return [field]
    const inner = structural(p.type)
    const nested = inner?._tag === "TypeLiteral"
      ? walk(inner, path, depth - 1)
      : inner?._tag === "TupleType" && inner.rest.length > 0
      ? walk(inner.rest[0]!.type, [...path, 0], depth - 1)
      : []
    return [field, ...nested]
  })
}

/** The fields of a body or query schema (its encoded side), when it is an object: top level, and one level in. */
const fieldsOf = (schema: Option.Option<Schema.Schema.Any>, depth = 2): Array<Field> =>
  Option.match(schema, { onNone: () => [], onSome: (s) => walk(SchemaAST.encodedAST(s.ast), [], depth) })

/** `body` with `value` at `path` (containers made on the way), or without it when `value` is `REMOVE`. */
const REMOVE = Symbol("remove")
const setAt = (body: Record<string, unknown>, path: ReadonlyArray<string | number>, value: unknown) => {
  const copy = structuredClone(body)
  let at: any = copy
  for (const [i, key] of path.entries()) {
    if (i === path.length - 1) {
      if (value === REMOVE) delete at[key]
      else at[key] = value
      break
    }
    const next = at[key]
    if (typeof next !== "object" || next === null) at[key] = typeof path[i + 1] === "number" ? [] : {}
    at = at[key]
  }
  return copy
}

const operations: ReadonlyArray<Operation> = Object.values((WorkbayApi as any).groups).flatMap((group: any) =>
  Object.values(group.endpoints).map((endpoint: any): Operation => ({
    name: `${group.identifier}.${endpoint.name}`,
    method: endpoint.method,
    template: endpoint.path,
    params: [...(endpoint.path as string).matchAll(/:(\w+)/g)].map((m) => m[1]!),
    payload: endpoint.payloadSchema,
    fields: fieldsOf(endpoint.payloadSchema),
    queryKeys: fieldsOf(endpoint.urlParamsSchema, 1).map((f) => f.name),
    authenticated: group.middlewares.has(Authentication) || endpoint.middlewares.has(Authentication),
    agent: group.middlewares.has(AgentAuthentication) || endpoint.middlewares.has(AgentAuthentication)
  }))
)

/**
 * Plausible values for string fields by name: random text would fail the checks on names, ids,
 * addresses and passwords, and the field cases would only meet those.
 */
const plausible = (field: string, seed: number, values: Readonly<Record<string, string>>): string | undefined => {
  if (field === "email") return `sweep${seed}@example.com`
  if (field === "password" || field === "old_password") return "Correct-Horse-Battery-9"
  if (field === "name" || field === "username" || field === "token_name" || field === "workspace_name") {
    return `sweep-${seed}`
  }
  if (field === "display_name") return `Sweep ${seed}`
  if (/url$/.test(field)) return "http://localhost:8080/cb"
  if (field === "template_id") return values.template
  if (field === "template_version_id") return values.templateversion
  if (field === "organization_id") return values.organization
  if (field === "file_id") return values.fileID
  if (field === "user_id") return values.userId
  return undefined
}

/** A body that satisfies the schema's encoded side (a fixed seed), or `{}` when none can be made. */
const baseBody = (
  op: Operation,
  seed: number,
  values: Readonly<Record<string, string>> = {}
): Record<string, unknown> => {
  if (Option.isNone(op.payload) || op.fields.length === 0) return {}
  try {
    const arbitrary = Arbitrary.make(Schema.encodedSchema(op.payload.value as Schema.Schema<any, any, never>))
    const [value] = fc.sample(arbitrary, { seed, numRuns: 1 })
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {}
    const body: Record<string, unknown> = { ...(value as object) }
    for (const f of op.fields.filter((f) => f.path.length === 1)) {
      const v = f.kind === "string" ? plausible(f.name, seed, values) : undefined
      if (v !== undefined) body[f.name] = v
    }
    return body
  } catch {
    return {}
  }
}

// ---------------------------------------------------------------------------------------------
// The cases.

interface Case {
  readonly what: string
  readonly path: string
  readonly body?: string | undefined
  readonly type?: string | undefined
}

const WRONG: Record<Kind, ReadonlyArray<unknown>> = {
  string: [12345, true, ["a"], { a: 1 }],
  number: ["12", true, [1], {}],
  boolean: ["true", 1, []],
  array: ["a", 1, { 0: "a" }],
  object: ["a", 1, [{}]],
  unknown: [[[[]]]]
}
const NUMBERS: ReadonlyArray<unknown> = [1e308, -1, 2 ** 63, 1.5, -0, Number.MAX_SAFE_INTEGER + 2]
const STRINGS: ReadonlyArray<unknown> = [
  "x".repeat(10_000),
  "\u0000",
  "a\u0000b",
  "../../etc/passwd",
  "\ud800",
  "😀".repeat(50),
  " ",
  "",
  "%00%zz",
  "<script>"
]
const SEGMENTS = ["%00", "..", "a".repeat(600), "-1", "%E0%A4%A", "%F0%9F%98%80", "1e999", "me%00", "__proto__"]

/**
 * The cases of `op` for one caller. `depth` chooses how many: 0 (anonymous) the light ones,
 * 1 (member) the wrong types and nulls too, 2 (owner) every one.
 */
const casesFor = (
  op: Operation,
  values: Readonly<Record<string, string>>,
  depth: 0 | 1 | 2,
  seed: number
): Array<Case> => {
  const path = (overrides: Readonly<Record<string, string>> = {}) =>
    op.template.replace(/:(\w+)/g, (_, name: string) => overrides[name] ?? values[name] ?? UNKNOWN_ID)
  const base = baseBody(op, seed, values)
  const hasBody = Option.isSome(op.payload)
  const json = (body: unknown) => JSON.stringify(body)
  const cases: Array<Case> = []
  const add = (what: string, body?: unknown, type?: string, at = path()) =>
    cases.push({
      what,
      path: at,
      body: hasBody ? (typeof body === "string" ? body : json(body ?? base)) : undefined,
      type
    })
  add("base")
  // Odd path segments, one per parameter (rotating through the list).
  op.params.forEach((p, i) =>
    add(`path ${p}`, undefined, undefined, path({ [p]: SEGMENTS[(i + seed) % SEGMENTS.length]! }))
  )
  for (const [i, k] of op.queryKeys.entries()) {
    for (const v of depth === 0 ? ["%00"] : ["%00", "-1", "1e999", "x".repeat(2000), ["true", "[]", "%zz"][i % 3]!]) {
      add(`query ${k}=${v.slice(0, 10)}`, undefined, undefined, `${path()}?${k}=${v}`)
    }
  }
  if (hasBody) {
    add("malformed", "{")
    add("null", "null")
    add("array", "[]")
    add("text/plain", json(base), "text/plain")
    if (depth >= 1) {
      add("extra field", { ...base, zz_extra: { nested: [1] } })
      add("form", "a=1&b=%zz", "application/x-www-form-urlencoded")
    }
    for (const f of op.fields) {
      const set = (v: unknown) => setAt(base, f.path, v)
      add(`${f.name}=null`, set(null))
      if (depth === 0) continue
      for (const v of WRONG[f.kind]) add(`${f.name} wrong ${json(v).slice(0, 12)}`, set(v))
      if (f.required) {
        add(`${f.name} missing`, setAt(base, f.path, REMOVE))
      }
      if (depth < 2) continue
      if (f.kind === "number" || f.kind === "unknown") { for (const v of NUMBERS) add(`${f.name}=${v}`, set(v)) }
      if (f.kind === "string" || f.kind === "unknown") {
        for (const v of STRINGS) add(`${f.name}=${json(v).slice(0, 12)}`, set(v))
      }
      if (f.kind === "array") {
        for (const v of [[null], Array(1001).fill("x"), [["nested"]]]) add(`${f.name}=[...]`, set(v))
      }
      if (f.kind === "object") {
        for (const v of [{ "": 1 }, { a: null }, { ["k".repeat(300)]: "\u0000" }]) add(`${f.name}={...}`, set(v))
      }
    }
  }
  return cases
}

// ---------------------------------------------------------------------------------------------
// The checks.

/** Below 500; for an error, the Response object (or the OAuth2 routes' RFC 6749 error, or the authorize page). */
const expectSane = (status: number, type: string | null, text: string, what: string) => {
  expect(status, `${what} -> ${status} ${text.slice(0, 300)}`).toBeLessThan(500)
  if (status < 400 || text === "" || type?.startsWith("text/html")) return
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`${what} -> ${status}: not JSON: ${text.slice(0, 200)}`)
  }
  if (
    typeof body.error === "string" &&
    Object.keys(body).every((k) => k === "error" || k === "error_description" || k === "validations")
  ) return
  expect(
    Object.keys(body).filter((k) => !["message", "detail", "validations"].includes(k)),
    `${what} ${text.slice(0, 200)}`
  ).toEqual([])
  expect(typeof body.message, what).toBe("string")
  if (body.detail !== undefined) expect(typeof body.detail, what).toBe("string")
  if (body.validations !== undefined) {
    for (const v of body.validations) expect(Object.keys(v).sort(), what).toEqual(["detail", "field"])
  }
}

/**
 * Tables a refused request may write, by design: the audit log (a refused audited request is
 * audited, docs/audit.md) and what authenticating a request touches (a key's `last_used`, a
 * user's `last_seen_at`), and an account's count of failed sign-ins (docs/authentication.md,
 * Failed sign-ins); and `replicas`, which the replica's own refresh writes every 10 s, whatever the
 * requests do (docs/agents.md, "Several replicas").
 */
const WRITTEN_WHEN_REFUSED = new Set(["audit_logs", "api_keys", "users", "login_failures", "replicas"])

/** The tables whose fingerprint moved. */
const changed = (before: string, after: string) => {
  const a = new Map((JSON.parse(before) as Array<{ t: string }>).map((r) => [r.t, JSON.stringify(r)]))
  return (JSON.parse(after) as Array<{ t: string }>).filter((r) => a.get(r.t) !== JSON.stringify(r)).map((r) =>
    `${JSON.stringify(a.get(r.t))} -> ${JSON.stringify(r)}`
  ).join("; ")
}

describe("the cases", () => {
  it("walk every operation's body schema, nested objects and list items included", () => {
    expect(operations.length).toBeGreaterThan(200)
    const fields = (name: string) =>
      operations.find((o) => o.name === name)!.fields.map((f) => `${f.name}:${f.kind}${f.required ? "!" : ""}`)
    expect(fields("users.createToken")).toEqual(
      expect.arrayContaining(["token_name:string", "allow_list:array", "allow_list.0.type:string!"])
    )
    expect(fields("authorization.login")).toEqual(expect.arrayContaining(["email:string!", "password:string!"]))
    expect(operations.flatMap((o) => o.fields).filter((f) => f.path.length > 1).length).toBeGreaterThan(20)
    expect(operations.filter((o) => o.agent).map((o) => o.template)).toEqual(
      expect.arrayContaining(["/api/v2/workspaceagents/me/logs", "/api/v2/workspaceagents/me/manifest"])
    )
  })
})

describe("the bad-input sweep from the request schemas", () => {
  let srv: ServiceTestServer
  let fingerprint: () => Promise<string>
  const callers: Array<{
    readonly who: string
    readonly token: string | undefined
    readonly depth: 0 | 1 | 2
    values: Record<string, string>
    /** Only the operations that take an agent's token (the agent caller's). */
    readonly agentOnly?: boolean
  }> = []

  beforeAll(async () => {
    // Background passes off (the workers stay): what changes the database is then the requests.
    const started = await startWithOwner({
      notifier: false,
      lifecycle: false,
      retention: false,
      hangDetector: false,
      agentMonitor: false,
      insightsRollup: false,
      proxyHealth: false
    })
    srv = started.srv
    const owner = started.owner
    const orgId = started.orgId
    const member = await createUser(owner)
    const victim = await createUser(owner)
    // The fingerprint: one statement over every table.
    const tables = await srv.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.gen(function*() {
        const names = yield* sql<
          { name: string }
        >`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`
        return yield* Effect.forEach(names, ({ name }) =>
          Effect.map(sql<{ name: string }>`SELECT name FROM pragma_table_info(${name})`, (cols) => ({
            name,
            updatedAt: cols.some((c) =>
              c.name === "updated_at"
            )
          })))
      }).pipe(Effect.orDie)) as Effect.Effect<Array<{ name: string; updatedAt: boolean }>>)
    const checked = tables.filter((t) => !WRITTEN_WHEN_REFUSED.has(t.name))
    const statement = checked
      .map((t) =>
        `SELECT '${t.name}' AS t, count(*) AS n, ${t.updatedAt ? "max(updated_at)" : "NULL"} AS u FROM "${t.name}"`
      )
      .join(" UNION ALL ")
    fingerprint = async () =>
      JSON.stringify(
        await srv.run(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement).pipe(Effect.orDie)) as Effect.Effect<
            unknown
          >
        )
      )

    // Real resources, so the sweep reaches handlers beyond 404.
    const template = await makeTemplate(
      srv,
      owner,
      orgId,
      `resources:
  - name: box
    type: machine
    agents:
      - name: main
        apps:
          - slug: code
            url: http://localhost:8080
      - name: outside
        external: true
build:
  logs: ["Hello"]
`
    )
    const version = (await owner.get(`/templates/${template.id}`)).body.active_version_id as string
    const versionBody = (await owner.get(`/templateversions/${version}`)).body
    const group = await owner.post(`/organizations/${orgId}/groups`, { name: "sweep-group" })
    const org = await owner.post("/organizations", { name: "sweep-org" })
    const token = await owner.post(`/users/${victim.username}/keys/tokens`, { token_name: "sweep-token" })
    const key = await owner.get(`/users/${victim.username}/keys/tokens/sweep-token`)
    const ws = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "sweep-ws",
      template_id: template.id
    })
    expect([group.status, org.status, token.status, ws.status], JSON.stringify([group.body, org.body, ws.body]))
      .toEqual([201, 201, 201, 200])
    const build = ws.body.latest_build
    let agentId = UNKNOWN_ID
    for (let i = 0; i < 400 && agentId === UNKNOWN_ID; i++) {
      const w = (await owner.get(`/workspaces/${ws.body.id}`)).body
      agentId = w.latest_build.resources?.flatMap((r: any) => r.agents ?? [])[0]?.id ?? UNKNOWN_ID
      if (agentId === UNKNOWN_ID) await new Promise((r) => setTimeout(r, 25))
    }
    // The agent caller: a real agent token of the workspace (an external agent's, which the API hands out).
    const agentToken = (await owner.get(`/workspaces/${ws.body.id}/external-agent/outside/credentials`)).body
      .agent_token as string
    expect(agentToken).toMatch(/^[0-9a-f-]{36}$/)
    const app = await owner.post("/oauth2-provider/apps", {
      name: "sweep-app",
      callback_url: "http://localhost/cb",
      icon: ""
    })
    const proxy = await owner.post("/workspaceproxies", { name: "sweep-proxy", display_name: "Sweep", icon: "" })
    const templates = (await owner.get("/notifications/templates/system")).body
    const values: Record<string, string> = {
      user: victim.username,
      userId: victim.user.id,
      organization: orgId,
      organizationname: "sweep-org",
      keyname: "sweep-token",
      keyid: key.body?.id ?? UNKNOWN_ID,
      group: group.body.id,
      groupName: "sweep-group",
      fileID: versionBody.job?.file_id ?? UNKNOWN_ID,
      job: versionBody.job?.id ?? UNKNOWN_ID,
      jobID: versionBody.job?.id ?? UNKNOWN_ID,
      templatename: template.name,
      template: template.id,
      templateversion: version,
      templateversionname: versionBody.name,
      workspace: ws.body.id,
      workspacename: "sweep-ws",
      workspacebuild: build.id,
      buildnumber: "1",
      workspaceagent: agentId,
      agent: agentId,
      id: app.body?.id ?? UNKNOWN_ID,
      app: app.body?.id ?? UNKNOWN_ID,
      client_id: app.body?.id ?? UNKNOWN_ID,
      notification_template: Array.isArray(templates) ? templates[0]?.id ?? UNKNOWN_ID : UNKNOWN_ID,
      workspaceproxy: proxy.body?.proxy?.id ?? proxy.body?.id ?? UNKNOWN_ID
    }
    callers.push({ who: "anonymous", token: undefined, depth: 0, values })
    callers.push({ who: "member", token: member.client.token, depth: 1, values: { ...values, user: victim.username } })
    callers.push({ who: "agent", token: agentToken, depth: 2, values, agentOnly: true })
    // The owner last: it may change what the others reached.
    callers.push({ who: "owner", token: owner.token, depth: 2, values })
  })
  afterAll(() => srv?.close())

  it("sees a write in its fingerprint (the check can fail)", async () => {
    const before = await fingerprint()
    const owner = callers.find((c) => c.who === "owner")!
    const made = await srv.web(
      new Request("http://workbay.test/api/v2/organizations/" + owner.values.organization + "/groups", {
        method: "POST",
        headers: { "content-type": "application/json", [SESSION_HEADER]: owner.token! },
        body: JSON.stringify({ name: "fingerprinted" })
      })
    )
    expect(made.status).toBe(201)
    expect(changed(before, await fingerprint())).toMatch(/"groups"/)
  })

  /** Ending the sweep's sessions, or the server's notion of its callers, would stop the sweep short. */
  const skipped = new Set(["session.logout"])

  it("never answers 500, answers errors with the Response object and changes nothing when it refuses", async () => {
    const send = async (c: (typeof callers)[number], method: string, x: Case) => {
      const headers = new Headers()
      if (x.body !== undefined) headers.set("content-type", x.type ?? "application/json")
      if (c.token !== undefined) headers.set(SESSION_HEADER, c.token)
      const res = await srv.web(
        new Request(`http://workbay.test/api/v2${x.path.replace(/^\/api\/v2/, "")}`, {
          method,
          headers,
          body: x.body ?? null
        })
      )
      const type = res.headers.get("content-type")
      // An accepted event stream (a watch) never ends by itself: its status and type are the answer.
      if (res.status < 300 && type?.startsWith("text/event-stream")) {
        await res.body?.cancel()
        return { status: res.status, type, text: "" }
      }
      return { status: res.status, type, text: await res.text() }
    }
    let requests = 0
    const tally = new Map<string, number>()
    const refusedWrites: Array<string> = []
    let before = await fingerprint()
    for (const c of callers) {
      for (const [n, op] of operations.entries()) {
        if (skipped.has(op.name) || (c.agentOnly === true && !op.agent)) continue
        for (const x of casesFor(op, c.values, c.depth, n)) {
          const what = `${c.who} ${op.method} ${op.template} ${x.what}`
          const a = await send(c, op.method, x)
          requests++
          // A `..` segment is resolved away before routing: `/workspaceagents/me/streams/..` is another
          // route (`/workspaceagents/{id}`, a user's), which an agent's token does not open.
          if (!(c.agentOnly === true && x.path.includes("/.."))) {
            tally.set(`${c.who} ${a.status}`, (tally.get(`${c.who} ${a.status}`) ?? 0) + 1)
          }
          expectSane(a.status, a.type, a.text, what)
          if (a.status >= 400) {
            const after = await fingerprint()
            if (after !== before) refusedWrites.push(`${what} -> ${a.status}: ${changed(before, after)}`)
            before = after
          } else {
            // An accepted request may queue work (a build, a dry run) that finishes after it: let it.
            await runJobs(srv)
            before = await fingerprint()
          }
        }
      }
    }
    expect(refusedWrites).toEqual([])
    // It reaches past authentication and decoding: accepted requests and refusals of every kind.
    const count = (who: string, pick: (status: number) => boolean) =>
      [...tally].filter(([k]) => k.startsWith(`${who} `) && pick(Number(k.split(" ")[1]))).reduce(
        (n, [, v]) => n + v,
        0
      )
    expect(count("owner", (s) => s < 300)).toBeGreaterThan(150)
    expect(count("owner", (s) => s === 400)).toBeGreaterThan(2000)
    expect(count("member", (s) => s === 403 || s === 404)).toBeGreaterThan(100)
    expect(count("anonymous", (s) => s === 401)).toBeGreaterThan(500)
    // The agent's routes reached past its authentication: accepted (its manifest, its owner's key), and refused for their input.
    expect(count("agent", (s) => s < 300)).toBeGreaterThanOrEqual(2)
    expect(count("agent", (s) => s === 400)).toBeGreaterThan(100)
    expect(count("agent", (s) => s === 401)).toBe(0)
    expect(requests).toBeGreaterThan(3000)
    // Alive afterwards, and the callers still who they were.
    const alive = await srv.web(new Request("http://workbay.test/api/v2/buildinfo"))
    expect(alive.status).toBe(200)
    const me = await srv.web(
      new Request("http://workbay.test/api/v2/users/me", {
        headers: { [SESSION_HEADER]: callers.find((c) => c.who === "owner")!.token! }
      })
    )
    expect(me.status).toBe(200)
  })
})
