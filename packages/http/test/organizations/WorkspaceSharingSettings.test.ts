/**
 * An organization's workspace sharing settings through real HTTP:
 * GET/PATCH /organizations/{organization}/settings/workspace-sharing, and the sharing routes
 * (`/workspaces/{workspace}/acl`) honouring them.
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
  type TestUser
} from "../support.js"
import { makeWorkspace, readWorkspace, workspaceTemplate } from "../workspaces/sharingFixtures.js"

const settingsOf = (org: string) => `/organizations/${org}/settings/workspace-sharing`
const EVERYONE = { sharing_globally_disabled: false, sharing_disabled: false, shareable_workspace_owners: "everyone" }

describe("workspace sharing settings", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let org: { id: string; name: string }
  let templateId: string
  let alice: TestUser
  let bob: TestUser
  let orgAdmin: TestUser
  let outsider: TestUser
  let robotId: string

  /** Whether `client` may read workspace `id`, as the evaluator answers (its list included). */
  const canRead = (client: Client, id: string) =>
    client.post("/authcheck", {
      checks: { c: { action: "read", object: { resource_type: "workspace", resource_id: id } } }
    })
      .then((r) => r.body.c as boolean)

  const workspaceOf = (ownerOfIt: string, userAcl: Record<string, "use" | "admin"> = {}) =>
    makeWorkspace(srv, { organizationId: org.id, ownerId: ownerOfIt, templateId, userAcl })

  beforeAll(async () => {
    ;({ srv, owner, ownerId } = await startWithOwner())
    org = await createOrganization(owner, "share-org")
    templateId = (await workspaceTemplate(srv, owner, org.id, ownerId)).id
    alice = await createUser(owner, { username: "share-alice", organization_ids: [org.id] })
    bob = await createUser(owner, { username: "share-bob", organization_ids: [org.id] })
    orgAdmin = await createUser(owner, { username: "share-admin", organization_ids: [org.id] })
    await addMemberWithRoles(owner, org.id, orgAdmin.user.id, ["organization-admin"])
    outsider = await createUser(owner, { username: "share-outsider" })
    const robot = await owner.post("/users", {
      email: "share-robot@example.com",
      username: "share-robot",
      service_account: true,
      organization_ids: [org.id]
    })
    expect(robot.status, JSON.stringify(robot.body)).toBe(201)
    robotId = robot.body.id
  })
  afterAll(() => srv.close())

  describe("GET", () => {
    it("answers everyone by default, to any member of the organization", async () => {
      const r = await alice.client.get(settingsOf(org.id))
      expect(r.status).toBe(200)
      expect(r.body).toEqual(EVERYONE)
      expect((await owner.get(settingsOf(org.name))).body).toEqual(EVERYONE)
    })

    it("answers 404 to a user outside the organization and for an unknown one; 401 without a token", async () => {
      expectResponse(await outsider.client.get(settingsOf(org.id)), 404)
      expectResponse(await owner.get(settingsOf("no-such-org")), 404)
      expectResponse(await srv.anonymous.get(settingsOf(org.id)), 401)
    })
  })

  describe("PATCH", () => {
    it("none clears every list of the organization's workspaces and refuses new entries", async () => {
      const shared = await workspaceOf(alice.user.id, { [bob.user.id]: "use" })
      const robots = await workspaceOf(robotId, { [bob.user.id]: "use" })
      const r = await owner.patch(settingsOf(org.id), { shareable_workspace_owners: "none" })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({
        sharing_globally_disabled: false,
        sharing_disabled: true,
        shareable_workspace_owners: "none"
      })
      expect((await alice.client.get(settingsOf(org.id))).body).toEqual(r.body)
      expect((await readWorkspace(srv, shared.id)).user_acl).toEqual({})
      expect((await readWorkspace(srv, robots.id)).user_acl).toEqual({})
      const refused = await alice.client.patch(`/workspaces/${shared.id}/acl`, { user_roles: { [bob.user.id]: "use" } })
      expectResponse(refused, 403)
      expect(refused.body.message).toBe("Workspace sharing is disabled for this organization.")
      expectResponse(await owner.patch(`/workspaces/${robots.id}/acl`, { user_roles: { [bob.user.id]: "use" } }), 403)
      // Reading the (empty) list still works.
      expect((await alice.client.get(`/workspaces/${shared.id}/acl`)).body).toEqual({ users: [], group: [] })
      expect(await canRead(bob.client, shared.id)).toBe(false)
    })

    it("service_accounts keeps and allows only the lists of service accounts' workspaces", async () => {
      expect((await owner.patch(settingsOf(org.id), { shareable_workspace_owners: "everyone" })).status).toBe(200)
      const people = await workspaceOf(alice.user.id, { [bob.user.id]: "use" })
      const robots = await workspaceOf(robotId, { [bob.user.id]: "use" })
      const r = await orgAdmin.client.patch(settingsOf(org.id), { shareable_workspace_owners: "service_accounts" })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({
        sharing_globally_disabled: false,
        sharing_disabled: false,
        shareable_workspace_owners: "service_accounts"
      })
      expect((await readWorkspace(srv, people.id)).user_acl).toEqual({})
      expect((await readWorkspace(srv, robots.id)).user_acl).toEqual({ [bob.user.id]: "use" })
      expect(await canRead(bob.client, robots.id)).toBe(true)
      expect(await canRead(bob.client, people.id)).toBe(false)
      expectResponse(
        await alice.client.patch(`/workspaces/${people.id}/acl`, { user_roles: { [bob.user.id]: "use" } }),
        403
      )
      expect((await owner.patch(`/workspaces/${robots.id}/acl`, { user_roles: { [alice.user.id]: "admin" } })).status)
        .toBe(204)
    })

    it("everyone allows sharing again", async () => {
      expect((await owner.patch(settingsOf(org.id), { shareable_workspace_owners: "everyone" })).body).toEqual(EVERYONE)
      const w = await workspaceOf(alice.user.id)
      expect((await alice.client.patch(`/workspaces/${w.id}/acl`, { user_roles: { [bob.user.id]: "use" } })).status)
        .toBe(204)
      expect(await canRead(bob.client, w.id)).toBe(true)
    })

    it("reads the deprecated sharing_disabled when shareable_workspace_owners is not given", async () => {
      expect((await owner.patch(settingsOf(org.id), { sharing_disabled: true })).body.shareable_workspace_owners).toBe(
        "none"
      )
      expect((await owner.patch(settingsOf(org.id), { sharing_disabled: false, shareable_workspace_owners: "" })).body)
        .toEqual(EVERYONE)
      expect(
        (await owner.patch(settingsOf(org.id), { sharing_disabled: true, shareable_workspace_owners: "everyone" })).body
      )
        .toEqual(EVERYONE)
      expect((await owner.patch(settingsOf(org.id), { sharing_disabled: null, shareable_workspace_owners: null })).body)
        .toEqual(EVERYONE)
    })

    it("writes an audit entry on the organization", async () => {
      expect((await owner.patch(settingsOf(org.id), { shareable_workspace_owners: "service_accounts" })).status).toBe(
        200
      )
      const entry = (await owner.get("/audit?limit=1")).body.audit_logs[0]
      expect(entry).toMatchObject({
        resource_type: "organization",
        action: "write",
        resource_target: org.name,
        status_code: 200
      })
      expect(entry.diff.shareable_workspace_owners).toMatchObject({ new: "service_accounts" })
      await owner.patch(settingsOf(org.id), { shareable_workspace_owners: "everyone" })
    })

    it("answers 400 with one validation per bad field", async () => {
      expectValidations(
        await owner.patch(settingsOf(org.id), { shareable_workspace_owners: "some", sharing_disabled: "yes" }),
        ["sharing_disabled", "shareable_workspace_owners"]
      )
      expect((await owner.get(settingsOf(org.id))).body).toEqual(EVERYONE)
    })

    it("answers 403 to a member who may not update the organization, 404 outside it, 401 without a token", async () => {
      expectResponse(await alice.client.patch(settingsOf(org.id), { shareable_workspace_owners: "none" }), 403)
      expectResponse(await outsider.client.patch(settingsOf(org.id), { shareable_workspace_owners: "none" }), 404)
      expectResponse(await owner.patch(settingsOf("no-such-org"), { shareable_workspace_owners: "none" }), 404)
      expectResponse(await srv.anonymous.patch(settingsOf(org.id), { shareable_workspace_owners: "none" }), 401)
      expect((await owner.get(settingsOf(org.id))).body).toEqual(EVERYONE)
    })
  })

  describe("with sharing off for the deployment", () => {
    let off: ServiceTestServer
    let offOwner: Client
    beforeAll(async () => {
      ;({ srv: off, owner: offOwner } = await startWithOwner({ settings: { disableWorkspaceSharing: true } }))
    })
    afterAll(() => off.close())

    it("answers none, globally disabled, whatever the organization says", async () => {
      const r = await offOwner.get(settingsOf("default"))
      expect(r.status).toBe(200)
      expect(r.body).toEqual({
        sharing_globally_disabled: true,
        sharing_disabled: true,
        shareable_workspace_owners: "none"
      })
      const patched = await offOwner.patch(settingsOf("default"), { shareable_workspace_owners: "everyone" })
      expect(patched.status).toBe(200)
      expect(patched.body.shareable_workspace_owners).toBe("none")
    })
  })
})
