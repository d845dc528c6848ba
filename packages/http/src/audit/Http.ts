/** Handlers of the audit group. */
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const AuditHttp = implement(WorkbayApi, "audit", {})
