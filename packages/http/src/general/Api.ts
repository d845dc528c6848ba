/** General routes: root, build info, update check, deployment information, experiments, CSP reports. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { BuildInfo, DeploymentConfigResponse, DeploymentSsh, ResponseBody, UpdateCheck } from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import { BadRequest, EmptyOk, Forbidden } from "../Common.js"
import { Authentication } from "../Security.js"

/** Routes that work without a token. */
export class GeneralApi extends HttpApiGroup.make("general")
  .add(HttpApiEndpoint.get("root", "/").addSuccess(ResponseBody))
  .add(HttpApiEndpoint.get("buildInfo", "/buildinfo").addSuccess(BuildInfo))
  .add(HttpApiEndpoint.get("updateCheck", "/updatecheck").addSuccess(UpdateCheck))
  .prefix("/api/v2")
{}

export class DeploymentStats extends Schema.Class<DeploymentStats>("DeploymentStats")({
  aggregated_from: Schema.Date,
  collected_at: Schema.Date,
  next_update_at: Schema.Date,
  session_count: Schema.Struct({
    jetbrains: Schema.Int,
    reconnecting_pty: Schema.Int,
    ssh: Schema.Int,
    vscode: Schema.Int
  }),
  workspaces: Schema.Struct({
    building: Schema.Int,
    failed: Schema.Int,
    pending: Schema.Int,
    running: Schema.Int,
    stopped: Schema.Int,
    rx_bytes: Schema.Int,
    tx_bytes: Schema.Int,
    // The described system's WorkspaceConnectionLatencyMS has no json tags: its keys are the Go field names.
    connection_latency_ms: Schema.Struct({ P50: Schema.Number, P95: Schema.Number })
  })
}) {}

/** Deployment routes that need a caller. */
export class DeploymentApi extends HttpApiGroup.make("deployment")
  .add(
    HttpApiEndpoint.post("cspReport", "/csp/reports").annotate(Audited, false)
      .setPayload(Schema.Struct({ "csp-report": Schema.Record({ key: Schema.String, value: Schema.Unknown }) }))
      .addSuccess(EmptyOk)
  )
  .add(HttpApiEndpoint.get("config", "/deployment/config").addSuccess(DeploymentConfigResponse))
  .add(HttpApiEndpoint.get("ssh", "/deployment/ssh").addSuccess(DeploymentSsh))
  .add(HttpApiEndpoint.get("stats", "/deployment/stats").addSuccess(DeploymentStats))
  .add(HttpApiEndpoint.get("experiments", "/experiments").addSuccess(Schema.Array(Schema.String)))
  .add(HttpApiEndpoint.get("availableExperiments", "/experiments/available").addSuccess(Schema.Array(Schema.String)))
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
