/**
 * Debug routes of owners (the `debug_info` resource): the health report and the WebSocket echo
 * its WebSocket check goes through. Liveness (`/healthz`) and readiness (`/readyz`) are not
 * part of the API: the dispatcher answers them (Probes.ts). See docs/health.md.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { HealthcheckReport } from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, BooleanParam, Forbidden, optionalParam } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

export class DebugApi extends HttpApiGroup.make("debug")
  .add(
    HttpApiEndpoint.get("health", "/debug/health")
      .setUrlParams(Schema.Struct({ force: optionalParam(BooleanParam) }))
      .addSuccess(HealthcheckReport)
  )
  .add(HttpApiEndpoint.get("ws", "/debug/ws").addSuccess(WebSocketUpgradeSchema))
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
