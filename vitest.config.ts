import { defineConfig, mergeConfig } from "vitest/config"
import shared from "./vitest.shared.js"

/**
 * The configuration of `npm test` (`vitest run` at the root): every package's tests and the
 * examples' as ONE project, run by several worker processes, without isolation. See
 * docs/testing.md for the measurements behind each choice.
 *
 * - Without isolation (`isolate`, a root option) a worker evaluates Effect and the library once and
 *   runs file after file in it, instead of a fresh module graph per file (about 2.3 s per file).
 *   Tests keep no state in shared modules that a later file could trip on.
 * - One project, not one per package: without isolation vitest runs projects one after the other,
 *   each in new workers, so a package's slowest file held up the next package and every worker
 *   loaded the library again for each of the seven packages. The package folders keep their own
 *   vitest.config.ts for running one package's tests (`cd packages/http && npx vitest run`).
 * - Forks, not threads: a test file may start servers, child processes and native SQLite
 *   handles; a worker process ends with all of them, and a crash stays in it.
 * - Three workers on two cores: much of a test's time is spent waiting (on Postgres, on server
 *   and agent processes, on HTTP round trips), which another worker's CPU work fills.
 * - The test and hook timeouts are vitest.shared.ts's backstop: waits carry their own bounds.
 */
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      name: "workbay",
      include: ["packages/*/test/**/*.test.ts", "packages/dashboard/test/**/*.test.tsx", "examples/test/**/*.test.ts"],
      // A fresh Postgres database for the run (or a loud skip; fails under CI), and the server
      // and agent bundled once for the tests that start them as processes, and the dashboard built.
      globalSetup: [
        // First: the run's own temporary folder, removed at its end (vitest.tmpdir.ts).
        "vitest.tmpdir.ts",
        "packages/storage-postgres/test/globalSetup.ts",
        "packages/server/test/bundles.ts",
        "packages/agent/test/globalSetup.ts",
        "packages/cli/test/globalSetup.ts",
        "packages/docker/test/globalSetup.ts",
        "packages/dashboard/test/globalSetup.ts"
      ],
      // Names a test that holds a worker's event loop 10 s or more (vitest.held.ts).
      setupFiles: ["vitest.held.ts"],
      isolate: false,
      pool: "forks",
      maxWorkers: 3,
      minWorkers: 3
    }
  })
)
