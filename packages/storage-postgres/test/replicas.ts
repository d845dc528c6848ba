/** Two services (replicas) on one fresh Postgres schema, with a bootstrapped owner on the first. */
import type { Provisioner } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll } from "vitest"
import { bootstrapOwner, type Client, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"

export interface Replicas {
  readonly a: ServiceTestServer
  readonly b: ServiceTestServer
  readonly owner: Client
  readonly orgId: string
}

/** Starts the replicas before the suite's tests (closes them after); read the fields inside tests. */
export const twoReplicas = (url: string | null, provisioner: Provisioner): Replicas => {
  const replicas = {} as { a: ServiceTestServer; b: ServiceTestServer; owner: Client; orgId: string }
  beforeAll(async () => {
    const schema = `t_${randomBytes(6).toString("hex")}`
    const options = { provisioners: [provisioner], hangDetector: false, retention: false, lifecycle: false } as const
    replicas.a = await startServiceTestServer({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }),
      ...options
    })
    replicas.b = await startServiceTestServer({
      storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }),
      ...options
    })
    ;({ client: replicas.owner, organizationId: replicas.orgId } = await bootstrapOwner(replicas.a))
  })
  afterAll(async () => {
    await replicas.a?.close()
    await replicas.b?.close()
  })
  return replicas
}
