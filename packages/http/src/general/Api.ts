/** General routes: root, build info, update check, deployment information, experiments, CSP reports. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  BuildInfo,
  CspReportRequest,
  DeploymentConfigResponse,
  DeploymentSsh,
  DeploymentStats,
  ResponseBody,
  UpdateCheck
} from "@workbay/core"
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

/** Deployment routes that need a caller. */
export class DeploymentApi extends HttpApiGroup.make("deployment")
  .add(
    HttpApiEndpoint.post("cspReport", "/csp/reports").annotate(Audited, false)
      .setPayload(CspReportRequest)
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
