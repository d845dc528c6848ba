/** The access table's rows of the appearance routes (packages/http/src/enterprise/), run by ../accessTable.ts. */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = () => {
  // Appearance: owners change it (deployment_config update); every user reads it. Licenses are
  // tried in enterprise/Enterprise.test.ts, on a server with a license key.
  return [
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /appearance",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PUT",
        path: "/appearance",
        body: { application_name: "Table" },
        check: { action: "update", object: { resource_type: "deployment_config" } }
      })
    }
  ]
}
