/** The general area's query keys and queries: the deployment's configuration. */
import { queryOptions } from "@tanstack/react-query"
import { generalApi as api } from "./api.ts"

export const generalKeys = {
  config: ["deployment-config"] as const
}

export const deploymentConfigQuery = queryOptions({ queryKey: generalKeys.config, queryFn: api.config })
