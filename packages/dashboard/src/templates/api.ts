/**
 * The templates area's calls: templates and their versions, starter templates, archive uploads,
 * the access list and the insights report. Templates are looked up by name in the default
 * organization (`/organizations/default/...`), as the dashboard's `/templates/:template` reads.
 */
import { ApiError, client, isStatus, type Schemas, unwrap } from "../api/client.ts"
import { organizationsApi } from "../organizations/api.ts"

export type Template = Schemas["Template"]
export type TemplateVersion = Schemas["TemplateVersion"]
export type TemplateExample = Schemas["TemplateExample"]
export type TemplateVariable = Schemas["TemplateVersionVariable"]
export type TemplateACL = Schemas["TemplateACL"]
export type VariableValue = Schemas["VariableValue"]
export type UpdateTemplateMeta = Schemas["UpdateTemplateMeta"]
export type TemplateRole = "admin" | "use"
export type TemplateResource = Schemas["WorkspaceResource"]
export type Preset = Schemas["Preset"]
export type PrebuiltWorkspace = Schemas["Workspace"]

/**
 * The system user owning the prebuilt workspaces (the described system's fixed id; docs/prebuilds.md,
 * "The prebuilds user").
 */
export const PREBUILDS_USER_ID = "c42fdf75-3097-471c-8c33-fb52454d81c0"

/** The organization the dashboard creates templates in and looks them up by name in. */
export const ORGANIZATION = "default"

/**
 * Where a new version's archive comes from: a starter template, or a file (uploaded first, or an
 * existing version's, imported again with its provisioner tags).
 */
export type VersionSource =
  | { readonly exampleId: string }
  | { readonly fileId: string; readonly provisioner: string; readonly tags?: Readonly<Record<string, string>> }

/** The content type the service takes for an archive: zip by its name or type, else tar. */
export const archiveType = (file: { readonly name: string; readonly type: string }) =>
  file.type === "application/zip" || file.type === "application/x-zip-compressed" ||
    file.name.toLowerCase().endsWith(".zip")
    ? "application/zip"
    : "application/x-tar"

const path = { organization: ORGANIZATION }

export const templatesApi = {
  templates: () => unwrap(client.GET("/api/v2/templates")),
  /** Template `name` of `organization` (default: the default organization). */
  template: (name: string, organization: string = ORGANIZATION) =>
    unwrap(
      client.GET("/api/v2/organizations/{organization}/templates/{templatename}", {
        params: { path: { organization, templatename: name } }
      })
    ),
  examples: () => unwrap(client.GET("/api/v2/organizations/{organization}/templates/examples", { params: { path } })),
  /** The provisioner types the organization's provisioners serve (for uploaded archives). */
  provisioners: async () => {
    const daemons = await organizationsApi.daemons(ORGANIZATION)
    return [...new Set(daemons.flatMap((d) => d.provisioners))].sort()
  },
  /** Uploads an archive (`POST /files`, tar or zip by `archiveType`); answers the file's id. */
  upload: async (file: File) => {
    const answer = await unwrap(
      client.POST("/api/v2/files", {
        // The archive's bytes as they are (the typed body is the schema's string).
        body: file as unknown as string,
        bodySerializer: (body) => body as unknown as BodyInit,
        headers: { "Content-Type": archiveType(file) }
      })
    )
    return answer.hash
  },
  createVersion: (
    source: VersionSource,
    options: { templateId?: string; variables?: ReadonlyArray<VariableValue> } = {}
  ) =>
    unwrap(
      client.POST("/api/v2/organizations/{organization}/templateversions", {
        params: { path },
        body: {
          storage_method: "file",
          // A starter template is imported by the provisioner it is written for, whatever this says.
          ...("exampleId" in source
            ? { example_id: source.exampleId, provisioner: "workbay" }
            : {
              file_id: source.fileId,
              provisioner: source.provisioner,
              ...(source.tags === undefined ? {} : { tags: { ...source.tags } })
            }),
          ...(options.templateId === undefined ? {} : { template_id: options.templateId }),
          ...(options.variables === undefined || options.variables.length === 0
            ? {}
            : { user_variable_values: [...options.variables] })
        }
      })
    ),
  version: (id: string) =>
    unwrap(client.GET("/api/v2/templateversions/{templateversion}", { params: { path: { templateversion: id } } })),
  /** Version `name` of the template `template` (an id). */
  versionByName: (template: string, name: string) =>
    unwrap(
      client.GET("/api/v2/templates/{template}/versions/{templateversionname}", {
        params: { path: { template, templateversionname: name } }
      })
    ),
  resources: (id: string) =>
    unwrap(
      client.GET("/api/v2/templateversions/{templateversion}/resources", { params: { path: { templateversion: id } } })
    ),
  /** Starts a dry run of version `id` with the parameters' defaults (and `values`). */
  dryRun: (id: string, values: ReadonlyArray<{ name: string; value: string }> = []) =>
    unwrap(
      client.POST("/api/v2/templateversions/{templateversion}/dry-run", {
        params: { path: { templateversion: id } },
        body: { rich_parameter_values: [...values] }
      })
    ),
  dryRunJob: (id: string, job: string) =>
    unwrap(
      client.GET("/api/v2/templateversions/{templateversion}/dry-run/{jobID}", {
        params: { path: { templateversion: id, jobID: job } }
      })
    ),
  dryRunResources: (id: string, job: string) =>
    unwrap(
      client.GET("/api/v2/templateversions/{templateversion}/dry-run/{jobID}/resources", {
        params: { path: { templateversion: id, jobID: job } }
      })
    ),
  variables: (id: string) =>
    unwrap(
      client.GET("/api/v2/templateversions/{templateversion}/variables", { params: { path: { templateversion: id } } })
    ),
  createTemplate: (body: { name: string; display_name: string; description: string; template_version_id: string }) =>
    unwrap(client.POST("/api/v2/organizations/{organization}/templates", { params: { path }, body })),
  versions: (template: string) =>
    unwrap(
      client.GET("/api/v2/templates/{template}/versions", {
        params: { path: { template }, query: { include_archived: "true" } }
      })
    ),
  promote: (template: string, id: string) =>
    unwrap(client.PATCH("/api/v2/templates/{template}/versions", { params: { path: { template } }, body: { id } })),
  archive: (id: string, archived: boolean) =>
    archived
      ? unwrap(
        client.POST("/api/v2/templateversions/{templateversion}/archive", { params: { path: { templateversion: id } } })
      )
      : unwrap(
        client.POST("/api/v2/templateversions/{templateversion}/unarchive", {
          params: { path: { templateversion: id } }
        })
      ),
  /** Changes the template; `undefined` when nothing changed (the service answers 304). */
  update: async (template: string, body: UpdateTemplateMeta) => {
    try {
      return await unwrap(client.PATCH("/api/v2/templates/{template}", { params: { path: { template } }, body }))
    } catch (e) {
      if (isStatus(e, 304)) return undefined
      throw e
    }
  },
  remove: (template: string) =>
    unwrap(client.DELETE("/api/v2/templates/{template}", { params: { path: { template } } })),
  acl: (template: string) => unwrap(client.GET("/api/v2/templates/{template}/acl", { params: { path: { template } } })),
  aclAvailable: (template: string, q: string) =>
    unwrap(
      client.GET("/api/v2/templates/{template}/acl/available", {
        params: { path: { template }, query: { q, limit: "20" } }
      })
    ),
  /** Sets (a role) or removes (`""`) access list entries. */
  updateAcl: (
    template: string,
    perms: { user_perms?: Record<string, TemplateRole | "">; group_perms?: Record<string, TemplateRole | ""> }
  ) => unwrap(client.PATCH("/api/v2/templates/{template}/acl", { params: { path: { template } }, body: perms })),
  /** The presets of version `id` (`DesiredPrebuildInstances`: the prebuilt workspaces it keeps, or null). */
  presets: (id: string) =>
    unwrap(
      client.GET("/api/v2/templateversions/{templateversion}/presets", { params: { path: { templateversion: id } } })
    ),
  /**
   * The prebuilt workspaces of the template named `name` (the prebuilds user's:
   * `GET /workspaces?q=owner:prebuilds template:<name>`), at most 100.
   */
  prebuiltWorkspaces: (name: string) =>
    unwrap(
      client.GET("/api/v2/workspaces", {
        params: { query: { q: `owner:prebuilds template:${name}`, limit: "100", offset: "0" } }
      })
    ),
  /** Gives every prebuilt workspace of the template a delete build; the reconciler builds fresh ones. */
  invalidatePrebuilds: (template: string) =>
    unwrap(client.POST("/api/v2/templates/{template}/prebuilds/invalidate", { params: { path: { template } } })),
  /** The template's checks of the one evaluator (`POST /authcheck`): may the user change it, see its prebuilt workspaces? */
  templatePermissions: async (t: Template) => {
    const answer = await unwrap(client.POST("/api/v2/authcheck", {
      body: {
        checks: {
          update: { object: { resource_type: "template", resource_id: t.id }, action: "update" },
          viewPrebuilds: {
            object: { resource_type: "workspace", owner_id: PREBUILDS_USER_ID, organization_id: t.organization_id },
            action: "read"
          }
        }
      }
    }))
    return { update: answer["update"] === true, viewPrebuilds: answer["viewPrebuilds"] === true }
  },
  /** The templates' usage per day over `range` (`GET /insights/templates`), of `templateIds` or all. */
  insights: (range: { start_time: string; end_time: string }, templateIds: ReadonlyArray<string> = []) =>
    unwrap(
      client.GET("/api/v2/insights/templates", {
        params: {
          query: { ...range, interval: "day", ...(templateIds.length > 0 ? { template_ids: [...templateIds] } : {}) }
        }
      })
    )
}

/** Whether a version's import failed for want of required template variables. */
export const needsVariables = (version: TemplateVersion) =>
  version.job.status === "failed" && version.job.error_code === "REQUIRED_TEMPLATE_VARIABLES"

/** Whether a version's import is over (in any way). */
export const importEnded = (version: TemplateVersion) =>
  !["pending", "running", "canceling"].includes(version.job.status)

/** A template's name as people read it: its display name, else its name. */
export const displayName = (t: { readonly name: string; readonly display_name: string }) =>
  t.display_name.trim() === "" ? t.name : t.display_name

/** The service's message for a field (one of its validations), if any. */
export const fieldError = (error: Error | null, field: string) =>
  error instanceof ApiError ? error.validations.find((v) => v.field === field)?.detail : undefined
