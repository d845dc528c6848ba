/**
 * The OAuth2 applications Workbay is the authorization server of (administrators):
 * `/oauth2-provider/apps` and their secrets.
 */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type OAuth2App = Schemas["OAuth2ProviderApp"]
export type OAuth2AppRequest = Schemas["PostOAuth2ProviderAppRequest"]

const app = (id: string) => ({ params: { path: { app: id } } })

export const oauth2Api = {
  apps: () => unwrap(client.GET("/api/v2/oauth2-provider/apps")),
  /** The provider's settings: whether clients may register themselves (RFC 7591). */
  settings: () => unwrap(client.GET("/api/v2/oauth2-provider/settings")),
  updateSettings: (enabled: boolean) =>
    unwrap(client.PUT("/api/v2/oauth2-provider/settings", { body: { dynamic_client_registration_enabled: enabled } })),
  app: (id: string) => unwrap(client.GET("/api/v2/oauth2-provider/apps/{app}", app(id))),
  create: (body: OAuth2AppRequest) => unwrap(client.POST("/api/v2/oauth2-provider/apps", { body })),
  update: (id: string, body: OAuth2AppRequest) =>
    unwrap(client.PUT("/api/v2/oauth2-provider/apps/{app}", { ...app(id), body })),
  remove: (id: string) => unwrap(client.DELETE("/api/v2/oauth2-provider/apps/{app}", app(id))),
  secrets: (id: string) => unwrap(client.GET("/api/v2/oauth2-provider/apps/{app}/secrets", app(id))),
  createSecret: (id: string) => unwrap(client.POST("/api/v2/oauth2-provider/apps/{app}/secrets", app(id))),
  removeSecret: (id: string, secret: string) =>
    unwrap(
      client.DELETE("/api/v2/oauth2-provider/apps/{app}/secrets/{secretID}", {
        params: { path: { app: id, secretID: secret } }
      })
    )
}

/** The form's values as the request (trimmed; an empty icon is none). */
export const appRequest = (form: FormData): OAuth2AppRequest => {
  const text = (name: string) => String(form.get(name) ?? "").trim()
  return { name: text("name"), callback_url: text("callback_url"), icon: text("icon") }
}
