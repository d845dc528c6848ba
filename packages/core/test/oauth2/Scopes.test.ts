/**
 * OAuth2 scope negotiation, pure (no HTTP, no storage): the request against the app's registered
 * scope, the user's choice, what the user holds, and refresh (keep or narrow, never widen).
 */
import { describe, expect, it } from "@effect/vitest"
import {
  chosenScope,
  describeScope,
  formatScope,
  heldScope,
  negotiateScope,
  OAUTH2_SCOPES,
  parseScope,
  refreshScope,
  scopeCovered
} from "../../src/oauth2/Scopes.js"
import type { Subject } from "../../src/Rbac.js"
import { can } from "../../src/Rbac.js"

const ORG = "00000000-0000-4000-8000-0000000000aa"
const member: Subject = { userId: "u-member", siteRoles: [], orgRoles: new Map([[ORG, []]]) }
const owner: Subject = { userId: "u-owner", siteRoles: ["owner"], orgRoles: new Map([[ORG, []]]) }

const ok = (r: ReturnType<typeof negotiateScope>) => {
  if (!("ok" in r)) throw new Error(`refused: ${r.refused.description}`)
  return r.ok
}
const refused = (r: ReturnType<typeof negotiateScope>) => {
  if ("ok" in r) throw new Error(`granted: ${r.ok.join(" ")}`)
  return r.refused
}

describe("OAuth2 scopes", () => {
  it("parses a space-separated value into names, each once; formats them back", () => {
    expect(parseScope(undefined)).toEqual([])
    expect(parseScope("  workspace:read\ttemplate:read  workspace:read ")).toEqual(["workspace:read", "template:read"])
    expect(formatScope(["a:b", "c:d"])).toBe("a:b c:d")
  })

  it("offers the external catalog of the keys' scopes", () => {
    expect(OAUTH2_SCOPES).toContain("all")
    expect(OAUTH2_SCOPES).toContain("workspace:ssh")
    expect(OAUTH2_SCOPES).toContain("template:*")
    expect(OAUTH2_SCOPES).not.toContain("debug_info:read")
  })

  it("without a registered scope: grants what is asked, or all when nothing is", () => {
    expect(ok(negotiateScope(undefined, undefined))).toEqual(["all"])
    expect(ok(negotiateScope("", ""))).toEqual(["all"])
    expect(ok(negotiateScope("workspace:read template:read", undefined))).toEqual(["workspace:read", "template:read"])
  })

  it("refuses unknown and internal names whole (invalid_scope)", () => {
    expect(refused(negotiateScope("workspace:read openid", undefined))).toMatchObject({ error: "invalid_scope" })
    expect(refused(negotiateScope("debug_info:read", undefined)).description).toContain("\"debug_info:read\"")
    expect(refused(negotiateScope("workspace:fly", undefined)).error).toBe("invalid_scope")
  })

  it("with a registered scope: the ceiling by default, anything it covers, nothing wider", () => {
    const ceiling = "workspace:* template:read"
    expect(ok(negotiateScope(undefined, ceiling))).toEqual(["workspace:*", "template:read"])
    expect(ok(negotiateScope("workspace:ssh", ceiling))).toEqual(["workspace:ssh"])
    expect(ok(negotiateScope("workspace:ssh template:read", ceiling))).toEqual(["workspace:ssh", "template:read"])
    expect(ok(negotiateScope("application_connect", ceiling))).toEqual(["application_connect"])
    expect(refused(negotiateScope("template:update", ceiling)).description).toContain("\"template:update\"")
    expect(refused(negotiateScope("all", ceiling)).error).toBe("invalid_scope")
    expect(refused(negotiateScope("*:read", ceiling)).error).toBe("invalid_scope")
    // Refused whole rather than trimmed to the covered part.
    expect(refused(negotiateScope("workspace:ssh user:read", ceiling)).description).toContain("\"user:read\"")
    expect(ok(negotiateScope("workspace:read", "all"))).toEqual(["workspace:read"])
  })

  it("a registered scope of which no name is known grants nothing (never falls back to all)", () => {
    expect(refused(negotiateScope(undefined, "openid profile")).error).toBe("invalid_scope")
    expect(ok(negotiateScope(undefined, "openid workspace:read"))).toEqual(["workspace:read"])
  })

  it("the user's choice keeps only offered names they left checked", () => {
    const offered = ["workspace:read", "template:read", "user:read"]
    expect(chosenScope(offered, ["user:read", "workspace:read", "all"])).toEqual(["workspace:read", "user:read"])
    expect(chosenScope(offered, [])).toEqual([])
  })

  it("drops names granting nothing the user holds; all and object-listed kinds stay", () => {
    expect(heldScope(member, ["all", "user:read", "audit_log:read", "api_key:*", "template:create"])).toEqual([
      "all",
      "user:read",
      "api_key:*",
      "template:create"
    ])
    expect(heldScope(owner, ["audit_log:read", "organization:delete"])).toEqual([
      "audit_log:read",
      "organization:delete"
    ])
    expect(heldScope(member, ["audit_log:read", "organization:delete"])).toEqual([])
  })

  it("the granted names limit a key through the one evaluator", () => {
    const keyed = (scopes: ReadonlyArray<string>): Subject => ({ ...owner, scopes })
    expect(can(keyed(["workspace:read"]), "read", { type: "workspace", ownerId: owner.userId, orgId: ORG })).toBe(true)
    expect(can(keyed(["workspace:read"]), "delete", { type: "workspace", ownerId: owner.userId, orgId: ORG })).toBe(
      false
    )
    expect(can(keyed(["workspace:read"]), "read", { type: "audit_log" })).toBe(false)
    expect(can(keyed(["all"]), "read", { type: "audit_log" })).toBe(true)
  })

  it("refresh keeps the grant's scope, or narrows it, never widens", () => {
    const granted = ["workspace:*", "template:read"]
    expect(refreshScope(granted, undefined)).toEqual({ ok: granted })
    expect(refreshScope(granted, "")).toEqual({ ok: granted })
    expect(refreshScope(granted, "workspace:ssh")).toEqual({ ok: ["workspace:ssh"] })
    expect(refreshScope(granted, "template:read workspace:*")).toEqual({ ok: ["template:read", "workspace:*"] })
    expect(refreshScope(granted, "template:update")).toMatchObject({ refused: { error: "invalid_scope" } })
    expect(refreshScope(granted, "all")).toMatchObject({ refused: { error: "invalid_scope" } })
    expect(refreshScope(granted, "openid")).toMatchObject({ refused: { error: "invalid_scope" } })
    expect(refreshScope(["all"], "workspace:read")).toEqual({ ok: ["workspace:read"] })
  })

  it("coverage is the keys' rule", () => {
    expect(scopeCovered("workspace:ssh", ["workspace:*"])).toBe(true)
    expect(scopeCovered("workspace:*", ["workspace:ssh"])).toBe(false)
    expect(scopeCovered("anything:at_all", ["all"])).toBe(true)
    expect(scopeCovered("all", ["*:*"])).toBe(false)
  })

  it("reads each scope in words", () => {
    expect(describeScope("all")).toBe("Full access: everything you can do")
    expect(describeScope("workspace:ssh")).toBe("Connect over SSH to workspaces")
    expect(describeScope("template:*")).toBe("Every action on templates")
    expect(describeScope("api_key:read")).toBe("Read API keys")
    expect(describeScope("application_connect")).toBe("Open the applications of your workspaces")
    for (const name of OAUTH2_SCOPES) expect(describeScope(name)).not.toContain("_")
  })
})
