import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// globalSetup creates a fresh database for the run (or loudly skips without a server; fails under CI).
export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: "storage-postgres",
      include: ["test/**/*.test.ts"],
      globalSetup: ["test/globalSetup.ts"]
    }
  })
)
