/** The JSON Schemas of the audit and connection logs response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  mapOf,
  nullable,
  object,
  optional,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

const auditActions = [
  "create",
  "write",
  "delete",
  "start",
  "stop",
  "login",
  "logout",
  "register",
  "request_password_reset",
  "connect",
  "disconnect",
  "open",
  "close"
]

const connectionTypes = ["ssh", "vscode", "jetbrains", "reconnecting_pty", "workspace_app", "port_forwarding"]

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  AuditLog: object({
    id: uuid,
    request_id: uuid,
    time: dateTime,
    ip: string,
    user_agent: string,
    resource_type: string,
    resource_id: uuid,
    resource_target: string,
    resource_icon: string,
    action: { type: "string", enum: auditActions },
    diff: mapOf(object({ old: {}, new: {}, secret: boolean })),
    status_code: integer,
    additional_fields: { type: "object" },
    description: string,
    resource_link: string,
    is_deleted: boolean,
    organization_id: uuid,
    organization: optional(ref("MinimalOrganization")),
    // null when no user is known (an anonymous request that named none).
    user: nullable(ref("User"))
  }),
  AuditLogResponse: object({ audit_logs: arrayOf(ref("AuditLog")), count: integer, count_cap: integer }),
  ConnectionLog: object({
    id: uuid,
    connect_time: dateTime,
    organization: ref("MinimalOrganization"),
    workspace_owner_id: uuid,
    workspace_owner_username: string,
    workspace_id: uuid,
    workspace_name: string,
    agent_name: string,
    ip: string,
    type: { type: "string", enum: connectionTypes },
    web_info: optional(object({
      user_agent: string,
      // null when the request was anonymous.
      user: nullable(ref("User")),
      slug_or_port: string,
      status_code: integer
    })),
    ssh_info: optional(object({
      connection_id: uuid,
      disconnect_time: optional(dateTime),
      disconnect_reason: optional(string),
      exit_code: optional(integer)
    }))
  }),
  ConnectionLogResponse: object({ connection_logs: arrayOf(ref("ConnectionLog")), count: integer, count_cap: integer })
}
