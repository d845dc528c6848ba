/** The OAuth2 repository contract on Postgres: a schema of its own per test. Skipped when no server answers. */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { oauth2RepositorySuite } from "../../storage-sql/test/oauth2/RepositorySuite.js"

const url = inject("workbayPgUrl")

oauth2RepositorySuite(
  "Postgres",
  () => Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 4 }),
  {
    skip: url === null
  }
)
