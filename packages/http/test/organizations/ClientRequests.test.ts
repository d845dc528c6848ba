/**
 * The dashboard client's requests to the organizations routes (packages/http/src/organizations/); see
 * ../clientRequests.ts.
 */
import { describe, expect, it } from "vitest"
import { dashboardServer, expectAnswered } from "../clientRequests.js"
import { createOrganization, uniqueName } from "../support.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("organizations", () => {
    it("createOrganization: the form's empty strings", async () => {
      const name = uniqueName("dash-org")
      const r = await ctx.owner.post("/organizations", { name, display_name: "", description: "", icon: "" })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ name, display_name: name, description: "", icon: "" })
    })

    it("updateOrganization: the settings form, every field", async () => {
      const org = await createOrganization(ctx.owner)
      const r = await ctx.owner.patch(`/organizations/${org.id}`, {
        name: org.name,
        display_name: "Dash Org",
        description: "Made by the dashboard",
        icon: "/emojis/1f3e2.png"
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ name: org.name, display_name: "Dash Org", description: "Made by the dashboard" })
    })

    it("getOrganizations, getOrganization, getOrganizationMembers, getOrganizationRoles", async () => {
      expect((await ctx.owner.get("/organizations")).status).toBe(200)
      expect((await ctx.owner.get(`/organizations/${ctx.orgId}`)).status).toBe(200)
      expect((await ctx.owner.get(`/organizations/${ctx.orgId}/members`)).status).toBe(200)
      expect((await ctx.owner.get(`/organizations/${ctx.orgId}/members/roles`)).status).toBe(200)
    })

    it("createOrganizationRole, updateOrganizationRole, deleteOrganizationRole: the custom role form's Role", async () => {
      const org = await createOrganization(ctx.owner)
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
      const made = await ctx.owner.post(`/organizations/${org.id}/members/roles`, role)
      expect(made.status, JSON.stringify(made.body)).toBe(200)
      expect(made.body).toMatchObject({ name: "dash-role", organization_id: org.id, display_name: "Dash Role" })
      const edited = await ctx.owner.put(`/organizations/${org.id}/members/roles`, {
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
      const listed = await ctx.owner.get(`/organizations/${org.id}/members/roles`)
      expect(listed.body.find((r: any) => r.name === "dash-role")).toMatchObject({ built_in: false, display_name: "" })
      expect((await ctx.owner.delete(`/organizations/${org.id}/members/roles/dash-role`)).status).toBe(204)
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
        const r = await ctx.owner.get(`/organizations/${ctx.orgId}/paginated-members${query === "" ? "" : `?${query}`}`)
        expect(r.status, `${query}: ${JSON.stringify(r.body)}`).toBe(200)
        expect(r.body.members.map((m: any) => m.user_id)).toContain(ctx.member.user.id)
        expect(r.body.count).toBeGreaterThanOrEqual(r.body.members.length)
      }
    })

    it("getWorkspaceSharingSettings, patchWorkspaceSharingSettings: the organization settings page's toggle", async () => {
      const org = await createOrganization(ctx.owner)
      const read = await ctx.owner.get(`/organizations/${org.id}/settings/workspace-sharing`)
      expect(read.status).toBe(200)
      expect(read.body).toEqual({
        sharing_globally_disabled: false,
        sharing_disabled: false,
        shareable_workspace_owners: "everyone"
      })
      for (const shareable_workspace_owners of ["none", "service_accounts", "everyone"]) {
        const r = await ctx.owner.patch(`/organizations/${org.id}/settings/workspace-sharing`, {
          shareable_workspace_owners
        })
        expect(r.status, JSON.stringify(r.body)).toBe(200)
        expect(r.body.shareable_workspace_owners).toBe(shareable_workspace_owners)
      }
      // An older client (the Terraform provider) sends only the deprecated boolean.
      const old = await ctx.owner.patch(`/organizations/${org.id}/settings/workspace-sharing`, {
        sharing_disabled: true
      })
      expect(old.body).toMatchObject({ sharing_disabled: true, shareable_workspace_owners: "none" })
    })

    it("the IdP sync pages: organization, group and role sync settings and the claim field values", async () => {
      const org = await createOrganization(ctx.owner)
      // getOrganizationIdpSyncSettings, then patchOrganizationSyncSettings with the whole form.
      const orgSync = await ctx.owner.get("/settings/idpsync/organization")
      expect(orgSync.status).toBe(200)
      const patchedOrg = await ctx.owner.patch("/settings/idpsync/organization", {
        ...orgSync.body,
        field: "organizations",
        mapping: { engineering: [org.id] }
      })
      expect(patchedOrg.status, JSON.stringify(patchedOrg.body)).toBe(200)
      expect((await ctx.owner.patch("/settings/idpsync/organization", orgSync.body)).status).toBe(200)
      // getGroupIdpSyncSettingsByOrganization, patchGroupSyncSettings (regex_filter null when empty).
      const groups = await ctx.owner.get(`/organizations/${org.id}/settings/idpsync/groups`)
      expect(groups.status).toBe(200)
      const patchedGroups = await ctx.owner.patch(`/organizations/${org.id}/settings/idpsync/groups`, {
        ...groups.body,
        field: "groups",
        regex_filter: null,
        auto_create_missing_groups: true
      })
      expect(patchedGroups.status, JSON.stringify(patchedGroups.body)).toBe(200)
      // getRoleIdpSyncSettingsByOrganization, patchRoleSyncSettings.
      const roles = await ctx.owner.get(`/organizations/${org.id}/settings/idpsync/roles`)
      expect(roles.status).toBe(200)
      const patchedRoles = await ctx.owner.patch(`/organizations/${org.id}/settings/idpsync/roles`, {
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
        const r = await ctx.owner.get(path)
        expect(r.status, path).toBe(200)
        expect(Array.isArray(r.body)).toBe(true)
      }
    })

    it("addOrganizationMember, updateOrganizationMemberRoles, removeOrganizationMember, deleteOrganization", async () => {
      const org = await createOrganization(ctx.owner)
      expect((await ctx.owner.post(`/organizations/${org.id}/members/${ctx.member.user.id}`)).status).toBe(200)
      const roles = await ctx.owner.put(`/organizations/${org.id}/members/${ctx.member.user.id}/roles`, {
        roles: ["organization-auditor"]
      })
      expect(roles.status, JSON.stringify(roles.body)).toBe(200)
      expect((await ctx.owner.delete(`/organizations/${org.id}/members/${ctx.member.user.id}`)).status).toBe(204)
      expect((await ctx.owner.delete(`/organizations/${org.id}`)).status).toBe(200)
    })
  })

  describe("null and absent mean not given", () => {
    it("PATCH /organizations with nulls, or without the fields, keeps every field", async () => {
      const org = await createOrganization(ctx.owner)
      const set = await ctx.owner.patch(`/organizations/${org.id}`, {
        display_name: "Named",
        description: "About",
        icon: "/i.png"
      })
      expect(set.status).toBe(200)
      const kept = { name: org.name, display_name: "Named", description: "About", icon: "/i.png" }
      const r = await ctx.owner.patch(`/organizations/${org.id}`, {
        name: null,
        display_name: null,
        description: null,
        icon: null
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject(kept)
      expect((await ctx.owner.patch(`/organizations/${org.id}`, {})).body).toMatchObject(kept)
    })

    it("POST /organizations with nulls takes the defaults", async () => {
      const name = uniqueName("null-org")
      const r = await ctx.owner.post("/organizations", { name, display_name: null, description: null, icon: null })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ name, display_name: name, description: "", icon: "" })
    })

    it("an empty query value is not given", async () => {
      await expectAnswered(ctx.owner, [`/organizations/${ctx.orgId}/members?limit=&offset=`])
    })
  })
})
