/**
 * The request bodies and queries of the templates area's routes: templates, template versions
 * and file uploads (the provisioners area's are in provisioners/Requests.ts). The routes in `http/src/templates/` declare them; the services take their decoded
 * types (`typeof X.Type`).
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { TagsBody as Tags } from "../provisioners/Requests.js"
import {
  BooleanParam,
  NonNegativeIntParam,
  optional,
  optionalOr,
  optionalParam,
  Text,
  uuid,
  wireName
} from "../Requests.js"
import { usernamePattern } from "../users/User.js"
import { MAX_INPUT_LENGTH } from "./DynamicParameters.js"
import { TAR_MIME_TYPE, WINDOWS_ZIP_MIME_TYPE, ZIP_MIME_TYPE } from "./File.js"
import { CorsBehavior, PortShareLevel } from "./TemplateWire.js"

/** Template names: the rule of usernames and group names (1-32 alphanumerics with single inner hyphens). */
export const TemplateName = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Name is required." }),
  Schema.maxLength(32, { message: () => "Name must be at most 32 characters." }),
  Schema.pattern(usernamePattern, {
    message: () => "Name must be alphanumeric with single hyphens, not starting or ending with a hyphen."
  }),
  Schema.filter((s) => !["new", "create"].includes(s.toLowerCase()) || `"${s}" is a reserved name.`)
)

/** A new name, or empty to keep the current one. */
const NameOrEmpty = Schema.Union(Schema.Literal(""), TemplateName)
  .annotations({
    message: () => ({ message: "Name must be 1-32 alphanumerics with single inner hyphens, or empty.", override: true })
  })

/** Display names: at most 64 characters, no leading or trailing spaces. */
const DisplayName = Text(64).pipe(
  Schema.filter((s) => s === s.trim() || "Display name must not start or end with spaces.")
)

/** A duration in milliseconds (negative values are refused by the service, one validation each). */
const Millis = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n) || "Must be a whole number of milliseconds.")
)

const AutostopRequirement = Schema.Struct({
  days_of_week: optional(Schema.Array(Text(16))),
  weeks: optional(Schema.Int.pipe(Schema.annotations({ message: () => "Must be a whole number." })))
})
const AutostartRequirement = Schema.Struct({ days_of_week: optional(Schema.Array(Text(16))) })

/** Settings a template is created with or changed to (not given: the default, or unchanged). */
const settings = {
  display_name: optional(DisplayName),
  description: optional(Text(128)),
  icon: optional(Text(256)),
  default_ttl_ms: optional(Millis),
  activity_bump_ms: optional(Millis),
  autostop_requirement: optional(AutostopRequirement),
  autostart_requirement: optional(AutostartRequirement),
  allow_user_cancel_workspace_jobs: optional(Schema.Boolean),
  allow_user_autostart: optional(Schema.Boolean),
  allow_user_autostop: optional(Schema.Boolean),
  failure_ttl_ms: optional(Millis),
  require_active_version: optional(Schema.Boolean),
  max_port_share_level: optional(PortShareLevel),
  cors_behavior: optional(CorsBehavior),
  disable_everyone_group_access: optional(Schema.Boolean)
}

/**
 * POST /organizations/{organization}/templates. `dormant_ttl_ms` and `delete_ttl_ms` are the
 * client's names of `time_til_dormant_ms` and `time_til_dormant_autodelete_ms`.
 */
export class CreateTemplateRequest extends Schema.Class<CreateTemplateRequest>("CreateTemplateRequest")({
  name: TemplateName,
  template_version_id: Schema.UUID.annotations({ message: () => ({ message: "Must be a UUID.", override: true }) }),
  ...settings,
  dormant_ttl_ms: optional(Millis),
  delete_ttl_ms: optional(Millis),
  template_use_classic_parameter_flow: optional(Schema.Boolean)
}, wireName("CreateTemplateRequest")) {}

/**
 * PATCH /templates/{template}: an empty name keeps the current one, an empty deprecation message
 * takes the deprecation back. With a schedule change, `update_workspace_last_used_at` makes the
 * `last_used_at` of the template's workspaces now (they count their time til dormant from now),
 * and `update_workspace_dormant_at` the `dormant_at` of its dormant ones (their time til
 * autodelete).
 */
export class UpdateTemplateMeta extends Schema.Class<UpdateTemplateMeta>("UpdateTemplateMeta")({
  name: optional(NameOrEmpty),
  ...settings,
  time_til_dormant_ms: optional(Millis),
  time_til_dormant_autodelete_ms: optional(Millis),
  update_workspace_last_used_at: optional(Schema.Boolean),
  update_workspace_dormant_at: optional(Schema.Boolean),
  deprecation_message: optional(Text(1024)),
  use_classic_parameter_flow: optional(Schema.Boolean)
}, wireName("UpdateTemplateMeta")) {}

/** Id to role (`admin`, `use`, or `""` to remove); each bad entry is named by the service. */
const Perms = Schema.Record({ key: Schema.String, value: Text(16) })

/** PATCH /templates/{template}/acl: user and group ids to roles. */
export class UpdateTemplateACL extends Schema.Class<UpdateTemplateACL>("UpdateTemplateACL")({
  user_perms: optional(Perms),
  group_perms: optional(Perms)
}, wireName("UpdateTemplateACL")) {}

/** The query of GET /templates and GET /organizations/{organization}/templates: the search `q`. */
export const ListTemplatesQuery = Schema.Struct({ q: optionalParam(Schema.String) })

/** The query of GET /templates/{template}/acl/available: the search `q` and `limit`. */
export const TemplateAclAvailableQuery = Schema.Struct({
  q: optionalParam(Schema.String),
  limit: optionalParam(NonNegativeIntParam)
})

/** A version name, as the described system's rule: letters and digits, single `_`, `.` or `-` between them, at most 64. */
export const TemplateVersionName = Schema.String.pipe(
  Schema.maxLength(64, { message: () => "Must be at most 64 characters." }),
  Schema.pattern(/^[a-zA-Z0-9]+(?:[_.-][a-zA-Z0-9]+)*$/, {
    message: () => "Must be alphanumeric, with single underscores, periods or hyphens between."
  })
)
const VersionNameOrEmpty = Schema.Union(Schema.Literal(""), TemplateVersionName).annotations({
  message: () => ({
    message:
      "Must be empty or alphanumeric (at most 64 characters), with single underscores, periods or hyphens between.",
    override: true
  })
})

/**
 * A `{name, value}` pair: a template variable's value, or a workspace parameter's (the workspaces
 * area's requests take it too). Decoded, it is a provisioner's `NameValue`.
 */
export class VariableValue extends Schema.Class<VariableValue>("VariableValue")({
  name: Text(256).pipe(Schema.minLength(1, { message: () => "Name is required." })),
  value: Text(65_536)
}) {}

/** The described system's provisioner types plus any registered here (unknown types stay pending). */
const ProvisionerType = Schema.String.pipe(
  Schema.minLength(1, { message: () => "A provisioner type is required." }),
  Schema.maxLength(64, { message: () => "Must be at most 64 characters." })
)

/** POST /organizations/{organization}/templateversions: from an uploaded file (`file_id`) or a starter template (`example_id`). */
export class CreateTemplateVersionRequest
  extends Schema.Class<CreateTemplateVersionRequest>("CreateTemplateVersionRequest")({
    name: optional(VersionNameOrEmpty),
    message: optional(Text(1_048_576)),
    template_id: optional(uuid("Template id")),
    storage_method: Schema.Literal("file").annotations({
      message: () => ({ message: "Must be \"file\".", override: true })
    }),
    file_id: optional(uuid("File id")),
    example_id: optional(Text(256)),
    provisioner: ProvisionerType,
    tags: optional(Tags),
    user_variable_values: optional(Schema.Array(VariableValue))
  }, wireName("CreateTemplateVersionRequest"))
{}

/** PATCH /templateversions/{templateversion}: an empty name keeps the current one. */
export class PatchTemplateVersionRequest
  extends Schema.Class<PatchTemplateVersionRequest>("PatchTemplateVersionRequest")({
    name: optional(VersionNameOrEmpty),
    message: optional(Text(1_048_576))
  }, wireName("PatchTemplateVersionRequest"))
{}

/** POST /templateversions/{templateversion}/dry-run. */
export class CreateTemplateVersionDryRunRequest
  extends Schema.Class<CreateTemplateVersionDryRunRequest>("CreateTemplateVersionDryRunRequest")({
    workspace_name: optional(Text(128)),
    rich_parameter_values: optional(Schema.Array(VariableValue)),
    user_variable_values: optional(Schema.Array(VariableValue))
  }, wireName("CreateTemplateVersionDryRunRequest"))
{}

/** PATCH /templates/{template}/versions: the version to promote. */
export class UpdateActiveTemplateVersion
  extends Schema.Class<UpdateActiveTemplateVersion>("UpdateActiveTemplateVersion")({
    id: uuid("Template version id")
  })
{}

/** POST /templates/{template}/versions/archive: the unused versions whose import failed (`all`: whose import finished). */
export class ArchiveTemplateVersionsRequest
  extends Schema.Class<ArchiveTemplateVersionsRequest>("ArchiveTemplateVersionsRequest")({
    all: optional(Schema.Boolean)
  }, wireName("ArchiveTemplateVersionsRequest"))
{}

/** The query of GET /templates/{template}/versions: a keyset or offset page, archived versions or not. */
export const ListTemplateVersionsQuery = Schema.Struct({
  after_id: optionalParam(uuid("after_id")),
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam),
  include_archived: optionalParam(BooleanParam)
})

/** The body of POST /files: the archive's bytes, in one of the accepted content types. */
export const UploadFileRequest = Schema.Union(
  HttpApiSchema.Uint8Array({ contentType: TAR_MIME_TYPE }),
  HttpApiSchema.Uint8Array({ contentType: ZIP_MIME_TYPE }),
  HttpApiSchema.Uint8Array({ contentType: WINDOWS_ZIP_MIME_TYPE })
)

/** A form's values by parameter name: at most 1,024 of them, each of at most 4,096 characters. */
const ParameterInputs = Schema.Record({
  key: Schema.String,
  value: Schema.String.pipe(
    Schema.maxLength(MAX_INPUT_LENGTH, { message: () => `A value must be at most ${MAX_INPUT_LENGTH} characters.` })
  )
}).pipe(Schema.filter((r) => Object.keys(r).length <= 1_024 || "At most 1024 inputs."))

/**
 * POST /templateversions/{templateversion}/dynamic-parameters/evaluate, and each message of the
 * dynamic-parameters WebSocket: the form's values, with an `id` the answer echoes so a client
 * drops answers to requests it has since replaced.
 */
export class DynamicParametersRequest extends Schema.Class<DynamicParametersRequest>("DynamicParametersRequest")({
  id: optionalOr(Schema.Int.annotations({ message: () => "Must be an integer." }), () => 0),
  inputs: optionalOr(ParameterInputs, () => ({})),
  owner_id: optional(uuid("owner_id"))
}, wireName("DynamicParametersRequest")) {}

/** GET /templateversions/{templateversion}/dynamic-parameters: whose form (default: the caller). */
export const DynamicParametersQuery = Schema.Struct({
  user_id: optionalParam(Schema.Union(Schema.Literal("me"), uuid("user_id")))
})
