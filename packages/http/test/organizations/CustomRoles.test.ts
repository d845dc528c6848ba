/**
 * Custom organization roles over real HTTP: create, update and delete
 * (`/organizations/{organization}/members/roles`), the roles listing, assignment through the
 * member-roles route, and the evaluator honouring a custom role on real routes and in
 * `POST /authcheck`.
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
  uniqueName
} from "../support.js"

const GROUP_MAKER = [
  { negate: false, resource_type: "group", action: "create" },
  { negate: false, resource_type: "group", action: "read" }
]

describe("custom organization roles", () => {
  let srv: TestServer
  let owner: Client
  let org: { id: string; name: string }
  let other: { id: string; name: string }
  let member: TestUser
  let outsider: TestUser
  let userAdmin: TestUser
  let orgUserAdmin: TestUser
  let orgAdmin: TestUser

  const roles = (orgId = org.id) => `/organizations/${orgId}/members/roles`
  const roleName = () => uniqueName("r").slice(0, 30)
  const create = async (body: Record<string, unknown>, as = owner, orgId = org.id) => as.post(roles(orgId), body)

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
    org = await createOrganization(owner)
    other = await createOrganization(owner)
    member = await createUser(owner)
    outsider = await createUser(owner)
    userAdmin = await createUser(owner, { roles: ["user-admin"] })
    orgUserAdmin = await createUser(owner)
    orgAdmin = await createUser(owner)
    await addMemberWithRoles(owner, org.id, member.user.id)
    await addMemberWithRoles(owner, other.id, member.user.id)
    await addMemberWithRoles(owner, org.id, orgUserAdmin.user.id, ["organization-user-admin"])
    await addMemberWithRoles(owner, org.id, orgAdmin.user.id, ["organization-admin"])
  })
  afterAll(() => srv.close())

  it("creates a role, lists it as not built in, updates and deletes it", async () => {
    const name = roleName()
    const made = await create({ name, display_name: "Group Maker", organization_permissions: GROUP_MAKER })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect(made.body).toEqual({
      name,
      organization_id: org.id,
      display_name: "Group Maker",
      site_permissions: [],
      organization_permissions: GROUP_MAKER,
      user_permissions: []
    })
    const listed = await owner.get(roles())
    expect(listed.status).toBe(200)
    const entry = listed.body.find((r: any) => r.name === name)
    expect(entry).toEqual({
      name,
      display_name: "Group Maker",
      organization_id: org.id,
      site_permissions: [],
      organization_permissions: GROUP_MAKER,
      user_permissions: [],
      assignable: true,
      built_in: false
    })
    // Only in its organization.
    expect((await owner.get(roles(other.id))).body.some((r: any) => r.name === name)).toBe(false)
    expect(listed.body.filter((r: any) => r.built_in).length).toBe(5)

    const updated = await owner.put(roles(), {
      name,
      display_name: "Readers",
      organization_permissions: [{ resource_type: "group", action: "read" }]
    })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect(updated.body.display_name).toBe("Readers")
    expect(updated.body.organization_permissions).toEqual([{ negate: false, resource_type: "group", action: "read" }])

    const removed = await owner.delete(`${roles()}/${name}`)
    expect(removed.status).toBe(204)
    expect((await owner.get(roles())).body.some((r: any) => r.name === name)).toBe(false)
    const again = await owner.delete(`${roles()}/${name}`)
    expectResponse(again, 404)
    expect(again.body.message).toBe(`No custom role with the name ${name} found`)
  })

  it("audits each change as a custom_role", async () => {
    const name = roleName()
    expect((await create({ name, organization_permissions: GROUP_MAKER })).status).toBe(200)
    expect((await owner.put(roles(), { name, display_name: "x", organization_permissions: [] })).status).toBe(200)
    expect((await owner.delete(`${roles()}/${name}`)).status).toBe(204)
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:custom_role")}&limit=100`)
    expect(audit.status).toBe(200)
    const mine = audit.body.audit_logs.filter((l: any) => l.resource_target === name)
    expect(mine.map((l: any) => l.action).sort()).toEqual(["create", "delete", "write"])
    for (const l of mine) expect(l.organization_id).toBe(org.id)
  })

  it("answers 401 without credentials", async () => {
    expectResponse(await srv.anonymous.post(roles(), { name: "x" }), 401)
    expectResponse(await srv.anonymous.put(roles(), { name: "x" }), 401)
    expectResponse(await srv.anonymous.delete(`${roles()}/x`), 401)
  })

  it("lets owners, organization admins and user admins manage roles; others get 403 or 404", async () => {
    for (const who of [orgAdmin, userAdmin]) {
      const name = roleName()
      const made = await create(
        { name, organization_permissions: [{ resource_type: "group", action: "create" }] },
        who.client
      )
      expect(made.status, JSON.stringify(made.body)).toBe(200)
      expect((await who.client.put(roles(), { name, organization_permissions: [] })).status).toBe(200)
      expect((await who.client.delete(`${roles()}/${name}`)).status).toBe(204)
    }
    const name = roleName()
    expect((await create({ name })).status).toBe(200)
    for (const who of [member, orgUserAdmin]) {
      expectResponse(await create({ name: roleName() }, who.client), 403)
      expectResponse(await who.client.put(roles(), { name }), 403)
      expectResponse(await who.client.delete(`${roles()}/${name}`), 403)
    }
    // An organization the caller is not in is hidden.
    expectResponse(await create({ name: roleName() }, outsider.client), 404)
    expectResponse(await outsider.client.put(roles(), { name }), 404)
    expectResponse(await outsider.client.delete(`${roles()}/${name}`), 404)
  })

  it("answers 404 for an unknown organization or role", async () => {
    expectResponse(await create({ name: roleName() }, owner, "no-such-org"), 404)
    const missing = await owner.put(roles(), { name: "never-made" })
    expectResponse(missing, 404)
    expect(missing.body.message).toBe("No custom role with the name never-made found")
    expectResponse(await owner.delete(`${roles()}/never-made`), 404)
  })

  it("answers 409 for a name in use, and allows it in another organization", async () => {
    const name = roleName()
    expect((await create({ name })).status).toBe(200)
    const dup = await create({ name })
    expectValidations(dup, ["name"], 409)
    expect((await create({ name }, owner, other.id)).status).toBe(200)
  })

  it("answers 400 with one validation per bad field, with the described system's messages", async () => {
    const reserved = await create({ name: "organization-admin" })
    expectValidations(reserved, ["name"])
    expect(reserved.body.message).toBe("Reserved role name")
    const badName = await create({ name: "Not_valid!" })
    expectValidations(badName, ["name"])
    expect(badName.body.message).toBe("Invalid role name")
    expectValidations(await create({ name: "a".repeat(33) }), ["name"])
    const site = await create({ name: roleName(), site_permissions: [{ resource_type: "user", action: "read" }] })
    expectValidations(site, ["site_permissions"])
    expect(site.body.message).toBe(
      "Invalid request, not allowed to assign site wide permissions for an organization role."
    )
    const user = await create({ name: roleName(), user_permissions: [{ resource_type: "user", action: "read" }] })
    expectValidations(user, ["user_permissions"])
    expect(user.body.message).toBe("Invalid request, not allowed to assign user permissions for an organization role.")
    const perms = await create({
      name: roleName(),
      organization_permissions: [
        { resource_type: "group", action: "read" },
        { negate: true, resource_type: "group", action: "read" },
        { resource_type: "*", action: "read" },
        { resource_type: "group", action: "*" },
        { resource_type: "nothing", action: "read" },
        { resource_type: "group", action: "fly" }
      ]
    })
    expectValidations(perms, [
      "organization_permissions.1",
      "organization_permissions.2",
      "organization_permissions.3",
      "organization_permissions.4",
      "organization_permissions.5"
    ])
    const all = await create({
      name: "owner",
      site_permissions: [{ resource_type: "user", action: "read" }],
      user_permissions: [{ resource_type: "user", action: "read" }],
      organization_permissions: [{ resource_type: "group", action: "fly" }]
    })
    expectValidations(all, ["name", "site_permissions", "user_permissions", "organization_permissions.0"])
    // Nobody grants what they do not hold: a user admin has no template permission.
    const escalation = await create({
      name: roleName(),
      organization_permissions: [{ resource_type: "template", action: "update" }]
    }, userAdmin.client)
    expectValidations(escalation, ["organization_permissions.0"])
    expect(escalation.body.validations[0].detail).toContain("not allowed to grant this permission")
    // Wrong types are the schema's.
    expectValidations(await create({ name: 5 }), ["name"])
    expectValidations(await create({ name: roleName(), organization_permissions: "x" }), ["organization_permissions"])
    expectValidations(await owner.put(roles(), { name: "bad name" }), ["name"])
    const builtIn = await owner.delete(`${roles()}/organization-member`)
    expectValidations(builtIn, ["roleName"])
  })

  it("grants a member exactly the role's permissions in its organization, authcheck agreeing", async () => {
    const name = roleName()
    expect((await create({ name, display_name: "Group Maker", organization_permissions: GROUP_MAKER })).status).toBe(
      200
    )
    const checks = {
      create: { action: "create", object: { resource_type: "group", organization_id: org.id } },
      delete: { action: "delete", object: { resource_type: "group", organization_id: org.id } },
      otherOrg: { action: "create", object: { resource_type: "group", organization_id: other.id } }
    }
    // Before: a plain member makes no groups.
    expectResponse(await member.client.post(`/organizations/${org.id}/groups`, { name: uniqueName("g") }), 403)
    expect((await member.client.post("/authcheck", { checks })).body).toEqual({
      create: false,
      delete: false,
      otherOrg: false
    })

    const assigned = await owner.put(`/organizations/${org.id}/members/${member.user.id}/roles`, { roles: [name] })
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200)
    expect(assigned.body.roles).toEqual([{ name, display_name: "Group Maker", organization_id: org.id }])
    const listedMember = (await owner.get(`/organizations/${org.id}/paginated-members?limit=100`)).body.members
      .find((m: any) => m.user_id === member.user.id)
    expect(listedMember.roles).toEqual([{ name, display_name: "Group Maker", organization_id: org.id }])
    expect((await owner.get(`/organizations/${org.id}/members/${member.user.id}`)).body.roles[0].display_name).toBe(
      "Group Maker"
    )

    expect((await member.client.post("/authcheck", { checks })).body).toEqual({
      create: true,
      delete: false,
      otherOrg: false
    })
    const group = await member.client.post(`/organizations/${org.id}/groups`, { name: uniqueName("g") })
    expect(group.status, JSON.stringify(group.body)).toBe(201)
    expectResponse(await member.client.delete(`/groups/${group.body.id}`), 403)
    // Not in the other organization, where the member holds no such role.
    expectResponse(await member.client.post(`/organizations/${other.id}/groups`, { name: uniqueName("g") }), 403)

    // An update takes effect on the next request.
    expect(
      (await owner.put(roles(), { name, organization_permissions: [{ resource_type: "group", action: "read" }] }))
        .status
    ).toBe(200)
    expect((await member.client.post("/authcheck", { checks })).body.create).toBe(false)
    expect((await owner.put(roles(), { name, organization_permissions: GROUP_MAKER })).status).toBe(200)
    expect((await member.client.post("/authcheck", { checks })).body.create).toBe(true)

    // Deleting the role takes it off the member, and with it the permission.
    expect((await owner.delete(`${roles()}/${name}`)).status).toBe(204)
    const after = await owner.get(`/organizations/${org.id}/members/${member.user.id}`)
    expect(after.body.roles).toEqual([])
    expect((await member.client.post("/authcheck", { checks })).body.create).toBe(false)
    expectResponse(await member.client.post(`/organizations/${org.id}/groups`, { name: uniqueName("g") }), 403)
  })

  it("assigns custom roles as the described system: owners and organization admins", async () => {
    const name = roleName()
    expect((await create({ name, organization_permissions: GROUP_MAKER })).status).toBe(200)
    const target = await createUser(owner)
    await addMemberWithRoles(owner, org.id, target.user.id)
    const path = `/organizations/${org.id}/members/${target.user.id}/roles`
    const refused = await orgUserAdmin.client.put(path, { roles: [name] })
    expectResponse(refused, 403)
    expect(refused.body.message).toBe(`You may not assign the role ${name}.`)
    expect((await orgAdmin.client.put(path, { roles: [name] })).status).toBe(200)
    expectResponse(await orgUserAdmin.client.put(path, { roles: [] }), 403)
    // The listing says who may assign it.
    const seen = (await orgUserAdmin.client.get(roles())).body.find((r: any) => r.name === name)
    expect(seen.assignable).toBe(false)
    // A custom role of another organization is unknown here.
    const elsewhere = roleName()
    expect((await create({ name: elsewhere }, owner, other.id)).status).toBe(200)
    expectValidations(await owner.put(path, { roles: [elsewhere] }), ["roles"])
  })

  it("answers no 5xx to junk", async () => {
    await expectNoServerErrors(owner, [
      ["POST", roles()],
      ["PUT", roles()],
      ["DELETE", `${roles()}/x`],
      ["DELETE", `${roles()}/%00`]
    ])
  })
})
