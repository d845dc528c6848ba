/** The dashboard client's requests to the OAuth2 apps routes (packages/http/src/oauth2/); see ../clientRequests.ts. */
import { describe, expect, it } from "vitest"
import { dashboardServer } from "../clientRequests.js"
import { uniqueName } from "../support.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("OAuth2 apps", () => {
    it("the OAuth2 app pages' requests: list (with and without user_id), create, update, secrets, delete, revoke", async () => {
      // getOAuth2ProviderApps builds its query with URLSearchParams: "?" alone without a filter.
      expect((await ctx.owner.get("/oauth2-provider/apps?")).status).toBe(200)
      expect((await ctx.member.client.get(`/oauth2-provider/apps?user_id=${ctx.member.user.id}`)).status).toBe(200)
      const created = await ctx.owner.post("/oauth2-provider/apps", {
        name: uniqueName("dash-app"),
        callback_url: "https://app.example.com/cb",
        icon: ""
      })
      expect(created.status).toBe(201)
      const id = created.body.id as string
      expect((await ctx.owner.get(`/oauth2-provider/apps/${id}`)).status).toBe(200)
      expect(
        (await ctx.owner.put(`/oauth2-provider/apps/${id}`, {
          name: uniqueName("dash-app"),
          callback_url: "https://app.example.com/cb2",
          icon: "/icon/x.svg"
        })).status
      ).toBe(200)
      const secret = await ctx.owner.post(`/oauth2-provider/apps/${id}/secrets`)
      expect(secret.status).toBe(201)
      expect((await ctx.owner.get(`/oauth2-provider/apps/${id}/secrets`)).status).toBe(200)
      expect((await ctx.owner.delete(`/oauth2-provider/apps/${id}/secrets/${secret.body.id}`)).status).toBe(204)
      // revokeOAuth2ProviderApp calls the root form, /oauth2/tokens?client_id=.
      const root = await fetch(`${ctx.srv.url}/oauth2/tokens?client_id=${id}`, {
        method: "DELETE",
        headers: { "Service-Session-Token": ctx.member.client.token! }
      })
      expect(root.status).toBe(204)
      expect((await ctx.owner.delete(`/oauth2-provider/apps/${id}`)).status).toBe(204)
    })

    it("the settings tab: getOAuth2ProviderSettings and putOAuth2ProviderSettings", async () => {
      const read = await ctx.owner.get("/oauth2-provider/settings")
      expect(read.status).toBe(200)
      expect(typeof read.body.dynamic_client_registration_enabled).toBe("boolean")
      const put = await ctx.owner.put("/oauth2-provider/settings", {
        dynamic_client_registration_enabled: read.body.dynamic_client_registration_enabled
      })
      expect(put.status).toBe(200)
      expect(put.body).toEqual(read.body)
    })
  })
})
