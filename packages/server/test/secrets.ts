/**
 * Test support: every kind of secret the service issues, issued through the API of a running
 * server, and requests that carry them (headers, query, cookies, bodies; failing ones too). The
 * log test and the secrets-at-rest test search for each value. A new kind of secret is one more
 * entry of `issuers`.
 */
import { randomBytes } from "node:crypto"
import { startSmtp } from "../../http/test/notifications/fixtures.js"
import { codeFrom, consent, REDIRECT, register, tokenPost } from "../../http/test/oauth2/fixtures.js"
import { call, makeTemplate, until } from "./workload.js"

const SESSION_HEADER = "Service-Session-Token"

export type Smtp = Awaited<ReturnType<typeof startSmtp>>
export { startSmtp }

/** The server flags that send its mail to `smtp`, quickly. */
export const mailFlags = (smtp: Smtp) => [
  "--email-smarthost",
  smtp.smarthost,
  "--email-from",
  "workbay@example.com",
  "--notifications-fetch-interval",
  "100ms"
]

/** One issued secret: what it is and its value. */
export interface PlantedSecret {
  readonly kind: string
  readonly value: string
}

/** What issuers share: the server's root URL, and the owner's email and session once made. */
interface Planting {
  readonly url: string
  readonly email: string
  /** The text of every mail the server sent so far. */
  readonly mails: () => ReadonlyArray<string>
  session: string
  readonly secrets: Array<PlantedSecret>
}

const api = async (p: Planting, method: string, path: string, body?: unknown, token = p.session) => {
  const res = await fetch(`${p.url}/api/v2${path}`, {
    method,
    headers: { "content-type": "application/json", [SESSION_HEADER]: token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return text === "" ? undefined : JSON.parse(text)
}

/** Each kind of secret, issued in order (later ones may use what earlier ones made). */
const issuers: ReadonlyArray<readonly [string, (p: Planting) => Promise<ReadonlyArray<string>>]> = [
  ["password", async (p) => {
    const password = `Planted-Pw-${randomBytes(9).toString("hex")}`
    const made = await fetch(`${p.url}/api/v2/users/first`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: p.email, username: "admin", password })
    })
    if (made.status !== 201) throw new Error(`first user: ${made.status} ${await made.text()}`)
    const login = await fetch(`${p.url}/api/v2/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: p.email, password })
    })
    p.session = ((await login.json()) as { session_token: string }).session_token
    return [password]
  }],
  ["session token", async (p) => [p.session]],
  ["API key", async (p) => [(await api(p, "POST", "/users/me/keys")).key]],
  ["long-lived token", async (p) => [(await api(p, "POST", "/users/me/keys/tokens", { token_name: "planted" })).key]],
  ["one-time passcode", async (p) => {
    // The passcode goes out by mail through the notifier, to the test's SMTP server.
    await api(p, "POST", "/users/otp/request", { email: p.email })
    for (let i = 0; i < 200; i++) {
      const found = p.mails().map((m) => /passcode[^:]*:\s*([0-9a-f-]{36})/i.exec(m)).find((m) => m !== null)
      if (found) return [found[1]!]
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error("the one-time passcode was never mailed")
  }],
  ["OAuth2 app client secret", async (p) => {
    const app = await api(p, "POST", "/oauth2-provider/apps", {
      name: `planted-${randomBytes(3).toString("hex")}`,
      callback_url: REDIRECT
    })
    return [(await api(p, "POST", `/oauth2-provider/apps/${app.id}/secrets`)).client_secret_full]
  }],
  ["OAuth2 registration, code and tokens", async (p) => {
    const reg = await register(p.url, { client_name: "Planted Client", redirect_uris: [REDIRECT] })
    const res = await consent(p.url, p.session, {
      client_id: reg.client_id,
      response_type: "code",
      redirect_uri: REDIRECT,
      state: "planted"
    })
    const code = (await codeFrom(res)).searchParams.get("code")!
    const basic = `Basic ${Buffer.from(`${reg.client_id}:${reg.client_secret}`).toString("base64")}`
    const tokens = await (await tokenPost(p.url, { grant_type: "authorization_code", code, redirect_uri: REDIRECT }, {
      authorization: basic
    })).json() as {
      access_token: string
      refresh_token: string
    }
    if (typeof tokens.access_token !== "string") throw new Error(`token exchange: ${JSON.stringify(tokens)}`)
    return [reg.client_secret, reg.registration_access_token, code, tokens.access_token, tokens.refresh_token]
  }],
  ["agent token", async (p) => {
    const yaml =
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n        external: true\n"
    const { orgId, templateId } = await makeTemplate(p.url, p.session, yaml)
    const ws = await api(p, "POST", `/organizations/${orgId}/members/me/workspaces`, {
      name: "planted",
      template_id: templateId
    })
    const built = await until(
      () => call(p.url, p.session, "GET", `/workspaces/${ws.id}`),
      (r) => r.body.latest_build.job.status === "succeeded"
    )
    if (built.body.latest_build.job.status !== "succeeded") {
      throw new Error(`agent build: ${JSON.stringify(built.body.latest_build.job)}`)
    }
    return [(await api(p, "GET", `/workspaces/${ws.id}/external-agent/main/credentials`)).agent_token]
  }],
  ["workspace proxy token", async (p) => {
    const made = await api(p, "POST", "/workspaceproxies", {
      name: `planted-${randomBytes(3).toString("hex")}`,
      display_name: "Planted",
      icon: "/emojis/1f1e9.png"
    })
    return [made.proxy_token]
  }],
  ["provisioner key", async (p) => {
    const org = (await api(p, "GET", "/organizations"))[0].id
    return [
      (await api(p, "POST", `/organizations/${org}/provisionerkeys`, {
        name: `planted-${randomBytes(3).toString("hex")}`
      })).key
    ]
  }]
]

/**
 * Creates the first user on the fresh server at `url` and issues every kind of secret. The
 * server mails through `smtp` (start it with {@link mailFlags}).
 */
export const plantSecrets = async (
  url: string,
  smtp: Smtp
): Promise<{ session: string; secrets: ReadonlyArray<PlantedSecret> }> => {
  const p: Planting = {
    url,
    email: "planted@example.com",
    mails: () => smtp.mails.map((m) => m.text),
    session: "",
    secrets: []
  }
  for (const [kind, issue] of issuers) {
    for (const value of await issue(p)) {
      if (typeof value !== "string" || value.length < 8) throw new Error(`${kind}: no secret issued (${String(value)})`)
      p.secrets.push({ kind, value })
    }
  }
  return { session: p.session, secrets: p.secrets }
}

/**
 * Requests carrying each secret where clients put them: the session header, `Authorization`,
 * the cookie, the query, JSON and form bodies; valid ones and refused ones (a wrong value, a
 * wrong route). Answers the statuses (none may be 500 or more).
 */
export const carrySecrets = async (
  url: string,
  secrets: ReadonlyArray<PlantedSecret>
): Promise<ReadonlyArray<number>> => {
  const statuses: Array<number> = []
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${url}${path}`, { redirect: "manual", ...init })
    await res.arrayBuffer()
    statuses.push(res.status)
  }
  for (const { value } of secrets) {
    const q = encodeURIComponent(value)
    await send("/api/v2/users/me", { headers: { [SESSION_HEADER]: value } })
    await send("/api/v2/users/me", { headers: { authorization: `Bearer ${value}` } })
    await send("/api/v2/users/me", { headers: { cookie: `service_session_token=${value}` } })
    await send(`/api/v2/users/me?session_token=${q}&token=${q}&code=${q}`, {
      headers: { [SESSION_HEADER]: `${value}x` }
    })
    await send(`/api/v2/no-such-route?token=${q}`)
    await send("/api/v2/users/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "planted@example.com", password: value })
    })
    await send("/api/v2/users/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"password":"${value}"`
    })
    await send("/oauth2/tokens", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`x:${value}`).toString("base64")}`
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: value, client_secret: value }).toString()
    })
  }
  return statuses
}
