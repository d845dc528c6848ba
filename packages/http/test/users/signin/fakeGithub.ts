/**
 * A local server speaking the parts of GitHub's documented OAuth endpoints and REST API that
 * sign-in uses, reached through the enterprise base URL setting (`/login/...` and `/api/v3/...`).
 */
import { randomUUID } from "node:crypto"
import { listen, sendJson } from "./browser.js"

export interface GithubAccount {
  readonly id: number
  readonly login: string
  readonly name: string
  readonly email: string
  readonly verified?: boolean
  readonly orgs: ReadonlyArray<string>
  /** `org/slug` */
  readonly teams?: ReadonlyArray<string>
}

export const CLIENT_ID = "gh-client"
export const CLIENT_SECRET = "gh-secret"

/** `interval`: the seconds GitHub asks a device-flow client to wait between polls (5, as GitHub's). */
export const startFakeGithub = async (accounts: ReadonlyArray<GithubAccount>, options: { interval?: number } = {}) => {
  const byLogin = new Map(accounts.map((a) => [a.login, a]))
  const codes = new Map<string, string>()
  const tokens = new Map<string, string>()
  const devices = new Map<string, { login: string | undefined; userCode: string }>()
  /** Who is "signed in at GitHub" and approves the next authorization. */
  const state = { signedIn: accounts[0]?.login ?? "", requests: [] as Array<string> }

  const issueToken = (login: string) => {
    const token = `gho_${randomUUID()}`
    tokens.set(token, login)
    return token
  }

  const srv = await listen((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://github.local")
    state.requests.push(`${req.method} ${url.pathname}`)
    const form = new URLSearchParams(body)
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
      if (url.searchParams.get("client_id") !== CLIENT_ID) return sendJson(res, 400, { error: "unknown client" })
      const code = randomUUID()
      codes.set(code, state.signedIn)
      const back = new URL(url.searchParams.get("redirect_uri")!)
      back.searchParams.set("code", code)
      back.searchParams.set("state", url.searchParams.get("state") ?? "")
      res.writeHead(302, { location: back.href })
      return res.end()
    }
    if (req.method === "POST" && url.pathname === "/login/device/code") {
      if (form.get("client_id") !== CLIENT_ID) return sendJson(res, 400, { error: "unknown client" })
      const deviceCode = randomUUID()
      // The code a person types at GitHub: one per device code, as GitHub's.
      const userCode = `ABCD-${String(1234 + devices.size).padStart(4, "0")}`
      devices.set(deviceCode, { login: undefined, userCode })
      return sendJson(res, 200, {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: `${srv.url}/login/device`,
        expires_in: 900,
        interval: options.interval ?? 5
      })
    }
    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
      if (form.get("client_id") !== CLIENT_ID || form.get("client_secret") !== CLIENT_SECRET) {
        return sendJson(res, 200, { error: "incorrect_client_credentials" })
      }
      const deviceCode = form.get("device_code")
      if (deviceCode !== null) {
        const d = devices.get(deviceCode)
        if (d === undefined) return sendJson(res, 200, { error: "expired_token" })
        if (d.login === undefined) {
          return sendJson(res, 200, {
            error: "authorization_pending",
            error_description: "The authorization request is still pending."
          })
        }
        devices.delete(deviceCode)
        return sendJson(res, 200, { access_token: issueToken(d.login), token_type: "bearer", scope: "read:user" })
      }
      const login = codes.get(form.get("code") ?? "")
      if (login === undefined) {
        return sendJson(res, 200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired."
        })
      }
      codes.delete(form.get("code")!)
      return sendJson(res, 200, { access_token: issueToken(login), token_type: "bearer", scope: "read:user" })
    }
    if (url.pathname.startsWith("/api/v3/")) {
      const login = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""))
      const account = login === undefined ? undefined : byLogin.get(login)
      if (account === undefined) return sendJson(res, 401, { message: "Bad credentials" })
      const path = url.pathname.slice("/api/v3".length)
      if (path === "/user") {
        return sendJson(res, 200, {
          id: account.id,
          login: account.login,
          name: account.name,
          avatar_url: `https://avatars.example/${account.id}`,
          type: "User"
        })
      }
      if (path === "/user/emails") {
        return sendJson(res, 200, [
          { email: `noreply-${account.id}@users.noreply.example`, primary: false, verified: true },
          { email: account.email, primary: true, verified: account.verified ?? true }
        ])
      }
      if (path === "/user/memberships/orgs") {
        return sendJson(
          res,
          200,
          account.orgs.map((o) => ({ state: "active", role: "member", organization: { login: o } }))
        )
      }
      const team = /^\/orgs\/([^/]+)\/teams\/([^/]+)\/memberships\/([^/]+)$/.exec(path)
      if (team) {
        const [, org, slug, who] = team
        return who === account.login && (account.teams ?? []).includes(`${org}/${slug}`)
          ? sendJson(res, 200, { state: "active", role: "member" })
          : sendJson(res, 404, { message: "Not Found" })
      }
    }
    sendJson(res, 404, { message: "Not Found" })
  })

  return {
    ...srv,
    state,
    /** The user approves a device code at GitHub. */
    approveDevice: (deviceCode: string, login: string) => {
      const d = devices.get(deviceCode)
      if (d !== undefined) devices.set(deviceCode, { ...d, login })
    },
    /** The user types a device's user code at GitHub and approves it; false when no device has it. */
    approveUserCode: (userCode: string, login: string) => {
      for (const [code, d] of devices) {
        if (d.userCode === userCode) return (devices.set(code, { ...d, login }), true)
      }
      return false
    }
  }
}
