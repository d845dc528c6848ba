/** The TickLock contract on Postgres: an advisory lock shared by the replicas of one schema. */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { tickLockSuite } from "../../storage-sql/test/workspaces/TickLockSuite.js"

const url = inject("workbayPgUrl")
const freshSchema = () => `t_${randomBytes(8).toString("hex")}`
const layer = (schema: string) => Postgres.layer({ url: url ?? "", schema, maxConnections: 2 })

tickLockSuite("Postgres", () => layer(freshSchema()), {
  skip: url === null,
  makeReplicas: () => {
    const schema = freshSchema()
    return [layer(schema), layer(schema)] as const
  }
})
