/**
 * Scopes honoured, over real HTTP with oauth4webapi: a token gets what the app registered, the
 * request asked, the user left checked and the user holds; unknown or wider scopes answer
 * `invalid_scope`; refresh keeps or narrows; the API limits the token through the one evaluator.
 * And the provider settings (`GET/PUT /oauth2-provider/settings`) opening and closing registration.
 */
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  tokenClient
} from "../support.js"
import { basic, csrfOf, discover, insecure, REDIRECT, register } from "./fixtures.js"

let srv: ServiceTestServer
let owner: Client
let bob: Awaited<ReturnType<typeof createUser>>
let as: oauth.AuthorizationServer

beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner())
  bob = await createUser(owner, { username: "scopebob" })
  as = await discover(srv.url)
})
afterAll(() => srv.close())

const api = (accessToken: string, path: string) =>
  fetch(`${srv.url}/api/v2${path}`, { headers: { authorization: `Bearer ${accessToken}` } })

/** A confidential client registered with `scope` (none: no ceiling), as oauth4webapi sees it. */
const client = async (scope?: string) => {
  const reg = await register(srv.url, {
    client_name: "Scoped",
    redirect_uris: [REDIRECT],
    ...(scope === undefined ? {} : { scope })
  })
  return {
    reg,
    client: { client_id: reg.client_id as string } satisfies oauth.Client,
    auth: oauth.ClientSecretBasic(reg.client_secret as string)
  }
}

/** The authorization request's query for `clientId` (with PKCE), asking `scope` when given. */
const request = async (clientId: string, scope?: string) => {
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const params: Record<string, string> = {
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...(scope === undefined ? {} : { scope })
  }
  return { url: `${srv.url}/oauth2/authorize?${new URLSearchParams(params)}`, verifier, state }
}

const cookie = (user = bob) => `service_session_token=${user.client.token}`

/** The consent page as the signed-in user sees it. */
const page = async (url: string, user = bob) => {
  const res = await fetch(url, { headers: { cookie: cookie(user) }, redirect: "manual" })
  return { res, html: await res.text() }
}

/** Posts the consent form: allow, with `checked` left checked (undefined: the form's defaults, all held ones). */
const allow = async (url: string, html: string, checked?: ReadonlyArray<string>, user = bob) => {
  const form = new URLSearchParams({ csrf_token: csrfOf(html), decision: "allow", scope_choice: "1" })
  const boxes = checked ?? [...html.matchAll(/name="grant:([^"]+)" value="on" checked/g)].map((m) => m[1]!)
  for (const s of boxes) form.append(`grant:${s}`, "on")
  return fetch(url, {
    method: "POST",
    headers: {
      cookie: cookie(user),
      "content-type": "application/x-www-form-urlencoded",
      origin: srv.url,
      "sec-fetch-site": "same-origin"
    },
    body: form.toString(),
    redirect: "manual"
  })
}

/** The whole flow through oauth4webapi: the token answer. */
const grant = async (
  c: Awaited<ReturnType<typeof client>>,
  scope?: string,
  checked?: ReadonlyArray<string>,
  user = bob
) => {
  const req = await request(c.client.client_id, scope)
  const { html } = await page(req.url, user)
  const res = await allow(req.url, html, checked, user)
  expect(res.status, await res.clone().text()).toBe(302)
  const params = oauth.validateAuthResponse(as, c.client, new URL(res.headers.get("location")!), req.state)
  const answer = await oauth.authorizationCodeGrantRequest(
    as,
    c.client,
    c.auth,
    params,
    REDIRECT,
    req.verifier,
    insecure
  )
  return oauth.processAuthorizationCodeResponse(as, c.client, answer)
}

/** The error a refused authorization request redirects back with (RFC 6749 4.1.2.1). */
const redirectedError = async (res: Response, state: string) => {
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get("location")!)
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT)
  expect(location.searchParams.get("state")).toBe(state)
  return { error: location.searchParams.get("error"), description: location.searchParams.get("error_description") }
}

describe("scopes of an authorization", () => {
  it("grants what is asked within the registered scope; the token is limited to it on the API", async () => {
    const c = await client("user:read workspace:read")
    const tokens = await grant(c, "user:read")
    expect(tokens.scope).toBe("user:read")
    const me = await api(tokens.access_token, "/users/me")
    expect(me.status).toBe(200)
    const workspaces = await api(tokens.access_token, "/workspaces")
    expect(workspaces.status).toBe(403)
    // What only the token refuses says so.
    const keys = await api(tokens.access_token, "/users/me/keys/tokens")
    expect(keys.status).toBe(403)
    expect((await keys.json()).detail).toBe("The API token's scopes or allow-list do not cover this action.")
    // Introspection by the user: the app's key carries the granted scope.
    const keyId = tokens.access_token.split("-")[0]!
    const key = await bob.client.get(`/users/me/keys/${keyId}`)
    expect(key.status).toBe(200)
    expect(key.body.scopes).toEqual(["user:read"])
    expect(key.body.login_type).toBe("oauth2_provider_app")
  })

  it("without scope: the registered scope, or all for an app without one", async () => {
    const c = await client("user:read workspace:read")
    expect((await grant(c)).scope).toBe("user:read workspace:read")
    const open = await client()
    const tokens = await grant(open)
    expect(tokens.scope).toBe("all")
    expect((await api(tokens.access_token, "/workspaces")).status).toBe(200)
  })

  it("the consent page lists the requested scopes in words, each with its name", async () => {
    const c = await client()
    const req = await request(c.client.client_id, "workspace:ssh template:read")
    const { res, html } = await page(req.url)
    expect(res.status).toBe(200)
    expect(html).toContain("Connect over SSH to workspaces")
    expect(html).toContain("<code>workspace:ssh</code>")
    expect(html).toContain("Read templates")
    expect(html).toContain("<code>template:read</code>")
    expect(html).toContain(`name="grant:workspace:ssh" value="on" checked`)
  })

  it("the user grants only what they leave checked; nothing checked is a denial", async () => {
    const c = await client()
    const tokens = await grant(c, "user:read workspace:read", ["workspace:read"])
    expect(tokens.scope).toBe("workspace:read")
    expect((await api(tokens.access_token, "/users/me")).status).toBe(403)
    expect((await api(tokens.access_token, "/workspaces")).status).toBe(200)
    // A box not offered is not granted either.
    expect((await grant(c, "user:read", ["user:read", "all"])).scope).toBe("user:read")
    const req = await request(c.client.client_id, "user:read")
    const { html } = await page(req.url)
    const denied = await redirectedError(await allow(req.url, html, []), req.state)
    expect(denied.error).toBe("access_denied")
  })

  it("scopes the user does not hold are shown disabled and not granted", async () => {
    const c = await client()
    const req = await request(c.client.client_id, "audit_log:read user:read")
    const { html } = await page(req.url)
    expect(html).toContain(`name="grant:audit_log:read" value="on" disabled`)
    expect(html).toContain("you do not have this permission")
    // Even if the form is sent with it checked.
    expect((await grant(c, "audit_log:read user:read", ["audit_log:read", "user:read"])).scope).toBe("user:read")
    const only = await request(c.client.client_id, "audit_log:read")
    const onlyPage = await page(only.url)
    const denied = await redirectedError(await allow(only.url, onlyPage.html, ["audit_log:read"]), only.state)
    expect(denied.error).toBe("access_denied")
    // The owner holds it.
    const ownerUser = { client: owner } as typeof bob
    expect((await grant(c, "audit_log:read", undefined, ownerUser)).scope).toBe("audit_log:read")
  })

  it("refuses unknown scopes and scopes beyond the registered one with invalid_scope, sent back with the state", async () => {
    const c = await client("user:read")
    for (const scope of ["openid", "user:read debug_info:read", "user:fly", "workspace:read", "all", "user:*"]) {
      const req = await request(c.client.client_id, scope)
      const { res } = await page(req.url)
      const refused = await redirectedError(res, req.state)
      expect(refused.error, scope).toBe("invalid_scope")
      expect(refused.description!.length).toBeGreaterThan(0)
      // oauth4webapi reads it as the RFC 6749 error it is.
      expect(() => oauth.validateAuthResponse(as, c.client, new URL(res.headers.get("location")!), req.state))
        .toThrow(oauth.AuthorizationResponseError)
      // The consent post refuses it the same way.
      const post = await fetch(req.url, {
        method: "POST",
        headers: { authorization: `Bearer ${bob.client.token}`, "content-type": "application/x-www-form-urlencoded" },
        body: "decision=allow",
        redirect: "manual"
      })
      expect((await redirectedError(post, req.state)).error).toBe("invalid_scope")
    }
  })

  it("a limited API token grants nothing beyond its own scopes", async () => {
    const c = await client()
    const limited = await tokenClient(bob.client, { scopes: ["user:read", "oauth2_app_code_token:create"] })
    const post = async (scope: string) => {
      const req = await request(c.client.client_id, scope)
      return fetch(req.url, {
        method: "POST",
        headers: { "service-session-token": limited.token!, "content-type": "application/x-www-form-urlencoded" },
        body: "decision=allow",
        redirect: "manual"
      })
    }
    const wide = await post("all")
    expect(wide.status).toBe(403)
    expectResponse({ status: wide.status, body: await wide.json(), headers: wide.headers }, 403)
    expect((await post("user:read")).status).toBe(302)
  })

  it("registration refuses unknown scopes, naming the field", async () => {
    const res = await fetch(`${srv.url}/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT], scope: "user:read openid" })
    })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error).toBe("invalid_client_metadata")
    expect(body.validations).toEqual([{ field: "scope", detail: body.error_description }])
    // RFC 7592 shows the registered scope.
    const c = await client("workspace:read  user:read")
    const read = await fetch(c.reg.registration_client_uri, {
      headers: { authorization: `Bearer ${c.reg.registration_access_token}` }
    })
    expect((await read.json()).scope).toBe("workspace:read user:read")
  })
})

describe("scopes of a refresh", () => {
  it("keeps the scope, narrows it, never widens it; a refused refresh leaves the token usable", async () => {
    const c = await client("user:read workspace:read")
    const first = await grant(c)
    const kept = await oauth.processRefreshTokenResponse(
      as,
      c.client,
      await oauth.refreshTokenGrantRequest(as, c.client, c.auth, first.refresh_token!, insecure)
    )
    expect(kept.scope).toBe("user:read workspace:read")
    const narrowed = await oauth.processRefreshTokenResponse(
      as,
      c.client,
      await oauth.refreshTokenGrantRequest(as, c.client, c.auth, kept.refresh_token!, {
        ...insecure,
        additionalParameters: { scope: "user:read" }
      })
    )
    expect(narrowed.scope).toBe("user:read")
    expect((await api(narrowed.access_token, "/workspaces")).status).toBe(403)
    for (const scope of ["workspace:read", "user:read workspace:read", "all", "openid"]) {
      const widened = await fetch(`${srv.url}/oauth2/tokens`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: basic(c.reg.client_id, c.reg.client_secret)
        },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: narrowed.refresh_token!, scope })
          .toString()
      })
      expect(widened.status, scope).toBe(400)
      expect((await widened.json()).error).toBe("invalid_scope")
    }
    const again = await oauth.processRefreshTokenResponse(
      as,
      c.client,
      await oauth.refreshTokenGrantRequest(as, c.client, c.auth, narrowed.refresh_token!, insecure)
    )
    expect(again.scope).toBe("user:read")
  })
})

describe("provider settings", () => {
  it("owners read and change whether clients may register themselves; registered clients go on", async () => {
    expect((await owner.get("/oauth2-provider/settings")).body).toEqual({ dynamic_client_registration_enabled: true })
    const c = await client()
    const tokens = await grant(c)
    const off = await owner.put("/oauth2-provider/settings", { dynamic_client_registration_enabled: false })
    expect(off.status).toBe(200)
    expect(off.body).toEqual({ dynamic_client_registration_enabled: false })
    expect((await owner.get("/oauth2-provider/settings")).body).toEqual({ dynamic_client_registration_enabled: false })
    // An omitted field keeps its value.
    expect((await owner.put("/oauth2-provider/settings", {})).body).toEqual({
      dynamic_client_registration_enabled: false
    })
    const refused = await fetch(`${srv.url}/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT] })
    })
    expectResponse({ status: refused.status, body: await refused.json(), headers: refused.headers }, 403)
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      c.client,
      await oauth.refreshTokenGrantRequest(as, c.client, c.auth, tokens.refresh_token!, insecure)
    )
    expect(refreshed.scope).toBe("all")
    expect(
      (await owner.put("/oauth2-provider/settings", { dynamic_client_registration_enabled: true })).body
    ).toEqual({ dynamic_client_registration_enabled: true })
    expect((await client()).reg.client_id).toBeTypeOf("string")
    const audit = await owner.get("/audit?q=resource_type:oauth2_provider_settings&limit=10")
    expect(audit.status).toBe(200)
    expect(audit.body.audit_logs.length).toBeGreaterThanOrEqual(3)
    expect(audit.body.audit_logs[0].action).toBe("write")
  })

  it("answers 401 without a session, 403 to members, 400 for a bad body", async () => {
    expect((await srv.anonymous.get("/oauth2-provider/settings")).status).toBe(401)
    expect((await srv.anonymous.put("/oauth2-provider/settings", {})).status).toBe(401)
    expectResponse(await bob.client.get("/oauth2-provider/settings"), 403)
    expectResponse(
      await bob.client.put("/oauth2-provider/settings", { dynamic_client_registration_enabled: false }),
      403
    )
    expectValidations(await owner.put("/oauth2-provider/settings", { dynamic_client_registration_enabled: "no" }), [
      "dynamic_client_registration_enabled"
    ])
    expect((await owner.get("/oauth2-provider/settings")).body).toEqual({ dynamic_client_registration_enabled: true })
  })
})
