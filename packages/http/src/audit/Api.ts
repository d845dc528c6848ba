/** Audit and connection log routes. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AuditLogsPage, ConnectionLogsPage, ListLogsQuery } from "@workbay/core"
import { BadRequest, Forbidden } from "../Common.js"
import { Authentication } from "../Security.js"

export class AuditApi extends HttpApiGroup.make("audit")
  .add(HttpApiEndpoint.get("auditLogs", "/audit").setUrlParams(ListLogsQuery).addSuccess(AuditLogsPage))
  .add(
    HttpApiEndpoint.get("connectionLogs", "/connectionlog").setUrlParams(ListLogsQuery).addSuccess(ConnectionLogsPage)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
