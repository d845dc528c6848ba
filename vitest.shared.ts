import { defaultServerConditions } from "vite"
import { defineProject } from "vitest/config"

/**
 * Settings every project merges in. Tests import @workbay/* from source through the
 * `@workbay/source` export condition (first in each package's exports map), so nothing is built
 * first. Vitest resolves test imports in Vite's SSR environment: `ssr.resolve.conditions`
 * is what applies there (`resolve.conditions` alone does not).
 */
export default defineProject({
  ssr: { resolve: { conditions: ["@workbay/source", ...defaultServerConditions] } }
})
