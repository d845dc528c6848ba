/**
 * What ends an OAuth2 grant besides the client and the user revoking it: a password change (by
 * the user or an administrator) or a one-time-passcode reset, the user's suspension or
 * deletion, and the deletion of the client secret it was issued with; and the keys an app's
 * access token may not mint (so nothing it holds outlives its grant). Real HTTP on SQLite.
 */
import { createHash, randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  captureMail,
  type Client,
  createUser,
  startWithOwner,
  STRONG_PASSWORD,
  type TestServer,
  type TestUser
} from "../support.js"
import { basic, codeFrom, consent, REDIRECT, register, seedTokens, tokenPost } from "./fixtures.js"

const NEW_PASSWORD = "Another-Horse-Battery-7"

const mail = captureMail()
let srv: TestServer
let owner: Client

beforeAll(async () => {
  ;({ srv, owner } = await startWithOwner({ mail: mail.layer }))
})
afterAll(() => srv.close())

/** A call to the API with an OAuth2 access token. */
const api = (accessToken: string, method = "GET", path = "/api/v2/users/me", body?: unknown) =>
  fetch(`${srv.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    body: body === undefined ? null : JSON.stringify(body)
  })

/** A refresh at the token endpoint, the client authenticating with `secret`. */
const refresh = (clientId: string, secret: string, refreshToken: string) =>
  tokenPost(srv.url, { grant_type: "refresh_token", refresh_token: refreshToken }, {
    authorization: basic(clientId, secret)
  })

/** A user with a grant: the user, the client and its token pair. */
const userWithGrant = async () => {
  const user = await createUser(owner)
  const { reg, tokens } = await seedTokens(srv.url, user.client.token!)
  expect((await api(tokens.access_token)).status).toBe(200)
  return { user, reg, tokens }
}

/** Asserts the grant's access token answers 401 and its refresh token `invalid_grant`. */
const expectEnded = async (grant: Awaited<ReturnType<typeof userWithGrant>>) => {
  expect((await api(grant.tokens.access_token)).status).toBe(401)
  const r = await refresh(grant.reg.client_id, grant.reg.client_secret, grant.tokens.refresh_token)
  expect(r.status).toBe(400)
  expect(await r.json()).toMatchObject({ error: "invalid_grant" })
}

/** The newest audit entry about `user` of `resourceType`. */
const latestEntry = async (resourceType: string, targetUsername: string) => {
  const audit = await owner.get(`/audit?limit=50&q=${encodeURIComponent(`resource_type:${resourceType}`)}`)
  expect(audit.status).toBe(200)
  return (audit.body.audit_logs as Array<any>).find((e) => e.resource_target === targetUsername)
}

describe("a password change or reset", () => {
  it("by the user ends their OAuth2 refresh and access tokens, and the change's audit entry says so", async () => {
    const grant = await userWithGrant()
    const changed = await grant.user.client.put("/users/me/password", {
      old_password: STRONG_PASSWORD,
      password: NEW_PASSWORD
    })
    expect(changed.status).toBe(204)
    await expectEnded(grant)
    const entry = await latestEntry("user", grant.user.username)
    expect(entry.additional_fields).toMatchObject({ oauth2_tokens_revoked: 1 })
  })

  it("by an administrator ends them too", async () => {
    const grant = await userWithGrant()
    expect((await owner.put(`/users/${grant.user.user.id}/password`, { password: NEW_PASSWORD })).status).toBe(204)
    await expectEnded(grant)
  })

  it("by a one-time passcode ends them too, and a code issued before cannot be exchanged", async () => {
    const grant = await userWithGrant()
    const { reg, code, verifier } = await pendingCode(grant.user)
    expect((await srv.anonymous.post("/users/otp/request", { email: grant.user.email })).status).toBe(204)
    const reset = await srv.anonymous.post("/users/otp/change-password", {
      email: grant.user.email,
      one_time_passcode: mail.passcodeFor(grant.user.email),
      password: NEW_PASSWORD
    })
    expect(reset.status).toBe(204)
    await expectEnded(grant)
    const exchanged = await exchange(reg, code, verifier)
    expect(exchanged.status).toBe(400)
    expect(await exchanged.json()).toMatchObject({ error: "invalid_grant" })
  })
})

/** A code for `user` of the client `clientId`, not yet exchanged, and its PKCE verifier. */
const pendingCodeFor = async (user: TestUser, clientId: string) => {
  const verifier = randomBytes(32).toString("base64url")
  const res = await consent(srv.url, user.client.token!, {
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT,
    state: "st",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256"
  })
  return { code: (await codeFrom(res)).searchParams.get("code")!, verifier }
}

/** A code of a new client for `user`, not yet exchanged. */
const pendingCode = async (user: TestUser) => {
  const reg = await register(srv.url, { client_name: "Pending", redirect_uris: [REDIRECT] })
  return { reg, ...(await pendingCodeFor(user, reg.client_id)) }
}

const exchange = (reg: Record<string, any>, code: string, verifier: string) =>
  tokenPost(srv.url, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, {
    authorization: basic(reg.client_id, reg.client_secret)
  })

describe("a grant of a user who may not sign in", () => {
  it("refreshes to invalid_grant while the user is suspended, and again once they are activated", async () => {
    const grant = await userWithGrant()
    const pending = await pendingCode(grant.user)
    expect((await owner.put(`/users/${grant.user.user.id}/status/suspend`)).status).toBe(200)
    const refused = await refresh(grant.reg.client_id, grant.reg.client_secret, grant.tokens.refresh_token)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" })
    const exchanged = await exchange(pending.reg, pending.code, pending.verifier)
    expect(exchanged.status).toBe(400)
    expect(await exchanged.json()).toMatchObject({ error: "invalid_grant" })
    expect((await owner.put(`/users/${grant.user.user.id}/status/activate`)).status).toBe(200)
    const again = await refresh(grant.reg.client_id, grant.reg.client_secret, grant.tokens.refresh_token)
    expect(again.status).toBe(200)
  })

  it("refreshes to invalid_grant once the user is deleted", async () => {
    const grant = await userWithGrant()
    expect((await owner.delete(`/users/${grant.user.user.id}`)).status).toBe(200)
    await expectEnded(grant)
  })
})

describe("an app's access token", () => {
  it("creates no API keys, sessions, application keys or grants (403), so revoking the app ends all it holds", async () => {
    const grant = await userWithGrant()
    for (
      const [method, path, body] of [
        ["POST", "/api/v2/users/me/keys/tokens", { token_name: "from-app" }],
        ["POST", "/api/v2/users/me/keys", {}],
        ["GET", `/api/v2/applications/auth-redirect?redirect_uri=${encodeURIComponent(srv.url)}`, undefined]
      ] as const
    ) {
      const r = await api(grant.tokens.access_token, method, path, body)
      expect(r.status, `${method} ${path}`).toBe(403)
      expect((await r.json()).message).toMatch(/OAuth2 app's access token/)
    }
    // A consent posted with the app's token (no cookie, so no CSRF token is asked for).
    const again = await fetch(
      `${srv.url}/oauth2/authorize?${new URLSearchParams({
        client_id: grant.reg.client_id,
        response_type: "code",
        redirect_uri: REDIRECT,
        state: "s",
        code_challenge: "c".repeat(43),
        code_challenge_method: "S256"
      })}`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${grant.tokens.access_token}`,
          "content-type": "application/x-www-form-urlencoded"
        },
        body: "decision=allow",
        redirect: "manual"
      }
    )
    expect(again.status).toBe(403)
    // The user's own session still makes tokens.
    expect((await grant.user.client.post("/users/me/keys/tokens", { token_name: "mine" })).status).toBe(201)
    expect((await grant.user.client.delete(`/oauth2/tokens?client_id=${grant.reg.client_id}`)).status).toBe(204)
    await expectEnded(grant)
  })
})

describe("deleting a client secret", () => {
  it("ends the tokens issued with it; a grant refreshed with another secret lives on", async () => {
    const grant = await userWithGrant()
    const appPath = `/oauth2-provider/apps/${grant.reg.client_id}/secrets`
    const [first] = (await owner.get(appPath)).body as Array<{ id: string }>
    const second = await owner.post(appPath)
    expect(second.status).toBe(201)
    const secret2 = second.body.client_secret_full as string
    // A second grant of the same user, refreshed with the second secret.
    const other = await (async () => {
      const { code, verifier } = await pendingCodeFor(grant.user, grant.reg.client_id)
      const r = await tokenPost(srv.url, {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT
      }, {
        authorization: basic(grant.reg.client_id, grant.reg.client_secret)
      })
      expect(r.status).toBe(200)
      const first = await r.json() as { refresh_token: string }
      const rotated = await refresh(grant.reg.client_id, secret2, first.refresh_token)
      expect(rotated.status).toBe(200)
      return await rotated.json() as { access_token: string; refresh_token: string }
    })()
    const deleted = await owner.delete(`${appPath}/${first!.id}`)
    expect(deleted.status).toBe(204)
    expect((await api(grant.tokens.access_token)).status).toBe(401)
    const refused = await refresh(grant.reg.client_id, secret2, grant.tokens.refresh_token)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" })
    expect((await api(other.access_token)).status).toBe(200)
    expect((await refresh(grant.reg.client_id, secret2, other.refresh_token)).status).toBe(200)
    const entry = (await owner.get("/audit?limit=20")).body.audit_logs.find((e: any) =>
      e.resource_type === "oauth2_provider_app_secret" && e.action === "delete"
    )
    expect(entry.additional_fields).toMatchObject({ oauth2_tokens_revoked: 1 })
  })
})
