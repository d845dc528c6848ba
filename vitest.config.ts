import { defineConfig } from "vitest/config"

/**
 * The root configuration: one project per package (the Postgres project sets up, or loudly skips,
 * a fresh database per run), and files run without isolation. Isolation is a root option (a
 * project's own `isolate` is not applied), so it is set here: a worker process evaluates Effect
 * and the library once and runs file after file in it, instead of a fresh module graph per file,
 * which cost about 2.3 s per file. Tests keep no state in shared modules that a later file could
 * trip on (`uniqueName` and `createUser` in http/test/support.ts make names that stay valid
 * however many files ran before).
 */
export default defineConfig({
  test: {
    isolate: false,
    projects: [
      "packages/core",
      "packages/storage-sqlite",
      "packages/storage-postgres",
      "packages/http",
      "packages/agent",
      "packages/server",
      "examples"
    ]
  }
})
