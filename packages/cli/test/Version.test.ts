/** When `workbay` warns that its version and the deployment's differ: their major or minor, as the described system's CLI. */
import { describe, expect, it } from "vitest"
import { versionMismatch } from "../src/commands/Version.js"

describe("versionMismatch", () => {
  it("is silent for the same major and minor, whatever the patch, a pre-release or build metadata", () => {
    for (const [cli, server] of [["0.1.0", "v0.1.0"], ["0.1.0", "v0.1.7"], ["v1.2.3", "1.2.0-rc.1+abc"]]) {
      expect(versionMismatch(cli!, server!)).toBeUndefined()
    }
  })

  it("warns for another major or minor, with the deployment's upgrade message when it has one", () => {
    expect(versionMismatch("0.1.0", "v0.2.0")).toBe(
      "version mismatch: client v0.1.0, server v0.2.0\ninstall the workbay command of the deployment's version"
    )
    expect(versionMismatch("1.0.0", "v2.0.0", "  Run: curl -fsSL https://example.com/install | sh ")).toBe(
      "version mismatch: client v1.0.0, server v2.0.0\nRun: curl -fsSL https://example.com/install | sh"
    )
  })

  it("is silent when either is not a version (a development build)", () => {
    expect(versionMismatch("0.1.0", "devel")).toBeUndefined()
    expect(versionMismatch("", "v0.2.0")).toBeUndefined()
  })
})
