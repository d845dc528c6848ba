/** An organization's groups: their query keys and queries. */
import { type QueryClient, queryOptions } from "@tanstack/react-query"
import { groupsApi as api } from "./api.ts"

export const groupKeys = {
  list: (org: string) => ["groups", org] as const,
  group: (org: string, group: string) => ["group", org, group] as const,
  /**
   * The signed-in user's quota in an organization (the create-workspace form's, workspaces'
   * queries.ts), which its groups' allowances make; without one, every organization's.
   */
  quota: (organization?: string) => organization === undefined ? ["quota"] as const : ["quota", organization] as const
}

export const groupsQuery = (org: string) =>
  queryOptions({ queryKey: groupKeys.list(org), queryFn: () => api.list(org) })

export const groupQuery = (org: string, group: string) =>
  queryOptions({ queryKey: groupKeys.group(org, group), queryFn: () => api.byName(org, group) })

/** After a group of `org` changed: its list, and the quotas its allowances and members make. */
export const groupsChanged = async (queryClient: QueryClient, org: string) => {
  await queryClient.invalidateQueries({ queryKey: groupKeys.list(org) })
  await queryClient.invalidateQueries({ queryKey: groupKeys.quota() })
}
