/**
 * The access table's rows of the OAuth2 apps, secrets, settings and grants routes (packages/http/src/oauth2/),
 * run by ../accessTable.ts.
 */
import type { AreaRows } from "../accessTable.js"

export const accessRows: AreaRows = (tbl) => {
  // OAuth2 apps: every user reads them (the consent page names them); only owners change them and
  // their secrets (a secret list is hidden: 404). A user's grants to apps are their own to revoke.
  const newApp = async () => {
    const r = await tbl.admin.post("/oauth2-provider/apps", {
      name: `app-${Math.random().toString(36).slice(2, 10)}`,
      callback_url: "https://app.example.com/cb"
    })
    return r.body.id as string
  }
  return [
    {
      kind: "oauth2_app",
      action: "read",
      route: "GET /oauth2-provider/apps/{app}",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "GET",
          path: `/oauth2-provider/apps/${id}`,
          check: { action: "read", object: { resource_type: "oauth2_app", resource_id: id } }
        }
      }
    },
    {
      kind: "oauth2_app",
      action: "create",
      route: "POST /oauth2-provider/apps",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: "/oauth2-provider/apps",
        body: { name: `app-${Math.random().toString(36).slice(2, 10)}`, callback_url: "https://app.example.com/cb" },
        check: { action: "create", object: { resource_type: "oauth2_app" } }
      })
    },
    {
      kind: "oauth2_app",
      action: "update",
      route: "PUT /oauth2-provider/apps/{app}",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "PUT",
          path: `/oauth2-provider/apps/${id}`,
          body: { name: "renamed", callback_url: "https://app.example.com/cb" },
          check: { action: "update", object: { resource_type: "oauth2_app", resource_id: id } }
        }
      }
    },
    {
      kind: "oauth2_app",
      action: "delete",
      route: "DELETE /oauth2-provider/apps/{app}",
      expected: [204, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "DELETE",
          path: `/oauth2-provider/apps/${id}`,
          check: { action: "delete", object: { resource_type: "oauth2_app", resource_id: id } }
        }
      }
    },
    {
      kind: "oauth2_app_secret",
      action: "read",
      route: "GET /oauth2-provider/apps/{app}/secrets",
      expected: [200, 404, 404, 404, 404, 404, 404, 404, 404, 404],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "GET",
          path: `/oauth2-provider/apps/${id}/secrets`,
          check: { action: "read", object: { resource_type: "oauth2_app_secret" } }
        }
      }
    },
    {
      kind: "oauth2_app_secret",
      action: "create",
      route: "POST /oauth2-provider/apps/{app}/secrets",
      expected: [201, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        return {
          method: "POST",
          path: `/oauth2-provider/apps/${id}/secrets`,
          check: { action: "create", object: { resource_type: "oauth2_app_secret" } }
        }
      }
    },
    {
      kind: "oauth2_app_secret",
      action: "delete",
      route: "DELETE /oauth2-provider/apps/{app}/secrets/{secret}",
      expected: [204, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        const id = await newApp()
        const secret = await tbl.admin.post(`/oauth2-provider/apps/${id}/secrets`)
        return {
          method: "DELETE",
          path: `/oauth2-provider/apps/${id}/secrets/${secret.body.id}`,
          check: { action: "delete", object: { resource_type: "oauth2_app_secret" } }
        }
      }
    },
    {
      kind: "deployment_config",
      action: "read",
      route: "GET /oauth2-provider/settings",
      expected: [200, 403, 200, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        method: "GET",
        path: "/oauth2-provider/settings",
        check: { action: "read", object: { resource_type: "deployment_config" } }
      })
    },
    {
      kind: "deployment_config",
      action: "update",
      route: "PUT /oauth2-provider/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => ({
        // Registration stays open: the other rows and files register clients.
        method: "PUT",
        path: "/oauth2-provider/settings",
        body: { dynamic_client_registration_enabled: true },
        check: { action: "update", object: { resource_type: "deployment_config" } }
      })
    },
    {
      kind: "oauth2_app_code_token",
      action: "delete",
      route: "DELETE /oauth2/tokens?client_id=",
      expected: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
      attempt: async (who) => {
        const id = await newApp()
        return {
          method: "DELETE",
          path: `/oauth2/tokens?client_id=${id}`,
          check: { action: "delete", object: { resource_type: "oauth2_app_code_token", owner_id: who.id } }
        }
      }
    }
  ]
}
