/** The organizations area's query keys and queries (`org`: an organization's name or id). */
import { queryOptions } from "@tanstack/react-query"
import { organizationsApi as api } from "./api.ts"

export const organizationKeys = {
  list: ["organizations"] as const,
  organization: (org: string) => ["organization", org] as const,
  members: (org: string) => ["org-members", org] as const,
  /** Its built-in and custom roles (the members' roles, the roles page, IdP role sync). */
  roles: (org: string) => ["org-roles", org] as const,
  daemons: (org: string) => ["daemons", org] as const,
  hosts: (org: string) => ["provisioner-hosts", org] as const,
  /** What the user may do with its provisioner daemons (by the organization's id). */
  provisionerPermissions: (orgId: string) => ["provisioner-permissions", orgId] as const,
  jobs: (org: string) => ["jobs", org] as const
}

export const organizationsQuery = queryOptions({ queryKey: organizationKeys.list, queryFn: api.list })

export const organizationQuery = (org: string) =>
  queryOptions({ queryKey: organizationKeys.organization(org), queryFn: () => api.get(org) })

export const membersQuery = (org: string) =>
  queryOptions({ queryKey: organizationKeys.members(org), queryFn: () => api.members(org) })

export const rolesQuery = (org: string) =>
  queryOptions({ queryKey: organizationKeys.roles(org), queryFn: () => api.roles(org) })

export const daemonsQuery = (org: string) =>
  queryOptions({ queryKey: organizationKeys.daemons(org), queryFn: () => api.daemons(org) })

/** Hosts report every few seconds: their figures are read again every 10 s while the page is open. */
export const hostsQuery = (org: string) =>
  queryOptions({ queryKey: organizationKeys.hosts(org), queryFn: () => api.hosts(org), refetchInterval: 10_000 })

/** May the user drain the organization's hosts (update on its `provisioner_daemon`s)? */
export const provisionerPermissionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: organizationKeys.provisionerPermissions(orgId),
    queryFn: () => api.provisionerPermissions(orgId),
    enabled: orgId !== ""
  })

export const jobsQuery = (org: string) =>
  queryOptions({ queryKey: organizationKeys.jobs(org), queryFn: () => api.jobs(org) })
