/**
 * Black-box tests of role assignment: the site roles of a user (GET /users/roles,
 * PUT /users/{user}/roles) and the organization roles of a member
 * (GET /organizations/{organization}/members/roles, PUT .../members/{user}/roles).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMemberWithRoles,
  type Client,
  createOrganization,
  createUser,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  startWithOwner,
  type TestServer,
  type TestUser,
  tokenClient,
  UNKNOWN_ID,
  UUID_PATTERN
} from "../support.js"

const SITE_ROLES = ["owner", "member", "auditor", "template-admin", "user-admin"]
const ORG_ROLES = [
  "organization-admin",
  "organization-member",
  "organization-auditor",
  "organization-user-admin",
  "organization-template-admin"
]

/** Every field of an AssignableRoles entry; `organization_id` is absent for site roles (`organizationId` ""). */
const expectAssignableRole = (r: any, organizationId: string) => {
  expect(Object.keys(r).sort()).toEqual([
    "assignable",
    "built_in",
    "display_name",
    "name",
    ...(organizationId === "" ? [] : ["organization_id"]),
    "organization_permissions",
    "site_permissions",
    "user_permissions"
  ])
  expect(typeof r.name).toBe("string")
  expect(typeof r.display_name).toBe("string")
  expect(r.display_name.length).toBeGreaterThan(0)
  if (organizationId !== "") expect(r.organization_id).toBe(organizationId)
  expect(typeof r.assignable).toBe("boolean")
  expect(r.built_in).toBe(true)
  for (const p of [...r.site_permissions, ...r.organization_permissions, ...r.user_permissions]) {
    expect(Object.keys(p).sort()).toEqual(["action", "negate", "resource_type"])
    expect(p.negate).toBe(false)
    expect(typeof p.resource_type).toBe("string")
    expect(typeof p.action).toBe("string")
  }
}

const assignableByName = (body: Array<any>) => Object.fromEntries(body.map((r) => [r.name, r.assignable]))

describe("roles", () => {
  let srv: TestServer
  let owner: Client
  let ownerId: string
  let defaultOrgId: string
  let userAdmin: TestUser
  let member: TestUser
  let secondOwner: TestUser

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId: defaultOrgId } = await startWithOwner())
    userAdmin = await createUser(owner, { username: "roles-useradmin", roles: ["user-admin"] })
    member = await createUser(owner, { username: "roles-member" })
    secondOwner = await createUser(owner, { username: "roles-owner2", roles: ["owner"] })
  })
  afterAll(() => srv.close())

  describe("GET /users/roles", () => {
    it("lists every site role with its permissions, all assignable by an owner", async () => {
      const r = await owner.get("/users/roles")
      expect(r.status).toBe(200)
      expect(r.body.map((x: any) => x.name)).toEqual(SITE_ROLES)
      for (const role of r.body) expectAssignableRole(role, "")
      expect(Object.values(assignableByName(r.body))).toEqual(SITE_ROLES.map(() => true))
      const byName = Object.fromEntries(r.body.map((x: any) => [x.name, x]))
      expect(byName.owner.display_name).toBe("Owner")
      expect(byName.owner.site_permissions).toEqual([{ negate: false, resource_type: "*", action: "*" }])
      expect(byName.auditor.site_permissions).toContainEqual({
        negate: false,
        resource_type: "audit_log",
        action: "read"
      })
      expect(byName.member.user_permissions).toContainEqual({ negate: false, resource_type: "api_key", action: "*" })
      expect(byName.member.site_permissions).toContainEqual({
        negate: false,
        resource_type: "assign_role",
        action: "read"
      })
    })

    it("marks owner unassignable for a user admin", async () => {
      const r = await userAdmin.client.get("/users/roles")
      expect(r.status).toBe(200)
      expect(assignableByName(r.body)).toEqual({
        owner: false,
        member: true,
        auditor: true,
        "template-admin": true,
        "user-admin": true
      })
    })

    it("lets a plain member list the roles, none assignable", async () => {
      const r = await member.client.get("/users/roles")
      expect(r.status).toBe(200)
      expect(r.body.map((x: any) => x.name)).toEqual(SITE_ROLES)
      expect(Object.values(assignableByName(r.body)).every((a) => a === false)).toBe(true)
    })

    it("answers 403 to a token whose scopes leave assign_role out", async () => {
      const scoped = await tokenClient(owner, { scopes: ["user:read"] })
      expectResponse(await scoped.get("/users/roles"), 403)
      const allowed = await tokenClient(owner, { scopes: ["assign_role:read"] })
      const r = await allowed.get("/users/roles")
      expect(r.status).toBe(200)
      // The token cannot assign, so nothing is assignable through it.
      expect(Object.values(assignableByName(r.body)).every((a) => a === false)).toBe(true)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/roles"), 401)
    })
  })

  describe("PUT /users/{user}/roles", () => {
    it("replaces the site roles and answers the User", async () => {
      const target = await createUser(owner)
      const r = await owner.put(`/users/${target.user.id}/roles`, { roles: ["auditor", "template-admin"] })
      expect(r.status).toBe(200)
      expect(r.body.id).toBe(target.user.id)
      expect(r.body.roles).toEqual([
        { name: "auditor", display_name: "Auditor" },
        { name: "template-admin", display_name: "Template Admin" }
      ])
      expect(r.body.organization_ids).toEqual([defaultOrgId])
      expect((await owner.get(`/users/${target.username}`)).body.roles.map((x: any) => x.name)).toEqual([
        "auditor",
        "template-admin"
      ])
      const cleared = await owner.put(`/users/${target.username}/roles`, { roles: [] })
      expect(cleared.status).toBe(200)
      expect(cleared.body.roles).toEqual([])
    })

    it("records the change in the audit log", async () => {
      const target = await createUser(owner)
      expect((await owner.put(`/users/${target.user.id}/roles`, { roles: ["auditor"] })).status).toBe(200)
      const r = await owner.get(`/audit?limit=5&q=${encodeURIComponent(`resource_id:${target.user.id} action:write`)}`)
      expect(r.status).toBe(200)
      const entry = r.body.audit_logs.find((e: any) => e.diff?.rbac_roles !== undefined)
      expect(entry).toMatchObject({
        resource_type: "user",
        resource_id: target.user.id,
        action: "write",
        status_code: 200,
        diff: { rbac_roles: { old: [], new: ["auditor"], secret: false } }
      })
    })

    it("ignores the implicit member role and duplicates", async () => {
      const target = await createUser(owner)
      const r = await owner.put(`/users/${target.user.id}/roles`, { roles: ["member", "auditor", "auditor"] })
      expect(r.status).toBe(200)
      expect(r.body.roles.map((x: any) => x.name)).toEqual(["auditor"])
      const again = await owner.put(`/users/${target.user.id}/roles`, { roles: ["auditor"] })
      expect(again.status).toBe(200)
      expect(again.body.roles.map((x: any) => x.name)).toEqual(["auditor"])
    })

    it("takes effect on the user's existing sessions", async () => {
      const target = await createUser(owner)
      expectResponse(
        await target.client.post("/users", {
          email: "made1@example.com",
          username: "made-one",
          password: "Correct-Horse-Battery-9"
        }),
        403
      )
      expect((await owner.put(`/users/${target.user.id}/roles`, { roles: ["user-admin"] })).status).toBe(200)
      const made = await target.client.post("/users", {
        email: "made1@example.com",
        username: "made-one",
        password: "Correct-Horse-Battery-9"
      })
      expect(made.status).toBe(201)
      expect((await owner.put(`/users/${target.user.id}/roles`, { roles: [] })).status).toBe(200)
      expectResponse(
        await target.client.post("/users", {
          email: "made2@example.com",
          username: "made-two",
          password: "Correct-Horse-Battery-9"
        }),
        403
      )
    })

    it("lets a user admin grant and remove roles below owner", async () => {
      const target = await createUser(owner)
      const r = await userAdmin.client.put(`/users/${target.user.id}/roles`, { roles: ["auditor", "user-admin"] })
      expect(r.status).toBe(200)
      expect(r.body.roles.map((x: any) => x.name)).toEqual(["auditor", "user-admin"])
      expect((await userAdmin.client.put(`/users/${target.user.id}/roles`, { roles: [] })).status).toBe(200)
    })

    it("refuses a user admin granting owner with 403 naming the role", async () => {
      const target = await createUser(owner)
      const r = await userAdmin.client.put(`/users/${target.user.id}/roles`, { roles: ["owner", "auditor"] })
      expectResponse(r, 403)
      expect(r.body.message).toBe("You may not assign the role owner.")
      expect((await owner.get(`/users/${target.user.id}`)).body.roles).toEqual([])
    })

    it("refuses a user admin removing owner with 403 naming the role", async () => {
      const r = await userAdmin.client.put(`/users/${secondOwner.user.id}/roles`, { roles: ["auditor"] })
      expectResponse(r, 403)
      expect(r.body.message).toBe("You may not remove the role owner.")
      expect((await owner.get(`/users/${secondOwner.user.id}`)).body.roles.map((x: any) => x.name)).toEqual(["owner"])
    })

    it("lets an owner demote another owner", async () => {
      const extra = await createUser(owner, { roles: ["owner"] })
      const r = await secondOwner.client.put(`/users/${extra.user.id}/roles`, { roles: ["auditor"] })
      expect(r.status).toBe(200)
      expect(r.body.roles.map((x: any) => x.name)).toEqual(["auditor"])
    })

    it("answers 400 to a caller changing their own roles", async () => {
      for (const ref of ["me", ownerId]) {
        const r = await owner.put(`/users/${ref}/roles`, { roles: [] })
        expectResponse(r, 400)
        expect(r.body.message).toBe("You cannot change your own roles.")
      }
      expectResponse(await userAdmin.client.put("/users/me/roles", { roles: ["owner"] }), 400)
      expect((await owner.get("/users/me")).body.roles.map((x: any) => x.name)).toEqual(["owner"])
    })

    it("answers 403 to a plain member", async () => {
      const target = await createUser(owner)
      expectResponse(await member.client.put(`/users/${target.user.id}/roles`, { roles: ["auditor"] }), 403)
      expectResponse(await member.client.put(`/users/${target.user.id}/roles`, { roles: [] }), 403)
    })

    it("answers 403 to a token whose scopes leave assign_role out", async () => {
      const target = await createUser(owner)
      const scoped = await tokenClient(owner, { scopes: ["user:*"] })
      expectResponse(await scoped.put(`/users/${target.user.id}/roles`, { roles: ["auditor"] }), 403)
      const assigner = await tokenClient(owner, { scopes: ["assign_role:assign"] })
      expect((await assigner.put(`/users/${target.user.id}/roles`, { roles: ["auditor"] })).status).toBe(200)
      // Taking a role away also needs unassign.
      expectResponse(await assigner.put(`/users/${target.user.id}/roles`, { roles: [] }), 403)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/roles`, { roles: [] }), 404)
      expectResponse(await owner.put("/users/nobody-here/roles", { roles: [] }), 404)
    })

    it("answers 400 on roles for unknown or organization roles", async () => {
      const target = await createUser(owner)
      for (const roles of [["boss"], ["auditor", "king", "queen"], ["organization-admin"]]) {
        const r = await owner.put(`/users/${target.user.id}/roles`, { roles })
        expectValidations(r, ["roles"])
      }
      expect((await owner.get(`/users/${target.user.id}`)).body.roles).toEqual([])
    })

    it("answers 400 with one validation per bad field", async () => {
      const target = await createUser(owner)
      expectValidations(await owner.put(`/users/${target.user.id}/roles`, {}), ["roles"])
      expectValidations(await owner.put(`/users/${target.user.id}/roles`, { roles: "auditor" }), ["roles"])
      expectValidations(await owner.put(`/users/${target.user.id}/roles`, { roles: ["auditor", 7] }), ["roles.1"])
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.put(`/users/${member.user.id}/roles`, { roles: [] }), 401)
    })
  })

  describe("organization roles", () => {
    let org: { id: string; name: string }
    let orgUserAdmin: TestUser
    let orgAdmin: TestUser
    let orgMember: TestUser
    let outsider: TestUser

    beforeAll(async () => {
      org = await createOrganization(owner)
      orgUserAdmin = await createUser(owner)
      orgAdmin = await createUser(owner)
      orgMember = await createUser(owner)
      outsider = await createUser(owner)
      await addMemberWithRoles(owner, org.id, orgUserAdmin.user.id, ["organization-user-admin"])
      await addMemberWithRoles(owner, org.id, orgAdmin.user.id, ["organization-admin"])
      await addMemberWithRoles(owner, org.id, orgMember.user.id, [])
    })

    describe("GET /organizations/{organization}/members/roles", () => {
      it("lists the organization roles with the organization id, all assignable by an owner", async () => {
        const r = await owner.get(`/organizations/${org.id}/members/roles`)
        expect(r.status).toBe(200)
        expect(r.body.map((x: any) => x.name)).toEqual(ORG_ROLES)
        for (const role of r.body) expectAssignableRole(role, org.id)
        expect(Object.values(assignableByName(r.body)).every((a) => a === true)).toBe(true)
        const admin = r.body.find((x: any) => x.name === "organization-admin")
        expect(admin.organization_permissions).toEqual([{ negate: false, resource_type: "*", action: "*" }])
        expect(admin.site_permissions).toEqual([])
        // By name as well as by id.
        expect((await owner.get(`/organizations/${org.name}/members/roles`)).body.map((x: any) => x.organization_id)[0])
          .toBe(org.id)
      })

      it("marks what an organization user admin may assign", async () => {
        const r = await orgUserAdmin.client.get(`/organizations/${org.id}/members/roles`)
        expect(r.status).toBe(200)
        expect(assignableByName(r.body)).toEqual({
          "organization-admin": false,
          "organization-member": true,
          "organization-auditor": true,
          "organization-user-admin": true,
          "organization-template-admin": true
        })
      })

      it("lets a plain organization member list the roles, none assignable", async () => {
        const r = await orgMember.client.get(`/organizations/${org.id}/members/roles`)
        expect(r.status).toBe(200)
        expect(Object.values(assignableByName(r.body)).every((a) => a === false)).toBe(true)
      })

      it("answers 403 to an auditor who sees the organization but not its roles", async () => {
        const auditor = await createUser(owner, { roles: ["auditor"] })
        expectResponse(await auditor.client.get(`/organizations/${org.id}/members/roles`), 403)
      })

      it("answers 404 for an organization the caller cannot see or that does not exist", async () => {
        expectResponse(await outsider.client.get(`/organizations/${org.id}/members/roles`), 404)
        expectResponse(await owner.get(`/organizations/${UNKNOWN_ID}/members/roles`), 404)
        expectResponse(await owner.get("/organizations/no-such-org/members/roles"), 404)
      })

      it("requires a token", async () => {
        expectResponse(await srv.anonymous.get(`/organizations/${org.id}/members/roles`), 401)
      })
    })

    describe("PUT /organizations/{organization}/members/{user}/roles", () => {
      it("replaces the member's roles and answers the member", async () => {
        const target = await createUser(owner)
        await addMemberWithRoles(owner, org.id, target.user.id)
        const r = await owner.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
          roles: ["organization-auditor", "organization-member", "organization-auditor"]
        })
        expect(r.status).toBe(200)
        expect(r.body).toMatchObject({ organization_id: org.id, user_id: target.user.id, username: target.username })
        expect(r.body.roles).toEqual([
          { name: "organization-auditor", display_name: "Organization Auditor", organization_id: org.id }
        ])
        const fetched = await owner.get(`/organizations/${org.id}/members/${target.username}`)
        expect(fetched.body.roles).toEqual(r.body.roles)
        const cleared = await owner.put(`/organizations/${org.name}/members/${target.username}/roles`, { roles: [] })
        expect(cleared.status).toBe(200)
        expect(cleared.body.roles).toEqual([])
      })

      it("records the change in the audit log", async () => {
        const target = await createUser(owner)
        await addMemberWithRoles(owner, org.id, target.user.id)
        expect(
          (await owner.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
            roles: ["organization-auditor"]
          })).status
        ).toBe(200)
        const r = await owner.get(
          `/audit?limit=10&q=${encodeURIComponent(`resource_type:organization_member resource_id:${target.user.id}`)}`
        )
        expect(r.status).toBe(200)
        const entry = r.body.audit_logs.find((e: any) => e.diff?.roles?.new?.length === 1)
        expect(entry).toMatchObject({
          resource_type: "organization_member",
          action: "write",
          organization_id: org.id,
          diff: { roles: { old: [], new: ["organization-auditor"], secret: false } }
        })
      })

      it("takes effect at once: an organization admin may change the organization", async () => {
        const target = await createUser(owner)
        await addMemberWithRoles(owner, org.id, target.user.id)
        expectResponse(await target.client.patch(`/organizations/${org.id}`, { display_name: "Changed" }), 403)
        expect(
          (await owner.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
            roles: ["organization-admin"]
          })).status
        ).toBe(200)
        expect((await target.client.patch(`/organizations/${org.id}`, { display_name: "Changed" })).status).toBe(200)
        expect((await owner.put(`/organizations/${org.id}/members/${target.user.id}/roles`, { roles: [] })).status)
          .toBe(200)
        expectResponse(await target.client.patch(`/organizations/${org.id}`, { display_name: "Again" }), 403)
      })

      it("lets an organization admin grant organization admin", async () => {
        const target = await createUser(owner)
        await addMemberWithRoles(owner, org.id, target.user.id)
        const r = await orgAdmin.client.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
          roles: ["organization-admin"]
        })
        expect(r.status).toBe(200)
        expect(r.body.roles.map((x: any) => x.name)).toEqual(["organization-admin"])
      })

      it("refuses an organization user admin granting or removing organization admin with 403", async () => {
        const target = await createUser(owner)
        await addMemberWithRoles(owner, org.id, target.user.id)
        const grant = await orgUserAdmin.client.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
          roles: ["organization-admin"]
        })
        expectResponse(grant, 403)
        expect(grant.body.message).toBe("You may not assign the role organization-admin.")
        const remove = await orgUserAdmin.client.put(`/organizations/${org.id}/members/${orgAdmin.user.id}/roles`, {
          roles: []
        })
        expectResponse(remove, 403)
        expect(remove.body.message).toBe("You may not remove the role organization-admin.")
        const ok = await orgUserAdmin.client.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
          roles: ["organization-auditor"]
        })
        expect(ok.status).toBe(200)
      })

      it("lets a site user admin assign organization roles below organization admin", async () => {
        const target = await createUser(owner)
        await addMemberWithRoles(owner, org.id, target.user.id)
        const ok = await userAdmin.client.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
          roles: ["organization-user-admin"]
        })
        expect(ok.status).toBe(200)
        expectResponse(
          await userAdmin.client.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
            roles: ["organization-admin"]
          }),
          403
        )
      })

      it("answers 403 to a plain organization member", async () => {
        const target = await createUser(owner)
        await addMemberWithRoles(owner, org.id, target.user.id)
        expectResponse(
          await orgMember.client.put(`/organizations/${org.id}/members/${target.user.id}/roles`, {
            roles: ["organization-auditor"]
          }),
          403
        )
      })

      it("answers 400 to a caller changing their own organization roles", async () => {
        const r = await orgAdmin.client.put(`/organizations/${org.id}/members/me/roles`, { roles: [] })
        expectResponse(r, 400)
        expect(r.body.message).toBe("You cannot change your own organization roles.")
      })

      it("answers 404 when the user is not a member, or user or organization is unknown or hidden", async () => {
        expectResponse(
          await owner.put(`/organizations/${org.id}/members/${outsider.user.id}/roles`, { roles: [] }),
          404
        )
        expectResponse(await owner.put(`/organizations/${org.id}/members/${UNKNOWN_ID}/roles`, { roles: [] }), 404)
        expectResponse(
          await owner.put(`/organizations/${UNKNOWN_ID}/members/${orgMember.user.id}/roles`, { roles: [] }),
          404
        )
        expectResponse(
          await outsider.client.put(`/organizations/${org.id}/members/${orgMember.user.id}/roles`, { roles: [] }),
          404
        )
      })

      it("answers 400 on roles for unknown or site roles", async () => {
        for (const roles of [["boss"], ["owner"], ["organization-auditor", "auditor"]]) {
          expectValidations(await owner.put(`/organizations/${org.id}/members/${orgMember.user.id}/roles`, { roles }), [
            "roles"
          ])
        }
      })

      it("answers 400 with one validation per bad field", async () => {
        const path = `/organizations/${org.id}/members/${orgMember.user.id}/roles`
        expectValidations(await owner.put(path, {}), ["roles"])
        expectValidations(await owner.put(path, { roles: [null] }), ["roles.0"])
      })

      it("requires a token", async () => {
        expectResponse(
          await srv.anonymous.put(`/organizations/${org.id}/members/${orgMember.user.id}/roles`, { roles: [] }),
          401
        )
      })

      it("keeps the default organization's members assignable too", async () => {
        const r = await owner.put(`/organizations/${defaultOrgId}/members/${member.user.id}/roles`, {
          roles: ["organization-auditor"]
        })
        expect(r.status).toBe(200)
        expect(r.body.roles[0].organization_id).toBe(defaultOrgId)
        expect(r.body.user_id).toMatch(UUID_PATTERN)
      })
    })

    it("never answers with a server error", async () => {
      const routes: Array<readonly [string, string]> = []
      for (const u of ["me", member.user.id, "nobody-here", "%20", "..%2F.."]) routes.push(["PUT", `/users/${u}/roles`])
      for (const o of [org.id, "nope", "%00"]) {
        routes.push(["GET", `/organizations/${o}/members/roles`])
        for (const u of [orgMember.user.id, "me", "nobody"]) {
          routes.push(["PUT", `/organizations/${o}/members/${u}/roles`])
        }
      }
      routes.push(["GET", "/users/roles"], ["POST", "/users/roles"], ["PUT", "/users/roles"])
      await expectNoServerErrors(owner, routes)
      await expectNoServerErrors(member.client, routes)
      expect((await owner.get("/users/me")).body.roles.map((x: any) => x.name)).toEqual(["owner"])
    })
  })
})
