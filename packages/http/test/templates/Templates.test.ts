/** Black-box tests of templates and their access lists over real HTTP and a fresh SQLite database. */
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
  type TestUser,
  tokenClient,
  uniqueName,
  UNKNOWN_ID
} from "../support.js"
import { makeTemplate, makeVersion } from "./fixtures.js"

describe("templates", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let member: TestUser
  let templateAdmin: TestUser
  let auditor: TestUser

  const newTemplate = (body: Record<string, unknown> = {}, client = owner, createdBy = ownerId) =>
    makeTemplate(srv, client, { organizationId: orgId, createdBy, name: uniqueName("tpl"), body })

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
    member = await createUser(owner, { username: "tpl-member" })
    templateAdmin = await createUser(owner, { username: "tpl-admin", roles: ["template-admin"] })
    auditor = await createUser(owner, { username: "tpl-auditor", roles: ["auditor"] })
  })
  afterAll(() => srv.close())

  describe("create", () => {
    it("answers 201 with the Template, the version joins it and the Everyone group may use it", async () => {
      const version = await makeVersion(srv, { organizationId: orgId, createdBy: ownerId })
      const name = uniqueName("created")
      const r = await owner.post(`/organizations/${orgId}/templates`, {
        name,
        display_name: "Created",
        description: "A template.",
        icon: "/icon/code.svg",
        template_version_id: version.id,
        default_ttl_ms: 3_600_000,
        autostop_requirement: { days_of_week: ["saturday", "monday"], weeks: 2 },
        allow_user_cancel_workspace_jobs: null,
        max_port_share_level: null,
        dormant_ttl_ms: 86_400_000,
        delete_ttl_ms: 0
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({
        name,
        display_name: "Created",
        description: "A template.",
        icon: "/icon/code.svg",
        active_version_id: version.id,
        organization_id: orgId,
        organization_name: "coder",
        created_by_id: ownerId,
        created_by_name: "admin",
        active_user_count: 0,
        deleted: false,
        deprecated: false,
        deprecation_message: "",
        provisioner: "echo",
        default_ttl_ms: 3_600_000,
        activity_bump_ms: 3_600_000,
        time_til_dormant_ms: 86_400_000,
        time_til_dormant_autodelete_ms: 0,
        autostop_requirement: { days_of_week: ["monday", "saturday"], weeks: 2 },
        autostart_requirement: {
          days_of_week: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        },
        allow_user_cancel_workspace_jobs: false,
        allow_user_autostart: true,
        allow_user_autostop: true,
        max_port_share_level: "owner",
        cors_behavior: "simple",
        use_classic_parameter_flow: false,
        require_active_version: false,
        build_time_stats: {
          start: { P50: null, P95: null },
          stop: { P50: null, P95: null },
          delete: { P50: null, P95: null }
        }
      })
      const acl = await owner.get(`/templates/${r.body.id}/acl`)
      expect(acl.status).toBe(200)
      expect(acl.body.users).toEqual([])
      expect(acl.body.group.map((g: any) => [g.id, g.name, g.role])).toEqual([[orgId, "Everyone", "use"]])
      // The version now belongs to the template: it cannot make a second one.
      const again = await owner.post(`/organizations/${orgId}/templates`, {
        name: uniqueName("again"),
        template_version_id: version.id
      })
      expectValidations(again, ["template_version_id"])
      const logs = await owner.get(`/audit?q=${encodeURIComponent("resource_type:template action:create")}&limit=5`)
      expect(logs.body.audit_logs.some((l: any) => l.resource_id === r.body.id && l.resource_target === name)).toBe(
        true
      )
    })

    it("with disable_everyone_group_access lists nobody", async () => {
      const t = await newTemplate({ disable_everyone_group_access: true })
      expect((await owner.get(`/templates/${t.id}/acl`)).body).toEqual({ users: [], group: [] })
    })

    it("answers 409 when the organization has a template of that name (any case)", async () => {
      const t = await newTemplate()
      const version = await makeVersion(srv, { organizationId: orgId, createdBy: ownerId })
      const r = await owner.post(`/organizations/${orgId}/templates`, {
        name: t.name.toUpperCase(),
        template_version_id: version.id
      })
      expectValidations(r, ["name"], 409)
    })

    it("needs a version of the organization whose import succeeded", async () => {
      const unknown = await owner.post(`/organizations/${orgId}/templates`, {
        name: uniqueName("x"),
        template_version_id: UNKNOWN_ID
      })
      expectValidations(unknown, ["template_version_id"], 404)
      const other = await createOrganization(owner)
      const elsewhere = await makeVersion(srv, { organizationId: other.id, createdBy: ownerId })
      const wrongOrg = await owner.post(`/organizations/${orgId}/templates`, {
        name: uniqueName("x"),
        template_version_id: elsewhere.id
      })
      expectValidations(wrongOrg, ["template_version_id"], 404)
      for (const outcome of ["failed", "pending"] as const) {
        const v = await makeVersion(srv, { organizationId: orgId, createdBy: ownerId, outcome })
        const r = await owner.post(`/organizations/${orgId}/templates`, {
          name: uniqueName("x"),
          template_version_id: v.id
        })
        expectValidations(r, ["template_version_id"])
        expect(r.body.validations[0].detail).toContain(outcome)
      }
    })

    it("answers 400 with one validation per bad field", async () => {
      const v = await makeVersion(srv, { organizationId: orgId, createdBy: ownerId })
      const r = await owner.post(`/organizations/${orgId}/templates`, {
        name: "-bad-",
        template_version_id: v.id,
        display_name: " padded",
        max_port_share_level: "everyone",
        cors_behavior: "open"
      })
      expectValidations(r, ["name", "display_name", "max_port_share_level", "cors_behavior"])
      const rules = await owner.post(`/organizations/${orgId}/templates`, {
        name: uniqueName("rules"),
        template_version_id: v.id,
        default_ttl_ms: -1,
        failure_ttl_ms: -5,
        autostop_requirement: { days_of_week: ["funday"], weeks: 17 },
        autostart_requirement: { days_of_week: ["monday", "Monday"] }
      })
      expectValidations(rules, [
        "default_ttl_ms",
        "failure_ttl_ms",
        "autostop_requirement.days_of_week",
        "autostop_requirement.weeks",
        "autostart_requirement.days_of_week"
      ])
      expectValidations(
        await owner.post(`/organizations/${orgId}/templates`, { name: "new", template_version_id: v.id }),
        ["name"]
      )
      expectValidations(await owner.post(`/organizations/${orgId}/templates`, { name: "ok" }), ["template_version_id"])
    })

    it("answers 401 without credentials, 403 to members and auditors, 404 for an unknown organization", async () => {
      const v = await makeVersion(srv, { organizationId: orgId, createdBy: ownerId })
      const body = { name: uniqueName("x"), template_version_id: v.id }
      expect((await srv.anonymous.post(`/organizations/${orgId}/templates`, body)).status).toBe(401)
      expectResponse(await member.client.post(`/organizations/${orgId}/templates`, body), 403)
      expectResponse(await auditor.client.post(`/organizations/${orgId}/templates`, body), 403)
      expectResponse(await owner.post(`/organizations/${UNKNOWN_ID}/templates`, body), 404)
      expect((await templateAdmin.client.post(`/organizations/${orgId}/templates`, body)).status).toBe(201)
    })
  })

  describe("reading", () => {
    it("answers by id and by organization and name", async () => {
      const t = await newTemplate()
      const byId = await member.client.get(`/templates/${t.id}`)
      expect(byId.status).toBe(200)
      expect(byId.body).toEqual(t)
      const byName = await member.client.get(`/organizations/${orgId}/templates/${t.name}`)
      expect(byName.body).toEqual(t)
      expect((await member.client.get(`/organizations/coder/templates/${t.name.toUpperCase()}`)).body.id).toBe(t.id)
      expectResponse(await member.client.get(`/templates/${UNKNOWN_ID}`), 404)
      expectResponse(await member.client.get(`/organizations/${orgId}/templates/nope`), 404)
      expectValidations(await member.client.get("/templates/not-a-uuid"), ["template"])
      expect((await srv.anonymous.get(`/templates/${t.id}`)).status).toBe(401)
    })

    it("shows members only the templates their access reaches", async () => {
      const open = await newTemplate()
      const closed = await newTemplate({ disable_everyone_group_access: true })
      expect((await member.client.get(`/templates/${closed.id}`)).status).toBe(404)
      const names = async (client: Client, path = "/templates") => (await client.get(path)).body.map((t: any) => t.name)
      expect(await names(member.client)).toContain(open.name)
      expect(await names(member.client)).not.toContain(closed.name)
      expect(await names(member.client, `/organizations/${orgId}/templates`)).not.toContain(closed.name)
      // Site-wide readers see every template.
      for (const client of [owner, templateAdmin.client, auditor.client]) {
        expect(await names(client)).toContain(closed.name)
      }
      // Someone outside the organization sees none of them.
      const outsider = await createUser(owner, { organization_ids: [(await createOrganization(owner)).id] })
      await owner.delete(`/organizations/${orgId}/members/${outsider.user.id}`)
      expect(await names(outsider.client)).not.toContain(open.name)
      expect((await outsider.client.get(`/templates/${open.id}`)).status).toBe(404)
    })

    it("lists by name, filters with q, and leaves deprecated templates out unless asked", async () => {
      const a = await newTemplate({ display_name: "Alpha Box" })
      const b = await newTemplate()
      await owner.patch(`/templates/${b.id}`, { deprecation_message: "Use another one." })
      const all = (await owner.get("/templates")).body.map((t: any) => t.name)
      expect(all).toEqual([...all].sort((x: string, y: string) => x.localeCompare(y)))
      expect(all).toContain(a.name)
      expect(all).not.toContain(b.name)
      const q = async (query: string) =>
        (await owner.get(`/templates?q=${encodeURIComponent(query)}`)).body.map((t: any) => t.name)
      expect(await q("deprecated:true")).toEqual([b.name])
      expect(await q(`exact_name:${a.name}`)).toEqual([a.name])
      expect(await q(`name:${a.name.slice(0, 8)}`)).toContain(a.name)
      expect(await q("alpha")).toEqual([a.name])
      expect(await q("author:me")).toContain(a.name)
      expect(await q(`author_id:${member.user.id}`)).toEqual([])
      expect(await q(`organization:coder exact_name:${a.name}`)).toEqual([a.name])
      expect(await q("deleted:true")).toEqual([])
      expectValidations(await owner.get(`/templates?q=${encodeURIComponent("colour:blue")}`), ["q"])
      expectValidations(await owner.get(`/templates?q=${encodeURIComponent("deprecated:maybe")}`), ["q"])
    })
  })

  describe("update", () => {
    it("changes the given fields, answers 304 with no body when nothing changes", async () => {
      const t = await newTemplate()
      const r = await owner.patch(`/templates/${t.id}`, {
        display_name: "Renamed",
        description: "New words.",
        autostart_requirement: { days_of_week: ["monday"] },
        allow_user_autostop: false,
        cors_behavior: "passthru",
        max_port_share_level: "public",
        time_til_dormant_ms: 60_000
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({
        name: t.name,
        display_name: "Renamed",
        description: "New words.",
        autostart_requirement: { days_of_week: ["monday"] },
        allow_user_autostop: false,
        cors_behavior: "passthru",
        max_port_share_level: "public",
        time_til_dormant_ms: 60_000
      })
      const same = await owner.patch(`/templates/${t.id}`, { display_name: "Renamed", name: "" })
      expect(same.status).toBe(304)
      expect(same.body).toBeUndefined()
      const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${t.id} action:write`)}&limit=5`)
      expect(logs.body.audit_logs[logs.body.audit_logs.length - 1].diff.display_name).toEqual({
        old: "",
        new: "Renamed",
        secret: false
      })
    })

    it("renames, refusing a name in use (409)", async () => {
      const a = await newTemplate()
      const b = await newTemplate()
      expectValidations(await owner.patch(`/templates/${b.id}`, { name: a.name }), ["name"], 409)
      const name = uniqueName("renamed")
      expect((await owner.patch(`/templates/${b.id}`, { name })).body.name).toBe(name)
      expect((await owner.get(`/organizations/${orgId}/templates/${name}`)).body.id).toBe(b.id)
    })

    it("deprecates and takes the deprecation back", async () => {
      const t = await newTemplate()
      expect((await owner.patch(`/templates/${t.id}`, { deprecation_message: "Old." })).body).toMatchObject({
        deprecated: true,
        deprecation_message: "Old."
      })
      expect((await owner.patch(`/templates/${t.id}`, { deprecation_message: "" })).body).toMatchObject({
        deprecated: false,
        deprecation_message: ""
      })
    })

    it("disable_everyone_group_access removes the Everyone entry", async () => {
      const t = await newTemplate()
      await owner.patch(`/templates/${t.id}`, { disable_everyone_group_access: true })
      expect((await owner.get(`/templates/${t.id}/acl`)).body.group).toEqual([])
      expect((await member.client.get(`/templates/${t.id}`)).status).toBe(404)
    })

    it("answers 400 per bad field, 403 to users who may only use it, 404 to those who cannot see it", async () => {
      const t = await newTemplate()
      expectValidations(
        await owner.patch(`/templates/${t.id}`, { default_ttl_ms: -1, name: "a b", cors_behavior: 3 }),
        [
          "name",
          "cors_behavior"
        ]
      )
      expectValidations(await owner.patch(`/templates/${t.id}`, { default_ttl_ms: -1 }), ["default_ttl_ms"])
      expectResponse(await member.client.patch(`/templates/${t.id}`, { display_name: "Mine" }), 403)
      const hidden = await newTemplate({ disable_everyone_group_access: true })
      expectResponse(await member.client.patch(`/templates/${hidden.id}`, { display_name: "Mine" }), 404)
      expectResponse(await owner.patch(`/templates/${UNKNOWN_ID}`, { display_name: "x" }), 404)
      expect((await srv.anonymous.patch(`/templates/${t.id}`, { display_name: "x" })).status).toBe(401)
    })
  })

  describe("delete", () => {
    it("marks the template deleted: 200, then 404, and its name is free again", async () => {
      const t = await newTemplate()
      expectResponse(await member.client.delete(`/templates/${t.id}`), 403)
      const r = await owner.delete(`/templates/${t.id}`)
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ message: "Template has been deleted!" })
      expectResponse(await owner.get(`/templates/${t.id}`), 404)
      expectResponse(await owner.delete(`/templates/${t.id}`), 404)
      expect((await owner.get("/templates")).body.map((x: any) => x.id)).not.toContain(t.id)
      const v = await makeVersion(srv, { organizationId: orgId, createdBy: ownerId })
      expect(
        (await owner.post(`/organizations/${orgId}/templates`, { name: t.name, template_version_id: v.id })).status
      ).toBe(201)
    })
  })

  describe("access lists", () => {
    let group: { id: string; name: string }
    let grouped: TestUser
    let plain: TestUser

    beforeAll(async () => {
      grouped = await createUser(owner)
      plain = await createUser(owner)
      const g = await owner.post(`/organizations/${orgId}/groups`, { name: uniqueName("tplgrp") })
      group = g.body
      await owner.patch(`/groups/${group.id}`, { add_users: [grouped.user.id] })
    })

    it("grants use to a listed user and admin to a listed group's members", async () => {
      const t = await newTemplate({ disable_everyone_group_access: true })
      expect((await plain.client.get(`/templates/${t.id}`)).status).toBe(404)
      const r = await owner.patch(`/templates/${t.id}/acl`, {
        user_perms: { [plain.user.id]: "use" },
        group_perms: { [group.id]: "admin" }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ message: "Successfully updated template ACL list." })
      expect((await plain.client.get(`/templates/${t.id}`)).status).toBe(200)
      expect((await plain.client.get("/templates")).body.map((x: any) => x.id)).toContain(t.id)
      expectResponse(await plain.client.patch(`/templates/${t.id}`, { display_name: "Nope" }), 403)
      // The group's admin role lets its members change the template and its list.
      expect((await grouped.client.patch(`/templates/${t.id}`, { display_name: "Group edit" })).status).toBe(200)
      expect(
        (await grouped.client.patch(`/templates/${t.id}/acl`, { user_perms: { [plain.user.id]: "admin" } })).status
      ).toBe(200)
      expect((await plain.client.patch(`/templates/${t.id}`, { description: "Now I may." })).status).toBe(200)
      const acl = (await owner.get(`/templates/${t.id}/acl`)).body
      expect(acl.users.map((u: any) => [u.id, u.username, u.role])).toEqual([[plain.user.id, plain.username, "admin"]])
      expect(acl.users[0].organization_ids).toContain(orgId)
      expect(acl.group.map((g: any) => [g.id, g.role, g.members.map((m: any) => m.id)])).toEqual([[group.id, "admin", [
        grouped.user.id
      ]]])
      // "" removes an entry.
      await owner.patch(`/templates/${t.id}/acl`, {
        user_perms: { [plain.user.id]: "" },
        group_perms: { [group.id]: "" }
      })
      expect((await plain.client.get(`/templates/${t.id}`)).status).toBe(404)
      expect((await grouped.client.get(`/templates/${t.id}`)).status).toBe(404)
      const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${t.id} action:write`)}&limit=10`)
      expect(logs.body.audit_logs.some((l: any) => l.diff.user_acl !== undefined)).toBe(true)
    })

    it("answers 400 with one validation per bad entry", async () => {
      const t = await newTemplate()
      const outsider = await createUser(owner, { organization_ids: [(await createOrganization(owner)).id] })
      await owner.delete(`/organizations/${orgId}/members/${outsider.user.id}`)
      const r = await owner.patch(`/templates/${t.id}/acl`, {
        user_perms: { [UNKNOWN_ID]: "use", "not-an-id": "use", [plain.user.id]: "owner", [outsider.user.id]: "use" },
        group_perms: { [UNKNOWN_ID]: "admin" }
      })
      expectValidations(r, ["user_perms", "user_perms", "user_perms", "user_perms", "group_perms"])
      expectValidations(await owner.patch(`/templates/${t.id}/acl`, { user_perms: { [plain.user.id]: 5 } }), [
        "user_perms." + plain.user.id
      ])
      expectResponse(
        await member.client.patch(`/templates/${t.id}/acl`, { user_perms: { [member.user.id]: "admin" } }),
        403
      )
    })

    it("offers the organization's members and groups to those who may change the template", async () => {
      const t = await newTemplate()
      const r = await templateAdmin.client.get(`/templates/${t.id}/acl/available`)
      expect(r.status).toBe(200)
      expect(r.body.users.map((u: any) => u.id)).toContain(plain.user.id)
      expect(r.body.groups.map((g: any) => g.id)).toEqual(expect.arrayContaining([orgId, group.id]))
      const searched = await owner.get(`/templates/${t.id}/acl/available?q=${plain.username}`)
      expect(searched.body.users.map((u: any) => u.id)).toEqual([plain.user.id])
      expect(searched.body.groups).toEqual([])
      expectResponse(await member.client.get(`/templates/${t.id}/acl/available`), 404)
    })

    it("narrows by the token's scopes: a template:read token reads but cannot change", async () => {
      const t = await newTemplate()
      const reader = await tokenClient(owner, { scopes: ["template:read"] })
      expect((await reader.get(`/templates/${t.id}`)).status).toBe(200)
      expectResponse(await reader.patch(`/templates/${t.id}`, { display_name: "x" }), 403)
    })

    it("answers authcheck with the template's access list", async () => {
      const t = await newTemplate({ disable_everyone_group_access: true })
      const checks = {
        read: { object: { resource_type: "template", resource_id: t.id }, action: "read" },
        update: { object: { resource_type: "template", resource_id: t.id }, action: "update" }
      }
      expect((await plain.client.post("/authcheck", { checks })).body).toEqual({ read: false, update: false })
      await owner.patch(`/templates/${t.id}/acl`, { user_perms: { [plain.user.id]: "use" } })
      expect((await plain.client.post("/authcheck", { checks })).body).toEqual({ read: true, update: false })
      await owner.patch(`/templates/${t.id}/acl`, { group_perms: { [orgId]: "admin" } })
      expect((await member.client.post("/authcheck", { checks })).body).toEqual({ read: true, update: true })
    })
  })

  describe("prebuilds", () => {
    it("invalidate answers the active version's presets that keep prebuilt workspaces", async () => {
      const version = await makeVersion(srv, {
        organizationId: orgId,
        createdBy: ownerId,
        name: "v-presets",
        presets: [
          { name: "Small", default: true, parameters: [], prebuild: { instances: 2 } },
          { name: "Large", default: false, parameters: [], prebuild: undefined }
        ]
      })
      const name = uniqueName("prebuilt")
      const t = (await owner.post(`/organizations/${orgId}/templates`, { name, template_version_id: version.id })).body
      const r = await owner.post(`/templates/${t.id}/prebuilds/invalidate`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({
        invalidated: [{ preset_name: "Small", template_name: name, template_version_name: "v-presets" }]
      })
      expectResponse(await member.client.post(`/templates/${t.id}/prebuilds/invalidate`), 403)
      expect((await owner.post(`/templates/${(await newTemplate()).id}/prebuilds/invalidate`)).body).toEqual({
        invalidated: []
      })
    })
  })

  it("organization template admins manage their organization's templates only", async () => {
    const other = await createOrganization(owner)
    const u = await createUser(owner)
    await addMemberWithRoles(owner, other.id, u.user.id, ["organization-template-admin"])
    const mine = await makeTemplate(srv, u.client, {
      organizationId: other.id,
      createdBy: u.user.id,
      name: uniqueName("org-tpl")
    })
    expect((await u.client.patch(`/templates/${mine.id}`, { display_name: "Mine" })).status).toBe(200)
    const theirs = await newTemplate({ disable_everyone_group_access: true })
    expect((await u.client.get(`/templates/${theirs.id}`)).status).toBe(404)
  })
})
