/**
 * The access table's rows of the organizations, their members and roles routes
 * (packages/http/src/organizations/), run by ../accessTable.ts.
 */
import { type AreaRows, isOrgRole } from "../accessTable.js"
import { addMemberWithRoles, createOrganization } from "../support.js"

export const accessRows: AreaRows = (tbl) => {
  const { unique, plainUser, orgMember, customRole } = tbl

  return [
    {
      kind: "organization",
      action: "read",
      route: "GET /organizations/{organization}",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}`,
        check: { action: "read", object: { resource_type: "organization", resource_id: tbl.org.id } }
      })
    },
    {
      kind: "organization",
      action: "create",
      route: "POST /organizations",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: "/organizations",
        body: { name: unique("tbl-org") },
        check: { action: "create", object: { resource_type: "organization" } }
      })
    },
    {
      kind: "organization",
      action: "update",
      route: "PATCH /organizations/{organization}",
      expected: [200, 404, 403, 403, 403, 200, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/organizations/${tbl.org.id}`,
        body: { display_name: unique("Table") },
        check: { action: "update", object: { resource_type: "organization", resource_id: tbl.org.id } }
      })
    },
    {
      kind: "organization",
      action: "delete",
      route: "DELETE /organizations/{organization}",
      expected: [200, 404, 403, 403, 403, 200, 403, 403, 403, 403],
      attempt: async (who) => {
        // A fresh organization in which an organization role holds the same role.
        const doomed = await createOrganization(tbl.admin, unique("tbl-doomed"))
        if (isOrgRole(who.role)) {
          await addMemberWithRoles(tbl.admin, doomed.id, who.id, who.role === "organization-member" ? [] : [who.role])
        }
        return {
          method: "DELETE",
          path: `/organizations/${doomed.id}`,
          check: { action: "delete", object: { resource_type: "organization", resource_id: doomed.id } }
        }
      }
    },
    {
      kind: "organization_member",
      action: "read",
      route: "GET /organizations/{organization}/members/{user}",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/members/${tbl.someone}`,
        check: {
          action: "read",
          object: { resource_type: "organization_member", organization_id: tbl.org.id, owner_id: tbl.someone }
        }
      })
    },
    {
      kind: "organization_member",
      action: "read",
      route: "GET /organizations/{organization}/paginated-members",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/paginated-members?limit=5`,
        check: { action: "read", object: { resource_type: "organization_member", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "organization",
      action: "read",
      route: "GET /organizations/{organization}/settings/workspace-sharing",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/settings/workspace-sharing`,
        check: { action: "read", object: { resource_type: "organization", resource_id: tbl.org.id } }
      })
    },
    {
      kind: "organization",
      action: "update",
      route: "PATCH /organizations/{organization}/settings/workspace-sharing",
      expected: [200, 404, 403, 403, 403, 200, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/organizations/${tbl.org.id}/settings/workspace-sharing`,
        body: { shareable_workspace_owners: "everyone" },
        check: { action: "update", object: { resource_type: "organization", resource_id: tbl.org.id } }
      })
    },
    {
      kind: "organization_member",
      action: "create",
      route: "POST /organizations/{organization}/members/{user}",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => {
        const joiner = await plainUser()
        return {
          method: "POST",
          path: `/organizations/${tbl.org.id}/members/${joiner}`,
          check: { action: "create", object: { resource_type: "organization_member", organization_id: tbl.org.id } }
        }
      }
    },
    {
      kind: "organization_member",
      action: "delete",
      route: "DELETE /organizations/{organization}/members/{user}",
      expected: [204, 404, 403, 403, 204, 204, 403, 403, 204, 403],
      attempt: async () => {
        const leaver = await orgMember()
        return {
          method: "DELETE",
          path: `/organizations/${tbl.org.id}/members/${leaver}`,
          check: { action: "delete", object: { resource_type: "organization_member", organization_id: tbl.org.id } }
        }
      }
    },
    {
      kind: "assign_org_role",
      action: "read",
      route: "GET /organizations/{organization}/members/roles",
      expected: [200, 404, 403, 403, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/members/roles`,
        check: { action: "read", object: { resource_type: "assign_org_role", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "assign_org_role",
      action: "assign",
      route: "PUT /organizations/{organization}/members/{user}/roles",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => {
        const target = await orgMember()
        return {
          method: "PUT",
          path: `/organizations/${tbl.org.id}/members/${target}/roles`,
          body: { roles: ["organization-auditor"] },
          check: { action: "assign", object: { resource_type: "assign_org_role", organization_id: tbl.org.id } }
        }
      }
    },
    {
      kind: "assign_org_role",
      action: "create",
      route: "POST /organizations/{organization}/members/roles",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: `/organizations/${tbl.org.id}/members/roles`,
        body: {
          name: tbl.customRoleName(),
          organization_permissions: [{ resource_type: "group", action: "read" }]
        },
        check: { action: "create", object: { resource_type: "assign_org_role", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "assign_org_role",
      action: "update",
      route: "PUT /organizations/{organization}/members/roles",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 403, 403],
      attempt: async () => {
        const name = await customRole()
        return {
          method: "PUT",
          path: `/organizations/${tbl.org.id}/members/roles`,
          body: { name, display_name: "Changed", organization_permissions: [] },
          check: { action: "update", object: { resource_type: "assign_org_role", organization_id: tbl.org.id } }
        }
      }
    },
    {
      kind: "assign_org_role",
      action: "delete",
      route: "DELETE /organizations/{organization}/members/roles/{roleName}",
      expected: [204, 404, 403, 403, 204, 204, 403, 403, 403, 403],
      attempt: async () => {
        const name = await customRole()
        return {
          method: "DELETE",
          path: `/organizations/${tbl.org.id}/members/roles/${name}`,
          check: { action: "delete", object: { resource_type: "assign_org_role", organization_id: tbl.org.id } }
        }
      }
    }
  ]
}
