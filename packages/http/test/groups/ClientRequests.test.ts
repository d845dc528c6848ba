/** The dashboard client's requests to the groups routes (packages/http/src/groups/); see ../clientRequests.ts. */
import { describe, expect, it } from "vitest"
import { dashboardServer, expectAnswered } from "../clientRequests.js"
import { expectValidations } from "../support.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("groups", () => {
    it("createGroup: the form's initial values", async () => {
      const r = await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, {
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
      const g = (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "dash-settings" })).body
      const r = await ctx.owner.patch(`/groups/${g.id}`, {
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
      const g = (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "dash-members" })).body
      const added = await ctx.owner.patch(`/groups/${g.id}`, {
        name: "",
        add_users: [ctx.member.user.id],
        remove_users: [],
        display_name: null,
        avatar_url: null,
        quota_allowance: null
      })
      expect(added.status, JSON.stringify(added.body)).toBe(200)
      expect(added.body.members.map((m: any) => m.id)).toEqual([ctx.member.user.id])
      const removed = await ctx.owner.patch(`/groups/${g.id}`, {
        name: "",
        add_users: [],
        remove_users: [ctx.member.user.id],
        display_name: null,
        avatar_url: null,
        quota_allowance: null
      })
      expect(removed.status, JSON.stringify(removed.body)).toBe(200)
      expect(removed.body.members).toEqual([])
    })

    it("getWorkspaceQuota: the organization's name and the username, as the create-workspace page asks", async () => {
      const g =
        (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "dash-quota", quota_allowance: 4 })).body
      await ctx.owner.patch(`/groups/${g.id}`, { add_users: [ctx.member.user.id] })
      const r = await ctx.member.client.get(
        `/organizations/coder/members/${encodeURIComponent(ctx.member.username)}/workspace-quota`
      )
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ budget: 4, credits_consumed: 0 })
      expect((await ctx.owner.delete(`/groups/${g.id}`)).status).toBe(200)
    })

    it("getGroups, getGroupsByOrganization, deleteGroup", async () => {
      expect((await ctx.owner.get("/groups")).status).toBe(200)
      const mine = await ctx.member.client.get(`/groups?has_member=${ctx.member.user.id}`)
      expect(mine.status).toBe(200)
      expect((await ctx.owner.get(`/organizations/${ctx.orgId}/groups`)).status).toBe(200)
      const g = (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "dash-doomed" })).body
      expect((await ctx.owner.delete(`/groups/${g.id}`)).status).toBe(200)
    })

    it("getPaginatedGroups and the groups page's member avatars: the organization's name, limit, offset, q", async () => {
      const g = (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "dash-paged" })).body
      await ctx.owner.patch(`/groups/${g.id}`, { add_users: [ctx.member.user.id] })
      const first = await ctx.owner.get("/organizations/coder/paginated-groups?limit=25&offset=0")
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(first.body.groups.map((x: any) => x.name)).toContain("dash-paged")
      const searched = await ctx.owner.get("/organizations/coder/paginated-groups?q=dash-paged&limit=25&offset=0")
      expect(searched.body).toMatchObject({ count: 1, groups: [{ id: g.id, total_member_count: 1 }] })
      // The Go client's OrganizationGroupsPaginated sends the id and the Pagination fields.
      expect(
        (await ctx.owner.get(`/organizations/${ctx.orgId}/paginated-groups?after_id=${g.id}&limit=10&offset=0`)).status
      )
        .toBe(200)
      const avatars = await ctx.owner.get("/organizations/coder/groups/dash-paged/members?limit=5")
      expect(avatars.status, JSON.stringify(avatars.body)).toBe(200)
      expect(avatars.body).toMatchObject({ count: 1, users: [{ id: ctx.member.user.id }] })
      expect((await ctx.owner.delete(`/groups/${g.id}`)).status).toBe(200)
    })

    it("group AI budgets, as the Go client sends them", async () => {
      const g = (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "dash-budget" })).body
      expect((await ctx.owner.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 25_000_000 })).status).toBe(200)
      expect((await ctx.owner.get(`/groups/${g.id}/ai/budget`)).status).toBe(200)
      expect((await ctx.owner.delete(`/groups/${g.id}/ai/budget`)).status).toBe(204)
    })
  })

  describe("null and absent mean not given", () => {
    it("PATCH /groups with nulls keeps the display name, avatar, quota and name", async () => {
      const g = (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, {
        name: "kept",
        display_name: "Kept",
        avatar_url: "/kept.png",
        quota_allowance: 7
      })).body
      const kept = { name: "kept", display_name: "Kept", avatar_url: "/kept.png", quota_allowance: 7 }
      const r = await ctx.owner.patch(`/groups/${g.id}`, {
        name: null,
        display_name: null,
        avatar_url: null,
        quota_allowance: null,
        add_users: null,
        remove_users: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject(kept)
      expect((await ctx.owner.patch(`/groups/${g.id}`, {})).body).toMatchObject(kept)
      expect((await ctx.owner.get(`/groups/${g.id}`)).body).toMatchObject(kept)
    })

    it("POST /organizations/{organization}/groups with nulls takes the defaults", async () => {
      const r = await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, {
        name: "defaults",
        display_name: null,
        avatar_url: null,
        quota_allowance: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ display_name: "", quota_allowance: 0 })
      expect(r.body).not.toHaveProperty("avatar_url")
    })

    it("an empty query value is not given", async () => {
      const g =
        (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "query-group", add_users: [] })).body
      await expectAnswered(ctx.owner, [
        `/groups/${g.id}/members?q=&after_id=&limit=&offset=`,
        `/groups/${g.id}?exclude_members=`,
        "/groups?organization=&has_member=&group_ids="
      ])
    })

    it("a wrong value in a nullable field is still one validation, at its path", async () => {
      const g = (await ctx.owner.post(`/organizations/${ctx.orgId}/groups`, { name: "strict-group" })).body
      const body = await ctx.owner.patch(`/groups/${g.id}`, { display_name: 5, add_users: [5], quota_allowance: -1 })
      expectValidations(body, ["display_name", "add_users.0", "quota_allowance"])
      expect(body.body.validations.find((v: any) => v.field === "quota_allowance").detail).toBe(
        "Quota allowance cannot be negative."
      )
    })
  })
})
