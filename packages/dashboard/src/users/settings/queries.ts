/** The account settings' query keys and queries, all of the signed-in user. */
import { queryOptions } from "@tanstack/react-query"
import { settingsApi as api } from "./api.ts"

export const settingsKeys = {
  /** The signed-in user's appearance (not the deployment's, enterprise's `appearance`). */
  appearance: ["user-appearance"] as const,
  tokens: ["tokens"] as const,
  tokenConfig: ["token-config"] as const,
  gitSshKey: ["gitsshkey"] as const,
  quietHours: ["quiet-hours"] as const,
  externalAuth: ["external-auth"] as const
}

export const appearanceQuery = queryOptions({ queryKey: settingsKeys.appearance, queryFn: api.appearance })
export const tokensQuery = queryOptions({ queryKey: settingsKeys.tokens, queryFn: api.tokens })
export const tokenConfigQuery = queryOptions({ queryKey: settingsKeys.tokenConfig, queryFn: api.tokenConfig })
export const gitSshKeyQuery = queryOptions({ queryKey: settingsKeys.gitSshKey, queryFn: api.gitSshKey })
export const quietHoursQuery = queryOptions({ queryKey: settingsKeys.quietHours, queryFn: api.quietHours })
export const externalAuthQuery = queryOptions({ queryKey: settingsKeys.externalAuth, queryFn: api.externalAuth })
