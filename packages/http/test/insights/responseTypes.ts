/** The JSON Schemas of the insights response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  dateTime,
  integer,
  type JsonSchema,
  mapOf,
  number,
  object,
  optional,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  DAUsResponse: object({
    entries: arrayOf(object({ amount: integer, date: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } })),
    tz_hour_offset: integer
  }),
  TemplateAppUsage: object({
    display_name: string,
    icon: string,
    seconds: integer,
    slug: string,
    template_ids: arrayOf(uuid),
    times_used: integer,
    type: { type: "string", enum: ["builtin", "app"] }
  }),
  TemplateParameterUsage: object({
    description: string,
    display_name: string,
    name: string,
    type: string,
    template_ids: arrayOf(uuid),
    options: optional(arrayOf(object({ description: string, icon: string, name: string, value: string }))),
    values: arrayOf(object({ count: integer, value: string }))
  }),
  TemplateInsightsResponse: object({
    interval_reports: arrayOf(object({
      active_users: integer,
      end_time: dateTime,
      interval: { type: "string", enum: ["day", "week"] },
      start_time: dateTime,
      template_ids: arrayOf(uuid)
    })),
    report: object({
      active_users: integer,
      apps_usage: arrayOf(ref("TemplateAppUsage")),
      end_time: dateTime,
      parameters_usage: arrayOf(ref("TemplateParameterUsage")),
      start_time: dateTime,
      template_ids: arrayOf(uuid)
    })
  }),
  // The reference marks avatar_url `uri` but leaves it in when empty (no omitempty): a string here.
  UserActivityInsightsResponse: object({
    report: object({
      end_time: dateTime,
      start_time: dateTime,
      template_ids: arrayOf(uuid),
      users: arrayOf(
        object({ avatar_url: string, seconds: integer, template_ids: arrayOf(uuid), user_id: uuid, username: string })
      )
    })
  }),
  UserLatencyInsightsResponse: object({
    report: object({
      end_time: dateTime,
      start_time: dateTime,
      template_ids: arrayOf(uuid),
      users: arrayOf(object({
        avatar_url: string,
        latency_ms: object({ p50: number, p95: number }),
        template_ids: arrayOf(uuid),
        user_id: uuid,
        username: string
      }))
    })
  }),
  GetUserStatusCountsResponse: object({ status_counts: mapOf(arrayOf(object({ count: integer, date: dateTime }))) })
}
