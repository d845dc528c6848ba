/** The audit log (`GET /audit?q=&limit=&offset=`) and the connection log (`GET /connectionlog`, the same query). */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type AuditLog = Schemas["AuditLog"]
export type ConnectionLog = Schemas["ConnectionLog"]

const page = (q: string, limit: number, offset: number) => ({
  params: { query: { q, limit: String(limit), offset: String(offset) } }
})

export const auditApi = {
  logs: (q: string, limit: number, offset: number) => unwrap(client.GET("/api/v2/audit", page(q, limit, offset))),
  connections: (q: string, limit: number, offset: number) =>
    unwrap(client.GET("/api/v2/connectionlog", page(q, limit, offset)))
}

/** An entry's description with its `{user}` and `{target}` filled in, as the described system shows it. */
export const describe = (log: AuditLog) =>
  log.description
    .replaceAll("{user}", log.user?.username ?? "Unknown user")
    .replaceAll("{target}", log.resource_target)

/** A connection's type as people say it. */
export const connectionTypeName = (type: ConnectionLog["type"]) =>
  ({
    ssh: "SSH",
    vscode: "VS Code",
    jetbrains: "JetBrains",
    reconnecting_pty: "Web terminal",
    workspace_app: "App",
    port_forwarding: "Port forward"
  })[type]
