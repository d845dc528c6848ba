/**
 * IdP sync (administrators): which organizations, groups and roles an OpenID Connect sign-in gives,
 * from a claim of the identity provider: the deployment's organization sync
 * (`/settings/idpsync/organization`) and each organization's group and role sync
 * (`/organizations/{organization}/settings/idpsync/groups|roles`), each with its `config` and
 * `mapping` PATCHes, and the claim names and values sign-ins have shown.
 */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type OrganizationSync = Schemas["OrganizationSyncSettings"]
export type GroupSync = Schemas["GroupSyncSettings"]
export type RoleSync = Schemas["RoleSyncSettings"]

/** A change of a mapping: claim value `Given` gets (or no longer gets) `Gets`. */
export interface MappingChange {
  readonly Add?: Array<{ Given: string; Gets: string }>
  readonly Remove?: Array<{ Given: string; Gets: string }>
}

const org = (organization: string) => ({ params: { path: { organization } } })

export const idpSyncApi = {
  organizationSync: () => unwrap(client.GET("/api/v2/settings/idpsync/organization")),
  organizationConfig: (body: { field: string; assign_default: boolean }) =>
    unwrap(client.PATCH("/api/v2/settings/idpsync/organization/config", { body })),
  organizationMapping: (body: MappingChange) =>
    unwrap(client.PATCH("/api/v2/settings/idpsync/organization/mapping", { body })),
  fields: () => unwrap(client.GET("/api/v2/settings/idpsync/available-fields")),
  values: (claimField: string) =>
    unwrap(client.GET("/api/v2/settings/idpsync/field-values", { params: { query: { claimField } } })),

  groupSync: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/settings/idpsync/groups", org(organization))),
  groupConfig: (
    organization: string,
    body: { field: string; regex_filter: string; auto_create_missing_groups: boolean }
  ) =>
    unwrap(
      client.PATCH("/api/v2/organizations/{organization}/settings/idpsync/groups/config", {
        ...org(organization),
        body
      })
    ),
  groupMapping: (organization: string, body: MappingChange) =>
    unwrap(
      client.PATCH("/api/v2/organizations/{organization}/settings/idpsync/groups/mapping", {
        ...org(organization),
        body
      })
    ),
  roleSync: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/settings/idpsync/roles", org(organization))),
  roleConfig: (organization: string, body: { field: string }) =>
    unwrap(
      client.PATCH("/api/v2/organizations/{organization}/settings/idpsync/roles/config", {
        ...org(organization),
        body
      })
    ),
  roleMapping: (organization: string, body: MappingChange) =>
    unwrap(
      client.PATCH("/api/v2/organizations/{organization}/settings/idpsync/roles/mapping", {
        ...org(organization),
        body
      })
    ),
  organizationFields: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/settings/idpsync/available-fields", org(organization)))
}

/** A mapping as rows: each claim value with each thing it gives, in order. */
export const mappingRows = (mapping: Readonly<Record<string, ReadonlyArray<string>>>) =>
  Object.entries(mapping).sort(([a], [b]) => a.localeCompare(b)).flatMap(([given, gets]) =>
    gets.map((g) => ({ given, gets: g }))
  )
