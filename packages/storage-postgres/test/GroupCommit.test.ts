/** The group commit on a Postgres pool. */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { groupCommitSuite } from "../../storage-sql/test/GroupCommitSuite.js"

const url = inject("workbayPgUrl")

groupCommitSuite(
  "Postgres",
  () => Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 4 }),
  { skip: url === null }
)
