/**
 * Debug routes of owners (the `debug_info` resource): the health report, its settings (the
 * dismissed sections) and the WebSocket echo its WebSocket check goes through. Liveness (`/healthz`) and readiness (`/readyz`) are not
 * part of the API: the dispatcher answers them (Probes.ts). See docs/health.md.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { HEALTH_SECTIONS, HealthcheckReport, HealthSection, HealthSettings } from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, BooleanParam, Forbidden, optionalOr, optionalParam, wireName } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

/**
 * codersdk `UpdateHealthSettings`: the sections to dismiss (absent or `null`: none). An unknown
 * section is a 400 naming its entry (the described system answers 500).
 */
export class UpdateHealthSettings extends Schema.Class<UpdateHealthSettings>("UpdateHealthSettings")({
  dismissed_healthchecks: optionalOr(
    Schema.Array(HealthSection).pipe(
      Schema.maxItems(64, { message: () => `At most 64 sections (there are ${HEALTH_SECTIONS.length}).` })
    ),
    () => []
  )
}, wireName("UpdateHealthSettings")) {}

export class DebugApi extends HttpApiGroup.make("debug")
  .add(
    HttpApiEndpoint.get("health", "/debug/health")
      .setUrlParams(Schema.Struct({ force: optionalParam(BooleanParam) }))
      .addSuccess(HealthcheckReport)
  )
  .add(HttpApiEndpoint.get("settings", "/debug/health/settings").addSuccess(HealthSettings))
  .add(
    HttpApiEndpoint.put("updateSettings", "/debug/health/settings").annotate(Audited, audit("health_settings"))
      .setPayload(UpdateHealthSettings)
      .addSuccess(HealthSettings)
      // The same sections as stored: nothing written, 304 with no body, as the described system answers.
      .addSuccess(HttpApiSchema.Empty(304))
  )
  .add(HttpApiEndpoint.get("ws", "/debug/ws").addSuccess(WebSocketUpgradeSchema))
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
