/**
 * A local OAuth2 provider for the external auth tests: a real HTTP server speaking GitHub's
 * documented OAuth endpoints (authorize, access_token with the code, refresh and device grants,
 * the device code endpoint, `GET /user`, `GET /user/installations`, the grant deletion) and the
 * RFC forms a generic provider uses (`/oauth/authorize`, `/oauth/token`, `/oauth/revoke`).
 * Refresh tokens rotate on use; a used one is refused (`invalid_grant`). PKCE (S256) is checked
 * when the authorize request carried a challenge.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface IssuedToken {
  readonly access: string
  readonly refresh: string
  readonly clientId: string
  readonly login: string
  revoked: boolean
}

export interface ProviderServer {
  readonly url: string
  /** Who signs in at the authorize page (the "browser user" of the next authorize request). */
  login: string
  /** `expires_in` of issued tokens (0: no expiry, as GitHub OAuth apps). */
  expiresIn: number
  readonly tokens: Map<string, IssuedToken>
  /** Refresh tokens handed in, in order (used ones included). */
  readonly refreshes: Array<string>
  /** Revocations received: the token and how (github: DELETE grant; rfc7009: POST). */
  readonly revocations: Array<{ readonly token: string; readonly kind: "github" | "rfc7009" }>
  /** Approves the device flow whose user code is `userCode`, as `login`. */
  readonly approveDevice: (userCode: string, login: string) => void
  /** Every request's method and path, for checks on what was called. */
  readonly requests: Array<string>
  readonly close: () => Promise<void>
}

const CLIENTS: Readonly<Record<string, string>> = {
  "gh-client": "gh-secret",
  "gh-device": "",
  "corp-client": "corp-secret"
}

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = ""
    req.on("data", (c) => (s += c))
    req.on("end", () => resolve(s))
  })

export const startProvider = async (): Promise<ProviderServer> => {
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; login: string }>()
  const devices = new Map<string, { clientId: string; userCode: string; login: string | undefined }>()
  const tokens = new Map<string, IssuedToken>()
  const byRefresh = new Map<string, IssuedToken>()
  const refreshes: Array<string> = []
  const revocations: ProviderServer["revocations"] = []
  const requests: Array<string> = []

  const issue = (clientId: string, login: string): IssuedToken => {
    const t: IssuedToken = { access: token("gho"), refresh: token("ghr"), clientId, login, revoked: false }
    tokens.set(t.access, t)
    byRefresh.set(t.refresh, t)
    return t
  }

  const send = (res: ServerResponse, status: number, body: unknown, asForm = false) => {
    if (asForm && typeof body === "object" && body !== null) {
      res.writeHead(status, { "content-type": "application/x-www-form-urlencoded" })
      return res.end(new URLSearchParams(body as Record<string, string>).toString())
    }
    res.writeHead(status, { "content-type": "application/json" })
    res.end(JSON.stringify(body))
  }

  const tokenAnswer = (t: IssuedToken) => ({
    access_token: t.access,
    token_type: "bearer",
    scope: "repo,workflow",
    refresh_token: t.refresh,
    ...(state.expiresIn > 0 ? { expires_in: state.expiresIn } : {})
  })

  const bearer = (req: IncomingMessage) => {
    const h = req.headers.authorization ?? ""
    const t = h.startsWith("Bearer ") ? tokens.get(h.slice(7)) : undefined
    return t !== undefined && !t.revoked ? t : undefined
  }

  const clientOk = (id: string, secret: string | null) =>
    id in CLIENTS && (CLIENTS[id] === "" || CLIENTS[id] === secret)

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://provider")
    requests.push(`${req.method} ${url.pathname}`)
    const wantsJson = (req.headers.accept ?? "").includes("json")
    // The authorize page: the signed-in provider user allows at once.
    if (req.method === "GET" && (url.pathname === "/login/oauth/authorize" || url.pathname === "/oauth/authorize")) {
      const q = url.searchParams
      const clientId = q.get("client_id") ?? ""
      const redirect = q.get("redirect_uri") ?? ""
      if (!(clientId in CLIENTS) || q.get("response_type") !== "code" || redirect === "") {
        return send(res, 400, { error: "invalid_request" })
      }
      const code = token("code")
      codes.set(code, { clientId, redirectUri: redirect, challenge: q.get("code_challenge") ?? "", login: state.login })
      const back = new URL(redirect)
      back.searchParams.set("code", code)
      back.searchParams.set("state", q.get("state") ?? "")
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (req.method === "POST" && url.pathname === "/login/device/code") {
      // RFC 8628 section 3.1: the client's id comes in the form body.
      const clientId = new URLSearchParams(await readBody(req)).get("client_id") ?? ""
      if (!(clientId in CLIENTS)) {
        return send(res, 400, { error: "invalid_client", error_description: "Unknown client." })
      }
      const deviceCode = token("dev")
      const userCode = randomBytes(4).toString("hex").toUpperCase()
      devices.set(deviceCode, { clientId, userCode, login: undefined })
      return send(res, 200, {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: `${state.url}/login/device`,
        expires_in: 900,
        interval: 5
      })
    }
    if (req.method === "POST" && (url.pathname === "/login/oauth/access_token" || url.pathname === "/oauth/token")) {
      const body = new URLSearchParams(await readBody(req))
      const p = (k: string) => body.get(k) ?? url.searchParams.get(k)
      const grant = p("grant_type")
      const clientId = p("client_id") ?? ""
      if (grant === "urn:ietf:params:oauth:grant-type:device_code") {
        const d = devices.get(p("device_code") ?? "")
        if (d === undefined || d.clientId !== clientId) {
          return send(res, 200, { error: "incorrect_device_code" }, !wantsJson)
        }
        if (d.login === undefined) {
          return send(res, 200, {
            error: "authorization_pending",
            error_description: "The user has not entered the code yet."
          }, !wantsJson)
        }
        devices.delete(p("device_code")!)
        return send(res, 200, tokenAnswer(issue(clientId, d.login)), !wantsJson)
      }
      if (!clientOk(clientId, p("client_secret"))) return send(res, 401, { error: "invalid_client" })
      if (grant === "authorization_code") {
        const c = codes.get(p("code") ?? "")
        codes.delete(p("code") ?? "")
        if (c === undefined || c.clientId !== clientId || c.redirectUri !== p("redirect_uri")) {
          // GitHub answers a bad code with 200 and an error.
          return send(res, 200, {
            error: "bad_verification_code",
            error_description: "The code passed is incorrect or expired."
          }, !wantsJson)
        }
        if (c.challenge !== "") {
          const verifier = p("code_verifier") ?? ""
          if (createHash("sha256").update(verifier).digest("base64url") !== c.challenge) {
            return send(res, 400, { error: "invalid_grant", error_description: "PKCE verification failed." })
          }
        }
        return send(res, 200, tokenAnswer(issue(clientId, c.login)), !wantsJson)
      }
      if (grant === "refresh_token") {
        const r = p("refresh_token") ?? ""
        refreshes.push(r)
        const old = byRefresh.get(r)
        if (old === undefined || old.clientId !== clientId) {
          return send(res, 400, { error: "invalid_grant", error_description: "The refresh token is invalid." })
        }
        byRefresh.delete(r)
        old.revoked = true
        return send(res, 200, tokenAnswer(issue(clientId, old.login)), !wantsJson)
      }
      return send(res, 400, { error: "unsupported_grant_type" })
    }
    if (req.method === "GET" && url.pathname === "/user") {
      const t = bearer(req)
      if (t === undefined) return send(res, 401, { message: "Bad credentials" })
      return send(res, 200, {
        id: 4242,
        login: t.login,
        name: `${t.login} Name`,
        avatar_url: `${state.url}/avatars/${t.login}`,
        html_url: `${state.url}/${t.login}`
      })
    }
    if (req.method === "GET" && url.pathname === "/user/installations") {
      const t = bearer(req)
      if (t === undefined) return send(res, 401, { message: "Bad credentials" })
      return send(res, 200, {
        total_count: 1,
        installations: [{
          id: 7,
          html_url: `${state.url}/settings/installations/7`,
          account: { id: 99, login: "acme", name: "Acme", avatar_url: "", html_url: `${state.url}/acme` }
        }]
      })
    }
    const grant = /^\/applications\/([^/]+)\/grant$/.exec(url.pathname)
    if (req.method === "DELETE" && grant !== null) {
      const auth = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString()
      if (auth !== `${grant[1]}:${CLIENTS[grant[1]!] ?? "?"}`) return send(res, 401, { message: "Bad credentials" })
      const { access_token } = JSON.parse(await readBody(req)) as { access_token: string }
      const t = tokens.get(access_token)
      if (t !== undefined) t.revoked = true
      revocations.push({ token: access_token, kind: "github" })
      res.writeHead(204)
      return res.end()
    }
    if (req.method === "POST" && url.pathname === "/oauth/revoke") {
      const body = new URLSearchParams(await readBody(req))
      const t = tokens.get(body.get("token") ?? "") ?? byRefresh.get(body.get("token") ?? "")
      if (t !== undefined) t.revoked = true
      revocations.push({ token: body.get("token") ?? "", kind: "rfc7009" })
      return send(res, 200, {})
    }
    send(res, 404, { message: "Not Found" })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const state: ProviderServer = {
    url,
    login: "octocat",
    expiresIn: 0,
    tokens,
    refreshes,
    revocations,
    requests,
    approveDevice: (userCode, login) => {
      for (const d of devices.values()) if (d.userCode === userCode) d.login = login
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  return state
}

/** The providers of the tests, on the local provider at `url`: GitHub (web flow), GitHub (device flow), a generic one, GitLab. */
export const providerSettings = (url: string) => [
  {
    type: "github",
    id: "github",
    client_id: "gh-client",
    client_secret: "gh-secret",
    auth_url: `${url}/login/oauth/authorize`,
    token_url: `${url}/login/oauth/access_token`,
    validate_url: `${url}/user`,
    app_installations_url: `${url}/user/installations`,
    revoke_url: `${url}/applications/gh-client/grant`,
    regex: "^(https?://)?github\\.example(/.*)?$"
  },
  {
    type: "github",
    id: "gh-device",
    client_id: "gh-device",
    device_flow: true,
    device_code_url: `${url}/login/device/code`,
    token_url: `${url}/login/oauth/access_token`,
    validate_url: `${url}/user`,
    app_installations_url: `${url}/user/installations`,
    revoke_url: `${url}/applications/gh-device/grant`,
    regex: "^https://device\\.example/"
  },
  {
    type: "generic",
    id: "corp",
    client_id: "corp-client",
    client_secret: "corp-secret",
    display_name: "Corp Git",
    auth_url: `${url}/oauth/authorize`,
    token_url: `${url}/oauth/token`,
    validate_url: `${url}/user`,
    revoke_url: `${url}/oauth/revoke`,
    regex: "^https://git\\.corp\\.example/",
    extra_token_keys: ["scope", "token_type"],
    code_challenge_methods_supported: []
  },
  // GitLab's defaults made from a self-hosted auth URL (token and revoke URLs, the host regex).
  {
    type: "gitlab",
    id: "gitlab",
    client_id: "corp-client",
    client_secret: "corp-secret",
    auth_url: `${url}/oauth/authorize`,
    validate_url: `${url}/user`
  }
]

/** The cookies of a response, as a Cookie header (cleared ones left out). */
export const cookiesOf = (headers: Headers) =>
  headers.getSetCookie().map((c) => c.split(";")[0]!).filter((c) => !c.endsWith("=")).join("; ")

/**
 * The whole web flow as a browser makes it, with `client` (a session on the server at
 * `serverUrl`): the start (307 to the provider), the provider's authorize page (302 back), the
 * callback with the flow's cookies.
 */
export const linkThroughBrowser = async (
  provider: ProviderServer,
  serverUrl: string,
  client: {
    request: (
      method: string,
      path: string,
      body?: unknown,
      init?: { headers?: Record<string, string> }
    ) => Promise<{ status: number; headers: Headers; body: any }>
    get: (path: string) => Promise<{ status: number; headers: Headers; body: any }>
  },
  id: string,
  login = "octocat",
  redirect?: string
) => {
  provider.login = login
  const start = await client.get(
    `/external-auth/${id}/callback${redirect !== undefined ? `?redirect=${encodeURIComponent(redirect)}` : ""}`
  )
  if (start.status !== 307) throw new Error(`start of the web flow: ${start.status} ${JSON.stringify(start.body)}`)
  const authorize = new URL(start.headers.get("location")!)
  const cookie = cookiesOf(start.headers)
  const atProvider = await fetch(authorize, { redirect: "manual" })
  const back = atProvider.headers.get("location") ?? ""
  const done = await client.request("GET", back.replace(`${serverUrl}/api/v2`, ""), undefined, { headers: { cookie } })
  return { start, authorize, cookie, atProvider, back, done }
}
