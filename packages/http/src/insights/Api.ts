/**
 * Insights routes (the described system's Insights group): daily active users, template usage,
 * user activity and latency, user status counts, and a template's daily active users
 * (docs/insights.md). All are reads of the hourly rollups.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  DAUsResponse,
  GetUserStatusCountsResponse,
  isUuid,
  MAX_TZ_OFFSET_HOURS,
  TemplateInsightsResponse,
  UserActivityInsightsResponse,
  UserLatencyInsightsResponse
} from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, Forbidden, IntParam, NotFound, optionalParam } from "../Common.js"
import { Authentication } from "../Security.js"

/** `tz_offset`: whole hours east of UTC, between the real offsets' bounds. */
const TzOffset = IntParam.pipe(
  Schema.between(-MAX_TZ_OFFSET_HOURS, MAX_TZ_OFFSET_HOURS, {
    message: () => `Must be a whole number of hours between -${MAX_TZ_OFFSET_HOURS} and ${MAX_TZ_OFFSET_HOURS}.`
  })
)

/** A required query time (RFC 3339; its rules are checked by the service, which keeps the caller's offset). */
const Time = Schema.String.pipe(
  Schema.minLength(1, { message: () => "The parameter is required." }),
  Schema.maxLength(64, { message: () => "At most 64 characters." })
)

/** `template_ids`: comma-separated template ids (the dispatcher splits them); one validation for the parameter. */
const TemplateIds = Schema.Array(Schema.String).pipe(
  Schema.maxItems(100, { message: () => "At most 100 template ids." }),
  Schema.filter((ids) => {
    const bad = ids.filter((id) => !isUuid(id))
    return bad.length === 0 || `Not a UUID: ${bad.slice(0, 5).map((b) => `"${b.slice(0, 64)}"`).join(", ")}.`
  })
)

const RangeQuery = Schema.Struct({
  start_time: Time,
  end_time: Time,
  template_ids: optionalParam(TemplateIds)
})

const Interval = Schema.Literal("day", "week").annotations({
  message: () => ({ message: "Must be one of [day week].", override: true })
})

const TemplatePath = Schema.Struct({
  template: Schema.String.pipe(Schema.filter((s) => isUuid(s) || "Must be a template id (a UUID)."))
})

export class InsightsApi extends HttpApiGroup.make("insights")
  .add(
    HttpApiEndpoint.get("daus", "/insights/daus")
      .setUrlParams(Schema.Struct({ tz_offset: optionalParam(TzOffset) }))
      .addSuccess(DAUsResponse)
  )
  .add(
    HttpApiEndpoint.get("templates", "/insights/templates")
      .setUrlParams(Schema.Struct({ ...RangeQuery.fields, interval: Interval }))
      .addSuccess(TemplateInsightsResponse)
  )
  .add(
    HttpApiEndpoint.get("userActivity", "/insights/user-activity").setUrlParams(RangeQuery).addSuccess(
      UserActivityInsightsResponse
    )
  )
  .add(
    HttpApiEndpoint.get("userLatency", "/insights/user-latency").setUrlParams(RangeQuery).addSuccess(
      UserLatencyInsightsResponse
    )
  )
  .add(
    HttpApiEndpoint.get("userStatusCounts", "/insights/user-status-counts")
      .setUrlParams(Schema.Struct({
        timezone: optionalParam(Schema.String.pipe(Schema.maxLength(64, { message: () => "At most 64 characters." }))),
        tz_offset: optionalParam(TzOffset),
        // Deprecated in the described system: read and ignored.
        interval: optionalParam(IntParam)
      }))
      .addSuccess(GetUserStatusCountsResponse)
  )
  .add(
    HttpApiEndpoint.get("templateDaus", "/templates/:template/daus")
      .setPath(TemplatePath)
      .setUrlParams(Schema.Struct({ tz_offset: optionalParam(TzOffset) }))
      .addSuccess(DAUsResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
