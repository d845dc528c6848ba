/** The inbox repository contract on Postgres: an empty, migrated store per test (fresh.ts); skipped when no server answers. */
import { inject } from "@effect/vitest"
import { inboxRepositorySuite } from "../../../storage-sql/test/notifications/InboxRepositorySuite.js"
import { freshStorage } from "../fresh.js"

const url = inject("workbayPgUrl")

inboxRepositorySuite(
  "Postgres",
  "pg",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)
