/**
 * The access table's rows of the health report and its settings routes (packages/http/src/debug/), run by
 * ../accessTable.ts.
 */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = () => {
  /** Flipped by the health settings row so that each owner attempt changes them. */
  let flip = false
  return [
    {
      kind: "debug_info",
      action: "read",
      route: "GET /debug/health",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/debug/health",
        check: { action: "read", object: { resource_type: "debug_info" } }
      })
    },
    {
      // The debug routes are owners' (`debug_info`), then the settings are `deployment_config`'s.
      kind: "debug_info",
      action: "read",
      route: "GET /debug/health/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/debug/health/settings",
        check: { action: "read", object: { resource_type: "debug_info" } }
      })
    },
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /debug/health/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        // A change each time (200, not 204): the owner's row flips the stored sections.
        method: "PUT",
        path: "/debug/health/settings",
        body: { dismissed_healthchecks: [(flip = !flip) ? "DERP" : "WorkspaceProxy"] },
        check: { action: "update", object: { resource_type: "deployment_config" } }
      })
    }
  ]
}
