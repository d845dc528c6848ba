/** Audit and connection log routes. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AuditLogsPage, ConnectionLogsPage } from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, Forbidden, NonNegativeIntParam, optionalParam } from "../Common.js"
import { Authentication } from "../Security.js"

/** `limit` is required on both logs (0 takes the default page of 100; more than 1000 is capped). */
const LogPageParams = Schema.Struct({
  q: optionalParam(Schema.String),
  limit: NonNegativeIntParam,
  offset: optionalParam(NonNegativeIntParam)
})

export class AuditApi extends HttpApiGroup.make("audit")
  .add(HttpApiEndpoint.get("auditLogs", "/audit").setUrlParams(LogPageParams).addSuccess(AuditLogsPage))
  .add(
    HttpApiEndpoint.get("connectionLogs", "/connectionlog").setUrlParams(LogPageParams).addSuccess(ConnectionLogsPage)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
