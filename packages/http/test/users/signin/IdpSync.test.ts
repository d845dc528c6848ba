/**
 * IdP sync at OpenID Connect sign-in, over real HTTP against a real OpenID provider
 * (oidc-provider): settings changed through the API change the next sign-in's organizations,
 * groups (auto-created, regex-filtered, mapped) and organization roles; the claims seen feed the
 * claim listings; the group allow-list refuses sign-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, createOrganization, startWithOwner } from "../../support.js"
import { Browser } from "./browser.js"
import { authorizeAt, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startProvider } from "./provider.js"

type Started = Awaited<ReturnType<typeof startWithOwner>>

let provider: Awaited<ReturnType<typeof startProvider>>
let main: Started
let guarded: Started

const settingsFor = (issuer: string, extra: Record<string, unknown> = {}) => ({
  oidcIssuerUrl: issuer,
  oidcClientId: OIDC_CLIENT_ID,
  oidcClientSecret: OIDC_CLIENT_SECRET,
  oidcScopes: ["openid", "profile", "email", "groups"],
  oidcGroupField: "groups",
  oidcGroupAutoCreate: true,
  ...extra
})

const signIn = async (srv: Started["srv"], accountId: string) => {
  const browser = new Browser()
  const callback = `${srv.url}/api/v2/users/oidc/callback`
  const first = await browser.request(callback)
  expect(first.status).toBe(307)
  const back = await authorizeAt(browser, first.location!, accountId, callback)
  const answer = await browser.request(back.location!)
  const token = browser.cookie(srv.url, "service_session_token")
  return { answer, client: new Client(`${srv.url}/api/v2`, token) }
}

const groupNamesOf = async (owner: Client, orgId: string, userId: string) => {
  const groups = (await owner.get(`/organizations/${orgId}/groups`)).body as Array<any>
  return groups.filter((g) => g.name !== "Everyone" && g.members.some((m: any) => m.id === userId))
    .map((g) => g.name).sort()
}

beforeAll(async () => {
  provider = await startProvider()
  provider.accounts.set("mia", {
    email: "mia@corp.example",
    email_verified: true,
    preferred_username: "mia",
    groups: ["devs", "ops-team", "Not Valid!"],
    departments: ["engineering"],
    titles: "lead"
  })
  provider.accounts.set("noel", {
    email: "noel@corp.example",
    email_verified: true,
    preferred_username: "noel",
    groups: ["guests"]
  })
  main = await startWithOwner({ settings: settingsFor(provider.issuer) })
  guarded = await startWithOwner({ settings: settingsFor(provider.issuer, { oidcAllowedGroups: ["devs"] }) })
  provider.configure([main, guarded].map((s) => `${s.srv.url}/api/v2/users/oidc/callback`))
})

afterAll(async () => {
  await main?.srv.close()
  await guarded?.srv.close()
  await provider?.close()
})

describe("IdP sync at sign-in", () => {
  it("applies the settings changed through the API at the next sign-in", async () => {
    const { owner, orgId: defaultOrg } = main
    // Nothing stored: the flags' group sync in the default organization.
    const first = await signIn(main.srv, "mia")
    expect(first.answer.status).toBe(307)
    const me = (await first.client.get("/users/me")).body
    expect(await groupNamesOf(owner, defaultOrg, me.id)).toEqual(["devs", "ops-team"])

    // A filter and a mapping to an existing group, stored for the default organization.
    const operators = (await owner.post(`/organizations/${defaultOrg}/groups`, { name: "operators" })).body
    expect(
      (await owner.patch(`/organizations/${defaultOrg}/settings/idpsync/groups`, {
        field: "groups",
        mapping: { "ops-team": [operators.id] },
        regex_filter: "^ops",
        auto_create_missing_groups: false
      })).status
    ).toBe(200)
    await signIn(main.srv, "mia")
    expect(await groupNamesOf(owner, defaultOrg, me.id)).toEqual(["operators"])

    // Organization sync: the departments claim puts the user in another organization.
    const eng = await createOrganization(owner, "idp-eng")
    expect(
      (await owner.patch("/settings/idpsync/organization", {
        field: "departments",
        mapping: { engineering: [eng.id] },
        organization_assign_default: true
      })).status
    ).toBe(200)
    expect(
      (await owner.patch(`/organizations/${eng.id}/settings/idpsync/groups/config`, {
        field: "groups",
        regex_filter: "^[a-z]",
        auto_create_missing_groups: true
      })).status
    ).toBe(200)
    expect(
      (await owner.patch(`/organizations/${eng.id}/settings/idpsync/roles`, {
        field: "titles",
        mapping: { lead: ["organization-admin", "no-such-role"] }
      })).status
    ).toBe(200)
    await signIn(main.srv, "mia")
    const orgs = (await owner.get(`/users/${me.id}/organizations`)).body.map((o: any) => o.id).sort()
    expect(orgs).toEqual([defaultOrg, eng.id].sort())
    const created = ((await owner.get(`/organizations/${eng.id}/groups`)).body as Array<any>)
      .filter((g) => g.name !== "Everyone")
    expect(created.map((g) => [g.name, g.source]).sort()).toEqual([["devs", "oidc"], ["ops-team", "oidc"]])
    expect(await groupNamesOf(owner, eng.id, me.id)).toEqual(["devs", "ops-team"])
    const membership = (await owner.get(`/organizations/${eng.id}/members/${me.id}`)).body
    expect(membership.roles.map((r: any) => r.name)).toEqual(["organization-admin"])

    // Without the default organization and without the mapping, the user leaves both organizations' groups.
    expect(
      (await owner.patch("/settings/idpsync/organization/config", { field: "departments", assign_default: false }))
        .status
    ).toBe(200)
    expect(
      (await owner.patch("/settings/idpsync/organization/mapping", {
        Remove: [{ Given: "engineering", Gets: eng.id }],
        Add: [{ Given: "sales", Gets: eng.id }]
      })).status
    ).toBe(200)
    const last = await signIn(main.srv, "mia")
    expect(last.answer.status).toBe(307)
    expect((await owner.get(`/users/${me.id}/organizations`)).body).toEqual([])
    expect(await groupNamesOf(owner, defaultOrg, me.id)).toEqual([])
  })

  it("keeps the claim names and values seen, listed per organization", async () => {
    const { owner, orgId: defaultOrg } = main
    // The default organization again for everyone: Noel's claim names no department.
    await owner.patch("/settings/idpsync/organization/config", { field: "departments", assign_default: true })
    await signIn(main.srv, "noel")
    const fields = (await owner.get("/settings/idpsync/available-fields")).body
    expect(fields).toEqual(expect.arrayContaining(["departments", "email", "groups", "sub", "titles"]))
    expect((await owner.get("/settings/idpsync/field-values?claimField=groups")).body).toEqual([
      "Not Valid!",
      "devs",
      "guests",
      "ops-team"
    ])
    expect((await owner.get("/settings/idpsync/field-values?claimField=titles")).body).toEqual(["lead"])
    // Mia left the default organization at her last sign-in: only Noel's claims are its members'.
    const inDefault = await owner.get(`/organizations/${defaultOrg}/settings/idpsync/field-values?claimField=groups`)
    expect(inDefault.body).toEqual(["guests"])
    expect((await owner.get(`/organizations/${defaultOrg}/settings/idpsync/available-fields`)).body).not.toContain(
      "titles"
    )
  })

  it("refuses a sign-in whose groups claim names no allowed group (403)", async () => {
    const refused = await signIn(guarded.srv, "noel")
    expect(refused.answer.status).toBe(403)
    expect(refused.answer.body).toMatchObject({
      message: "Not a member of an allowed group",
      detail: "Ask an administrator to add one of your groups to the allow list."
    })
    const allowed = await signIn(guarded.srv, "mia")
    expect(allowed.answer.status).toBe(307)
  })
})
