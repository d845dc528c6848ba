/**
 * The OAuth2 provider's settings (`GET/PUT /oauth2-provider/settings`, as the described
 * system's): whether clients may register themselves (RFC 7591, `POST /oauth2/register`). Stored
 * in the site configuration (`site_configs`), read from the database each time so every replica
 * sees a change at once. Reading takes `deployment_config` read, changing it `deployment_config`
 * update (owners); a change is audited as `oauth2_provider_settings`.
 */
import { Effect, Option } from "effect"
import { authorize } from "../Actor.js"
import { auditResource, NIL_UUID } from "../Audit.js"
import { LicenseRepo } from "../enterprise/License.js"
import { span } from "../Tracing.js"
import { OAuth2ProviderSettings } from "./OAuth2App.js"

export const OAUTH2_SETTINGS_KEY = "oauth2_provider_settings"

/**
 * Whether dynamic registration is on when no owner has set it. The described system starts with
 * it off (since it gained the setting); Workbay served registration before it had the setting, so
 * it starts on: deployments and clients that register themselves keep working (docs/oauth2.md).
 */
export const DYNAMIC_REGISTRATION_DEFAULT = true

const parse = (stored: string): boolean => {
  try {
    const value = (JSON.parse(stored) as { dynamic_client_registration_enabled?: unknown })
      .dynamic_client_registration_enabled
    return typeof value === "boolean" ? value : DYNAMIC_REGISTRATION_DEFAULT
  } catch {
    return DYNAMIC_REGISTRATION_DEFAULT
  }
}

/** Whether clients may register themselves now (no authorization: the registration endpoint asks). */
export const dynamicRegistrationEnabled: Effect.Effect<boolean, never, LicenseRepo> = Effect.flatMap(
  LicenseRepo,
  (repo) =>
    Effect.map(
      repo.siteConfig(OAUTH2_SETTINGS_KEY),
      Option.match({ onNone: () => DYNAMIC_REGISTRATION_DEFAULT, onSome: parse })
    )
)

export class OAuth2Settings extends Effect.Service<OAuth2Settings>()("@workbay/core/OAuth2Settings", {
  effect: Effect.gen(function*() {
    const repo = yield* LicenseRepo
    const enabled = Effect.provideService(dynamicRegistrationEnabled, LicenseRepo, repo)

    /** GET /oauth2-provider/settings. */
    const get = Effect.gen(function*() {
      yield* authorize("read", { type: "deployment_config" })
      return new OAuth2ProviderSettings({ dynamic_client_registration_enabled: yield* enabled }, true)
    }).pipe(span("OAuth2Settings.get"))

    /** PUT /oauth2-provider/settings: an omitted field keeps its value; the settings as they are now. */
    const update = (input: OAuth2ProviderSettings) =>
      Effect.gen(function*() {
        yield* authorize("update", { type: "deployment_config" })
        const before = yield* enabled
        const after = input.dynamic_client_registration_enabled ?? before
        if (input.dynamic_client_registration_enabled !== undefined) {
          yield* repo.setSiteConfig(OAUTH2_SETTINGS_KEY, JSON.stringify({ dynamic_client_registration_enabled: after }))
        }
        yield* auditResource(
          { type: "oauth2_provider_settings", id: NIL_UUID, target: "" },
          { dynamic_client_registration_enabled: before },
          { dynamic_client_registration_enabled: after }
        )
        return new OAuth2ProviderSettings({ dynamic_client_registration_enabled: after }, true)
      }).pipe(span("OAuth2Settings.update"))

    return { get, update } as const
  })
}) {}
