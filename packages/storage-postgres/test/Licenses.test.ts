/**
 * Licenses on two replicas of one Postgres: a license uploaded on one opens the gated routes on
 * the other at once (LISTEN/NOTIFY, well inside the entitlements' cache TTL), and its removal
 * closes them again. Skipped when no server answers.
 */
import { inject } from "@effect/vitest"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { licenseClaims, makeSigner } from "../../http/test/enterprise/licenses.js"
import {
  bootstrapOwner,
  type Client,
  type ServiceTestServer,
  sessionClient,
  startServiceTestServer
} from "../../http/test/support.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("licenses across replicas", () => {
  const signer = makeSigner()
  let a: ServiceTestServer
  let b: ServiceTestServer
  let ownerA: Client
  let ownerB: Client
  beforeAll(async () => {
    const schema = `t_${randomBytes(6).toString("hex")}`
    const options = {
      hangDetector: false,
      retention: false,
      lifecycle: false,
      settings: { licensePublicKey: signer.publicKeyPem }
    } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    ownerA = (await bootstrapOwner(a)).client
    ownerB = await sessionClient(b.anonymous, "admin@example.com")
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  /** Polls until `check` holds (the signal crosses replicas asynchronously), for at most 5 seconds. */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50; i++) {
      if (await check()) return true
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    return false
  }

  it("opens and closes the gated routes on the other replica", async () => {
    expect((await ownerB.get("/groups")).status).toBe(403)
    const added = await ownerA.post("/licenses", { license: await signer.sign(licenseClaims()) })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(await eventually(async () => (await ownerB.get("/groups")).status === 200)).toBe(true)
    expect((await ownerB.get("/entitlements")).body.has_license).toBe(true)
    expect((await ownerB.delete(`/licenses/${added.body.id}`)).status).toBe(200)
    expect(await eventually(async () => (await ownerA.get("/groups")).status === 403)).toBe(true)
  })
})
