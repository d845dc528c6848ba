/**
 * The response schema table's rows of the files, templates and template versions endpoints
 * (packages/http/src/templates/), run by ../responseSchemas.ts.
 */
import { perWorld, type Row, row, type World } from "../responseSchemas.js"
import { SESSION_HEADER, uniqueName } from "../support.js"
import { connect, eventually } from "../websocket.js"
import { makeTemplate, makeVersion } from "./fixtures.js"
import { createVersion, FULL_TEMPLATE, runJobs, seedTemplate } from "./versions.js"

/** A template of the default organization to change or delete in a row. */
const throwawayTemplate = (w: World) =>
  makeTemplate(w.srv, w.owner, { organizationId: w.orgId, createdBy: w.ownerId, name: uniqueName("tmp-tpl") })

/** Uploads `content` (taken as a tar archive) as bob. */
const uploadArchive = (w: World, content: string) =>
  w.bob.client.request("POST", "/files", undefined, { raw: content, headers: { "content-type": "application/x-tar" } })

/** Template versions the rows read, made once: an imported version as a template's active one, a second one, a dry run. */
const versions = perWorld(async (w) => {
  const made = async (extra: Record<string, unknown> = {}) => {
    const r = await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, extra)
    if (r.status !== 201) throw new Error(`version: ${r.status} ${JSON.stringify(r.body)}`)
    await runJobs(w.srv)
    return (await w.owner.get(`/templateversions/${r.body.id}`)).body
  }
  const v1 = await made({ name: "v1" })
  const template = await seedTemplate(w.srv, w.orgId, v1.id, w.ownerId)
  const v2 = await made({ name: "v2", template_id: template.id, message: "second" })
  const dry = await w.owner.post(`/templateversions/${v2.id}/dry-run`, {
    workspace_name: "dry",
    rich_parameter_values: []
  })
  await runJobs(w.srv)
  return { v1: { ...v1, template_id: template.id }, v2, template, dryRun: dry.body }
})

export const responseRows: ReadonlyArray<Row> = [
  // templates: files
  row("files.upload", "POST /api/v2/files", 201, "UploadResponse", (w) => uploadArchive(w, "an upload")),
  row("files.get", "GET /api/v2/files/:fileID", 200, "binary application/x-tar", async (w) => {
    const { body } = await uploadArchive(w, "a download")
    return w.bob.client.get(`/files/${body.hash}`)
  }),
  // templates
  row(
    "templates.listByOrganization",
    "GET /api/v2/organizations/:organization/templates",
    200,
    "[Template]",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/templates`),
      await w.bob.client.get(`/organizations/${w.orgId}/templates?q=deprecated:true`)
    ]
  ),
  row("templates.create", "POST /api/v2/organizations/:organization/templates", 201, "Template", async (w) => {
    const version = await makeVersion(w.srv, { organizationId: w.org.id, createdBy: w.ownerId })
    return w.owner.post(`/organizations/${w.org.id}/templates`, {
      name: uniqueName("made"),
      display_name: "Made",
      icon: "/icon/made.svg",
      template_version_id: version.id,
      autostop_requirement: { days_of_week: ["monday"], weeks: 2 }
    })
  }),
  row(
    "templates.examples",
    "GET /api/v2/templates/examples",
    200,
    "[TemplateExample]",
    (w) => w.owner.get("/templates/examples")
  ),
  row(
    "templates.examplesByOrganization",
    "GET /api/v2/organizations/:organization/templates/examples",
    200,
    "[TemplateExample]",
    (w) => w.owner.get(`/organizations/${w.orgId}/templates/examples`)
  ),
  row(
    "templates.getByName",
    "GET /api/v2/organizations/:organization/templates/:templatename",
    200,
    "Template",
    (w) => w.bob.client.get(`/organizations/${w.orgId}/templates/${w.template.name}`)
  ),
  row("templates.list", "GET /api/v2/templates", 200, "[Template]", async (w) => [
    await w.owner.get("/templates"),
    await w.bob.client.get("/templates?q=deprecated:true")
  ]),
  row(
    "templates.get",
    "GET /api/v2/templates/:template",
    200,
    "Template",
    (w) => w.bob.client.get(`/templates/${w.template.id}`)
  ),
  row("templates.update", "PATCH /api/v2/templates/:template", 200, "Template", async (w) => {
    const t = await throwawayTemplate(w)
    return w.owner.patch(`/templates/${t.id}`, { display_name: "Changed", deprecation_message: "Old." })
  }),
  row(
    "templates.delete",
    "DELETE /api/v2/templates/:template",
    200,
    "Response",
    async (w) => w.owner.delete(`/templates/${(await throwawayTemplate(w)).id}`)
  ),
  row(
    "templates.getAcl",
    "GET /api/v2/templates/:template/acl",
    200,
    "TemplateACL",
    (w) => w.owner.get(`/templates/${w.template.id}/acl`)
  ),
  row(
    "templates.updateAcl",
    "PATCH /api/v2/templates/:template/acl",
    200,
    "Response",
    async (w) =>
      w.owner.patch(`/templates/${(await throwawayTemplate(w)).id}/acl`, { user_perms: { [w.bob.user.id]: "use" } })
  ),
  row(
    "templates.aclAvailable",
    "GET /api/v2/templates/:template/acl/available",
    200,
    "ACLAvailable",
    (w) => w.owner.get(`/templates/${w.template.id}/acl/available`)
  ),
  row(
    "templates.invalidatePresets",
    "POST /api/v2/templates/:template/prebuilds/invalidate",
    200,
    "InvalidatePresetsResponse",
    (w) => w.owner.post(`/templates/${w.template.id}/prebuilds/invalidate`)
  ),
  row(
    "templates.getPrebuildsSettings",
    "GET /api/v2/prebuilds/settings",
    200,
    "PrebuildsSettings",
    (w) => w.bob.client.get("/prebuilds/settings")
  ),
  row(
    "templates.updatePrebuildsSettings",
    "PUT /api/v2/prebuilds/settings",
    200,
    "PrebuildsSettings",
    async (w) => [
      await w.owner.put("/prebuilds/settings", { reconciliation_paused: true }),
      await w.owner.put("/prebuilds/settings", { reconciliation_paused: false })
    ]
  ),

  row(
    "templateVersions.create",
    "POST /api/v2/organizations/:organization/templateversions",
    201,
    "TemplateVersion",
    async (w) => [
      await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, { message: "a message" }),
      await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    ]
  ),
  row("templateVersions.get", "GET /api/v2/templateversions/:templateversion", 200, "TemplateVersion", async (w) => {
    const { v1, v2 } = await versions(w)
    return [await w.owner.get(`/templateversions/${v1.id}`), await w.bob.client.get(`/templateversions/${v2.id}`)]
  }),
  row(
    "templateVersions.update",
    "PATCH /api/v2/templateversions/:templateversion",
    200,
    "TemplateVersion",
    async (w) => w.owner.patch(`/templateversions/${(await versions(w)).v2.id}`, { message: "changed" })
  ),
  row(
    "templateVersions.cancel",
    "PATCH /api/v2/templateversions/:templateversion/cancel",
    200,
    "Response",
    async (w) => {
      const r = await createVersion(w.srv, w.owner, w.orgId, FULL_TEMPLATE, { provisioner: "nobody" })
      return w.owner.patch(`/templateversions/${r.body.id}/cancel`)
    }
  ),
  row(
    "templateVersions.logs",
    "GET /api/v2/templateversions/:templateversion/logs",
    200,
    "[ProvisionerJobLog]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/logs`)
  ),
  row(
    "templateVersions.resources",
    "GET /api/v2/templateversions/:templateversion/resources",
    200,
    "[WorkspaceResource]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/resources`)
  ),
  row(
    "templateVersions.richParameters",
    "GET /api/v2/templateversions/:templateversion/rich-parameters",
    200,
    "[TemplateVersionParameter]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/rich-parameters`)
  ),
  row(
    "templateVersions.dynamicParameters",
    "GET /api/v2/templateversions/:templateversion/dynamic-parameters",
    101,
    "DynamicParametersResponse",
    async (w) => {
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/templateversions/${(await versions(w)).v1.id}/dynamic-parameters`,
        { [SESSION_HEADER]: w.owner.token! }
      )
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
    }
  ),
  row(
    "templateVersions.evaluateDynamicParameters",
    "POST /api/v2/templateversions/:templateversion/dynamic-parameters/evaluate",
    200,
    "DynamicParametersResponse",
    async (w) =>
      w.owner.post(`/templateversions/${(await versions(w)).v1.id}/dynamic-parameters/evaluate`, {
        id: 1,
        inputs: { cpus: "4" }
      })
  ),
  row(
    "templateVersions.variables",
    "GET /api/v2/templateversions/:templateversion/variables",
    200,
    "[TemplateVersionVariable]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/variables`)
  ),
  row(
    "templateVersions.externalAuth",
    "GET /api/v2/templateversions/:templateversion/external-auth",
    200,
    "[TemplateVersionExternalAuth]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/external-auth`)
  ),
  row(
    "templateVersions.presets",
    "GET /api/v2/templateversions/:templateversion/presets",
    200,
    "[Preset]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/presets`)
  ),
  row(
    "templateVersions.createDryRun",
    "POST /api/v2/templateversions/:templateversion/dry-run",
    201,
    "ProvisionerJob",
    async (w) =>
      w.bob.client.post(`/templateversions/${(await versions(w)).v1.id}/dry-run`, {
        workspace_name: "x",
        rich_parameter_values: []
      })
  ),
  row(
    "templateVersions.getDryRun",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID",
    200,
    "ProvisionerJob",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}`)
    }
  ),
  row(
    "templateVersions.dryRunLogs",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID/logs",
    200,
    "[ProvisionerJobLog]",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}/logs`)
    }
  ),
  row(
    "templateVersions.dryRunResources",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID/resources",
    200,
    "[WorkspaceResource]",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}/resources`)
    }
  ),
  row(
    "templateVersions.dryRunMatchedProvisioners",
    "GET /api/v2/templateversions/:templateversion/dry-run/:jobID/matched-provisioners",
    200,
    "MatchedProvisioners",
    async (w) => {
      const { dryRun, v2 } = await versions(w)
      return w.owner.get(`/templateversions/${v2.id}/dry-run/${dryRun.id}/matched-provisioners`)
    }
  ),
  // Removed in the described system, which answers `[]`: any list type holds it.
  row(
    "templateVersions.removedParameters",
    "GET /api/v2/templateversions/:templateversion/parameters",
    200,
    "[TemplateVersionParameter]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/parameters`)
  ),
  row(
    "templateVersions.removedSchema",
    "GET /api/v2/templateversions/:templateversion/schema",
    200,
    "[TemplateVersionParameter]",
    async (w) => w.owner.get(`/templateversions/${(await versions(w)).v1.id}/schema`)
  ),
  row(
    "templateVersions.cancelDryRun",
    "PATCH /api/v2/templateversions/:templateversion/dry-run/:jobID/cancel",
    200,
    "Response",
    async (w) => {
      // A dry run that takes a while (`build.delay_ms`), so it is still unfinished when the cancel arrives.
      // The import waits as long (two waits of one log line), within runJobs' 10 s.
      const slow = await createVersion(
        w.srv,
        w.owner,
        w.orgId,
        FULL_TEMPLATE.replace("build:\n", "build:\n  delay_ms: 2000\n")
      )
      await runJobs(w.srv)
      const dry = await w.owner.post(`/templateversions/${slow.body.id}/dry-run`, { workspace_name: "c" })
      return w.owner.patch(`/templateversions/${slow.body.id}/dry-run/${dry.body.id}/cancel`)
    }
  ),
  row(
    "templateVersions.archive",
    "POST /api/v2/templateversions/:templateversion/archive",
    200,
    "Response",
    async (w) => w.owner.post(`/templateversions/${(await versions(w)).v2.id}/archive`)
  ),
  row(
    "templateVersions.unarchive",
    "POST /api/v2/templateversions/:templateversion/unarchive",
    200,
    "Response",
    async (w) => w.owner.post(`/templateversions/${(await versions(w)).v2.id}/unarchive`)
  ),
  row(
    "templateVersions.listByTemplate",
    "GET /api/v2/templates/:template/versions",
    200,
    "[TemplateVersion]",
    async (w) => w.owner.get(`/templates/${(await versions(w)).template.id}/versions?include_archived=true`)
  ),
  row("templateVersions.promote", "PATCH /api/v2/templates/:template/versions", 200, "Response", async (w) => {
    const { template, v2 } = await versions(w)
    return w.owner.patch(`/templates/${template.id}/versions`, { id: v2.id })
  }),
  row(
    "templateVersions.archiveUnused",
    "POST /api/v2/templates/:template/versions/archive",
    200,
    "ArchiveTemplateVersionsResponse",
    async (w) => w.owner.post(`/templates/${(await versions(w)).template.id}/versions/archive`, { all: false })
  ),
  row(
    "templateVersions.getByTemplateAndName",
    "GET /api/v2/templates/:template/versions/:templateversionname",
    200,
    "TemplateVersion",
    async (w) => w.owner.get(`/templates/${(await versions(w)).template.id}/versions/v1`)
  ),
  row(
    "templateVersions.getByOrganizationAndName",
    "GET /api/v2/organizations/:organization/templates/:templatename/versions/:templateversionname",
    200,
    "TemplateVersion",
    async (w) => w.owner.get(`/organizations/${w.orgId}/templates/${(await versions(w)).template.name}/versions/v2`)
  ),
  row(
    "templateVersions.previous",
    "GET /api/v2/organizations/:organization/templates/:templatename/versions/:templateversionname/previous",
    200,
    "TemplateVersion",
    async (w) =>
      w.owner.get(`/organizations/${w.orgId}/templates/${(await versions(w)).template.name}/versions/v2/previous`)
  )
]
