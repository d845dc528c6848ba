/**
 * The account settings' calls, all on the signed-in user ("me"): profile, password, appearance,
 * API tokens, the git SSH key, quiet hours and linked external auth.
 */
import { client, type Schemas, unwrap } from "../../api/client.ts"

const me = { path: { user: "me" } }

export type ApiToken = Schemas["APIKeyWithOwner"]
export type QuietHours = Schemas["UserQuietHoursScheduleResponse"]

/** Nanoseconds per day: token lifetimes travel in nanoseconds, as the described system's. */
export const DAY_NS = 86_400 * 1_000_000_000

export const settingsApi = {
  updateProfile: (body: { username: string; name: string }) =>
    unwrap(client.PUT("/api/v2/users/{user}/profile", { params: me, body })),
  updatePassword: (body: { old_password: string; password: string }) =>
    unwrap(client.PUT("/api/v2/users/{user}/password", { params: me, body })),
  appearance: () => unwrap(client.GET("/api/v2/users/{user}/appearance", { params: me })),
  updateAppearance: (theme_preference: string) =>
    unwrap(client.PUT("/api/v2/users/{user}/appearance", { params: me, body: { theme_preference } })),
  tokens: () => unwrap(client.GET("/api/v2/users/{user}/keys/tokens", { params: me })),
  tokenConfig: () => unwrap(client.GET("/api/v2/users/{user}/keys/tokens/tokenconfig", { params: me })),
  createToken: (body: { token_name: string; lifetime: number }) =>
    unwrap(client.POST("/api/v2/users/{user}/keys/tokens", { params: me, body })),
  deleteToken: (keyname: string) =>
    unwrap(client.DELETE("/api/v2/users/{user}/keys/tokens/{keyname}", { params: { path: { user: "me", keyname } } })),
  gitSshKey: () => unwrap(client.GET("/api/v2/users/{user}/gitsshkey", { params: me })),
  regenerateGitSshKey: () => unwrap(client.PUT("/api/v2/users/{user}/gitsshkey", { params: me })),
  quietHours: () => unwrap(client.GET("/api/v2/users/{user}/quiet-hours", { params: me })),
  updateQuietHours: (schedule: string) =>
    unwrap(client.PUT("/api/v2/users/{user}/quiet-hours", { params: me, body: { schedule } })),
  externalAuth: () => unwrap(client.GET("/api/v2/external-auth")),
  unlinkExternalAuth: (provider: string) =>
    unwrap(client.DELETE("/api/v2/external-auth/{externalauth}", { params: { path: { externalauth: provider } } }))
}
