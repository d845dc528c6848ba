/** The notifications repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { notificationRepositorySuite } from "../../storage-sql/test/notifications/RepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

notificationRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
