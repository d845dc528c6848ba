/**
 * The response schema table's rows of the users, sessions, sign-in and authorization endpoints
 * (packages/http/src/users/), run by ../responseSchemas.ts.
 */
import { randomUUID } from "node:crypto"
import { type Row, row } from "../responseSchemas.js"
import { createUser, sessionClient, startTestServer, STRONG_PASSWORD, tokenClient, uniqueName } from "../support.js"
import { withGithubSignIn, withOidcSignIn } from "./signin/fixtures.js"

export const responseRows: ReadonlyArray<Row> = [
  // authorization (no token needed)
  row(
    "authorization.scopes",
    "GET /api/v2/auth/scopes",
    200,
    "ExternalAPIKeyScopes",
    (w) => w.srv.anonymous.get("/auth/scopes")
  ),
  row(
    "authorization.login",
    "POST /api/v2/users/login",
    201,
    "LoginWithPasswordResponse",
    (w) => w.srv.anonymous.post("/users/login", { email: w.bob.email, password: STRONG_PASSWORD })
  ),
  row(
    "authorization.requestOneTimePasscode",
    "POST /api/v2/users/otp/request",
    204,
    "none",
    (w) => w.srv.anonymous.post("/users/otp/request", { email: w.bob.email })
  ),
  row(
    "authorization.changePasswordWithOneTimePasscode",
    "POST /api/v2/users/otp/change-password",
    204,
    "none",
    async (w) => {
      const forgetful = await createUser(w.owner, { username: uniqueName("forgetful") })
      await w.srv.anonymous.post("/users/otp/request", { email: forgetful.email })
      const passcode = w.mail.passcodeFor(forgetful.email)!
      return w.srv.anonymous.post("/users/otp/change-password", {
        email: forgetful.email,
        one_time_passcode: passcode,
        password: `${STRONG_PASSWORD}-new`
      })
    }
  ),
  row(
    "authorization.getFirstUser",
    "GET /api/v2/users/first",
    200,
    "Response",
    (w) => w.srv.anonymous.get("/users/first")
  ),
  row("authorization.createFirstUser", "POST /api/v2/users/first", 201, "CreateFirstUserResponse", async () => {
    const fresh = await startTestServer()
    try {
      return await fresh.anonymous.post("/users/first", {
        email: "founder@example.com",
        username: "founder",
        name: "First Owner",
        password: STRONG_PASSWORD
      })
    } finally {
      await fresh.close()
    }
  }),
  row(
    "authorization.authMethods",
    "GET /api/v2/users/authmethods",
    200,
    "AuthMethods",
    (w) => w.srv.anonymous.get("/users/authmethods")
  ),

  // session
  row(
    "session.validatePassword",
    "POST /api/v2/users/validate-password",
    200,
    "ValidateUserPasswordResponse",
    async (w) => [
      await w.bob.client.post("/users/validate-password", { password: "short" }),
      await w.bob.client.post("/users/validate-password", { password: STRONG_PASSWORD })
    ]
  ),
  row(
    "session.convertLogin",
    "POST /api/v2/users/:user/convert-login",
    201,
    "OAuthConversionResponse",
    (w) => w.bob.client.post("/users/me/convert-login", { password: STRONG_PASSWORD, to_type: "oidc" })
  ),
  row(
    "session.authcheck",
    "POST /api/v2/authcheck",
    200,
    "AuthorizationResponse",
    (w) =>
      w.bob.client.post("/authcheck", {
        checks: {
          readSelf: { action: "read", object: { resource_type: "user", resource_id: w.bob.user.id } },
          deleteOrg: { action: "delete", object: { resource_type: "organization", resource_id: w.orgId } }
        }
      })
  ),
  row(
    "session.logout",
    "POST /api/v2/users/logout",
    200,
    "Response",
    async (w) => (await sessionClient(w.srv.anonymous, w.bob.email)).post("/users/logout")
  ),

  // users
  row("users.list", "GET /api/v2/users", 200, "GetUsersResponse", async (w) => [
    await w.owner.get("/users"),
    await w.owner.get(`/users?q=${encodeURIComponent("status:active")}&limit=2`)
  ]),
  row("users.create", "POST /api/v2/users", 201, "User", async (w) => [
    await w.owner.post("/users", {
      email: `${uniqueName("plain")}@example.com`,
      username: uniqueName("plain"),
      password: STRONG_PASSWORD
    }),
    await w.owner.post("/users", {
      email: `${uniqueName("named")}@example.com`,
      username: uniqueName("named"),
      name: "Named Person",
      password: STRONG_PASSWORD,
      roles: ["auditor"],
      organization_ids: [w.org.id]
    })
  ]),
  row("users.assignableRoles", "GET /api/v2/users/roles", 200, "[AssignableRoles]", (w) => w.owner.get("/users/roles")),
  row("users.get", "GET /api/v2/users/:user", 200, "User", async (w) => [
    await w.owner.get("/users/me"),
    await w.owner.get(`/users/${w.alice.user.id}`),
    await w.owner.get(`/users/${w.bob.username}`),
    await w.owner.get(`/users/${w.robotId}`),
    await w.alice.client.get("/users/me")
  ]),
  row("users.updateRoles", "PUT /api/v2/users/:user/roles", 200, "User", async (w) => {
    const target = await createUser(w.owner, { username: uniqueName("roles") })
    return [
      await w.owner.put(`/users/${target.user.id}/roles`, { roles: ["auditor", "template-admin"] }),
      await w.owner.put(`/users/${target.user.id}/roles`, { roles: [] })
    ]
  }),
  row(
    "users.suspend",
    "PUT /api/v2/users/:user/status/suspend",
    200,
    "User",
    async (w) =>
      w.owner.put(`/users/${(await createUser(w.owner, { username: uniqueName("susp") })).user.id}/status/suspend`)
  ),
  row("users.activate", "PUT /api/v2/users/:user/status/activate", 200, "User", async (w) => {
    const target = await createUser(w.owner, { username: uniqueName("act") })
    await w.owner.put(`/users/${target.user.id}/status/suspend`)
    return w.owner.put(`/users/${target.user.id}/status/activate`)
  }),
  row(
    "users.delete",
    "DELETE /api/v2/users/:user",
    200,
    "none",
    async (w) => w.owner.delete(`/users/${(await createUser(w.owner, { username: uniqueName("gone") })).user.id}`)
  ),
  row("users.roles", "GET /api/v2/users/:user/roles", 200, "UserRoles", async (w) => [
    await w.owner.get("/users/me/roles"),
    await w.alice.client.get("/users/me/roles")
  ]),
  row(
    "users.loginType",
    "GET /api/v2/users/:user/login-type",
    200,
    "UserLoginType",
    (w) => w.alice.client.get("/users/me/login-type")
  ),
  row("users.organizations", "GET /api/v2/users/:user/organizations", 200, "[Organization]", async (w) => [
    await w.owner.get("/users/me/organizations"),
    await w.alice.client.get("/users/me/organizations")
  ]),
  row(
    "users.organizationByName",
    "GET /api/v2/users/:user/organizations/:organizationname",
    200,
    "Organization",
    (w) => w.owner.get(`/users/me/organizations/${w.org.name}`)
  ),
  row("users.updateProfile", "PUT /api/v2/users/:user/profile", 200, "User", async (w) => {
    const u = await createUser(w.owner, { username: uniqueName("pf") })
    return await u.client.put("/users/me/profile", { username: u.username, name: "Pat Profile" })
  }),
  row("users.updatePassword", "PUT /api/v2/users/:user/password", 204, "none", async (w) => {
    const u = await createUser(w.owner, { username: uniqueName("pw") })
    return await w.owner.put(`/users/${u.user.id}/password`, { password: "Another-Horse-Battery-8" })
  }),
  row("users.getAppearance", "GET /api/v2/users/:user/appearance", 200, "UserAppearanceSettings", async (w) => [
    await w.alice.client.get("/users/me/appearance"),
    await w.bob.client.get("/users/me/appearance")
  ]),
  row(
    "users.updateAppearance",
    "PUT /api/v2/users/:user/appearance",
    200,
    "UserAppearanceSettings",
    (w) => w.bob.client.put("/users/me/appearance", { theme_preference: "light", terminal_font: "fira-code" })
  ),
  row("users.getPreferences", "GET /api/v2/users/:user/preferences", 200, "UserPreferenceSettings", async (w) => [
    await w.bob.client.get("/users/me/preferences"),
    await w.owner.get(`/users/${w.bob.user.id}/preferences`)
  ]),
  row(
    "users.updatePreferences",
    "PUT /api/v2/users/:user/preferences",
    200,
    "UserPreferenceSettings",
    (w) =>
      w.bob.client.put("/users/me/preferences", {
        collapse_assistant_steps: true,
        thinking_display_mode: "always_expanded"
      })
  ),
  row(
    "users.autofillParameters",
    "GET /api/v2/users/:user/autofill-parameters",
    200,
    "[UserParameter]",
    (w) => w.bob.client.get(`/users/me/autofill-parameters?template_id=${randomUUID()}`)
  ),
  row(
    "users.getGitSshKey",
    "GET /api/v2/users/:user/gitsshkey",
    200,
    "GitSSHKey",
    (w) => w.bob.client.get("/users/me/gitsshkey")
  ),
  row(
    "users.regenerateGitSshKey",
    "PUT /api/v2/users/:user/gitsshkey",
    200,
    "GitSSHKey",
    (w) => w.bob.client.put("/users/me/gitsshkey")
  ),
  row(
    "users.getQuietHours",
    "GET /api/v2/users/:user/quiet-hours",
    200,
    "[UserQuietHoursScheduleResponse]",
    async (w) => [await w.alice.client.get("/users/me/quiet-hours"), await w.bob.client.get("/users/me/quiet-hours")]
  ),
  row(
    "users.updateQuietHours",
    "PUT /api/v2/users/:user/quiet-hours",
    200,
    "[UserQuietHoursScheduleResponse]",
    (w) => w.alice.client.put("/users/me/quiet-hours", { schedule: "CRON_TZ=Europe/Paris 30 2 * * *" })
  ),
  row(
    "users.createSessionKey",
    "POST /api/v2/users/:user/keys",
    201,
    "GenerateAPIKeyResponse",
    (w) => w.bob.client.post("/users/me/keys")
  ),
  row("users.listTokens", "GET /api/v2/users/:user/keys/tokens", 200, "[APIKeyWithOwner]", async (w) => [
    await w.owner.get("/users/me/keys/tokens"),
    await w.owner.get("/users/me/keys/tokens?include_expired=true"),
    await w.owner.get("/users/me/keys/tokens?include_all=true"),
    await w.bob.client.get("/users/me/keys/tokens?include_all=true&include_expired=true")
  ]),
  row(
    "users.createToken",
    "POST /api/v2/users/:user/keys/tokens",
    201,
    "GenerateAPIKeyResponse",
    (w) => w.bob.client.post("/users/me/keys/tokens", { token_name: uniqueName("t"), scopes: ["user:read"] })
  ),
  row("users.tokenConfig", "GET /api/v2/users/:user/keys/tokens/tokenconfig", 200, "TokenConfig", async (w) => [
    await w.owner.get("/users/me/keys/tokens/tokenconfig"),
    await w.bob.client.get("/users/me/keys/tokens/tokenconfig")
  ]),
  row(
    "users.getTokenByName",
    "GET /api/v2/users/:user/keys/tokens/:keyname",
    200,
    "APIKey",
    (w) => w.owner.get(`/users/me/keys/tokens/${w.tokenName}`)
  ),
  row("users.deleteTokenByName", "DELETE /api/v2/users/:user/keys/tokens/:keyname", 204, "none", async (w) => {
    const name = uniqueName("doomed")
    await tokenClient(w.bob.client, { token_name: name })
    return w.bob.client.delete(`/users/me/keys/tokens/${name}`)
  }),
  row("users.getKey", "GET /api/v2/users/:user/keys/:keyid", 200, "APIKey", async (w) => {
    const key = (await w.bob.client.post("/users/me/keys")).body.key as string
    return [
      await w.bob.client.get(`/users/me/keys/${key.split("-")[0]}`),
      await w.owner.get(`/users/me/keys/${w.tokenName}`)
    ]
  }),
  row("users.deleteKey", "DELETE /api/v2/users/:user/keys/:keyid", 204, "none", async (w) => {
    const key = (await w.bob.client.post("/users/me/keys")).body.key as string
    return w.bob.client.delete(`/users/me/keys/${key.split("-")[0]}`)
  }),
  row("users.expireKey", "PUT /api/v2/users/:user/keys/:keyid/expire", 204, "none", async (w) => {
    const key = (await w.bob.client.post("/users/me/keys")).body.key as string
    return w.bob.client.put(`/users/me/keys/${key.split("-")[0]}/expire`)
  }),
  // sign-in through GitHub and OpenID Connect: each row on a server of its own wired to its provider
  row(
    "signin.githubCallback",
    "GET /api/v2/users/oauth2/github/callback",
    307,
    "none",
    () =>
      withGithubSignIn(async (
        g
      ) => [await g.srv.anonymous.get("/users/oauth2/github/callback"), (await g.signIn("octo")).answer])
  ),
  row(
    "signin.githubDevice",
    "GET /api/v2/users/oauth2/github/device",
    200,
    "ExternalAuthDevice",
    () => withGithubSignIn((g) => g.srv.anonymous.get("/users/oauth2/github/device"), { oauth2GithubDeviceFlow: true })
  ),
  row(
    "signin.oidcCallback",
    "GET /api/v2/users/oidc/callback",
    307,
    "none",
    () =>
      withOidcSignIn(async (
        o
      ) => [await o.srv.anonymous.get("/users/oidc/callback"), (await o.signIn("olivia")).answer])
  ),
  row(
    "signinSession.oidcClaims",
    "GET /api/v2/users/oidc-claims",
    200,
    "OIDCClaimsResponse",
    () => withOidcSignIn(async (o) => (await o.signIn("olivia")).client.get("/users/oidc-claims"))
  )
]
