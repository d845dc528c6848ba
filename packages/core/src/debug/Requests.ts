/**
 * The request bodies and queries of the debug area's routes (`/debug/...`). The routes in
 * `http/src/debug/` declare them; the services take their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { BooleanParam, optionalOr, optionalParam, wireName } from "../Requests.js"
import { HEALTH_SECTIONS, HealthSection } from "./HealthSettings.js"

/** The query of GET /debug/health: `force` skips the cached report. */
export const HealthReportQuery = Schema.Struct({ force: optionalParam(BooleanParam) })

/**
 * codersdk `UpdateHealthSettings`: the sections to dismiss (absent or `null`: none). An unknown
 * section is a 400 naming its entry (the described system answers 500).
 */
export class UpdateHealthSettingsRequest extends Schema.Class<UpdateHealthSettingsRequest>("UpdateHealthSettings")({
  dismissed_healthchecks: optionalOr(
    Schema.Array(HealthSection).pipe(
      Schema.maxItems(64, { message: () => `At most 64 sections (there are ${HEALTH_SECTIONS.length}).` })
    ),
    () => []
  )
}, wireName("UpdateHealthSettings")) {}
