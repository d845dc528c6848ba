/** The administration of users: its query keys and queries. */
import { queryOptions } from "@tanstack/react-query"
import { usersAdminApi as api } from "./api.ts"

export const usersAdminKeys = {
  /** Every page of every search: what a change of a user invalidates. */
  users: ["admin-users"] as const,
  page: (q: string, page: number) => ["admin-users", q, page] as const,
  siteRoles: ["site-roles"] as const
}

/** Page `page` (from 0) of the users `q` finds, `size` a page. */
export const usersQuery = (q: string, page: number, size: number) =>
  queryOptions({ queryKey: usersAdminKeys.page(q, page), queryFn: () => api.users(q, size, page * size) })

/** The site-wide roles the caller may assign. */
export const siteRolesQuery = queryOptions({ queryKey: usersAdminKeys.siteRoles, queryFn: api.siteRoles })
