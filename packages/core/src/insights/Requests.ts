/**
 * The queries of the insights area's routes (`/insights/...`, `/templates/{template}/daus`). The
 * routes in `http/src/insights/` declare them; the services take their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { isUuid } from "../Ids.js"
import { IntParam, optionalParam } from "../Requests.js"
import { MAX_TZ_OFFSET_HOURS } from "./Insight.js"

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

/** The query of GET /insights/daus and GET /templates/{template}/daus. */
export const DausQuery = Schema.Struct({ tz_offset: optionalParam(TzOffset) })

/** The query of GET /insights/user-activity and /insights/user-latency: a time range, and the templates. */
export const InsightsRangeQuery = Schema.Struct({
  start_time: Time,
  end_time: Time,
  template_ids: optionalParam(TemplateIds)
})

const Interval = Schema.Literal("day", "week").annotations({
  message: () => ({ message: "Must be one of [day week].", override: true })
})

/** The query of GET /insights/templates: a range, and the interval of its series. */
export const TemplateInsightsQuery = Schema.Struct({ ...InsightsRangeQuery.fields, interval: Interval })

/** The query of GET /insights/user-status-counts. */
export const UserStatusCountsQuery = Schema.Struct({
  timezone: optionalParam(Schema.String.pipe(Schema.maxLength(64, { message: () => "At most 64 characters." }))),
  tz_offset: optionalParam(TzOffset),
  // Deprecated in the described system: read and ignored.
  interval: optionalParam(IntParam)
})
