/** The lifecycle executor's tick interval: `--autobuild-poll-interval` and its variable. */
import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import { helpText, loadConfig } from "../src/index.js"

describe("--autobuild-poll-interval", () => {
  it("reads a duration from the flag or the variable (the flag wins); absent keeps the default", () => {
    expect(loadConfig([], {}).autobuildPollInterval).toBeUndefined()
    expect(
      loadConfig(["--autobuild-poll-interval", "200ms"], { WORKBAY_AUTOBUILD_POLL_INTERVAL: "5m" })
        .autobuildPollInterval
    )
      .toEqual(Duration.millis(200))
    expect(loadConfig([], { WORKBAY_AUTOBUILD_POLL_INTERVAL: "30s" }).autobuildPollInterval).toEqual(
      Duration.millis(30_000)
    )
    expect(helpText()).toContain("--autobuild-poll-interval")
  })

  it("refuses what is not a positive duration", () => {
    for (const bad of ["0", "soon", "-1s", "1y"]) {
      expect(() => loadConfig(["--autobuild-poll-interval", bad], {}), bad).toThrow(/--autobuild-poll-interval/)
    }
  })
})
