/**
 * The access table's rows of the IdP sync settings and external auth links routes
 * (packages/http/src/externalauth/), run by ../accessTable.ts.
 */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = (tbl) => {
  // External auth: every user reads their own links (their user's read_personal).
  return [
    {
      kind: "idpsync_settings",
      action: "read",
      route: "GET /settings/idpsync/organization",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/settings/idpsync/organization",
        check: { action: "read", object: { resource_type: "idpsync_settings" } }
      })
    },
    {
      kind: "idpsync_settings",
      action: "update",
      route: "PATCH /settings/idpsync/organization/config",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PATCH",
        path: "/settings/idpsync/organization/config",
        body: { field: "", assign_default: true },
        check: { action: "update", object: { resource_type: "idpsync_settings" } }
      })
    },
    {
      kind: "idpsync_settings",
      action: "read",
      route: "GET /organizations/{organization}/settings/idpsync/groups",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/settings/idpsync/groups`,
        check: { action: "read", object: { resource_type: "idpsync_settings", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "idpsync_settings",
      action: "update",
      route: "PATCH /organizations/{organization}/settings/idpsync/roles/config",
      expected: [200, 404, 403, 403, 200, 200, 403, 403, 200, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/organizations/${tbl.org.id}/settings/idpsync/roles/config`,
        body: { field: "" },
        check: { action: "update", object: { resource_type: "idpsync_settings", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "user",
      action: "read_personal",
      route: "GET /external-auth",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async (who) => ({
        method: "GET",
        path: "/external-auth",
        check: { action: "read_personal", object: { resource_type: "user", owner_id: who.id, resource_id: who.id } }
      })
    }
  ]
}
