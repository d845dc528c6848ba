/**
 * Black-box tests of the groups group: groups, their members, the Everyone group,
 * workspace quota and group AI budgets, over real HTTP and a fresh SQLite database.
 */
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectFields, REDUCED_USER_FIELDS, REDUCED_USER_OPTIONAL } from "../shapes.js"
import {
  bootstrapOwner,
  type Client,
  createUser,
  expectIsoDate,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  type Reply,
  startTestServer,
  startWithOwner,
  type TestServer,
  tokenClient,
  uniqueName,
  UUID_PATTERN as UUID
} from "../support.js"

const MISSING_UUID = "5e0fbe3c-1b7b-4c33-9d7a-1a2b3c4d5e6f"

/** Checks every field of a reduced user (group members, member listings); empty ones are absent. */
const expectReducedUser = (u: any) => {
  expectFields(u, REDUCED_USER_FIELDS, REDUCED_USER_OPTIONAL)
  expect(u.id).toMatch(UUID)
  expectIsoDate(u.created_at)
  expectIsoDate(u.updated_at)
  expectIsoDate(u.last_seen_at)
  expect(typeof u.username).toBe("string")
  expect(typeof u.email).toBe("string")
}

/** Checks every field of the spec's Group resource; the avatar is absent when empty. */
const expectGroup = (body: any, expected: Record<string, unknown> = {}) => {
  expectFields(body, [
    "display_name",
    "id",
    "members",
    "name",
    "organization_display_name",
    "organization_id",
    "organization_name",
    "quota_allowance",
    "source",
    "total_member_count"
  ], ["avatar_url"])
  expect(body.id).toMatch(UUID)
  expect(body.organization_id).toMatch(UUID)
  expect(typeof body.name).toBe("string")
  expect(typeof body.display_name).toBe("string")
  expect(typeof body.organization_name).toBe("string")
  expect(typeof body.organization_display_name).toBe("string")
  expect(Number.isInteger(body.quota_allowance)).toBe(true)
  expect(Number.isInteger(body.total_member_count)).toBe(true)
  expect(body.source).toBe("user")
  expect(Array.isArray(body.members)).toBe(true)
  expect(body.members.length).toBeLessThanOrEqual(body.total_member_count)
  for (const m of body.members) expectReducedUser(m)
  expect(body).toMatchObject(expected)
}

const expectBudget = (body: any, expected: Record<string, unknown> = {}) => {
  expect(Object.keys(body).sort()).toEqual(["created_at", "group_id", "spend_limit_micros", "updated_at"])
  expect(body.group_id).toMatch(UUID)
  expectIsoDate(body.created_at)
  expectIsoDate(body.updated_at)
  expect(Number.isInteger(body.spend_limit_micros)).toBe(true)
  expect(body).toMatchObject(expected)
}

const ids = (users: ReadonlyArray<{ id: string }>) => users.map((u) => u.id)
const sorted = (xs: ReadonlyArray<string>) => [...xs].sort()

describe("groups", () => {
  let srv: TestServer
  let owner: Client
  let ownerId: string
  let defaultOrgId: string
  let member: Client
  let memberUser: any
  let userAdmin: Client
  let auditor: Client
  let otherOrg: any
  let outsider: Client
  let outsiderUser: any

  const createGroup = async (init: Record<string, unknown> = {}, orgId = defaultOrgId) => {
    const r = await owner.post(`/organizations/${orgId}/groups`, { name: uniqueName("grp"), ...init })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body
  }

  const everyone = async (orgId = defaultOrgId) => {
    const r = await owner.get(`/groups/${orgId}`)
    expect(r.status).toBe(200)
    return r.body
  }

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId: defaultOrgId } = await startWithOwner())
    ;({ client: member, user: memberUser } = await createUser(owner, { username: "grpmember" }))
    userAdmin = (await createUser(owner, { username: "grpuseradmin", roles: ["user-admin"] })).client
    auditor = (await createUser(owner, { username: "grpauditor", roles: ["auditor"] })).client
    otherOrg = (await owner.post("/organizations", { name: "grp-other-org" })).body
    ;({ client: outsider, user: outsiderUser } = await createUser(owner, {
      username: "grpoutsider",
      organization_ids: [otherOrg.id]
    }))
  })
  afterAll(() => srv.close())

  describe("the Everyone group", () => {
    it("exists in the default organization, with the organization's id and every member", async () => {
      const g = await everyone()
      expectGroup(g, {
        id: defaultOrgId,
        organization_id: defaultOrgId,
        name: "Everyone",
        display_name: "",
        quota_allowance: 0,
        organization_name: "coder",
        organization_display_name: "Coder"
      })
      const orgMembers = (await owner.get(`/organizations/${defaultOrgId}/members`)).body
      expect(g.total_member_count).toBe(orgMembers.length)
      expect(sorted(ids(g.members))).toEqual(sorted(orgMembers.map((m: any) => m.user_id)))
      expect(ids(g.members)).toEqual(sorted(ids(g.members)))
    })

    it("exists in every new organization, holding its creator", async () => {
      const org = (await owner.post("/organizations", { name: uniqueName("org") })).body
      const g = await everyone(org.id)
      expectGroup(g, { id: org.id, name: "Everyone", organization_name: org.name, total_member_count: 1 })
      expect(ids(g.members)).toEqual([ownerId])
      const listed = (await owner.get(`/organizations/${org.id}/groups`)).body
      expect(listed.map((x: any) => x.id)).toEqual([org.id])
    })

    it("gains new members of the organization and loses removed and deleted ones", async () => {
      const before = (await everyone()).total_member_count
      const u = await createUser(owner)
      let g = await everyone()
      expect(g.total_member_count).toBe(before + 1)
      expect(ids(g.members)).toContain(u.user.id)
      const members = (await owner.get(`/groups/${defaultOrgId}/members?q=username:${u.username}`)).body
      expect(ids(members.users)).toEqual([u.user.id])

      expect((await owner.delete(`/users/${u.user.id}`)).status).toBe(200)
      g = await everyone()
      expect(g.total_member_count).toBe(before)
      expect(ids(g.members)).not.toContain(u.user.id)

      // Removal from an organization.
      const org = (await owner.post("/organizations", { name: uniqueName("org") })).body
      const v = await createUser(owner, { organization_ids: [org.id] })
      const grp = await createGroup({}, org.id)
      expect((await owner.patch(`/groups/${grp.id}`, { add_users: [v.user.id] })).body.total_member_count).toBe(1)
      expect((await everyone(org.id)).total_member_count).toBe(2)
      expect((await owner.delete(`/organizations/${org.id}/members/${v.user.id}`)).status).toBe(204)
      expect((await everyone(org.id)).total_member_count).toBe(1)
      const after = (await owner.get(`/groups/${grp.id}`)).body
      expect(after.total_member_count).toBe(0)
      expect(after.members).toEqual([])
    })

    it("cannot be deleted, renamed or have members added or removed", async () => {
      expectResponse(await owner.delete(`/groups/${defaultOrgId}`), 400)
      expectValidations(await owner.patch(`/groups/${defaultOrgId}`, { name: "Renamed" }), ["name"])
      expectValidations(await owner.patch(`/groups/${defaultOrgId}`, { display_name: "All of us" }), ["display_name"])
      expectValidations(await owner.patch(`/groups/${defaultOrgId}`, { add_users: [memberUser.id] }), ["add_users"])
      expectValidations(await owner.patch(`/groups/${defaultOrgId}`, { remove_users: [memberUser.id] }), [
        "remove_users"
      ])
      expectValidations(
        await owner.patch(`/groups/${defaultOrgId}`, {
          add_users: [memberUser.id],
          remove_users: [ownerId],
          name: "x"
        }),
        ["name", "add_users", "remove_users"]
      )
      expectGroup(await everyone(), { name: "Everyone" })
    })

    it("keeps its name when given it again or empty, and takes a quota allowance and avatar", async () => {
      const r = await owner.patch(`/groups/${defaultOrgId}`, {
        name: "Everyone",
        quota_allowance: 3,
        avatar_url: "/e.png"
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expectGroup(r.body, { name: "Everyone", quota_allowance: 3, avatar_url: "/e.png" })
      const back = await owner.patch(`/groups/${defaultOrgId}`, { name: "", quota_allowance: 0 })
      expectGroup(back.body, { name: "Everyone", quota_allowance: 0 })
    })

    it("reserves the name Everyone for new and renamed groups", async () => {
      expectValidations(await owner.post(`/organizations/${defaultOrgId}/groups`, { name: "Everyone" }), ["name"])
      expectValidations(await owner.post(`/organizations/${defaultOrgId}/groups`, { name: "everyone" }), ["name"])
      const g = await createGroup()
      expectValidations(await owner.patch(`/groups/${g.id}`, { name: "EVERYONE" }), ["name"])
    })
  })

  describe("POST /organizations/{organization}/groups", () => {
    it("creates a group with defaults (201)", async () => {
      const name = uniqueName("new")
      const r = await owner.post(`/organizations/${defaultOrgId}/groups`, { name })
      expect(r.status).toBe(201)
      expectGroup(r.body, {
        name,
        display_name: "",
        quota_allowance: 0,
        members: [],
        total_member_count: 0,
        organization_id: defaultOrgId,
        organization_name: "coder",
        organization_display_name: "Coder"
      })
      // No avatar: the field is absent, not "".
      expect(r.body).not.toHaveProperty("avatar_url")
      const got = await owner.get(`/groups/${r.body.id}`)
      expect(got.status).toBe(200)
      expect(got.body).toEqual(r.body)
    })

    it("creates a group with every field, by organization name", async () => {
      const input = {
        name: uniqueName("full"),
        display_name: "Full Group",
        avatar_url: "/emojis/1f3e2.png",
        quota_allowance: 25
      }
      const r = await owner.post(`/organizations/${otherOrg.name}/groups`, input)
      expect(r.status).toBe(201)
      expectGroup(r.body, { ...input, organization_id: otherOrg.id, organization_name: otherOrg.name })
    })

    it("lets a user admin create groups", async () => {
      const r = await userAdmin.post(`/organizations/${defaultOrgId}/groups`, { name: uniqueName("grp") })
      expect(r.status).toBe(201)
    })

    it("answers 409 with a validation on name for a duplicate name in the organization (any case)", async () => {
      const g = await createGroup()
      expectValidations(await owner.post(`/organizations/${defaultOrgId}/groups`, { name: g.name }), ["name"], 409)
      expectValidations(await owner.post(`/organizations/${defaultOrgId}/groups`, { name: g.name.toUpperCase() }), [
        "name"
      ], 409)
      // The same name in another organization is fine.
      expect((await owner.post(`/organizations/${otherOrg.id}/groups`, { name: g.name })).status).toBe(201)
    })

    it("answers 400 with one validation per bad field", async () => {
      const path = `/organizations/${defaultOrgId}/groups`
      expectValidations(await owner.post(path, {}), ["name"])
      expectValidations(await owner.post(path, { name: "bad name!" }), ["name"])
      expectValidations(await owner.post(path, { name: "-leading" }), ["name"])
      expectValidations(await owner.post(path, { name: "x".repeat(33) }), ["name"])
      expectValidations(await owner.post(path, { name: uniqueName("grp"), quota_allowance: -1 }), ["quota_allowance"])
      expectValidations(await owner.post(path, { name: uniqueName("grp"), quota_allowance: 1.5 }), ["quota_allowance"])
      expectValidations(
        await owner.post(path, { name: "", display_name: "y".repeat(65), avatar_url: 7, quota_allowance: "many" }),
        ["name", "display_name", "avatar_url", "quota_allowance"]
      )
    })

    it("answers 401, 403 to members, 404 for organizations the caller cannot see or that do not exist", async () => {
      expectResponse(
        await srv.anonymous.post(`/organizations/${defaultOrgId}/groups`, { name: uniqueName("grp") }),
        401
      )
      expectResponse(await member.post(`/organizations/${defaultOrgId}/groups`, { name: uniqueName("grp") }), 403)
      expectResponse(await auditor.post(`/organizations/${defaultOrgId}/groups`, { name: uniqueName("grp") }), 403)
      expectResponse(await outsider.post(`/organizations/${defaultOrgId}/groups`, { name: uniqueName("grp") }), 404)
      expectResponse(await owner.post(`/organizations/${MISSING_UUID}/groups`, { name: uniqueName("grp") }), 404)
      expectResponse(await owner.post("/organizations/no-such-org/groups", { name: uniqueName("grp") }), 404)
    })
  })

  describe("GET /groups/{group}", () => {
    it("answers the group with its members, or without them on exclude_members", async () => {
      const g = await createGroup({ quota_allowance: 2 })
      await owner.patch(`/groups/${g.id}`, { add_users: [memberUser.id, ownerId] })
      const r = await owner.get(`/groups/${g.id}`)
      expect(r.status).toBe(200)
      expectGroup(r.body, { id: g.id, total_member_count: 2 })
      expect(ids(r.body.members)).toEqual(sorted([memberUser.id, ownerId]))
      const bare = await owner.get(`/groups/${g.id}?exclude_members=true`)
      expectGroup(bare.body, { members: [], total_member_count: 2 })
      const full = await owner.get(`/groups/${g.id}?exclude_members=false`)
      expect(full.body.members).toHaveLength(2)
    })

    it("finds a group by a name unique among the groups the caller can see", async () => {
      const g = await createGroup()
      const r = await owner.get(`/groups/${g.name}`)
      expect(r.status).toBe(200)
      expect(r.body.id).toBe(g.id)
      expect((await owner.get(`/groups/${g.name.toUpperCase()}`)).body.id).toBe(g.id)
      // Every organization has an Everyone group: ambiguous for an owner, unique for a one-organization member.
      expectValidations(await owner.get("/groups/Everyone"), ["group"])
      const mine = await member.get("/groups/Everyone")
      expect(mine.status).toBe(200)
      expect(mine.body.id).toBe(defaultOrgId)
      expectResponse(await owner.get("/groups/no-such-group"), 404)
    })

    it("shows a plain member the group and its real size, and no member but themselves", async () => {
      const g = await createGroup()
      const extra = await createUser(owner)
      await owner.patch(`/groups/${g.id}`, { add_users: [memberUser.id, ownerId, extra.user.id] })
      const r = await member.get(`/groups/${g.id}`)
      expect(r.status).toBe(200)
      expectGroup(r.body, { total_member_count: 3 })
      for (const id of ids(r.body.members)) expect(id).toBe(memberUser.id)
      const e = await member.get(`/groups/${defaultOrgId}`)
      expect(e.body.total_member_count).toBe((await everyone()).total_member_count)
      for (const id of ids(e.body.members)) expect(id).toBe(memberUser.id)
    })

    it("shows auditors and user admins every member", async () => {
      const g = await createGroup()
      await owner.patch(`/groups/${g.id}`, { add_users: [memberUser.id, ownerId] })
      for (const client of [auditor, userAdmin]) {
        const r = await client.get(`/groups/${g.id}`)
        expect(r.status).toBe(200)
        expect(r.body.members).toHaveLength(2)
      }
    })

    it("answers 404 for unknown groups and groups of other organizations, 400 for a bad reference, 401", async () => {
      const g = await createGroup()
      expectResponse(await owner.get(`/groups/${MISSING_UUID}`), 404)
      expectResponse(await outsider.get(`/groups/${g.id}`), 404)
      expectResponse(await outsider.get(`/groups/${g.name}`), 404)
      expectResponse(await outsider.get(`/groups/${defaultOrgId}`), 404)
      expectValidations(await owner.get("/groups/not%20a%20uuid!"), ["group"])
      expectValidations(await owner.get(`/groups/${g.id}?exclude_members=maybe`), ["exclude_members"])
      expectResponse(await srv.anonymous.get(`/groups/${g.id}`), 401)
    })
  })

  describe("GET /groups", () => {
    it("lists every group an owner can see, and filters by organization, member and ids", async () => {
      const a = await createGroup()
      const b = await createGroup({}, otherOrg.id)
      await owner.patch(`/groups/${a.id}`, { add_users: [memberUser.id] })
      const all = await owner.get("/groups")
      expect(all.status).toBe(200)
      for (const g of all.body) expectGroup(g)
      expect(all.body.map((g: any) => g.id)).toEqual(expect.arrayContaining([a.id, b.id, defaultOrgId, otherOrg.id]))

      const inOther = (await owner.get(`/groups?organization=${otherOrg.id}`)).body
      expect(inOther.every((g: any) => g.organization_id === otherOrg.id)).toBe(true)
      expect(inOther.map((g: any) => g.id)).toEqual(expect.arrayContaining([b.id, otherOrg.id]))
      expect((await owner.get(`/groups?organization=${otherOrg.name}`)).body).toEqual(inOther)

      for (const ref of [memberUser.id, memberUser.username]) {
        const withMember = (await owner.get(`/groups?has_member=${ref}`)).body
        expect(withMember.map((g: any) => g.id)).toContain(a.id)
        expect(withMember.map((g: any) => g.id)).toContain(defaultOrgId)
        expect(withMember.map((g: any) => g.id)).not.toContain(b.id)
        expect(withMember.map((g: any) => g.id)).not.toContain(otherOrg.id)
      }
      const mine = (await member.get("/groups?has_member=me")).body
      expect(mine.map((g: any) => g.id)).toEqual(expect.arrayContaining([a.id, defaultOrgId]))

      const byIds = (await owner.get(`/groups?group_ids=${a.id},${b.id}`)).body
      expect(sorted(byIds.map((g: any) => g.id))).toEqual(sorted([a.id, b.id]))
      const combined = (await owner.get(`/groups?group_ids=${a.id},${b.id}&organization=${otherOrg.id}`)).body
      expect(combined.map((g: any) => g.id)).toEqual([b.id])
      expect((await owner.get(`/groups?group_ids=${MISSING_UUID}`)).body).toEqual([])
    })

    it("lists only the groups of the caller's organizations", async () => {
      const b = await createGroup({}, otherOrg.id)
      const forMember = (await member.get("/groups")).body
      expect(forMember.length).toBeGreaterThan(0)
      expect(forMember.every((g: any) => g.organization_id === defaultOrgId)).toBe(true)
      const forOutsider = (await outsider.get("/groups")).body
      expect(forOutsider.every((g: any) => g.organization_id === otherOrg.id)).toBe(true)
      expect(forOutsider.map((g: any) => g.id)).toContain(b.id)
    })

    it("answers 400 naming each bad filter, and 401", async () => {
      expectValidations(await owner.get("/groups?organization=no-such-org"), ["organization"])
      expectValidations(await outsider.get(`/groups?organization=${defaultOrgId}`), ["organization"])
      expectValidations(await owner.get("/groups?has_member=nobody-at-all"), ["has_member"])
      expectValidations(await owner.get(`/groups?group_ids=${MISSING_UUID},nope`), ["group_ids"])
      expectResponse(await srv.anonymous.get("/groups"), 401)
    })
  })

  describe("GET /organizations/{organization}/groups", () => {
    it("lists the organization's groups, Everyone included", async () => {
      const g = await createGroup({}, otherOrg.id)
      const r = await owner.get(`/organizations/${otherOrg.id}/groups`)
      expect(r.status).toBe(200)
      for (const x of r.body) expectGroup(x, { organization_id: otherOrg.id })
      expect(r.body.map((x: any) => x.id)).toEqual(expect.arrayContaining([g.id, otherOrg.id]))
      expect((await owner.get(`/organizations/${otherOrg.name}/groups`)).body).toEqual(r.body)
      expect((await outsider.get(`/organizations/${otherOrg.id}/groups`)).status).toBe(200)
    })

    it("answers 404 for organizations the caller cannot see or that do not exist, and 401", async () => {
      expectResponse(await outsider.get(`/organizations/${defaultOrgId}/groups`), 404)
      expectResponse(await owner.get(`/organizations/${MISSING_UUID}/groups`), 404)
      expectResponse(await srv.anonymous.get(`/organizations/${defaultOrgId}/groups`), 401)
    })
  })

  describe("GET /organizations/{organization}/paginated-groups", () => {
    let org: any
    let named: Map<string, any>

    /** Checks every field of a PaginatedGroup: a Group without its member roster. */
    const expectPaginatedGroup = (body: any) => {
      expectFields(body, [
        "display_name",
        "id",
        "name",
        "organization_display_name",
        "organization_id",
        "organization_name",
        "quota_allowance",
        "source",
        "total_member_count"
      ], ["avatar_url"])
      expect(body.id).toMatch(UUID)
      expect(Number.isInteger(body.total_member_count)).toBe(true)
      expect(Number.isInteger(body.quota_allowance)).toBe(true)
    }
    const names = (r: Reply) => r.body.groups.map((g: any) => g.name)

    beforeAll(async () => {
      org = (await owner.post("/organizations", { name: uniqueName("pg-org") })).body
      named = new Map()
      for (
        const [name, init] of [
          ["delta", {}],
          ["Alpha", { avatar_url: "https://example.com/a.png" }],
          ["charlie", {}],
          ["Bravo", { display_name: "Platform team" }]
        ] as const
      ) named.set(name, await createGroup({ name, ...init }, org.id))
      await owner.patch(`/groups/${named.get("charlie").id}`, { add_users: [ownerId] })
    })

    it("pages the organization's groups by name, Everyone included, with their sizes and no members", async () => {
      const r = await owner.get(`/organizations/${org.id}/paginated-groups`)
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["count", "groups"])
      expect(r.body.count).toBe(5)
      expect(names(r)).toEqual(["Alpha", "Bravo", "charlie", "delta", "Everyone"])
      for (const g of r.body.groups) expectPaginatedGroup(g)
      expect(r.body.groups[0]).toMatchObject({
        avatar_url: "https://example.com/a.png",
        organization_id: org.id,
        organization_name: org.name
      })
      expect(r.body.groups[1].avatar_url).toBeUndefined()
      expect(r.body.groups[2].total_member_count).toBe(1)
      expect(r.body.groups[4]).toMatchObject({ id: org.id, total_member_count: 1 })
      // By organization name too.
      expect((await owner.get(`/organizations/${org.name}/paginated-groups`)).body).toEqual(r.body)
    })

    it("pages with limit, offset and the after_id cursor; the count ignores the page", async () => {
      const path = `/organizations/${org.id}/paginated-groups`
      expect(names(await owner.get(`${path}?limit=2`))).toEqual(["Alpha", "Bravo"])
      const next = await owner.get(`${path}?limit=2&after_id=${named.get("Bravo").id}`)
      expect(names(next)).toEqual(["charlie", "delta"])
      expect(next.body.count).toBe(5)
      expect(names(await owner.get(`${path}?limit=2&offset=3`))).toEqual(["delta", "Everyone"])
      expect(names(await owner.get(`${path}?limit=1&offset=1&after_id=${named.get("Alpha").id}`))).toEqual(["charlie"])
      expect((await owner.get(`${path}?offset=50`)).body).toEqual({ count: 5, groups: [] })
      expect(names(await owner.get(`${path}?limit=0&q=&after_id=&offset=`))).toHaveLength(5)
    })

    it("searches names and display names with q; count is the number matching", async () => {
      const path = `/organizations/${org.id}/paginated-groups`
      const r = await owner.get(`${path}?q=a&limit=1`)
      expect(r.body.count).toBe(4) // Alpha, Bravo (and "Platform team"), charlie, delta
      expect(names(r)).toEqual(["Alpha"])
      expect(names(await owner.get(`${path}?q=PLATFORM`))).toEqual(["Bravo"])
      expect((await owner.get(`${path}?q=${encodeURIComponent("%_")}`)).body).toEqual({ count: 0, groups: [] })
    })

    it("lets every member of the organization list it; outsiders get 404, tokens without group read 403", async () => {
      expect((await outsider.get(`/organizations/${otherOrg.id}/paginated-groups`)).status).toBe(200)
      expectResponse(await outsider.get(`/organizations/${org.id}/paginated-groups`), 404)
      expect((await auditor.get(`/organizations/${org.id}/paginated-groups`)).body.count).toBe(5)
      const scoped = await tokenClient(owner, {
        token_name: uniqueName("tok"),
        scopes: ["group:update", "organization:read"]
      })
      expectResponse(await scoped.get(`/organizations/${org.id}/paginated-groups`), 403)
      const reader = await tokenClient(owner, {
        token_name: uniqueName("tok"),
        scopes: ["group:read", "organization:read"]
      })
      expect((await reader.get(`/organizations/${org.id}/paginated-groups`)).status).toBe(200)
    })

    it("answers 400 per bad parameter, 404 for unknown organizations, 401", async () => {
      const path = `/organizations/${org.id}/paginated-groups`
      expectValidations(await owner.get(`${path}?limit=-1&offset=x`), ["limit", "offset"])
      expectValidations(await owner.get(`${path}?after_id=nope`), ["after_id"])
      expectValidations(await owner.get(`${path}?after_id=${MISSING_UUID}`), ["after_id"])
      // A group of another organization is no cursor here.
      expectValidations(await owner.get(`${path}?after_id=${defaultOrgId}`), ["after_id"])
      expectValidations(await owner.get(`${path}?q=name:alpha`), ["q"])
      expectResponse(await owner.get(`/organizations/${MISSING_UUID}/paginated-groups`), 404)
      expectResponse(await srv.anonymous.get(path), 401)
    })
  })

  describe("GET /organizations/{organization}/groups/{groupName}/members", () => {
    it("lists the named group's members as GET /groups/{group}/members does", async () => {
      const g = await createGroup()
      const made = [await createUser(owner), await createUser(owner), await createUser(owner)]
      const memberIds = sorted(made.map((m) => m.user.id))
      await owner.patch(`/groups/${g.id}`, { add_users: memberIds })
      const path = `/organizations/${defaultOrgId}/groups/${g.name}/members`
      const r = await owner.get(path)
      expect(r.status).toBe(200)
      expect(r.body).toEqual((await owner.get(`/groups/${g.id}/members`)).body)
      expect(r.body.count).toBe(3)
      for (const u of r.body.users) expectReducedUser(u)
      expect(ids((await owner.get(`${path}?limit=1&after_id=${memberIds[0]}`)).body.users)).toEqual([memberIds[1]])
      expect(ids((await owner.get(`${path}?limit=1&offset=2`)).body.users)).toEqual([memberIds[2]])
      const byName = (await owner.get(`${path}?q=username:${made[1]!.username}`)).body
      expect(byName).toMatchObject({ count: 1 })
      // Any case of the name; by organization name; the Everyone group.
      expect((await owner.get(`/organizations/default/groups/${g.name.toUpperCase()}/members`)).body).toEqual(r.body)
      const all = (await owner.get(`/organizations/${defaultOrgId}/groups/Everyone/members?limit=1000`)).body
      expect(all.count).toBe((await everyone()).total_member_count)
    })

    it("shows a plain member only themselves; outsiders and unknown names get 404", async () => {
      const g = await createGroup()
      await owner.patch(`/groups/${g.id}`, { add_users: [memberUser.id, ownerId] })
      const path = `/organizations/${defaultOrgId}/groups/${g.name}/members`
      const r = await member.get(path)
      expect(r.status).toBe(200)
      expect(ids(r.body.users)).toEqual([memberUser.id])
      expect(r.body.count).toBe(1)
      expectResponse(await outsider.get(path), 404)
      expectResponse(await owner.get(`/organizations/${defaultOrgId}/groups/no-such-group/members`), 404)
      // The name is looked up in that organization only.
      expectResponse(await owner.get(`/organizations/${otherOrg.id}/groups/${g.name}/members`), 404)
      expectResponse(await owner.get(`/organizations/${MISSING_UUID}/groups/${g.name}/members`), 404)
      const scoped = await tokenClient(owner, {
        token_name: uniqueName("tok"),
        scopes: ["group:update", "organization:read"]
      })
      expectResponse(await scoped.get(path), 403)
    })

    it("answers 400 per bad parameter, 401", async () => {
      const path = `/organizations/${defaultOrgId}/groups/Everyone/members`
      expectValidations(await owner.get(`${path}?limit=1.5&offset=-2`), ["limit", "offset"])
      expectValidations(await owner.get(`${path}?after_id=nope`), ["after_id"])
      expectValidations(await owner.get(`${path}?after_id=${MISSING_UUID}`), ["after_id"])
      expectValidations(await owner.get(`${path}?q=colour:blue`), ["q"])
      expectResponse(await srv.anonymous.get(path), 401)
    })
  })

  describe("PATCH /groups/{group}", () => {
    it("changes name, display name, avatar and quota; an empty name keeps the name", async () => {
      const g = await createGroup()
      const name = uniqueName("renamed")
      const r = await owner.patch(`/groups/${g.id}`, {
        name,
        display_name: "Renamed",
        avatar_url: "/a.png",
        quota_allowance: 7
      })
      expect(r.status).toBe(200)
      expectGroup(r.body, { id: g.id, name, display_name: "Renamed", avatar_url: "/a.png", quota_allowance: 7 })
      const kept = await owner.patch(`/groups/${g.id}`, { name: "" })
      expectGroup(kept.body, { name, display_name: "Renamed", quota_allowance: 7 })
      const cleared = await owner.patch(`/groups/${g.id}`, { display_name: "" })
      expectGroup(cleared.body, { name, display_name: "" })
      // By name.
      const byName = await owner.patch(`/groups/${name}`, { quota_allowance: 8 })
      expectGroup(byName.body, { id: g.id, quota_allowance: 8 })
    })

    it("adds and removes members by id, username or me, counting each member once", async () => {
      const g = await createGroup()
      const u = await createUser(owner)
      let r = await owner.patch(`/groups/${g.id}`, { add_users: [u.user.id, memberUser.username, "me"] })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expectGroup(r.body, { total_member_count: 3 })
      expect(ids(r.body.members)).toEqual(sorted([u.user.id, memberUser.id, ownerId]))
      // Adding members again changes nothing.
      r = await owner.patch(`/groups/${g.id}`, { add_users: [u.user.id, u.username, memberUser.id] })
      expect(r.body.total_member_count).toBe(3)
      r = await owner.patch(`/groups/${g.id}`, { remove_users: [u.username, ownerId] })
      expect(r.body.total_member_count).toBe(1)
      expect(ids(r.body.members)).toEqual([memberUser.id])
      // Removing a non-member changes nothing.
      r = await owner.patch(`/groups/${g.id}`, { remove_users: [u.user.id] })
      expect(r.body.total_member_count).toBe(1)
      r = await owner.patch(`/groups/${g.id}`, { add_users: [u.user.id], remove_users: [memberUser.id] })
      expect(ids(r.body.members)).toEqual([u.user.id])
      expect(r.body.total_member_count).toBe(1)
    })

    it("drops a deleted user from the group and its count", async () => {
      const g = await createGroup()
      const u = await createUser(owner)
      await owner.patch(`/groups/${g.id}`, { add_users: [u.user.id, memberUser.id] })
      expect((await owner.delete(`/users/${u.user.id}`)).status).toBe(200)
      const r = await owner.get(`/groups/${g.id}`)
      expect(r.body.total_member_count).toBe(1)
      expect(ids(r.body.members)).toEqual([memberUser.id])
      const page = await owner.get(`/groups/${g.id}/members`)
      expect(page.body).toMatchObject({ count: 1 })
      expect(ids(page.body.users)).toEqual([memberUser.id])
    })

    it("answers 400 for unknown users, users outside the organization and users both added and removed", async () => {
      const g = await createGroup()
      expectValidations(await owner.patch(`/groups/${g.id}`, { add_users: [MISSING_UUID] }), ["add_users"])
      expectValidations(await owner.patch(`/groups/${g.id}`, { add_users: ["nobody-here"] }), ["add_users"])
      expectValidations(await owner.patch(`/groups/${g.id}`, { add_users: [outsiderUser.id] }), ["add_users"])
      expectValidations(await owner.patch(`/groups/${g.id}`, { remove_users: ["nobody-here"] }), ["remove_users"])
      expectValidations(
        await owner.patch(`/groups/${g.id}`, { add_users: [memberUser.id], remove_users: [memberUser.username] }),
        ["remove_users"]
      )
      expectValidations(
        await owner.patch(`/groups/${g.id}`, {
          add_users: ["nobody-here"],
          remove_users: ["nobody-either"],
          quota_allowance: 3
        }),
        ["add_users", "remove_users"]
      )
      // Nothing was applied.
      expect((await owner.get(`/groups/${g.id}`)).body).toMatchObject({ total_member_count: 0, quota_allowance: 0 })
    })

    it("answers 400 with one validation per bad field", async () => {
      const g = await createGroup()
      expectValidations(await owner.patch(`/groups/${g.id}`, { quota_allowance: -1 }), ["quota_allowance"])
      expectValidations(await owner.patch(`/groups/${g.id}`, { name: "bad name" }), ["name"])
      expectValidations(
        await owner.patch(`/groups/${g.id}`, { name: 5, add_users: "x", remove_users: [1], display_name: " padded " }),
        ["name", "add_users", "remove_users.0", "display_name"]
      )
      expectValidations(await owner.patch("/groups/not%20a%20group!", { quota_allowance: 1 }), ["group"])
    })

    it("answers 409 with a validation on name when the name is taken", async () => {
      const a = await createGroup()
      const b = await createGroup()
      expectValidations(await owner.patch(`/groups/${b.id}`, { name: a.name }), ["name"], 409)
      expectValidations(await owner.patch(`/groups/${b.id}`, { name: a.name.toUpperCase() }), ["name"], 409)
      expect((await owner.get(`/groups/${b.id}`)).body.name).toBe(b.name)
    })

    it("answers 401, 403 to those who may only read, 404 to those who may not read", async () => {
      const g = await createGroup()
      expectResponse(await srv.anonymous.patch(`/groups/${g.id}`, { quota_allowance: 1 }), 401)
      expectResponse(await member.patch(`/groups/${g.id}`, { quota_allowance: 1 }), 403)
      expectResponse(await auditor.patch(`/groups/${g.id}`, { quota_allowance: 1 }), 403)
      expectResponse(await outsider.patch(`/groups/${g.id}`, { quota_allowance: 1 }), 404)
      expectResponse(await owner.patch(`/groups/${MISSING_UUID}`, { quota_allowance: 1 }), 404)
      const r = await userAdmin.patch(`/groups/${g.id}`, { quota_allowance: 4, add_users: [memberUser.id] })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ quota_allowance: 4, total_member_count: 1 })
    })
  })

  describe("DELETE /groups/{group}", () => {
    it("deletes the group and answers it (200)", async () => {
      const g = await createGroup({ quota_allowance: 5 })
      await owner.patch(`/groups/${g.id}`, { add_users: [memberUser.id] })
      await owner.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 10 })
      const r = await owner.delete(`/groups/${g.id}`)
      expect(r.status).toBe(200)
      expectGroup(r.body, { id: g.id, name: g.name, quota_allowance: 5, total_member_count: 1 })
      expect(ids(r.body.members)).toEqual([memberUser.id])
      expectResponse(await owner.get(`/groups/${g.id}`), 404)
      expectResponse(await owner.get(`/groups/${g.id}/ai/budget`), 404)
      expectResponse(await owner.delete(`/groups/${g.id}`), 404)
      // The name is free again.
      expect((await owner.post(`/organizations/${defaultOrgId}/groups`, { name: g.name })).status).toBe(201)
    })

    it("deletes by name", async () => {
      const g = await createGroup()
      expect((await owner.delete(`/groups/${g.name}`)).status).toBe(200)
      expectResponse(await owner.get(`/groups/${g.id}`), 404)
    })

    it("answers 401, 403, 404 and 400 for the Everyone group", async () => {
      const g = await createGroup()
      expectResponse(await srv.anonymous.delete(`/groups/${g.id}`), 401)
      expectResponse(await member.delete(`/groups/${g.id}`), 403)
      expectResponse(await outsider.delete(`/groups/${g.id}`), 404)
      expectResponse(await owner.delete(`/groups/${MISSING_UUID}`), 404)
      expectResponse(await owner.delete(`/groups/${otherOrg.id}`), 400)
      expect((await owner.get(`/groups/${g.id}`)).status).toBe(200)
    })
  })

  describe("GET /groups/{group}/members", () => {
    let group: any
    let memberIds: Array<string>
    let usernames: Map<string, string>

    beforeAll(async () => {
      group = await createGroup()
      const made = []
      for (let i = 0; i < 7; i++) made.push(await createUser(owner, { username: `pager${i}x${Date.now() % 1000}` }))
      usernames = new Map(made.map((m) => [m.user.id, m.username]))
      memberIds = sorted(made.map((m) => m.user.id))
      const r = await owner.patch(`/groups/${group.id}`, { add_users: memberIds })
      expect(r.body.total_member_count).toBe(7)
    })

    it("lists members in user id order with the real count", async () => {
      const r = await owner.get(`/groups/${group.id}/members`)
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["count", "users"])
      expect(r.body.count).toBe(7)
      for (const u of r.body.users) expectReducedUser(u)
      expect(ids(r.body.users)).toEqual(memberIds)
    })

    it("pages with limit, offset and the after_id cursor", async () => {
      const first = (await owner.get(`/groups/${group.id}/members?limit=3`)).body
      expect(ids(first.users)).toEqual(memberIds.slice(0, 3))
      expect(first.count).toBe(7)
      const second = (await owner.get(`/groups/${group.id}/members?limit=3&after_id=${memberIds[2]}`)).body
      expect(ids(second.users)).toEqual(memberIds.slice(3, 6))
      expect(second.count).toBe(7)
      const third = (await owner.get(`/groups/${group.id}/members?limit=3&after_id=${memberIds[5]}`)).body
      expect(ids(third.users)).toEqual(memberIds.slice(6))
      const offset = (await owner.get(`/groups/${group.id}/members?limit=2&offset=4`)).body
      expect(ids(offset.users)).toEqual(memberIds.slice(4, 6))
      const both = (await owner.get(`/groups/${group.id}/members?limit=2&offset=1&after_id=${memberIds[1]}`)).body
      expect(ids(both.users)).toEqual(memberIds.slice(3, 5))
      // limit=0 takes the default; a huge limit is capped.
      expect(ids((await owner.get(`/groups/${group.id}/members?limit=0`)).body.users)).toEqual(memberIds)
      expect(ids((await owner.get(`/groups/${group.id}/members?limit=5000`)).body.users)).toEqual(memberIds)
      // A cursor outside the group still works: the next ids after it.
      const pivot = memberIds[3]!
      expect(
        (await owner.get(`/groups/${group.id}/members?after_id=${ownerId}`)).body.users.every((u: any) =>
          u.id > ownerId
        )
      ).toBe(true)
      expect((await owner.get(`/groups/${group.id}/members?offset=100`)).body).toEqual({ count: 7, users: [] })
      expect(ids((await owner.get(`/groups/${group.id}/members?after_id=${pivot}`)).body.users)).toEqual(
        memberIds.slice(4)
      )
    })

    it("filters with q; count is the number matching", async () => {
      const target = memberIds[4]!
      const name = usernames.get(target)!
      const byName = (await owner.get(`/groups/${group.id}/members?q=username:${name}`)).body
      expect(byName).toMatchObject({ count: 1 })
      expect(ids(byName.users)).toEqual([target])
      const text = (await owner.get(`/groups/${group.id}/members?q=pager`)).body
      expect(text.count).toBe(7)
      const limited = (await owner.get(`/groups/${group.id}/members?q=pager&limit=2`)).body
      expect(limited.count).toBe(7)
      expect(limited.users).toHaveLength(2)
      expect((await owner.get(`/groups/${group.id}/members?q=status:suspended`)).body).toEqual({ count: 0, users: [] })
      expect((await owner.get(`/groups/${group.id}/members?q=email:${name}@example.com`)).body.count).toBe(1)
    })

    it("pages the Everyone group along the organization's members", async () => {
      const all = (await owner.get(`/groups/${defaultOrgId}/members?limit=1000`)).body
      expect(all.count).toBe((await everyone()).total_member_count)
      expect(ids(all.users)).toEqual(sorted(ids(all.users)))
      const page = (await owner.get(`/groups/${defaultOrgId}/members?limit=2&after_id=${all.users[1].id}`)).body
      expect(ids(page.users)).toEqual(ids(all.users).slice(2, 4))
      expect(page.count).toBe(all.count)
    })

    it("shows a plain member only themselves, and an outsider nothing (404)", async () => {
      const g = await createGroup()
      await owner.patch(`/groups/${g.id}`, { add_users: [memberUser.id, ownerId] })
      const r = await member.get(`/groups/${g.id}/members`)
      expect(r.status).toBe(200)
      expect(r.body.count).toBe(r.body.users.length)
      for (const id of ids(r.body.users)) expect(id).toBe(memberUser.id)
      expectResponse(await outsider.get(`/groups/${g.id}/members`), 404)
      expect((await auditor.get(`/groups/${g.id}/members`)).body.count).toBe(2)
    })

    it("answers 400 for a bad limit, offset, cursor or query, 404 for an unknown group, 401", async () => {
      const path = `/groups/${group.id}/members`
      expectValidations(await owner.get(`${path}?limit=-1`), ["limit"])
      expectValidations(await owner.get(`${path}?limit=abc`), ["limit"])
      expectValidations(await owner.get(`${path}?limit=1.5&offset=-2`), ["limit", "offset"])
      expectValidations(await owner.get(`${path}?after_id=nope`), ["after_id"])
      expectValidations(await owner.get(`${path}?after_id=${MISSING_UUID}`), ["after_id"])
      expectValidations(await owner.get(`${path}?q=colour:blue`), ["q"])
      expectValidations(await owner.get(`${path}?q=status:sleeping`), ["q"])
      expectValidations(await owner.get("/groups/bad%20ref!/members"), ["group"])
      expectResponse(await owner.get(`/groups/${MISSING_UUID}/members`), 404)
      expectResponse(await srv.anonymous.get(path), 401)
    })
  })

  describe("GET /workspace-quota/{user}", () => {
    it("sums the allowances of the user's groups, Everyone groups included; nothing is consumed", async () => {
      const org = (await owner.post("/organizations", { name: uniqueName("qorg") })).body
      const u = await createUser(owner, { organization_ids: [defaultOrgId, org.id] })
      const base = (await owner.get(`/workspace-quota/${u.user.id}`)).body
      expect(base).toEqual({ budget: 0, credits_consumed: 0 })
      const a = await createGroup({ quota_allowance: 10 })
      const b = await createGroup({ quota_allowance: 5 }, org.id)
      await createGroup({ quota_allowance: 100 }) // not a member
      await owner.patch(`/groups/${a.id}`, { add_users: [u.user.id] })
      await owner.patch(`/groups/${b.id}`, { add_users: [u.user.id] })
      await owner.patch(`/groups/${org.id}`, { quota_allowance: 2 })
      for (const ref of [u.user.id, u.username]) {
        expect((await owner.get(`/workspace-quota/${ref}`)).body).toEqual({ budget: 17, credits_consumed: 0 })
      }
      expect((await u.client.get("/workspace-quota/me")).body).toEqual({ budget: 17, credits_consumed: 0 })
      await owner.patch(`/groups/${defaultOrgId}`, { quota_allowance: 1 })
      expect((await owner.get(`/workspace-quota/${u.user.id}`)).body.budget).toBe(18)
      await owner.patch(`/groups/${defaultOrgId}`, { quota_allowance: 0 })
      await owner.patch(`/groups/${a.id}`, { remove_users: [u.user.id] })
      expect((await owner.get(`/workspace-quota/${u.user.id}`)).body.budget).toBe(7)
    })

    it("answers 404 for unknown or deleted users, 401", async () => {
      expectResponse(await owner.get(`/workspace-quota/${MISSING_UUID}`), 404)
      expectResponse(await owner.get("/workspace-quota/nobody-here"), 404)
      const u = await createUser(owner)
      await owner.delete(`/users/${u.user.id}`)
      expectResponse(await owner.get(`/workspace-quota/${u.user.id}`), 404)
      expectResponse(await srv.anonymous.get("/workspace-quota/me"), 401)
    })
  })

  describe("GET /organizations/{organization}/members/{user}/workspace-quota", () => {
    const quota = (client: Client, org: string, user: string) =>
      client.get(`/organizations/${encodeURIComponent(org)}/members/${encodeURIComponent(user)}/workspace-quota`)

    it("sums the allowances of the user's groups in that organization, its Everyone group included", async () => {
      const org = (await owner.post("/organizations", { name: uniqueName("oqorg") })).body
      const u = await createUser(owner, { organization_ids: [defaultOrgId, org.id] })
      expect((await quota(owner, org.id, u.user.id)).body).toEqual({ budget: 0, credits_consumed: 0 })
      const a = await createGroup({ quota_allowance: 10 })
      const b = await createGroup({ quota_allowance: 5 }, org.id)
      const c = await createGroup({ quota_allowance: 40 }, org.id)
      await createGroup({ quota_allowance: 100 }, org.id) // not a member
      await owner.patch(`/groups/${a.id}`, { add_users: [u.user.id] })
      await owner.patch(`/groups/${b.id}`, { add_users: [u.user.id] })
      await owner.patch(`/groups/${c.id}`, { add_users: [u.user.id] })
      await owner.patch(`/groups/${org.id}`, { quota_allowance: 2 })
      await owner.patch(`/groups/${defaultOrgId}`, { quota_allowance: 1 })
      try {
        // The organization by id or name, the user by id, username or me.
        for (
          const [o, ref] of [[org.id, u.user.id], [org.name, u.username], [org.id.toUpperCase(), u.username]] as const
        ) {
          const r = await quota(owner, o, ref)
          expect(r.status, JSON.stringify(r.body)).toBe(200)
          expect(r.body).toEqual({ budget: 47, credits_consumed: 0 })
        }
        expect((await quota(u.client, org.name, "me")).body).toEqual({ budget: 47, credits_consumed: 0 })
        expect((await quota(u.client, "coder", "me")).body).toEqual({ budget: 11, credits_consumed: 0 })
        // The deprecated route adds up every organization.
        expect((await owner.get(`/workspace-quota/${u.user.id}`)).body.budget).toBe(58)
        await owner.patch(`/groups/${c.id}`, { remove_users: [u.user.id] })
        expect((await quota(owner, org.id, u.user.id)).body.budget).toBe(7)
        await owner.delete(`/organizations/${org.id}/members/${u.user.id}`)
        expect((await quota(owner, org.id, u.user.id)).body).toEqual({ budget: 0, credits_consumed: 0 })
      } finally {
        await owner.patch(`/groups/${defaultOrgId}`, { quota_allowance: 0 })
      }
    })

    it("answers 0 for a user outside the organization, as the described system does", async () => {
      expect((await quota(owner, otherOrg.id, memberUser.id)).body).toEqual({ budget: 0, credits_consumed: 0 })
    })

    it("lets a member read another member's quota, as they may read the user", async () => {
      const peer = await createUser(owner)
      const r = await quota(member, defaultOrgId, peer.user.id)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ budget: 0, credits_consumed: 0 })
    })

    it("answers 404 for an organization the caller cannot see, whoever the user", async () => {
      expectResponse(await quota(outsider, defaultOrgId, "me"), 404)
      expectResponse(await quota(outsider, "coder", memberUser.id), 404)
      expectResponse(await quota(member, otherOrg.id, outsiderUser.id), 404)
      expectResponse(await quota(member, otherOrg.name, "me"), 404)
    })

    it("answers 404 for unknown organizations and unknown or deleted users", async () => {
      expectResponse(await quota(owner, MISSING_UUID, "me"), 404)
      expectResponse(await quota(owner, "no-such-org", "me"), 404)
      expectResponse(await quota(owner, defaultOrgId, MISSING_UUID), 404)
      expectResponse(await quota(owner, defaultOrgId, "nobody-here"), 404)
      expectResponse(await quota(owner, defaultOrgId, "bad ref!"), 404)
      const u = await createUser(owner)
      await owner.delete(`/users/${u.user.id}`)
      expectResponse(await quota(owner, defaultOrgId, u.user.id), 404)
    })

    it("answers 403 to a token whose scopes leave out reading the user", async () => {
      const groupReader = await tokenClient(member, { token_name: uniqueName("tok"), scopes: ["group:read"] })
      expectResponse(await quota(groupReader, defaultOrgId, "me"), 403)
      const userReader = await tokenClient(member, { token_name: uniqueName("tok"), scopes: ["user:read"] })
      expect((await quota(userReader, defaultOrgId, "me")).status).toBe(200)
    })

    it("answers 400 with one validation per bad path parameter, and 401 without a token", async () => {
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/members/%00/workspace-quota`), ["user"])
      expectValidations(await owner.get("/organizations/%00/members/me/workspace-quota"), ["organization"])
      expectValidations(await owner.get("/organizations/%00/members/a%00/workspace-quota"), ["organization", "user"])
      expectResponse(await srv.anonymous.get(`/organizations/${defaultOrgId}/members/me/workspace-quota`), 401)
    })
  })

  describe("group AI budget", () => {
    it("moves none → set → updated → removed, as the spec's table says", async () => {
      const g = await createGroup()
      const path = `/groups/${g.id}/ai/budget`
      expectResponse(await owner.get(path), 404)
      const set = await owner.put(path, { spend_limit_micros: 5_000_000 })
      expect(set.status).toBe(200)
      expectBudget(set.body, { group_id: g.id, spend_limit_micros: 5_000_000 })
      expect(set.body.created_at).toBe(set.body.updated_at)
      expect((await owner.get(path)).body).toEqual(set.body)
      const again = await owner.put(path, { spend_limit_micros: 0 })
      expect(again.status).toBe(200)
      expectBudget(again.body, { group_id: g.id, spend_limit_micros: 0, created_at: set.body.created_at })
      expect(Date.parse(again.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(set.body.updated_at))
      const big = await owner.put(path, { spend_limit_micros: 9_000_000_000_000 })
      expect(big.body.spend_limit_micros).toBe(9_000_000_000_000)
      const del = await owner.delete(path)
      expect(del.status).toBe(204)
      expect(del.body).toBeUndefined()
      expectResponse(await owner.get(path), 404)
      expectResponse(await owner.delete(path), 404)
    })

    it("works on the Everyone group and by group name", async () => {
      const set = await owner.put(`/groups/${otherOrg.id}/ai/budget`, { spend_limit_micros: 1 })
      expectBudget(set.body, { group_id: otherOrg.id })
      const g = await createGroup()
      expectBudget((await owner.put(`/groups/${g.name}/ai/budget`, { spend_limit_micros: 2 })).body, { group_id: g.id })
      expect((await owner.delete(`/groups/${otherOrg.id}/ai/budget`)).status).toBe(204)
    })

    it("lets readers of the group read it and only its managers change it", async () => {
      const g = await createGroup()
      const path = `/groups/${g.id}/ai/budget`
      await owner.put(path, { spend_limit_micros: 3 })
      expect((await member.get(path)).body.spend_limit_micros).toBe(3)
      expect((await auditor.get(path)).status).toBe(200)
      expectResponse(await outsider.get(path), 404)
      expectResponse(await member.put(path, { spend_limit_micros: 4 }), 403)
      expectResponse(await member.delete(path), 403)
      expectResponse(await outsider.put(path, { spend_limit_micros: 4 }), 404)
      expectResponse(await outsider.delete(path), 404)
      expect((await userAdmin.put(path, { spend_limit_micros: 6 })).body.spend_limit_micros).toBe(6)
      expectResponse(await srv.anonymous.get(path), 401)
      expectResponse(await srv.anonymous.put(path, { spend_limit_micros: 1 }), 401)
      expectResponse(await srv.anonymous.delete(path), 401)
    })

    it("answers 400 with a validation for a bad limit, 404 for unknown groups", async () => {
      const g = await createGroup()
      const path = `/groups/${g.id}/ai/budget`
      expectValidations(await owner.put(path, { spend_limit_micros: -1 }), ["spend_limit_micros"])
      expectValidations(await owner.put(path, { spend_limit_micros: 1.25 }), ["spend_limit_micros"])
      expectValidations(await owner.put(path, { spend_limit_micros: "10" }), ["spend_limit_micros"])
      expectValidations(await owner.put(path, {}), ["spend_limit_micros"])
      expectValidations(await owner.put(path, { spend_limit_micros: 2 ** 60 }), ["spend_limit_micros"])
      expectValidations(await owner.put("/groups/bad%20ref!/ai/budget", { spend_limit_micros: 1 }), ["group"])
      expectResponse(await owner.get(`/groups/${MISSING_UUID}/ai/budget`), 404)
      expectResponse(await owner.put(`/groups/${MISSING_UUID}/ai/budget`, { spend_limit_micros: 1 }), 404)
      expectResponse(await owner.delete(`/groups/${MISSING_UUID}/ai/budget`), 404)
      expectResponse(await owner.get(path), 404)
    })
  })

  describe("organization roles", () => {
    /** A user of `otherOrg` only, holding `roles` there. */
    const orgUser = async (roles: Array<string>) => {
      const u = await createUser(owner, { organization_ids: [otherOrg.id] })
      const r = await owner.put(`/organizations/${otherOrg.id}/members/${u.user.id}/roles`, { roles })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return u
    }

    it("organization admins and user admins manage the groups of their organization only", async () => {
      for (const role of ["organization-admin", "organization-user-admin"]) {
        const admin = await orgUser([role])
        const created = await admin.client.post(`/organizations/${otherOrg.id}/groups`, { name: uniqueName(role) })
        expect(created.status, JSON.stringify(created.body)).toBe(201)
        const patched = await admin.client.patch(`/groups/${created.body.id}`, {
          add_users: [outsiderUser.id],
          quota_allowance: 2
        })
        expect(patched.status).toBe(200)
        expect(ids(patched.body.members)).toEqual([outsiderUser.id])
        expect((await admin.client.put(`/groups/${created.body.id}/ai/budget`, { spend_limit_micros: 1 })).status).toBe(
          200
        )
        expect((await admin.client.delete(`/groups/${created.body.id}`)).status).toBe(200)
        // Not a member of the default organization: its groups stay hidden.
        const g = await createGroup()
        expectResponse(await admin.client.get(`/groups/${g.id}`), 404)
        expectResponse(await admin.client.patch(`/groups/${g.id}`, { quota_allowance: 1 }), 404)
        expectResponse(
          await admin.client.post(`/organizations/${defaultOrgId}/groups`, { name: uniqueName("grp") }),
          404
        )
      }
    })

    it("organization auditors read every member and change nothing (403)", async () => {
      const g = await createGroup({}, otherOrg.id)
      await owner.patch(`/groups/${g.id}`, { add_users: [outsiderUser.id, ownerId] })
      const orgAuditor = await orgUser(["organization-auditor"])
      const r = await orgAuditor.client.get(`/groups/${g.id}`)
      expect(r.status).toBe(200)
      expect(r.body.members).toHaveLength(2)
      expect((await orgAuditor.client.get(`/groups/${g.id}/members`)).body.count).toBe(2)
      expectResponse(await orgAuditor.client.patch(`/groups/${g.id}`, { quota_allowance: 1 }), 403)
      expectResponse(
        await orgAuditor.client.post(`/organizations/${otherOrg.id}/groups`, { name: uniqueName("grp") }),
        403
      )
    })
  })

  describe("scoped tokens", () => {
    it("a group:update token changes a group it may not read", async () => {
      const g = await createGroup()
      const scoped = await tokenClient(owner, { token_name: uniqueName("tok"), scopes: ["group:update"] })
      expectResponse(await scoped.get(`/groups/${g.id}`), 403)
      const r = await scoped.patch(`/groups/${g.id}`, { quota_allowance: 6 })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.quota_allowance).toBe(6)
      expect((await scoped.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 1 })).status).toBe(200)
      expectResponse(await scoped.get(`/groups/${g.id}/ai/budget`), 403)
    })

    it("a group:read token reads groups but may not change them (403)", async () => {
      const g = await createGroup()
      const scoped = await tokenClient(owner, { token_name: uniqueName("tok"), scopes: ["group:read"] })
      expect((await scoped.get(`/groups/${g.id}`)).status).toBe(200)
      expectResponse(await scoped.patch(`/groups/${g.id}`, { quota_allowance: 1 }), 403)
      expectResponse(await scoped.delete(`/groups/${g.id}`), 403)
      expectResponse(await scoped.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 1 }), 403)
      expectResponse(await scoped.post(`/organizations/${defaultOrgId}/groups`, { name: uniqueName("grp") }), 403)
    })
  })

  it("never answers 5xx to junk input", async () => {
    const g = await createGroup()
    const junkRefs = [g.id, "Everyone", "%00", "..", "x".repeat(400), MISSING_UUID]
    const routes: Array<readonly [string, string]> = [
      ["POST", `/organizations/${defaultOrgId}/groups`],
      ["GET", "/groups?organization=%00&has_member=%ff&group_ids=,,,"],
      ["GET", "/groups?group_ids=&organization=&has_member="],
      ["GET", `/workspace-quota/%00`],
      ["GET", `/organizations/%00/members/%00/workspace-quota`],
      ["GET", `/organizations/${defaultOrgId}/members/${"x".repeat(400)}/workspace-quota`],
      ["GET", `/organizations/${"x".repeat(400)}/members/me/workspace-quota`],
      ["GET", `/groups/${g.id}/members?q=%22unterminated&after_id=&limit=&offset=`],
      ["GET", `/groups/${g.id}/members?q=${encodeURIComponent("username:\"a b\" email: :: \"")}`],
      ["GET", `/organizations/${defaultOrgId}/paginated-groups?q=%22unterminated%00&after_id=%ff&limit=1e9&offset=`],
      ["GET", `/organizations/%00/paginated-groups`],
      ["GET", `/organizations/${defaultOrgId}/groups/%00/members`],
      ["GET", `/organizations/${defaultOrgId}/groups/${"x".repeat(400)}/members?q=::`]
    ]
    for (const ref of junkRefs) {
      const path = `/groups/${encodeURIComponent(ref)}`
      routes.push(["GET", path], ["PATCH", path], ["GET", `${path}/members`], ["GET", `${path}/ai/budget`], [
        "PUT",
        `${path}/ai/budget`
      ])
    }
    for (const client of [owner, member, outsider]) await expectNoServerErrors(client, routes)
    const r: Reply = await owner.patch(`/groups/${g.id}`, { add_users: [null, {}, ""], remove_users: "x" })
    expect(r.status).toBe(400)
    // NUL characters are refused before any lookup (no text column can hold one), one validation per value.
    expectValidations(await owner.patch(`/groups/${g.id}`, { add_users: ["\u0000", "a\u0000b"] }), [
      "add_users.0",
      "add_users.1"
    ])
    expectValidations(await owner.patch(`/groups/${g.id}`, { remove_users: ["\u0000"] }), ["remove_users.0"])
    expectValidations(await owner.get("/groups?organization=%00&has_member=a%00"), ["organization", "has_member"])
    expectValidations(await owner.get("/workspace-quota/%00"), ["user"])
  })
})

describe("groups: audit entries", () => {
  let dir: string
  let srv: TestServer

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "workbay-groups-"))
    srv = await startTestServer({ storage: Sqlite.layer({ filename: join(dir, "workbay.db") }) })
  })
  afterAll(async () => {
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const entries = () => {
    const db = new Database(join(dir, "workbay.db"), { readonly: true })
    try {
      return db.prepare("SELECT * FROM audit_logs ORDER BY time, rowid").all() as Array<Record<string, any>>
    } finally {
      db.close()
    }
  }

  it("records creation, changes with the members touched, budgets and deletion", async () => {
    const boot = await bootstrapOwner(srv)
    const owner = boot.client
    const u = await createUser(owner, { username: "audited" })
    const g = (await owner.post(`/organizations/${boot.organizationId}/groups`, { name: "audited-group" })).body
    await owner.patch(`/groups/${g.id}`, { add_users: [u.user.id], quota_allowance: 3 })
    await owner.patch(`/groups/${g.id}`, { remove_users: [u.user.id] })
    await owner.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 9 })
    await owner.delete(`/groups/${g.id}/ai/budget`)
    await owner.delete(`/groups/${g.id}`)
    const mine = entries().filter((e) => e.resource_id === g.id)
    expect(mine.map((e) => [e.resource_type, e.action, e.status_code])).toEqual([
      ["group", "create", 201],
      ["group", "write", 200],
      ["group", "write", 200],
      ["group_ai_budget", "write", 200],
      ["group_ai_budget", "delete", 204],
      ["group", "delete", 200]
    ])
    for (const e of mine) {
      expect(e.organization_id).toBe(boot.organizationId)
      expect(e.resource_target).toBe("audited-group")
    }
    const diffs = mine.map((e) => JSON.parse(e.diff))
    expect(diffs[0].name).toEqual({ old: null, new: "audited-group", secret: false })
    expect(diffs[1].members).toEqual({ old: [], new: [u.user.id], secret: false })
    expect(diffs[1].quota_allowance).toEqual({ old: 0, new: 3, secret: false })
    expect(diffs[2].members).toEqual({ old: [u.user.id], new: [], secret: false })
    expect(diffs[3].spend_limit_micros).toEqual({ old: null, new: 9, secret: false })
    expect(diffs[4].spend_limit_micros).toEqual({ old: 9, new: null, secret: false })
    expect(diffs[5].name).toEqual({ old: "audited-group", new: null, secret: false })
  })
})
