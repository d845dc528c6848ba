/**
 * IdP sync settings: organization sync for the deployment (`/settings/idpsync/organization`),
 * group and role sync per organization (`/organizations/{organization}/settings/idpsync/...`),
 * and the claim names and values seen at sign-ins (docs/sign-in.md).
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  GroupSyncSettings,
  GroupSyncSettingsRequest,
  IdpSyncFieldValuesQuery,
  OrganizationSyncSettings,
  OrganizationSyncSettingsRequest,
  PatchGroupIDPSyncConfigRequest,
  PatchGroupIDPSyncMappingRequest,
  PatchOrganizationIDPSyncConfigRequest,
  PatchOrganizationIDPSyncMappingRequest,
  PatchRoleIDPSyncConfigRequest,
  PatchRoleIDPSyncMappingRequest,
  RoleSyncSettings,
  RoleSyncSettingsRequest
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, OrganizationPath } from "../Common.js"
import { Authentication } from "../Security.js"

const Strings = Schema.Array(Schema.String)

const organizationAudit = audit("idp_sync_settings_organization")
const groupAudit = audit("idp_sync_settings_group")
const roleAudit = audit("idp_sync_settings_role")

export class IdpSyncApi extends HttpApiGroup.make("idpSync")
  .add(
    HttpApiEndpoint.get("getOrganizationSync", "/settings/idpsync/organization").addSuccess(OrganizationSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchOrganizationSync", "/settings/idpsync/organization").annotate(
      Audited,
      organizationAudit
    )
      .setPayload(OrganizationSyncSettingsRequest)
      .addSuccess(OrganizationSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchOrganizationSyncConfig", "/settings/idpsync/organization/config")
      .annotate(Audited, organizationAudit)
      .setPayload(PatchOrganizationIDPSyncConfigRequest)
      .addSuccess(OrganizationSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchOrganizationSyncMapping", "/settings/idpsync/organization/mapping")
      .annotate(Audited, organizationAudit)
      .setPayload(PatchOrganizationIDPSyncMappingRequest)
      .addSuccess(OrganizationSyncSettings)
  )
  .add(HttpApiEndpoint.get("availableFields", "/settings/idpsync/available-fields").addSuccess(Strings))
  .add(
    HttpApiEndpoint.get("fieldValues", "/settings/idpsync/field-values")
      .setUrlParams(IdpSyncFieldValuesQuery)
      .addSuccess(Strings)
  )
  .add(
    HttpApiEndpoint.get("getGroupSync", "/organizations/:organization/settings/idpsync/groups")
      .setPath(OrganizationPath)
      .addSuccess(GroupSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchGroupSync", "/organizations/:organization/settings/idpsync/groups")
      .annotate(Audited, groupAudit)
      .setPath(OrganizationPath)
      .setPayload(GroupSyncSettingsRequest)
      .addSuccess(GroupSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchGroupSyncConfig", "/organizations/:organization/settings/idpsync/groups/config")
      .annotate(Audited, groupAudit)
      .setPath(OrganizationPath)
      .setPayload(PatchGroupIDPSyncConfigRequest)
      .addSuccess(GroupSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchGroupSyncMapping", "/organizations/:organization/settings/idpsync/groups/mapping")
      .annotate(Audited, groupAudit)
      .setPath(OrganizationPath)
      .setPayload(PatchGroupIDPSyncMappingRequest)
      .addSuccess(GroupSyncSettings)
  )
  .add(
    HttpApiEndpoint.get("getRoleSync", "/organizations/:organization/settings/idpsync/roles")
      .setPath(OrganizationPath)
      .addSuccess(RoleSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchRoleSync", "/organizations/:organization/settings/idpsync/roles")
      .annotate(Audited, roleAudit)
      .setPath(OrganizationPath)
      .setPayload(RoleSyncSettingsRequest)
      .addSuccess(RoleSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchRoleSyncConfig", "/organizations/:organization/settings/idpsync/roles/config")
      .annotate(Audited, roleAudit)
      .setPath(OrganizationPath)
      .setPayload(PatchRoleIDPSyncConfigRequest)
      .addSuccess(RoleSyncSettings)
  )
  .add(
    HttpApiEndpoint.patch("patchRoleSyncMapping", "/organizations/:organization/settings/idpsync/roles/mapping")
      .annotate(Audited, roleAudit)
      .setPath(OrganizationPath)
      .setPayload(PatchRoleIDPSyncMappingRequest)
      .addSuccess(RoleSyncSettings)
  )
  .add(
    HttpApiEndpoint.get("organizationAvailableFields", "/organizations/:organization/settings/idpsync/available-fields")
      .setPath(OrganizationPath)
      .addSuccess(Strings)
  )
  .add(
    HttpApiEndpoint.get("organizationFieldValues", "/organizations/:organization/settings/idpsync/field-values")
      .setPath(OrganizationPath)
      .setUrlParams(IdpSyncFieldValuesQuery)
      .addSuccess(Strings)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
