/**
 * Sign-in through OpenID Connect over real HTTP against a real OpenID provider (oidc-provider)
 * in the test process: user creation and linking, email domains, signups, group and role sync,
 * the caller's claims, state checks and login conversion.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, SESSION_HEADER, startWithOwner, STRONG_PASSWORD } from "../../support.js"
import { Browser } from "./browser.js"
import { authorizeAt, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startProvider } from "./provider.js"

const COOKIE = "service_session_token"
type Started = Awaited<ReturnType<typeof startWithOwner>>

let provider: Awaited<ReturnType<typeof startProvider>>
let main: Started
let closed: Started
let plain: Started
let idOnly: Started

const settingsFor = (issuer: string, extra: Record<string, unknown> = {}) => ({
  oidcIssuerUrl: issuer,
  oidcClientId: OIDC_CLIENT_ID,
  oidcClientSecret: OIDC_CLIENT_SECRET,
  oidcScopes: ["openid", "profile", "email", "groups"],
  oidcSignInText: "Sign in with Corp SSO",
  oidcIconUrl: "/icon/corp.svg",
  oidcEmailDomain: ["corp.example"],
  oidcGroupField: "groups",
  oidcGroupMapping: { "ops-team": "operators" },
  oidcGroupAutoCreate: true,
  oidcUserRoleField: "roles",
  oidcUserRoleMapping: { admins: ["template-admin", "user-admin"] },
  ...extra
})

/** The whole code flow in one browser; the answer of the callback. */
const signIn = async (
  srv: Started["srv"],
  accountId: string,
  browser = new Browser(),
  query = "?redirect=%2Fworkspaces"
) => {
  const callback = `${srv.url}/api/v2/users/oidc/callback`
  const first = await browser.request(`${callback}${query}`)
  expect(first.status).toBe(307)
  expect(first.location?.startsWith(`${provider.issuer}/`)).toBe(true)
  const back = await authorizeAt(browser, first.location!, accountId, callback)
  const answer = await browser.request(back.location!)
  return { answer, browser, token: browser.cookie(srv.url, COOKIE), authorizeUrl: new URL(first.location!) }
}

const api = (srv: Started["srv"], token: string | undefined) => new Client(`${srv.url}/api/v2`, token)

beforeAll(async () => {
  provider = await startProvider()
  provider.accounts.set("alice", {
    email: "alice@corp.example",
    email_verified: true,
    name: "Alice Liddell",
    preferred_username: "alice",
    groups: ["devs", "ops-team"],
    roles: ["admins"]
  })
  provider.accounts.set("bob", {
    email: "bob@elsewhere.example",
    email_verified: true,
    name: "Bob",
    preferred_username: "bob"
  })
  provider.accounts.set("carol", { email: "carol@corp.example", email_verified: false, preferred_username: "carol" })
  provider.accounts.set("dave", {
    email: "dave@corp.example",
    email_verified: true,
    preferred_username: "dave.the_admin"
  })
  provider.accounts.set("erin", { email: "erin@corp.example", email_verified: true, preferred_username: "erin" })
  main = await startWithOwner({ settings: settingsFor(provider.issuer) })
  closed = await startWithOwner({
    settings: settingsFor(provider.issuer, { oidcAllowSignups: false, oidcSignupsDisabledText: "Ask IT." })
  })
  plain = await startWithOwner({
    settings: settingsFor(provider.issuer, { oidcGroupAutoCreate: false, oidcUserRoleField: "", oidcEmailDomain: [] })
  })
  idOnly = await startWithOwner({ settings: settingsFor(provider.issuer, { oidcIgnoreUserInfo: true }) })
  provider.configure([main, closed, plain, idOnly].map((s) => `${s.srv.url}/api/v2/users/oidc/callback`))
})

afterAll(async () => {
  await main?.srv.close()
  await closed?.srv.close()
  await plain?.srv.close()
  await idOnly?.srv.close()
  await provider?.close()
})

describe("OpenID Connect sign-in", () => {
  it("starts the code flow with PKCE (S256), state and nonce", async () => {
    const browser = new Browser()
    const r = await browser.request(`${main.srv.url}/api/v2/users/oidc/callback`)
    expect(r.status).toBe(307)
    const url = new URL(r.location!)
    expect(url.searchParams.get("client_id")).toBe(OIDC_CLIENT_ID)
    expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(url.searchParams.get("nonce")).toBe(browser.cookie(main.srv.url, "oidc_nonce"))
    expect(url.searchParams.get("state")).toBe(browser.cookie(main.srv.url, "oauth_state"))
    expect(url.searchParams.get("scope")).toBe("openid profile email groups")
  })

  it("creates the user on first sign-in and links the second to the same user", async () => {
    const first = await signIn(main.srv, "alice")
    expect(first.answer.status).toBe(307)
    expect(first.answer.location).toBe(`${main.srv.url}/workspaces`)
    const me = await api(main.srv, first.token).get("/users/me")
    expect(me.body).toMatchObject({
      username: "alice",
      email: "alice@corp.example",
      name: "Alice Liddell",
      login_type: "oidc"
    })

    const second = await signIn(main.srv, "alice")
    expect(second.answer.status).toBe(307)
    const again = await api(main.srv, second.token).get("/users/me")
    expect(again.body.id).toBe(me.body.id)

    const audit = await main.owner.get(`/audit?q=${encodeURIComponent("resource_type:api_key")}&limit=100`)
    const actions = audit.body.audit_logs.filter((e: any) => e.user?.id === me.body.id).map((e: any) => e.action).sort()
    expect(actions).toEqual(["login", "register"])
  })

  it("syncs groups (created with source oidc) and site roles, and takes them back when the claims drop them", async () => {
    const first = await signIn(main.srv, "alice")
    const me = (await api(main.srv, first.token).get("/users/me")).body
    expect(me.roles.map((r: any) => r.name).sort()).toEqual(["template-admin", "user-admin"])
    const groups = (await main.owner.get(`/organizations/${main.orgId}/groups`)).body as Array<any>
    const devs = groups.find((g) => g.name === "devs")
    const operators = groups.find((g) => g.name === "operators")
    expect(devs).toMatchObject({ source: "oidc" })
    expect(operators).toMatchObject({ source: "oidc" })
    expect(devs.members.map((m: any) => m.id)).toContain(me.id)
    expect(operators.members.map((m: any) => m.id)).toContain(me.id)

    provider.accounts.set("alice", { ...provider.accounts.get("alice")!, groups: ["devs"], roles: [] })
    const second = await signIn(main.srv, "alice")
    expect(second.answer.status).toBe(307)
    const after = (await api(main.srv, second.token).get("/users/me")).body
    expect(after.roles).toEqual([])
    const groupsAfter = (await main.owner.get(`/organizations/${main.orgId}/groups`)).body as Array<any>
    expect(groupsAfter.find((g) => g.name === "devs").members.map((m: any) => m.id)).toContain(me.id)
    expect(groupsAfter.find((g) => g.name === "operators").members.map((m: any) => m.id)).not.toContain(me.id)
    provider.accounts.set("alice", {
      ...provider.accounts.get("alice")!,
      groups: ["devs", "ops-team"],
      roles: ["admins"]
    })
  })

  it("answers the caller's claims from their last sign-in", async () => {
    const r = await signIn(main.srv, "alice")
    const claims = await api(main.srv, r.token).get("/users/oidc-claims")
    expect(claims.status).toBe(200)
    expect(claims.body.claims).toMatchObject({
      sub: "alice",
      email: "alice@corp.example",
      preferred_username: "alice",
      groups: ["devs", "ops-team"]
    })
    expect((await main.owner.get("/users/oidc-claims")).status).toBe(400)
    // A token whose scopes do not cover the caller's own user is refused (403).
    const limited = await api(main.srv, r.token).post("/users/me/keys/tokens", { scopes: ["workspace:read"] })
    expect(limited.status, JSON.stringify(limited.body)).toBe(201)
    expect((await api(main.srv, limited.body.key).get("/users/oidc-claims")).status).toBe(403)
    expect((await main.srv.anonymous.get("/users/oidc-claims")).status).toBe(401)
  })

  it("makes a valid username from a claim that is not one", async () => {
    const r = await signIn(main.srv, "dave")
    expect(r.answer.status).toBe(307)
    const me = await api(main.srv, r.token).get("/users/me")
    expect(me.body.username).toBe("dave-the-admin")
  })

  it("refuses an email outside the allowed domains (403)", async () => {
    const r = await signIn(main.srv, "bob")
    expect(r.answer.status).toBe(403)
    expect(r.answer.body.message).toContain("is not in domains")
    expect(r.token).toBeUndefined()
  })

  it("refuses an unverified email (403)", async () => {
    const r = await signIn(main.srv, "carol")
    expect(r.answer.status).toBe(403)
    expect(r.answer.body.message).toContain("Verify the")
  })

  it("refuses a new user when signups are off (403)", async () => {
    const r = await signIn(closed.srv, "erin")
    expect(r.answer.status).toBe(403)
    expect(r.answer.body).toMatchObject({ message: "Signups are disabled.", detail: "Ask IT." })
  })

  it("refuses a state that does not match the cookie (401) and a callback without the flow's cookies", async () => {
    const browser = new Browser()
    const first = await browser.request(`${main.srv.url}/api/v2/users/oidc/callback`)
    const back = await authorizeAt(browser, first.location!, "alice", `${main.srv.url}/api/v2/users/oidc/callback`)
    const forged = new URL(back.location!)
    forged.searchParams.set("state", "forged")
    const r = await browser.request(forged.href)
    expect(r.status).toBe(401)
    expect(r.body.message).toBe("State mismatched.")
    // Another browser (no cookies) cannot use the code either.
    const stolen = await new Browser().request(back.location!)
    expect(stolen.status).toBe(401)
    // The right browser still can, once.
    const ok = await browser.request(back.location!)
    expect(ok.status).toBe(307)
    const replay = await browser.request(back.location!)
    expect(replay.status).toBe(401)
  })

  it("refuses a code the provider does not know (400)", async () => {
    const browser = new Browser()
    const first = await browser.request(`${main.srv.url}/api/v2/users/oidc/callback`)
    const state = new URL(first.location!).searchParams.get("state")!
    const r = await browser.request(
      `${main.srv.url}/api/v2/users/oidc/callback?code=unknown&state=${state}&iss=${
        encodeURIComponent(provider.issuer)
      }`
    )
    expect(r.status).toBe(400)
    expect(r.body.message).toBe("Failed to verify OIDC token.")
  })

  it("links a sign-in to a user an administrator created with login type oidc", async () => {
    provider.accounts.set("frank", { email: "frank@corp.example", email_verified: true, preferred_username: "frankie" })
    const created = await main.owner.post("/users", {
      email: "frank@corp.example",
      username: "frank",
      login_type: "oidc"
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const r = await signIn(main.srv, "frank")
    expect(r.answer.status).toBe(307)
    expect((await api(main.srv, r.token).get("/users/me")).body).toMatchObject({
      id: created.body.id,
      username: "frank"
    })
  })

  it("reports the settings in the deployment config with the client secret withheld", async () => {
    const r = await main.owner.get("/deployment/config")
    expect(r.status).toBe(200)
    expect(r.body.config.oidc).toMatchObject({
      issuer_url: provider.issuer,
      client_id: OIDC_CLIENT_ID,
      groups_field: "groups"
    })
    expect(JSON.stringify(r.body)).not.toContain(OIDC_CLIENT_SECRET)
  })

  it("reports OpenID Connect in authmethods", async () => {
    const r = await main.srv.anonymous.get("/users/authmethods")
    expect(r.body.oidc).toEqual({ enabled: true, signInText: "Sign in with Corp SSO", iconUrl: "/icon/corp.svg" })
  })

  it("converts a password account to OpenID Connect through the conversion's state", async () => {
    const created = await main.owner.post("/users", {
      email: "erin@corp.example",
      username: "erin-pw",
      password: STRONG_PASSWORD
    })
    expect(created.status).toBe(201)
    const session =
      (await main.srv.anonymous.post("/users/login", { email: "erin@corp.example", password: STRONG_PASSWORD })).body
        .session_token
    // A wrong password refuses the conversion.
    const bad = await api(main.srv, session).post("/users/me/convert-login", {
      to_type: "oidc",
      password: "wrong-password-1A"
    })
    expect(bad.status).toBe(401)
    const conv = await fetch(`${main.srv.url}/api/v2/users/me/convert-login`, {
      method: "POST",
      headers: { "content-type": "application/json", [SESSION_HEADER]: session },
      body: JSON.stringify({ to_type: "oidc", password: STRONG_PASSWORD })
    })
    expect(conv.status).toBe(201)
    const state = (await conv.json() as { state_string: string }).state_string
    const browser = new Browser()
    browser.setCookie(main.srv.url, "oauth_convert_state", state)
    const r = await signIn(main.srv, "erin", browser, `?oidc_merge_state=${encodeURIComponent(state)}`)
    expect(r.authorizeUrl.searchParams.get("state")).toBe(state)
    expect(r.answer.status).toBe(307)
    const me = await api(main.srv, r.token).get("/users/me")
    expect(me.body).toMatchObject({ id: created.body.id, login_type: "oidc", username: "erin-pw" })
    // Used once: the same state does not convert again.
    const again = await signIn(main.srv, "erin", browser, `?oidc_merge_state=${encodeURIComponent(state)}`)
    expect(again.answer.status).toBe(400)
  })

  it("without auto-create, syncs into existing groups only; without role sync, roles stay", async () => {
    const devs = await plain.owner.post(`/organizations/${plain.orgId}/groups`, { name: "devs" })
    expect(devs.status, JSON.stringify(devs.body)).toBe(201)
    const r = await signIn(plain.srv, "alice")
    expect(r.answer.status).toBe(307)
    const me = (await api(plain.srv, r.token).get("/users/me")).body
    expect(me.roles).toEqual([])
    const groups = (await plain.owner.get(`/organizations/${plain.orgId}/groups`)).body as Array<any>
    expect(groups.map((g) => g.name).sort()).toEqual(["Everyone", "devs"])
    expect(groups.find((g) => g.name === "devs").members.map((m: any) => m.id)).toContain(me.id)
  })

  it("takes claims from the ID token only when userinfo is ignored (this provider puts the email in userinfo: 400)", async () => {
    const r = await signIn(idOnly.srv, "alice")
    expect(r.answer.status).toBe(400)
    expect(r.answer.body.message).toBe("No email found in OIDC payload!")
  })

  it("answers 502 when the provider cannot be reached and 400 when OIDC is not configured", async () => {
    const down = await startWithOwner({ settings: settingsFor("http://127.0.0.1:9") })
    const off = await startWithOwner()
    try {
      expect((await down.srv.anonymous.get("/users/oidc/callback")).status).toBe(502)
      const r = await off.srv.anonymous.get("/users/oidc/callback")
      expect(r.status).toBe(400)
      expect((await off.srv.anonymous.get("/users/authmethods")).body.oidc).toEqual({
        enabled: false,
        iconUrl: "",
        signInText: ""
      })
    } finally {
      await down.srv.close()
      await off.srv.close()
    }
  })
})
