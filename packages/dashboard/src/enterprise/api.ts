/** The enterprise area: appearance, licenses and entitlements, the health report. */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type Appearance = Schemas["AppearanceConfig"]

export const enterpriseApi = {
  appearance: () => unwrap(client.GET("/api/v2/appearance")),
  updateAppearance: (body: Schemas["UpdateAppearanceConfig"]) => unwrap(client.PUT("/api/v2/appearance", { body })),
  licenses: () => unwrap(client.GET("/api/v2/licenses")),
  addLicense: (license: string) => unwrap(client.POST("/api/v2/licenses", { body: { license } })),
  deleteLicense: (id: number) =>
    unwrap(client.DELETE("/api/v2/licenses/{id}", { params: { path: { id: String(id) } } })),
  entitlements: () => unwrap(client.GET("/api/v2/entitlements")),
  health: () => unwrap(client.GET("/api/v2/debug/health"))
}
