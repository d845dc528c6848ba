/** The JSON Schemas of the provisioner jobs, daemons and keys response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  mapOf,
  nullable,
  number,
  object,
  omitted,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

export const jobStatuses = ["pending", "running", "succeeded", "canceling", "canceled", "failed", "unknown"]

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // Template versions and their jobs (codersdk templateversions.go, provisionerdaemons.go, workspaceagents.go).
  ProvisionerJob: object({
    id: uuid,
    created_at: dateTime,
    started_at: omitted(dateTime),
    completed_at: omitted(dateTime),
    canceled_at: omitted(dateTime),
    error: omitted(string),
    error_code: omitted({ type: "string", enum: ["REQUIRED_TEMPLATE_VARIABLES"] }),
    status: { type: "string", enum: jobStatuses },
    worker_id: omitted(uuid),
    worker_name: omitted(string),
    file_id: uuid,
    tags: mapOf(string),
    queue_position: integer,
    queue_size: integer,
    organization_id: uuid,
    initiator_id: uuid,
    input: object({ template_version_id: omitted(uuid), workspace_build_id: omitted(uuid), error: omitted(string) }),
    type: { type: "string", enum: ["template_version_import", "workspace_build", "template_version_dry_run"] },
    available_workers: omitted(arrayOf(uuid)),
    metadata: object({
      template_version_name: string,
      template_id: uuid,
      template_name: string,
      template_display_name: string,
      template_icon: string,
      workspace_id: omitted(uuid),
      workspace_name: omitted(string),
      workspace_build_transition: omitted({ type: "string", enum: ["start", "stop", "delete"] })
    }, ["template_version_name", "template_id", "template_name", "template_display_name", "template_icon"]),
    logs_overflowed: boolean
  }, [
    "id",
    "created_at",
    "status",
    "file_id",
    "tags",
    "queue_position",
    "queue_size",
    "organization_id",
    "initiator_id",
    "input",
    "type",
    "metadata",
    "logs_overflowed"
  ]),
  ProvisionerJobLog: object({
    id: integer,
    created_at: dateTime,
    log_source: { type: "string", enum: ["provisioner_daemon", "provisioner"] },
    log_level: { type: "string", enum: ["trace", "debug", "info", "warn", "error"] },
    stage: string,
    output: string
  }, ["id", "created_at", "log_source", "log_level", "stage", "output"]),
  MatchedProvisioners: object({ count: integer, available: integer, most_recently_seen: omitted(dateTime) }, [
    "count",
    "available"
  ]),
  // Workbay's: a host external daemons run workspaces on, with its latest capacity report.
  ProvisionerHost: object({
    name: string,
    organization_id: uuid,
    tags: mapOf(string),
    provisioners: arrayOf(string),
    version: string,
    status: { type: "string", enum: ["connected", "offline"] },
    cpus: integer,
    cpus_promised: number,
    memory_bytes: integer,
    memory_promised_bytes: integer,
    containers: integer,
    disk_free_bytes: nullable(integer),
    daemons: arrayOf(string),
    first_seen_at: dateTime,
    last_seen_at: dateTime
  }, [
    "name",
    "organization_id",
    "tags",
    "provisioners",
    "version",
    "status",
    "cpus",
    "cpus_promised",
    "memory_bytes",
    "memory_promised_bytes",
    "containers",
    "disk_free_bytes",
    "daemons",
    "first_seen_at",
    "last_seen_at"
  ]),
  ProvisionerDaemon: object({
    id: uuid,
    organization_id: uuid,
    key_id: uuid,
    created_at: dateTime,
    last_seen_at: omitted(dateTime),
    name: string,
    version: string,
    api_version: string,
    provisioners: arrayOf(string),
    tags: mapOf(string),
    key_name: nullable(string),
    status: nullable({ type: "string", enum: ["offline", "idle", "busy"] }),
    current_job: nullable(ref("ProvisionerDaemonJob")),
    previous_job: nullable(ref("ProvisionerDaemonJob"))
  }, [
    "id",
    "organization_id",
    "key_id",
    "created_at",
    "name",
    "version",
    "api_version",
    "provisioners",
    "tags",
    "key_name",
    "status",
    "current_job",
    "previous_job"
  ]),
  ProvisionerKey: object({ id: uuid, created_at: dateTime, organization: uuid, name: string, tags: mapOf(string) }, [
    "id",
    "created_at",
    "organization",
    "name",
    "tags"
  ]),
  CreateProvisionerKeyResponse: object({ key: string }, ["key"]),
  ProvisionerKeyDaemons: object({ key: ref("ProvisionerKey"), daemons: arrayOf(ref("ProvisionerDaemon")) }, [
    "key",
    "daemons"
  ]),
  ProvisionerDaemonJob: object({
    id: uuid,
    status: { type: "string", enum: jobStatuses },
    template_name: string,
    template_icon: string,
    template_display_name: string
  }, ["id", "status", "template_name", "template_icon", "template_display_name"])
}
