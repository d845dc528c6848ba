/**
 * What the authorization server refuses: redirect URI tricks, code replay, a wrong PKCE
 * verifier, plain PKCE, unsupported response types, cross-site posts, bad client
 * authentication, registration metadata that RFC 7591 rules out, and redirect URIs that are not
 * stored as they would be redirected to (control characters, non-canonical hosts).
 */
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, createUser, expectValidations, type ServiceTestServer, startWithOwner } from "../support.js"
import { basic, codeFrom, consent, csrfOf, REDIRECT, register, tokenPost } from "./fixtures.js"

let srv: ServiceTestServer
let owner: Client
let bob: Awaited<ReturnType<typeof createUser>>
let confidential: Record<string, any>
let publicClient: Record<string, any>

beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner())
  bob = await createUser(owner, { username: "bob" })
  confidential = await register(srv.url, { redirect_uris: [REDIRECT, "https://client.example.com/other"] })
  publicClient = await register(srv.url, { redirect_uris: ["http://localhost/cb"], token_endpoint_auth_method: "none" })
})
afterAll(() => srv.close())

const cookie = () => `service_session_token=${bob.client.token}`
const page = (params: Record<string, string>) =>
  fetch(`${srv.url}/oauth2/authorize?${new URLSearchParams(params)}`, {
    headers: { cookie: cookie() },
    redirect: "manual"
  })

/** A code for the confidential client with PKCE: the code and its verifier. */
const codeWithPkce = async (redirectUri = REDIRECT) => {
  const verifier = oauth.generateRandomCodeVerifier()
  const res = await consent(srv.url, bob.client.token!, {
    client_id: confidential.client_id,
    response_type: "code",
    redirect_uri: redirectUri,
    state: "st",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256"
  })
  return { code: (await codeFrom(res)).searchParams.get("code")!, verifier }
}

const exchange = (code: string, verifier: string, redirectUri = REDIRECT) =>
  tokenPost(srv.url, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirectUri }, {
    authorization: basic(confidential.client_id, confidential.client_secret)
  })

describe("redirect URIs", () => {
  const tricks = [
    ["a prefix", "https://client.example.com/callback/evil"],
    ["a suffix", "https://client.example.com/callbackx"],
    ["a query", "https://client.example.com/callback?x=1"],
    ["a fragment", "https://client.example.com/callback#x"],
    ["another host", "https://evil.example.com/callback"],
    ["another port", "https://client.example.com:8443/callback"],
    ["http for https", "http://client.example.com/callback"],
    ["user info", "https://client.example.com@evil.example.com/callback"]
  ] as const
  for (const [what, uri] of tricks) {
    it(`refuses ${what} with an error page, never redirecting`, async () => {
      const r = await page({ client_id: confidential.client_id, response_type: "code", state: "s", redirect_uri: uri })
      expect(r.status).toBe(400)
      expect(r.headers.get("location")).toBeNull()
      expect(r.headers.get("content-type")).toContain("text/html")
    })
  }

  it("lets a loopback redirect change only its port", async () => {
    const ok = await page({
      client_id: publicClient.client_id,
      response_type: "code",
      state: "s",
      redirect_uri: "http://localhost:5555/cb",
      code_challenge: "x".repeat(43),
      code_challenge_method: "S256"
    })
    expect(ok.status).toBe(200)
    const wrongPath = await page({
      client_id: publicClient.client_id,
      response_type: "code",
      state: "s",
      redirect_uri: "http://localhost:5555/cb2"
    })
    expect(wrongPath.status).toBe(400)
  })

  it("requires a redirect_uri when the client registered several", async () => {
    expect((await page({ client_id: confidential.client_id, response_type: "code", state: "s" })).status).toBe(400)
  })

  it("shows an error page for an unknown client", async () => {
    expect(
      (await page({ client_id: "00000000-0000-4000-8000-000000000000", response_type: "code", state: "s" })).status
    ).toBe(400)
    expect((await page({ response_type: "code", state: "s" })).status).toBe(400)
  })
})

describe("the authorization request", () => {
  it("redirects unsupported response types back with unsupported_response_type and the state", async () => {
    const r = await page({
      client_id: confidential.client_id,
      response_type: "token",
      state: "st1",
      redirect_uri: REDIRECT
    })
    expect(r.status).toBe(302)
    const location = new URL(r.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("unsupported_response_type")
    expect(location.searchParams.get("state")).toBe("st1")
  })

  it("refuses plain PKCE, and requires PKCE of public clients", async () => {
    const plain = await page({
      client_id: confidential.client_id,
      response_type: "code",
      state: "s",
      redirect_uri: REDIRECT,
      code_challenge: "x".repeat(43),
      code_challenge_method: "plain"
    })
    expect(new URL(plain.headers.get("location")!).searchParams.get("error")).toBe("invalid_request")
    const none = await page({
      client_id: publicClient.client_id,
      response_type: "code",
      state: "s",
      redirect_uri: "http://localhost/cb"
    })
    expect(new URL(none.headers.get("location")!).searchParams.get("error")).toBe("invalid_request")
  })

  it("shows the sign-in page without a session, and the consent page escapes and forbids framing", async () => {
    const anonymous = await fetch(
      `${srv.url}/oauth2/authorize?${new URLSearchParams({
        client_id: confidential.client_id,
        response_type: "code",
        state: "s",
        redirect_uri: REDIRECT
      })}`
    )
    expect(anonymous.status).toBe(200)
    expect(await anonymous.text()).toContain("Sign in")
    const app = await owner.post("/oauth2-provider/apps", {
      name: "Evil app",
      callback_url: "https://x.example.com/cb",
      icon: "https://x.example.com/i.png\"><script>alert(1)</script>"
    })
    expect(app.status).toBe(201)
    const r = await page({ client_id: app.body.id, response_type: "code", state: "<script>" })
    const html = await r.text()
    expect(html).not.toContain("<script>")
    expect(html).toContain("&lt;script&gt;")
    expect(r.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(r.headers.get("x-frame-options")).toBe("DENY")
  })

  it("refuses a cross-site consent post, and one without the CSRF token", async () => {
    const params = new URLSearchParams({
      client_id: confidential.client_id,
      response_type: "code",
      state: "s",
      redirect_uri: REDIRECT
    })
    const html = await (await page(Object.fromEntries(params))).text()
    const post = (headers: Record<string, string>, body: Record<string, string>) =>
      fetch(`${srv.url}/oauth2/authorize?${params}`, {
        method: "POST",
        headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(body).toString(),
        redirect: "manual"
      })
    expect((await post({ origin: "https://evil.example.com" }, { csrf_token: csrfOf(html) })).status).toBe(403)
    expect((await post({ "sec-fetch-site": "cross-site" }, { csrf_token: csrfOf(html) })).status).toBe(403)
    expect((await post({ origin: srv.url }, {})).status).toBe(403)
    expect((await post({ origin: srv.url }, { csrf_token: "0".repeat(64) })).status).toBe(403)
    expect((await post({ origin: srv.url }, { csrf_token: csrfOf(html) })).status).toBe(302)
    // Without a session: 401.
    const anonymous = await fetch(`${srv.url}/oauth2/authorize?${params}`, { method: "POST", redirect: "manual" })
    expect(anonymous.status).toBe(401)
  })

  it("refuses an authorization request too long to carry through its pages, without echoing it", async () => {
    const state = "s".repeat(5000)
    const params = new URLSearchParams({
      client_id: confidential.client_id,
      response_type: "code",
      state,
      redirect_uri: REDIRECT
    })
    for (
      const r of [
        await fetch(`${srv.url}/oauth2/authorize?${params}`),
        await fetch(`${srv.url}/oauth2/sign-in?${params}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: srv.url },
          body: new URLSearchParams({ email: bob.email, password: "x" }).toString(),
          redirect: "manual"
        })
      ]
    ) {
      expect(r.status).toBe(400)
      const html = await r.text()
      expect(html).toContain("too long")
      expect(html).not.toContain(state)
      expect(html.length).toBeLessThan(4096)
    }
    // A state of a usual length still signs in.
    const usual = new URLSearchParams({
      client_id: confidential.client_id,
      response_type: "code",
      state: "s".repeat(200),
      redirect_uri: REDIRECT
    })
    expect((await fetch(`${srv.url}/oauth2/authorize?${usual}`)).status).toBe(200)
  })

  it("refuses a cross-site sign-in post", async () => {
    const r = await fetch(`${srv.url}/oauth2/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example.com" },
      body: new URLSearchParams({ email: bob.email, password: "x" }).toString(),
      redirect: "manual"
    })
    expect(r.status).toBe(403)
  })
})

describe("the token endpoint", () => {
  it("refuses a replayed code and revokes what the first use issued", async () => {
    const { code, verifier } = await codeWithPkce()
    const first = await exchange(code, verifier)
    expect(first.status).toBe(200)
    expect(first.headers.get("cache-control")).toBe("no-store")
    const tokens = await first.json() as any
    const replay = await exchange(code, verifier)
    expect(replay.status).toBe(400)
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" })
    const call = await fetch(`${srv.url}/api/v2/users/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` }
    })
    expect(call.status).toBe(401)
  })

  it("refuses a wrong verifier, a missing one, and a different redirect_uri", async () => {
    const a = await codeWithPkce()
    expect(await (await exchange(a.code, oauth.generateRandomCodeVerifier())).json()).toMatchObject({
      error: "invalid_grant"
    })
    const b = await codeWithPkce()
    expect(await (await exchange(b.code, "")).json()).toMatchObject({ error: "invalid_grant" })
    const c = await codeWithPkce()
    expect(await (await exchange(c.code, c.verifier, "https://client.example.com/other")).json()).toMatchObject({
      error: "invalid_grant"
    })
  })

  it("answers client authentication failures with invalid_client 401 and a Basic challenge", async () => {
    const { code, verifier } = await codeWithPkce()
    const r = await tokenPost(srv.url, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT
    }, {
      authorization: basic(confidential.client_id, "wbs_wrong")
    })
    expect(r.status).toBe(401)
    expect(r.headers.get("www-authenticate")).toMatch(/^Basic/)
    expect(await r.json()).toMatchObject({ error: "invalid_client" })
    const noSecret = await tokenPost(srv.url, {
      grant_type: "authorization_code",
      code,
      client_id: confidential.client_id
    })
    expect(noSecret.status).toBe(401)
  })

  it("answers unsupported and missing grant types as RFC 6749 5.2", async () => {
    const r = await tokenPost(srv.url, { grant_type: "password", client_id: confidential.client_id })
    expect(r.status).toBe(400)
    expect(await r.json()).toEqual({ error: "unsupported_grant_type", error_description: expect.any(String) })
    expect(await (await tokenPost(srv.url, {})).json()).toMatchObject({ error: "invalid_request" })
    expect(
      await (await tokenPost(srv.url, { grant_type: "refresh_token", refresh_token: "x" }, {
        authorization: basic(confidential.client_id, confidential.client_secret)
      })).json()
    ).toMatchObject({ error: "invalid_grant" })
  })

  it("revocation needs client authentication", async () => {
    const r = await fetch(`${srv.url}/oauth2/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: confidential.client_id, token: "x" }).toString()
    })
    expect(r.status).toBe(401)
    expect(await r.json()).toMatchObject({ error: "invalid_client" })
  })
})

describe("dynamic registration", () => {
  const refused = async (metadata: Record<string, unknown>, error: string) => {
    const r = await fetch(`${srv.url}/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(metadata)
    })
    expect(r.status).toBe(400)
    expect(await r.json()).toMatchObject({ error })
  }
  it("validates the metadata (RFC 7591 3.2.2)", async () => {
    await refused({}, "invalid_redirect_uri")
    await refused({ redirect_uris: ["http://client.example.com/cb"] }, "invalid_redirect_uri")
    await refused({ redirect_uris: ["https://client.example.com/cb#f"] }, "invalid_redirect_uri")
    await refused({ redirect_uris: ["not a url"] }, "invalid_redirect_uri")
    await refused(
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt" },
      "invalid_client_metadata"
    )
    await refused({ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }, "invalid_client_metadata")
    await refused({ redirect_uris: [REDIRECT], response_types: ["token"] }, "invalid_client_metadata")
    await refused(
      { redirect_uris: [REDIRECT], grant_types: ["authorization_code"], response_types: ["id_token"] },
      "invalid_client_metadata"
    )
  })

  it("reads, updates and deletes a client with its registration access token only (RFC 7592)", async () => {
    const reg = await register(srv.url, {
      client_name: "Managed",
      redirect_uris: [REDIRECT],
      contacts: ["a@example.com"]
    })
    const url = `${srv.url}/oauth2/clients/${reg.client_id}`
    const bearer = { authorization: `Bearer ${reg.registration_access_token}` }
    for (
      const headers of [{}, { authorization: "Bearer wbra_wrong" }, {
        authorization: `Basic ${reg.registration_access_token}`
      }]
    ) {
      const r = await fetch(url, { headers })
      expect(r.status).toBe(401)
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/)
      expect(await r.json()).toMatchObject({ error: "invalid_token" })
    }
    const read = await fetch(url, { headers: bearer })
    expect(read.status).toBe(200)
    const config = await read.json() as any
    expect(config).toMatchObject({ client_id: reg.client_id, client_name: "Managed", contacts: ["a@example.com"] })
    expect(config.client_secret).toBeUndefined()
    expect(config.registration_access_token).toBeUndefined()
    const put = await fetch(url, {
      method: "PUT",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({
        client_id: reg.client_id,
        client_name: "Renamed",
        redirect_uris: ["https://client.example.com/new"]
      })
    })
    expect(put.status).toBe(200)
    expect(await put.json()).toMatchObject({
      client_name: "Renamed",
      redirect_uris: ["https://client.example.com/new"]
    })
    const badPut = await fetch(url, {
      method: "PUT",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [] })
    })
    expect(badPut.status).toBe(400)
    expect((await fetch(url, { method: "DELETE" })).status).toBe(401)
    expect((await fetch(url, { method: "DELETE", headers: bearer })).status).toBe(204)
    expect((await fetch(url, { headers: bearer })).status).toBe(401)
    // A client made by hand has no registration access token.
    const app = await owner.post("/oauth2-provider/apps", { name: "Handmade", callback_url: REDIRECT })
    expect((await fetch(`${srv.url}/oauth2/clients/${app.body.id}`, { headers: bearer })).status).toBe(401)
  })
})

describe("strict redirect URIs", () => {
  /** URIs a URL parser would rewrite (so the redirect would go to another string), or that carry what RFC 6749 forbids. */
  const bad = [
    "https://client.example/cb\r\nSet-Cookie: injected=1",
    "https://client.example/c b",
    "https://client.example/cb\u0007",
    "https://client.example/\tcb",
    "https://client.example/cb\u007f",
    "http://0x7f.1:8080/cb",
    "http://2130706433/cb",
    "http://127.1/cb",
    "http://[0:0::1]/cb",
    "https://Client.example/cb",
    "https://client.example:443/cb",
    "https://client.example:0443/cb",
    "https://client.example\\cb",
    "https://@client.example/cb",
    "https://user:pw@client.example/cb",
    "https://client.example/cb#fragment",
    "https://bücher.example/cb"
  ]
  const good = [
    "https://client.example/cb",
    "https://client.example",
    "http://127.0.0.1:8080/cb",
    "http://[::1]/cb",
    "http://localhost/cb?x=1",
    "https://xn--bcher-kva.example/cb"
  ]

  it("refuses each at registration with invalid_redirect_uri and a validation on redirect_uris", async () => {
    for (const uri of bad) {
      const r = await fetch(`${srv.url}/oauth2/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [REDIRECT, uri] })
      })
      expect(r.status, uri).toBe(400)
      const body = await r.json() as any
      expect(body, uri).toMatchObject({ error: "invalid_redirect_uri", validations: [{ field: "redirect_uris" }] })
      expect(body.validations).toHaveLength(1)
      expect(body.error_description).not.toMatch(/[\r\n\t\u0007\u007f]/)
    }
    for (const uri of good) expect((await register(srv.url, { redirect_uris: [uri] })).redirect_uris).toEqual([uri])
  })

  it("refuses each in an RFC 7592 update, and for apps made by hand (callback_url)", async () => {
    const reg = await register(srv.url, { redirect_uris: [REDIRECT] })
    const bearer = { authorization: `Bearer ${reg.registration_access_token}`, "content-type": "application/json" }
    const app = await owner.post("/oauth2-provider/apps", { name: "Strict", callback_url: REDIRECT })
    expect(app.status).toBe(201)
    for (const uri of bad) {
      const put = await fetch(`${srv.url}/oauth2/clients/${reg.client_id}`, {
        method: "PUT",
        headers: bearer,
        body: JSON.stringify({ redirect_uris: [uri] })
      })
      expect(put.status, uri).toBe(400)
      expect(await put.json(), uri).toMatchObject({
        error: "invalid_redirect_uri",
        validations: [{ field: "redirect_uris" }]
      })
      expectValidations(await owner.post("/oauth2-provider/apps", { name: "Strict Too", callback_url: uri }), [
        "callback_url"
      ])
      expectValidations(
        await owner.put(`/oauth2-provider/apps/${app.body.id}`, { name: "Strict", callback_url: uri }),
        ["callback_url"]
      )
    }
    const read = await fetch(`${srv.url}/oauth2/clients/${reg.client_id}`, { headers: bearer })
    expect((await read.json() as any).redirect_uris).toEqual([REDIRECT])
  })

  it("lets a loopback redirect vary its port only when written canonically", async () => {
    const reg = await register(srv.url, { redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none" })
    const pkce = { code_challenge: "x".repeat(43), code_challenge_method: "S256" }
    const asked = (redirect_uri: string) =>
      page({ client_id: reg.client_id, response_type: "code", state: "s", redirect_uri, ...pkce })
    expect((await asked("http://127.0.0.1:5555/cb")).status).toBe(200)
    for (
      const uri of [
        "http://0x7f.1:5555/cb",
        "http://2130706433:5555/cb",
        "http://127.1:5555/cb",
        "http://127.0.0.1:5555/c\tb"
      ]
    ) {
      const r = await asked(uri)
      expect(r.status, uri).toBe(400)
      expect(r.headers.get("location")).toBeNull()
    }
  })
})
