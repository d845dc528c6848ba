/**
 * The response schema table's rows of the organizations, their members and roles endpoints
 * (packages/http/src/organizations/), run by ../responseSchemas.ts.
 */
import { type Row, row } from "../responseSchemas.js"
import { createOrganization, createUser, uniqueName } from "../support.js"

export const responseRows: ReadonlyArray<Row> = [
  // organizations
  row("organizations.list", "GET /api/v2/organizations", 200, "[Organization]", (w) => w.owner.get("/organizations")),
  row("organizations.create", "POST /api/v2/organizations", 201, "Organization", async (w) => [
    await w.owner.post("/organizations", { name: uniqueName("bare") }),
    await w.owner.post("/organizations", {
      name: uniqueName("full"),
      display_name: "Full Org",
      description: "Everything set.",
      icon: "/emojis/1f3e2.png"
    })
  ]),
  row("organizations.get", "GET /api/v2/organizations/:organization", 200, "Organization", async (w) => [
    await w.owner.get(`/organizations/${w.orgId}`),
    await w.alice.client.get(`/organizations/${w.org.name}`)
  ]),
  row(
    "organizations.update",
    "PATCH /api/v2/organizations/:organization",
    200,
    "Organization",
    (w) => w.owner.patch(`/organizations/${w.org.id}`, { description: "Updated." })
  ),
  row(
    "organizations.delete",
    "DELETE /api/v2/organizations/:organization",
    200,
    "Response",
    async (w) => w.owner.delete(`/organizations/${(await createOrganization(w.owner)).id}`)
  ),
  row(
    "organizations.listMembers",
    "GET /api/v2/organizations/:organization/members",
    200,
    "[OrganizationMemberWithUserData]",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/members`),
      await w.owner.get(`/organizations/${w.org.id}/members`)
    ]
  ),
  row(
    "organizations.paginatedMembers",
    "GET /api/v2/organizations/:organization/paginated-members",
    200,
    "PaginatedMembersResponse",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/paginated-members`),
      await w.owner.get(`/organizations/${w.org.id}/paginated-members?limit=1&offset=1`),
      await w.bob.client.get(`/organizations/${w.orgId}/paginated-members?q=${encodeURIComponent("status:suspended")}`)
    ]
  ),
  row(
    "organizations.getWorkspaceSharing",
    "GET /api/v2/organizations/:organization/settings/workspace-sharing",
    200,
    "WorkspaceSharingSettings",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/workspace-sharing`)]
  ),
  row(
    "organizations.updateWorkspaceSharing",
    "PATCH /api/v2/organizations/:organization/settings/workspace-sharing",
    200,
    "WorkspaceSharingSettings",
    async (w) => [
      await w.owner.patch(`/organizations/${w.org.id}/settings/workspace-sharing`, {
        shareable_workspace_owners: "service_accounts"
      }),
      await w.owner.patch(`/organizations/${w.org.id}/settings/workspace-sharing`, {
        shareable_workspace_owners: "everyone"
      })
    ]
  ),
  row(
    "organizations.createRole",
    "POST /api/v2/organizations/:organization/members/roles",
    200,
    "Role",
    async (w) => [
      await w.owner.post(`/organizations/${w.org.id}/members/roles`, {
        name: "schema-role",
        display_name: "Schema Role",
        organization_permissions: [{ negate: false, resource_type: "group", action: "read" }]
      }),
      await w.owner.post(`/organizations/${w.org.id}/members/roles`, { name: "schema-bare" })
    ]
  ),
  row(
    "organizations.updateRole",
    "PUT /api/v2/organizations/:organization/members/roles",
    200,
    "Role",
    (w) =>
      w.owner.put(`/organizations/${w.org.id}/members/roles`, {
        name: "schema-role",
        display_name: "",
        site_permissions: [],
        user_permissions: [],
        organization_permissions: [{ negate: false, resource_type: "group", action: "create" }]
      })
  ),
  row(
    "organizations.assignableRoles",
    "GET /api/v2/organizations/:organization/members/roles",
    200,
    "[AssignableRoles]",
    (w) => w.owner.get(`/organizations/${w.org.id}/members/roles`)
  ),
  row(
    "organizations.deleteRole",
    "DELETE /api/v2/organizations/:organization/members/roles/:roleName",
    204,
    "none",
    (w) => w.owner.delete(`/organizations/${w.org.id}/members/roles/schema-bare`)
  ),
  row(
    "organizations.getMember",
    "GET /api/v2/organizations/:organization/members/:user",
    200,
    "OrganizationMemberWithUserData",
    async (w) => [
      await w.owner.get(`/organizations/${w.org.id}/members/${w.alice.user.id}`),
      await w.owner.get(`/organizations/${w.orgId}/members/me`),
      await w.owner.get(`/organizations/${w.orgId}/members/${w.bob.username}`)
    ]
  ),
  row(
    "organizations.updateMemberRoles",
    "PUT /api/v2/organizations/:organization/members/:user/roles",
    200,
    "OrganizationMemberWithUserData",
    (w) => w.owner.put(`/organizations/${w.org.id}/members/${w.alice.user.id}/roles`, { roles: ["organization-admin"] })
  ),
  row(
    "organizations.addMember",
    "POST /api/v2/organizations/:organization/members/:user",
    200,
    "OrganizationMemberWithUserData",
    (w) => w.owner.post(`/organizations/${w.org.id}/members/${w.bob.user.id}`)
  ),
  row(
    "organizations.removeMember",
    "DELETE /api/v2/organizations/:organization/members/:user",
    204,
    "none",
    async (w) => {
      const passer = await createUser(w.owner, { username: uniqueName("passer") })
      await w.owner.post(`/organizations/${w.org.id}/members/${passer.user.id}`)
      return w.owner.delete(`/organizations/${w.org.id}/members/${passer.user.id}`)
    }
  )
]
