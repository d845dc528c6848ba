/**
 * Template version routes: creating versions from uploaded files, what their imports found,
 * dry runs, archiving, and a template's versions (listing, by name, promotion). Paths, bodies
 * and answers as the described system's; see docs/templates.md.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  ArchiveTemplateVersionsRequest,
  ArchiveTemplateVersionsResponse,
  CreateTemplateVersionDryRunRequest,
  CreateTemplateVersionRequest,
  DynamicParametersQuery,
  DynamicParametersRequest,
  DynamicParametersResponse,
  JobLogsQuery,
  ListTemplateVersionsQuery,
  MatchedProvisioners,
  PatchTemplateVersionRequest,
  ProvisionerJob,
  ProvisionerJobLog,
  ResponseBody,
  TemplateVersion,
  TemplateVersionExternalAuth,
  TemplateVersionParameter,
  TemplateVersionVariable,
  UpdateActiveTemplateVersion,
  VersionPreset,
  WorkspaceResource
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NotFound, uuid } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

const VersionPath = Schema.Struct({ templateversion: uuid("Template version id") })
const DryRunPath = Schema.Struct({ templateversion: uuid("Template version id"), jobID: uuid("Job ID") })
const TemplatePath = Schema.Struct({ template: uuid("Template id") })
const TemplateVersionNamePath = Schema.Struct({ template: uuid("Template id"), templateversionname: Text(256) })
const OrganizationTemplatePath = Schema.Struct({
  organization: Schema.String,
  templatename: Text(256),
  templateversionname: Text(256)
})

export class TemplateVersionsApi extends HttpApiGroup.make("templateVersions")
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organization/templateversions").annotate(
      Audited,
      audit("template_version")
    )
      .setPath(Schema.Struct({ organization: Schema.String }))
      .setPayload(CreateTemplateVersionRequest)
      .addSuccess(TemplateVersion, { status: 201 })
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("get", "/templateversions/:templateversion").setPath(VersionPath).addSuccess(TemplateVersion)
  )
  .add(
    HttpApiEndpoint.patch("update", "/templateversions/:templateversion").annotate(Audited, audit("template_version"))
      .setPath(VersionPath)
      .setPayload(PatchTemplateVersionRequest)
      .addSuccess(TemplateVersion)
      .addError(Conflict)
  )
  .add(
    // Not audited, as in the described system: canceling changes the job, not the version.
    HttpApiEndpoint.patch("cancel", "/templateversions/:templateversion/cancel").annotate(Audited, false)
      .setPath(VersionPath)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.get("logs", "/templateversions/:templateversion/logs")
      .setPath(VersionPath)
      .setUrlParams(JobLogsQuery)
      .addSuccess(Schema.Array(ProvisionerJobLog))
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    HttpApiEndpoint.get("resources", "/templateversions/:templateversion/resources")
      .setPath(VersionPath)
      .addSuccess(Schema.Array(WorkspaceResource))
  )
  .add(
    HttpApiEndpoint.get("richParameters", "/templateversions/:templateversion/rich-parameters")
      .setPath(VersionPath)
      .addSuccess(Schema.Array(TemplateVersionParameter))
  )
  .add(
    // The form of a workspace: an answer at once, then one per request (docs/templates.md#dynamic-parameters).
    HttpApiEndpoint.get("dynamicParameters", "/templateversions/:templateversion/dynamic-parameters")
      .setPath(VersionPath)
      .setUrlParams(DynamicParametersQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    // Changes nothing: not audited.
    HttpApiEndpoint.post(
      "evaluateDynamicParameters",
      "/templateversions/:templateversion/dynamic-parameters/evaluate"
    ).annotate(Audited, false)
      .setPath(VersionPath)
      .setPayload(DynamicParametersRequest)
      .addSuccess(DynamicParametersResponse)
  )
  .add(
    HttpApiEndpoint.get("variables", "/templateversions/:templateversion/variables")
      .setPath(VersionPath)
      .addSuccess(Schema.Array(TemplateVersionVariable))
  )
  // Removed in the described system, which still answers them with an empty list.
  .add(
    HttpApiEndpoint.get("removedParameters", "/templateversions/:templateversion/parameters").setPath(VersionPath)
      .addSuccess(Schema.Tuple())
  )
  .add(
    HttpApiEndpoint.get("removedSchema", "/templateversions/:templateversion/schema").setPath(VersionPath).addSuccess(
      Schema.Tuple()
    )
  )
  .add(
    HttpApiEndpoint.get("externalAuth", "/templateversions/:templateversion/external-auth")
      .setPath(VersionPath)
      .addSuccess(Schema.Array(TemplateVersionExternalAuth))
  )
  .add(
    HttpApiEndpoint.get("presets", "/templateversions/:templateversion/presets")
      .setPath(VersionPath)
      .addSuccess(Schema.Array(VersionPreset))
  )
  .add(
    // Not audited, as in the described system: a dry run creates nothing but its job.
    HttpApiEndpoint.post("createDryRun", "/templateversions/:templateversion/dry-run").annotate(Audited, false)
      .setPath(VersionPath)
      .setPayload(CreateTemplateVersionDryRunRequest)
      .addSuccess(ProvisionerJob, { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("getDryRun", "/templateversions/:templateversion/dry-run/:jobID").setPath(DryRunPath)
      .addSuccess(ProvisionerJob)
  )
  .add(
    HttpApiEndpoint.get("dryRunLogs", "/templateversions/:templateversion/dry-run/:jobID/logs")
      .setPath(DryRunPath)
      .setUrlParams(JobLogsQuery)
      .addSuccess(Schema.Array(ProvisionerJobLog))
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    HttpApiEndpoint.get("dryRunResources", "/templateversions/:templateversion/dry-run/:jobID/resources")
      .setPath(DryRunPath)
      .addSuccess(Schema.Array(WorkspaceResource))
  )
  .add(
    HttpApiEndpoint.get(
      "dryRunMatchedProvisioners",
      "/templateversions/:templateversion/dry-run/:jobID/matched-provisioners"
    )
      .setPath(DryRunPath)
      .addSuccess(MatchedProvisioners)
  )
  .add(
    HttpApiEndpoint.patch("cancelDryRun", "/templateversions/:templateversion/dry-run/:jobID/cancel").annotate(
      Audited,
      false
    )
      .setPath(DryRunPath)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.post("archive", "/templateversions/:templateversion/archive")
      .annotate(Audited, audit("template_version", { action: "write" }))
      .setPath(VersionPath)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.post("unarchive", "/templateversions/:templateversion/unarchive")
      .annotate(Audited, audit("template_version", { action: "write" }))
      .setPath(VersionPath)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.get("listByTemplate", "/templates/:template/versions")
      .setPath(TemplatePath)
      .setUrlParams(ListTemplateVersionsQuery)
      .addSuccess(Schema.Array(TemplateVersion))
  )
  .add(
    HttpApiEndpoint.patch("promote", "/templates/:template/versions").annotate(Audited, audit("template"))
      .setPath(TemplatePath)
      .setPayload(UpdateActiveTemplateVersion)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.post("archiveUnused", "/templates/:template/versions/archive")
      .annotate(Audited, audit("template", { action: "write" }))
      .setPath(TemplatePath)
      .setPayload(ArchiveTemplateVersionsRequest)
      .addSuccess(ArchiveTemplateVersionsResponse)
  )
  .add(
    HttpApiEndpoint.get("getByTemplateAndName", "/templates/:template/versions/:templateversionname")
      .setPath(TemplateVersionNamePath)
      .addSuccess(TemplateVersion)
  )
  .add(
    HttpApiEndpoint.get(
      "getByOrganizationAndName",
      "/organizations/:organization/templates/:templatename/versions/:templateversionname"
    )
      .setPath(OrganizationTemplatePath)
      .addSuccess(TemplateVersion)
  )
  .add(
    HttpApiEndpoint.get(
      "previous",
      "/organizations/:organization/templates/:templatename/versions/:templateversionname/previous"
    )
      .setPath(OrganizationTemplatePath)
      .addSuccess(TemplateVersion)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
