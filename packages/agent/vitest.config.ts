import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({
    // The agent bundled from source for the tests that run it (packages/server/test/bundles.ts), and its
    // executables (test/globalSetup.ts).
    test: {
      name: "agent",
      include: ["test/**/*.test.ts"],
      globalSetup: ["../server/test/bundles.ts", "test/globalSetup.ts"]
    }
  })
)
