/** The app session repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { appSessionSuite } from "../../storage-sql/test/agents/AppSessionSuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

appSessionSuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
