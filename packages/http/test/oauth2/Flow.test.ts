/**
 * The authorization server driven by an independent, strict client library (oauth4webapi):
 * discovery, dynamic registration, the code flow with PKCE, refresh with rotation and reuse
 * detection, revocation, and API calls with the access token. Real HTTP on a real port.
 */
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, createUser, type ServiceTestServer, startWithOwner } from "../support.js"
import { codeFrom, consent, discover, insecure, REDIRECT, register } from "./fixtures.js"

let srv: ServiceTestServer
let owner: Client
let bob: Awaited<ReturnType<typeof createUser>>

beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner())
  bob = await createUser(owner, { username: "bob" })
})
afterAll(() => srv.close())

const me = (accessToken: string, path = "/api/v2/users/me") =>
  fetch(`${srv.url}${path}`, { headers: { authorization: `Bearer ${accessToken}` } })

/** A grant for bob through the consent page, exchanged by oauth4webapi. */
const grant = async (
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  auth: oauth.ClientAuth,
  redirectUri = REDIRECT
) => {
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const res = await consent(srv.url, bob.client.token!, {
    client_id: client.client_id,
    response_type: "code",
    redirect_uri: redirectUri,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256"
  })
  const params = oauth.validateAuthResponse(as, client, await codeFrom(res), state)
  const tokenResponse = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    auth,
    params,
    redirectUri,
    verifier,
    insecure
  )
  return oauth.processAuthorizationCodeResponse(as, client, tokenResponse)
}

describe("the code flow with a strict client", () => {
  it("discovers the server at the root and under /api/v2, naming only what it serves", async () => {
    const as = await discover(srv.url)
    expect(as.issuer).toBe(srv.url)
    expect(as.token_endpoint).toBe(`${srv.url}/oauth2/tokens`)
    expect(as.response_types_supported).toEqual(["code"])
    expect(as.code_challenge_methods_supported).toEqual(["S256"])
    expect(as.grant_types_supported).toEqual(["authorization_code", "refresh_token"])
    const prefixed = await fetch(`${srv.url}/api/v2/.well-known/oauth-authorization-server`)
    expect(await prefixed.json()).toEqual(
      await (await fetch(`${srv.url}/.well-known/oauth-authorization-server`)).json()
    )
    const resource = await (await fetch(`${srv.url}/.well-known/oauth-protected-resource`)).json()
    expect(resource).toEqual({
      resource: srv.url,
      authorization_servers: [srv.url],
      scopes_supported: as.scopes_supported,
      bearer_methods_supported: ["header"]
    })
    // The scopes a client may ask for: the keys' external catalog (GET /auth/scopes).
    expect(as.scopes_supported).toContain("all")
    expect(as.scopes_supported).toContain("workspace:ssh")
  })

  it("registers a confidential client, runs the code flow with PKCE, and the token calls the API as the user", async () => {
    const as = await discover(srv.url)
    const reg = await register(srv.url, {
      client_name: "Tool",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "client_secret_basic"
    })
    expect(reg.client_secret).toMatch(/^wbs_/)
    expect(reg.registration_client_uri).toBe(`${srv.url}/oauth2/clients/${reg.client_id}`)
    const client: oauth.Client = { client_id: reg.client_id }
    const tokens = await grant(as, client, oauth.ClientSecretBasic(reg.client_secret))
    expect(tokens.token_type.toLowerCase()).toBe("bearer")
    expect(tokens.expires_in).toBeGreaterThan(0)
    const r = await me(tokens.access_token)
    expect(r.status).toBe(200)
    expect((await r.json()).username).toBe("bob")
    // The session header keeps working beside Bearer.
    expect((await bob.client.get("/users/me")).status).toBe(200)
  })

  it("rotates refresh tokens, and a reused one revokes the whole grant", async () => {
    const as = await discover(srv.url)
    const reg = await register(srv.url, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_post" })
    const client: oauth.Client = { client_id: reg.client_id }
    const auth = oauth.ClientSecretPost(reg.client_secret)
    const first = await grant(as, client, auth)
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, first.refresh_token!, insecure)
    )
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect((await me(first.access_token)).status).toBe(401)
    expect((await me(second.access_token)).status).toBe(200)

    const reuse = await oauth.refreshTokenGrantRequest(as, client, auth, first.refresh_token!, insecure)
    await expect(oauth.processRefreshTokenResponse(as, client, reuse)).rejects.toMatchObject({ error: "invalid_grant" })
    // The thief's use of the old token also ended the legitimate holder's tokens.
    expect((await me(second.access_token)).status).toBe(401)
    const afterReuse = await oauth.refreshTokenGrantRequest(as, client, auth, second.refresh_token!, insecure)
    await expect(oauth.processRefreshTokenResponse(as, client, afterReuse)).rejects.toMatchObject({
      error: "invalid_grant"
    })
  })

  it("revokes a grant through RFC 7009", async () => {
    const as = await discover(srv.url)
    const reg = await register(srv.url, { redirect_uris: [REDIRECT] })
    const client: oauth.Client = { client_id: reg.client_id }
    const auth = oauth.ClientSecretBasic(reg.client_secret)
    const tokens = await grant(as, client, auth)
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, auth, tokens.refresh_token!, insecure)
    )
    expect((await me(tokens.access_token)).status).toBe(401)
    // Unknown tokens are answered 200 too.
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, "wbr_unknown", insecure))
    // The access token can be revoked the same way.
    const more = await grant(as, client, auth)
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, more.access_token, insecure))
    expect((await me(more.access_token)).status).toBe(401)
  })

  it("serves a public client (no secret) with PKCE and a loopback redirect on any port", async () => {
    const as = await discover(srv.url)
    const reg = await register(srv.url, { redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none" })
    expect(reg.client_secret).toBeUndefined()
    const client: oauth.Client = { client_id: reg.client_id, token_endpoint_auth_method: "none" }
    const tokens = await grant(as, client, oauth.None(), "http://127.0.0.1:49152/cb")
    expect((await me(tokens.access_token)).status).toBe(200)
  })

  it("lets the user revoke an app (DELETE /oauth2/tokens) and lists the apps they authorized", async () => {
    const as = await discover(srv.url)
    const reg = await register(srv.url, { client_name: "Revoked", redirect_uris: [REDIRECT] })
    const client: oauth.Client = { client_id: reg.client_id }
    const tokens = await grant(as, client, oauth.ClientSecretBasic(reg.client_secret))
    const listed = await owner.get(`/oauth2-provider/apps?user_id=${bob.user.id}`)
    expect(listed.body.map((a: any) => a.id)).toContain(reg.client_id)
    expect((await bob.client.delete(`/oauth2/tokens?client_id=${reg.client_id}`)).status).toBe(204)
    expect((await me(tokens.access_token)).status).toBe(401)
    const refreshed = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(reg.client_secret),
      tokens.refresh_token!,
      insecure
    )
    await expect(oauth.processRefreshTokenResponse(as, client, refreshed)).rejects.toMatchObject({
      error: "invalid_grant"
    })
  })

  it("answers a denied consent with access_denied and the state", async () => {
    const reg = await register(srv.url, { redirect_uris: [REDIRECT] })
    const res = await consent(srv.url, bob.client.token!, {
      client_id: reg.client_id,
      response_type: "code",
      state: "s1"
    }, { decision: "deny" })
    const location = await codeFrom(res)
    expect(location.searchParams.get("error")).toBe("access_denied")
    expect(location.searchParams.get("state")).toBe("s1")
    expect(location.searchParams.get("code")).toBeNull()
  })

  it("serves the /api/v2 form of the authorization endpoint too", async () => {
    const reg = await register(srv.url, { redirect_uris: [REDIRECT] })
    const res = await consent(srv.url, bob.client.token!, {
      client_id: reg.client_id,
      response_type: "code",
      state: "s2"
    }, { prefix: "/api/v2" })
    const location = await codeFrom(res)
    expect(location.origin + location.pathname).toBe(REDIRECT)
    expect(location.searchParams.get("code")).toMatch(/^wbc_/)
  })
})

describe("audit", () => {
  it("records registrations, grants, token issues and revocations, without secrets", async () => {
    const as = await discover(srv.url)
    const reg = await register(srv.url, { client_name: "Audited", redirect_uris: [REDIRECT] })
    const client: oauth.Client = { client_id: reg.client_id }
    const auth = oauth.ClientSecretBasic(reg.client_secret)
    const tokens = await grant(as, client, auth)
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, auth, tokens.refresh_token!, insecure)
    )
    const audit = await owner.get("/audit?limit=200")
    const text = JSON.stringify(audit.body)
    for (
      const secret of [reg.client_secret, reg.registration_access_token, tokens.access_token, tokens.refresh_token!]
    ) {
      expect(text).not.toContain(secret.slice(5))
    }
    const entries = (audit.body.audit_logs as Array<any>).filter((e) => e.resource_target === "Audited")
    const kinds = entries.map((e) => `${e.resource_type}:${e.action}`)
    expect(kinds).toEqual(expect.arrayContaining([
      "oauth2_provider_app:register",
      "oauth2_provider_app_code_token:create",
      "api_key:create",
      "api_key:delete"
    ]))
    const issued = entries.find((e) => e.resource_type === "api_key" && e.action === "create")
    expect(issued.user.id).toBe(bob.user.id)
    expect(issued.diff.access_token).toEqual({ old: "", new: "", secret: true })
  })
})
