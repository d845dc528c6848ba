/**
 * The agent repository contract on Postgres: an empty, migrated store per test (fresh.ts).
 * Skipped when no server answers.
 */
import { inject } from "@effect/vitest"
import { agentRepositorySuite } from "../../storage-sql/test/agents/RepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

agentRepositorySuite(
  "Postgres",
  "pg",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
