/** The access table's rows of the groups routes (packages/http/src/groups/), run by ../accessTable.ts. */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = (tbl) => {
  const { unique, newGroup } = tbl

  return [
    {
      kind: "group",
      action: "create",
      route: "POST /organizations/{organization}/groups",
      expected: [201, 404, 403, 403, 201, 201, 403, 403, 201, 403],
      attempt: async () => ({
        method: "POST",
        path: `/organizations/${tbl.org.id}/groups`,
        body: { name: unique("tbl-made") },
        check: { action: "create", object: { resource_type: "group", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "group",
      action: "read",
      route: "GET /groups/{group}",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/groups/${tbl.group}`,
        check: {
          action: "read",
          object: { resource_type: "group", resource_id: tbl.group, organization_id: tbl.org.id }
        }
      })
    },
    {
      kind: "group",
      action: "read",
      route: "GET /organizations/{organization}/paginated-groups",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/paginated-groups`,
        check: { action: "read", object: { resource_type: "group", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "group",
      action: "read",
      route: "GET /organizations/{organization}/groups/{groupName}/members",
      expected: [200, 404, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/groups/${tbl.groupName}/members`,
        check: {
          action: "read",
          object: { resource_type: "group", resource_id: tbl.group, organization_id: tbl.org.id }
        }
      })
    },
    {
      kind: "group",
      action: "update",
      route: "PATCH /groups/{group}",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/groups/${tbl.group}`,
        body: { display_name: unique("Group") },
        check: {
          action: "update",
          object: { resource_type: "group", resource_id: tbl.group, organization_id: tbl.org.id }
        }
      })
    },
    {
      kind: "group",
      action: "delete",
      route: "DELETE /groups/{group}",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => {
        const doomed = await newGroup()
        return {
          method: "DELETE",
          path: `/groups/${doomed}`,
          check: {
            action: "delete",
            object: { resource_type: "group", resource_id: doomed, organization_id: tbl.org.id }
          }
        }
      }
    }
  ]
}
