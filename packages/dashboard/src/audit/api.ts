/** The audit log: `GET /audit?q=&limit=&offset=`. */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type AuditLog = Schemas["AuditLog"]

export const auditApi = {
  logs: (q: string, limit: number, offset: number) =>
    unwrap(client.GET("/api/v2/audit", { params: { query: { q, limit: String(limit), offset: String(offset) } } }))
}

/** An entry's description with its `{user}` and `{target}` filled in, as the described system shows it. */
export const describe = (log: AuditLog) =>
  log.description
    .replaceAll("{user}", log.user?.username ?? "Unknown user")
    .replaceAll("{target}", log.resource_target)
