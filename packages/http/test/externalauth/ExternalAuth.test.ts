/**
 * External auth for workspaces over real HTTP, against a local provider speaking GitHub's OAuth
 * endpoints and a generic OAuth2 form: the web flow (state and PKCE in cookies) links, the list
 * shows it, expired tokens refresh on use (rotating), a refused refresh is remembered, unlinking
 * revokes, the device flow links; a workspace agent gets its owner's token by match or id, the
 * sign-in URL when unlinked, waits with `listen` until the owner links, and the removed
 * `/gitauth` answers the same. Each route's 400, 401, 403 and 404. With encryption keys the
 * tokens are stored encrypted, and a link sealed with a removed key asks its user to link again.
 */
import { SqlClient } from "@effect/sql"
import { ExternalAuthLinkRepo, keyDigest, makeSecretBox } from "@workbay/core"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordingProvisioner } from "../agents/fixtures.js"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "../support.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { cookiesOf, linkThroughBrowser, type ProviderServer, providerSettings, startProvider } from "./provider.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
`

describe("external auth", () => {
  let provider: ProviderServer
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let other: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    provider = await startProvider()
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      settings: { externalAuth: providerSettings(provider.url) }
    }))
    dev = await createUser(owner, { username: "ext-dev" })
    other = await createUser(owner, { username: "ext-other" })
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(async () => {
    await srv?.close()
    await provider?.close()
  })

  /** The whole web flow as a browser makes it: start, the provider's authorize page, the callback. */
  const link = async (client: Client, id: string, login = "octocat", redirect?: string) => {
    const r = await linkThroughBrowser(provider, srv.url, client, id, login, redirect)
    expect(r.atProvider.status).toBe(302)
    expect(r.back.startsWith(`${srv.url}/api/v2/external-auth/${id}/callback?`)).toBe(true)
    return r
  }

  const agentOf = async (user: TestUser) => {
    const w = await makeWorkspace(srv, user.client, orgId, template.id)
    return user.client.as(handed.get(w.id)!.get("main")!)
  }

  const setLink = (providerId: string, userId: string, change: (l: any) => any) =>
    srv.run(Effect.gen(function*() {
      const repo = yield* ExternalAuthLinkRepo
      const l = Option.getOrThrow(yield* repo.find(providerId, userId))
      yield* repo.updateTokens(change(l), l.oauth_refresh_token)
    }))

  const storedLink = (providerId: string, userId: string) =>
    srv.run(Effect.flatMap(ExternalAuthLinkRepo, (r) => r.find(providerId, userId))).then(Option.getOrUndefined)

  it("GET /external-auth lists the configured providers, without secrets, and the caller's links", async () => {
    const r = await other.client.get("/external-auth")
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.links).toEqual([])
    expect(r.body.providers.map((p: any) => p.id)).toEqual(["github", "gh-device", "corp", "gitlab"])
    expect(r.body.providers[0]).toEqual({
      id: "github",
      type: "github",
      device: false,
      display_name: "GitHub",
      display_icon: "/icon/github.svg",
      allow_refresh: true,
      allow_validate: true,
      supports_revocation: true,
      code_challenge_methods_supported: ["S256"]
    })
    expect(r.body.providers[1]).toMatchObject({ id: "gh-device", device: true })
    expect(r.body.providers[2]).toMatchObject({
      id: "corp",
      type: "generic",
      display_name: "Corp Git",
      display_icon: "/emojis/1f511.png",
      code_challenge_methods_supported: []
    })
    expect(r.body.providers[3]).toMatchObject({ id: "gitlab", display_name: "GitLab", supports_revocation: true })
    expect(JSON.stringify(r.body)).not.toContain("secret")
  })

  it("the web flow: 307 to the provider with state and PKCE in cookies, then the callback links and goes back (307)", async () => {
    const { start, authorize, done } = await link(dev.client, "github")
    expect(authorize.origin + authorize.pathname).toBe(`${provider.url}/login/oauth/authorize`)
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: "gh-client",
      response_type: "code",
      scope: "repo workflow",
      code_challenge_method: "S256",
      redirect_uri: `${srv.url}/api/v2/external-auth/github/callback`
    })
    expect(authorize.searchParams.get("state")!.length).toBeGreaterThanOrEqual(32)
    const setCookies = start.headers.getSetCookie().join("\n")
    expect(setCookies).toContain("oauth_state=")
    expect(setCookies).toContain("oauth_pkce_verifier=")
    expect(setCookies).toContain("HttpOnly")
    expect(done.status, JSON.stringify(done.body)).toBe(307)
    expect(done.headers.get("location")).toBe(`${srv.url}/external-auth/github?redirected=true`)
    // The flow's cookies are cleared.
    expect(done.headers.getSetCookie().every((c) => /Max-Age=0/.test(c))).toBe(true)

    const list = await dev.client.get("/external-auth")
    expect(list.body.links).toHaveLength(1)
    expect(list.body.links[0]).toMatchObject({
      provider_id: "github",
      authenticated: true,
      has_refresh_token: true,
      validate_error: ""
    })
    // GitHub OAuth app tokens do not expire: Go's zero time, as the described system sends it.
    expect(list.body.links[0].expires).toBe("0001-01-01T00:00:00.000Z")
    expect(JSON.stringify(list.body)).not.toContain("gho_")
  })

  it("GET /external-auth/{provider}: authenticated with the provider's account and app installations once linked", async () => {
    const before = await other.client.get("/external-auth/github")
    expect(before.status).toBe(200)
    expect(before.body).toEqual({
      authenticated: false,
      device: false,
      display_name: "GitHub",
      user: null,
      app_installable: false,
      installations: [],
      app_install_url: ""
    })
    await link(other.client, "github", "hubber")
    const after = await other.client.get("/external-auth/github")
    expect(after.body).toMatchObject({
      authenticated: true,
      user: { id: 4242, login: "hubber", name: "hubber Name", profile_url: `${provider.url}/hubber` },
      app_installable: true,
      installations: [{ id: 7, account: { login: "acme" }, configure_url: `${provider.url}/settings/installations/7` }]
    })
  })

  it("the callback goes back to the path given at the start, never to another site", async () => {
    const inside = await link(owner, "corp", "boss", "/workspaces?tab=1")
    expect(inside.done.headers.get("location")).toBe(`${srv.url}/workspaces?tab=1`)
    const outside = await link(owner, "corp", "boss", "//evil.example/steal")
    expect(outside.done.headers.get("location")).toBe(`${srv.url}/external-auth/corp?redirected=true`)
  })

  it("the callback refuses a state that is not the cookie's (401), a missing cookie (401), a missing state (400) and a bad code (400)", async () => {
    const start = await dev.client.get("/external-auth/corp/callback")
    const cookie = cookiesOf(start.headers)
    const cb = (q: string, headers: Record<string, string> = { cookie }) =>
      dev.client.request("GET", `/external-auth/corp/callback?${q}`, undefined, { headers })
    expectResponse(await cb("code=abc&state=wrong"), 401)
    expectResponse(
      await cb(`code=abc&state=${new URLSearchParams(cookie.replace(/; /g, "&")).get("oauth_state")}`, {}),
      401
    )
    expectValidations(await cb("code=abc"), ["state"])
    const state = new URLSearchParams(cookie.replace(/; /g, "&")).get("oauth_state")!
    const bad = await cb(`code=not-a-code&state=${state}`)
    expectResponse(bad, 400)
    expect(bad.body.detail).toContain("bad_verification_code")
    expectResponse(await cb("error=access_denied&error_description=The+user+said+no"), 400)
    // A provider that signs in through the device flow has no web callback.
    expectResponse(await dev.client.get("/external-auth/gh-device/callback"), 400)
  })

  it("an expired token is refreshed on use with the refresh token, which rotates", async () => {
    const user = await createUser(owner, { username: "ext-refresh" })
    await link(user.client, "github", "refresher")
    const first = (await storedLink("github", user.user.id))!
    await setLink("github", user.user.id, (l) => ({ ...l, oauth_expiry: new Date(Date.now() - 60_000) }))
    const list = await user.client.get("/external-auth")
    expect(list.body.links[0]).toMatchObject({ provider_id: "github", authenticated: true, has_refresh_token: true })
    const refreshed = (await storedLink("github", user.user.id))!
    expect(provider.refreshes).toContain(first.oauth_refresh_token)
    expect(refreshed.oauth_access_token).not.toBe(first.oauth_access_token)
    expect(refreshed.oauth_refresh_token).not.toBe(first.oauth_refresh_token)
    // The old access token was given up at the provider; the new one is the one in use.
    expect(provider.tokens.get(first.oauth_access_token)!.revoked).toBe(true)
  })

  it("concurrent uses of one expired link refresh it once", async () => {
    const user = await createUser(owner, { username: "ext-concurrent" })
    await link(user.client, "github")
    const first = (await storedLink("github", user.user.id))!
    await setLink("github", user.user.id, (l) => ({ ...l, oauth_expiry: new Date(Date.now() - 60_000) }))
    const answers = await Promise.all([
      user.client.get("/external-auth"),
      user.client.get("/external-auth"),
      user.client.get("/external-auth/github"),
      user.client.get("/external-auth")
    ])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
    expect(answers[0]!.body.links[0].authenticated).toBe(true)
    expect(answers[2]!.body.authenticated).toBe(true)
    expect(provider.refreshes.filter((r) => r === first.oauth_refresh_token)).toHaveLength(1)
  })

  it("a refused refresh drops the refresh token and says why; the link is no longer authenticated", async () => {
    const user = await createUser(owner, { username: "ext-refused" })
    await link(user.client, "github")
    await setLink(
      "github",
      user.user.id,
      (l) => ({ ...l, oauth_expiry: new Date(Date.now() - 60_000), oauth_refresh_token: "ghr_unknown" })
    )
    const list = await user.client.get("/external-auth")
    expect(list.body.links[0]).toMatchObject({ authenticated: false, has_refresh_token: false })
    expect(list.body.links[0].validate_error).toContain("invalid_grant")
    // Not tried again: the reason is kept.
    const again = await user.client.get("/external-auth")
    expect(again.body.links[0].validate_error).toContain("invalid_grant")
    expect(provider.refreshes.filter((r) => r === "ghr_unknown")).toHaveLength(1)
    expect((await user.client.get("/external-auth/github")).body.authenticated).toBe(false)
  })

  it("DELETE /external-auth/{provider} unlinks and revokes the token at the provider; a second one is 404", async () => {
    const user = await createUser(owner, { username: "ext-unlink" })
    await link(user.client, "github")
    const stored = (await storedLink("github", user.user.id))!
    const r = await user.client.delete("/external-auth/github")
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toEqual({ token_revoked: true })
    expect(provider.revocations).toContainEqual({ token: stored.oauth_access_token, kind: "github" })
    expect((await user.client.get("/external-auth")).body.links).toEqual([])
    expectResponse(await user.client.delete("/external-auth/github"), 404)
    // A generic provider revokes per RFC 7009 (the refresh token, which ends the grant).
    await link(user.client, "corp")
    const corp = (await storedLink("corp", user.user.id))!
    expect((await user.client.delete("/external-auth/corp")).body).toEqual({ token_revoked: true })
    expect(provider.revocations).toContainEqual({ token: corp.oauth_refresh_token, kind: "rfc7009" })
  })

  it("GET /templateversions/{id}/external-auth names the deployment's provider and says whether the caller is linked", async () => {
    const t = await makeTemplate(
      srv,
      owner,
      orgId,
      `external_auth:\n  - { id: github }\n  - { id: nowhere, optional: true }\n${TEMPLATE}`
    )
    const u = await createUser(owner, { username: "ext-tv" })
    const path = `/templateversions/${t.active_version_id}/external-auth`
    const before = await u.client.get(path)
    expect(before.status, JSON.stringify(before.body)).toBe(200)
    expect(before.body).toEqual([
      {
        id: "github",
        type: "github",
        display_name: "GitHub",
        display_icon: expect.any(String),
        authenticated: false,
        authenticate_url: `${srv.url}/external-auth/github`
      },
      {
        id: "nowhere",
        type: "nowhere",
        display_name: "nowhere",
        display_icon: "",
        authenticated: false,
        optional: true,
        authenticate_url: `${srv.url}/external-auth/nowhere`
      }
    ])
    await link(u.client, "github", "tv-user")
    const after = await u.client.get(path)
    expect(after.body.map((p: any) => [p.id, p.authenticated])).toEqual([["github", true], ["nowhere", false]])
  })

  it("the device flow: codes from the provider, pending until the user enters theirs, then linked (204)", async () => {
    const user = await createUser(owner, { username: "ext-device" })
    const started = await user.client.get("/external-auth/gh-device/device")
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    expect(started.body).toMatchObject({
      verification_uri: `${provider.url}/login/device`,
      expires_in: 900,
      interval: 5
    })
    expect(typeof started.body.device_code).toBe("string")
    const pending = await user.client.post("/external-auth/gh-device/device", { device_code: started.body.device_code })
    expectResponse(pending, 400)
    expect(pending.body.detail).toContain("authorization_pending")
    provider.approveDevice(started.body.user_code, "device-user")
    const done = await user.client.post("/external-auth/gh-device/device", { device_code: started.body.device_code })
    expect(done.status, JSON.stringify(done.body)).toBe(204)
    const list = await user.client.get("/external-auth")
    expect(list.body.links).toEqual([expect.objectContaining({ provider_id: "gh-device", authenticated: true })])
    expect((await user.client.get("/external-auth/gh-device")).body.user.login).toBe("device-user")
    // A provider without the device flow refuses both.
    expectResponse(await user.client.get("/external-auth/github/device"), 400)
    expectResponse(await user.client.post("/external-auth/github/device", { device_code: "x" }), 400)
    expectValidations(await user.client.post("/external-auth/gh-device/device", {}), ["device_code"])
  })

  it("the agent gets its workspace owner's token by match and by id, in each type's Git form", async () => {
    const user = await createUser(owner, { username: "ext-agent" })
    const agent = await agentOf(user)
    await link(user.client, "github")
    const token = (await storedLink("github", user.user.id))!.oauth_access_token
    const byMatch = await agent.get(
      `/workspaceagents/me/external-auth?match=${encodeURIComponent("https://github.example/org/repo.git")}`
    )
    expect(byMatch.status, JSON.stringify(byMatch.body)).toBe(200)
    expect(byMatch.body).toEqual({
      access_token: token,
      token_extra: null,
      url: "",
      type: "github",
      username: token,
      password: ""
    })
    const byId = await agent.get("/workspaceagents/me/external-auth?id=github")
    expect(byId.body.access_token).toBe(token)

    await link(user.client, "gitlab")
    const gitlab = await agent.get(
      `/workspaceagents/me/external-auth?match=${encodeURIComponent(`${provider.url}/group/project.git`)}`
    )
    const glToken = (await storedLink("gitlab", user.user.id))!.oauth_access_token
    expect(gitlab.body).toEqual({
      access_token: glToken,
      token_extra: null,
      url: "",
      type: "gitlab",
      username: "oauth2",
      password: glToken
    })

    await link(user.client, "corp")
    const corp = await agent.get("/workspaceagents/me/external-auth?id=corp")
    expect(corp.body.token_extra).toEqual({ scope: "repo,workflow", token_type: "bearer" })
    expect(corp.body.type).toBe("generic")
  })

  it("unlinked: the agent gets the URL where its owner links the provider", async () => {
    const user = await createUser(owner, { username: "ext-unlinked" })
    const agent = await agentOf(user)
    const r = await agent.get("/workspaceagents/me/external-auth?id=corp")
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      access_token: "",
      token_extra: null,
      url: `${srv.url}/external-auth/corp`,
      type: "",
      username: "",
      password: ""
    })
  })

  it("listen waits until the owner links, then answers the token", async () => {
    const user = await createUser(owner, { username: "ext-listen" })
    const agent = await agentOf(user)
    const waiting = agent.get(
      `/workspaceagents/me/external-auth?listen=true&match=${encodeURIComponent("https://git.corp.example/x.git")}`
    )
    let answered = false
    void waiting.then(() => (answered = true))
    // Before the owner links, the request is still open (it answered nothing to these).
    await user.client.get("/external-auth")
    expect(answered).toBe(false)
    await link(user.client, "corp")
    const r = await waiting
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.access_token).toBe((await storedLink("corp", user.user.id))!.oauth_access_token)
  })

  it("the removed GET /workspaceagents/me/gitauth answers as external-auth (older agents send url)", async () => {
    const user = await createUser(owner, { username: "ext-gitauth" })
    const agent = await agentOf(user)
    const unlinked = await agent.get(
      `/workspaceagents/me/gitauth?url=${encodeURIComponent("https://github.example/a/b")}`
    )
    expect(unlinked.body.url).toBe(`${srv.url}/external-auth/github`)
    await link(user.client, "github")
    const linked = await agent.get(
      `/workspaceagents/me/gitauth?url=${encodeURIComponent("https://github.example/a/b")}`
    )
    expect(linked.body.access_token).toBe((await storedLink("github", user.user.id))!.oauth_access_token)
  })

  it("agent routes: 400 without match and id or with both, 404 for no matching provider, 401 for a user's key", async () => {
    const agent = await agentOf(dev)
    for (const path of ["/workspaceagents/me/external-auth", "/workspaceagents/me/gitauth"]) {
      expectValidations(await agent.get(path), ["match"])
      expectValidations(await agent.get(`${path}?match=https://github.example/x&id=github`), ["id"])
      const none = await agent.get(`${path}?match=${encodeURIComponent("https://elsewhere.example/x")}`)
      expectResponse(none, 404)
      expect(none.body.detail).toContain("github=")
      expectResponse(await agent.get(`${path}?id=nope`), 404)
      expectResponse(await dev.client.get(`${path}?id=github`), 401)
      expectResponse(await dev.client.as(undefined).get(`${path}?id=github`), 401)
    }
  })

  it("user routes: 401 without a session, 403 for a token without the user's personal grants, 404 for an unknown provider", async () => {
    const limited = await dev.client.post("/users/me/keys/tokens", {
      token_name: "ws-only",
      scopes: ["workspace:read"]
    })
    expect(limited.status, JSON.stringify(limited.body)).toBe(201)
    const asLimited = dev.client.as(limited.body.key)
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/external-auth"],
      ["GET", "/external-auth/github"],
      ["DELETE", "/external-auth/github"],
      ["GET", "/external-auth/github/callback"],
      ["GET", "/external-auth/gh-device/device"],
      ["POST", "/external-auth/gh-device/device", { device_code: "x" }]
    ]
    for (const [method, path, body] of routes) {
      expectResponse(await dev.client.as(undefined).request(method, path, body), 401)
      expectResponse(await asLimited.request(method, path, body), 403)
    }
    for (const [method, path, body] of routes.slice(1)) {
      expectResponse(await dev.client.request(method, path.replace(/github|gh-device/, "unknown"), body), 404)
    }
  })

  it("linking and unlinking are audited without tokens", async () => {
    const user = await createUser(owner, { username: "ext-audit" })
    await link(user.client, "github")
    await user.client.delete("/external-auth/github")
    const audit = await owner.get(`/audit?limit=100&q=${encodeURIComponent(`username:${user.username}`)}`)
    expect(audit.status, JSON.stringify(audit.body)).toBe(200)
    const mine = (audit.body.audit_logs as Array<any>).filter((e) => e.resource_type === "external_auth_link")
    expect(mine.map((e) => e.action).sort()).toEqual(expect.arrayContaining(["create", "delete"]))
    expect(JSON.stringify(mine)).not.toMatch(/gho_|ghr_/)
    const created = mine.find((e) => e.action === "create" && e.status_code === 307 && Object.keys(e.diff).length > 0)
    expect(created.diff.provider_id).toMatchObject({ new: "github" })
    expect(created.additional_fields).toMatchObject({ flow: "linked" })
    expect(created.resource_target).toBe("github")
    // The start of the flow is recorded as such, with nothing changed.
    const started = mine.find((e) => e.additional_fields?.flow === "started")
    expect(started).toMatchObject({ resource_id: user.user.id, resource_target: "github", diff: {} })
  })
})

describe("external auth with encryption keys", () => {
  const [k1, removed] = [randomBytes(32).toString("base64"), randomBytes(32).toString("base64")]
  let provider: ProviderServer
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  beforeAll(async () => {
    provider = await startProvider()
    ;({ srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      settings: { externalAuth: providerSettings(provider.url), externalTokenEncryptionKeys: [k1] }
    }))
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(async () => {
    await srv?.close()
    await provider?.close()
  })

  const raw = (userId: string) =>
    srv.run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<Record<string, unknown>>`SELECT * FROM external_auth_links WHERE user_id = ${userId}`.pipe(
          Effect.orDie
        )) as Effect.Effect<
          ReadonlyArray<Record<string, unknown>>
        >
    )

  it("stores the provider's tokens encrypted, hands the agent the token as issued; a link sealed with a removed key asks to link again", async () => {
    const user = await createUser(owner, { username: "ext-sealed" })
    const w = await makeWorkspace(srv, user.client, orgId, template.id)
    const agent = user.client.as(handed.get(w.id)!.get("main")!)
    const r = await linkThroughBrowser(provider, srv.url, user.client, "github", "octocat")
    expect(r.atProvider.status).toBe(302)
    const token = Option.getOrThrow(
      await srv.run(Effect.flatMap(ExternalAuthLinkRepo, (repo) => repo.find("github", user.user.id)))
    ).oauth_access_token
    const [row] = await raw(user.user.id)
    expect(row!.oauth_access_token).not.toContain(token)
    expect(row!.oauth_access_token_key_id).toBe(keyDigest(Buffer.from(k1, "base64")))
    expect((await agent.get("/workspaceagents/me/external-auth?id=github")).body.access_token).toBe(token)
    expect((await user.client.get("/external-auth/github")).body.authenticated).toBe(true)

    // As if the key had been removed before a rotation: the link does not open.
    const sealed = makeSecretBox([removed]).seal(token)
    await srv.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE external_auth_links SET oauth_access_token = ${sealed.value}, oauth_access_token_key_id = ${sealed.keyId}
        WHERE user_id = ${user.user.id}`.pipe(Effect.orDie)
      ) as Effect.Effect<unknown>
    )
    const page = await user.client.get("/external-auth/github")
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    expect(page.body.authenticated).toBe(false)
    expect((await user.client.get("/external-auth")).body.links).toEqual([])
    const unlinked = await agent.get("/workspaceagents/me/external-auth?id=github")
    expect(unlinked.status).toBe(200)
    expect(unlinked.body).toMatchObject({ access_token: "", url: `${srv.url}/external-auth/github` })
    // Linking again replaces it.
    await linkThroughBrowser(provider, srv.url, user.client, "github", "octocat")
    expect((await user.client.get("/external-auth/github")).body.authenticated).toBe(true)
  })
})
