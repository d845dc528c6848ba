/** The external auth link repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { externalAuthRepositorySuite } from "../../storage-sql/test/externalauth/RepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

externalAuthRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
