import { defineProject, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({
    // The storage-postgres project's globalSetup: a fresh database for the run (or a loud skip; fails under CI);
    // bundles.ts: the server and the agent bundled from source for the tests that start them as processes;
    // the dashboard built (for the server's serving of it).
    test: {
      name: "server",
      include: ["test/**/*.test.ts"],
      globalSetup: ["../storage-postgres/test/globalSetup.ts", "test/bundles.ts", "../dashboard/test/globalSetup.ts"]
    }
  })
)
