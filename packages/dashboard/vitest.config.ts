import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({
    // The dashboard built (unless current) before its browser tests; the Docker tests' images and
    // agent executables (or their loud skip) for TemplateVariables.test.ts.
    test: {
      name: "dashboard",
      include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
      globalSetup: ["test/globalSetup.ts", "../docker/test/globalSetup.ts"]
    }
  })
)
