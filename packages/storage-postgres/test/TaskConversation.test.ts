/** The task conversation repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { conversationRepositorySuite } from "../../storage-sql/test/tasks/ConversationRepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

conversationRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
