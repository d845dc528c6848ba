/** The workspace proxy repository contract on Postgres: a schema of its own per test. Skipped when no server answers. */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { workspaceProxyRepositorySuite } from "../../storage-sql/test/proxies/RepositorySuite.js"

const url = inject("workbayPgUrl")

workspaceProxyRepositorySuite(
  "Postgres",
  () => Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 4 }),
  {
    skip: url === null
  }
)
