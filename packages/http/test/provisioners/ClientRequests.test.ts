/**
 * The dashboard client's requests to the provisioner keys routes (packages/http/src/provisioners/); see
 * ../clientRequests.ts.
 */
import { describe, expect, it } from "vitest"
import { dashboardServer } from "../clientRequests.js"
import { uniqueName } from "../support.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("provisioner keys", () => {
    it("the CLI's create (a nil tags map is null), the keys page's daemons list, list and delete", async () => {
      const name = uniqueName("dash-key")
      const created = await ctx.owner.post(`/organizations/${ctx.orgId}/provisionerkeys`, { name, tags: null })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body.key).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const daemons = await ctx.owner.get(`/organizations/${ctx.orgId}/provisionerkeys/daemons`)
      expect(daemons.status).toBe(200)
      expect(daemons.body.find((k: any) => k.key.name === name)).toMatchObject({ key: { name, tags: {} }, daemons: [] })
      const listed = await ctx.member.client.get(`/organizations/${ctx.orgId}/provisionerkeys`)
      expect(listed.status).toBe(200)
      expect(listed.body.map((k: any) => k.name)).toContain(name)
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key)
      expect((await ctx.owner.delete(`/organizations/${ctx.orgId}/provisionerkeys/${name}`)).status).toBe(204)
    })

    it("the CLI's GetProvisionerKey: the key in the path and in Coder-Provisioner-Daemon-Key", async () => {
      const name = uniqueName("cli-key")
      const { key } = (await ctx.owner.post(`/organizations/${ctx.orgId}/provisionerkeys`, { name })).body
      const r = await ctx.srv.anonymous.request("GET", `/provisionerkeys/${key}`, undefined, {
        headers: { "Coder-Provisioner-Daemon-Key": key }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ name, organization: ctx.orgId, tags: {} })
    })
  })
})
