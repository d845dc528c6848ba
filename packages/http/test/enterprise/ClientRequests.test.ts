/**
 * The dashboard client's requests to the appearance, licenses and entitlements routes
 * (packages/http/src/enterprise/); see ../clientRequests.ts.
 */
import { afterAll, describe, expect, it } from "vitest"
import { makeValidator } from "../schemas/ResponseSchemas.js"
import { closeLicensedWorld, licensedWorld } from "./fixtures.js"
import { licenseClaims } from "./licenses.js"

describe("appearance, licenses and entitlements, as the dashboard's deployment pages send them", () => {
  afterAll(closeLicensedWorld)

  it("getAppearance, updateAppearance (the page sends back what it read, read-only fields too), getEntitlements", async () => {
    const l = await licensedWorld()
    await l.addLicense()
    const appearance = await l.owner.get("/appearance")
    expect(appearance.status).toBe(200)
    const updated = await l.owner.put("/appearance", { ...appearance.body, application_name: "Dash" })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    const banners = await l.owner.put("/appearance", {
      ...appearance.body,
      announcement_banners: [{ enabled: true, message: "Hello", background_color: "#004852" }]
    })
    expect(banners.status, JSON.stringify(banners.body)).toBe(200)
    const entitlements = await l.member.client.get("/entitlements")
    expect(entitlements.status).toBe(200)
    expect(makeValidator()("Entitlements")(entitlements.body)).toBe(true)
  })

  it("getLicenses, createLicense, refreshEntitlements, removeLicense", async () => {
    const l = await licensedWorld()
    expect((await l.owner.get("/licenses")).status).toBe(200)
    const created = await l.owner.post("/licenses", { license: await l.signer.sign(licenseClaims()) })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const refreshed = await l.owner.post("/licenses/refresh-entitlements")
    expect(refreshed.status).toBe(200)
    expect((await l.member.client.post("/licenses/refresh-entitlements")).status).toBe(403)
    const removed = await l.owner.delete(`/licenses/${created.body.id}`)
    expect(removed.status).toBe(200)
  })
})
