/**
 * Template versions: the stored record, what its import found (kept with ids for resources,
 * agents, apps and presets, so the API can name them), dry runs, and the repository port.
 */
import { Context, type Effect, type Option } from "effect"
import type {
  AgentApp,
  AgentScript,
  ExternalAuthProvider,
  NameValue,
  Preset,
  ProvisionedAgent,
  ProvisionedResource,
  RichParameter,
  TemplateVariable,
  WorkspaceTransition
} from "../provisioners/Provisioner.js"
import type { ProvisionerTags } from "../provisioners/ProvisionerJob.js"
import type { AuthzObject } from "../Rbac.js"
import type { NewRecord, UniqueViolation } from "../Repositories.js"
import { templateObject, type TemplateRecord } from "./Template.js"

export interface ImportedApp extends AgentApp {
  readonly id: string
}
export interface ImportedScript extends AgentScript {
  readonly id: string
}
export interface ImportedAgent extends Omit<ProvisionedAgent, "apps" | "scripts"> {
  readonly id: string
  readonly apps: ReadonlyArray<ImportedApp>
  readonly scripts: ReadonlyArray<ImportedScript>
}
/** A resource an import (or a dry run) found, with the transition it belongs to and the job that found it. */
export interface ImportedResource extends Omit<ProvisionedResource, "agents"> {
  readonly id: string
  readonly job_id: string
  readonly created_at: Date
  readonly transition: WorkspaceTransition
  readonly agents: ReadonlyArray<ImportedAgent>
}
export interface ImportedPreset extends Preset {
  readonly id: string
}

/** What a succeeded import left on its version. */
export interface TemplateVersionImport {
  readonly parameters: ReadonlyArray<RichParameter>
  readonly variables: ReadonlyArray<TemplateVariable>
  readonly resources: ReadonlyArray<ImportedResource>
  readonly external_auth_providers: ReadonlyArray<ExternalAuthProvider>
  readonly presets: ReadonlyArray<ImportedPreset>
  readonly has_ai_task: boolean
  readonly ai_task_app_slug: string | undefined
  readonly has_external_agent: boolean
}

/** A stored template version. */
export interface TemplateVersionRecord {
  readonly id: string
  /** `null` until a template is created from the version. */
  readonly template_id: string | null
  readonly organization_id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly name: string
  readonly message: string
  readonly readme: string
  readonly job_id: string
  readonly created_by: string
  readonly archived: boolean
  readonly file_id: string
  readonly provisioner: string
  readonly tags: ProvisionerTags
  /** The template variables' values the author gave. */
  readonly user_variable_values: ReadonlyArray<NameValue>
  /** `null` until the import job succeeds. */
  readonly import_result: TemplateVersionImport | null
}

/**
 * What a new template version is made of: its organization, name, import job, author, file and
 * provisioner; every other field may be given or takes its default.
 */
export type NewTemplateVersion = NewRecord<
  TemplateVersionRecord,
  "id" | "organization_id" | "name" | "job_id" | "created_by" | "file_id" | "provisioner"
>

/**
 * A new template version's stored record: the one constructor every writer uses (the versions
 * service and the test factories), so a new field gets its default here once. Made at `at`, of no
 * template yet, without a message or readme, not archived, with no variable values and no import
 * result; its tags are those of an import job enqueued without any (`mutateTags`: organization
 * scope), for a version's tags are its job's.
 */
export const newTemplateVersion = ({ at, ...given }: NewTemplateVersion): TemplateVersionRecord => ({
  template_id: null,
  created_at: at,
  updated_at: at,
  message: "",
  readme: "",
  archived: false,
  tags: { scope: "organization" },
  user_variable_values: [],
  import_result: null,
  ...given
})

export type TemplateVersionPatch = Partial<
  Pick<TemplateVersionRecord, "name" | "message" | "archived" | "template_id" | "readme">
>

/** A page of a template's versions, oldest first (the described system's order). */
export interface TemplateVersionPage {
  readonly templateId: string
  readonly limit: number
  readonly offset?: number | undefined
  /** Versions created after this one (keyset paging). */
  readonly afterId?: string | undefined
  readonly includeArchived: boolean
}

/** A dry run of a version: its inputs and, once its job succeeds, the resources it would create. */
export interface DryRunRecord {
  readonly job_id: string
  readonly template_version_id: string
  readonly workspace_name: string
  readonly rich_parameter_values: ReadonlyArray<NameValue>
  readonly user_variable_values: ReadonlyArray<NameValue>
  readonly resources: ReadonlyArray<ImportedResource> | null
}

export class TemplateVersionRepo extends Context.Tag("@workbay/core/TemplateVersionRepo")<TemplateVersionRepo, {
  /** Fails with `UniqueViolation` when the template has a version of that name. */
  readonly insert: (version: TemplateVersionRecord) => Effect.Effect<void, UniqueViolation>
  readonly findById: (id: string) => Effect.Effect<Option.Option<TemplateVersionRecord>>
  /** The versions of `ids` that exist, in one read (any order). */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TemplateVersionRecord>>
  readonly findByJobId: (jobId: string) => Effect.Effect<Option.Option<TemplateVersionRecord>>
  /** The versions built from file `fileId` (who may read one of them may read the file). */
  readonly listByFileId: (fileId: string) => Effect.Effect<ReadonlyArray<TemplateVersionRecord>>
  /** The template's version of that name (case-insensitive). */
  readonly findByTemplateAndName: (
    templateId: string,
    name: string
  ) => Effect.Effect<Option.Option<TemplateVersionRecord>>
  readonly listByTemplate: (page: TemplateVersionPage) => Effect.Effect<ReadonlyArray<TemplateVersionRecord>>
  /** The template's version created just before `versionId`. */
  readonly previous: (templateId: string, versionId: string) => Effect.Effect<Option.Option<TemplateVersionRecord>>
  /** None when there is no version `id`. */
  readonly update: (
    id: string,
    patch: TemplateVersionPatch,
    now: Date
  ) => Effect.Effect<Option.Option<TemplateVersionRecord>, UniqueViolation>
  /**
   * Archives (or unarchives) the given versions of a template; answers the ids that changed.
   * Archiving leaves out the versions in use: that of the latest build, unless a delete, of each
   * of the template's undeleted workspaces (checked in the same statement).
   */
  readonly setArchived: (
    templateId: string,
    ids: ReadonlyArray<string>,
    archived: boolean,
    now: Date
  ) => Effect.Effect<ReadonlyArray<string>>
  readonly setImportResult: (id: string, result: TemplateVersionImport, now: Date) => Effect.Effect<void>
  readonly insertDryRun: (dryRun: DryRunRecord) => Effect.Effect<void>
  readonly findDryRun: (jobId: string) => Effect.Effect<Option.Option<DryRunRecord>>
  readonly setDryRunResources: (jobId: string, resources: ReadonlyArray<ImportedResource>) => Effect.Effect<void>
}>() {}

/**
 * How authorization names a version: as its template (with the template's access list), or,
 * for a version not yet given to a template, as the `template` resource of its organization.
 */
export const versionObject = (
  version: Pick<TemplateVersionRecord, "organization_id">,
  template: Pick<TemplateRecord, "id" | "organization_id" | "user_acl" | "group_acl"> | undefined
): AuthzObject =>
  template !== undefined ? templateObject(template) : { type: "template", orgId: version.organization_id }
