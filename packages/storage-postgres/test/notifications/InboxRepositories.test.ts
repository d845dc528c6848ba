/** The inbox repository contract on Postgres: a fresh schema per test; skipped when no server answers. */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { inboxRepositorySuite } from "../../../storage-sql/test/notifications/InboxRepositorySuite.js"

const url = inject("workbayPgUrl")

inboxRepositorySuite(
  "Postgres",
  "pg",
  () => Postgres.layer({ url: url ?? "", schema: `t_${randomBytes(8).toString("hex")}`, maxConnections: 4 }),
  { skip: url === null }
)
