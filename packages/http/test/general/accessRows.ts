/** The access table's rows of the deployment config routes (packages/http/src/general/), run by ../accessTable.ts. */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = () => {
  return [
    {
      kind: "deployment_config",
      action: "read",
      route: "GET /deployment/config",
      expected: [200, 403, 200, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/deployment/config",
        check: { action: "read", object: { resource_type: "deployment_config" } }
      })
    }
  ]
}
