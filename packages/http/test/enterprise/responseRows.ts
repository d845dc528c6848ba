/**
 * The response schema table's rows of the appearance, license and entitlement endpoints
 * (packages/http/src/enterprise/), run by ../responseSchemas.ts.
 */
import { type Row, row } from "../responseSchemas.js"
import { licensedWorld } from "./fixtures.js"
import { licenseClaims } from "./licenses.js"

export const responseRows: ReadonlyArray<Row> = [
  // appearance, licenses and entitlements: licenses on a server with a license key (enterprise/fixtures.ts)
  row("enterprise.appearance", "GET /api/v2/appearance", 200, "AppearanceConfig", async (w) => {
    await w.owner.put("/appearance", {
      application_name: "Shapes",
      logo_url: "https://example.com/logo.png",
      service_banner: { enabled: true, message: "Hello", background_color: "#123456" },
      announcement_banners: [{ enabled: false, message: "", background_color: "#abcdef" }]
    })
    return [await w.bob.client.get("/appearance"), await w.alice.client.get("/appearance")]
  }),
  row("enterprise.updateAppearance", "PUT /api/v2/appearance", 200, "UpdateAppearanceConfig", async (w) => [
    await w.owner.put("/appearance", { application_name: "Shapes", service_banner: { enabled: false } }),
    await w.owner.put("/appearance", {
      application_name: "Shapes",
      logo_url: "https://example.com/logo.png",
      service_banner: { enabled: true, message: "Hello", background_color: "#123456" },
      announcement_banners: [{ enabled: true, message: "Up", background_color: "#abcdef" }]
    })
  ]),
  row("enterprise.entitlements", "GET /api/v2/entitlements", 200, "Entitlements", async (w) => {
    const l = await licensedWorld()
    await l.addLicense({ features: { user_limit: 1, managed_agent_limit: 100 } })
    return [await w.bob.client.get("/entitlements"), await l.member.client.get("/entitlements")]
  }),
  row("enterprise.replicas", "GET /api/v2/replicas", 200, "[Replica]", (w) => w.owner.get("/replicas")),
  row("enterprise.licenses", "GET /api/v2/licenses", 200, "[License]", async (w) => {
    const l = await licensedWorld()
    await l.addLicense()
    return [await w.owner.get("/licenses"), await l.owner.get("/licenses"), await l.member.client.get("/licenses")]
  }),
  row("enterprise.addLicense", "POST /api/v2/licenses", 201, "License", async () => {
    const l = await licensedWorld()
    return l.owner.post("/licenses", { license: await l.signer.sign(licenseClaims({ trial: true })) })
  }),
  row("enterprise.refreshEntitlements", "POST /api/v2/licenses/refresh-entitlements", 200, "Response", async (w) => [
    await w.owner.post("/licenses/refresh-entitlements"),
    await (await licensedWorld()).owner.post("/licenses/refresh-entitlements")
  ]),
  row("enterprise.deleteLicense", "DELETE /api/v2/licenses/:id", 200, "none", async () => {
    const l = await licensedWorld()
    return l.owner.delete(`/licenses/${await l.addLicense()}`)
  })
]
