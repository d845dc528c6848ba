/** The OAuth2 applications' query keys and queries. */
import { queryOptions } from "@tanstack/react-query"
import { oauth2Api as api } from "./api.ts"

export const oauth2Keys = {
  apps: ["oauth2-apps"] as const,
  settings: ["oauth2-provider-settings"] as const,
  app: (id: string) => ["oauth2-app", id] as const,
  secrets: (id: string) => ["oauth2-app-secrets", id] as const
}

export const appsQuery = queryOptions({ queryKey: oauth2Keys.apps, queryFn: api.apps })
export const providerSettingsQuery = queryOptions({ queryKey: oauth2Keys.settings, queryFn: api.settings })
export const appQuery = (id: string) => queryOptions({ queryKey: oauth2Keys.app(id), queryFn: () => api.app(id) })
export const secretsQuery = (id: string) =>
  queryOptions({ queryKey: oauth2Keys.secrets(id), queryFn: () => api.secrets(id) })
