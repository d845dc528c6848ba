/** IdP sync's query keys and queries: the deployment's organization sync, an organization's group and role sync. */
import { queryOptions } from "@tanstack/react-query"
import { idpSyncApi as api } from "./api.ts"

export const idpSyncKeys = {
  organization: ["idpsync", "organization"] as const,
  groups: (org: string) => ["idpsync", "groups", org] as const,
  roles: (org: string) => ["idpsync", "roles", org] as const,
  /** The claim names sign-ins have shown, of the deployment or of an organization. */
  fields: (org?: string) => org === undefined ? ["idpsync", "fields"] as const : ["idpsync", "fields", org] as const
}

export const organizationSyncQuery = queryOptions({ queryKey: idpSyncKeys.organization, queryFn: api.organizationSync })

export const groupSyncQuery = (org: string) =>
  queryOptions({ queryKey: idpSyncKeys.groups(org), queryFn: () => api.groupSync(org) })

export const roleSyncQuery = (org: string) =>
  queryOptions({ queryKey: idpSyncKeys.roles(org), queryFn: () => api.roleSync(org) })

export const fieldsQuery = queryOptions({ queryKey: idpSyncKeys.fields(), queryFn: api.fields })

export const organizationFieldsQuery = (org: string) =>
  queryOptions({ queryKey: idpSyncKeys.fields(org), queryFn: () => api.organizationFields(org) })
