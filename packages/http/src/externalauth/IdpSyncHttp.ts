/** Handlers of the IdP sync settings group. */
import { IdpSync } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const IdpSyncHttp = implement(WorkbayApi, "idpSync", {
  getOrganizationSync: () => Effect.flatMap(IdpSync, (s) => s.getOrganizationSync),
  patchOrganizationSync: ({ payload }) => Effect.flatMap(IdpSync, (s) => s.patchOrganizationSync(payload)),
  patchOrganizationSyncConfig: ({ payload }) => Effect.flatMap(IdpSync, (s) => s.patchOrganizationSyncConfig(payload)),
  patchOrganizationSyncMapping: ({ payload }) =>
    Effect.flatMap(IdpSync, (s) => s.patchOrganizationSyncMapping(payload)),
  availableFields: () => Effect.flatMap(IdpSync, (s) => s.claimFields(undefined)),
  fieldValues: ({ urlParams }) => Effect.flatMap(IdpSync, (s) => s.claimFieldValues(undefined, urlParams)),
  getGroupSync: ({ path }) => Effect.flatMap(IdpSync, (s) => s.getGroupSync(path.organization)),
  patchGroupSync: ({ path, payload }) => Effect.flatMap(IdpSync, (s) => s.patchGroupSync(path.organization, payload)),
  patchGroupSyncConfig: ({ path, payload }) =>
    Effect.flatMap(IdpSync, (s) => s.patchGroupSyncConfig(path.organization, payload)),
  patchGroupSyncMapping: ({ path, payload }) =>
    Effect.flatMap(IdpSync, (s) => s.patchGroupSyncMapping(path.organization, payload)),
  getRoleSync: ({ path }) => Effect.flatMap(IdpSync, (s) => s.getRoleSync(path.organization)),
  patchRoleSync: ({ path, payload }) => Effect.flatMap(IdpSync, (s) => s.patchRoleSync(path.organization, payload)),
  patchRoleSyncConfig: ({ path, payload }) =>
    Effect.flatMap(IdpSync, (s) => s.patchRoleSyncConfig(path.organization, payload)),
  patchRoleSyncMapping: ({ path, payload }) =>
    Effect.flatMap(IdpSync, (s) => s.patchRoleSyncMapping(path.organization, payload)),
  organizationAvailableFields: ({ path }) => Effect.flatMap(IdpSync, (s) => s.claimFields(path.organization)),
  organizationFieldValues: ({ path, urlParams }) =>
    Effect.flatMap(IdpSync, (s) => s.claimFieldValues(path.organization, urlParams))
})
