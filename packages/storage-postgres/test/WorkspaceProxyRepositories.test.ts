/** The workspace proxy repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { workspaceProxyRepositorySuite } from "../../storage-sql/test/proxies/RepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

workspaceProxyRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
