/**
 * Black-box test support: a real server on a random port over real storage,
 * and a small fetch client. Every test file starts its own server.
 */
import { MailSender } from "@workbay/core"
import { makeWorkbay, type WebHandler, type WorkbayOptions, type WorkbayServices } from "@workbay/http"
import type { StoragePorts } from "@workbay/storage-sql"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect, Layer } from "effect"
import { execFileSync } from "node:child_process"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"
import type { SocketRelayOptions } from "../src/SocketRelay.js"

export interface Reply<T = any> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

export const SESSION_HEADER = "Service-Session-Token"
export const STRONG_PASSWORD = "Correct-Horse-Battery-9"
/** A well-formed id that no row has. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-00000000abcd"

export class Client {
  constructor(readonly baseUrl: string, readonly token?: string) {}

  /** The same client with another token (or none). */
  as(token: string | undefined) {
    return new Client(this.baseUrl, token)
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    init: { headers?: Record<string, string>; raw?: string } = {}
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...init.headers }
    if (this.token !== undefined) headers[SESSION_HEADER] = this.token
    let payload: string | undefined
    if (init.raw !== undefined) payload = init.raw
    else if (body !== undefined) payload = JSON.stringify(body)
    if (payload !== undefined) headers["content-type"] ??= "application/json"
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload ?? null, redirect: "manual" })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      // Not JSON: tests assert on the text.
    }
    return { status: res.status, body: parsed as T, headers: res.headers }
  }

  get<T = any>(path: string) {
    return this.request<T>("GET", path)
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>("POST", path, body)
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>("PUT", path, body)
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>("PATCH", path, body)
  }
  delete<T = any>(path: string, body?: unknown) {
    return this.request<T>("DELETE", path, body)
  }
}

export interface TestServer {
  readonly url: string
  /** The same origin as `ws://`, for WebSocket routes. */
  readonly wsUrl: string
  /** A client with no token, for `/api/v2` paths. */
  readonly anonymous: Client
  readonly server: Server
  readonly close: () => Promise<void>
}

/** A test server whose services tests can also reach in-process (to seed what no route makes yet). */
export interface ServiceTestServer extends TestServer {
  /** Runs an effect on the server's own runtime: the same storage and services as its routes. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, WorkbayServices>) => Promise<A>
  /** The same service's Fetch handler (`workbay.web`), called in-process. */
  readonly web: WebHandler
  /** The server's open WebSockets: how many, and the bytes they hold unsent. */
  readonly webSockets: { readonly size: () => number; readonly bufferedBytes: () => number }
}

/**
 * `web` answering in turn with the event loop: an in-process request never waits on I/O, so a
 * sweep of thousands of them is one chain of promises that holds the worker's event loop, and
 * vitest's worker-to-runner calls time out after 60 s on a busy machine (docs/testing.md, "A busy
 * machine"). Each answer waits for the loop's next turn (`setImmediate`, after I/O is read).
 */
export const inTurn = (web: WebHandler): WebHandler => async (request, info) => {
  const response = await web(request, info)
  await new Promise((resolve) => setImmediate(resolve))
  return response
}

/**
 * The socket relay (src/SocketRelay.ts) run from its TypeScript source, as tests start it
 * (`HttpOptions.streamRelay`); the standalone server runs its bundle.
 */
export const socketRelayFromSource: SocketRelayOptions = {
  script: fileURLToPath(new URL("../src/SocketRelayMain.ts", import.meta.url)),
  execArgv: ["--import", "tsx"]
}

/** The pids of the socket relays this process started from source (`socketRelayFromSource`). */
export const socketRelayPids = (): Array<number> => {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid), "-f", "SocketRelayMain"], { encoding: "utf8" })
      .split("\n").filter((line) => line !== "").map(Number)
  } catch {
    return []
  }
}

/** The service's options, and its storage (a fresh in-memory SQLite unless given). */
export type TestServerOptions = WorkbayOptions & {
  readonly storage?: Layer.Layer<StoragePorts, unknown>
  /** The server registers its own URL as its relay address (the other replicas relay to it; docs/agents.md, "Several replicas"). */
  readonly relayToHere?: boolean
}

/** Like `startTestServer`, with `run` to reach the server's services (e.g. AuditLogs.connect, repositories). */
export const startServiceTestServer = async (options: TestServerOptions = {}): Promise<ServiceTestServer> => {
  // Listening first, so the deployment's access URL (what agents are told to reach) is this server's.
  // As the standalone server (Server.ts): an idle connection outlives the client's keep-alive (undici
  // keeps one 4 s), so a request never goes out on a socket the server is closing (ECONNRESET when a
  // busy machine delays both timers).
  const server = createServer({ keepAliveTimeout: 65_000 })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const workbay = await makeWorkbay(options.storage ?? Sqlite.layerMemory, {
    passwordHashCost: 4,
    ...options,
    // Rate limits off unless a test turns them on (RateLimit.test.ts): tests sign in and upload far more than a person.
    http: { rateLimits: false, ...options.http },
    settings: {
      accessUrl: url,
      ...(options.relayToHere === true ? { derpServerRelayUrl: url } : {}),
      ...options.settings
    }
  })
  workbay.attach(server)
  return {
    url,
    wsUrl: url.replace("http:", "ws:"),
    anonymous: new Client(`${url}/api/v2`),
    server,
    run: workbay.run,
    web: inTurn(workbay.web),
    webSockets: workbay.webSockets,
    close: async () => {
      await workbay.closeWebSockets()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await workbay.dispose()
    }
  }
}

/** Starts the service on a random port. Storage defaults to a fresh in-memory SQLite. */
export const startTestServer = (options: TestServerOptions = {}): Promise<TestServer> => startServiceTestServer(options)

/** Logs in (POST /users/login) through `client`'s server; the same client with the session token. */
export const sessionClient = async (client: Client, email: string, password = STRONG_PASSWORD) => {
  const r = await client.as(undefined).post("/users/login", { email, password })
  if (r.status !== 201) throw new Error(`login: ${r.status} ${JSON.stringify(r.body)}`)
  return client.as(r.body.session_token as string)
}

/** Creates the first user (owner) and returns a client logged in as them. */
export const bootstrapOwner = async (srv: TestServer, username = "admin") => {
  const email = `${username}@example.com`
  const first = await srv.anonymous.post("/users/first", { email, username, password: STRONG_PASSWORD })
  if (first.status !== 201) throw new Error(`first user: ${first.status} ${JSON.stringify(first.body)}`)
  return {
    client: await sessionClient(srv.anonymous, email),
    userId: first.body.user_id as string,
    organizationId: first.body.organization_id as string
  }
}

/**
 * Starts a server (with `run`, see `startServiceTestServer`) and creates its owner: the server,
 * the owner's client, the owner's id and the default organization's id. For a `beforeAll`:
 * `;({ srv, owner } = await startWithOwner())`.
 */
export const startWithOwner = async (options: TestServerOptions = {}) => {
  const srv = await startServiceTestServer(options)
  try {
    const boot = await bootstrapOwner(srv)
    return { srv, owner: boot.client, ownerId: boot.userId, orgId: boot.organizationId }
  } catch (e) {
    await srv.close()
    throw e
  }
}

let counter = 0
/** Creates a user through the API (as `owner`) and returns a client logged in as them. */
export const createUser = async (
  owner: Client,
  init: { username?: string; roles?: Array<string>; organization_ids?: Array<string> } = {}
) => {
  const username = init.username ?? `user${++counter}t${Date.now() % 100000}`
  const email = `${username}@example.com`
  const created = await owner.post("/users", {
    email,
    username,
    password: STRONG_PASSWORD,
    ...(init.roles ? { roles: init.roles } : {}),
    ...(init.organization_ids ? { organization_ids: init.organization_ids } : {})
  })
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${JSON.stringify(created.body)}`)
  return { client: await sessionClient(owner, email), user: created.body, username, email }
}

/** A user made by `createUser`: their client, the User body, username and email. */
export type TestUser = Awaited<ReturnType<typeof createUser>>

let nameCounter = 0
/**
 * A name no other test used: the prefix, then a base-36 counter and clock, at most 9 characters, so that
 * a 23-character prefix still fits the 32-character name limits, however many files share this module
 * (the suite runs files without isolation: vitest.shared.ts).
 */
export const uniqueName = (prefix: string) =>
  `${prefix}-${(++nameCounter).toString(36)}-${(Date.now() % 1_000_000).toString(36)}`

/** One mail the service sent. */
export interface SentMail {
  readonly to: string
  readonly subject: string
  readonly body: string
}

/** A `mail` layer for startTestServer that keeps every mail, for reading one-time passcodes. */
export const captureMail = () => {
  const sent: Array<SentMail> = []
  const layer = Layer.succeed(MailSender, { send: (mail) => Effect.sync(() => void sent.push({ ...mail })) })
  /** The one-time passcode (a UUID) of the latest mail to `to`, if any. */
  const passcodeFor = (to: string): string | undefined => {
    const mail = sent.filter((m) => m.to === to).at(-1)
    return mail?.body.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i)?.[0]
  }
  return { sent, layer, passcodeFor }
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** Asserts `r` is a Response object (`{message, detail?, validations?}`) with `status`. */
export const expectResponse = (r: Reply, status: number) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status)
  expect(typeof r.body?.message).toBe("string")
  expect(r.body.message.length).toBeGreaterThan(0)
  if (r.body.detail !== undefined) expect(typeof r.body.detail).toBe("string")
}

/** Asserts a 400 Response whose validations name exactly `fields`, one entry per field. */
export const expectValidations = (r: Reply, fields: ReadonlyArray<string>, status = 400) => {
  expectResponse(r, status)
  const validations = r.body.validations as Array<{ field: string; detail: string }>
  expect(Array.isArray(validations), JSON.stringify(r.body)).toBe(true)
  expect(validations.map((v) => v.field).sort()).toEqual([...fields].sort())
  for (const v of validations) {
    expect(typeof v.detail).toBe("string")
    expect(v.detail.length).toBeGreaterThan(0)
  }
}

/** Logs in; the reply carries `session_token` on success (see `sessionClient` for a logged-in client). */
export const login = (srv: TestServer, email: string, password = STRONG_PASSWORD) =>
  srv.anonymous.post("/users/login", { email, password })

/** An ISO 8601 timestamp string that parses to a real date. */
export const expectIsoDate = (value: unknown) => {
  expect(typeof value).toBe("string")
  expect(value as string).toMatch(ISO_DATE_PATTERN)
  expect(Number.isNaN(Date.parse(value as string))).toBe(false)
}

/** Bodies no endpoint should answer with a 500: wrong JSON types, broken JSON, wrong field types, odd keys. */
export const JUNK_BODIES: ReadonlyArray<string> = [
  "null",
  "[]",
  "0",
  "\"text\"",
  "{\"unterminated\":",
  "{}",
  JSON.stringify({
    email: { nested: true },
    password: ["x"],
    username: 7,
    name: null,
    schedule: "\u0000",
    token_name: "\u00e9",
    lifetime: -0,
    to_type: null,
    one_time_passcode: [],
    roles: [null],
    organization_ids: null,
    terminal_font: null,
    scopes: "all",
    allow_list: [{}],
    login_type: 1,
    user_status: true
  }),
  "{\"__proto__\":{\"polluted\":1},\"constructor\":{\"prototype\":1}}"
]

/** Sends every junk body (or none, for GET and DELETE) to each route and asserts no answer is a 5xx. */
export const expectNoServerErrors = async (client: Client, routes: ReadonlyArray<readonly [string, string]>) => {
  for (const [method, path] of routes) {
    const bodies = method === "GET" || method === "DELETE" ? [undefined] : JUNK_BODIES
    for (const raw of bodies) {
      const r = await client.request(method, path, undefined, raw === undefined ? {} : { raw })
      expect(r.status, `${method} ${path} ${raw ?? ""} -> ${JSON.stringify(r.body)}`).toBeLessThan(500)
      expect(typeof r.body === "object" || r.body === undefined).toBe(true)
    }
  }
}

/** Creates an API token as `client` for itself (POST /users/me/keys/tokens); a client using it. */
export const tokenClient = async (client: Client, body: Record<string, unknown> = {}) => {
  const r = await client.post("/users/me/keys/tokens", body)
  if (r.status !== 201) throw new Error(`create token: ${r.status} ${JSON.stringify(r.body)}`)
  return client.as(r.body.key as string)
}

/** Creates an organization as `owner`; answers its body. */
export const createOrganization = async (owner: Client, name = uniqueName("org")) => {
  const r = await owner.post("/organizations", { name })
  if (r.status !== 201) throw new Error(`create organization: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body as { id: string; name: string }
}

/** Makes `userId` a member of `orgId` (when not yet) with the organization roles `roles`, as `owner`. */
export const addMemberWithRoles = async (
  owner: Client,
  orgId: string,
  userId: string,
  roles: ReadonlyArray<string> = []
) => {
  const added = await owner.post(`/organizations/${orgId}/members/${userId}`)
  if (added.status !== 200 && added.status !== 409) {
    throw new Error(`add member: ${added.status} ${JSON.stringify(added.body)}`)
  }
  const r = await owner.put(`/organizations/${orgId}/members/${userId}/roles`, { roles })
  if (r.status !== 200) throw new Error(`member roles: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}
