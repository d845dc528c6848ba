/**
 * The queries of the audit area's routes (`/audit`, `/connectionlog`). The routes in
 * `http/src/audit/` declare them; the services take their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { NonNegativeIntParam, optionalParam } from "../Requests.js"

/** `limit` is required on both logs (0 takes the default page of 100; more than 1000 is capped). */
export const ListLogsQuery = Schema.Struct({
  q: optionalParam(Schema.String),
  limit: NonNegativeIntParam,
  offset: optionalParam(NonNegativeIntParam)
})
