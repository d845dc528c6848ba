/** The JSON Schemas of the AI tasks response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  nullable,
  object,
  omitted,
  ref,
  string,
  uri,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // The described system's codersdk.Task (docs/reference/api/schemas.md), NullUUIDs as {uuid, valid}.
  Task: object({
    id: uuid,
    organization_id: uuid,
    owner_id: uuid,
    owner_name: string,
    owner_avatar_url: omitted(uri),
    name: string,
    display_name: string,
    template_id: uuid,
    template_version_id: uuid,
    template_name: string,
    template_display_name: string,
    template_icon: string,
    workspace_id: object({ uuid: string, valid: boolean }, ["uuid", "valid"]),
    workspace_name: string,
    workspace_status: omitted({
      type: "string",
      enum: [
        "pending",
        "starting",
        "running",
        "stopping",
        "stopped",
        "failed",
        "canceling",
        "canceled",
        "deleting",
        "deleted"
      ]
    }),
    workspace_build_number: omitted(integer),
    workspace_agent_id: object({ uuid: string, valid: boolean }, ["uuid", "valid"]),
    workspace_agent_lifecycle: nullable({
      type: "string",
      enum: [
        "created",
        "starting",
        "start_timeout",
        "start_error",
        "ready",
        "shutting_down",
        "shutdown_timeout",
        "shutdown_error",
        "off"
      ]
    }),
    workspace_agent_health: nullable(object({ healthy: boolean, reason: omitted(string) }, ["healthy"])),
    workspace_app_id: object({ uuid: string, valid: boolean }, ["uuid", "valid"]),
    initial_prompt: string,
    status: { type: "string", enum: ["pending", "initializing", "active", "paused", "unknown", "error"] },
    current_state: nullable(object({
      timestamp: dateTime,
      state: { type: "string", enum: ["working", "idle", "complete", "failed"] },
      message: string,
      uri: string
    }, ["timestamp", "state", "message", "uri"])),
    created_at: dateTime,
    updated_at: dateTime
  }, [
    "id",
    "organization_id",
    "owner_id",
    "owner_name",
    "name",
    "display_name",
    "template_id",
    "template_version_id",
    "template_name",
    "template_display_name",
    "template_icon",
    "workspace_id",
    "workspace_name",
    "workspace_agent_id",
    "workspace_agent_lifecycle",
    "workspace_agent_health",
    "workspace_app_id",
    "initial_prompt",
    "status",
    "current_state",
    "created_at",
    "updated_at"
  ]),
  TasksListResponse: object({ tasks: arrayOf(ref("Task")), count: integer }, ["tasks", "count"]),
  TaskLogsResponse: object({
    logs: arrayOf(
      object({ id: integer, content: string, type: { type: "string", enum: ["input", "output"] }, time: dateTime }, [
        "id",
        "content",
        "type",
        "time"
      ])
    ),
    snapshot: omitted(boolean),
    snapshot_at: omitted(dateTime)
  }, ["logs"]),
  PauseTaskResponse: object({ workspace_build: ref("WorkspaceBuild") }, ["workspace_build"])
}
