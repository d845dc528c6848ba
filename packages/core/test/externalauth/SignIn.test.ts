/** The pure rules of sign-in: usernames made from claims, redirect targets, GitHub's endpoints. */
import { describe, expect, it } from "vitest"
import { githubEndpoints } from "../../src/externalauth/GithubSignIn.js"
import { safeRedirect, usernameFrom } from "../../src/externalauth/SignIn.js"

describe("usernameFrom", () => {
  it("keeps a valid username and lower-cases it", () => {
    expect(usernameFrom("Alice")).toBe("alice")
    expect(usernameFrom("bob-2")).toBe("bob-2")
  })

  it("takes an email's local part and turns other characters into single hyphens", () => {
    expect(usernameFrom("dave.the_admin@corp.example")).toBe("dave-the-admin")
    expect(usernameFrom("--a__b--")).toBe("a-b")
  })

  it("cuts at 32 characters without a trailing hyphen", () => {
    const name = usernameFrom(`${"a".repeat(31)}-bbbb`)
    expect(name.length).toBeLessThanOrEqual(32)
    expect(name.endsWith("-")).toBe(false)
  })

  it("makes one up when nothing usable is left, or the name is a route word", () => {
    expect(usernameFrom("!!!")).toMatch(/^user-[a-z0-9]{6}$/)
    expect(usernameFrom("me")).toMatch(/^user-[a-z0-9]{6}$/)
  })
})

describe("safeRedirect", () => {
  it("keeps the path and query only", () => {
    expect(safeRedirect("/workspaces?x=1")).toBe("/workspaces?x=1")
    expect(safeRedirect("https://evil.example/steal?x=1")).toBe("/steal?x=1")
    expect(safeRedirect("//evil.example/path")).toBe("/path")
  })

  it("defaults to the root", () => {
    expect(safeRedirect(undefined)).toBe("/")
    expect(safeRedirect("")).toBe("/")
  })
})

describe("githubEndpoints", () => {
  it("uses github.com unless an enterprise base URL is set", () => {
    expect(githubEndpoints({ oauth2GithubEnterpriseBaseUrl: "" })).toEqual({
      web: "https://github.com",
      api: "https://api.github.com"
    })
    expect(githubEndpoints({ oauth2GithubEnterpriseBaseUrl: "https://ghe.corp/" })).toEqual({
      web: "https://ghe.corp",
      api: "https://ghe.corp/api/v3"
    })
  })
})
