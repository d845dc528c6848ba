import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({
    test: { name: "storage-sqlite", include: ["test/**/*.test.ts"] }
  })
)
