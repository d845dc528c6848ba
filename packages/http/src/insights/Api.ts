/**
 * Insights routes (the described system's Insights group): daily active users, template usage,
 * user activity and latency, user status counts, and a template's daily active users
 * (docs/insights.md). All are reads of the hourly rollups.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  DausQuery,
  DAUsResponse,
  GetUserStatusCountsResponse,
  InsightsRangeQuery,
  isUuid,
  TemplateInsightsQuery,
  TemplateInsightsResponse,
  UserActivityInsightsResponse,
  UserLatencyInsightsResponse,
  UserStatusCountsQuery
} from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, Forbidden, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"

const TemplatePath = Schema.Struct({
  template: Schema.String.pipe(Schema.filter((s) => isUuid(s) || "Must be a template id (a UUID)."))
})

export class InsightsApi extends HttpApiGroup.make("insights")
  .add(
    HttpApiEndpoint.get("daus", "/insights/daus")
      .setUrlParams(DausQuery)
      .addSuccess(DAUsResponse)
  )
  .add(
    HttpApiEndpoint.get("templates", "/insights/templates")
      .setUrlParams(TemplateInsightsQuery)
      .addSuccess(TemplateInsightsResponse)
  )
  .add(
    HttpApiEndpoint.get("userActivity", "/insights/user-activity").setUrlParams(InsightsRangeQuery).addSuccess(
      UserActivityInsightsResponse
    )
  )
  .add(
    HttpApiEndpoint.get("userLatency", "/insights/user-latency").setUrlParams(InsightsRangeQuery).addSuccess(
      UserLatencyInsightsResponse
    )
  )
  .add(
    HttpApiEndpoint.get("userStatusCounts", "/insights/user-status-counts")
      .setUrlParams(UserStatusCountsQuery)
      .addSuccess(GetUserStatusCountsResponse)
  )
  .add(
    HttpApiEndpoint.get("templateDaus", "/templates/:template/daus")
      .setPath(TemplatePath)
      .setUrlParams(DausQuery)
      .addSuccess(DAUsResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
