import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({
    test: { name: "agent", include: ["test/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 30_000 }
  })
)
