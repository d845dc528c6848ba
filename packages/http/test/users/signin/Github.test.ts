/**
 * Sign-in through GitHub over real HTTP: the web flow, the device flow, organization and team
 * refusals, signups, login conversion; GitHub is a local server speaking its documented endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, createUser, SESSION_HEADER, startWithOwner, STRONG_PASSWORD } from "../../support.js"
import { Browser } from "./browser.js"
import { CLIENT_ID, CLIENT_SECRET, startFakeGithub } from "./fakeGithub.js"

const COOKIE = "service_session_token"

type Started = Awaited<ReturnType<typeof startWithOwner>>

const accounts = [
  { id: 101, login: "octo_cat", name: "Octo Cat", email: "octo@corp.example", orgs: ["corp"], teams: ["corp/devs"] },
  { id: 102, login: "outsider", name: "Out Sider", email: "out@else.example", orgs: ["else"] },
  { id: 103, login: "no-team", name: "No Team", email: "noteam@corp.example", orgs: ["corp"] },
  {
    id: 104,
    login: "unverified",
    name: "Un Verified",
    email: "unverified@corp.example",
    orgs: ["corp"],
    verified: false
  },
  {
    id: 105,
    login: "convert-me",
    name: "Convert Me",
    email: "convert@corp.example",
    orgs: ["corp"],
    teams: ["corp/devs"]
  },
  { id: 106, login: "late", name: "Late Comer", email: "late@corp.example", orgs: ["corp"], teams: ["corp/devs"] }
]

let github: Awaited<ReturnType<typeof startFakeGithub>>
const servers: Array<Started> = []

const start = async (settings: Record<string, unknown> = {}) => {
  const started = await startWithOwner({
    settings: {
      oauth2GithubClientId: CLIENT_ID,
      oauth2GithubClientSecret: CLIENT_SECRET,
      oauth2GithubEnterpriseBaseUrl: github.url,
      oauth2GithubAllowedOrgs: ["corp"],
      oauth2GithubAllowSignups: true,
      ...settings
    }
  })
  servers.push(started)
  return started
}

/** The whole web flow in one browser: start, approve at GitHub, back to the callback. */
const webSignIn = async (
  srv: Started["srv"],
  login: string,
  browser = new Browser(),
  query = "?redirect=%2Fworkspaces%3Fx%3D1"
) => {
  github.state.signedIn = login
  const first = await browser.request(`${srv.url}/api/v2/users/oauth2/github/callback${query}`)
  expect(first.status).toBe(307)
  expect(first.location?.startsWith(`${github.url}/login/oauth/authorize?`)).toBe(true)
  const atCallback = await browser.follow(first.location!, (a) => a.location?.startsWith(srv.url) === true)
  expect(atCallback.status).toBe(302)
  const back = await browser.request(atCallback.location!)
  return { back, browser, token: browser.cookie(srv.url, COOKIE) }
}

beforeAll(async () => {
  github = await startFakeGithub(accounts)
})

afterAll(async () => {
  for (const s of servers) await s.srv.close()
  await github.close()
})

describe("GitHub web flow", () => {
  let s: Started
  beforeAll(async () => {
    s = await start({ oauth2GithubAllowedTeams: ["corp/devs"] })
  })

  it("starts with a redirect to GitHub carrying the client, callback, scopes and a state cookie", async () => {
    const browser = new Browser()
    const r = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback?redirect=/templates`)
    expect(r.status).toBe(307)
    const url = new URL(r.location!)
    expect(url.searchParams.get("client_id")).toBe(CLIENT_ID)
    expect(url.searchParams.get("redirect_uri")).toBe(`${s.srv.url}/api/v2/users/oauth2/github/callback`)
    expect(url.searchParams.get("scope")).toContain("read:org")
    expect(url.searchParams.get("state")).toBe(browser.cookie(s.srv.url, "oauth_state"))
    expect(browser.cookie(s.srv.url, "oauth_redirect")).toBe("/templates")
  })

  it("creates the user on first sign-in, then signs the same user in again", async () => {
    const first = await webSignIn(s.srv, "octo_cat")
    expect(first.back.status).toBe(307)
    expect(first.back.location).toBe(`${s.srv.url}/workspaces?x=1`)
    expect(first.token).toBeDefined()
    const me = await new Client(`${s.srv.url}/api/v2`, first.token).get("/users/me")
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({
      username: "octo-cat",
      email: "octo@corp.example",
      login_type: "github",
      name: "Octo Cat"
    })
    // The flow's cookies are cleared once used.
    expect(first.browser.cookie(s.srv.url, "oauth_state")).toBeUndefined()

    const second = await webSignIn(s.srv, "octo_cat")
    expect(second.back.status).toBe(307)
    const again = await new Client(`${s.srv.url}/api/v2`, second.token).get("/users/me")
    expect(again.body.id).toBe(me.body.id)
    expect(second.token).not.toBe(first.token)

    const audit = await s.owner.get(`/audit?q=${encodeURIComponent("resource_type:api_key")}&limit=50`)
    const mine = audit.body.audit_logs.filter((e: any) => e.user?.id === me.body.id)
    expect(mine.map((e: any) => e.action).sort()).toEqual(["login", "register"])
    for (const e of mine) {
      expect(e.additional_fields.login_type).toBe("github")
      expect(JSON.stringify(e.diff)).not.toContain(first.token!.split("-")[1])
    }
    const created = await s.owner.get(`/audit?q=${encodeURIComponent("resource_type:user action:create")}&limit=50`)
    expect(created.body.audit_logs.some((e: any) => e.resource_id === me.body.id)).toBe(true)
  })

  it("refuses someone outside the allowed organizations (403)", async () => {
    const r = await webSignIn(s.srv, "outsider")
    expect(r.back.status).toBe(403)
    expect(r.back.body.detail).toContain("authorized Github organizations")
    expect(r.token).toBeUndefined()
  })

  it("refuses a member of the organization outside the allowed teams (403)", async () => {
    const r = await webSignIn(s.srv, "no-team")
    expect(r.back.status).toBe(403)
    expect(r.back.body.detail).toContain("authorized team")
  })

  it("refuses a state that does not match the cookie (401), none (400), and no cookie (401)", async () => {
    const browser = new Browser()
    await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback`)
    const wrong = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback?code=abc&state=forged`)
    expect(wrong.status).toBe(401)
    expect(wrong.body.message).toBe("State mismatched.")
    const none = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback?code=abc`)
    expect(none.status).toBe(400)
    expect(none.body.validations).toEqual([{ field: "state", detail: expect.any(String) }])
    const fresh = await new Browser().request(`${s.srv.url}/api/v2/users/oauth2/github/callback?code=abc&state=x`)
    expect(fresh.status).toBe(401)
  })

  it("refuses a code GitHub does not know (400)", async () => {
    const browser = new Browser()
    const first = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback`)
    const state = new URL(first.location!).searchParams.get("state")!
    const r = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback?code=nope&state=${state}`)
    expect(r.status).toBe(400)
    expect(r.body.detail).toContain("bad_verification_code")
  })

  it("keeps only the path of the redirect target", async () => {
    const r = await webSignIn(
      s.srv,
      "octo_cat",
      new Browser(),
      `?redirect=${encodeURIComponent("https://evil.example/steal?x=1")}`
    )
    expect(r.back.location).toBe(`${s.srv.url}/steal?x=1`)
  })

  it("answers the device route with 400 while the device flow is off", async () => {
    const r = await s.srv.anonymous.get("/users/oauth2/github/device")
    expect(r.status).toBe(400)
    expect(r.body.message).toBe("Device flow is not enabled for Github OAuth2.")
  })

  it("converts a password account to GitHub through the conversion's state", async () => {
    const u = await s.owner.post("/users", {
      email: "convert@corp.example",
      username: "conv",
      password: STRONG_PASSWORD
    })
    expect(u.status).toBe(201)
    const browser = new Browser()
    const session = await fetch(`${s.srv.url}/api/v2/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "convert@corp.example", password: STRONG_PASSWORD })
    }).then((r) => r.json() as Promise<{ session_token: string }>)
    const conv = await fetch(`${s.srv.url}/api/v2/users/me/convert-login`, {
      method: "POST",
      headers: { "content-type": "application/json", [SESSION_HEADER]: session.session_token },
      body: JSON.stringify({ to_type: "github", password: STRONG_PASSWORD })
    })
    expect(conv.status).toBe(201)
    const body = await conv.json() as { state_string: string }
    expect(body.state_string.startsWith("convert-")).toBe(true)
    expect(
      conv.headers.getSetCookie().some((c) =>
        c.startsWith(`oauth_convert_state=${encodeURIComponent(body.state_string)}`)
      )
    ).toBe(true)

    // Without the conversion cookie the state is refused.
    const stranger = await webSignIn(s.srv, "convert-me", new Browser(), `?oidc_merge_state=${body.state_string}`)
    expect(stranger.back.status).toBe(400)

    browser.setCookie(s.srv.url, "oauth_convert_state", body.state_string)
    const r = await webSignIn(s.srv, "convert-me", browser, `?oidc_merge_state=${body.state_string}`)
    expect(r.back.status).toBe(307)
    const me = await new Client(`${s.srv.url}/api/v2`, r.token).get("/users/me")
    expect(me.body).toMatchObject({ id: u.body.id, login_type: "github" })
    expect(browser.cookie(s.srv.url, "oauth_convert_state")).toBeUndefined()
    // The password no longer signs in.
    const old = await s.srv.anonymous.post("/users/login", { email: "convert@corp.example", password: STRONG_PASSWORD })
    expect(old.status).toBe(401)
    const audit = await s.owner.get(`/audit?q=${encodeURIComponent("resource_type:user action:write")}&limit=50`)
    const entry = audit.body.audit_logs.find((e: any) =>
      e.resource_id === u.body.id && e.diff.login_type?.new === "github"
    )
    expect(entry).toBeDefined()
  })
})

describe("GitHub signups and login types", () => {
  let s: Started
  beforeAll(async () => {
    s = await start({ oauth2GithubAllowSignups: false })
  })

  it("refuses a new user when signups are off (403)", async () => {
    const r = await webSignIn(s.srv, "late")
    expect(r.back.status).toBe(403)
    expect(r.back.body.message).toBe("Signups are disabled.")
  })

  it("refuses a password account with the same email (403, wrong login type)", async () => {
    await s.owner.post("/users", { email: "late@corp.example", username: "late", password: STRONG_PASSWORD })
    const r = await webSignIn(s.srv, "late")
    expect(r.back.status).toBe(403)
    expect(r.back.body.message).toContain("Incorrect login type")
  })

  it("refuses an unverified primary email (400)", async () => {
    const r = await webSignIn(s.srv, "unverified")
    expect(r.back.status).toBe(400)
    expect(r.back.body.message).toBe("Your primary email must be verified on GitHub!")
  })

  it("reports GitHub in authmethods", async () => {
    const r = await s.srv.anonymous.get("/users/authmethods")
    expect(r.status).toBe(200)
    expect(r.body.github).toEqual({ default_provider_configured: false, enabled: true })
  })
})

describe("GitHub device flow", () => {
  let s: Started
  beforeAll(async () => {
    s = await start({ oauth2GithubDeviceFlow: true, oauth2GithubAllowEveryone: true })
  })

  it("starts on GitHub and signs in once the user approves the device", async () => {
    const browser = new Browser()
    const first = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback?redirect=/tasks`)
    expect(first.status).toBe(307)
    expect(first.location).toMatch(new RegExp(`^${s.srv.url}/login/device\\?state=`))
    const state = new URL(first.location!).searchParams.get("state")!

    const device = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/device`)
    expect(device.status).toBe(200)
    expect(device.body).toEqual({
      device_code: expect.any(String),
      user_code: "ABCD-1234",
      verification_uri: `${github.url}/login/device`,
      expires_in: 900,
      interval: 5
    })
    const callback = `${s.srv.url}/api/v2/users/oauth2/github/callback?code=${device.body.device_code}&state=${state}`
    const pending = await browser.request(callback)
    expect(pending.status).toBe(400)
    expect(pending.body.detail).toBe("authorization_pending: The authorization request is still pending.")

    github.approveDevice(device.body.device_code, "outsider")
    const done = await browser.request(callback)
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ redirect_url: "/tasks" })
    const me = await new Client(`${s.srv.url}/api/v2`, browser.cookie(s.srv.url, COOKIE)).get("/users/me")
    expect(me.body).toMatchObject({ username: "outsider", login_type: "github" })
  })
})

describe("GitHub not configured or unreachable", () => {
  it("answers 400 when GitHub sign-in is not configured", async () => {
    const s = await start({ oauth2GithubClientId: "" })
    expect((await s.srv.anonymous.get("/users/oauth2/github/callback")).status).toBe(400)
    expect((await s.srv.anonymous.get("/users/oauth2/github/device")).status).toBe(400)
    const methods = await s.srv.anonymous.get("/users/authmethods")
    expect(methods.body.github.enabled).toBe(false)
  })

  it("answers 502 when GitHub cannot be reached", async () => {
    const s = await start({ oauth2GithubEnterpriseBaseUrl: "http://127.0.0.1:9", oauth2GithubDeviceFlow: true })
    expect((await s.srv.anonymous.get("/users/oauth2/github/device")).status).toBe(502)
    const browser = new Browser()
    const first = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback`)
    const state = new URL(first.location!).searchParams.get("state")!
    const r = await browser.request(`${s.srv.url}/api/v2/users/oauth2/github/callback?code=x&state=${state}`)
    expect(r.status).toBe(502)
  })
})

it("signs in a second browser without touching another user's session", async () => {
  const s = await start({ oauth2GithubAllowEveryone: true })
  const member = await createUser(s.owner)
  const r = await webSignIn(s.srv, "outsider")
  expect(r.back.status).toBe(307)
  expect((await member.client.get("/users/me")).status).toBe(200)
})

it("signs a deleted user's GitHub identity up again as a new user", async () => {
  const s = await start({ oauth2GithubAllowEveryone: true })
  const first = await webSignIn(s.srv, "outsider")
  const me = (await new Client(`${s.srv.url}/api/v2`, first.token).get("/users/me")).body
  expect((await s.owner.request("DELETE", `/users/${me.id}`)).status).toBe(200)
  const again = await webSignIn(s.srv, "outsider")
  expect(again.back.status).toBe(307)
  const next = (await new Client(`${s.srv.url}/api/v2`, again.token).get("/users/me")).body
  expect(next.id).not.toBe(me.id)
  expect(next.login_type).toBe("github")
})
