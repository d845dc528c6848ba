/**
 * The templates area's query keys and queries: templates, their versions (with their variables,
 * resources and dry runs), presets and prebuilt workspaces, permissions and insights.
 */
import { type QueryClient, queryOptions } from "@tanstack/react-query"
import { organizationQuery } from "../organizations/queries.ts"
import { ORGANIZATION, type Template, templatesApi as api } from "./api.ts"

export const templateKeys = {
  /** The templates the caller may see, one list for every page that shows or picks them. */
  list: ["templates"] as const,
  /** Template `name` of `organization` (none: the default one), as its pages look it up. */
  template: (name: string, organization?: string) => ["template", organization ?? "", name] as const,
  /** A template's versions; a prefix of each version's by name, so refreshing them refreshes those too. */
  versions: (template: string) => ["template-versions", template] as const,
  versionByName: (template: string, name: string) => [...templateKeys.versions(template), name] as const,
  /** A version by id; a prefix of its variables' key. */
  version: (id: string) => ["templateversion", id] as const,
  variables: (version: string) => [...templateKeys.version(version), "variables"] as const,
  resources: (version: string | undefined) => ["template-version-resources", version] as const,
  dryRun: (version: string, job: string | undefined) => ["dry-run", version, job] as const,
  dryRunResources: (version: string, job: string | undefined) => ["dry-run-resources", version, job] as const,
  /** A version's presets (the create-workspace form's too). */
  presets: (version: string) => ["presets", version] as const,
  prebuilds: (template: string) => ["prebuilds", template] as const,
  permissions: (template: string) => ["template-permissions", template] as const,
  acl: (template: string) => ["template-acl", template] as const,
  aclAvailable: (template: string, q: string) => ["template-acl-available", template, q] as const,
  insights: (template: string, start: string, end: string) => ["template-insights", template, start, end] as const,
  examples: ["template-examples"] as const,
  provisionerTypes: ["provisioner-types"] as const
}

export const templatesQuery = queryOptions({ queryKey: templateKeys.list, queryFn: api.templates })

/** The default organization (its name: templates of other organizations name theirs in their paths). */
export const defaultOrganizationQuery = queryOptions({ ...organizationQuery(ORGANIZATION), staleTime: Infinity })

export const templateQuery = (name: string, organization?: string) =>
  queryOptions({ queryKey: templateKeys.template(name, organization), queryFn: () => api.template(name, organization) })

export const versionsQuery = (template: string) =>
  queryOptions({ queryKey: templateKeys.versions(template), queryFn: () => api.versions(template) })

export const versionByNameQuery = (template: string, name: string) =>
  queryOptions({
    queryKey: templateKeys.versionByName(template, name),
    queryFn: () => api.versionByName(template, name)
  })

export const versionQuery = (id: string) =>
  queryOptions({ queryKey: templateKeys.version(id), queryFn: () => api.version(id), staleTime: 30_000 })

export const variablesQuery = (version: string) =>
  queryOptions({ queryKey: templateKeys.variables(version), queryFn: () => api.variables(version) })

/** The resources of version `version` (asked once it is known and imported: `enabled`). */
export const resourcesQuery = (version: string | undefined) =>
  queryOptions({ queryKey: templateKeys.resources(version), queryFn: () => api.resources(version!) })

export const dryRunQuery = (version: string, job: string | undefined) =>
  queryOptions({ queryKey: templateKeys.dryRun(version, job), queryFn: () => api.dryRunJob(version, job!) })

export const dryRunResourcesQuery = (version: string, job: string | undefined) =>
  queryOptions({
    queryKey: templateKeys.dryRunResources(version, job),
    queryFn: () => api.dryRunResources(version, job!)
  })

export const presetsQuery = (version: string) =>
  queryOptions({ queryKey: templateKeys.presets(version), queryFn: () => api.presets(version) })

/** The template's prebuilt workspaces (those of the prebuilds user of its name that are of it). */
export const prebuildsQuery = (t: Template) =>
  queryOptions({
    queryKey: templateKeys.prebuilds(t.id),
    queryFn: async () => (await api.prebuiltWorkspaces(t.name)).workspaces.filter((w) => w.template_id === t.id)
  })

export const templatePermissionsQuery = (t: Template) =>
  queryOptions({ queryKey: templateKeys.permissions(t.id), queryFn: () => api.templatePermissions(t) })

export const aclQuery = (template: string) =>
  queryOptions({ queryKey: templateKeys.acl(template), queryFn: () => api.acl(template) })

export const aclAvailableQuery = (template: string, q: string) =>
  queryOptions({ queryKey: templateKeys.aclAvailable(template, q), queryFn: () => api.aclAvailable(template, q) })

export const insightsQuery = (template: string, range: { start: string; end: string }) =>
  queryOptions({
    queryKey: templateKeys.insights(template, range.start, range.end),
    queryFn: () => api.insights({ start_time: range.start, end_time: range.end }, [template])
  })

export const examplesQuery = queryOptions({ queryKey: templateKeys.examples, queryFn: api.examples })

export const provisionerTypesQuery = queryOptions({
  queryKey: templateKeys.provisionerTypes,
  queryFn: api.provisioners,
  staleTime: 60_000
})

/** After the template's active version changed: its versions, the template and the list are read again. */
export const activeVersionChanged = (queryClient: QueryClient, t: Template, organization?: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: templateKeys.versions(t.id) }),
    queryClient.invalidateQueries({ queryKey: templateKeys.template(t.name, organization) }),
    queryClient.invalidateQueries({ queryKey: templateKeys.list })
  ])
