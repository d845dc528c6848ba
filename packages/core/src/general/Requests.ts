/**
 * The request bodies of the general area's routes. The routes in `http/src/general/` declare them.
 */
import { Schema } from "effect"

/** POST /csp/reports: a browser's Content Security Policy violation report, logged as given. */
export const CspReportRequest = Schema.Struct({
  "csp-report": Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
