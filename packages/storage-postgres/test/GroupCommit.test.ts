/** The group commit on a Postgres pool. */
import { inject } from "@effect/vitest"
import { groupCommitSuite } from "../../storage-sql/test/GroupCommitSuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

groupCommitSuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)
