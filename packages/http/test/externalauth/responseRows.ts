/**
 * The response schema table's rows of the external auth and IdP sync endpoints
 * (packages/http/src/externalauth/), run by ../responseSchemas.ts.
 */
import { type Row, row } from "../responseSchemas.js"
import { createUser } from "../support.js"
import { externalAuthWorld } from "./fixtures.js"

export const responseRows: ReadonlyArray<Row> = [
  row(
    "idpSync.getOrganizationSync",
    "GET /api/v2/settings/idpsync/organization",
    200,
    "OrganizationSyncSettings",
    async (w) => [
      await w.owner.get("/settings/idpsync/organization")
    ]
  ),
  row(
    "idpSync.patchOrganizationSync",
    "PATCH /api/v2/settings/idpsync/organization",
    200,
    "OrganizationSyncSettings",
    async (w) => [
      await w.owner.patch("/settings/idpsync/organization", { field: "", mapping: { a: [w.org.id] } })
    ]
  ),
  row(
    "idpSync.patchOrganizationSyncConfig",
    "PATCH /api/v2/settings/idpsync/organization/config",
    200,
    "OrganizationSyncSettings",
    async (w) => [await w.owner.patch("/settings/idpsync/organization/config", { field: "", assign_default: true })]
  ),
  row(
    "idpSync.patchOrganizationSyncMapping",
    "PATCH /api/v2/settings/idpsync/organization/mapping",
    200,
    "OrganizationSyncSettings",
    async (w) => [
      await w.owner.patch("/settings/idpsync/organization/mapping", { Remove: [{ Given: "a", Gets: w.org.id }] })
    ]
  ),
  row("idpSync.availableFields", "GET /api/v2/settings/idpsync/available-fields", 200, "[ClaimString]", async (w) => [
    await w.owner.get("/settings/idpsync/available-fields")
  ]),
  row("idpSync.fieldValues", "GET /api/v2/settings/idpsync/field-values", 200, "[ClaimString]", async (w) => [
    await w.owner.get("/settings/idpsync/field-values?claimField=groups")
  ]),
  row(
    "idpSync.getGroupSync",
    "GET /api/v2/organizations/:organization/settings/idpsync/groups",
    200,
    "GroupSyncSettings",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/settings/idpsync/groups`),
      await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/groups`)
    ]
  ),
  row(
    "idpSync.patchGroupSync",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/groups",
    200,
    "GroupSyncSettings",
    async (w) => [
      await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/groups`, { field: "", regex_filter: "^a" })
    ]
  ),
  row(
    "idpSync.patchGroupSyncConfig",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/groups/config",
    200,
    "GroupSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/groups/config`, { field: "" })]
  ),
  row(
    "idpSync.patchGroupSyncMapping",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/groups/mapping",
    200,
    "GroupSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/groups/mapping`, {})]
  ),
  row(
    "idpSync.getRoleSync",
    "GET /api/v2/organizations/:organization/settings/idpsync/roles",
    200,
    "RoleSyncSettings",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/roles`)]
  ),
  row(
    "idpSync.patchRoleSync",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/roles",
    200,
    "RoleSyncSettings",
    async (w) => [
      await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/roles`, {
        mapping: { a: ["organization-admin"] }
      })
    ]
  ),
  row(
    "idpSync.patchRoleSyncConfig",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/roles/config",
    200,
    "RoleSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/roles/config`, { field: "" })]
  ),
  row(
    "idpSync.patchRoleSyncMapping",
    "PATCH /api/v2/organizations/:organization/settings/idpsync/roles/mapping",
    200,
    "RoleSyncSettings",
    async (w) => [await w.owner.patch(`/organizations/${w.org.id}/settings/idpsync/roles/mapping`, {})]
  ),
  row(
    "idpSync.organizationAvailableFields",
    "GET /api/v2/organizations/:organization/settings/idpsync/available-fields",
    200,
    "[ClaimString]",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/available-fields`)]
  ),
  row(
    "idpSync.organizationFieldValues",
    "GET /api/v2/organizations/:organization/settings/idpsync/field-values",
    200,
    "[ClaimString]",
    async (w) => [await w.owner.get(`/organizations/${w.org.id}/settings/idpsync/field-values?claimField=groups`)]
  ),
  // external auth and applications: a server of their own, with providers on a local provider (externalauth/fixtures.ts)
  row("externalAuth.list", "GET /api/v2/external-auth", 200, "ListUserExternalAuthResponse", async () => {
    const x = await externalAuthWorld()
    return [await x.member.client.get("/external-auth"), await x.owner.get("/external-auth")]
  }),
  row("externalAuth.get", "GET /api/v2/external-auth/:externalauth", 200, "ExternalAuth", async () => {
    const x = await externalAuthWorld()
    return [
      await x.member.client.get("/external-auth/github"),
      await x.owner.get("/external-auth/github"),
      await x.member.client.get("/external-auth/gh-device")
    ]
  }),
  row(
    "externalAuth.unlink",
    "DELETE /api/v2/external-auth/:externalauth",
    200,
    "DeleteExternalAuthByIDResponse",
    async () => {
      const x = await externalAuthWorld()
      const u = await createUser(x.owner)
      await x.link(u.client, "github")
      await x.link(u.client, "corp")
      return [await u.client.delete("/external-auth/github"), await u.client.delete("/external-auth/corp")]
    }
  ),
  row("externalAuth.callback", "GET /api/v2/external-auth/:externalauth/callback", 307, "none", async () => {
    const x = await externalAuthWorld()
    const r = await x.link(x.owner, "corp")
    return [r.start, r.done]
  }),
  row("externalAuth.device", "GET /api/v2/external-auth/:externalauth/device", 200, "ExternalAuthDevice", async () => {
    const x = await externalAuthWorld()
    return x.member.client.get("/external-auth/gh-device/device")
  }),
  row("externalAuth.deviceExchange", "POST /api/v2/external-auth/:externalauth/device", 204, "none", async () => {
    const x = await externalAuthWorld()
    const started = await x.member.client.get("/external-auth/gh-device/device")
    x.provider.approveDevice(started.body.user_code, "device-user")
    return x.member.client.post("/external-auth/gh-device/device", { device_code: started.body.device_code })
  }),
  row(
    "agentExternalAuth.externalAuth",
    "GET /api/v2/workspaceagents/me/external-auth",
    200,
    "ExternalAuthResponse",
    async () => {
      const x = await externalAuthWorld()
      return [
        await x.agent.get(
          `/workspaceagents/me/external-auth?match=${encodeURIComponent("https://github.example/org/repo")}`
        ),
        await x.agent.get("/workspaceagents/me/external-auth?id=corp")
      ]
    }
  ),
  row("agentExternalAuth.gitAuth", "GET /api/v2/workspaceagents/me/gitauth", 200, "ExternalAuthResponse", async () => {
    const x = await externalAuthWorld()
    return [
      await x.agent.get(`/workspaceagents/me/gitauth?url=${encodeURIComponent("https://github.example/org/repo")}`),
      await x.agent.get("/workspaceagents/me/gitauth?id=gitlab")
    ]
  })
]
