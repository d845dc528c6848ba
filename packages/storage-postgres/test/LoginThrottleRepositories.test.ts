/** The sign-in failure count contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { loginThrottleRepositorySuite } from "../../storage-sql/test/users/LoginThrottleSuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

loginThrottleRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)
