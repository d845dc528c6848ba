/**
 * The access table's rows of the users, their roles and tokens routes (packages/http/src/users/), run by
 * ../accessTable.ts.
 */
import type { AreaRows } from "../accessTable.js"
import { STRONG_PASSWORD } from "../support.js"

export const accessRows: AreaRows = (tbl) => {
  const { unique, plainUser } = tbl

  return [
    {
      kind: "user",
      action: "read",
      route: "GET /users/{user}",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/users/${tbl.someone}`,
        check: { action: "read", object: { resource_type: "user", resource_id: tbl.someone } }
      })
    },
    {
      kind: "user",
      action: "read_personal",
      route: "GET /users/{user}/appearance",
      expected: [200, 404, 404, 404, 200, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${tbl.someone}/appearance`,
        check: { action: "read_personal", object: { resource_type: "user", resource_id: tbl.someone } }
      })
    },
    {
      kind: "user",
      action: "read_personal",
      route: "GET /users/{user}/preferences",
      expected: [200, 404, 404, 404, 200, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${tbl.someone}/preferences`,
        check: { action: "read_personal", object: { resource_type: "user", resource_id: tbl.someone } }
      })
    },
    {
      kind: "user",
      action: "update",
      route: "PUT /users/{user}/preferences",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PUT",
        path: `/users/${tbl.someone}/preferences`,
        body: { collapse_assistant_steps: true },
        check: { action: "update", object: { resource_type: "user", resource_id: tbl.someone } }
      })
    },
    {
      kind: "user",
      action: "create",
      route: "POST /users",
      expected: [201, 403, 403, 403, 201, 403, 403, 403, 403, 403],
      attempt: async () => {
        const name = unique("tbl-new")
        return {
          method: "POST",
          path: "/users",
          body: { email: `${name}@example.com`, username: name, password: STRONG_PASSWORD },
          check: { action: "create", object: { resource_type: "user" } }
        }
      }
    },
    {
      kind: "user",
      action: "update",
      route: "PUT /users/{user}/status/suspend",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => {
        const victim = await plainUser()
        return {
          method: "PUT",
          path: `/users/${victim}/status/suspend`,
          check: { action: "update", object: { resource_type: "user", resource_id: victim } }
        }
      }
    },
    {
      kind: "user",
      action: "delete",
      route: "DELETE /users/{user}",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => {
        const victim = await plainUser()
        return {
          method: "DELETE",
          path: `/users/${victim}`,
          check: { action: "delete", object: { resource_type: "user", resource_id: victim } }
        }
      }
    },
    {
      kind: "assign_role",
      action: "read",
      route: "GET /users/roles",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: "/users/roles",
        check: { action: "read", object: { resource_type: "assign_role" } }
      })
    },
    {
      kind: "assign_role",
      action: "assign",
      route: "PUT /users/{user}/roles",
      expected: [200, 403, 403, 403, 200, 403, 403, 403, 403, 403],
      attempt: async () => {
        const target = await plainUser()
        return {
          method: "PUT",
          path: `/users/${target}/roles`,
          body: { roles: ["auditor"] },
          check: { action: "assign", object: { resource_type: "assign_role" } }
        }
      }
    },
    {
      kind: "api_key",
      action: "create",
      route: "POST /users/{user}/keys/tokens (another user)",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: `/users/${tbl.someone}/keys/tokens`,
        body: {},
        check: { action: "create", object: { resource_type: "api_key", owner_id: tbl.someone } }
      })
    },
    {
      kind: "api_key",
      action: "read",
      route: "GET /users/{user}/keys/tokens (another user)",
      expected: [200, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/users/${tbl.someone}/keys/tokens`,
        check: { action: "read", object: { resource_type: "api_key", owner_id: tbl.someone } }
      })
    },
    {
      kind: "api_key",
      action: "update",
      route: "PUT /users/{user}/keys/{keyid}/expire (another user)",
      expected: [204, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => {
        const key = (await tbl.admin.post(`/users/${tbl.someone}/keys`)).body.key as string
        return {
          method: "PUT",
          path: `/users/${tbl.someone}/keys/${key.split("-")[0]}/expire`,
          check: { action: "update", object: { resource_type: "api_key", owner_id: tbl.someone } }
        }
      }
    }
  ]
}
