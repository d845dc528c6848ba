/** The enterprise area's query keys and queries: the deployment's appearance, licenses, entitlements, health. */
import { queryOptions } from "@tanstack/react-query"
import { enterpriseApi as api } from "./api.ts"

export const enterpriseKeys = {
  /** The deployment's appearance (not the signed-in user's, the account settings' `appearance`). */
  appearance: ["deployment-appearance"] as const,
  licenses: ["licenses"] as const,
  entitlements: ["entitlements"] as const,
  health: ["health"] as const
}

/** Shared by the frame's banner and the appearance page; asked again at most once a minute. */
export const appearanceQuery = queryOptions({
  queryKey: enterpriseKeys.appearance,
  queryFn: api.appearance,
  staleTime: 60_000
})

export const licensesQuery = queryOptions({ queryKey: enterpriseKeys.licenses, queryFn: api.licenses })
export const entitlementsQuery = queryOptions({ queryKey: enterpriseKeys.entitlements, queryFn: api.entitlements })
export const healthQuery = queryOptions({ queryKey: enterpriseKeys.health, queryFn: () => api.health() })
