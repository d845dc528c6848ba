/**
 * Debug routes of owners (the `debug_info` resource): the health report, its settings (the
 * dismissed sections) and the WebSocket echo its WebSocket check goes through. Liveness (`/healthz`) and readiness (`/readyz`) are not
 * part of the API: the dispatcher answers them (Probes.ts). See docs/health.md.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { HealthcheckReport, HealthReportQuery, HealthSettings, UpdateHealthSettingsRequest } from "@workbay/core"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

export class DebugApi extends HttpApiGroup.make("debug")
  .add(
    HttpApiEndpoint.get("health", "/debug/health")
      .setUrlParams(HealthReportQuery)
      .addSuccess(HealthcheckReport)
  )
  .add(HttpApiEndpoint.get("settings", "/debug/health/settings").addSuccess(HealthSettings))
  .add(
    HttpApiEndpoint.put("updateSettings", "/debug/health/settings").annotate(Audited, audit("health_settings"))
      .setPayload(UpdateHealthSettingsRequest)
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
