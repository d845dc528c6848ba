/** The OAuth2 repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { oauth2RepositorySuite } from "../../storage-sql/test/oauth2/RepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

oauth2RepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
