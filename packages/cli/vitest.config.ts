import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({
    // The server (and the agent) bundled from source for the tests that start them (packages/server/test/bundles.ts),
    // and the command's executables (test/globalSetup.ts).
    test: {
      name: "cli",
      include: ["test/**/*.test.ts"],
      globalSetup: ["../server/test/bundles.ts", "test/globalSetup.ts"]
    }
  })
)
