/** The JSON Schemas of the health report response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  object,
  omitted,
  ref,
  string
} from "../schemas/jsonSchema.js"

/** A health report section: its own fields (all required) and the base report's. */
const healthSection = (fields: Record<string, JsonSchema>): JsonSchema =>
  object({
    ...fields,
    severity: { type: "string", enum: ["ok", "warning", "error"] },
    warnings: arrayOf({ $ref: "#/definitions/HealthMessage" }),
    dismissed: boolean,
    error: omitted(string)
  })

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // healthsdk (codersdk/healthsdk/healthsdk.go): every section has severity, warnings and dismissed; `error` is omitempty.
  HealthMessage: object({ code: string, message: string }, ["code", "message"]),
  HealthSettings: {
    ...object({
      dismissed_healthchecks: arrayOf({
        type: "string",
        enum: ["DERP", "AccessURL", "Websocket", "Database", "WorkspaceProxy", "ProvisionerDaemons"]
      })
    }, ["dismissed_healthchecks"]),
    additionalProperties: false
  },
  HealthcheckReport: object({
    time: dateTime,
    healthy: boolean,
    severity: { type: "string", enum: ["ok", "warning", "error"] },
    coder_version: string,
    database: healthSection({
      healthy: boolean,
      reachable: boolean,
      latency: string,
      latency_ms: integer,
      threshold_ms: integer
    }),
    access_url: healthSection({
      healthy: boolean,
      access_url: string,
      reachable: boolean,
      status_code: integer,
      healthz_response: string
    }),
    websocket: healthSection({ healthy: boolean, body: string, code: integer }),
    derp: healthSection({ healthy: boolean, regions: { type: "object" }, netcheck_logs: arrayOf(string) }),
    workspace_proxy: healthSection({ healthy: boolean, workspace_proxies: ref("RegionsResponseWorkspaceProxy") }),
    provisioner_daemons: healthSection({
      items: arrayOf(
        object({ provisioner_daemon: { type: "object" }, warnings: arrayOf(ref("HealthMessage")) }, [
          "provisioner_daemon",
          "warnings"
        ])
      )
    })
  }, [
    "time",
    "healthy",
    "severity",
    "coder_version",
    "database",
    "access_url",
    "websocket",
    "derp",
    "workspace_proxy",
    "provisioner_daemons"
  ])
}
