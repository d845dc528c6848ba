/**
 * The access table's rows of the audit and connection logs routes (packages/http/src/audit/), run by
 * ../accessTable.ts.
 */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = () => {
  return [
    {
      kind: "audit_log",
      action: "read",
      route: "GET /audit",
      expected: [200, 403, 200, 403, 403, 200, 403, 200, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/audit?limit=5",
        check: { action: "read", object: { resource_type: "audit_log", any_org: true } }
      })
    },
    {
      kind: "connection_log",
      action: "read",
      route: "GET /connectionlog",
      expected: [200, 403, 200, 403, 403, 200, 403, 200, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/connectionlog?limit=5",
        check: { action: "read", object: { resource_type: "connection_log", any_org: true } }
      })
    }
  ]
}
