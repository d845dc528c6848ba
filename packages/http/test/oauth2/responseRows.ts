/**
 * The response schema table's rows of the OAuth2 apps, authorization server and discovery endpoints
 * (packages/http/src/oauth2/), run by ../responseSchemas.ts.
 */
import { type Row, row } from "../responseSchemas.js"
import { STRONG_PASSWORD, uniqueName } from "../support.js"
import { basic, formInit, REDIRECT, register, seedCode, seedTokens } from "./fixtures.js"

export const responseRows: ReadonlyArray<Row> = [
  // oauth2: the app routes, the authorization server and discovery (docs/oauth2.md)
  row("oauth2Apps.list", "GET /api/v2/oauth2-provider/apps", 200, "[OAuth2ProviderApp]", async (w) => {
    await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb",
      icon: "/icon/a.svg"
    })
    return [
      await w.bob.client.get("/oauth2-provider/apps"),
      await w.owner.get(`/oauth2-provider/apps?user_id=${w.bob.user.id}`)
    ]
  }),
  row(
    "oauth2Apps.create",
    "POST /api/v2/oauth2-provider/apps",
    201,
    "OAuth2ProviderApp",
    (w) =>
      w.owner.post("/oauth2-provider/apps", { name: uniqueName("app"), callback_url: "https://app.example.com/cb" })
  ),
  row("oauth2Apps.get", "GET /api/v2/oauth2-provider/apps/:app", 200, "OAuth2ProviderApp", async (w) => {
    const app = await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb"
    })
    return w.bob.client.get(`/oauth2-provider/apps/${app.body.id}`)
  }),
  row("oauth2Apps.update", "PUT /api/v2/oauth2-provider/apps/:app", 200, "OAuth2ProviderApp", async (w) => {
    const app = await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb"
    })
    return w.owner.put(`/oauth2-provider/apps/${app.body.id}`, {
      name: uniqueName("renamed"),
      callback_url: "https://app.example.com/cb2",
      icon: null
    })
  }),
  row("oauth2Apps.delete", "DELETE /api/v2/oauth2-provider/apps/:app", 204, "none", async (w) => {
    const app = await w.owner.post("/oauth2-provider/apps", {
      name: uniqueName("app"),
      callback_url: "https://app.example.com/cb"
    })
    return w.owner.delete(`/oauth2-provider/apps/${app.body.id}`)
  }),
  row(
    "oauth2Apps.listSecrets",
    "GET /api/v2/oauth2-provider/apps/:app/secrets",
    200,
    "[OAuth2ProviderAppSecret]",
    async (w) => {
      const { reg } = await seedTokens(w.srv.url, w.bob.client.token!)
      await w.owner.post(`/oauth2-provider/apps/${reg.client_id}/secrets`)
      return w.owner.get(`/oauth2-provider/apps/${reg.client_id}/secrets`)
    }
  ),
  row(
    "oauth2Apps.createSecret",
    "POST /api/v2/oauth2-provider/apps/:app/secrets",
    201,
    "OAuth2ProviderAppSecretFull",
    async (w) => {
      const app = await w.owner.post("/oauth2-provider/apps", {
        name: uniqueName("app"),
        callback_url: "https://app.example.com/cb"
      })
      return w.owner.post(`/oauth2-provider/apps/${app.body.id}/secrets`)
    }
  ),
  row(
    "oauth2Apps.deleteSecret",
    "DELETE /api/v2/oauth2-provider/apps/:app/secrets/:secretID",
    204,
    "none",
    async (w) => {
      const app = await w.owner.post("/oauth2-provider/apps", {
        name: uniqueName("app"),
        callback_url: "https://app.example.com/cb"
      })
      const secret = await w.owner.post(`/oauth2-provider/apps/${app.body.id}/secrets`)
      return w.owner.delete(`/oauth2-provider/apps/${app.body.id}/secrets/${secret.body.id}`)
    }
  ),
  row(
    "oauth2Apps.getSettings",
    "GET /api/v2/oauth2-provider/settings",
    200,
    "OAuth2ProviderSettings",
    (w) => w.owner.get("/oauth2-provider/settings")
  ),
  row(
    "oauth2Apps.updateSettings",
    "PUT /api/v2/oauth2-provider/settings",
    200,
    "OAuth2ProviderSettings",
    (w) => w.owner.put("/oauth2-provider/settings", { dynamic_client_registration_enabled: true })
  ),
  row("oauth2.authorizePage", "GET /api/v2/oauth2/authorize", 200, "binary text/html; charset=utf-8", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    const query = `client_id=${reg.client_id}&response_type=code&state=s`
    return [
      await w.srv.anonymous.get(`/oauth2/authorize?${query}`),
      await w.srv.anonymous.request("GET", `/oauth2/authorize?${query}`, undefined, {
        headers: { cookie: `service_session_token=${w.bob.client.token}` }
      })
    ]
  }),
  row("oauth2.authorize", "POST /api/v2/oauth2/authorize", 302, "none", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    return w.bob.client.post(`/oauth2/authorize?client_id=${reg.client_id}&response_type=code&state=s`)
  }),
  row(
    "oauth2.signIn",
    "POST /api/v2/oauth2/sign-in",
    303,
    "binary text/html; charset=utf-8",
    (w) =>
      w.srv.anonymous.request(
        "POST",
        "/oauth2/sign-in?client_id=x",
        undefined,
        formInit({ email: w.bob.email, password: STRONG_PASSWORD })
      )
  ),
  row("oauth2.register", "POST /api/v2/oauth2/register", 201, "OAuth2ClientRegistrationResponse", async (w) => [
    await w.srv.anonymous.post("/oauth2/register", { redirect_uris: [REDIRECT] }),
    await w.srv.anonymous.post("/oauth2/register", {
      client_name: "Full",
      redirect_uris: ["http://127.0.0.1/cb"],
      token_endpoint_auth_method: "none",
      client_uri: "https://c.example.com",
      logo_uri: "https://c.example.com/l.png",
      contacts: ["a@example.com"],
      scope: "all",
      software_id: "s",
      software_version: "1"
    })
  ]),
  row("oauth2.getClient", "GET /api/v2/oauth2/clients/:client_id", 200, "OAuth2ClientConfiguration", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT], jwks: { keys: [] } })
    return w.srv.anonymous.request("GET", `/oauth2/clients/${reg.client_id}`, undefined, {
      headers: { authorization: `Bearer ${reg.registration_access_token}` }
    })
  }),
  row("oauth2.updateClient", "PUT /api/v2/oauth2/clients/:client_id", 200, "OAuth2ClientConfiguration", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    return w.srv.anonymous.request("PUT", `/oauth2/clients/${reg.client_id}`, {
      client_name: "New",
      redirect_uris: [REDIRECT]
    }, {
      headers: { authorization: `Bearer ${reg.registration_access_token}` }
    })
  }),
  row("oauth2.deleteClient", "DELETE /api/v2/oauth2/clients/:client_id", 204, "none", async (w) => {
    const reg = await register(w.srv.url, { redirect_uris: [REDIRECT] })
    return w.srv.anonymous.request("DELETE", `/oauth2/clients/${reg.client_id}`, undefined, {
      headers: { authorization: `Bearer ${reg.registration_access_token}` }
    })
  }),
  row("oauth2.token", "POST /api/v2/oauth2/tokens", 200, "OAuth2TokenResponse", async (w) => {
    const { reg, code, verifier } = await seedCode(w.srv.url, w.bob.client.token!, {
      token_endpoint_auth_method: "client_secret_post"
    })
    const first = await w.srv.anonymous.request(
      "POST",
      "/oauth2/tokens",
      undefined,
      formInit({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: reg.client_id,
        client_secret: reg.client_secret
      })
    )
    const refreshed = await w.srv.anonymous.request(
      "POST",
      "/oauth2/tokens",
      undefined,
      formInit({
        grant_type: "refresh_token",
        refresh_token: first.body.refresh_token,
        client_id: reg.client_id,
        client_secret: reg.client_secret
      })
    )
    return [first, refreshed]
  }),
  row("oauth2.revokeApp", "DELETE /api/v2/oauth2/tokens", 204, "none", async (w) => {
    const { reg } = await seedTokens(w.srv.url, w.bob.client.token!)
    return w.bob.client.delete(`/oauth2/tokens?client_id=${reg.client_id}`)
  }),
  row("oauth2.revoke", "POST /api/v2/oauth2/revoke", 200, "none", async (w) => {
    const { reg, tokens } = await seedTokens(w.srv.url, w.bob.client.token!)
    return w.srv.anonymous.request(
      "POST",
      "/oauth2/revoke",
      undefined,
      formInit({
        token: tokens.refresh_token,
        token_type_hint: "refresh_token"
      }, { authorization: basic(reg.client_id, reg.client_secret) })
    )
  }),
  row(
    "oauth2Discovery.authorizationServer",
    "GET /api/v2/.well-known/oauth-authorization-server",
    200,
    "OAuth2AuthorizationServerMetadata",
    (w) => w.srv.anonymous.get("/.well-known/oauth-authorization-server")
  ),
  row(
    "oauth2Discovery.protectedResource",
    "GET /api/v2/.well-known/oauth-protected-resource",
    200,
    "OAuth2ProtectedResourceMetadata",
    (w) => w.srv.anonymous.get("/.well-known/oauth-protected-resource")
  )
]
