/**
 * The agent repository contract on Postgres: each test in its own schema of this run's fresh
 * database (see globalSetup.ts). Skipped when no server answers.
 */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { agentRepositorySuite } from "../../storage-sql/test/agents/RepositorySuite.js"

const url = inject("workbayPgUrl")

agentRepositorySuite(
  "Postgres",
  "pg",
  () => Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 4 }),
  {
    skip: url === null
  }
)
