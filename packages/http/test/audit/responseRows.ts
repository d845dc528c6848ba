/**
 * The response schema table's rows of the audit and connection log endpoints (packages/http/src/audit/), run by
 * ../responseSchemas.ts.
 */
import { type Row, row } from "../responseSchemas.js"

export const responseRows: ReadonlyArray<Row> = [
  // audit and connection logs: last, so they read the entries every row above made
  row("audit.auditLogs", "GET /api/v2/audit", 200, "AuditLogResponse", async (w) => [
    await w.owner.get("/audit?limit=1000"),
    await w.owner.get(`/audit?limit=100&q=${encodeURIComponent("resource_type:api_key")}`),
    await w.alice.client.get(`/audit?limit=100&q=${encodeURIComponent(`organization:${w.org.name}`)}`)
  ]),
  row(
    "audit.connectionLogs",
    "GET /api/v2/connectionlog",
    200,
    "ConnectionLogResponse",
    (w) => w.owner.get("/connectionlog?limit=100")
  )
]
