/** Roles and permissions: pure checks, no I/O. */
import { describe, expect, it } from "@effect/vitest"
import { Rbac } from "@workbay/core"
import { workspaceObject } from "../src/workspaces/Workspace.js"

const ME = "11111111-1111-4111-8111-111111111111"
const OTHER = "22222222-2222-4222-8222-222222222222"
const ORG = "33333333-3333-4333-8333-333333333333"
const ORG2 = "44444444-4444-4444-8444-444444444444"

const subject = (
  siteRoles: ReadonlyArray<string> = [],
  orgRoles: Record<string, ReadonlyArray<string>> = {}
): Rbac.Subject => ({ userId: ME, siteRoles, orgRoles: new Map(Object.entries(orgRoles)) })

describe("Rbac.can", () => {
  it("owner may do everything, everywhere", () => {
    const owner = subject(["owner"])
    for (const kind of Rbac.resourceKinds) {
      for (const action of Rbac.actions) expect(Rbac.can(owner, action, { type: kind })).toBe(true)
    }
    expect(Rbac.can(owner, "delete", { type: "organization", orgId: ORG })).toBe(true)
    expect(Rbac.can(owner, "update", { type: "api_key", ownerId: OTHER })).toBe(true)
  })

  it("member reads users but cannot create, update or delete them", () => {
    const member = subject()
    expect(Rbac.can(member, "read", { type: "user" })).toBe(true)
    expect(Rbac.can(member, "read", { type: "user", id: OTHER, ownerId: OTHER })).toBe(true)
    expect(Rbac.can(member, "create", { type: "user" })).toBe(false)
    expect(Rbac.can(member, "update", { type: "user", id: OTHER })).toBe(false)
    expect(Rbac.can(member, "delete", { type: "user", id: OTHER })).toBe(false)
    // Explicitly listing `member` changes nothing.
    expect(Rbac.can(subject(["member"]), "create", { type: "user" })).toBe(false)
  })

  it("member updates its own personal settings only", () => {
    const member = subject()
    expect(Rbac.can(member, "update_personal", { type: "user", id: ME, ownerId: ME })).toBe(true)
    expect(Rbac.can(member, "read_personal", { type: "user", id: ME, ownerId: ME })).toBe(true)
    expect(Rbac.can(member, "update_personal", { type: "user", id: OTHER, ownerId: OTHER })).toBe(false)
    expect(Rbac.can(member, "update", { type: "user", id: ME, ownerId: ME })).toBe(false)
  })

  it("member owns its API keys, and only its own", () => {
    const member = subject()
    for (const action of ["create", "read", "update", "delete"] as const) {
      expect(Rbac.can(member, action, { type: "api_key", ownerId: ME })).toBe(true)
      expect(Rbac.can(member, action, { type: "api_key", ownerId: OTHER })).toBe(false)
    }
    expect(Rbac.can(member, "read", { type: "api_key" })).toBe(false)
  })

  it("member cannot read audit logs, organizations or deployment config", () => {
    const member = subject()
    expect(Rbac.can(member, "read", { type: "audit_log" })).toBe(false)
    expect(Rbac.can(member, "read", { type: "organization", orgId: ORG })).toBe(false)
    expect(Rbac.can(member, "read", { type: "deployment_config" })).toBe(false)
    expect(Rbac.can(member, "create", { type: "organization" })).toBe(false)
  })

  it("auditor reads audit logs, and changes nothing", () => {
    const auditor = subject(["auditor"])
    expect(Rbac.can(auditor, "read", { type: "audit_log" })).toBe(true)
    expect(Rbac.can(auditor, "read", { type: "organization", orgId: ORG })).toBe(true)
    expect(Rbac.can(auditor, "read", { type: "deployment_config" })).toBe(true)
    expect(Rbac.can(auditor, "update", { type: "audit_log" })).toBe(false)
    expect(Rbac.can(auditor, "delete", { type: "audit_log" })).toBe(false)
    expect(Rbac.can(auditor, "create", { type: "user" })).toBe(false)
  })

  it("user-admin manages users but not organizations", () => {
    const admin = subject(["user-admin"])
    expect(Rbac.can(admin, "create", { type: "user" })).toBe(true)
    expect(Rbac.can(admin, "delete", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.can(admin, "read", { type: "organization", orgId: ORG })).toBe(true)
    expect(Rbac.can(admin, "update", { type: "organization", orgId: ORG })).toBe(false)
    expect(Rbac.can(admin, "read", { type: "audit_log" })).toBe(false)
  })

  it("organization-admin may do anything inside its organization only", () => {
    const orgAdmin = subject([], { [ORG]: ["organization-admin"], [ORG2]: [] })
    for (const action of ["read", "update", "delete"] as const) {
      expect(Rbac.can(orgAdmin, action, { type: "organization", orgId: ORG })).toBe(true)
      expect(Rbac.can(orgAdmin, action, { type: "organization_member", orgId: ORG })).toBe(true)
    }
    expect(Rbac.can(orgAdmin, "update", { type: "organization", orgId: ORG2 })).toBe(false)
    expect(Rbac.can(orgAdmin, "delete", { type: "organization_member", orgId: ORG2 })).toBe(false)
    expect(Rbac.can(orgAdmin, "update", { type: "organization", orgId: "unknown-org" })).toBe(false)
    // Without an organization on the object, organization roles grant nothing.
    expect(Rbac.can(orgAdmin, "update", { type: "organization" })).toBe(false)
    expect(Rbac.can(orgAdmin, "create", { type: "user" })).toBe(false)
    // anyOrg: passes if allowed in some organization of the subject.
    expect(Rbac.can(orgAdmin, "update", { type: "organization", anyOrg: true })).toBe(true)
  })

  it("organization-member reads its organization and its members, and changes neither", () => {
    const orgMember = subject([], { [ORG]: [] })
    expect(Rbac.can(orgMember, "read", { type: "organization", orgId: ORG })).toBe(true)
    expect(Rbac.can(orgMember, "read", { type: "organization_member", orgId: ORG })).toBe(true)
    expect(Rbac.can(orgMember, "read", { type: "organization", orgId: ORG2 })).toBe(false)
    expect(Rbac.can(orgMember, "update", { type: "organization", orgId: ORG })).toBe(false)
    expect(Rbac.can(orgMember, "delete", { type: "organization_member", orgId: ORG })).toBe(false)
    expect(Rbac.can(orgMember, "read", { type: "organization", anyOrg: true })).toBe(true)
    expect(Rbac.can(subject(), "read", { type: "organization", anyOrg: true })).toBe(false)
  })

  it("organization-member owns its workspaces inside its organization only", () => {
    const orgMember = subject([], { [ORG]: [] })
    expect(Rbac.can(orgMember, "create", { type: "workspace", orgId: ORG, ownerId: ME })).toBe(true)
    expect(Rbac.can(orgMember, "create", { type: "workspace", orgId: ORG, ownerId: OTHER })).toBe(false)
    // Templates come through their access list (the Everyone group's entry), not the role.
    expect(Rbac.can(orgMember, "read", { type: "template", orgId: ORG })).toBe(false)
    expect(Rbac.can(orgMember, "read", { type: "template", orgId: ORG2 })).toBe(false)
  })

  it("owning a workspace grants nothing outside the organizations one is a member of", () => {
    // The site `member` role has no owner grant on workspaces: membership gives it.
    expect(Rbac.can(subject(), "create", { type: "workspace", orgId: ORG, ownerId: ME })).toBe(false)
    expect(Rbac.can(subject([], { [ORG2]: [] }), "update", { type: "workspace", orgId: ORG, ownerId: ME })).toBe(false)
    // A check naming no organization asks whether the subject may, as a member somewhere.
    expect(Rbac.can(subject([], { [ORG2]: [] }), "update", { type: "workspace", ownerId: ME })).toBe(true)
    expect(Rbac.can(subject(), "update", { type: "workspace", ownerId: ME })).toBe(false)
    expect(Rbac.can(subject([], { [ORG2]: [] }), "update", { type: "workspace", ownerId: OTHER })).toBe(false)
  })

  it("organization-auditor reads its organization's audit log", () => {
    const orgAuditor = subject([], { [ORG]: ["organization-auditor"] })
    expect(Rbac.can(orgAuditor, "read", { type: "audit_log", orgId: ORG })).toBe(true)
    expect(Rbac.can(orgAuditor, "read", { type: "audit_log", orgId: ORG2 })).toBe(false)
    expect(Rbac.can(orgAuditor, "read", { type: "audit_log" })).toBe(false)
  })

  it("unknown roles grant nothing beyond member", () => {
    const s = subject(["nonsense"], { [ORG]: ["also-nonsense"] })
    expect(Rbac.can(s, "create", { type: "user" })).toBe(false)
    expect(Rbac.can(s, "update", { type: "organization", orgId: ORG })).toBe(false)
    expect(Rbac.can(s, "read", { type: "user" })).toBe(true)
  })
})

describe("Rbac.canAssign", () => {
  it("owner assigns every site role", () => {
    const owner = subject(["owner"])
    for (const role of ["owner", "auditor", "template-admin", "user-admin", "member"]) {
      expect(Rbac.canAssign(owner, role)).toBe(true)
    }
  })

  it("user-admin assigns roles below owner", () => {
    const admin = subject(["user-admin"])
    expect(Rbac.canAssign(admin, "auditor")).toBe(true)
    expect(Rbac.canAssign(admin, "user-admin")).toBe(true)
    expect(Rbac.canAssign(admin, "owner")).toBe(false)
  })

  it("member and auditor assign nothing", () => {
    for (const s of [subject(), subject(["auditor"]), subject(["template-admin"])]) {
      expect(Rbac.canAssign(s, "auditor")).toBe(false)
      expect(Rbac.canAssign(s, "owner")).toBe(false)
      expect(Rbac.canAssign(s, "organization-member", ORG)).toBe(false)
    }
  })

  it("organization-admin assigns organization roles in its organization only", () => {
    const orgAdmin = subject([], { [ORG]: ["organization-admin"] })
    expect(Rbac.canAssign(orgAdmin, "organization-admin", ORG)).toBe(true)
    expect(Rbac.canAssign(orgAdmin, "organization-auditor", ORG)).toBe(true)
    expect(Rbac.canAssign(orgAdmin, "organization-admin", ORG2)).toBe(false)
    expect(Rbac.canAssign(orgAdmin, "organization-admin")).toBe(false)
    expect(Rbac.canAssign(orgAdmin, "owner", ORG)).toBe(false)
  })

  it("organization-user-admin cannot assign organization-admin", () => {
    const userAdmin = subject([], { [ORG]: ["organization-user-admin"] })
    expect(Rbac.canAssign(userAdmin, "organization-auditor", ORG)).toBe(true)
    expect(Rbac.canAssign(userAdmin, "organization-user-admin", ORG)).toBe(true)
    expect(Rbac.canAssign(userAdmin, "organization-admin", ORG)).toBe(false)
    expect(Rbac.canAssign(userAdmin, "organization-auditor", ORG2)).toBe(false)
  })

  it("owner assigns organization roles anywhere; user-admin all but organization-admin", () => {
    const owner = subject(["owner"])
    const userAdmin = subject(["user-admin"])
    for (const role of Rbac.organizationRoles.map((r) => r.name)) {
      expect(Rbac.canAssign(owner, role, ORG)).toBe(true)
      expect(Rbac.canAssign(userAdmin, role, ORG)).toBe(role !== "organization-admin")
    }
  })

  it("unassignable lists the roles above the subject", () => {
    expect(Rbac.unassignable(subject(["user-admin"]), ["auditor", "owner", "organization-admin"], ORG))
      .toEqual(["owner", "organization-admin"])
    expect(Rbac.unassignable(subject(["owner"]), ["owner", "auditor"])).toEqual([])
    expect(Rbac.unassignable(subject(), [])).toEqual([])
  })
})

describe("Rbac.permissions", () => {
  it("lists each grant, * standing for every action", () => {
    const owner = Rbac.permissions(Rbac.roles.get("owner")!)
    expect(owner.site).toEqual([{ negate: false, resource_type: "*", action: "*" }])
    expect(owner.organization).toEqual([])
    const member = Rbac.permissions(Rbac.roles.get("member")!)
    expect(member.site).toContainEqual({ negate: false, resource_type: "user", action: "read" })
    expect(member.user).toContainEqual({ negate: false, resource_type: "api_key", action: "*" })
    const orgAdmin = Rbac.permissions(Rbac.roles.get("organization-admin")!)
    expect(orgAdmin.organization).toEqual([{ negate: false, resource_type: "*", action: "*" }])
  })
})

const token = (
  scopes: ReadonlyArray<string> | undefined,
  allowList?: ReadonlyArray<{ type: string; id: string }>,
  siteRoles: ReadonlyArray<string> = ["owner"]
): Rbac.Subject => ({ ...subject(siteRoles), scopes, allowList })

describe("Rbac scopes", () => {
  it("knows which names a token may carry", () => {
    for (const s of ["all", "application_connect", "user:read", "user:*", "*:read", "*:*", "api_key:delete"]) {
      expect(Rbac.isScope(s), s).toBe(true)
    }
    for (const s of ["", "root", "user", "user:", ":read", "planet:read", "user:fly", "user:read:extra", "ALL"]) {
      expect(Rbac.isScope(s), s).toBe(false)
    }
  })

  it("offers only names a token may carry, without duplicates", () => {
    expect(Rbac.externalScopes.slice(0, 2)).toEqual(["all", "application_connect"])
    expect(new Set(Rbac.externalScopes).size).toBe(Rbac.externalScopes.length)
    for (const s of Rbac.externalScopes) expect(Rbac.isScope(s), s).toBe(true)
  })

  it("grants by kind and action, with * for either", () => {
    expect(Rbac.scopeGrants("all", "delete", "organization")).toBe(true)
    expect(Rbac.scopeGrants("user:read", "read", "user")).toBe(true)
    expect(Rbac.scopeGrants("user:read", "update", "user")).toBe(false)
    expect(Rbac.scopeGrants("user:read", "read", "organization")).toBe(false)
    expect(Rbac.scopeGrants("user:*", "delete", "user")).toBe(true)
    expect(Rbac.scopeGrants("*:read", "read", "audit_log")).toBe(true)
    expect(Rbac.scopeGrants("*:read", "create", "audit_log")).toBe(false)
    expect(Rbac.scopeGrants("application_connect", "application_connect", "workspace")).toBe(true)
    expect(Rbac.scopeGrants("application_connect", "read", "workspace")).toBe(false)
    expect(Rbac.scopeGrants("application_connect", "read", "user")).toBe(false)
    expect(Rbac.scopeGrants("nonsense", "read", "user")).toBe(false)
  })

  it("narrows: a token allows what any of its scopes grants", () => {
    expect(Rbac.tokenAllows(token(undefined), "delete", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(token(["all"]), "delete", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(token(["user:read", "all"]), "delete", { type: "user" })).toBe(true)
    const two = token(["user:read", "organization:update"])
    expect(Rbac.tokenAllows(two, "read", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(two, "update", { type: "organization", id: ORG, orgId: ORG })).toBe(true)
    expect(Rbac.tokenAllows(two, "update", { type: "user", id: OTHER })).toBe(false)
    expect(Rbac.tokenAllows(token([]), "read", { type: "user" })).toBe(false)
  })
})

describe("Rbac allow-lists", () => {
  it("an id entry covers that object of that kind only", () => {
    const s = token(["all"], [{ type: "user", id: OTHER }])
    expect(Rbac.tokenAllows(s, "read", { type: "user", id: OTHER, ownerId: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(s, "update", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(s, "read", { type: "user", id: ME })).toBe(false)
    expect(Rbac.tokenAllows(s, "read", { type: "organization", id: OTHER })).toBe(false)
  })

  it("an object without an id (a listing, a creation) needs a * id", () => {
    expect(Rbac.tokenAllows(token(["all"], [{ type: "user", id: OTHER }]), "read", { type: "user" })).toBe(false)
    expect(Rbac.tokenAllows(token(["all"], [{ type: "user", id: OTHER }]), "create", { type: "user" })).toBe(false)
    expect(Rbac.tokenAllows(token(["all"], [{ type: "user", id: "*" }]), "create", { type: "user" })).toBe(true)
    expect(Rbac.tokenAllows(token(["all"], [{ type: "*", id: "*" }]), "create", { type: "user" })).toBe(true)
    expect(Rbac.tokenAllows(token(["all"], [{ type: "*", id: OTHER }]), "create", { type: "user" })).toBe(false)
  })

  it("* matches any kind or any id; entries add up; an empty list is unrestricted", () => {
    const anyKind = token(["all"], [{ type: "*", id: OTHER }])
    expect(Rbac.tokenAllows(anyKind, "read", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(anyKind, "read", { type: "organization", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(anyKind, "read", { type: "user", id: ME })).toBe(false)
    const anyId = token(["all"], [{ type: "user", id: "*" }])
    expect(Rbac.tokenAllows(anyId, "read", { type: "user", id: ME })).toBe(true)
    expect(Rbac.tokenAllows(anyId, "read", { type: "organization", id: ORG })).toBe(false)
    const both = token(["all"], [{ type: "user", id: OTHER }, { type: "organization", id: ORG }])
    expect(Rbac.tokenAllows(both, "read", { type: "organization", id: ORG, orgId: ORG })).toBe(true)
    expect(Rbac.tokenAllows(both, "read", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(token(["all"], []), "read", { type: "audit_log" })).toBe(true)
  })

  it("needs both the scopes and the allow-list", () => {
    const s = token(["user:read"], [{ type: "user", id: OTHER }])
    expect(Rbac.tokenAllows(s, "read", { type: "user", id: OTHER })).toBe(true)
    expect(Rbac.tokenAllows(s, "update", { type: "user", id: OTHER })).toBe(false)
    expect(Rbac.tokenAllows(s, "read", { type: "user", id: ME })).toBe(false)
  })
})

describe("Rbac.decide", () => {
  it("allows what both the roles and the token allow", () => {
    expect(Rbac.decide(token(["user:read"], undefined, []), "read", { type: "user", id: OTHER })).toBe("allowed")
    expect(Rbac.can(token(["user:read"], undefined, []), "read", { type: "user", id: OTHER })).toBe(true)
  })

  it("says the token refused when only the token stands in the way", () => {
    const owner = token(["user:read"])
    expect(Rbac.decide(owner, "delete", { type: "user", id: OTHER })).toBe("token")
    expect(Rbac.can(owner, "delete", { type: "user", id: OTHER })).toBe(false)
    const listed = token(["all"], [{ type: "user", id: OTHER }])
    expect(Rbac.decide(listed, "read", { type: "organization", id: ORG, orgId: ORG })).toBe("token")
  })

  it("says the roles refused whenever they do, whatever the token (a member's token cannot widen)", () => {
    for (
      const t of [
        token(undefined, undefined, []),
        token(["all"], undefined, []),
        token(["*:*"], [{ type: "*", id: "*" }], [])
      ]
    ) {
      expect(Rbac.decide(t, "create", { type: "user" })).toBe("roles")
      expect(Rbac.decide(t, "read", { type: "organization", id: ORG, orgId: ORG })).toBe("roles")
    }
    expect(Rbac.decide(token(["user:read"], undefined, []), "delete", { type: "user", id: OTHER })).toBe("roles")
  })

  it("organization-member reads the roles of its organization", () => {
    const orgMember = subject([], { [ORG]: [] })
    expect(Rbac.decide(orgMember, "read", { type: "assign_org_role", orgId: ORG })).toBe("allowed")
    expect(Rbac.decide(orgMember, "assign", { type: "assign_org_role", orgId: ORG })).toBe("roles")
    expect(Rbac.decide(orgMember, "read", { type: "assign_org_role", orgId: ORG2 })).toBe("roles")
  })
})

describe("Rbac role lists", () => {
  it("site and organization roles are told apart; the implicit member roles are not assignable", () => {
    expect(Rbac.isSiteRole("owner")).toBe(true)
    expect(Rbac.isSiteRole("member")).toBe(false)
    expect(Rbac.isSiteRole("organization-admin")).toBe(false)
    expect(Rbac.isOrganizationRole("organization-admin")).toBe(true)
    expect(Rbac.isOrganizationRole("organization-member")).toBe(false)
    expect(Rbac.isOrganizationRole("owner")).toBe(false)
    for (const role of Rbac.roles.values()) {
      for (const assignable of role.assignable) expect(Rbac.roles.has(assignable)).toBe(true)
    }
  })
})

describe("Rbac.tokenWithin", () => {
  const limits = (scopes: ReadonlyArray<string>, allowList: ReadonlyArray<{ type: string; id: string }> = []) => ({
    scopes,
    allowList
  })
  const any = [{ type: "*", id: "*" }]

  it("an unlimited key may mint anything; nothing wider than a limited one", () => {
    expect(Rbac.tokenWithin(limits(["all"], any), limits(["all"], any))).toBe(true)
    expect(Rbac.tokenWithin(limits(["workspace:read"], [{ type: "workspace", id: OTHER }]), limits(["all"]))).toBe(true)
    expect(Rbac.tokenWithin(limits(["all"]), limits(["api_key:*"]))).toBe(false)
    expect(Rbac.tokenWithin(limits(["application_connect"]), limits(["api_key:*"]))).toBe(false)
  })

  it("scopes must each be covered by a scope of the parent", () => {
    expect(Rbac.tokenWithin(limits(["api_key:read", "api_key:delete"]), limits(["api_key:*"]))).toBe(true)
    expect(Rbac.tokenWithin(limits(["api_key:*"]), limits(["api_key:read"]))).toBe(false)
    expect(Rbac.tokenWithin(limits(["user:read"]), limits(["*:read"]))).toBe(true)
    expect(Rbac.tokenWithin(limits(["application_connect"]), limits(["workspace:application_connect"]))).toBe(true)
    expect(Rbac.tokenWithin(limits(["workspace:application_connect"]), limits(["application_connect"]))).toBe(true)
    expect(Rbac.tokenWithin(limits(["workspace:read"]), limits(["application_connect"]))).toBe(false)
  })

  it("an allow-listed parent mints only tokens listed within its list", () => {
    const parent = limits(["all"], [{ type: "user", id: "*" }, { type: "workspace", id: ME }])
    expect(Rbac.tokenWithin(limits(["all"], [{ type: "user", id: OTHER }]), parent)).toBe(true)
    expect(Rbac.tokenWithin(limits(["all"], [{ type: "workspace", id: ME }]), parent)).toBe(true)
    expect(Rbac.tokenWithin(limits(["all"], [{ type: "workspace", id: OTHER }]), parent)).toBe(false)
    expect(Rbac.tokenWithin(limits(["all"], []), parent)).toBe(false)
    expect(Rbac.tokenWithin(limits(["all"], any), parent)).toBe(false)
  })
})

describe("Rbac template access lists", () => {
  const TEMPLATE = "55555555-5555-4555-8555-555555555555"
  const GROUP = "66666666-6666-4666-8666-666666666666"
  const use = ["read", "use"] as const
  const admin = ["read", "update", "delete", "use", "view_insights", "create"] as const
  const template = (
    users: Record<string, ReadonlyArray<Rbac.Action>>,
    groups: Record<string, ReadonlyArray<Rbac.Action>>
  ) => ({ type: "template", id: TEMPLATE, orgId: ORG, acl: { users, groups } }) as const

  /** A plain member of the template's organization. */
  const member = () => subject([], { [ORG]: [] })

  it("grants the actions of the user's own entry, and nothing else", () => {
    const me = member()
    const t = template({ [ME]: use }, {})
    expect(Rbac.can(me, "read", t)).toBe(true)
    expect(Rbac.can(me, "use", t)).toBe(true)
    expect(Rbac.can(me, "update", t)).toBe(false)
    expect(Rbac.can(me, "delete", t)).toBe(false)
    expect(Rbac.can({ ...me, userId: OTHER }, "read", t)).toBe(false)
    // Entries count only for members of the template's organization.
    expect(Rbac.can(subject(), "read", t)).toBe(false)
    expect(Rbac.can(subject([], { [ORG2]: [] }), "read", t)).toBe(false)
    // The entry is about this template only.
    expect(Rbac.can(me, "read", { type: "template", id: OTHER, orgId: ORG })).toBe(false)
  })

  it("admin entries grant changes, use entries only reading and using", () => {
    const me = member()
    for (const action of ["read", "update", "delete", "use", "view_insights"] as const) {
      expect(Rbac.can(me, action, template({ [ME]: admin }, {}))).toBe(true)
    }
    expect(Rbac.can(me, "update", template({ [ME]: use }, {}))).toBe(false)
    expect(Rbac.can(me, "view_insights", template({ [ME]: use }, {}))).toBe(false)
  })

  it("grants a group's entry to the groups' members only", () => {
    const t = template({}, { [GROUP]: use })
    expect(Rbac.can({ ...subject([], { [ORG]: [] }), groupIds: [GROUP] }, "use", t)).toBe(true)
    expect(Rbac.can({ ...subject([], { [ORG]: [] }), groupIds: [] }, "use", t)).toBe(false)
    expect(Rbac.can(subject([], { [ORG]: [] }), "use", t)).toBe(false)
  })

  it("grants the Everyone group's entry (the organization's id) to every member of that organization", () => {
    const t = template({}, { [ORG]: use })
    expect(Rbac.can(subject([], { [ORG]: [] }), "read", t)).toBe(true)
    expect(Rbac.can(subject([], { [ORG]: [] }), "use", t)).toBe(true)
    expect(Rbac.can(subject([], { [ORG]: [] }), "update", t)).toBe(false)
    expect(Rbac.can(subject([], { [ORG2]: [] }), "read", t)).toBe(false)
    expect(Rbac.can(subject(), "read", t)).toBe(false)
    // Without the entry, a member of the organization does not see the template.
    expect(Rbac.can(subject([], { [ORG]: [] }), "read", template({}, {}))).toBe(false)
  })

  it("still lets the token's scopes and allow-list narrow what an entry grants", () => {
    const t = template({ [ME]: admin }, {})
    const scoped = { ...member(), scopes: ["template:read"] }
    expect(Rbac.can(scoped, "read", t)).toBe(true)
    expect(Rbac.can(scoped, "update", t)).toBe(false)
    expect(Rbac.decide(scoped, "update", t)).toBe("token")
    const listed = { ...member(), allowList: [{ type: "template", id: OTHER }] }
    expect(Rbac.can(listed, "read", t)).toBe(false)
    expect(Rbac.can({ ...member(), allowList: [{ type: "template", id: TEMPLATE }] }, "read", t)).toBe(true)
  })

  it("template admins need no entry, in their organization", () => {
    expect(Rbac.can(subject(["template-admin"]), "delete", template({}, {}))).toBe(true)
    expect(Rbac.can(subject([], { [ORG]: ["organization-template-admin"] }), "update", template({}, {}))).toBe(true)
    expect(Rbac.can(subject([], { [ORG2]: ["organization-template-admin"] }), "update", template({}, {}))).toBe(false)
  })
})

describe("Rbac workspace sharing lists", () => {
  const WORKSPACE = "77777777-7777-4777-8777-777777777777"
  const GROUP = "66666666-6666-4666-8666-666666666666"
  const OWNER = OTHER
  const workspace = (
    userAcl: Record<string, "admin" | "use">,
    groupAcl: Record<string, "admin" | "use"> = {},
    sharing = true
  ) =>
    workspaceObject(
      { id: WORKSPACE, organization_id: ORG, owner_id: OWNER, user_acl: userAcl, group_acl: groupAcl },
      sharing
    )
  const member = (groupIds: ReadonlyArray<string> = []) => ({ ...subject([], { [ORG]: [] }), groupIds })
  const useActions = ["read", "start", "stop", "ssh", "application_connect"] as const
  const adminOnly = ["update", "share"] as const
  const never = ["delete", "create"] as const

  it("use reads, starts, stops and connects; it neither changes nor shares", () => {
    const w = workspace({ [ME]: "use" })
    for (const action of useActions) expect(Rbac.can(member(), action, w), action).toBe(true)
    for (const action of [...adminOnly, ...never]) expect(Rbac.can(member(), action, w), action).toBe(false)
  })

  it("admin also updates and shares, and still cannot delete", () => {
    const w = workspace({ [ME]: "admin" })
    for (const action of [...useActions, ...adminOnly]) expect(Rbac.can(member(), action, w), action).toBe(true)
    for (const action of never) expect(Rbac.can(member(), action, w), action).toBe(false)
  })

  it("a group's role reaches the group's members, the Everyone group's every member of the organization", () => {
    expect(Rbac.can(member([GROUP]), "ssh", workspace({}, { [GROUP]: "use" }))).toBe(true)
    expect(Rbac.can(member(), "ssh", workspace({}, { [GROUP]: "use" }))).toBe(false)
    expect(Rbac.can(member(), "share", workspace({}, { [ORG]: "admin" }))).toBe(true)
    expect(Rbac.can(member(), "share", workspace({}, { [ORG]: "use" }))).toBe(false)
  })

  it("grants nothing to users outside the workspace's organization, whatever the list says", () => {
    const w = workspace({ [ME]: "admin" }, { [GROUP]: "admin" })
    expect(Rbac.can(subject(), "read", w)).toBe(false)
    expect(Rbac.can({ ...subject([], { [ORG2]: [] }), groupIds: [GROUP] }, "read", w)).toBe(false)
    expect(Rbac.decide(subject(), "share", w)).toBe("roles")
  })

  it("leaves the owner's and the admins' rights as the roles give them", () => {
    const w = workspace({})
    const owner = { ...member(), userId: OWNER }
    for (const action of [...useActions, ...adminOnly, "delete"] as const) {
      expect(Rbac.can(owner, action, w), action).toBe(true)
    }
    expect(Rbac.can(subject([], { [ORG]: ["organization-admin"] }), "share", w)).toBe(true)
    expect(Rbac.can(subject(["owner"]), "share", w)).toBe(true)
    // Template admins read every workspace, and do no more with them.
    expect(Rbac.can(subject(["template-admin"]), "read", w)).toBe(true)
    expect(Rbac.can(subject(["template-admin"]), "share", w)).toBe(false)
    expect(Rbac.can(member(), "read", w)).toBe(false)
  })

  it("with sharing off the list grants nothing", () => {
    const w = workspace({ [ME]: "admin" }, { [ORG]: "admin" }, false)
    expect(w.acl).toBeUndefined()
    for (const action of [...useActions, ...adminOnly]) expect(Rbac.can(member(), action, w), action).toBe(false)
  })

  it("still lets the token's scopes narrow what an entry grants", () => {
    const w = workspace({ [ME]: "admin" })
    const scoped = { ...member(), scopes: ["workspace:read"] }
    expect(Rbac.can(scoped, "read", w)).toBe(true)
    expect(Rbac.decide(scoped, "share", w)).toBe("token")
    const connectOnly = { ...member(), scopes: ["application_connect"] }
    expect(Rbac.can(connectOnly, "application_connect", w)).toBe(true)
    expect(Rbac.can(connectOnly, "read", w)).toBe(false)
  })
})

describe("custom organization roles", () => {
  const maker = Rbac.customRoleDefinition("group-maker", "Group Maker", [
    { resource_type: "group", action: "create" },
    { resource_type: "group", action: "read" }
  ])
  const holder = (loaded = true): Rbac.Subject => ({
    ...subject([], { [ORG]: ["group-maker"], [ORG2]: [] }),
    ...(loaded ? { customRoles: new Map([[ORG, new Map([["group-maker", maker]])]]) } : {})
  })

  it("grants its organization permissions in its organization only", () => {
    expect(Rbac.can(holder(), "create", { type: "group", orgId: ORG })).toBe(true)
    expect(Rbac.can(holder(), "delete", { type: "group", orgId: ORG })).toBe(false)
    expect(Rbac.can(holder(), "create", { type: "group", orgId: ORG2 })).toBe(false)
    expect(Rbac.can(holder(), "create", { type: "group" })).toBe(false)
    expect(Rbac.can(holder(), "create", { type: "group", anyOrg: true })).toBe(true)
  })

  it("grants nothing when its definition is not loaded (a deleted role)", () => {
    expect(Rbac.can(holder(false), "create", { type: "group", orgId: ORG })).toBe(false)
  })

  it("is assigned by owners and organization admins, not by user admins", () => {
    expect(Rbac.canAssign(subject(["owner"]), "group-maker", ORG)).toBe(true)
    expect(Rbac.canAssign(subject([], { [ORG]: ["organization-admin"] }), "group-maker", ORG)).toBe(true)
    expect(Rbac.canAssign(subject([], { [ORG2]: ["organization-admin"] }), "group-maker", ORG)).toBe(false)
    expect(Rbac.canAssign(subject(["user-admin"]), "group-maker", ORG)).toBe(false)
    expect(Rbac.canAssign(subject([], { [ORG]: ["organization-user-admin"] }), "group-maker", ORG)).toBe(false)
    expect(Rbac.isBuiltInRole("organization-admin")).toBe(true)
    expect(Rbac.isBuiltInRole("group-maker")).toBe(false)
  })
})
