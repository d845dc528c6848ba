/**
 * The feature gate's table: which licensed feature each route needs, as the described system's
 * enterprise router wraps its route groups (enterprise/coderd/coderd.go `RequireFeatureMW`,
 * `templateRBACEnabledMW`). The dispatcher consults it once per route when it compiles the
 * routes; on a request of a gated route it asks `Licensing.enabled`, and a feature the licenses
 * do not grant answers 403 "<Feature> is a Premium feature. Contact sales!". Without a license
 * key every feature is enabled and nothing is asked.
 */
import { type FeatureName, humanize } from "@workbay/core"

/** `METHOD path` (the HttpApi path template) to the feature it needs. */
export const gatedRoutes: ReadonlyMap<string, FeatureName> = new Map<string, FeatureName>([
  // Appearance: reading it is free, changing it is licensed.
  ["PUT /api/v2/appearance", "appearance"],
  // The audit log and the connection log.
  ["GET /api/v2/audit", "audit_log"],
  ["GET /api/v2/connectionlog", "connection_log"],
  // Groups and template access lists (template RBAC).
  ["GET /api/v2/groups", "template_rbac"],
  ["GET /api/v2/groups/:group", "template_rbac"],
  ["PATCH /api/v2/groups/:group", "template_rbac"],
  ["DELETE /api/v2/groups/:group", "template_rbac"],
  ["GET /api/v2/groups/:group/members", "template_rbac"],
  ["GET /api/v2/organizations/:organization/groups", "template_rbac"],
  ["POST /api/v2/organizations/:organization/groups", "template_rbac"],
  ["GET /api/v2/organizations/:organization/groups/:groupName", "template_rbac"],
  ["GET /api/v2/templates/:template/acl", "template_rbac"],
  ["PATCH /api/v2/templates/:template/acl", "template_rbac"],
  ["GET /api/v2/templates/:template/acl/available", "template_rbac"],
  // AI cost controls of groups.
  ["GET /api/v2/groups/:group/ai/budget", "aibridge"],
  ["PUT /api/v2/groups/:group/ai/budget", "aibridge"],
  ["DELETE /api/v2/groups/:group/ai/budget", "aibridge"],
  // More organizations than the default one.
  ["POST /api/v2/organizations", "multiple_organizations"],
  ["PATCH /api/v2/organizations/:organization", "multiple_organizations"],
  ["DELETE /api/v2/organizations/:organization", "multiple_organizations"],
  // External provisioner daemons: their keys and their serve route.
  ["POST /api/v2/organizations/:organization/provisionerkeys", "external_provisioner_daemons"],
  ["GET /api/v2/organizations/:organization/provisionerkeys", "external_provisioner_daemons"],
  ["GET /api/v2/organizations/:organization/provisionerkeys/daemons", "external_provisioner_daemons"],
  ["DELETE /api/v2/organizations/:organization/provisionerkeys/:provisionerkey", "external_provisioner_daemons"],
  ["GET /api/v2/organizations/:organization/provisionerdaemons/serve", "external_provisioner_daemons"],
  ["GET /api/v2/provisionerkeys/:provisionerkey", "external_provisioner_daemons"],
  // Custom organization roles.
  ["POST /api/v2/organizations/:organization/members/roles", "custom_roles"],
  ["PUT /api/v2/organizations/:organization/members/roles", "custom_roles"],
  ["DELETE /api/v2/organizations/:organization/members/roles/:roleName", "custom_roles"],
  // Prebuilt workspaces.
  ["POST /api/v2/templates/:template/prebuilds/invalidate", "workspace_prebuilds"],
  ["GET /api/v2/prebuilds/settings", "workspace_prebuilds"],
  ["PUT /api/v2/prebuilds/settings", "workspace_prebuilds"]
])

/** The feature a route needs, if any. */
export const featureOf = (method: string, path: string): FeatureName | undefined => gatedRoutes.get(`${method} ${path}`)

/** The described system's answer to a route of a feature the licenses do not grant. */
export const unlicensedMessage = (feature: FeatureName) => `${humanize(feature)} is a Premium feature. Contact sales!`
