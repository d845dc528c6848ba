import { defaultServerConditions } from "vite"
import { defineProject } from "vitest/config"

/**
 * Settings every project merges in. Tests import @workbay/* from source through the
 * `@workbay/source` export condition (first in each package's exports map), so nothing is built
 * first. Vitest resolves test imports in Vite's SSR environment: `ssr.resolve.conditions`
 * is what applies there (`resolve.conditions` alone does not).
 */
export default defineProject({
  ssr: { resolve: { conditions: ["@workbay/source", ...defaultServerConditions] } },
  test: {
    // A backstop, not a budget: every wait in a test is bounded by what it waits for (a page's
    // element, a process's line, an HTTP answer, each with its own limit and message), so a flow
    // on a busy machine takes as long as its steps take. A test that reaches this is hung; no
    // test sets a ceiling of its own (docs/testing.md, "A busy machine").
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // `expect.poll`'s bound (vitest's own default is 1 s, too short for a page or a process on a
    // busy machine); Playwright's waits keep their default of 30 s.
    expect: { poll: { timeout: 30_000, interval: 50 } }
  }
})
