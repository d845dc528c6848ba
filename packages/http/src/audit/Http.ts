/** Handlers of the audit group. */
import { AuditLogs } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const AuditHttp = implement(WorkbayApi, "audit", {
  auditLogs: ({ urlParams }) => Effect.flatMap(AuditLogs, (a) => a.list(urlParams)),
  connectionLogs: ({ urlParams }) => Effect.flatMap(AuditLogs, (a) => a.listConnections(urlParams))
})
