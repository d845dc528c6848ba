/** The license repository contract on Postgres: a schema of its own per test. Skipped when no server answers. */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { licenseRepositorySuite } from "../../storage-sql/test/enterprise/RepositorySuite.js"

const url = inject("workbayPgUrl")

licenseRepositorySuite(
  "Postgres",
  () => Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 4 }),
  {
    skip: url === null
  }
)
