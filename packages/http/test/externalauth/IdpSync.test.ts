/**
 * The IdP sync settings through real HTTP: organization sync (`/settings/idpsync/organization`
 * and its config and mapping), group and role sync per organization, the claim listings; who may
 * call them, bad input, and the audit entries. What a sign-in makes of them:
 * `users/signin/IdpSync.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMemberWithRoles,
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"

const ORG_SYNC = "/settings/idpsync/organization"
const groupsOf = (org: string) => `/organizations/${org}/settings/idpsync/groups`
const rolesOf = (org: string) => `/organizations/${org}/settings/idpsync/roles`

describe("IdP sync settings", () => {
  let srv: ServiceTestServer
  let owner: Client
  let defaultOrg: string
  let org: { id: string; name: string }
  let member: TestUser
  let userAdmin: TestUser
  let orgAdmin: TestUser
  let orgUserAdmin: TestUser
  let outsider: TestUser

  beforeAll(async () => {
    ;({ srv, owner, orgId: defaultOrg } = await startWithOwner({
      settings: {
        oidcGroupField: "groups",
        oidcGroupMapping: { "ops-team": "operators" },
        oidcGroupAutoCreate: true,
        oidcGroupRegexFilter: "^[a-z-]+$"
      }
    }))
    org = await createOrganization(owner, "idp-org")
    member = await createUser(owner, { username: "idp-member", organization_ids: [org.id] })
    userAdmin = await createUser(owner, { username: "idp-useradmin", roles: ["user-admin"] })
    orgAdmin = await createUser(owner, { username: "idp-orgadmin", organization_ids: [org.id] })
    await addMemberWithRoles(owner, org.id, orgAdmin.user.id, ["organization-admin"])
    orgUserAdmin = await createUser(owner, { username: "idp-orguseradmin", organization_ids: [org.id] })
    await addMemberWithRoles(owner, org.id, orgUserAdmin.user.id, ["organization-user-admin"])
    outsider = await createUser(owner, { username: "idp-outsider" })
  })
  afterAll(() => srv.close())

  describe("organization sync", () => {
    it("starts off, with the default organization assigned", async () => {
      const r = await owner.get(ORG_SYNC)
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ field: "", mapping: {}, organization_assign_default: true })
    })

    it("PATCH replaces it, config keeps the mapping, mapping adds and removes (Remove wins); audited", async () => {
      const r = await owner.patch(ORG_SYNC, {
        field: "orgs",
        mapping: { eng: [org.id.toUpperCase()] },
        organization_assign_default: false
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ field: "orgs", mapping: { eng: [org.id] }, organization_assign_default: false })
      const config = await owner.patch(`${ORG_SYNC}/config`, { field: "departments", assign_default: true })
      expect(config.body).toEqual({
        field: "departments",
        mapping: { eng: [org.id] },
        organization_assign_default: true
      })
      const mapping = await userAdmin.client.patch(`${ORG_SYNC}/mapping`, {
        Add: [{ Given: "ops", Gets: defaultOrg }, { Given: "ops", Gets: org.id }, { Given: "eng", Gets: org.id }],
        Remove: [{ Given: "ops", Gets: org.id }]
      })
      expect(mapping.status, JSON.stringify(mapping.body)).toBe(200)
      expect(mapping.body.mapping).toEqual({ eng: [org.id], ops: [defaultOrg] })
      expect((await owner.get(ORG_SYNC)).body).toEqual(mapping.body)
      const audit = await owner.get(
        `/audit?q=${encodeURIComponent("resource_type:idp_sync_settings_organization")}&limit=10`
      )
      expect(audit.body.audit_logs.length).toBe(3)
      expect(audit.body.audit_logs[0]).toMatchObject({ action: "write", status_code: 200 })
    })

    it("answers 401 without a token and 403 to members and organization admins", async () => {
      expectResponse(await srv.anonymous.get(ORG_SYNC), 401)
      expectResponse(await member.client.get(ORG_SYNC), 403)
      expectResponse(await orgAdmin.client.patch(ORG_SYNC, { field: "x" }), 403)
      expectResponse(await member.client.patch(`${ORG_SYNC}/mapping`, {}), 403)
    })

    it("refuses bad input with one validation per bad field", async () => {
      expectValidations(await owner.patch(ORG_SYNC, { field: 5, mapping: { eng: ["not-a-uuid"] } }), [
        "field",
        "mapping.eng.0"
      ])
      expectValidations(await owner.patch(`${ORG_SYNC}/mapping`, { Add: [{ Given: "a", Gets: "nope" }] }), [
        "Add.0.Gets"
      ])
      expectValidations(await owner.patch(`${ORG_SYNC}/config`, { assign_default: "yes" }), ["assign_default"])
    })
  })

  describe("group sync", () => {
    it("the default organization shows the flags until something is stored; others start off", async () => {
      expect((await owner.get(groupsOf(defaultOrg))).body).toEqual({
        field: "groups",
        mapping: {},
        regex_filter: "^[a-z-]+$",
        auto_create_missing_groups: true,
        legacy_group_name_mapping: { "ops-team": "operators" }
      })
      expect((await owner.get(groupsOf(org.name))).body).toEqual({
        field: "",
        mapping: {},
        regex_filter: null,
        auto_create_missing_groups: false
      })
    })

    it("PATCH, config and mapping; organization admins and user admins may, audited in the organization", async () => {
      const group = (await owner.post(`/organizations/${org.id}/groups`, { name: "idp-devs" })).body
      const r = await orgAdmin.client.patch(groupsOf(org.id), {
        field: "groups",
        mapping: { devs: [group.id] },
        regex_filter: "^d",
        auto_create_missing_groups: true
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({
        field: "groups",
        mapping: { devs: [group.id] },
        regex_filter: "^d",
        auto_create_missing_groups: true
      })
      const config = await orgUserAdmin.client.patch(`${groupsOf(org.id)}/config`, { field: "teams" })
      expect(config.body).toEqual({
        field: "teams",
        mapping: { devs: [group.id] },
        regex_filter: null,
        auto_create_missing_groups: false
      })
      const mapping = await owner.patch(`${groupsOf(org.id)}/mapping`, {
        Add: [{ Given: "ops", Gets: group.id }],
        Remove: [{ Given: "devs", Gets: group.id }]
      })
      expect(mapping.body.mapping).toEqual({ devs: [], ops: [group.id] })
      // The default organization keeps the flags' name mapping beside what is stored.
      const stored = await owner.patch(`${groupsOf(defaultOrg)}/config`, {
        field: "groups",
        regex_filter: ".*",
        auto_create_missing_groups: false
      })
      expect(stored.body.legacy_group_name_mapping).toEqual({ "ops-team": "operators" })
      const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:idp_sync_settings_group")}&limit=10`)
      expect(audit.body.audit_logs.length).toBe(4)
      expect(audit.body.audit_logs.some((e: any) => e.organization?.id === org.id)).toBe(true)
    })

    it("answers 403 to members, 404 to outsiders and for unknown organizations, 401 without a token", async () => {
      expectResponse(await member.client.get(groupsOf(org.id)), 403)
      expectResponse(await member.client.patch(groupsOf(org.id), {}), 403)
      expectResponse(await outsider.client.get(groupsOf(org.id)), 404)
      expectResponse(await owner.get(groupsOf("no-such-org")), 404)
      expectResponse(await owner.patch(`${groupsOf(UNKNOWN_ID)}/mapping`, {}), 404)
      expectResponse(await srv.anonymous.get(groupsOf(org.id)), 401)
    })

    it("refuses a bad expression, bad ids and the flags' name mapping", async () => {
      expectValidations(
        await owner.patch(groupsOf(org.id), {
          regex_filter: "(",
          mapping: { a: ["x"] },
          auto_create_missing_groups: 1
        }),
        ["regex_filter", "mapping.a.0", "auto_create_missing_groups"]
      )
      const legacy = await owner.patch(groupsOf(org.id), { legacy_group_name_mapping: { a: "b" } })
      expectValidations(legacy, ["legacy_group_name_mapping"])
      expect(legacy.body.message).toBe(
        "Unexpected field 'legacy_group_name_mapping'. Field not allowed, set to null or remove it."
      )
      expectValidations(await owner.patch(`${groupsOf(org.id)}/config`, { regex_filter: "[" }), ["regex_filter"])
    })
  })

  describe("role sync", () => {
    it("starts off; PATCH, config and mapping", async () => {
      expect((await owner.get(rolesOf(org.id))).body).toEqual({ field: "", mapping: {} })
      const r = await orgAdmin.client.patch(rolesOf(org.id), {
        field: "roles",
        mapping: { leads: ["organization-admin"] }
      })
      expect(r.body).toEqual({ field: "roles", mapping: { leads: ["organization-admin"] } })
      expect((await owner.patch(`${rolesOf(org.id)}/config`, { field: "titles" })).body).toEqual({
        field: "titles",
        mapping: { leads: ["organization-admin"] }
      })
      const mapping = await owner.patch(`${rolesOf(org.id)}/mapping`, {
        Add: [{ Given: "auditors", Gets: "organization-auditor" }]
      })
      expect(mapping.body).toEqual({
        field: "titles",
        mapping: { leads: ["organization-admin"], auditors: ["organization-auditor"] }
      })
      expect((await orgUserAdmin.client.get(rolesOf(org.id))).status).toBe(200)
      const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:idp_sync_settings_role")}&limit=10`)
      expect(audit.body.audit_logs.length).toBe(3)
    })

    it("answers 403 to members and 404 to outsiders; refuses bad input", async () => {
      expectResponse(await member.client.get(rolesOf(org.id)), 403)
      expectResponse(await outsider.client.patch(`${rolesOf(org.id)}/config`, {}), 404)
      expectValidations(await owner.patch(rolesOf(org.id), { field: [], mapping: { a: "b" } }), ["field", "mapping.a"])
      expectValidations(await owner.patch(`${rolesOf(org.id)}/mapping`, { Remove: [{ Given: 1, Gets: "x" }] }), [
        "Remove.0.Given"
      ])
    })
  })

  describe("claim listings", () => {
    it("answer [] before any sign-in; field values need claimField (400)", async () => {
      expect((await owner.get("/settings/idpsync/available-fields")).body).toEqual([])
      expect((await orgAdmin.client.get(`/organizations/${org.id}/settings/idpsync/available-fields`)).body).toEqual([])
      expect((await owner.get("/settings/idpsync/field-values?claimField=groups")).body).toEqual([])
      expectValidations(await owner.get("/settings/idpsync/field-values"), ["claimField"])
      expectValidations(await owner.get(`/organizations/${org.id}/settings/idpsync/field-values`), ["claimField"])
    })

    it("answer 403 to members with the described system's message, 404 to outsiders, 401 without a token", async () => {
      const r = await member.client.get("/settings/idpsync/available-fields")
      expectResponse(r, 403)
      expect(r.body).toMatchObject({
        message: "You do not have permission to view the available IDP fields",
        detail: "idpsync_settings.read permission is required"
      })
      expectResponse(
        await member.client.get(`/organizations/${org.id}/settings/idpsync/field-values?claimField=a`),
        403
      )
      expectResponse(await outsider.client.get(`/organizations/${org.id}/settings/idpsync/available-fields`), 404)
      expectResponse(await srv.anonymous.get("/settings/idpsync/field-values?claimField=a"), 401)
    })
  })
})
