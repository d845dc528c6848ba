/**
 * Black-box tests of the organizations group: organizations and their members,
 * over real HTTP and a fresh in-memory SQLite database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectFields } from "../shapes.js"
import {
  type Client,
  createUser,
  expectIsoDate,
  expectResponse,
  expectValidations,
  type Reply,
  startWithOwner,
  type TestServer,
  uniqueName,
  UUID_PATTERN as UUID
} from "../support.js"

/** Checks every field of the spec's Organization resource. */
const expectOrganization = (body: any, expected: Record<string, unknown> = {}) => {
  expect(Object.keys(body).sort()).toEqual(
    ["created_at", "description", "display_name", "icon", "id", "is_default", "name", "updated_at"]
  )
  expect(body.id).toMatch(UUID)
  expectIsoDate(body.created_at)
  expectIsoDate(body.updated_at)
  expect(typeof body.description).toBe("string")
  expect(typeof body.display_name).toBe("string")
  expect(typeof body.icon).toBe("string")
  expect(typeof body.is_default).toBe("boolean")
  expect(typeof body.name).toBe("string")
  expect(body).toMatchObject(expected)
}

/** Checks every field of an organization member (with user data); name and avatar are absent when empty. */
const expectMember = (body: any, expected: Record<string, unknown> = {}) => {
  expectFields(body, [
    "created_at",
    "email",
    "global_roles",
    "organization_id",
    "roles",
    "updated_at",
    "user_id",
    "username"
  ], ["avatar_url", "name"])
  expect(body.organization_id).toMatch(UUID)
  expect(body.user_id).toMatch(UUID)
  expect(typeof body.username).toBe("string")
  expect(typeof body.email).toBe("string")
  expect(Array.isArray(body.global_roles)).toBe(true)
  expect(Array.isArray(body.roles)).toBe(true)
  // Site roles carry no organization; organization roles carry theirs.
  for (const role of body.global_roles) expect(Object.keys(role).sort()).toEqual(["display_name", "name"])
  for (const role of body.roles) {
    expect(Object.keys(role).sort()).toEqual(["display_name", "name", "organization_id"])
    expect(role.organization_id).toBe(body.organization_id)
  }
  expectIsoDate(body.created_at)
  expectIsoDate(body.updated_at)
  expect(body).toMatchObject(expected)
}

const expectNotFound = (r: Reply) => {
  expectResponse(r, 404)
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000"
const MISSING_UUID = "5e0fbe3c-1b7b-4c33-9d7a-1a2b3c4d5e6f"

describe("organizations", () => {
  let srv: TestServer
  let owner: Client
  let ownerId: string
  let defaultOrgId: string
  let member: Client
  let memberUser: any
  let auditor: Client

  /** Creates an organization as the owner and returns its body. */
  const createOrg = async (init: Record<string, unknown> = {}) => {
    const r = await owner.post("/organizations", { name: uniqueName("org"), ...init })
    expect(r.status).toBe(201)
    return r.body
  }

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId: defaultOrgId } = await startWithOwner())
    ;({ client: member, user: memberUser } = await createUser(owner, { username: "orgmember" }))
    auditor = (await createUser(owner, { username: "orgauditor", roles: ["auditor"] })).client
  })
  afterAll(() => srv.close())

  describe("GET /organizations", () => {
    it("lists every organization for an owner, the default one first-class", async () => {
      const created = await createOrg()
      const r = await owner.get("/organizations")
      expect(r.status).toBe(200)
      expect(Array.isArray(r.body)).toBe(true)
      for (const org of r.body) expectOrganization(org)
      const def = r.body.find((o: any) => o.id === defaultOrgId)
      expectOrganization(def, { is_default: true, name: "coder", display_name: "Coder" })
      expect(r.body.filter((o: any) => o.is_default)).toHaveLength(1)
      expect(r.body.map((o: any) => o.id)).toContain(created.id)
    })

    it("lists only the caller's organizations for a member", async () => {
      const hidden = await createOrg()
      const r = await member.get("/organizations")
      expect(r.status).toBe(200)
      expect(r.body.map((o: any) => o.id)).toEqual([defaultOrgId])
      expect(r.body.map((o: any) => o.id)).not.toContain(hidden.id)
    })

    it("lists every organization for an auditor", async () => {
      const created = await createOrg()
      const r = await auditor.get("/organizations")
      expect(r.status).toBe(200)
      expect(r.body.map((o: any) => o.id)).toContain(created.id)
    })

    it("answers 401 without a token or with a bad one", async () => {
      expectResponse(await srv.anonymous.get("/organizations"), 401)
      expectResponse(await owner.as("not-a-token").get("/organizations"), 401)
      expectResponse(await owner.as("abcdefghij-abcdefghijabcdefghijabcd").get("/organizations"), 401)
    })
  })

  describe("POST /organizations", () => {
    it("creates an organization with defaults (201)", async () => {
      const name = uniqueName("new")
      const r = await owner.post("/organizations", { name })
      expect(r.status).toBe(201)
      expectOrganization(r.body, { name, display_name: name, description: "", icon: "", is_default: false })
      expect(r.body.created_at).toBe(r.body.updated_at)
      const got = await owner.get(`/organizations/${r.body.id}`)
      expect(got.status).toBe(200)
      expect(got.body).toEqual(r.body)
    })

    it("creates an organization with every field", async () => {
      const name = uniqueName("full")
      const input = { name, display_name: "Full Org", description: "An organization.", icon: "/emojis/1f3e2.png" }
      const r = await owner.post("/organizations", input)
      expect(r.status).toBe(201)
      expectOrganization(r.body, { ...input, is_default: false })
    })

    it("makes the creator a member", async () => {
      const org = await createOrg()
      const r = await owner.get(`/organizations/${org.id}/members`)
      expect(r.status).toBe(200)
      expect(r.body.map((m: any) => m.user_id)).toEqual([ownerId])
    })

    it("answers 401 without a token", async () => {
      expectResponse(await srv.anonymous.post("/organizations", { name: uniqueName("org") }), 401)
    })

    it("answers 403 for a plain member", async () => {
      const name = uniqueName("org")
      expectResponse(await member.post("/organizations", { name }), 403)
      expectNotFound(await owner.get(`/organizations/${name}`))
    })

    it("answers 400 with one validation per bad field", async () => {
      expectValidations(await owner.post("/organizations", {}), ["name"])
      expectValidations(await owner.post("/organizations"), ["name"])
      expectValidations(await owner.post("/organizations", { name: "" }), ["name"])
      expectValidations(await owner.post("/organizations", { name: "has space" }), ["name"])
      expectValidations(await owner.post("/organizations", { name: "-leading" }), ["name"])
      expectValidations(await owner.post("/organizations", { name: "double--hyphen" }), ["name"])
      expectValidations(await owner.post("/organizations", { name: "a".repeat(33) }), ["name"])
      expectValidations(await owner.post("/organizations", { name: 42 }), ["name"])
      expectValidations(await owner.post("/organizations", { name: null }), ["name"])
      expectValidations(await owner.post("/organizations", { name: uniqueName("org"), display_name: "d".repeat(65) }), [
        "display_name"
      ])
      expectValidations(await owner.post("/organizations", { name: uniqueName("org"), description: "d".repeat(129) }), [
        "description"
      ])
      expectValidations(await owner.post("/organizations", { name: uniqueName("org"), icon: "i".repeat(257) }), [
        "icon"
      ])
      expectValidations(
        await owner.post("/organizations", { name: "bad name", display_name: 7, description: false, icon: [] }),
        ["name", "display_name", "description", "icon"]
      )
    })

    it("answers 400 for a body that is not a JSON object", async () => {
      expectResponse(await owner.request("POST", "/organizations", undefined, { raw: "{not json" }), 400)
      expectResponse(await owner.request("POST", "/organizations", undefined, { raw: "[]" }), 400)
      expectResponse(await owner.request("POST", "/organizations", undefined, { raw: "\"text\"" }), 400)
      expectResponse(await owner.request("POST", "/organizations", undefined, { raw: "null" }), 400)
    })

    it("reserves the name \"default\"", async () => {
      expectValidations(await owner.post("/organizations", { name: "default" }), ["name"])
      expectValidations(await owner.post("/organizations", { name: "Default" }), ["name"])
    })

    it("answers 409 for a duplicate name, whatever its case", async () => {
      const org = await createOrg()
      const again = await owner.post("/organizations", { name: org.name })
      expectResponse(again, 409)
      expect(again.body.validations).toEqual([{ field: "name", detail: expect.any(String) }])
      expectResponse(await owner.post("/organizations", { name: org.name.toUpperCase() }), 409)
      expectResponse(await owner.post("/organizations", { name: "coder" }), 409)
    })
  })

  describe("GET /organizations/{organization}", () => {
    it("finds an organization by id, upper-case id, name and name in another case", async () => {
      const org = await createOrg({ display_name: "Lookup" })
      for (const ref of [org.id, org.id.toUpperCase(), org.name, org.name.toUpperCase()]) {
        const r = await owner.get(`/organizations/${encodeURIComponent(ref)}`)
        expect(r.status).toBe(200)
        expectOrganization(r.body, { id: org.id, name: org.name, display_name: "Lookup", is_default: false })
        expect(r.body).toEqual(org)
      }
    })

    it("resolves \"default\" and the nil UUID to the default organization", async () => {
      for (const ref of ["default", NIL_UUID]) {
        const r = await member.get(`/organizations/${ref}`)
        expect(r.status).toBe(200)
        expectOrganization(r.body, { id: defaultOrgId, is_default: true })
      }
    })

    it("lets a member read their organization", async () => {
      const r = await member.get(`/organizations/${defaultOrgId}`)
      expect(r.status).toBe(200)
      expectOrganization(r.body, { id: defaultOrgId, is_default: true, name: "coder" })
    })

    it("answers 404 to a member for an organization they are not in, like a missing one", async () => {
      const org = await createOrg()
      const hidden = await member.get(`/organizations/${org.id}`)
      expectNotFound(hidden)
      expectNotFound(await member.get(`/organizations/${org.name}`))
      const missing = await owner.get(`/organizations/${MISSING_UUID}`)
      expectNotFound(missing)
      expect(Object.keys(hidden.body).sort()).toEqual(Object.keys(missing.body).sort())
    })

    it("answers 404 for unknown ids and names, however odd", async () => {
      for (const ref of [MISSING_UUID, "no-such-org", "%F0%9F%98%80", "x".repeat(400), "a%20b", "..%2F..%2Fetc"]) {
        expectNotFound(await owner.get(`/organizations/${ref}`))
      }
      // A NUL character is bad input wherever it appears (no text column can hold one).
      expectResponse(await owner.get("/organizations/%00"), 400)
    })

    it("answers 401 without a token", async () => {
      expectResponse(await srv.anonymous.get(`/organizations/${defaultOrgId}`), 401)
    })
  })

  describe("PATCH /organizations/{organization}", () => {
    it("updates every field and keeps created_at", async () => {
      const org = await createOrg()
      const name = uniqueName("renamed")
      const input = { name, display_name: "Renamed", description: "New description.", icon: "/icon/new.svg" }
      const r = await owner.patch(`/organizations/${org.id}`, input)
      expect(r.status).toBe(200)
      expectOrganization(r.body, { ...input, id: org.id, is_default: false, created_at: org.created_at })
      expect(Date.parse(r.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(org.updated_at))
      expect((await owner.get(`/organizations/${org.id}`)).body).toEqual(r.body)
      expectNotFound(await owner.get(`/organizations/${org.name}`))
      expect((await owner.get(`/organizations/${name}`)).body.id).toBe(org.id)
    })

    it("finds the organization by name and changes only what is sent", async () => {
      const org = await createOrg({ display_name: "Keep", description: "Keep me.", icon: "/keep.svg" })
      const r = await owner.patch(`/organizations/${org.name}`, { description: "Changed." })
      expect(r.status).toBe(200)
      expectOrganization(r.body, { name: org.name, display_name: "Keep", description: "Changed.", icon: "/keep.svg" })
    })

    it("keeps name and display name when they are empty, and clears description and icon", async () => {
      const org = await createOrg({ display_name: "Shown", description: "Text.", icon: "/i.svg" })
      const r = await owner.patch(`/organizations/${org.id}`, { name: "", display_name: "", description: "", icon: "" })
      expect(r.status).toBe(200)
      expectOrganization(r.body, { name: org.name, display_name: "Shown", description: "", icon: "" })
    })

    it("accepts an empty body", async () => {
      const org = await createOrg()
      const r = await owner.patch(`/organizations/${org.id}`, {})
      expect(r.status).toBe(200)
      expectOrganization(r.body, { id: org.id, name: org.name, display_name: org.display_name })
    })

    it("lets the default organization change its display name but not its name", async () => {
      const r = await owner.patch(`/organizations/${defaultOrgId}`, { display_name: "Coder HQ" })
      expect(r.status).toBe(200)
      expectOrganization(r.body, { id: defaultOrgId, name: "coder", display_name: "Coder HQ", is_default: true })
      expectValidations(await owner.patch(`/organizations/${defaultOrgId}`, { name: "renamed-default" }), ["name"])
      expect((await owner.patch(`/organizations/default`, { name: "coder" })).status).toBe(200)
      expect((await owner.patch(`/organizations/default`, { display_name: "Coder" })).status).toBe(200)
    })

    it("answers 400 with one validation per bad field", async () => {
      const org = await createOrg()
      expectValidations(await owner.patch(`/organizations/${org.id}`, { name: "bad name" }), ["name"])
      expectValidations(await owner.patch(`/organizations/${org.id}`, { name: "x".repeat(33) }), ["name"])
      expectValidations(await owner.patch(`/organizations/${org.id}`, { display_name: "d".repeat(65) }), [
        "display_name"
      ])
      expectValidations(await owner.patch(`/organizations/${org.id}`, { description: "d".repeat(129) }), [
        "description"
      ])
      expectValidations(await owner.patch(`/organizations/${org.id}`, { icon: 3 }), ["icon"])
      expectValidations(
        await owner.patch(`/organizations/${org.id}`, { name: "-x-", display_name: {}, description: 1, icon: true }),
        ["name", "display_name", "description", "icon"]
      )
      expectValidations(await owner.patch(`/organizations/${org.id}`, { name: "default" }), ["name"])
      expectResponse(await owner.request("PATCH", `/organizations/${org.id}`, undefined, { raw: "{" }), 400)
      expect((await owner.get(`/organizations/${org.id}`)).body).toEqual(org)
    })

    it("answers 409 when the new name is taken", async () => {
      const a = await createOrg()
      const b = await createOrg()
      const r = await owner.patch(`/organizations/${b.id}`, { name: a.name.toUpperCase() })
      expectResponse(r, 409)
      expect(r.body.validations).toEqual([{ field: "name", detail: expect.any(String) }])
      expectResponse(await owner.patch(`/organizations/${b.id}`, { name: "coder" }), 409)
    })

    it("answers 401, 403 for a member of the organization, 404 for others", async () => {
      const org = await createOrg()
      expectResponse(await srv.anonymous.patch(`/organizations/${org.id}`, { display_name: "x" }), 401)
      expectResponse(await member.patch(`/organizations/${defaultOrgId}`, { display_name: "Mine" }), 403)
      expectNotFound(await member.patch(`/organizations/${org.id}`, { display_name: "Mine" }))
      expectNotFound(await owner.patch(`/organizations/${MISSING_UUID}`, { display_name: "x" }))
      expectNotFound(await owner.patch(`/organizations/no-such-org`, { display_name: "x" }))
      expect((await owner.get(`/organizations/${defaultOrgId}`)).body.display_name).not.toBe("Mine")
    })
  })

  describe("DELETE /organizations/{organization}", () => {
    it("deletes an organization by id or name", async () => {
      for (const byName of [false, true]) {
        const org = await createOrg()
        const r = await owner.delete(`/organizations/${byName ? org.name : org.id}`)
        expectResponse(r, 200)
        expectNotFound(await owner.get(`/organizations/${org.id}`))
        expect((await owner.get("/organizations")).body.map((o: any) => o.id)).not.toContain(org.id)
        expectNotFound(await owner.delete(`/organizations/${org.id}`))
      }
    })

    it("frees the name for a new organization", async () => {
      const org = await createOrg()
      expect((await owner.delete(`/organizations/${org.id}`)).status).toBe(200)
      const again = await owner.post("/organizations", { name: org.name })
      expect(again.status).toBe(201)
      expect(again.body.id).not.toBe(org.id)
    })

    it("refuses to delete the default organization (400)", async () => {
      expectResponse(await owner.delete(`/organizations/${defaultOrgId}`), 400)
      expectResponse(await owner.delete("/organizations/default"), 400)
      expect((await owner.get(`/organizations/${defaultOrgId}`)).status).toBe(200)
    })

    it("answers 401, 403 for a member of the organization, 404 for others", async () => {
      const org = await createOrg()
      expectResponse(await srv.anonymous.delete(`/organizations/${org.id}`), 401)
      expectResponse(await member.delete(`/organizations/${defaultOrgId}`), 403)
      expectNotFound(await member.delete(`/organizations/${org.id}`))
      expectNotFound(await owner.delete(`/organizations/${MISSING_UUID}`))
      expect((await owner.get(`/organizations/${org.id}`)).status).toBe(200)
    })
  })

  describe("GET /organizations/{organization}/members", () => {
    it("lists members with their user data", async () => {
      const r = await owner.get(`/organizations/${defaultOrgId}/members`)
      expect(r.status).toBe(200)
      for (const m of r.body) expectMember(m, { organization_id: defaultOrgId })
      const me = r.body.find((m: any) => m.user_id === ownerId)
      expectMember(me, { username: "admin", email: "admin@example.com", roles: [] })
      expect(me.global_roles).toEqual([{ name: "owner", display_name: "Owner" }])
      const them = r.body.find((m: any) => m.user_id === memberUser.id)
      expectMember(them, { username: "orgmember", email: "orgmember@example.com", global_roles: [] })
      const usernames = r.body.map((m: any) => m.username)
      expect(usernames).toEqual([...usernames].sort())
    })

    it("lets a member list the members of their organization", async () => {
      const r = await member.get(`/organizations/default/members`)
      expect(r.status).toBe(200)
      expect(r.body.map((m: any) => m.user_id)).toEqual(expect.arrayContaining([ownerId, memberUser.id]))
    })

    it("pages with limit and offset", async () => {
      const all = (await owner.get(`/organizations/${defaultOrgId}/members`)).body
      expect(all.length).toBeGreaterThanOrEqual(3)
      const first = await owner.get(`/organizations/${defaultOrgId}/members?limit=1`)
      expect(first.status).toBe(200)
      expect(first.body).toEqual(all.slice(0, 1))
      const second = await owner.get(`/organizations/${defaultOrgId}/members?limit=1&offset=1`)
      expect(second.body).toEqual(all.slice(1, 2))
      expect((await owner.get(`/organizations/${defaultOrgId}/members?offset=1000`)).body).toEqual([])
      expect((await owner.get(`/organizations/${defaultOrgId}/members?offset=9007199254740991`)).body).toEqual([])
      expect((await owner.get(`/organizations/${defaultOrgId}/members?limit=0`)).body).toEqual(all)
    })

    it("answers 400 for bad paging, one validation per parameter", async () => {
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/members?limit=-1`), ["limit"])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/members?limit=abc`), ["limit"])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/members?offset=1.5`), ["offset"])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/members?limit=1e400&offset=-3`), [
        "limit",
        "offset"
      ])
    })

    it("answers 401, and 404 for missing or foreign organizations", async () => {
      const org = await createOrg()
      expectResponse(await srv.anonymous.get(`/organizations/${defaultOrgId}/members`), 401)
      expectNotFound(await member.get(`/organizations/${org.id}/members`))
      expectNotFound(await owner.get(`/organizations/${MISSING_UUID}/members`))
      expectNotFound(await owner.get(`/organizations/nope/members`))
    })
  })

  describe("GET /organizations/{organization}/paginated-members", () => {
    it("answers a page of members and their count", async () => {
      const r = await owner.get(`/organizations/${defaultOrgId}/paginated-members`)
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["count", "members"])
      for (const m of r.body.members) expectMember(m, { organization_id: defaultOrgId })
      expect(r.body.count).toBe(r.body.members.length)
      const ids = r.body.members.map((m: any) => m.user_id)
      expect(ids).toEqual([...ids].sort())
      const listed = (await owner.get(`/organizations/${defaultOrgId}/members`)).body
      expect([...r.body.members].sort((a: any, b: any) => a.username.localeCompare(b.username)))
        .toEqual([...listed].sort((a: any, b: any) => a.username.localeCompare(b.username)))
      const me = r.body.members.find((m: any) => m.user_id === ownerId)
      expect(me.global_roles).toEqual([{ name: "owner", display_name: "Owner" }])
    })

    it("pages with limit, offset and after_id; the count stays the whole", async () => {
      const org = await createOrg()
      const made = []
      for (let i = 0; i < 4; i++) {
        const u = await createUser(owner, { username: uniqueName("pm") })
        expect((await owner.post(`/organizations/${org.id}/members/${u.user.id}`)).status).toBe(200)
        made.push(u.user.id)
      }
      const whole = (await owner.get(`/organizations/${org.id}/paginated-members`)).body
      expect(whole.count).toBe(5)
      const ids = whole.members.map((m: any) => m.user_id)
      expect([...ids].sort()).toEqual([...made, ownerId].sort())
      const second = await owner.get(`/organizations/${org.id}/paginated-members?limit=2&offset=2`)
      expect(second.status).toBe(200)
      expect(second.body).toEqual({ members: whole.members.slice(2, 4), count: 5 })
      const after = await owner.get(`/organizations/${org.id}/paginated-members?after_id=${ids[2]}&limit=1`)
      expect(after.body.members.map((m: any) => m.user_id)).toEqual([ids[3]])
      expect((await owner.get(`/organizations/${org.id}/paginated-members?offset=1000`)).body).toEqual({
        members: [],
        count: 5
      })
      expect((await owner.get(`/organizations/${org.id}/paginated-members?limit=0&offset=`)).body).toEqual(whole)
      expect((await owner.delete(`/organizations/${org.id}/members/${made[0]}`)).status).toBe(204)
      expect((await owner.get(`/organizations/${org.id}/paginated-members?limit=1`)).body.count).toBe(4)
    })

    it("filters with q, as the users search does, and counts the matches", async () => {
      const org = await createOrg()
      const zed = await createUser(owner, { username: uniqueName("zed") })
      await owner.post(`/organizations/${org.id}/members/${zed.user.id}`)
      const byName = await owner.get(
        `/organizations/${org.id}/paginated-members?q=${encodeURIComponent(zed.username.toUpperCase())}`
      )
      expect(byName.status).toBe(200)
      expect(byName.body.count).toBe(1)
      expect(byName.body.members.map((m: any) => m.user_id)).toEqual([zed.user.id])
      const byTerm = await owner.get(
        `/organizations/${org.id}/paginated-members?q=${encodeURIComponent(`username:${zed.username} status:active`)}`
      )
      expect(byTerm.body.count).toBe(1)
      expect((await owner.get(`/organizations/${org.id}/paginated-members?q=status:suspended`)).body).toEqual({
        members: [],
        count: 0
      })
    })

    it("lets a member page the members of their organization", async () => {
      const r = await member.get("/organizations/default/paginated-members?limit=1")
      expect(r.status).toBe(200)
      expect(r.body.members.length).toBe(1)
      expect(r.body.count).toBeGreaterThanOrEqual(2)
    })

    it("answers 400 with one validation per bad parameter", async () => {
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/paginated-members?limit=-1`), ["limit"])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/paginated-members?limit=abc&offset=1.5`), [
        "limit",
        "offset"
      ])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/paginated-members?after_id=nope`), ["after_id"])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/paginated-members?after_id=${MISSING_UUID}`), [
        "after_id"
      ])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/paginated-members?q=role:owner`), ["q"])
      expectValidations(await owner.get(`/organizations/${defaultOrgId}/paginated-members?q=status:gone`), ["q"])
    })

    it("answers 401, and 404 for missing or foreign organizations", async () => {
      const org = await createOrg()
      expectResponse(await srv.anonymous.get(`/organizations/${defaultOrgId}/paginated-members`), 401)
      expectNotFound(await member.get(`/organizations/${org.id}/paginated-members`))
      expectNotFound(await owner.get(`/organizations/${MISSING_UUID}/paginated-members`))
      expectNotFound(await owner.get("/organizations/nope/paginated-members"))
    })
  })

  describe("GET /organizations/{organization}/members/{user}", () => {
    it("finds a member by id, username and me", async () => {
      for (const ref of [ownerId, "admin", "me"]) {
        const r = await owner.get(`/organizations/${defaultOrgId}/members/${ref}`)
        expect(r.status).toBe(200)
        expectMember(r.body, { organization_id: defaultOrgId, user_id: ownerId, username: "admin", roles: [] })
      }
    })

    it("lets a member read members of their organization", async () => {
      const self = await member.get(`/organizations/${defaultOrgId}/members/me`)
      expect(self.status).toBe(200)
      expectMember(self.body, { user_id: memberUser.id, username: "orgmember" })
      const other = await member.get(`/organizations/${defaultOrgId}/members/admin`)
      expect(other.status).toBe(200)
      expectMember(other.body, { user_id: ownerId })
    })

    it("answers 404 for a user who is not a member, a missing user or a foreign organization", async () => {
      const org = await createOrg()
      expectNotFound(await owner.get(`/organizations/${org.id}/members/${memberUser.id}`))
      expectNotFound(await owner.get(`/organizations/${defaultOrgId}/members/${MISSING_UUID}`))
      expectNotFound(await owner.get(`/organizations/${defaultOrgId}/members/nobody-here`))
      expectNotFound(await member.get(`/organizations/${org.id}/members/admin`))
      expectNotFound(await owner.get(`/organizations/${MISSING_UUID}/members/me`))
    })

    it("answers 401 without a token", async () => {
      expectResponse(await srv.anonymous.get(`/organizations/${defaultOrgId}/members/me`), 401)
    })
  })

  describe("POST /organizations/{organization}/members/{user}", () => {
    it("adds a user by id or username (200) and lists them", async () => {
      const org = await createOrg()
      const added = await owner.post(`/organizations/${org.id}/members/${memberUser.id}`)
      expect(added.status).toBe(200)
      expectMember(added.body, {
        organization_id: org.id,
        user_id: memberUser.id,
        username: "orgmember",
        email: "orgmember@example.com",
        roles: [],
        global_roles: []
      })
      const listed = await owner.get(`/organizations/${org.id}/members`)
      expect(listed.body.map((m: any) => m.user_id).sort()).toEqual([ownerId, memberUser.id].sort())
      const other = await createUser(owner)
      const byName = await owner.post(`/organizations/${org.name}/members/${other.username}`)
      expect(byName.status).toBe(200)
      expectMember(byName.body, { organization_id: org.id, user_id: other.user.id })
      // The new member now sees the organization and its members.
      expect((await member.get(`/organizations/${org.id}`)).status).toBe(200)
      expect((await member.get("/organizations")).body.map((o: any) => o.id)).toContain(org.id)
      expect((await member.get(`/organizations/${org.id}/members/${other.username}`)).status).toBe(200)
      const user = await owner.get(`/users/${memberUser.id}`)
      expect(user.body.organization_ids).toContain(org.id)
    })

    it("answers 409 when the user is already a member", async () => {
      const org = await createOrg()
      expect((await owner.post(`/organizations/${org.id}/members/${memberUser.id}`)).status).toBe(200)
      expectResponse(await owner.post(`/organizations/${org.id}/members/${memberUser.id}`), 409)
      expectResponse(await owner.post(`/organizations/${org.id}/members/me`), 409)
      expectResponse(await owner.post(`/organizations/${defaultOrgId}/members/${memberUser.id}`), 409)
    })

    it("answers 404 for a missing user or organization, and for a deleted user", async () => {
      const org = await createOrg()
      expectNotFound(await owner.post(`/organizations/${org.id}/members/${MISSING_UUID}`))
      expectNotFound(await owner.post(`/organizations/${org.id}/members/nobody-here`))
      expectNotFound(await owner.post(`/organizations/${MISSING_UUID}/members/me`))
      const gone = await createUser(owner)
      expect((await owner.delete(`/users/${gone.user.id}`)).status).toBe(200)
      expectNotFound(await owner.post(`/organizations/${org.id}/members/${gone.user.id}`))
    })

    it("answers 401, 403 for a plain member, 404 for a foreign organization", async () => {
      const org = await createOrg()
      const stranger = await createUser(owner)
      expectResponse(await srv.anonymous.post(`/organizations/${org.id}/members/${stranger.user.id}`), 401)
      expectNotFound(await member.post(`/organizations/${org.id}/members/${stranger.user.id}`))
      expect((await owner.post(`/organizations/${org.id}/members/${memberUser.id}`)).status).toBe(200)
      expectResponse(await member.post(`/organizations/${org.id}/members/${stranger.user.id}`), 403)
      expectNotFound(await owner.get(`/organizations/${org.id}/members/${stranger.user.id}`))
    })
  })

  describe("DELETE /organizations/{organization}/members/{user}", () => {
    it("removes a member (204) who then loses access", async () => {
      const org = await createOrg()
      expect((await owner.post(`/organizations/${org.id}/members/${memberUser.id}`)).status).toBe(200)
      expect((await member.get(`/organizations/${org.id}`)).status).toBe(200)
      const r = await owner.delete(`/organizations/${org.id}/members/${memberUser.id}`)
      expect(r.status).toBe(204)
      expect(r.body).toBeUndefined()
      expectNotFound(await owner.get(`/organizations/${org.id}/members/${memberUser.id}`))
      expect((await owner.get(`/organizations/${org.id}/members`)).body.map((m: any) => m.user_id)).toEqual([ownerId])
      expectNotFound(await member.get(`/organizations/${org.id}`))
      expectNotFound(await owner.delete(`/organizations/${org.id}/members/${memberUser.id}`))
    })

    it("removes by username", async () => {
      const org = await createOrg()
      const u = await createUser(owner)
      expect((await owner.post(`/organizations/${org.id}/members/${u.username}`)).status).toBe(200)
      expect((await owner.delete(`/organizations/${org.name}/members/${u.username}`)).status).toBe(204)
    })

    it("answers 400 for removing oneself or anyone from the default organization", async () => {
      const org = await createOrg()
      expectResponse(await owner.delete(`/organizations/${org.id}/members/me`), 400)
      expectResponse(await owner.delete(`/organizations/${defaultOrgId}/members/${memberUser.id}`), 400)
      expect((await owner.get(`/organizations/${defaultOrgId}/members/${memberUser.id}`)).status).toBe(200)
      expect((await owner.get(`/organizations/${org.id}/members/me`)).status).toBe(200)
    })

    it("answers 404 for a missing user, a non-member or a missing organization", async () => {
      const org = await createOrg()
      expectNotFound(await owner.delete(`/organizations/${org.id}/members/${MISSING_UUID}`))
      expectNotFound(await owner.delete(`/organizations/${org.id}/members/${memberUser.id}`))
      expectNotFound(await owner.delete(`/organizations/${MISSING_UUID}/members/${memberUser.id}`))
    })

    it("answers 401, 403 for a plain member, 404 for a foreign organization", async () => {
      const org = await createOrg()
      const u = await createUser(owner)
      expect((await owner.post(`/organizations/${org.id}/members/${u.user.id}`)).status).toBe(200)
      expectResponse(await srv.anonymous.delete(`/organizations/${org.id}/members/${u.user.id}`), 401)
      expectNotFound(await member.delete(`/organizations/${org.id}/members/${u.user.id}`))
      expect((await owner.post(`/organizations/${org.id}/members/${memberUser.id}`)).status).toBe(200)
      expectResponse(await member.delete(`/organizations/${org.id}/members/${u.user.id}`), 403)
      expectResponse(await member.delete(`/organizations/${defaultOrgId}/members/${u.user.id}`), 403)
      expect((await owner.get(`/organizations/${org.id}/members/${u.user.id}`)).status).toBe(200)
    })
  })

  describe("routing", () => {
    it("answers 405 with Allow for a wrong method on a known path", async () => {
      const list = await owner.put("/organizations", {})
      expectResponse(list, 405)
      expect(list.headers.get("allow")).toBe("GET, HEAD, POST")
      const one = await owner.post(`/organizations/${defaultOrgId}`, {})
      expectResponse(one, 405)
      expect(one.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE")
      const members = await owner.patch(`/organizations/${defaultOrgId}/members/me`, {})
      expectResponse(members, 405)
      expect(members.headers.get("allow")).toBe("GET, HEAD, POST, DELETE")
      expectResponse(await owner.delete(`/organizations/${defaultOrgId}/members`), 405)
    })

    it("never answers 500 to odd input", async () => {
      const paths = [
        "/organizations/%E0%A4%A",
        "/organizations/%",
        "/organizations/%25",
        "/organizations/" + "é".repeat(300),
        "/organizations/%00/members/%00",
        "/organizations/default/members/%FF",
        "/organizations/default/members?limit=%FF",
        "/organizations/default/members?limit=99999999999999999999999",
        "/organizations/default/members?limit=1&limit=2",
        "/organizations/default/paginated-members?q=%00",
        "/organizations/default/paginated-members?q=%22%22%22:",
        "/organizations/default/paginated-members?limit=99999999999999999999999&offset=9007199254740993"
      ]
      for (const path of paths) {
        for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
          const r = await owner.request(
            method,
            path,
            method === "GET" || method === "DELETE" ? undefined : { name: "x" }
          )
          expect(r.status, `${method} ${path}`).toBeLessThan(500)
        }
      }
      const bodies = [
        "{\"name\": \"a\", \"name\": 3}",
        "{\"__proto__\": {\"x\": 1}, \"name\": \"proto\"}",
        "1e999",
        "\u0000",
        "{\"name\": \"" + "a".repeat(100_000) + "\"}"
      ]
      for (const raw of bodies) {
        const r = await owner.request("POST", "/organizations", undefined, { raw })
        expect(r.status, raw.slice(0, 40)).toBeLessThan(500)
      }
    })
  })
})
