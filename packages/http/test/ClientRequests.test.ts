/**
 * The requests of the described system's own dashboard client (coder/coder `site/src/api/api.ts`
 * and the pages calling it), written out as data with their `null`s, empty strings and query
 * strings: each gets the success answer. Then what those values mean: `null`, absent and (in a
 * query) empty all mean "not given" (docs/api.md, Requests).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { closeLicensedWorld, licensedWorld } from "./enterprise/fixtures.js"
import { licenseClaims } from "./enterprise/licenses.js"
import { closeExternalAuthWorld, externalAuthWorld } from "./externalauth/fixtures.js"
import { makeValidator } from "./schemas/ResponseSchemas.js"
import {
  captureMail,
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  login,
  type ServiceTestServer,
  startTestServer,
  startWithOwner,
  STRONG_PASSWORD,
  type TestServer,
  type TestUser,
  uniqueName
} from "./support.js"
import { makeTemplate, makeVersion } from "./templates/fixtures.js"
import { createVersion, FULL_TEMPLATE, runJobs, seedTemplate, uploadTemplate } from "./templates/versions.js"
import { Browser } from "./users/signin/browser.js"
import { withGithubSignIn, withOidcSignIn } from "./users/signin/fixtures.js"
import { connect as connectWs, eventually as eventuallyWs } from "./websocket.js"
import { FREE_TEMPLATE, makeTemplate as importWorkspaceTemplate } from "./workspaces/fixtures.js"
import { portShareTemplate, seedWorkspace } from "./workspaces/portShareFixtures.js"
import { makeWorkspace } from "./workspaces/sharingFixtures.js"

const NIL_UUID = "00000000-0000-0000-0000-000000000000"
const TEMPLATE_ID = "6f1d2c3b-4a59-4e7d-8c6b-5a4f3e2d1c0b"
const NEW_PASSWORD = "Another-Staple-Horse-7"

/** Nanoseconds in an hour, as the dashboard counts token lifetimes. */
const NANO_HOUR = 3_600_000_000_000

describe("requests of the dashboard client", () => {
  const mail = captureMail()
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let member: TestUser
  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner({ mail: mail.layer }))
    member = await createUser(owner, { username: "dash-member" })
  })
  afterAll(() => srv.close())

  describe("tasks", () => {
    it("createTask, getTasks, getTask, pauseTask, updateTaskInput, resumeTask, deleteTask, as the tasks page sends them", async () => {
      const template = await importWorkspaceTemplate(
        srv,
        owner,
        orgId,
        "resources:\n  - name: box\n    type: machine\n    agents:\n" +
          "      - name: main\n        apps:\n          - slug: claude\n            command: claude\nai_task:\n  app: claude\n"
      )
      const created = await member.client.post("/tasks/me", {
        input: "Build a landing page",
        template_version_id: template.active_version_id,
        template_version_preset_id: null,
        name: "",
        display_name: ""
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body.display_name).toBe("Build a landing page")
      expect(created.body.name).toMatch(/^build-a-landing-page-[0-9a-f]{4}$/)
      await runJobs(srv)
      for (const q of ["owner:me", "owner:\"me\"", `owner:${member.username} status:initializing`, ""]) {
        const r = await member.client.get(`/tasks?q=${encodeURIComponent(q)}`)
        expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200)
        expect(r.body.tasks.map((t: any) => t.id)).toContain(created.body.id)
      }
      expect((await member.client.get(`/tasks/${member.username}/${created.body.id}`)).status).toBe(200)
      expect((await member.client.post(`/tasks/${member.username}/${created.body.id}/pause`)).status).toBe(202)
      await runJobs(srv)
      expect(
        (await member.client.patch(`/tasks/${member.username}/${created.body.id}/input`, { input: "Build two pages" }))
          .status
      ).toBe(204)
      expect((await member.client.post(`/tasks/${member.username}/${created.body.id}/resume`)).status).toBe(202)
      await runJobs(srv)
      expect((await member.client.get(`/tasks/${member.username}/${created.body.id}/logs`)).status).toBe(200)
      expect((await member.client.delete(`/tasks/${member.username}/${created.body.id}`)).status).toBe(202)
      await runJobs(srv)
    })
  })

  describe("users", () => {
    it("createUser: a password user, user_status null", async () => {
      const r = await owner.post("/users", {
        email: "pat@example.com",
        username: "pat",
        name: "",
        password: STRONG_PASSWORD,
        login_type: "password",
        user_status: null,
        organization_ids: [orgId]
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({
        username: "pat",
        login_type: "password",
        status: "active",
        organization_ids: [orgId]
      })
      expect((await login(srv, "pat@example.com")).status).toBe(201)
    })

    it("createUser: login type none or github with the password field cleared", async () => {
      for (const login_type of ["none", "github"]) {
        const r = await owner.post("/users", {
          email: `${login_type}-dash@example.com`,
          username: `${login_type}-dash`,
          name: "Dash",
          password: "",
          login_type,
          user_status: null,
          organization_ids: [orgId]
        })
        expect(r.status, JSON.stringify(r.body)).toBe(201)
        expect(r.body.login_type).toBe(login_type)
      }
    })

    it("getUsers: the page and its query, an empty q left out", async () => {
      const r = await owner.get("/users?limit=25&offset=0")
      expect(r.status).toBe(200)
      expect(r.body.users.length).toBeGreaterThan(1)
      const searched = await owner.get(`/users?q=${encodeURIComponent("status:active dash-member")}&limit=25&offset=0`)
      expect(searched.status).toBe(200)
      expect(searched.body.users.map((u: any) => u.username)).toEqual(["dash-member"])
    })

    it("getAuthenticatedUser, getRoles, getUserSSHKey, regenerateUserSSHKey", async () => {
      expect((await member.client.get("/users/me")).status).toBe(200)
      expect((await owner.get("/users/roles")).status).toBe(200)
      expect((await member.client.get("/users/me/gitsshkey")).status).toBe(200)
      expect((await member.client.put("/users/me/gitsshkey")).status).toBe(200)
    })

    it("updateUserRoles", async () => {
      const r = await owner.put(`/users/${member.user.id}/roles`, { roles: ["auditor"] })
      expect(r.status).toBe(200)
      expect((await owner.put(`/users/${member.user.id}/roles`, { roles: [] })).status).toBe(200)
    })

    it("suspendUser, activateUser, deleteUser", async () => {
      const { user } = await createUser(owner)
      expect((await owner.put(`/users/${user.id}/status/suspend`)).status).toBe(200)
      expect((await owner.put(`/users/${user.id}/status/activate`)).status).toBe(200)
      expect((await owner.delete(`/users/${user.id}`)).status).toBe(200)
    })

    it("updateAppearanceSettings", async () => {
      const r = await member.client.put("/users/me/appearance", {
        theme_preference: "dark",
        terminal_font: "fira-code"
      })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ theme_preference: "dark", terminal_font: "fira-code" })
      expect((await member.client.get("/users/me/appearance")).body).toMatchObject({ theme_preference: "dark" })
    })

    it("getUserQuietHoursSchedule, updateUserQuietHoursSchedule", async () => {
      expect((await member.client.get(`/users/${member.user.id}/quiet-hours`)).status).toBe(200)
      const r = await member.client.put(`/users/${member.user.id}/quiet-hours`, {
        schedule: "CRON_TZ=Europe/Paris 0 2 * * *"
      })
      expect(r.status).toBe(200)
    })

    it("getUserParameters", async () => {
      const r = await member.client.get(`/users/me/autofill-parameters?template_id=${TEMPLATE_ID}`)
      expect(r.status).toBe(200)
      expect(r.body).toEqual([])
    })
  })

  describe("preferences", () => {
    it("getUserPreferenceSettings, updateUserPreferenceSettings: one setting per request, as the agents settings page sends them", async () => {
      const r = await member.client.get("/users/me/preferences")
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
        const put = await member.client.put("/users/me/preferences", body)
        expect(put.status, JSON.stringify(put.body)).toBe(200)
        expect(put.body).toMatchObject(body)
      }
      expect((await member.client.get("/users/me/preferences")).body).toEqual({
        agent_chat_send_shortcut: "modifier_enter",
        code_diff_display_mode: "auto",
        collapse_assistant_steps: true,
        shell_tool_display_mode: "always_collapsed",
        thinking_display_mode: "always_expanded"
      })
    })

    it("an older dashboard's task_notification_alert_dismissed is ignored", async () => {
      const r = await member.client.put("/users/me/preferences", { task_notification_alert_dismissed: true })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).not.toHaveProperty("task_notification_alert_dismissed")
    })
  })

  describe("keys and tokens", () => {
    it("getApiKey", async () => {
      const r = await member.client.post("/users/me/keys")
      expect(r.status).toBe(201)
      expect(typeof r.body.key).toBe("string")
    })

    it("createToken, getTokens, getTokenConfig, deleteToken", async () => {
      const created = await member.client.post("/users/me/keys/tokens", {
        lifetime: 7 * 24 * NANO_HOUR,
        token_name: "dashboard-token",
        scope: "all"
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const listed = await member.client.get("/users/me/keys/tokens?include_all=true")
      expect(listed.status).toBe(200)
      const token = listed.body.find((t: any) => t.token_name === "dashboard-token")
      expect(token).toMatchObject({ user_id: member.user.id, username: "dash-member" })
      expect((await member.client.get("/users/me/keys/tokens/tokenconfig")).status).toBe(200)
      expect((await member.client.delete(`/users/me/keys/${token.id}`)).status).toBe(204)
    })

    it("expireToken: PUT with no body, as the tokens page sends it", async () => {
      const created = await member.client.post("/users/me/keys/tokens", {
        lifetime: NANO_HOUR,
        token_name: "dashboard-expire",
        scope: "all"
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const id = (created.body.key as string).split("-")[0]
      expect((await member.client.put(`/users/me/keys/${id}/expire`)).status).toBe(204)
      expect((await member.client.request("PUT", `/users/${member.user.id}/keys/${id}/expire`, {})).status).toBe(204)
      expect((await srv.anonymous.as(created.body.key).get("/users/me")).status).toBe(401)
    })

    it("getTokens: include_all true (the tokens page) and false, as axios writes them", async () => {
      const created = await member.client.post("/users/me/keys/tokens", {
        lifetime: NANO_HOUR,
        token_name: "seen-by-owner",
        scope: "all"
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const all = await owner.get("/users/me/keys/tokens?include_all=true")
      expect(all.status).toBe(200)
      expect(all.body.find((t: any) => t.token_name === "seen-by-owner")).toMatchObject({ username: "dash-member" })
      const own = await owner.get("/users/me/keys/tokens?include_all=false")
      expect(own.status).toBe(200)
      expect(own.body.find((t: any) => t.token_name === "seen-by-owner")).toBeUndefined()
      expect((await member.client.delete("/users/me/keys/tokens/seen-by-owner")).status).toBe(204)
    })
  })

  describe("authorization", () => {
    it("checkAuthorization: the dashboard's permission checks", async () => {
      const r = await member.client.post("/authcheck", {
        checks: {
          viewAllUsers: { object: { resource_type: "user" }, action: "read" },
          updateUsers: { object: { resource_type: "user" }, action: "update" },
          createGroup: { object: { resource_type: "group" }, action: "create" },
          createTemplates: { object: { resource_type: "template", any_org: true }, action: "update" },
          viewAnyAuditLog: { object: { resource_type: "audit_log", any_org: true }, action: "read" },
          viewDeploymentConfig: { object: { resource_type: "deployment_config" }, action: "read" },
          editWorkspaceProxies: { object: { resource_type: "workspace_proxy" }, action: "create" },
          readOrgMembers: { object: { resource_type: "organization_member", organization_id: orgId }, action: "read" },
          updateOwnWorkspace: { object: { resource_type: "workspace", owner_id: member.user.id }, action: "update" }
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
      expect((await srv.anonymous.get("/users/authmethods")).status).toBe(200)
      expect((await srv.anonymous.get("/auth/scopes")).status).toBe(200)
      expect((await srv.anonymous.get("/users/first")).status).toBe(200)
    })

    it("login and logout", async () => {
      const r = await srv.anonymous.post("/users/login", { email: member.email, password: STRONG_PASSWORD })
      expect(r.status).toBe(201)
      expect((await owner.as(r.body.session_token).post("/users/logout")).status).toBe(200)
    })

    it("validateUserPassword", async () => {
      const r = await member.client.post("/users/validate-password", { password: STRONG_PASSWORD })
      expect(r.status).toBe(200)
      expect(r.body.valid).toBe(true)
    })

    it("convertToOAUTH", async () => {
      const { client } = await createUser(owner)
      const r = await client.post("/users/me/convert-login", { to_type: "github", password: STRONG_PASSWORD })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
    })

    it("requestOneTimePassword, changePasswordWithOTP", async () => {
      const { email } = await createUser(owner)
      expect((await srv.anonymous.post("/users/otp/request", { email })).status).toBe(204)
      const r = await srv.anonymous.post("/users/otp/change-password", {
        email,
        password: NEW_PASSWORD,
        one_time_passcode: mail.passcodeFor(email)
      })
      expect(r.status, JSON.stringify(r.body)).toBe(204)
      expect((await login(srv, email, NEW_PASSWORD)).status).toBe(201)
    })
  })

  describe("organizations", () => {
    it("createOrganization: the form's empty strings", async () => {
      const name = uniqueName("dash-org")
      const r = await owner.post("/organizations", { name, display_name: "", description: "", icon: "" })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ name, display_name: name, description: "", icon: "" })
    })

    it("updateOrganization: the settings form, every field", async () => {
      const org = await createOrganization(owner)
      const r = await owner.patch(`/organizations/${org.id}`, {
        name: org.name,
        display_name: "Dash Org",
        description: "Made by the dashboard",
        icon: "/emojis/1f3e2.png"
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ name: org.name, display_name: "Dash Org", description: "Made by the dashboard" })
    })

    it("getOrganizations, getOrganization, getOrganizationMembers, getOrganizationRoles", async () => {
      expect((await owner.get("/organizations")).status).toBe(200)
      expect((await owner.get(`/organizations/${orgId}`)).status).toBe(200)
      expect((await owner.get(`/organizations/${orgId}/members`)).status).toBe(200)
      expect((await owner.get(`/organizations/${orgId}/members/roles`)).status).toBe(200)
    })

    it("createOrganizationRole, updateOrganizationRole, deleteOrganizationRole: the custom role form's Role", async () => {
      const org = await createOrganization(owner)
      // The form sends a whole Role: its organization, empty site and user lists (and, from newer
      // dashboards, organization_member_permissions), which the server ignores or accepts empty.
      const role = {
        name: "dash-role",
        organization_id: org.id,
        display_name: "Dash Role",
        site_permissions: [],
        organization_permissions: [
          { negate: false, resource_type: "template", action: "read" },
          { negate: false, resource_type: "template", action: "update" }
        ],
        user_permissions: [],
        organization_member_permissions: []
      }
      const made = await owner.post(`/organizations/${org.id}/members/roles`, role)
      expect(made.status, JSON.stringify(made.body)).toBe(200)
      expect(made.body).toMatchObject({ name: "dash-role", organization_id: org.id, display_name: "Dash Role" })
      const edited = await owner.put(`/organizations/${org.id}/members/roles`, {
        ...role,
        display_name: "",
        organization_permissions: [{ negate: false, resource_type: "workspace", action: "read" }]
      })
      expect(edited.status, JSON.stringify(edited.body)).toBe(200)
      expect(edited.body.organization_permissions).toEqual([{
        negate: false,
        resource_type: "workspace",
        action: "read"
      }])
      const listed = await owner.get(`/organizations/${org.id}/members/roles`)
      expect(listed.body.find((r: any) => r.name === "dash-role")).toMatchObject({ built_in: false, display_name: "" })
      expect((await owner.delete(`/organizations/${org.id}/members/roles/dash-role`)).status).toBe(204)
    })

    it("getOrganizationPaginatedMembers: the members page's limit and offset, with its search box empty or set", async () => {
      for (
        const query of [
          "limit=25&offset=0",
          "limit=25&offset=0&q=",
          `q=${encodeURIComponent("dash-member")}&limit=25&offset=0`,
          ""
        ]
      ) {
        const r = await owner.get(`/organizations/${orgId}/paginated-members${query === "" ? "" : `?${query}`}`)
        expect(r.status, `${query}: ${JSON.stringify(r.body)}`).toBe(200)
        expect(r.body.members.map((m: any) => m.user_id)).toContain(member.user.id)
        expect(r.body.count).toBeGreaterThanOrEqual(r.body.members.length)
      }
    })

    it("getWorkspaceSharingSettings, patchWorkspaceSharingSettings: the organization settings page's toggle", async () => {
      const org = await createOrganization(owner)
      const read = await owner.get(`/organizations/${org.id}/settings/workspace-sharing`)
      expect(read.status).toBe(200)
      expect(read.body).toEqual({
        sharing_globally_disabled: false,
        sharing_disabled: false,
        shareable_workspace_owners: "everyone"
      })
      for (const shareable_workspace_owners of ["none", "service_accounts", "everyone"]) {
        const r = await owner.patch(`/organizations/${org.id}/settings/workspace-sharing`, {
          shareable_workspace_owners
        })
        expect(r.status, JSON.stringify(r.body)).toBe(200)
        expect(r.body.shareable_workspace_owners).toBe(shareable_workspace_owners)
      }
      // An older client (the Terraform provider) sends only the deprecated boolean.
      const old = await owner.patch(`/organizations/${org.id}/settings/workspace-sharing`, { sharing_disabled: true })
      expect(old.body).toMatchObject({ sharing_disabled: true, shareable_workspace_owners: "none" })
    })

    it("the IdP sync pages: organization, group and role sync settings and the claim field values", async () => {
      const org = await createOrganization(owner)
      // getOrganizationIdpSyncSettings, then patchOrganizationSyncSettings with the whole form.
      const orgSync = await owner.get("/settings/idpsync/organization")
      expect(orgSync.status).toBe(200)
      const patchedOrg = await owner.patch("/settings/idpsync/organization", {
        ...orgSync.body,
        field: "organizations",
        mapping: { engineering: [org.id] }
      })
      expect(patchedOrg.status, JSON.stringify(patchedOrg.body)).toBe(200)
      expect((await owner.patch("/settings/idpsync/organization", orgSync.body)).status).toBe(200)
      // getGroupIdpSyncSettingsByOrganization, patchGroupSyncSettings (regex_filter null when empty).
      const groups = await owner.get(`/organizations/${org.id}/settings/idpsync/groups`)
      expect(groups.status).toBe(200)
      const patchedGroups = await owner.patch(`/organizations/${org.id}/settings/idpsync/groups`, {
        ...groups.body,
        field: "groups",
        regex_filter: null,
        auto_create_missing_groups: true
      })
      expect(patchedGroups.status, JSON.stringify(patchedGroups.body)).toBe(200)
      // getRoleIdpSyncSettingsByOrganization, patchRoleSyncSettings.
      const roles = await owner.get(`/organizations/${org.id}/settings/idpsync/roles`)
      expect(roles.status).toBe(200)
      const patchedRoles = await owner.patch(`/organizations/${org.id}/settings/idpsync/roles`, {
        field: "roles",
        mapping: { admins: ["organization-admin"] }
      })
      expect(patchedRoles.status, JSON.stringify(patchedRoles.body)).toBe(200)
      // getDeploymentIdpSyncFieldValues, getOrganizationIdpSyncClaimFieldValues, the available fields.
      for (
        const path of [
          "/settings/idpsync/field-values?claimField=groups",
          `/organizations/${org.id}/settings/idpsync/field-values?claimField=groups`,
          "/settings/idpsync/available-fields",
          `/organizations/${org.id}/settings/idpsync/available-fields`
        ]
      ) {
        const r = await owner.get(path)
        expect(r.status, path).toBe(200)
        expect(Array.isArray(r.body)).toBe(true)
      }
    })

    it("addOrganizationMember, updateOrganizationMemberRoles, removeOrganizationMember, deleteOrganization", async () => {
      const org = await createOrganization(owner)
      expect((await owner.post(`/organizations/${org.id}/members/${member.user.id}`)).status).toBe(200)
      const roles = await owner.put(`/organizations/${org.id}/members/${member.user.id}/roles`, {
        roles: ["organization-auditor"]
      })
      expect(roles.status, JSON.stringify(roles.body)).toBe(200)
      expect((await owner.delete(`/organizations/${org.id}/members/${member.user.id}`)).status).toBe(204)
      expect((await owner.delete(`/organizations/${org.id}`)).status).toBe(200)
    })
  })

  describe("groups", () => {
    it("createGroup: the form's initial values", async () => {
      const r = await owner.post(`/organizations/${orgId}/groups`, {
        name: "dash-group",
        display_name: "",
        avatar_url: "",
        quota_allowance: 0
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ name: "dash-group", display_name: "", quota_allowance: 0 })
      expect(r.body).not.toHaveProperty("avatar_url")
    })

    it("patchGroup: the settings form, with empty member lists", async () => {
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "dash-settings" })).body
      const r = await owner.patch(`/groups/${g.id}`, {
        name: "dash-settings-2",
        display_name: "Settings",
        avatar_url: "/emojis/1f60e.png",
        quota_allowance: 5,
        add_users: [],
        remove_users: []
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({
        name: "dash-settings-2",
        display_name: "Settings",
        avatar_url: "/emojis/1f60e.png",
        quota_allowance: 5
      })
    })

    it("addMember and removeMember: name empty, the rest null", async () => {
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "dash-members" })).body
      const added = await owner.patch(`/groups/${g.id}`, {
        name: "",
        add_users: [member.user.id],
        remove_users: [],
        display_name: null,
        avatar_url: null,
        quota_allowance: null
      })
      expect(added.status, JSON.stringify(added.body)).toBe(200)
      expect(added.body.members.map((m: any) => m.id)).toEqual([member.user.id])
      const removed = await owner.patch(`/groups/${g.id}`, {
        name: "",
        add_users: [],
        remove_users: [member.user.id],
        display_name: null,
        avatar_url: null,
        quota_allowance: null
      })
      expect(removed.status, JSON.stringify(removed.body)).toBe(200)
      expect(removed.body.members).toEqual([])
    })

    it("getWorkspaceQuota: the organization's name and the username, as the create-workspace page asks", async () => {
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "dash-quota", quota_allowance: 4 })).body
      await owner.patch(`/groups/${g.id}`, { add_users: [member.user.id] })
      const r = await member.client.get(
        `/organizations/coder/members/${encodeURIComponent(member.username)}/workspace-quota`
      )
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ budget: 4, credits_consumed: 0 })
      expect((await owner.delete(`/groups/${g.id}`)).status).toBe(200)
    })

    it("getGroups, getGroupsByOrganization, deleteGroup", async () => {
      expect((await owner.get("/groups")).status).toBe(200)
      const mine = await member.client.get(`/groups?has_member=${member.user.id}`)
      expect(mine.status).toBe(200)
      expect((await owner.get(`/organizations/${orgId}/groups`)).status).toBe(200)
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "dash-doomed" })).body
      expect((await owner.delete(`/groups/${g.id}`)).status).toBe(200)
    })

    it("getPaginatedGroups and the groups page's member avatars: the organization's name, limit, offset, q", async () => {
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "dash-paged" })).body
      await owner.patch(`/groups/${g.id}`, { add_users: [member.user.id] })
      const first = await owner.get("/organizations/coder/paginated-groups?limit=25&offset=0")
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(first.body.groups.map((x: any) => x.name)).toContain("dash-paged")
      const searched = await owner.get("/organizations/coder/paginated-groups?q=dash-paged&limit=25&offset=0")
      expect(searched.body).toMatchObject({ count: 1, groups: [{ id: g.id, total_member_count: 1 }] })
      // The Go client's OrganizationGroupsPaginated sends the id and the Pagination fields.
      expect((await owner.get(`/organizations/${orgId}/paginated-groups?after_id=${g.id}&limit=10&offset=0`)).status)
        .toBe(200)
      const avatars = await owner.get("/organizations/coder/groups/dash-paged/members?limit=5")
      expect(avatars.status, JSON.stringify(avatars.body)).toBe(200)
      expect(avatars.body).toMatchObject({ count: 1, users: [{ id: member.user.id }] })
      expect((await owner.delete(`/groups/${g.id}`)).status).toBe(200)
    })

    it("group AI budgets, as the Go client sends them", async () => {
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "dash-budget" })).body
      expect((await owner.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 25_000_000 })).status).toBe(200)
      expect((await owner.get(`/groups/${g.id}/ai/budget`)).status).toBe(200)
      expect((await owner.delete(`/groups/${g.id}/ai/budget`)).status).toBe(204)
    })
  })

  describe("templates", () => {
    const version = () => makeVersion(srv, { organizationId: orgId, createdBy: ownerId })

    it("createTemplate: the create-template form, as the page sends it (template_version_id added by the mutation)", async () => {
      const v = await version()
      const r = await owner.post(`/organizations/${orgId}/templates`, {
        name: "dash-template",
        display_name: "",
        description: "",
        icon: "",
        default_ttl_ms: 86_400_000,
        activity_bump_ms: 3_600_000,
        autostop_requirement: { days_of_week: [], weeks: 1 },
        autostart_requirement: {
          days_of_week: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        },
        allow_user_autostart: false,
        allow_user_autostop: false,
        allow_user_cancel_workspace_jobs: null,
        failure_ttl_ms: 0,
        dormant_ttl_ms: 0,
        delete_ttl_ms: 0,
        require_active_version: false,
        disable_everyone_group_access: false,
        max_port_share_level: null,
        template_version_id: v.id
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({
        name: "dash-template",
        allow_user_cancel_workspace_jobs: false,
        max_port_share_level: "owner"
      })
    })

    it("updateTemplateMeta: the settings form and the schedule form; 304 when nothing changed", async () => {
      const t = await makeTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, name: "dash-settings" })
      const settings = {
        name: "dash-settings",
        display_name: "Dash",
        description: "Settings.",
        icon: "/icon/go.svg",
        allow_user_cancel_workspace_jobs: false,
        update_workspace_last_used_at: false,
        update_workspace_dormant_at: false,
        require_active_version: false,
        deprecation_message: "",
        disable_everyone_group_access: false,
        max_port_share_level: "owner",
        use_classic_parameter_flow: false,
        cors_behavior: "simple"
      }
      const r = await owner.patch(`/templates/${t.id}`, settings)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ display_name: "Dash", description: "Settings.", icon: "/icon/go.svg" })
      expect((await owner.patch(`/templates/${t.id}`, settings)).status).toBe(304)
      const schedule = await owner.patch(`/templates/${t.id}`, {
        default_ttl_ms: 7_200_000,
        activity_bump_ms: 3_600_000,
        autostop_requirement: { days_of_week: ["sunday"], weeks: 1 },
        autostart_requirement: { days_of_week: ["monday", "friday"] },
        allow_user_autostart: true,
        allow_user_autostop: true,
        failure_ttl_ms: 0,
        time_til_dormant_ms: 0,
        time_til_dormant_autodelete_ms: 0,
        update_workspace_last_used_at: false,
        update_workspace_dormant_at: false,
        require_active_version: false,
        disable_everyone_group_access: false
      })
      expect(schedule.status, JSON.stringify(schedule.body)).toBe(200)
      expect(schedule.body).toMatchObject({
        name: "dash-settings",
        display_name: "Dash",
        default_ttl_ms: 7_200_000,
        autostop_requirement: { days_of_week: ["sunday"], weeks: 1 },
        autostart_requirement: { days_of_week: ["monday", "friday"] }
      })
    })

    it("updateTemplateACL: one user or group at a time, \"\" to remove; getTemplateACL, getTemplateACLAvailable", async () => {
      const t = await makeTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, name: "dash-acl" })
      expect((await owner.patch(`/templates/${t.id}/acl`, { user_perms: { [member.user.id]: "use" } })).status).toBe(
        200
      )
      expect((await owner.patch(`/templates/${t.id}/acl`, { group_perms: { [orgId]: "admin" } })).status).toBe(200)
      expect((await owner.patch(`/templates/${t.id}/acl`, { user_perms: { [member.user.id]: "" } })).status).toBe(200)
      expect((await owner.get(`/templates/${t.id}/acl`)).status).toBe(200)
      expect((await owner.get(`/templates/${t.id}/acl/available?q=dash&limit=25`)).status).toBe(200)
    })

    it("getTemplates, getTemplatesByOrganization, getTemplateByName, deleteTemplate", async () => {
      const t = await makeTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, name: "dash-list" })
      expect((await owner.get(`/templates?q=${encodeURIComponent("deprecated:false")}`)).status).toBe(200)
      expect((await owner.get(`/organizations/${orgId}/templates`)).status).toBe(200)
      expect((await owner.get(`/organizations/coder/templates/dash-list`)).status).toBe(200)
      expect((await owner.delete(`/templates/${t.id}`)).status).toBe(200)
    })
  })

  describe("workspace sharing", () => {
    it("setWorkspaceUserRole, setWorkspaceGroupRole: one entry per request, \"\" to remove; getWorkspaceACL; workspacePermissions", async () => {
      const t = await makeTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, name: "dash-ws-acl" })
      const w = await makeWorkspace(srv, { organizationId: orgId, ownerId, templateId: t.id })
      const set = (body: unknown) => owner.patch(`/workspaces/${w.id}/acl`, body)
      expect((await set({ user_roles: { [member.user.id]: "use" } })).status).toBe(204)
      expect((await set({ group_roles: { [orgId]: "use" } })).status).toBe(204)
      expect((await set({ user_roles: { [member.user.id]: "admin" } })).status).toBe(204)
      const read = await owner.get(`/workspaces/${w.id}/acl`)
      expect(read.status).toBe(200)
      expect(read.body.users.map((u: any) => [u.id, u.role])).toEqual([[member.user.id, "admin"]])
      expect(read.body.group.map((g: any) => [g.id, g.role])).toEqual([[orgId, "use"]])
      // The workspace page's permission checks, with the owner's id as the dashboard sends it.
      const object = { resource_type: "workspace", resource_id: w.id, owner_id: ownerId }
      const checks = await member.client.post("/authcheck", {
        checks: {
          readWorkspace: { object, action: "read" },
          shareWorkspace: { object, action: "share" },
          updateWorkspace: { object, action: "update" }
        }
      })
      expect(checks.body).toEqual({ readWorkspace: true, shareWorkspace: true, updateWorkspace: true })
      expect((await set({ user_roles: { [member.user.id]: "" } })).status).toBe(204)
      expect((await set({ group_roles: { [orgId]: "" } })).status).toBe(204)
      expect((await owner.get(`/workspaces/${w.id}/acl`)).body).toEqual({ users: [], group: [] })
    })
  })

  describe("audit, deployment and general", () => {
    it("getAuditLogs and getConnectionLogs: a page, with and without a search", async () => {
      expect((await owner.get("/audit?limit=25&offset=0")).status).toBe(200)
      expect((await owner.get(`/audit?limit=25&offset=0&q=${encodeURIComponent("resource_type:user")}`)).status).toBe(
        200
      )
      expect((await owner.get("/connectionlog?limit=25&offset=0")).status).toBe(200)
    })

    it("getHealth: the health page's report, cached and forced", async () => {
      for (const path of ["/debug/health?force=false", "/debug/health?force=true"]) {
        expect((await owner.get(path)).status, path).toBe(200)
      }
    })

    it("getHealthSettings and updateHealthSettings: the health page's dismiss and restore", async () => {
      const current = await owner.get("/debug/health/settings")
      expect(current.status).toBe(200)
      const dismissed = await owner.put("/debug/health/settings", {
        dismissed_healthchecks: [...current.body.dismissed_healthchecks, "AccessURL"]
      })
      expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200)
      expect(
        (await owner.put("/debug/health/settings", { dismissed_healthchecks: current.body.dismissed_healthchecks }))
          .status
      ).toBe(200)
    })

    it("the deployment and build reads", async () => {
      for (
        const path of [
          "/buildinfo",
          "/updatecheck",
          "/deployment/config",
          "/deployment/ssh",
          "/deployment/stats",
          "/experiments",
          "/experiments/available"
        ]
      ) {
        expect((await owner.get(path)).status, path).toBe(200)
      }
    })

    it("the insights pages' requests: DAUs, template insights, user activity and latency, status counts", async () => {
      const template = await portShareTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId })
      const now = Date.now()
      const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")
      const day = 86_400_000
      const range = { start_time: iso(now - (now % day) - 7 * day), end_time: iso(now - (now % 3_600_000) + 3_600_000) }
      // getDeploymentDAUs and getInsightsUserStatusCounts send Math.trunc(getTimezoneOffset() / 60) as they are.
      for (
        const path of [
          "/insights/daus?tz_offset=0",
          "/insights/daus?tz_offset=8",
          "/insights/daus?tz_offset=-5",
          `/templates/${template.id}/daus`,
          "/insights/user-status-counts?tz_offset=0",
          "/insights/user-status-counts?tz_offset=-2",
          // getInsightsUserLatency, getInsightsUserActivity, getInsightsTemplate: URLSearchParams of their filters.
          `/insights/user-latency?${new URLSearchParams({ ...range, template_ids: template.id })}`,
          `/insights/user-activity?${new URLSearchParams({ ...range, template_ids: template.id })}`,
          `/insights/user-activity?${new URLSearchParams({ ...range, template_ids: "" })}`,
          `/insights/templates?${new URLSearchParams({ ...range, template_ids: template.id, interval: "day" })}`,
          `/insights/templates?${new URLSearchParams({ ...range, template_ids: "", interval: "day" })}`
        ]
      ) {
        const r = await owner.get(path)
        expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200)
      }
    })

    it("a CSP report, as a browser sends it", async () => {
      const r = await member.client.request("POST", "/csp/reports", undefined, {
        raw: JSON.stringify({
          "csp-report": { "document-uri": "http://localhost/", "violated-directive": "img-src", "blocked-uri": "data" }
        }),
        headers: { "content-type": "application/csp-report" }
      })
      expect(r.status).toBe(200)
    })
  })

  describe("OAuth2 apps", () => {
    it("the OAuth2 app pages' requests: list (with and without user_id), create, update, secrets, delete, revoke", async () => {
      // getOAuth2ProviderApps builds its query with URLSearchParams: "?" alone without a filter.
      expect((await owner.get("/oauth2-provider/apps?")).status).toBe(200)
      expect((await member.client.get(`/oauth2-provider/apps?user_id=${member.user.id}`)).status).toBe(200)
      const created = await owner.post("/oauth2-provider/apps", {
        name: uniqueName("dash-app"),
        callback_url: "https://app.example.com/cb",
        icon: ""
      })
      expect(created.status).toBe(201)
      const id = created.body.id as string
      expect((await owner.get(`/oauth2-provider/apps/${id}`)).status).toBe(200)
      expect(
        (await owner.put(`/oauth2-provider/apps/${id}`, {
          name: uniqueName("dash-app"),
          callback_url: "https://app.example.com/cb2",
          icon: "/icon/x.svg"
        })).status
      ).toBe(200)
      const secret = await owner.post(`/oauth2-provider/apps/${id}/secrets`)
      expect(secret.status).toBe(201)
      expect((await owner.get(`/oauth2-provider/apps/${id}/secrets`)).status).toBe(200)
      expect((await owner.delete(`/oauth2-provider/apps/${id}/secrets/${secret.body.id}`)).status).toBe(204)
      // revokeOAuth2ProviderApp calls the root form, /oauth2/tokens?client_id=.
      const root = await fetch(`${srv.url}/oauth2/tokens?client_id=${id}`, {
        method: "DELETE",
        headers: { "Service-Session-Token": member.client.token! }
      })
      expect(root.status).toBe(204)
      expect((await owner.delete(`/oauth2-provider/apps/${id}`)).status).toBe(204)
    })

    it("the settings tab: getOAuth2ProviderSettings and putOAuth2ProviderSettings", async () => {
      const read = await owner.get("/oauth2-provider/settings")
      expect(read.status).toBe(200)
      expect(typeof read.body.dynamic_client_registration_enabled).toBe("boolean")
      const put = await owner.put("/oauth2-provider/settings", {
        dynamic_client_registration_enabled: read.body.dynamic_client_registration_enabled
      })
      expect(put.status).toBe(200)
      expect(put.body).toEqual(read.body)
    })
  })

  describe("workspace proxies", () => {
    it("getWorkspaceProxyRegions, getWorkspaceProxies and createWorkspaceProxy, as the proxy pages send them", async () => {
      const regions = await member.client.get("/regions")
      expect(regions.status).toBe(200)
      expect(regions.body.regions[0]).toMatchObject({ name: "primary", healthy: true })
      const created = await owner.post("/workspaceproxies", {
        name: uniqueName("dash-px"),
        display_name: "Dash",
        icon: "/emojis/1f30d.png"
      })
      expect(created.status).toBe(201)
      expect(created.body.proxy_token).toMatch(/^[0-9a-f-]{36}:[0-9a-f]{64}$/)
      const proxies = await member.client.get("/workspaceproxies")
      expect(proxies.status).toBe(200)
      expect(proxies.body.regions.map((p: { id: string }) => p.id)).toContain(created.body.proxy.id)
    })
  })

  describe("provisioner keys", () => {
    it("the CLI's create (a nil tags map is null), the keys page's daemons list, list and delete", async () => {
      const name = uniqueName("dash-key")
      const created = await owner.post(`/organizations/${orgId}/provisionerkeys`, { name, tags: null })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body.key).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const daemons = await owner.get(`/organizations/${orgId}/provisionerkeys/daemons`)
      expect(daemons.status).toBe(200)
      expect(daemons.body.find((k: any) => k.key.name === name)).toMatchObject({ key: { name, tags: {} }, daemons: [] })
      const listed = await member.client.get(`/organizations/${orgId}/provisionerkeys`)
      expect(listed.status).toBe(200)
      expect(listed.body.map((k: any) => k.name)).toContain(name)
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key)
      expect((await owner.delete(`/organizations/${orgId}/provisionerkeys/${name}`)).status).toBe(204)
    })

    it("the CLI's GetProvisionerKey: the key in the path and in Coder-Provisioner-Daemon-Key", async () => {
      const name = uniqueName("cli-key")
      const { key } = (await owner.post(`/organizations/${orgId}/provisionerkeys`, { name })).body
      const r = await srv.anonymous.request("GET", `/provisionerkeys/${key}`, undefined, {
        headers: { "Coder-Provisioner-Daemon-Key": key }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ name, organization: orgId, tags: {} })
    })
  })

  describe("null and absent mean not given", () => {
    it("PATCH /groups with nulls keeps the display name, avatar, quota and name", async () => {
      const g = (await owner.post(`/organizations/${orgId}/groups`, {
        name: "kept",
        display_name: "Kept",
        avatar_url: "/kept.png",
        quota_allowance: 7
      })).body
      const kept = { name: "kept", display_name: "Kept", avatar_url: "/kept.png", quota_allowance: 7 }
      const r = await owner.patch(`/groups/${g.id}`, {
        name: null,
        display_name: null,
        avatar_url: null,
        quota_allowance: null,
        add_users: null,
        remove_users: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject(kept)
      expect((await owner.patch(`/groups/${g.id}`, {})).body).toMatchObject(kept)
      expect((await owner.get(`/groups/${g.id}`)).body).toMatchObject(kept)
    })

    it("POST /organizations/{organization}/groups with nulls takes the defaults", async () => {
      const r = await owner.post(`/organizations/${orgId}/groups`, {
        name: "defaults",
        display_name: null,
        avatar_url: null,
        quota_allowance: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ display_name: "", quota_allowance: 0 })
      expect(r.body).not.toHaveProperty("avatar_url")
    })

    it("PATCH /organizations with nulls, or without the fields, keeps every field", async () => {
      const org = await createOrganization(owner)
      const set = await owner.patch(`/organizations/${org.id}`, {
        display_name: "Named",
        description: "About",
        icon: "/i.png"
      })
      expect(set.status).toBe(200)
      const kept = { name: org.name, display_name: "Named", description: "About", icon: "/i.png" }
      const r = await owner.patch(`/organizations/${org.id}`, {
        name: null,
        display_name: null,
        description: null,
        icon: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject(kept)
      expect((await owner.patch(`/organizations/${org.id}`, {})).body).toMatchObject(kept)
    })

    it("POST /organizations with nulls takes the defaults", async () => {
      const name = uniqueName("null-org")
      const r = await owner.post("/organizations", { name, display_name: null, description: null, icon: null })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ name, display_name: name, description: "", icon: "" })
    })

    it("POST /users with nulls takes the defaults", async () => {
      const r = await owner.post("/users", {
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
      expect(r.body).toMatchObject({ login_type: "password", status: "active", organization_ids: [orgId] })
      // Empty optional fields are left out of responses (docs/api.md, Responses).
      expect(r.body).not.toHaveProperty("name")
      expect(r.body).not.toHaveProperty("is_service_account")
    })

    it("POST /users with the nil organization id places the user in the default organization", async () => {
      const r = await owner.post("/users", {
        email: "nil-org@example.com",
        username: "nil-org",
        password: STRONG_PASSWORD,
        organization_ids: [NIL_UUID]
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body.organization_ids).toEqual([orgId])
    })

    it("POST /users/me/keys/tokens with nulls, or an empty scope, makes a default token", async () => {
      const r = await member.client.post("/users/me/keys/tokens", {
        token_name: null,
        lifetime: null,
        scope: null,
        scopes: null,
        allow_list: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      const empty = await member.client.post("/users/me/keys/tokens", {
        token_name: "empty-scope",
        lifetime: 0,
        scope: ""
      })
      expect(empty.status, JSON.stringify(empty.body)).toBe(201)
      const token = (await member.client.get("/users/me/keys/tokens/empty-scope")).body
      expect(token.scope).toBe("all")
    })

    it("PUT /users/{user}/appearance with nulls empties the fields, as absent ones do", async () => {
      await member.client.put("/users/me/appearance", { theme_preference: "light", terminal_font: "fira-code" })
      const r = await member.client.put("/users/me/appearance", {
        theme_preference: null,
        terminal_font: null,
        theme_dark: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ theme_preference: "", terminal_font: "", theme_dark: "" })
    })

    it("POST /authcheck with null object fields checks as without them", async () => {
      const r = await member.client.post("/authcheck", {
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
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "query-group", add_users: [] })).body
      const all = await owner.get("/users")
      const empty = await owner.get("/users?q=&after_id=&limit=&offset=")
      expect(empty.status, JSON.stringify(empty.body)).toBe(200)
      expect(empty.body.count).toBe(all.body.count)
      expect((await owner.get("/users?limit=0")).body.users.length).toBe(all.body.users.length)
      for (
        const path of [
          `/groups/${g.id}/members?q=&after_id=&limit=&offset=`,
          `/groups/${g.id}?exclude_members=`,
          "/groups?organization=&has_member=&group_ids=",
          "/users/me/keys/tokens?include_expired=",
          "/users/me/keys/tokens?include_all=&include_expired=",
          `/organizations/${orgId}/members?limit=&offset=`,
          "/audit?limit=25&offset=&q=",
          "/connectionlog?limit=25&offset=&q="
        ]
      ) {
        const r = await owner.get(path)
        expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200)
      }
    })

    it("a wrong value in a nullable field is still one validation, at its path", async () => {
      const g = (await owner.post(`/organizations/${orgId}/groups`, { name: "strict-group" })).body
      const body = await owner.patch(`/groups/${g.id}`, { display_name: 5, add_users: [5], quota_allowance: -1 })
      expectValidations(body, ["display_name", "add_users.0", "quota_allowance"])
      expect(body.body.validations.find((v: any) => v.field === "quota_allowance").detail).toBe(
        "Quota allowance cannot be negative."
      )
      const query = await owner.get("/users?limit=x&after_id=nope")
      expectValidations(query, ["limit", "after_id"])
      expect(query.body.validations.find((v: any) => v.field === "after_id").detail).toBe("Must be a UUID.")
      expectValidations(
        await owner.post("/authcheck", {
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
        const r = await owner.post("/users", {
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
        const r = await owner.post("/users", {
          email: "nopass@example.com",
          username: "nopass",
          login_type,
          password: ""
        })
        expectValidations(r, ["password"])
      }
    })

    it("makes a service account without a password or login type a login type none user", async () => {
      const r = await owner.post("/users", {
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

describe("files, as the template editor sends them", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
  })
  afterAll(() => srv.close())

  // uploadFile: axios.post("/api/v2/files", file, { headers: { "Content-Type": "application/x-tar" } }),
  // the File's bytes as the body; getFile: axios.get(`/api/v2/files/${fileId}`, { responseType: "arraybuffer" }).
  it("uploadFile then getFile: the bytes back with their content type", async () => {
    const file = new Blob([new Uint8Array([0x6d, 0x61, 0x69, 0x6e, 0x00, 0xff, 0xfe])], { type: "application/x-tar" })
    const headers = { "Content-Type": "application/x-tar", "Service-Session-Token": owner.token! }
    const up = await fetch(`${srv.url}/api/v2/files`, { method: "POST", headers, body: file })
    expect(up.status).toBe(201)
    const { hash } = (await up.json()) as { hash: string }
    const again = await fetch(`${srv.url}/api/v2/files`, { method: "POST", headers, body: file })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ hash })
    const got = await fetch(`${srv.url}/api/v2/files/${hash}`, {
      headers: { Accept: "application/json, text/plain, */*", "Service-Session-Token": owner.token! }
    })
    expect(got.status).toBe(200)
    expect(got.headers.get("content-type")).toBe("application/x-tar")
    expect([...new Uint8Array(await got.arrayBuffer())]).toEqual([0x6d, 0x61, 0x69, 0x6e, 0x00, 0xff, 0xfe])
  })
})

describe("template versions, as the create-template page and the template editor send them", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
  })
  afterAll(() => srv.close())

  // createTemplateVersion(organizationId, data): axios.post(`/api/v2/organizations/${organizationId}/templateversions`, data),
  // with the create page's body: a `terraform` version from an uploaded file, no tags, the variables' values.
  it("createTemplateVersion from the create page: a terraform version stays pending with no matched provisioner", async () => {
    const fileId = await uploadTemplate(srv, owner, FULL_TEMPLATE)
    const r = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      file_id: fileId,
      provisioner: "terraform",
      tags: {},
      user_variable_values: []
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.job.status).toBe("pending")
    expect(r.body.matched_provisioners).toEqual({ count: 0, available: 0 })
    // cancelTemplateVersionBuild: axios.patch(`/api/v2/templateversions/${id}/cancel`), no body.
    const cancel = await owner.patch(`/templateversions/${r.body.id}/cancel`)
    expect(cancel.body).toEqual({ message: "Job has been marked as canceled..." })
  })

  // The starter templates page: getTemplateExamples() (axios.get("/api/v2/templates/examples")), then
  // createTemplateVersion with the example's id, the create page's `terraform`, and no file.
  it("starter templates: getTemplateExamples, then createTemplateVersion with example_id", async () => {
    const examples = await owner.get("/templates/examples")
    expect(examples.status).toBe(200)
    const example = examples.body.find((e: any) => e.id === "basic")
    expect(example).toBeDefined()
    expect((await owner.get(`/organizations/${orgId}/templates/examples`)).body).toEqual(examples.body)
    const r = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      example_id: example.id,
      provisioner: "terraform",
      tags: {},
      user_variable_values: []
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    await runJobs(srv)
    expect((await owner.get(`/templateversions/${r.body.id}`)).body.job.status).toBe("succeeded")
  })

  // The editor: createTemplateVersion with the template's id, then patchTemplateVersion(id, {name, message}),
  // updateActiveTemplateVersion(templateId, {id}), archiveTemplateVersion(id) and unarchive, no body.
  it("the template editor's publish flow", async () => {
    const first = await createVersion(srv, owner, orgId, FULL_TEMPLATE)
    await runJobs(srv)
    const template = await seedTemplate(srv, orgId, first.body.id, ownerId)
    const fileId = await uploadTemplate(srv, owner, `${FULL_TEMPLATE}# edited\n`)
    const created = await owner.post(`/organizations/${orgId}/templateversions`, {
      provisioner: "workbay",
      storage_method: "file",
      tags: {},
      template_id: template.id,
      file_id: fileId
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    await runJobs(srv)
    const logs = await owner.get(`/templateversions/${created.body.id}/logs?after=0`)
    expect(logs.status).toBe(200)
    const patched = await owner.patch(`/templateversions/${created.body.id}`, {
      name: "v-2",
      message: "Update the template"
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    const promoted = await owner.patch(`/templates/${template.id}/versions`, { id: created.body.id })
    expect(promoted.body).toEqual({ message: "Updated the active template version!" })
    const archived = await owner.post(`/templateversions/${first.body.id}/archive`)
    expect(archived.status, JSON.stringify(archived.body)).toBe(200)
    expect((await owner.post(`/templateversions/${first.body.id}/unarchive`)).status).toBe(200)
    // createTemplateVersionDryRun(id, {workspace_name, rich_parameter_values}).
    const dry = await owner.post(`/templateversions/${created.body.id}/dry-run`, {
      workspace_name: "",
      rich_parameter_values: []
    })
    expect(dry.status, JSON.stringify(dry.body)).toBe(201)
    // The Go client's TemplateVersionDryRunMatchedProvisioners(version, job): a GET, no query.
    const matched = await owner.get(`/templateversions/${created.body.id}/dry-run/${dry.body.id}/matched-provisioners`)
    expect(matched.status, JSON.stringify(matched.body)).toBe(200)
    expect(matched.body).toMatchObject({ count: 2, available: 2 })
    await runJobs(srv)
    // getTemplateVersionDynamicParameters(versionId, {id, inputs}): the create-workspace form's
    // evaluation, with the owner_id the form is for; templateVersionDynamicParameters opens the
    // WebSocket with `?user_id=`.
    const evaluated = await owner.post(`/templateversions/${created.body.id}/dynamic-parameters/evaluate`, {
      id: 0,
      inputs: { cpus: "4" },
      owner_id: ownerId
    })
    expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200)
    expect(evaluated.body.id).toBe(0)
    // Older clients still ask the removed parameters and schema routes: an empty list.
    expect((await owner.get(`/templateversions/${created.body.id}/parameters`)).body).toEqual([])
    expect((await owner.get(`/templateversions/${created.body.id}/schema`)).body).toEqual([])
  })
})

describe("port sharing, as the workspace page's ports popover sends it", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
  })
  afterAll(() => srv.close())

  // getWorkspaceAgentSharedPorts(workspaceID): axios.get(`/api/v2/workspaces/${workspaceID}/port-share`);
  // upsertWorkspaceAgentSharedPort(workspaceID, req): axios.post(same path, req);
  // deleteWorkspaceAgentSharedPort(workspaceID, req): axios.delete(same path, { data: req }).
  it("shares a listening port, changes its protocol and level, adds one by the form, unshares", async () => {
    const template = await portShareTemplate(srv, owner, {
      organizationId: orgId,
      createdBy: ownerId,
      maxLevel: "public"
    })
    const ws = await seedWorkspace(srv, { ownerId, organizationId: orgId, template })
    const path = `/workspaces/${ws.id}/port-share`
    expect((await owner.get(path)).body).toEqual({ shares: [] })
    // The share button of a listening port: the default level (authenticated unless the template's maximum is organization).
    const shared = await owner.post(path, {
      agent_name: "main",
      port: 3000,
      protocol: "http",
      share_level: "authenticated"
    })
    expect(shared.status, JSON.stringify(shared.body)).toBe(200)
    // The protocol and level selects of a shared port send the whole share.
    expect(
      (await owner.post(path, { agent_name: "main", port: 3000, protocol: "https", share_level: "authenticated" }))
        .status
    ).toBe(200)
    expect(
      (await owner.post(path, { agent_name: "main", port: 3000, protocol: "https", share_level: "public" })).status
    ).toBe(200)
    // The form: `port: Number(values.port)`, keys in the form's order.
    const form = await owner.post(path, {
      agent_name: "main",
      port: Number("8080"),
      share_level: "organization",
      protocol: "http"
    })
    expect(form.status, JSON.stringify(form.body)).toBe(200)
    expect((await owner.get(path)).body.shares).toEqual([
      { workspace_id: ws.id, agent_name: "main", port: 3000, share_level: "public", protocol: "https" },
      { workspace_id: ws.id, agent_name: "main", port: 8080, share_level: "organization", protocol: "http" }
    ])
    const removed = await owner.delete(path, { agent_name: "main", port: 3000 })
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
    expect((await owner.get(path)).body.shares.map((s: any) => s.port)).toEqual([8080])
  })
})

describe("workspaces and builds, as the dashboard's workspace pages send them", () => {
  // coder/coder site/src/api/api.ts: createWorkspace(userId, req) posts to /users/{user}/workspaces
  // (older dashboards to /organizations/{organization}/members/{user}/workspaces); postWorkspaceBuild
  // behind startWorkspace, stopWorkspace and deleteWorkspace; cancelWorkspaceBuild(id, { expect_status });
  // getWorkspaces({ q, limit, offset }); getWorkspaceByOwnerAndName(user, name, { include_deleted });
  // getWorkspaceBuilds(id, { since, limit, offset }); patchWorkspace(id, { name }); put/deleteFavoriteWorkspace.
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let template: { id: string; active_version_id: string }
  let idle: { id: string }
  const validator = makeValidator()
  /** Asserts `body` is a `name` (a declared schema of the described system's type). */
  const expectShape = (name: string, body: unknown) => {
    const validate = validator(name)
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true)
  }
  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ settings: { allowWorkspaceRenames: true } }))
    member = await createUser(owner, { username: "dash-ws-member" })
    template = await importWorkspaceTemplate(srv, owner, orgId, FREE_TEMPLATE)
    idle = await makeTemplate(srv, owner, {
      organizationId: orgId,
      createdBy: (await owner.get("/users/me")).body.id,
      name: "dash-idle"
    })
  })
  afterAll(() => srv.close())

  /** The create page's body: every optional field as the page leaves it. */
  const createBody = (name: string, templateId: string) => ({
    name,
    template_id: templateId,
    template_version_id: undefined,
    template_version_preset_id: null,
    rich_parameter_values: [],
    autostart_schedule: null,
    ttl_ms: null,
    automatic_updates: "never",
    enable_dynamic_parameters: false
  })

  it("createWorkspace: both paths, nulls for what the page leaves unset, answering a Workspace", async () => {
    const a = await member.client.post("/users/me/workspaces", createBody("dash-ws-a", template.id))
    expect(a.status, JSON.stringify(a.body)).toBe(200)
    expectShape("Workspace", a.body)
    expect(a.body).toMatchObject({ name: "dash-ws-a", template_id: template.id, automatic_updates: "never" })
    expect(a.body.ttl_ms).toBeUndefined()
    const b = await owner.post(`/organizations/${orgId}/members/${member.user.id}/workspaces`, {
      ...createBody("dash-ws-b", template.id),
      template_id: null,
      template_version_id: template.active_version_id
    })
    expect(b.status, JSON.stringify(b.body)).toBe(200)
    expectShape("Workspace", b.body)
    expect(b.body.owner_id).toBe(member.user.id)
    await runJobs(srv)
  })

  it("startWorkspace, stopWorkspace, deleteWorkspace: postWorkspaceBuild bodies, each a WorkspaceBuild", async () => {
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-builds", template.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const post = async (body: Record<string, unknown>) => {
      const r = await member.client.post(`/workspaces/${w.body.id}/builds`, body)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expectShape("WorkspaceBuild", r.body)
      await runJobs(srv)
      return r.body
    }
    // stopWorkspace(id, logLevel): log_level undefined (left out by JSON).
    expect((await post({ transition: "stop", log_level: undefined, reason: "dashboard" })).transition).toBe("stop")
    // startWorkspace(id, templateVersionId, logLevel, buildParameters).
    const started = await post({
      transition: "start",
      template_version_id: template.active_version_id,
      log_level: undefined,
      rich_parameter_values: [],
      reason: "dashboard"
    })
    expect(started).toMatchObject({
      transition: "start",
      build_number: 3,
      template_version_id: template.active_version_id
    })
    // deleteWorkspace(id, { log_level, orphan }).
    expect((await post({ transition: "delete", orphan: false })).transition).toBe("delete")
    const gone = await member.client.get(`/users/me/workspace/dash-ws-builds?include_deleted=true`)
    expect(gone.status, JSON.stringify(gone.body)).toBe(200)
    expectShape("Workspace", gone.body)
    expect(gone.body.latest_build.status).toBe("deleted")
    expect((await member.client.get("/users/me/workspace/dash-ws-builds")).status).toBe(404)
  })

  it("cancelWorkspaceBuild: PATCH with an empty body and ?expect_status=pending", async () => {
    const w = await owner.post(`/organizations/${orgId}/members/me/workspaces`, createBody("dash-ws-cancel", idle.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    const r = await owner.patch(`/workspacebuilds/${w.body.latest_build.id}/cancel?expect_status=pending`, {})
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("Response", r.body)
    const build = await owner.get(`/workspacebuilds/${w.body.latest_build.id}`)
    expectShape("WorkspaceBuild", build.body)
    expect(["canceling", "canceled"]).toContain(build.body.status)
  })

  it("getWorkspaces: the workspaces page's q, limit and offset", async () => {
    for (const q of ["owner:me", "owner:me status:running", "", "owner:me name:dash-ws"]) {
      const path = q === ""
        ? "/workspaces?limit=25&offset=0"
        : `/workspaces?q=${encodeURIComponent(q)}&limit=25&offset=0`
      const r = await member.client.get(path)
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200)
      expectShape("WorkspacesResponse", r.body)
      expect(r.body.count).toBeGreaterThan(0)
    }
  })

  it("getWorkspaceByOwnerAndName and getWorkspaceBuilds: include_deleted, since and the page", async () => {
    const got = await member.client.get(`/users/${member.username}/workspace/dash-ws-a?include_deleted=false`)
    expect(got.status, JSON.stringify(got.body)).toBe(200)
    expectShape("Workspace", got.body)
    const since = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString()
    const builds = await member.client.get(`/workspaces/${got.body.id}/builds?since=${encodeURIComponent(since)}`)
    expect(builds.status, JSON.stringify(builds.body)).toBe(200)
    expectShape("[WorkspaceBuild]", builds.body)
    expect(builds.body).toHaveLength(1)
    const page = await member.client.get(`/workspaces/${got.body.id}/builds?limit=25&offset=0`)
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    expectShape("[WorkspaceBuild]", page.body)
    const one = await member.client.get(`/users/${member.username}/workspace/dash-ws-a/builds/1`)
    expect(one.status, JSON.stringify(one.body)).toBe(200)
    expectShape("WorkspaceBuild", one.body)
  })

  it("getWorkspaceTimings and getWorkspaceBuildTimings: plain GETs, each a WorkspaceBuildTimings", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    const byWorkspace = await member.client.get(`/workspaces/${got.body.id}/timings`)
    expect(byWorkspace.status, JSON.stringify(byWorkspace.body)).toBe(200)
    expectShape("WorkspaceBuildTimings", byWorkspace.body)
    expect(byWorkspace.body.provisioner_timings.length).toBeGreaterThan(0)
    const byBuild = await member.client.get(`/workspacebuilds/${got.body.latest_build.id}/timings`)
    expect(byBuild.status, JSON.stringify(byBuild.body)).toBe(200)
    expectShape("WorkspaceBuildTimings", byBuild.body)
    expect(byBuild.body).toEqual(byWorkspace.body)
  })

  it("getWorkspaceResolveAutostart: a plain GET, a ResolveAutostartResponse", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    const r = await member.client.get(`/workspaces/${got.body.id}/resolve-autostart`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("ResolveAutostartResponse", r.body)
    expect(r.body).toEqual({ parameter_mismatch: false })
  })

  it("getAgentListeningPorts (answered by the agent over its connection), the agent's connection info and startup-logs", async () => {
    const t = await importWorkspaceTemplate(
      srv,
      owner,
      orgId,
      "resources:\n  - name: box\n    type: machine\n    agents:\n" +
        "      - name: laptop\n        external: true\n"
    )
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-ports", t.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const built = (await member.client.get(`/workspaces/${w.body.id}`)).body
    const agent = built.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    const credentials = await member.client.get(`/workspaces/${w.body.id}/external-agent/laptop/credentials`)
    const ws = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      "Service-Session-Token": credentials.body.agent_token
    })
    ws.socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type === "listening_ports_request") {
        ws.socket.send(
          JSON.stringify({
            type: "listening_ports",
            request_id: m.request_id,
            ports: [{ process_name: "vite", network: "tcp", port: 5173 }]
          })
        )
      }
    })
    ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
    await eventuallyWs(() => ws.messages.some((m) => JSON.parse(m).id === 1))
    const r = await member.client.get(`/workspaceagents/${agent.id}/listening-ports`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("WorkspaceAgentListeningPortsResponse", r.body)
    expect(r.body.ports).toEqual([{ process_name: "vite", network: "tcp", port: 5173 }])
    ws.socket.close()
    // The Go client's AgentConnectionInfo, and the agent logs as older dashboards ask for them (a bare `follow`).
    const info = await member.client.get(`/workspaceagents/${agent.id}/connection`)
    expect(info.status, JSON.stringify(info.body)).toBe(200)
    expectShape("AgentConnectionInfo", info.body)
    const startup = await member.client.get(`/workspaceagents/${agent.id}/startup-logs`)
    expect(startup.status).toBe(200)
    expectShape("[WorkspaceAgentLog]", startup.body)
    const follow = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/${agent.id}/startup-logs?follow&after=0`, {
      "Service-Session-Token": member.client.token!
    })
    // The dashboard reads each message as WorkspaceAgentLog[].
    if (startup.body.length > 0) {
      await eventuallyWs(() => follow.messages.length >= 1)
      expectShape("[WorkspaceAgentLog]", JSON.parse(follow.messages[0]!))
    }
    follow.socket.close()
  })

  it("getAgentContainers (labels as repeated `label`), watchAgentContainers, recreateDevContainer, deleteDevContainer", async () => {
    const t = await importWorkspaceTemplate(
      srv,
      owner,
      orgId,
      "resources:\n  - name: box\n    type: machine\n    agents:\n" +
        "      - name: laptop\n        external: true\n"
    )
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-dc", t.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const built = (await member.client.get(`/workspaces/${w.body.id}`)).body
    const agent = built.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
    const credentials = await member.client.get(`/workspaces/${w.body.id}/external-agent/laptop/credentials`)
    const ws = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      "Service-Session-Token": credentials.body.agent_token
    })
    const dcId = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"
    const container = {
      created_at: "2030-01-01T10:00:00.000Z",
      id: "c0ffee",
      name: "p-dc",
      image: "img",
      labels: { "devcontainer.local_folder": "/p", app: "web" },
      running: true,
      ports: [],
      status: "running",
      volumes: {}
    }
    ws.socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type !== "containers_request") return
      const answer = m.action === "list"
        ? {
          status: 200,
          body: {
            devcontainers: [{
              id: dcId,
              name: "p",
              workspace_folder: "/p",
              status: "running",
              dirty: false,
              container
            }],
            containers: [container]
          }
        }
        : m.action === "delete"
        ? { status: 204 }
        : { status: 202, body: { message: "Devcontainer recreation initiated", detail: "Started." } }
      ws.socket.send(JSON.stringify({ type: "containers_response", request_id: m.request_id, ...answer }))
    })
    ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
    await eventuallyWs(() => ws.messages.some((m) => JSON.parse(m).id === 1))
    // The dashboard's `new URLSearchParams(labels.map((l) => ["label", l]))`.
    const params = new URLSearchParams([["label", "app=web"], ["label", "devcontainer.local_folder=/p"]])
    const r = await member.client.get(`/workspaceagents/${agent.id}/containers?${params.toString()}`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expectShape("WorkspaceAgentListContainersResponse", r.body)
    expect(r.body.containers.map((c: any) => c.id)).toEqual(["c0ffee"])
    const watch = await connectWs(`${srv.wsUrl}/api/v2/workspaceagents/${agent.id}/containers/watch`, {
      "Service-Session-Token": member.client.token!
    })
    await eventuallyWs(() => watch.messages.length >= 1)
    expectShape("WorkspaceAgentListContainersResponse", JSON.parse(watch.messages[0]!))
    watch.socket.close()
    const recreated = await member.client.post(`/workspaceagents/${agent.id}/containers/devcontainers/${dcId}/recreate`)
    expect(recreated.status, JSON.stringify(recreated.body)).toBe(202)
    expectShape("Response", recreated.body)
    expect((await member.client.delete(`/workspaceagents/${agent.id}/containers/devcontainers/${dcId}`)).status).toBe(
      204
    )
    ws.socket.close()
  })

  it("updateWorkspaceBuildState (the Go client's `state push`): PUT {state} with the bytes in base64", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    const path = `/workspacebuilds/${got.body.latest_build.id}/state`
    const before = await owner.get(path)
    expect(before.status).toBe(200)
    const r = await owner.put(path, { state: Buffer.from(JSON.stringify(before.body)).toString("base64") })
    expect(r.status, JSON.stringify(r.body)).toBe(204)
    expect((await owner.get(path)).body).toEqual(before.body)
  })

  it("patchWorkspace (rename), putFavoriteWorkspace and deleteFavoriteWorkspace", async () => {
    const got = await member.client.get(`/users/me/workspace/dash-ws-a`)
    expect((await member.client.patch(`/workspaces/${got.body.id}`, { name: "dash-ws-renamed" })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${got.body.id}`)).body.name).toBe("dash-ws-renamed")
    // axios.put / axios.delete with no body.
    expect((await member.client.put(`/workspaces/${got.body.id}/favorite`)).status).toBe(204)
    expect((await member.client.get(`/workspaces/${got.body.id}`)).body.favorite).toBe(true)
    expect((await member.client.delete(`/workspaces/${got.body.id}/favorite`)).status).toBe(204)
    expect((await member.client.get(`/workspaces/${got.body.id}`)).body.favorite).toBe(false)
  })

  // The workspace settings pages and the workspace page's schedule controls: putWorkspaceAutostart(id,
  // { schedule }), putWorkspaceAutostop(id, { ttl_ms }) (null for manual shutdown), putWorkspaceExtension(id,
  // dayjs) as { deadline } (dayjs's JSON: an ISO time with milliseconds), updateWorkspaceAutomaticUpdates(id,
  // automatic_updates) as { automatic_updates }, updateWorkspaceDormancy(id, dormant) as { dormant }
  // (answering a Workspace), postWorkspaceUsage(id, { agent_id, app_name }) or, in older dashboards, no body.
  it("putWorkspaceAutostart, putWorkspaceAutostop (and null), putWorkspaceExtension", async () => {
    const w = await member.client.post("/users/me/workspaces", {
      ...createBody("dash-ws-sched", template.id),
      ttl_ms: 3_600_000
    })
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const id = w.body.id as string
    const start = await member.client.put(`/workspaces/${id}/autostart`, {
      schedule: "CRON_TZ=America/Chicago 30 9 * * 1-5"
    })
    expect(start.status, JSON.stringify(start.body)).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.autostart_schedule).toBe(
      "CRON_TZ=America/Chicago 30 9 * * 1-5"
    )
    // The schedule form's "off": an empty schedule.
    expect((await member.client.put(`/workspaces/${id}/autostart`, { schedule: "" })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.autostart_schedule ?? "").toBe("")
    const deadline = new Date(Date.now() + 2 * 3_600_000).toISOString()
    const extended = await member.client.put(`/workspaces/${id}/extend`, { deadline })
    expect(extended.status, JSON.stringify(extended.body)).toBe(200)
    expectShape("Response", extended.body)
    expect(Date.parse((await member.client.get(`/workspaces/${id}`)).body.latest_build.deadline)).toBe(
      Date.parse(deadline)
    )
    expect((await member.client.put(`/workspaces/${id}/ttl`, { ttl_ms: 7_200_000 })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.ttl_ms).toBe(7_200_000)
    const manual = await member.client.put(`/workspaces/${id}/ttl`, { ttl_ms: null })
    expect(manual.status, JSON.stringify(manual.body)).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.ttl_ms ?? null).toBeNull()
  })

  it("updateWorkspaceAutomaticUpdates, updateWorkspaceDormancy, postWorkspaceUsage (with and without a body)", async () => {
    const w = await member.client.post("/users/me/workspaces", createBody("dash-ws-settings", template.id))
    expect(w.status, JSON.stringify(w.body)).toBe(200)
    await runJobs(srv)
    const id = w.body.id as string
    expect((await member.client.put(`/workspaces/${id}/autoupdates`, { automatic_updates: "always" })).status).toBe(204)
    expect((await member.client.get(`/workspaces/${id}`)).body.automatic_updates).toBe("always")
    const agent = (await member.client.get(`/workspaces/${id}`)).body.latest_build.resources
      .flatMap((r: { agents?: Array<{ id: string }> }) => r.agents ?? [])[0]?.id ??
      "6f1d2c3b-4a59-4e7d-8c6b-5a4f3e2d1c0c"
    const used = await member.client.post(`/workspaces/${id}/usage`, { agent_id: agent, app_name: "vscode" })
    expect(used.status, JSON.stringify(used.body)).toBe(204)
    const bare = await member.client.post(`/workspaces/${id}/usage`)
    expect(bare.status, JSON.stringify(bare.body)).toBe(204)
    const dormant = await member.client.put(`/workspaces/${id}/dormant`, { dormant: true })
    expect(dormant.status, JSON.stringify(dormant.body)).toBe(200)
    expectShape("Workspace", dormant.body)
    expect(typeof dormant.body.dormant_at).toBe("string")
    const active = await member.client.put(`/workspaces/${id}/dormant`, { dormant: false })
    expect(active.status, JSON.stringify(active.body)).toBe(200)
    expectShape("Workspace", active.body)
    expect(active.body.dormant_at ?? null).toBeNull()
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

describe("external auth and applications, as the dashboard's external auth pages send them", () => {
  afterAll(closeExternalAuthWorld)

  it("getUserExternalAuthProviders, getExternalAuthProvider, getExternalAuthDevice, exchangeExternalAuthDevice, unlinkExternalAuthProvider", async () => {
    const x = await externalAuthWorld()
    const validate = makeValidator()
    const list = await x.member.client.get("/external-auth")
    expect(list.status).toBe(200)
    expect(validate("ListUserExternalAuthResponse")(list.body)).toBe(true)
    const one = await x.member.client.get("/external-auth/github")
    expect(one.status).toBe(200)
    expect(one.body.authenticated).toBe(true)
    const device = await x.member.client.get("/external-auth/gh-device/device")
    expect(device.status).toBe(200)
    x.provider.approveDevice(device.body.user_code, "dash-device")
    const exchanged = await x.member.client.post("/external-auth/gh-device/device", {
      device_code: device.body.device_code
    })
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(204)
    const unlinked = await x.member.client.delete("/external-auth/gh-device")
    expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(200)
    expect(validate("DeleteExternalAuthByIDResponse")(unlinked.body)).toBe(true)
  })

  it("getApplicationsHost, and the redirect to an app host with the key", async () => {
    const x = await externalAuthWorld()
    expect((await x.member.client.get("/applications/host")).body).toEqual({
      host: `*.apps.example.test:${new URL(x.srv.url).port}`
    })
    const r = await x.member.client.get(
      `/applications/auth-redirect?redirect_uri=${
        encodeURIComponent("http://code--main--ws--linked-member.apps.example.test/")
      }`
    )
    expect(r.status).toBe(307)
    expect(new URL(r.headers.get("location")!).searchParams.get("coder_application_connect_api_key")).toBeTruthy()
  })
})

describe("appearance, licenses and entitlements, as the dashboard's deployment pages send them", () => {
  afterAll(closeLicensedWorld)

  it("getAppearance, updateAppearance (the page sends back what it read, read-only fields too), getEntitlements", async () => {
    const l = await licensedWorld()
    await l.addLicense()
    const appearance = await l.owner.get("/appearance")
    expect(appearance.status).toBe(200)
    const updated = await l.owner.put("/appearance", { ...appearance.body, application_name: "Dash" })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    const banners = await l.owner.put("/appearance", {
      ...appearance.body,
      announcement_banners: [{ enabled: true, message: "Hello", background_color: "#004852" }]
    })
    expect(banners.status, JSON.stringify(banners.body)).toBe(200)
    const entitlements = await l.member.client.get("/entitlements")
    expect(entitlements.status).toBe(200)
    expect(makeValidator()("Entitlements")(entitlements.body)).toBe(true)
  })

  it("getLicenses, createLicense, refreshEntitlements, removeLicense", async () => {
    const l = await licensedWorld()
    expect((await l.owner.get("/licenses")).status).toBe(200)
    const created = await l.owner.post("/licenses", { license: await l.signer.sign(licenseClaims()) })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const refreshed = await l.owner.post("/licenses/refresh-entitlements")
    expect(refreshed.status).toBe(200)
    expect((await l.member.client.post("/licenses/refresh-entitlements")).status).toBe(403)
    const removed = await l.owner.delete(`/licenses/${created.body.id}`)
    expect(removed.status).toBe(200)
  })
})
