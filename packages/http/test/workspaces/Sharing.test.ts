/** Workspace sharing through real HTTP: GET/PATCH/DELETE /workspaces/{workspace}/acl and authcheck. */
import { WorkspaceSharing } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeValidator } from "../schemas/ResponseSchemas.js"
import {
  addMemberWithRoles,
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { makeWorkspace, readWorkspace, setWorkspaceAcl, workspaceTemplate } from "./sharingFixtures.js"

const acl = (id: string) => `/workspaces/${id}/acl`

/** The `shared_with` list the Workspace record of `id` carries. */
const sharedWith = async (srv: ServiceTestServer, id: string) => {
  const record = await readWorkspace(srv, id)
  return srv.run(Effect.flatMap(WorkspaceSharing, (s) => s.sharedWith(record)))
}

describe("workspace sharing", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let templateId: string
  /** Owns the workspaces of these tests. */
  let alice: TestUser
  let bob: TestUser
  let carol: TestUser
  /** A member of another organization only. */
  let stranger: TestUser
  let otherOrg: { id: string; name: string }
  let devs: { id: string; name: string }

  const aliceWorkspace = (init: Partial<Parameters<typeof makeWorkspace>[1]> = {}) =>
    makeWorkspace(srv, { organizationId: orgId, ownerId: alice.user.id, templateId, ...init })

  const check = (client: Client, action: string, workspaceId: string) =>
    client.post("/authcheck", {
      checks: { c: { action, object: { resource_type: "workspace", resource_id: workspaceId } } }
    })
      .then((r) => r.body.c as boolean)

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
    templateId = (await workspaceTemplate(srv, owner, orgId, ownerId)).id
    alice = await createUser(owner, { username: "ws-alice" })
    bob = await createUser(owner, { username: "ws-bob" })
    carol = await createUser(owner, { username: "ws-carol" })
    otherOrg = await createOrganization(owner, "ws-other")
    const made = await createUser(owner, { username: "ws-stranger", organization_ids: [otherOrg.id] })
    stranger = made
    const g = await owner.post(`/organizations/${orgId}/groups`, {
      name: "ws-devs",
      avatar_url: "https://example.com/devs.png"
    })
    devs = g.body
    await owner.patch(`/groups/${devs.id}`, { add_users: [carol.user.id] })
  })
  afterAll(() => srv.close())

  describe("GET /workspaces/{workspace}/acl", () => {
    it("answers the users and groups of the list with their roles", async () => {
      const w = await aliceWorkspace({
        userAcl: { [bob.user.id]: "use" },
        groupAcl: { [devs.id]: "admin", [orgId]: "use" }
      })
      const r = await alice.client.get(acl(w.id))
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.users).toEqual([{ id: bob.user.id, username: "ws-bob", role: "use" }])
      expect(r.body.group.map((g: any) => [g.name, g.role])).toEqual([["Everyone", "use"], ["ws-devs", "admin"]])
      const group = r.body.group.find((g: any) => g.id === devs.id)
      expect(group).toMatchObject({
        organization_id: orgId,
        avatar_url: "https://example.com/devs.png",
        total_member_count: 1
      })
    })

    it("answers empty lists for a workspace shared with nobody", async () => {
      const w = await aliceWorkspace()
      const r = await alice.client.get(acl(w.id))
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ users: [], group: [] })
    })

    it("leaves out users and groups that no longer exist", async () => {
      const gone = await createUser(owner)
      const w = await aliceWorkspace({ userAcl: { [gone.user.id]: "use" }, groupAcl: { [UNKNOWN_ID]: "use" } })
      expect((await owner.delete(`/users/${gone.user.id}`)).status).toBe(200)
      expect((await alice.client.get(acl(w.id))).body).toEqual({ users: [], group: [] })
    })

    it("is readable by those the workspace is shared with, hidden (404) from others", async () => {
      const w = await aliceWorkspace({ userAcl: { [bob.user.id]: "use" } })
      expect((await bob.client.get(acl(w.id))).status).toBe(200)
      expectResponse(await carol.client.get(acl(w.id)), 404)
      expectResponse(await stranger.client.get(acl(w.id)), 404)
    })

    it("answers 401 without credentials, 404 for unknown and deleted workspaces, 400 for a bad id", async () => {
      const w = await aliceWorkspace()
      expectResponse(await srv.anonymous.get(acl(w.id)), 401)
      expectResponse(await owner.get(acl(UNKNOWN_ID)), 404)
      const deleted = await aliceWorkspace({ deleted: true })
      expectResponse(await owner.get(acl(deleted.id)), 404)
      expectValidations(await owner.get(acl("not-a-uuid")), ["workspace"])
    })
  })

  describe("PATCH /workspaces/{workspace}/acl", () => {
    it("sets roles (204), changes and removes them with \"\", and shared_with follows", async () => {
      const w = await aliceWorkspace()
      const set = await alice.client.patch(acl(w.id), {
        user_roles: { [bob.user.id]: "use" },
        group_roles: { [devs.id]: "admin" }
      })
      expect(set.status, JSON.stringify(set.body)).toBe(204)
      expect(set.body).toBeUndefined()
      expect(await readWorkspace(srv, w.id)).toMatchObject({
        user_acl: { [bob.user.id]: "use" },
        group_acl: { [devs.id]: "admin" }
      })
      // One entry at a time, as the dashboard sends them; the others stay.
      expect((await alice.client.patch(acl(w.id), { user_roles: { [bob.user.id]: "admin" } })).status).toBe(204)
      expect((await alice.client.patch(acl(w.id), { user_roles: { [carol.user.id]: "use" } })).status).toBe(204)
      const shared = await sharedWith(srv, w.id)
      expect(shared.map((a) => [a.actor_type, a.id, a.roles])).toEqual([
        ["user", bob.user.id, ["admin"]],
        ["user", carol.user.id, ["use"]],
        ["group", devs.id, ["admin"]]
      ])
      expect(shared.find((a) => a.id === devs.id)).toMatchObject({
        name: "ws-devs",
        avatar_url: "https://example.com/devs.png"
      })
      // The Workspace record's shared_with, as JSON, against the reference's SharedWorkspaceActor.
      const validate = makeValidator()("[SharedWorkspaceActor]")
      expect(validate(JSON.parse(JSON.stringify(shared))), JSON.stringify(validate.errors)).toBe(true)
      expect(
        (await alice.client.patch(acl(w.id), { user_roles: { [bob.user.id]: "" }, group_roles: { [devs.id]: "" } }))
          .status
      ).toBe(204)
      expect(await readWorkspace(srv, w.id)).toMatchObject({ user_acl: { [carol.user.id]: "use" }, group_acl: {} })
    })

    it("gives a use entry reading and connecting, an admin entry also sharing; authcheck agrees", async () => {
      const w = await aliceWorkspace()
      expect(await check(bob.client, "read", w.id)).toBe(false)
      await alice.client.patch(acl(w.id), { user_roles: { [bob.user.id]: "use" } })
      for (const action of ["read", "start", "stop", "ssh", "application_connect"]) {
        expect(await check(bob.client, action, w.id), action).toBe(true)
      }
      for (const action of ["update", "share", "delete"]) {
        expect(await check(bob.client, action, w.id), action).toBe(false)
      }
      expectResponse(await bob.client.patch(acl(w.id), { user_roles: { [carol.user.id]: "use" } }), 403)
      await alice.client.patch(acl(w.id), { user_roles: { [bob.user.id]: "admin" } })
      expect(await check(bob.client, "share", w.id)).toBe(true)
      expect(await check(bob.client, "update", w.id)).toBe(true)
      expect(await check(bob.client, "delete", w.id)).toBe(false)
      expect((await bob.client.patch(acl(w.id), { user_roles: { [carol.user.id]: "use" } })).status).toBe(204)
      expect((await carol.client.get(acl(w.id))).status).toBe(200)
    })

    it("reaches a group's members through the group's entry", async () => {
      const w = await aliceWorkspace()
      expect(await check(carol.client, "ssh", w.id)).toBe(false)
      await alice.client.patch(acl(w.id), { group_roles: { [devs.id]: "use" } })
      expect(await check(carol.client, "ssh", w.id)).toBe(true)
      expect(await check(bob.client, "ssh", w.id)).toBe(false)
    })

    it("lets organization admins and owners share any workspace of the organization", async () => {
      const admin = await createUser(owner)
      await addMemberWithRoles(owner, orgId, admin.user.id, ["organization-admin"])
      const w = await aliceWorkspace()
      expect((await admin.client.patch(acl(w.id), { user_roles: { [bob.user.id]: "use" } })).status).toBe(204)
      expect((await owner.patch(acl(w.id), { user_roles: { [carol.user.id]: "use" } })).status).toBe(204)
    })

    it("grants nothing to a user outside the organization, even with an entry written behind the route's back", async () => {
      const w = await aliceWorkspace()
      await setWorkspaceAcl(srv, w.id, { [stranger.user.id]: "admin" })
      expect(await check(stranger.client, "read", w.id)).toBe(false)
      expectResponse(await stranger.client.get(acl(w.id)), 404)
      expectResponse(await stranger.client.patch(acl(w.id), {}), 404)
    })

    it("answers 400 with one validation per bad entry", async () => {
      const w = await aliceWorkspace()
      const r = await alice.client.patch(acl(w.id), {
        user_roles: {
          [bob.user.id]: "owner",
          "not-an-id": "use",
          [UNKNOWN_ID]: "use",
          [stranger.user.id]: "use",
          [alice.user.id]: "admin",
          [carol.user.id]: "use"
        },
        group_roles: { [UNKNOWN_ID]: "admin", [devs.id]: "read" }
      })
      expectValidations(r, [
        "user_roles",
        "user_roles",
        "user_roles",
        "user_roles",
        "user_roles",
        "group_roles",
        "group_roles"
      ])
      const details = r.body.validations.map((v: any) => v.detail).join("\n")
      expect(details).toContain("not a valid workspace role")
      expect(details).toContain("is not a valid UUID")
      expect(details).toContain(`User with ID ${UNKNOWN_ID} does not exist`)
      expect(details).toContain(`"ws-stranger" is not a member of the workspace's organization`)
      expect(details).toContain("owner cannot be given a role")
      expect(details).toContain(`Group with ID ${UNKNOWN_ID} does not exist`)
      // Nothing was stored, not even the good entry.
      expect((await readWorkspace(srv, w.id)).user_acl).toEqual({})
    })

    it("refuses a group of another organization, and removes unknown entries without complaint", async () => {
      const w = await aliceWorkspace()
      const theirs = await owner.post(`/organizations/${otherOrg.id}/groups`, { name: "ws-theirs" })
      expectValidations(await alice.client.patch(acl(w.id), { group_roles: { [theirs.body.id]: "use" } }), [
        "group_roles"
      ])
      expectValidations(await alice.client.patch(acl(w.id), { group_roles: { [otherOrg.id]: "use" } }), ["group_roles"])
      expect(
        (await alice.client.patch(acl(w.id), { user_roles: { [UNKNOWN_ID]: "" }, group_roles: { "gone": "" } })).status
      ).toBe(204)
    })

    it("answers 400 for a body of the wrong shape, naming the field", async () => {
      const w = await aliceWorkspace()
      expectValidations(await alice.client.patch(acl(w.id), { user_roles: ["use"] }), ["user_roles"])
      expectValidations(await alice.client.patch(acl(w.id), { user_roles: { [bob.user.id]: 1 } }), [
        `user_roles.${bob.user.id}`
      ])
      // null and absent mean "not given".
      expect((await alice.client.patch(acl(w.id), { user_roles: null, group_roles: null })).status).toBe(204)
    })

    it("answers 401, 403 to readers without share, 404 to others and for unknown workspaces", async () => {
      const w = await aliceWorkspace({ userAcl: { [bob.user.id]: "use" } })
      expectResponse(await srv.anonymous.patch(acl(w.id), {}), 401)
      expectResponse(await bob.client.patch(acl(w.id), {}), 403)
      expectResponse(await carol.client.patch(acl(w.id), {}), 404)
      expectResponse(await owner.patch(acl(UNKNOWN_ID), {}), 404)
      const templateAdmin = await createUser(owner, { roles: ["template-admin"] })
      expectResponse(await templateAdmin.client.patch(acl(w.id), {}), 403)
    })

    it("is audited as a write of the workspace with the lists' diff", async () => {
      const w = await aliceWorkspace()
      await alice.client.patch(acl(w.id), { user_roles: { [bob.user.id]: "use" } })
      const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${w.id}`)}&limit=5`)
      const entry = logs.body.audit_logs[0]
      expect(entry).toMatchObject({
        action: "write",
        resource_type: "workspace",
        resource_target: w.name,
        status_code: 204,
        organization_id: orgId,
        diff: { user_acl: { old: {}, new: { [bob.user.id]: "use" }, secret: false } }
      })
      expect(entry.diff).not.toHaveProperty("group_acl")
    })
  })

  describe("DELETE /workspaces/{workspace}/acl", () => {
    it("clears every entry (204), audited as a write", async () => {
      const w = await aliceWorkspace({ userAcl: { [bob.user.id]: "admin" }, groupAcl: { [devs.id]: "use" } })
      const r = await alice.client.delete(acl(w.id))
      expect(r.status, JSON.stringify(r.body)).toBe(204)
      expect(await readWorkspace(srv, w.id)).toMatchObject({ user_acl: {}, group_acl: {} })
      expect(await check(bob.client, "read", w.id)).toBe(false)
      const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${w.id}`)}&limit=5`)
      expect(logs.body.audit_logs[0]).toMatchObject({ action: "write", resource_type: "workspace", status_code: 204 })
      expect(Object.keys(logs.body.audit_logs[0].diff).sort()).toEqual(["group_acl", "user_acl"])
    })

    it("answers 401, 403 to use entries, 204 to admin entries, 404 to others and for unknown workspaces", async () => {
      const w = await aliceWorkspace({ userAcl: { [bob.user.id]: "use", [carol.user.id]: "admin" } })
      expectResponse(await srv.anonymous.delete(acl(w.id)), 401)
      expectResponse(await bob.client.delete(acl(w.id)), 403)
      expectResponse(await stranger.client.delete(acl(w.id)), 404)
      expectResponse(await owner.delete(acl(UNKNOWN_ID)), 404)
      expect((await carol.client.delete(acl(w.id))).status).toBe(204)
      // Carol shared herself out: the workspace is hidden from her again.
      expectResponse(await carol.client.delete(acl(w.id)), 404)
    })
  })

  describe("listing", () => {
    it("lists a workspace through its list only for members of its organization, as GET reads it", async () => {
      const w = await aliceWorkspace()
      // Written directly: the route refuses entries of non-members.
      await setWorkspaceAcl(srv, w.id, { [stranger.user.id]: "admin", [bob.user.id]: "use" })
      const count = async (client: Client) => {
        const r = await client.get(`/workspaces?q=${encodeURIComponent(`id:${w.id}`)}`)
        expect(r.status, JSON.stringify(r.body)).toBe(200)
        return r.body.count as number
      }
      expect(await count(bob.client)).toBe(1)
      expect(await count(stranger.client)).toBe(0)
      expect((await stranger.client.get(`/workspaces/${w.id}`)).status).toBe(404)
    })

    it("does not list one's own workspaces of an organization one has left", async () => {
      const leaver = await createUser(owner, { username: "ws-leaver" })
      const w = await makeWorkspace(srv, { organizationId: otherOrg.id, ownerId: leaver.user.id, templateId })
      const mine = () => leaver.client.get(`/workspaces?q=${encodeURIComponent(`owner:me id:${w.id}`)}`)
      expect((await mine()).body.count).toBe(0)
      expect((await leaver.client.get(`/workspaces/${w.id}`)).status).toBe(404)
    })
  })
})

describe("workspace sharing turned off (disable_workspace_sharing)", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let workspaceId: string
  let ownerId: string

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner({ settings: { disableWorkspaceSharing: true } }))
    const template = await workspaceTemplate(srv, owner, orgId, ownerId)
    member = await createUser(owner, { username: "off-member" })
    const w = await makeWorkspace(srv, {
      organizationId: orgId,
      ownerId,
      templateId: template.id,
      userAcl: { [member.user.id]: "admin" }
    })
    workspaceId = w.id
  })
  afterAll(() => srv.close())

  it("refuses the three routes with 403, even to the site owner", async () => {
    for (
      const r of [
        await owner.get(acl(workspaceId)),
        await owner.patch(acl(workspaceId), { user_roles: { [member.user.id]: "use" } }),
        await owner.delete(acl(workspaceId))
      ]
    ) {
      expectResponse(r, 403)
      expect(r.body.message).toBe("Workspace sharing is disabled for this deployment.")
    }
  })

  it("takes the lists out of authorization: an entry grants nothing, authcheck agrees, shared_with is empty", async () => {
    const answer = await member.client.post("/authcheck", {
      checks: { read: { action: "read", object: { resource_type: "workspace", resource_id: workspaceId } } }
    })
    expect(answer.body.read).toBe(false)
    expectResponse(await member.client.get(acl(workspaceId)), 404)
    const shared = await sharedWith(srv, workspaceId)
    expect(shared).toEqual([])
  })

  it("lists no workspace for a group entry (the Everyone group's)", async () => {
    const template = await workspaceTemplate(srv, owner, orgId, ownerId)
    const w = await makeWorkspace(srv, {
      organizationId: orgId,
      ownerId,
      templateId: template.id,
      groupAcl: { [orgId]: "use" }
    })
    const listed = await member.client.get(`/workspaces?q=${encodeURIComponent(`id:${w.id}`)}`)
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.count).toBe(0)
  })
})
