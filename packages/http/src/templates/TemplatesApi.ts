/** Template routes: templates, their settings, access lists, and prebuild invalidation. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  ACLAvailable,
  CorsBehavior,
  InvalidatePresetsResponse,
  PortShareLevel,
  ResponseBody,
  Template,
  TemplateACL,
  TemplateExample,
  usernamePattern
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NonNegativeIntParam,
  NotFound,
  optional,
  optionalParam,
  OrganizationPath,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

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

export class CreateTemplateRequest extends Schema.Class<CreateTemplateRequest>("CreateTemplateRequest")({
  name: TemplateName,
  template_version_id: Schema.UUID.annotations({ message: () => ({ message: "Must be a UUID.", override: true }) }),
  ...settings,
  dormant_ttl_ms: optional(Millis),
  delete_ttl_ms: optional(Millis),
  template_use_classic_parameter_flow: optional(Schema.Boolean)
}, wireName("CreateTemplateRequest")) {}

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

export class UpdateTemplateACL extends Schema.Class<UpdateTemplateACL>("UpdateTemplateACL")({
  user_perms: optional(Perms),
  group_perms: optional(Perms)
}, wireName("UpdateTemplateACL")) {}

const TemplatePath = Schema.Struct({
  template: Schema.UUID.annotations({
    message: () => ({ message: "Template id must be a valid UUID.", override: true })
  })
})

const Query = Schema.Struct({ q: optionalParam(Schema.String) })

export class TemplatesApi extends HttpApiGroup.make("templates")
  .add(
    HttpApiEndpoint.get("listByOrganization", "/organizations/:organization/templates")
      .setPath(OrganizationPath)
      .setUrlParams(Query)
      .addSuccess(Schema.Array(Template))
  )
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organization/templates").annotate(Audited, audit("template"))
      .setPath(OrganizationPath)
      .setPayload(CreateTemplateRequest)
      .addSuccess(Template, { status: 201 })
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("examplesByOrganization", "/organizations/:organization/templates/examples")
      .setPath(OrganizationPath)
      .addSuccess(Schema.Array(TemplateExample))
  )
  .add(HttpApiEndpoint.get("examples", "/templates/examples").addSuccess(Schema.Array(TemplateExample)))
  .add(
    HttpApiEndpoint.get("getByName", "/organizations/:organization/templates/:templatename")
      .setPath(Schema.Struct({ organization: Schema.String, templatename: Schema.String }))
      .addSuccess(Template)
  )
  .add(HttpApiEndpoint.get("list", "/templates").setUrlParams(Query).addSuccess(Schema.Array(Template)))
  .add(HttpApiEndpoint.get("get", "/templates/:template").setPath(TemplatePath).addSuccess(Template))
  .add(
    HttpApiEndpoint.patch("update", "/templates/:template").annotate(Audited, audit("template"))
      .setPath(TemplatePath)
      .setPayload(UpdateTemplateMeta)
      .addSuccess(Template)
      // Nothing would change: no body, as the described system answers.
      .addSuccess(HttpApiSchema.Empty(304))
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.del("delete", "/templates/:template").annotate(Audited, audit("template"))
      .setPath(TemplatePath)
      .addSuccess(ResponseBody)
  )
  .add(HttpApiEndpoint.get("getAcl", "/templates/:template/acl").setPath(TemplatePath).addSuccess(TemplateACL))
  .add(
    HttpApiEndpoint.patch("updateAcl", "/templates/:template/acl").annotate(Audited, audit("template"))
      .setPath(TemplatePath)
      .setPayload(UpdateTemplateACL)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.get("aclAvailable", "/templates/:template/acl/available")
      .setPath(TemplatePath)
      .setUrlParams(Schema.Struct({ q: optionalParam(Schema.String), limit: optionalParam(NonNegativeIntParam) }))
      .addSuccess(ACLAvailable)
  )
  .add(
    // No prebuilt workspaces exist yet: the answer names the presets, and nothing is stored.
    HttpApiEndpoint.post("invalidatePresets", "/templates/:template/prebuilds/invalidate").annotate(Audited, false)
      .setPath(TemplatePath)
      .addSuccess(InvalidatePresetsResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
