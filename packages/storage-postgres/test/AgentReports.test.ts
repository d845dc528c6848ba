/** The agent report repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { reportRepositorySuite } from "../../storage-sql/test/agents/ReportRepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

reportRepositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), { skip: url === null })
