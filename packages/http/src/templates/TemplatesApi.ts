/** Template routes: templates, their settings, access lists, prebuild invalidation and the prebuilds settings. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  ACLAvailable,
  CreateTemplateRequest,
  InvalidatePresetsResponse,
  ListTemplatesQuery,
  PrebuildsSettings,
  ResponseBody,
  Template,
  TemplateACL,
  TemplateAclAvailableQuery,
  TemplateExample,
  UpdatePrebuildsSettingsRequest,
  UpdateTemplateACL,
  UpdateTemplateMeta
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NotFound, OrganizationPath } from "../Common.js"
import { Authentication } from "../Security.js"

const TemplatePath = Schema.Struct({
  template: Schema.UUID.annotations({
    message: () => ({ message: "Template id must be a valid UUID.", override: true })
  })
})

export class TemplatesApi extends HttpApiGroup.make("templates")
  .add(
    HttpApiEndpoint.get("listByOrganization", "/organizations/:organization/templates")
      .setPath(OrganizationPath)
      .setUrlParams(ListTemplatesQuery)
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
  .add(HttpApiEndpoint.get("list", "/templates").setUrlParams(ListTemplatesQuery).addSuccess(Schema.Array(Template)))
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
      .setUrlParams(TemplateAclAvailableQuery)
      .addSuccess(ACLAvailable)
  )
  .add(
    // No prebuilt workspaces exist yet: the answer names the presets, and nothing is stored.
    HttpApiEndpoint.post("invalidatePresets", "/templates/:template/prebuilds/invalidate").annotate(Audited, false)
      .setPath(TemplatePath)
      .addSuccess(InvalidatePresetsResponse)
  )
  .add(HttpApiEndpoint.get("getPrebuildsSettings", "/prebuilds/settings").addSuccess(PrebuildsSettings))
  .add(
    HttpApiEndpoint.put("updatePrebuildsSettings", "/prebuilds/settings").annotate(Audited, audit("prebuilds_settings"))
      .setPayload(UpdatePrebuildsSettingsRequest)
      .addSuccess(PrebuildsSettings)
      // Nothing would change: no body, as the described system answers.
      .addSuccess(HttpApiSchema.Empty(304))
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
