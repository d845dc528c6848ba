/** The JSON Schemas of the files, templates, template versions and prebuilds response types (see ../schemas/ResponseSchemas.ts). */
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
  optional,
  ref,
  string,
  uri,
  uuid
} from "../schemas/jsonSchema.js"
import { reducedUserFields, userRequired } from "../users/responseTypes.js"

const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

/** A template's fields are all sent: each is required here. */
const templateRequired = [
  "id",
  "created_at",
  "updated_at",
  "organization_id",
  "organization_name",
  "organization_display_name",
  "organization_icon",
  "name",
  "display_name",
  "provisioner",
  "active_version_id",
  "active_user_count",
  "build_time_stats",
  "description",
  "deprecated",
  "deprecation_message",
  "icon",
  "default_ttl_ms",
  "activity_bump_ms",
  "autostop_requirement",
  "autostart_requirement",
  "created_by_id",
  "created_by_name",
  "allow_user_autostart",
  "allow_user_autostop",
  "allow_user_cancel_workspace_jobs",
  "failure_ttl_ms",
  "time_til_dormant_ms",
  "time_til_dormant_autodelete_ms",
  "require_active_version",
  "max_port_share_level",
  "cors_behavior",
  "use_classic_parameter_flow"
]

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // The id of the uploaded file, named `hash` in the reference.
  UploadResponse: object({ hash: uuid }, ["hash"]),
  TemplateVersion: object({
    id: uuid,
    template_id: uuid,
    organization_id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    name: string,
    message: string,
    job: ref("ProvisionerJob"),
    readme: string,
    created_by: ref("MinimalUser"),
    archived: boolean,
    warnings: omitted(arrayOf({ type: "string", enum: ["UNSUPPORTED_WORKSPACES"] })),
    matched_provisioners: ref("MatchedProvisioners"),
    has_external_agent: boolean,
    has_ai_task: boolean
  }, [
    "id",
    "created_at",
    "updated_at",
    "name",
    "message",
    "job",
    "readme",
    "created_by",
    "archived",
    "has_external_agent",
    "has_ai_task"
  ]),
  NullHCLString: object({ value: string, valid: boolean }, ["value", "valid"]),
  FriendlyDiagnostic: object({
    severity: { type: "string", enum: ["error", "warning"] },
    summary: string,
    detail: string,
    extra: object({ code: string }, ["code"])
  }, ["severity", "summary", "detail", "extra"]),
  PreviewParameter: object({
    name: string,
    display_name: string,
    description: string,
    type: { type: "string", enum: ["string", "number", "bool", "list(string)"] },
    form_type: {
      type: "string",
      enum: [
        "",
        "radio",
        "slider",
        "input",
        "dropdown",
        "checkbox",
        "switch",
        "multi-select",
        "tag-select",
        "textarea",
        "error"
      ]
    },
    styling: object({
      placeholder: omitted(string),
      disabled: omitted(boolean),
      label: omitted(string),
      mask_input: omitted(boolean)
    }),
    mutable: boolean,
    default_value: ref("NullHCLString"),
    icon: string,
    options: arrayOf(
      object({ name: string, description: string, value: ref("NullHCLString"), icon: string }, [
        "name",
        "description",
        "value",
        "icon"
      ])
    ),
    validations: arrayOf(
      object({
        validation_error: string,
        validation_regex: nullable(string),
        validation_min: nullable(number),
        validation_max: nullable(number),
        validation_monotonic: nullable(string)
      }, ["validation_error", "validation_regex", "validation_min", "validation_max", "validation_monotonic"])
    ),
    required: boolean,
    order: number,
    ephemeral: boolean,
    value: ref("NullHCLString"),
    diagnostics: arrayOf(ref("FriendlyDiagnostic"))
  }, [
    "name",
    "display_name",
    "description",
    "type",
    "form_type",
    "styling",
    "mutable",
    "default_value",
    "icon",
    "options",
    "validations",
    "required",
    "order",
    "ephemeral",
    "value",
    "diagnostics"
  ]),
  DynamicParametersResponse: object({
    id: integer,
    diagnostics: arrayOf(ref("FriendlyDiagnostic")),
    parameters: arrayOf(ref("PreviewParameter"))
  }, ["id", "diagnostics", "parameters"]),
  TemplateVersionParameter: object({
    name: string,
    display_name: omitted(string),
    description: string,
    description_plaintext: string,
    type: { type: "string", enum: ["string", "number", "bool", "list(string)"] },
    form_type: {
      type: "string",
      enum: [
        "",
        "radio",
        "slider",
        "input",
        "dropdown",
        "checkbox",
        "switch",
        "multi-select",
        "tag-select",
        "textarea",
        "error"
      ]
    },
    mutable: boolean,
    default_value: string,
    icon: string,
    options: arrayOf(
      object({ name: string, description: string, value: string, icon: string }, [
        "name",
        "description",
        "value",
        "icon"
      ])
    ),
    validation_error: omitted(string),
    validation_regex: omitted(string),
    validation_min: optional(integer),
    validation_max: optional(integer),
    validation_monotonic: optional({ type: "string", enum: ["increasing", "decreasing"] }),
    required: boolean,
    ephemeral: boolean
  }, [
    "name",
    "description",
    "description_plaintext",
    "type",
    "form_type",
    "mutable",
    "default_value",
    "icon",
    "options",
    "required",
    "ephemeral"
  ]),
  TemplateVersionVariable: object({
    name: string,
    description: string,
    type: { type: "string", enum: ["string", "number", "bool"] },
    value: string,
    default_value: string,
    required: boolean,
    sensitive: boolean
  }, ["name", "description", "type", "value", "default_value", "required", "sensitive"]),
  TemplateVersionExternalAuth: object({
    id: string,
    type: string,
    display_name: string,
    display_icon: string,
    authenticate_url: uri,
    authenticated: boolean,
    optional: omitted(boolean)
  }, ["id", "type", "display_name", "display_icon", "authenticate_url", "authenticated"]),
  Preset: object({
    ID: uuid,
    Name: string,
    Parameters: arrayOf(object({ Name: string, Value: string }, ["Name", "Value"])),
    Default: boolean,
    DesiredPrebuildInstances: nullable(integer),
    Description: string,
    Icon: string
  }, ["ID", "Name", "Parameters", "Default", "DesiredPrebuildInstances", "Description", "Icon"]),
  ArchiveTemplateVersionsResponse: object({ template_id: uuid, archived_ids: arrayOf(uuid) }, [
    "template_id",
    "archived_ids"
  ]),

  // Templates: every field is sent (no omitempty in the reference).
  TemplateExample: object({
    id: string,
    url: string,
    name: string,
    description: string,
    icon: string,
    tags: arrayOf(string),
    markdown: string
  }, ["id", "url", "name", "description", "icon", "tags", "markdown"]),
  Template: object({
    id: uuid,
    created_at: dateTime,
    updated_at: dateTime,
    organization_id: uuid,
    organization_name: string,
    organization_display_name: string,
    organization_icon: string,
    name: string,
    display_name: string,
    provisioner: string,
    active_version_id: uuid,
    active_user_count: integer,
    build_time_stats: mapOf(ref("TransitionStats")),
    description: string,
    deprecated: boolean,
    deprecation_message: string,
    deleted: boolean,
    icon: string,
    default_ttl_ms: integer,
    activity_bump_ms: integer,
    autostop_requirement: object({ days_of_week: arrayOf({ type: "string", enum: weekdays }), weeks: integer }, [
      "days_of_week",
      "weeks"
    ]),
    autostart_requirement: object({ days_of_week: arrayOf({ type: "string", enum: weekdays }) }, ["days_of_week"]),
    created_by_id: uuid,
    created_by_name: string,
    allow_user_autostart: boolean,
    allow_user_autostop: boolean,
    allow_user_cancel_workspace_jobs: boolean,
    failure_ttl_ms: integer,
    time_til_dormant_ms: integer,
    time_til_dormant_autodelete_ms: integer,
    require_active_version: boolean,
    max_port_share_level: { type: "string", enum: ["owner", "authenticated", "organization", "public"] },
    cors_behavior: { type: "string", enum: ["simple", "passthru"] },
    use_classic_parameter_flow: boolean
  }, templateRequired),
  // Go's TransitionStats has no json tags: its keys are the field names, null until measured.
  TransitionStats: { ...object({ P50: nullable(integer), P95: nullable(integer) }), additionalProperties: false },
  TemplateUser: object(
    {
      ...reducedUserFields,
      organization_ids: arrayOf(uuid),
      roles: arrayOf(ref("SlimRole")),
      has_ai_seat: boolean,
      role: { type: "string", enum: ["admin", "use"] }
    },
    [...userRequired, "role"]
  ),
  TemplateGroup: {
    allOf: [ref("Group"), object({ role: { type: "string", enum: ["admin", "use"] } }, ["role"])]
  },
  TemplateACL: object({ users: arrayOf(ref("TemplateUser")), group: arrayOf(ref("TemplateGroup")) }, [
    "users",
    "group"
  ]),
  ACLAvailable: object({ users: arrayOf(ref("ReducedUser")), groups: arrayOf(ref("Group")) }, ["users", "groups"]),
  InvalidatePresetsResponse: object(
    {
      invalidated: arrayOf(object(
        { preset_name: string, template_name: string, template_version_name: string },
        ["preset_name", "template_name", "template_version_name"]
      ))
    },
    ["invalidated"]
  ),

  PrebuildsSettings: {
    ...object({ reconciliation_paused: boolean }, ["reconciliation_paused"]),
    additionalProperties: false
  }
}
