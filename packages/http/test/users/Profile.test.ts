/**
 * The users routes the dashboard calls beside the listing: a user's login type, roles and
 * organizations, their profile and password, their autofill parameters from real builds, and an
 * organization's group by name. Real HTTP on a real port, on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMemberWithRoles,
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  STRONG_PASSWORD,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { makeTemplate, makeWorkspace, WORKSPACE_TEMPLATE } from "../workspaces/fixtures.js"

describe("users: profile, password, login type, roles, organizations", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let other: TestUser

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner())
    member = await createUser(owner, { username: "pf-member" })
    other = await createUser(owner, { username: "pf-other" })
  })
  afterAll(async () => {
    await srv.close()
  })

  describe("GET /users/{user}/login-type", () => {
    it("answers one's own login type; someone else's is 403; unknown users 404; no session 401", async () => {
      const own = await member.client.get("/users/me/login-type")
      expect(own.status).toBe(200)
      expect(own.body).toEqual({ login_type: "password" })
      expectResponse(await owner.get(`/users/${member.user.id}/login-type`), 403)
      expectResponse(await member.client.get(`/users/${UNKNOWN_ID}/login-type`), 404)
      expectResponse(await srv.anonymous.get(`/users/${member.user.id}/login-type`), 401)
    })
  })

  describe("GET /users/{user}/roles", () => {
    it("answers site roles and organization roles by organization", async () => {
      const admin = await createUser(owner, { username: "pf-admin", roles: ["user-admin"] })
      const r = await admin.client.get("/users/me/roles")
      expect(r.status).toBe(200)
      expect(r.body.roles).toEqual(["user-admin"])
      expect(Object.keys(r.body.organization_roles)).toEqual([orgId])
      // Members see each other (the described system's member role reads users).
      expect((await member.client.get(`/users/${other.user.id}/roles`)).body.roles).toEqual([])
      expectResponse(await member.client.get(`/users/${UNKNOWN_ID}/roles`), 404)
      expectResponse(await srv.anonymous.get("/users/me/roles"), 401)
    })
  })

  describe("GET /users/{user}/organizations", () => {
    it("lists the user's organizations, and one by name; others answer 404", async () => {
      const second = await createOrganization(owner, "pf-second")
      await addMemberWithRoles(owner, second.id, member.user.id, [])
      const list = await member.client.get("/users/me/organizations")
      expect(list.status).toBe(200)
      expect(list.body.map((o: any) => o.id)).toEqual([orgId, second.id])
      const one = await member.client.get("/users/me/organizations/pf-second")
      expect(one.status).toBe(200)
      expect(one.body).toMatchObject({ id: second.id, name: "pf-second" })
      // Not a member of it: 404, for them and for who asks about them.
      expectResponse(await other.client.get("/users/me/organizations/pf-second"), 404)
      expectResponse(await owner.get(`/users/${other.user.id}/organizations/pf-second`), 404)
      expectResponse(await member.client.get("/users/me/organizations/no-such-org"), 404)
      // Another user's: only the organizations the caller may read.
      const privateOrg = await createOrganization(owner, "pf-private")
      await addMemberWithRoles(owner, privateOrg.id, other.user.id, [])
      expect((await member.client.get(`/users/${other.user.id}/organizations`)).body.map((o: any) => o.id)).toEqual([
        orgId
      ])
      expectResponse(await member.client.get(`/users/${UNKNOWN_ID}/organizations`), 404)
      expect((await owner.get(`/users/${other.user.id}/organizations`)).body.map((o: any) => o.id)).toEqual([
        orgId,
        privateOrg.id
      ])
      expectResponse(await srv.anonymous.get("/users/me/organizations"), 401)
    })
  })

  describe("PUT /users/{user}/profile", () => {
    it("changes one's name; a new username needs a user admin; audited", async () => {
      const u = await createUser(owner, { username: "pf-profile" })
      const named = await u.client.put("/users/me/profile", { username: "pf-profile", name: "Pat Profile" })
      expect(named.status).toBe(200)
      expect(named.body).toMatchObject({ username: "pf-profile", name: "Pat Profile" })
      expectResponse(await u.client.put("/users/me/profile", { username: "pf-renamed" }), 403)
      const renamed = await owner.put(`/users/${u.user.id}/profile`, { username: "pf-renamed" })
      expect(renamed.status).toBe(200)
      // The name stays when left out.
      expect(renamed.body).toMatchObject({ username: "pf-renamed", name: "Pat Profile" })
      expect((await owner.get("/users/pf-renamed")).body.id).toBe(u.user.id)
      const audit = await owner.get(`/audit?limit=50&q=${encodeURIComponent(`resource_id:${u.user.id}`)}`)
      expect(audit.status, JSON.stringify(audit.body)).toBe(200)
      expect(audit.body.audit_logs.some((e: any) => e.diff.name?.new === "Pat Profile")).toBe(true)
    })

    it("answers 409 for a username in use, 400 for bad fields, 404 for an unknown user, 401 without a session", async () => {
      const conflict = await owner.put(`/users/${member.user.id}/profile`, { username: "pf-other" })
      expectResponse(conflict, 409)
      expect(conflict.body.validations.map((v: any) => v.field)).toEqual(["username"])
      expectValidations(await member.client.put("/users/me/profile", { username: "not a name!", name: 7 }), [
        "username",
        "name"
      ])
      expectValidations(await member.client.put("/users/me/profile", {}), ["username"])
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/profile`, { username: "whoever" }), 404)
      expectResponse(await member.client.put(`/users/${other.user.id}/profile`, { username: "pf-other" }), 403)
      expectResponse(await srv.anonymous.put("/users/me/profile", { username: "x" }), 401)
    })
  })

  describe("PUT /users/{user}/password", () => {
    it("changes one's password with the old one, ending every session", async () => {
      const u = await createUser(owner, { username: "pf-password" })
      const r = await u.client.put("/users/me/password", {
        old_password: STRONG_PASSWORD,
        password: "Brand-New-Horse-42"
      })
      expect(r.status).toBe(204)
      expectResponse(await u.client.get("/users/me"), 401)
      expectResponse(await srv.anonymous.post("/users/login", { email: u.email, password: STRONG_PASSWORD }), 401)
      expect((await srv.anonymous.post("/users/login", { email: u.email, password: "Brand-New-Horse-42" })).status)
        .toBe(201)
    })

    it("refuses a wrong old password, a weak or unchanged new one, and a missing old one from a plain user", async () => {
      const u = await createUser(owner, { username: "pf-password2" })
      expectValidations(
        await u.client.put("/users/me/password", {
          old_password: "Wrong-Horse-Battery-1",
          password: "Brand-New-Horse-42"
        }),
        ["old_password"]
      )
      expectValidations(
        await u.client.put("/users/me/password", { old_password: STRONG_PASSWORD, password: "short" }),
        ["password"]
      )
      expectValidations(
        await u.client.put("/users/me/password", { old_password: STRONG_PASSWORD, password: STRONG_PASSWORD }),
        ["password"]
      )
      expectResponse(await u.client.put("/users/me/password", { password: "Brand-New-Horse-42" }), 403)
      expectValidations(await u.client.put("/users/me/password", {}), ["password"])
      expect((await u.client.get("/users/me")).status).toBe(200)
    })

    it("lets an owner set it without the old one; others' are 403 to members; unknown 404; 401 without a session", async () => {
      const u = await createUser(owner, { username: "pf-password3" })
      expect((await owner.put(`/users/${u.user.id}/password`, { password: "Admin-Set-Horse-77" })).status).toBe(204)
      expect((await srv.anonymous.post("/users/login", { email: u.email, password: "Admin-Set-Horse-77" })).status)
        .toBe(201)
      expectResponse(await member.client.put(`/users/${u.user.id}/password`, { password: "Admin-Set-Horse-78" }), 403)
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/password`, { password: "Admin-Set-Horse-78" }), 404)
      expectResponse(await srv.anonymous.put("/users/me/password", { password: "Admin-Set-Horse-78" }), 401)
    })

    it("refuses accounts without a password login", async () => {
      const created = await owner.post("/users", {
        email: "pf-none@example.com",
        username: "pf-none",
        login_type: "none",
        organization_ids: [orgId]
      })
      expect(created.status).toBe(201)
      const r = await owner.put(`/users/${created.body.id}/password`, { password: "Admin-Set-Horse-79" })
      expectResponse(r, 400)
      expect(r.body.message).toBe("Users without password login type cannot change their password.")
    })
  })

  describe("GET /users/{user}/autofill-parameters", () => {
    it("answers the values of the user's latest start builds of the template, ephemeral ones left out", async () => {
      const template = await makeTemplate(srv, owner, orgId, WORKSPACE_TEMPLATE)
      const w = await makeWorkspace(srv, owner, orgId, template.id, {
        rich_parameter_values: [{ name: "region", value: "us" }, { name: "cpus", value: "3" }, {
          name: "token",
          value: "secret-ish"
        }]
      })
      const rebuilt = await owner.post(`/workspaces/${w.id}/builds`, {
        transition: "start",
        rich_parameter_values: [{ name: "cpus", value: "5" }]
      })
      expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200)
      await runJobs(srv)
      const r = await owner.get(`/users/me/autofill-parameters?template_id=${template.id}`)
      expect(r.status).toBe(200)
      const values = Object.fromEntries(r.body.map((p: any) => [p.name, p.value]))
      expect(values).toEqual({ region: "us", cpus: "5", repo: "https://example.com/a.git" })
      // Another user has none for that template.
      expect((await member.client.get(`/users/me/autofill-parameters?template_id=${template.id}`)).body).toEqual([])
    })
  })

  describe("GET /organizations/{organization}/groups/{groupName}", () => {
    it("answers the organization's group by name, 404 for a name it has not, 401 without a session", async () => {
      const created = await owner.post(`/organizations/${orgId}/groups`, { name: "pf-group" })
      expect(created.status).toBe(201)
      const r = await owner.get(`/organizations/${orgId}/groups/pf-group`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ id: created.body.id, name: "pf-group", organization_id: orgId })
      expectResponse(await owner.get(`/organizations/${orgId}/groups/no-such-group`), 404)
      expectResponse(await owner.get(`/organizations/${UNKNOWN_ID}/groups/pf-group`), 404)
      expectResponse(await srv.anonymous.get(`/organizations/${orgId}/groups/pf-group`), 401)
      // The Everyone group, whose id is the organization's.
      const everyone = await member.client.get(`/organizations/${orgId}/groups/Everyone`)
      expect(everyone.status, JSON.stringify(everyone.body)).toBe(200)
      expect(everyone.body.id).toBe(orgId)
    })
  })
})
