/** Secrets at rest on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { secretsSuite } from "../../storage-sql/test/SecretsSuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

secretsSuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
