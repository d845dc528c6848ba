/** The port share level rule: a template's maximum allows itself and every narrower level. */
import { describe, expect, it } from "vitest"
import { portShareLevelAllowed, portShareLevelOrder } from "../../src/workspaces/PortShare.js"

describe("portShareLevelAllowed", () => {
  it("orders owner < organization < authenticated < public", () => {
    const allowedUnder = (max: string) => portShareLevelOrder.filter((level) => portShareLevelAllowed(level, max))
    expect(allowedUnder("owner")).toEqual(["owner"])
    expect(allowedUnder("organization")).toEqual(["owner", "organization"])
    expect(allowedUnder("authenticated")).toEqual(["owner", "organization", "authenticated"])
    expect(allowedUnder("public")).toEqual(["owner", "organization", "authenticated", "public"])
  })

  it("reads an unknown maximum as owner", () => {
    expect(portShareLevelAllowed("organization", "")).toBe(false)
    expect(portShareLevelAllowed("owner", "everyone")).toBe(true)
  })
})
