import { defaultServerConditions } from "vite"
import { defineProject } from "vitest/config"

/**
 * Settings every project merges in. Tests import @workbay/* from source through the
 * `@workbay/source` export condition (first in each package's exports map), so nothing is built
 * first. Vitest resolves test imports in Vite's SSR environment: `ssr.resolve.conditions`
 * is what applies there (`resolve.conditions` alone does not).
 *
 * Files run without isolation: a worker process evaluates the library once and runs file after
 * file in it, instead of a fresh module graph per file. Evaluating Effect and the library took
 * about 2.3 s per file, 333 s of a clean run's 833 s; it is now paid once per worker. Tests
 * therefore keep no state in shared modules that a later file could trip on (`uniqueName` and
 * `createUser` in http/test/support.ts make names that stay valid however many files ran before).
 */
export default defineProject({
  ssr: { resolve: { conditions: ["@workbay/source", ...defaultServerConditions] } },
  test: { isolate: false }
})
