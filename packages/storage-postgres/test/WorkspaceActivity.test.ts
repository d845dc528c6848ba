/** The workspace activity repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { activitySuite } from "../../storage-sql/test/workspaces/ActivitySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

activitySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), { skip: url === null })
