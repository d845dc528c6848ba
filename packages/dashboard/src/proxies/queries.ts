/** The workspace proxies' query keys and queries. */
import { queryOptions } from "@tanstack/react-query"
import { proxiesApi as api } from "./api.ts"

export const proxyKeys = {
  list: ["workspace-proxies"] as const
}

export const proxiesQuery = queryOptions({ queryKey: proxyKeys.list, queryFn: api.list })
