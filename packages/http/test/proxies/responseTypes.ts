/** The JSON Schemas of the workspace proxies and regions response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  object,
  optional,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // codersdk's workspace proxy types (codersdk/workspaceproxy.go, enterprise/wsproxy/wsproxysdk).
  Region: {
    ...object({
      id: uuid,
      name: string,
      display_name: string,
      icon_url: string,
      healthy: boolean,
      path_app_url: string,
      wildcard_hostname: string
    }, ["id", "name", "display_name", "icon_url", "healthy", "path_app_url", "wildcard_hostname"]),
    additionalProperties: false
  },
  WorkspaceProxy: object({
    id: uuid,
    name: string,
    display_name: string,
    icon_url: string,
    healthy: boolean,
    path_app_url: string,
    wildcard_hostname: string,
    derp_enabled: boolean,
    derp_only: boolean,
    status: optional(object({
      status: { type: "string", enum: ["ok", "unreachable", "unhealthy", "unregistered"] },
      report: optional(object({ errors: arrayOf(string), warnings: arrayOf(string) })),
      checked_at: dateTime
    })),
    created_at: dateTime,
    updated_at: dateTime,
    deleted: boolean,
    version: string
  }, [
    "id",
    "name",
    "display_name",
    "icon_url",
    "healthy",
    "path_app_url",
    "wildcard_hostname",
    "derp_enabled",
    "derp_only",
    "created_at",
    "updated_at",
    "deleted",
    "version"
  ]),
  RegionsResponseRegion: { ...object({ regions: arrayOf(ref("Region")) }, ["regions"]), additionalProperties: false },
  RegionsResponseWorkspaceProxy: {
    ...object({ regions: arrayOf(ref("WorkspaceProxy")) }, ["regions"]),
    additionalProperties: false
  },
  UpdateWorkspaceProxyResponse: object({ proxy: ref("WorkspaceProxy"), proxy_token: string }, ["proxy", "proxy_token"]),
  RegisterWorkspaceProxyResponse: object({
    derp_mesh_key: string,
    derp_region_id: integer,
    derp_force_websockets: boolean,
    sibling_replicas: arrayOf({ type: "object" })
  }, ["derp_mesh_key", "derp_region_id", "derp_force_websockets", "sibling_replicas"])
}
