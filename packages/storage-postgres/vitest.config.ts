import { defineProject } from "vitest/config"

// globalSetup creates a fresh database for the run (or loudly skips without a server; fails under CI).
export default defineProject({
  test: {
    name: "storage-postgres",
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000
  }
})
