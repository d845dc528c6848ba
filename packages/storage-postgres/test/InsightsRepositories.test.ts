/** The insights repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { insightsRepositorySuite } from "../../storage-sql/test/insights/RepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

insightsRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
