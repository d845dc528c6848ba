/**
 * The dashboard client's requests to the users, sessions, tokens, authorization, the first user and sign-in
 * routes (packages/http/src/users/); see ../clientRequests.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dashboardServer, expectAnswered } from "../clientRequests.js"
import {
  createUser,
  expectResponse,
  expectValidations,
  login,
  startTestServer,
  STRONG_PASSWORD,
  type TestServer
} from "../support.js"
import { Browser } from "./signin/browser.js"
import { withGithubSignIn, withOidcSignIn } from "./signin/fixtures.js"

const NIL_UUID = "00000000-0000-0000-0000-000000000000"
const TEMPLATE_ID = "6f1d2c3b-4a59-4e7d-8c6b-5a4f3e2d1c0b"
const NEW_PASSWORD = "Another-Staple-Horse-7"
/** Nanoseconds in an hour, as the dashboard counts token lifetimes. */
const NANO_HOUR = 3_600_000_000_000

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("users", () => {
    it("createUser: a password user, user_status null", async () => {
      const r = await ctx.owner.post("/users", {
        email: "pat@example.com",
        username: "pat",
        name: "",
        password: STRONG_PASSWORD,
        login_type: "password",
        user_status: null,
        organization_ids: [ctx.orgId]
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({
        username: "pat",
        login_type: "password",
        status: "active",
        organization_ids: [ctx.orgId]
      })
      expect((await login(ctx.srv, "pat@example.com")).status).toBe(201)
    })

    it("createUser: login type none or github with the password field cleared", async () => {
      for (const login_type of ["none", "github"]) {
        const r = await ctx.owner.post("/users", {
          email: `${login_type}-dash@example.com`,
          username: `${login_type}-dash`,
          name: "Dash",
          password: "",
          login_type,
          user_status: null,
          organization_ids: [ctx.orgId]
        })
        expect(r.status, JSON.stringify(r.body)).toBe(201)
        expect(r.body.login_type).toBe(login_type)
      }
    })

    it("getUsers: the page and its query, an empty q left out", async () => {
      const r = await ctx.owner.get("/users?limit=25&offset=0")
      expect(r.status).toBe(200)
      expect(r.body.users.length).toBeGreaterThan(1)
      const searched = await ctx.owner.get(
        `/users?q=${encodeURIComponent("status:active dash-member")}&limit=25&offset=0`
      )
      expect(searched.status).toBe(200)
      expect(searched.body.users.map((u: any) => u.username)).toEqual(["dash-member"])
    })

    it("getAuthenticatedUser, getRoles, getUserSSHKey, regenerateUserSSHKey", async () => {
      expect((await ctx.member.client.get("/users/me")).status).toBe(200)
      expect((await ctx.owner.get("/users/roles")).status).toBe(200)
      expect((await ctx.member.client.get("/users/me/gitsshkey")).status).toBe(200)
      expect((await ctx.member.client.put("/users/me/gitsshkey")).status).toBe(200)
    })

    it("updateUserRoles", async () => {
      const r = await ctx.owner.put(`/users/${ctx.member.user.id}/roles`, { roles: ["auditor"] })
      expect(r.status).toBe(200)
      expect((await ctx.owner.put(`/users/${ctx.member.user.id}/roles`, { roles: [] })).status).toBe(200)
    })

    it("suspendUser, activateUser, deleteUser", async () => {
      const { user } = await createUser(ctx.owner)
      expect((await ctx.owner.put(`/users/${user.id}/status/suspend`)).status).toBe(200)
      expect((await ctx.owner.put(`/users/${user.id}/status/activate`)).status).toBe(200)
      expect((await ctx.owner.delete(`/users/${user.id}`)).status).toBe(200)
    })

    it("updateAppearanceSettings", async () => {
      const r = await ctx.member.client.put("/users/me/appearance", {
        theme_preference: "dark",
        terminal_font: "fira-code"
      })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ theme_preference: "dark", terminal_font: "fira-code" })
      expect((await ctx.member.client.get("/users/me/appearance")).body).toMatchObject({ theme_preference: "dark" })
    })

    it("getUserQuietHoursSchedule, updateUserQuietHoursSchedule", async () => {
      expect((await ctx.member.client.get(`/users/${ctx.member.user.id}/quiet-hours`)).status).toBe(200)
      const r = await ctx.member.client.put(`/users/${ctx.member.user.id}/quiet-hours`, {
        schedule: "CRON_TZ=Europe/Paris 0 2 * * *"
      })
      expect(r.status).toBe(200)
    })

    it("getUserParameters", async () => {
      const r = await ctx.member.client.get(`/users/me/autofill-parameters?template_id=${TEMPLATE_ID}`)
      expect(r.status).toBe(200)
      expect(r.body).toEqual([])
    })
  })

  describe("preferences", () => {
    it("getUserPreferenceSettings, updateUserPreferenceSettings: one setting per request, as the agents settings page sends them", async () => {
      const r = await ctx.member.client.get("/users/me/preferences")
      expect(r.status).toBe(200)
      for (
        const body of [
          { collapse_assistant_steps: true },
          { agent_chat_send_shortcut: "modifier_enter" },
          { thinking_display_mode: "always_expanded" },
          { shell_tool_display_mode: "always_collapsed" },
          { code_diff_display_mode: "auto" }
        ]
      ) {
        const put = await ctx.member.client.put("/users/me/preferences", body)
        expect(put.status, JSON.stringify(put.body)).toBe(200)
        expect(put.body).toMatchObject(body)
      }
      expect((await ctx.member.client.get("/users/me/preferences")).body).toEqual({
        agent_chat_send_shortcut: "modifier_enter",
        code_diff_display_mode: "auto",
        collapse_assistant_steps: true,
        shell_tool_display_mode: "always_collapsed",
        thinking_display_mode: "always_expanded"
      })
    })

    it("an older dashboard's task_notification_alert_dismissed is ignored", async () => {
      const r = await ctx.member.client.put("/users/me/preferences", { task_notification_alert_dismissed: true })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).not.toHaveProperty("task_notification_alert_dismissed")
    })
  })

  describe("keys and tokens", () => {
    it("getApiKey", async () => {
      const r = await ctx.member.client.post("/users/me/keys")
      expect(r.status).toBe(201)
      expect(typeof r.body.key).toBe("string")
    })

    it("createToken, getTokens, getTokenConfig, deleteToken", async () => {
      const created = await ctx.member.client.post("/users/me/keys/tokens", {
        lifetime: 7 * 24 * NANO_HOUR,
        token_name: "dashboard-token",
        scope: "all"
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const listed = await ctx.member.client.get("/users/me/keys/tokens?include_all=true")
      expect(listed.status).toBe(200)
      const token = listed.body.find((t: any) => t.token_name === "dashboard-token")
      expect(token).toMatchObject({ user_id: ctx.member.user.id, username: "dash-member" })
      expect((await ctx.member.client.get("/users/me/keys/tokens/tokenconfig")).status).toBe(200)
      expect((await ctx.member.client.delete(`/users/me/keys/${token.id}`)).status).toBe(204)
    })

    it("expireToken: PUT with no body, as the tokens page sends it", async () => {
      const created = await ctx.member.client.post("/users/me/keys/tokens", {
        lifetime: NANO_HOUR,
        token_name: "dashboard-expire",
        scope: "all"
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const id = (created.body.key as string).split("-")[0]
      expect((await ctx.member.client.put(`/users/me/keys/${id}/expire`)).status).toBe(204)
      expect((await ctx.member.client.request("PUT", `/users/${ctx.member.user.id}/keys/${id}/expire`, {})).status)
        .toBe(204)
      expect((await ctx.srv.anonymous.as(created.body.key).get("/users/me")).status).toBe(401)
    })

    it("getTokens: include_all true (the tokens page) and false, as axios writes them", async () => {
      const created = await ctx.member.client.post("/users/me/keys/tokens", {
        lifetime: NANO_HOUR,
        token_name: "seen-by-owner",
        scope: "all"
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const all = await ctx.owner.get("/users/me/keys/tokens?include_all=true")
      expect(all.status).toBe(200)
      expect(all.body.find((t: any) => t.token_name === "seen-by-owner")).toMatchObject({ username: "dash-member" })
      const own = await ctx.owner.get("/users/me/keys/tokens?include_all=false")
      expect(own.status).toBe(200)
      expect(own.body.find((t: any) => t.token_name === "seen-by-owner")).toBeUndefined()
      expect((await ctx.member.client.delete("/users/me/keys/tokens/seen-by-owner")).status).toBe(204)
    })
  })

  describe("authorization", () => {
    it("checkAuthorization: the dashboard's permission checks", async () => {
      const r = await ctx.member.client.post("/authcheck", {
        checks: {
          viewAllUsers: { object: { resource_type: "user" }, action: "read" },
          updateUsers: { object: { resource_type: "user" }, action: "update" },
          createGroup: { object: { resource_type: "group" }, action: "create" },
          createTemplates: { object: { resource_type: "template", any_org: true }, action: "update" },
          viewAnyAuditLog: { object: { resource_type: "audit_log", any_org: true }, action: "read" },
          viewDeploymentConfig: { object: { resource_type: "deployment_config" }, action: "read" },
          editWorkspaceProxies: { object: { resource_type: "workspace_proxy" }, action: "create" },
          readOrgMembers: {
            object: { resource_type: "organization_member", organization_id: ctx.orgId },
            action: "read"
          },
          updateOwnWorkspace: { object: { resource_type: "workspace", owner_id: ctx.member.user.id }, action: "update" }
        }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({
        viewAllUsers: true,
        updateUsers: false,
        readOrgMembers: true,
        updateOwnWorkspace: true
      })
    })

    it("getAuthMethods, hasFirstUser and the scopes listing", async () => {
      expect((await ctx.srv.anonymous.get("/users/authmethods")).status).toBe(200)
      expect((await ctx.srv.anonymous.get("/auth/scopes")).status).toBe(200)
      expect((await ctx.srv.anonymous.get("/users/first")).status).toBe(200)
    })

    it("login and logout", async () => {
      const r = await ctx.srv.anonymous.post("/users/login", { email: ctx.member.email, password: STRONG_PASSWORD })
      expect(r.status).toBe(201)
      expect((await ctx.owner.as(r.body.session_token).post("/users/logout")).status).toBe(200)
    })

    it("validateUserPassword", async () => {
      const r = await ctx.member.client.post("/users/validate-password", { password: STRONG_PASSWORD })
      expect(r.status).toBe(200)
      expect(r.body.valid).toBe(true)
    })

    it("convertToOAUTH", async () => {
      const { client } = await createUser(ctx.owner)
      const r = await client.post("/users/me/convert-login", { to_type: "github", password: STRONG_PASSWORD })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
    })

    it("requestOneTimePassword, changePasswordWithOTP", async () => {
      const { email } = await createUser(ctx.owner)
      expect((await ctx.srv.anonymous.post("/users/otp/request", { email })).status).toBe(204)
      const r = await ctx.srv.anonymous.post("/users/otp/change-password", {
        email,
        password: NEW_PASSWORD,
        one_time_passcode: ctx.mail.passcodeFor(email)
      })
      expect(r.status, JSON.stringify(r.body)).toBe(204)
      expect((await login(ctx.srv, email, NEW_PASSWORD)).status).toBe(201)
    })
  })

  describe("null and absent mean not given", () => {
    it("POST /users with nulls takes the defaults", async () => {
      const r = await ctx.owner.post("/users", {
        email: "nulls@example.com",
        username: "nulls",
        password: STRONG_PASSWORD,
        name: null,
        login_type: null,
        user_status: null,
        organization_ids: null,
        roles: null,
        service_account: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ login_type: "password", status: "active", organization_ids: [ctx.orgId] })
      // Empty optional fields are left out of responses (docs/api.md, Responses).
      expect(r.body).not.toHaveProperty("name")
      expect(r.body).not.toHaveProperty("is_service_account")
    })

    it("POST /users with the nil organization id places the user in the default organization", async () => {
      const r = await ctx.owner.post("/users", {
        email: "nil-org@example.com",
        username: "nil-org",
        password: STRONG_PASSWORD,
        organization_ids: [NIL_UUID]
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body.organization_ids).toEqual([ctx.orgId])
    })

    it("POST /users/me/keys/tokens with nulls, or an empty scope, makes a default token", async () => {
      const r = await ctx.member.client.post("/users/me/keys/tokens", {
        token_name: null,
        lifetime: null,
        scope: null,
        scopes: null,
        allow_list: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      const empty = await ctx.member.client.post("/users/me/keys/tokens", {
        token_name: "empty-scope",
        lifetime: 0,
        scope: ""
      })
      expect(empty.status, JSON.stringify(empty.body)).toBe(201)
      const token = (await ctx.member.client.get("/users/me/keys/tokens/empty-scope")).body
      expect(token.scope).toBe("all")
    })

    it("PUT /users/{user}/appearance with nulls empties the fields, as absent ones do", async () => {
      await ctx.member.client.put("/users/me/appearance", { theme_preference: "light", terminal_font: "fira-code" })
      const r = await ctx.member.client.put("/users/me/appearance", {
        theme_preference: null,
        terminal_font: null,
        theme_dark: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ theme_preference: "", terminal_font: "", theme_dark: "" })
    })

    it("POST /authcheck with null object fields checks as without them", async () => {
      const r = await ctx.member.client.post("/authcheck", {
        checks: {
          plain: { object: { resource_type: "user" }, action: "read" },
          nulls: {
            object: { resource_type: "user", owner_id: null, organization_id: null, resource_id: null, any_org: null },
            action: "read"
          }
        }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ plain: true, nulls: true })
    })

    it("an empty query value is not given", async () => {
      const all = await ctx.owner.get("/users")
      const empty = await ctx.owner.get("/users?q=&after_id=&limit=&offset=")
      expect(empty.status, JSON.stringify(empty.body)).toBe(200)
      expect(empty.body.count).toBe(all.body.count)
      expect((await ctx.owner.get("/users?limit=0")).body.users.length).toBe(all.body.users.length)
      await expectAnswered(ctx.owner, [
        "/users/me/keys/tokens?include_expired=",
        "/users/me/keys/tokens?include_all=&include_expired="
      ])
    })

    it("a wrong value in a nullable field is still one validation, at its path", async () => {
      const query = await ctx.owner.get("/users?limit=x&after_id=nope")
      expectValidations(query, ["limit", "after_id"])
      expect(query.body.validations.find((v: any) => v.field === "after_id").detail).toBe("Must be a UUID.")
      expectValidations(
        await ctx.owner.post("/authcheck", {
          checks: { a: { object: { resource_type: "user", any_org: "yes" }, action: "read" } }
        }),
        [
          "checks.a.object.any_org"
        ]
      )
    })
  })

  describe("a password account needs a password", () => {
    it("answers 400 on password for login type password without one", async () => {
      for (const password of [undefined, null, ""]) {
        const r = await ctx.owner.post("/users", {
          email: "nopass@example.com",
          username: "nopass",
          login_type: "password",
          password
        })
        expectValidations(r, ["password"])
      }
    })

    it("answers 400 on password without a login type, which means password", async () => {
      for (const login_type of [undefined, null, ""]) {
        const r = await ctx.owner.post("/users", {
          email: "nopass@example.com",
          username: "nopass",
          login_type,
          password: ""
        })
        expectValidations(r, ["password"])
      }
    })

    it("makes a service account without a password or login type a login type none user", async () => {
      const r = await ctx.owner.post("/users", {
        email: "svc@example.com",
        username: "svc",
        service_account: true,
        user_status: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ login_type: "none", is_service_account: true })
    })
  })
})

describe("first user, as the setup page sends it", () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startTestServer()
  })
  afterAll(() => srv.close())

  it("hasFirstUser, then createFirstUser with the trial and onboarding fields", async () => {
    expectResponse(await srv.anonymous.get("/users/first"), 404)
    const r = await srv.anonymous.post("/users/first", {
      email: "setup@example.com",
      username: "setup",
      name: "",
      password: STRONG_PASSWORD,
      trial: false,
      trial_info: {
        first_name: "",
        last_name: "",
        phone_number: "",
        job_title: "",
        company_name: "",
        country: "",
        developers: ""
      },
      onboarding_info: { newsletter_marketing: false, newsletter_releases: false }
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect((await srv.anonymous.get("/users/first")).status).toBe(200)
  })

  it("takes null for every optional field", async () => {
    const fresh = await startTestServer()
    try {
      const r = await fresh.anonymous.post("/users/first", {
        email: "setup@example.com",
        username: "setup",
        password: STRONG_PASSWORD,
        name: null,
        trial: null,
        trial_info: null,
        onboarding_info: { newsletter_marketing: null, newsletter_releases: null }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      const nested = await fresh.anonymous.post("/users/first", {
        email: "b@example.com",
        username: "b",
        password: STRONG_PASSWORD,
        onboarding_info: { newsletter_marketing: "x" }
      })
      expectValidations(nested, ["onboarding_info.newsletter_marketing"])
    } finally {
      await fresh.close()
    }
  })
})

describe("sign-in through GitHub and OpenID Connect, as the login pages send it", () => {
  it("the login page's links (redirect), getOAuth2GitHubDevice and getOAuth2GitHubDeviceFlowCallback(code, state)", async () => {
    await withGithubSignIn(async (g) => {
      const browser = new Browser()
      const start = await browser.request(
        `${g.srv.url}/api/v2/users/oauth2/github/callback?redirect=${encodeURIComponent("/templates")}`
      )
      expect(start.status).toBe(307)
      const state = new URL(start.location!).searchParams.get("state")!
      const device = await browser.request(`${g.srv.url}/api/v2/users/oauth2/github/device`)
      expect(device.status, JSON.stringify(device.body)).toBe(200)
      // The device page polls with the device code as `code` and the state from the redirect.
      const pending = await browser.request(
        `${g.srv.url}/api/v2/users/oauth2/github/callback?code=${device.body.device_code}&state=${state}`
      )
      expect(pending.status).toBe(400)
    }, { oauth2GithubDeviceFlow: true })
  })

  it("the OIDC button's link (redirect) and getUserOIDCClaims", async () => {
    await withOidcSignIn(async (o) => {
      const start = await o.srv.anonymous.get(`/users/oidc/callback?redirect=${encodeURIComponent("/workspaces")}`)
      expect(start.status).toBe(307)
      const { answer, client } = await o.signIn("olivia")
      expect(answer.status).toBe(307)
      const claims = await client.get("/users/oidc-claims")
      expect(claims.status, JSON.stringify(claims.body)).toBe(200)
    })
  })
})
