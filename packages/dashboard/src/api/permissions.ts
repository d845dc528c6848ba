/**
 * What the signed-in user may do, asked of the service's one evaluator (`POST /authcheck`): each
 * check names a resource kind and an action, and the answer says yes or no for each, as the
 * matching route would answer. The navigation and the administration pages read it; the service
 * still refuses what it refuses (403), which the pages show.
 */
import { useQuery } from "@tanstack/react-query"
import { permissionsQuery } from "../users/queries.ts"
import { useMe } from "../users/session.ts"
import type { Schemas } from "./client.ts"

type Check = Schemas["AuthorizationCheck"]

const check = (resource_type: Check["object"]["resource_type"], action: Check["action"], anyOrg = false): Check => ({
  object: anyOrg ? { resource_type, any_org: true } : { resource_type },
  action
})

/** The checks the dashboard asks, by name (the described system's names in permissions.ts). */
export const checks = {
  editUsers: check("user", "update"),
  createUser: check("user", "create"),
  deleteUser: check("user", "delete"),
  assignRoles: check("assign_role", "assign"),
  viewAuditLog: check("audit_log", "read"),
  viewConnectionLog: check("connection_log", "read"),
  editNotificationTemplates: check("notification_template", "update"),
  editOAuth2Apps: check("oauth2_app", "create"),
  editWorkspaceProxies: check("workspace_proxy", "create"),
  editIdpSync: check("idpsync_settings", "update"),
  viewDeploymentConfig: check("deployment_config", "read"),
  editDeploymentConfig: check("deployment_config", "update"),
  viewAnyOrganization: check("organization_member", "read", true),
  createOrganization: check("organization", "create"),
  editAnyOrganization: check("organization", "update", true),
  viewLicenses: check("license", "read"),
  createLicense: check("license", "create"),
  viewDebugInfo: check("debug_info", "read"),
  viewInsights: check("template", "view_insights", true),
  viewProvisionerJobs: check("provisioner_jobs", "read", true),
  // The prebuilds user's workspaces (its fixed id: docs/prebuilds.md), in any organization.
  viewPrebuiltWorkspaces: {
    object: { resource_type: "workspace", owner_id: "c42fdf75-3097-471c-8c33-fb52454d81c0", any_org: true },
    action: "read"
  }
} satisfies Record<string, Check>

export type Permission = keyof typeof checks
export type Permissions = Record<Permission, boolean>

/** May the user see the administration at all (any of its pages)? */
export const adminPermissions: ReadonlyArray<Permission> = [
  "editUsers",
  "viewAuditLog",
  "viewConnectionLog",
  "viewDeploymentConfig",
  "editNotificationTemplates",
  "editOAuth2Apps",
  "editWorkspaceProxies",
  "editIdpSync",
  "editAnyOrganization",
  "viewLicenses",
  "viewInsights"
]

/** The signed-in user's permissions (undefined while asked); cached per user. */
export const usePermissions = () => useQuery(permissionsQuery(useMe().data?.id, checks))
