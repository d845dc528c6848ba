/** The audit and connection logs' query keys and queries: a page (from 0) of what `q` finds. */
import { queryOptions } from "@tanstack/react-query"
import { auditApi as api } from "./api.ts"

export const auditKeys = {
  logs: (q: string, page: number) => ["audit", q, page] as const,
  connections: (q: string, page: number) => ["connectionlog", q, page] as const
}

export const auditLogsQuery = (q: string, page: number, size: number) =>
  queryOptions({ queryKey: auditKeys.logs(q, page), queryFn: () => api.logs(q, size, page * size) })

export const connectionLogsQuery = (q: string, page: number, size: number) =>
  queryOptions({ queryKey: auditKeys.connections(q, page), queryFn: () => api.connections(q, size, page * size) })
