/**
 * The prebuilds settings (`GET/PUT /prebuilds/settings`, codersdk `PrebuildsSettings`): whether
 * the reconciler is paused. Stored as the described system stores them, JSON under the
 * `site_configs` key `prebuilds_settings` (`{}` when never set), and read from the database at
 * every tick, so a pause reaches every replica at once (docs/prebuilds.md). As the described
 * system's dbauthz: any signed-in user reads them (`GetPrebuildsSettings` checks nothing),
 * changing them needs `update` on `deployment_config`.
 */
import { Effect, Option, Schema } from "effect"
import { authorize } from "../Actor.js"
import { auditResource, NIL_UUID } from "../Audit.js"
import { LicenseRepo } from "../enterprise/License.js"
import { wireName } from "../Requests.js"
import { span } from "../Tracing.js"

/** The `site_configs` key, the described system's. */
export const PREBUILDS_SETTINGS_KEY = "prebuilds_settings"

/** GET and PUT /prebuilds/settings. */
export class PrebuildsSettings extends Schema.Class<PrebuildsSettings>("PrebuildsSettings")({
  reconciliation_paused: Schema.Boolean
}) {}

/** PUT /prebuilds/settings. */
export class UpdatePrebuildsSettingsRequest
  extends Schema.Class<UpdatePrebuildsSettingsRequest>("UpdatePrebuildsSettings")({
    reconciliation_paused: Schema.Boolean.annotations({
      message: () => ({ message: "Must be true or false.", override: true })
    })
  }, wireName("PrebuildsSettings"))
{}

/** The stored JSON, as the described system writes it (`json.Marshal` of the settings). */
const encode = (paused: boolean) => JSON.stringify({ reconciliation_paused: paused })

const parse = (stored: string): boolean => {
  try {
    return (JSON.parse(stored) as { reconciliation_paused?: unknown }).reconciliation_paused === true
  } catch {
    return false
  }
}

/** The stored settings' text (`{}` when never set, as the described system's query answers). */
const storedText: Effect.Effect<string, never, LicenseRepo> = Effect.flatMap(
  LicenseRepo,
  (repo) => Effect.map(repo.siteConfig(PREBUILDS_SETTINGS_KEY), Option.getOrElse(() => "{}"))
)

/** Whether reconciliation is paused now (no authorization: the reconciler asks at each tick). */
export const reconciliationPaused: Effect.Effect<boolean, never, LicenseRepo> = Effect.map(storedText, parse)

/** GET /prebuilds/settings. */
export const getPrebuildsSettings: Effect.Effect<PrebuildsSettings, never, LicenseRepo> = Effect.map(
  reconciliationPaused,
  (reconciliation_paused) => new PrebuildsSettings({ reconciliation_paused }, true)
).pipe(span("PrebuildsSettings.get"))

/**
 * PUT /prebuilds/settings: `update` on `deployment_config`; Some of the settings, or None when the
 * stored text would not change (304, as the described system compares the JSON). Audited as a
 * write of `prebuilds_settings`.
 */
export const updatePrebuildsSettings = (input: UpdatePrebuildsSettingsRequest) =>
  Effect.gen(function*() {
    yield* authorize("update", { type: "deployment_config" })
    const before = yield* storedText
    const after = encode(input.reconciliation_paused)
    if (before === after) return Option.none<PrebuildsSettings>()
    const repo = yield* LicenseRepo
    yield* repo.setSiteConfig(PREBUILDS_SETTINGS_KEY, after)
    yield* auditResource(
      { type: "prebuilds_settings", id: NIL_UUID, target: "" },
      { reconciliation_paused: parse(before) },
      { reconciliation_paused: input.reconciliation_paused }
    )
    return Option.some(new PrebuildsSettings({ reconciliation_paused: input.reconciliation_paused }, true))
  }).pipe(span("PrebuildsSettings.update"))
