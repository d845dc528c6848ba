/**
 * Following a job's logs across replicas: two services on one Postgres schema (two pools, two
 * listening connections). A WebSocket follower on replica A receives the lines and the end that
 * replica B stores, through LISTEN/NOTIFY.
 */
import { ProvisionerJobs } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { JobLogsTestApi, JobLogsTestHttp, line, runningJob } from "../../http/test/provisioners/jobLogs.js"
import { bootstrapOwner } from "../../http/test/support.js"
import { connect, eventually, startWsServer, type WsTestServer } from "../../http/test/websocket.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("following logs across replicas on Postgres", () => {
  let a: WsTestServer
  let b: WsTestServer
  beforeAll(async () => {
    const schema = `f_${randomBytes(6).toString("hex")}`
    a = await startWsServer([JobLogsTestApi], [JobLogsTestHttp], {
      storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }),
      hangDetector: false,
      retention: false
    })
    b = await startWsServer([JobLogsTestApi], [JobLogsTestHttp], {
      storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }),
      hangDetector: false,
      retention: false
    })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  it("the follower on replica A sees the lines and the end stored through replica B", async () => {
    const owner = (await bootstrapOwner(a as any)).client
    const { jobId, workerId } = await b.run(runningJob)
    await b.run(Effect.flatMap(ProvisionerJobs, (j) => j.appendLogs(jobId, [line("before")])))
    const ws = await connect(`${a.wsUrl}/api/v2/organizations/default/provisionerjobs/${jobId}/logs?follow`, {
      "Service-Session-Token": owner.token!
    })
    await eventually(() => ws.messages.length === 1)
    const t0 = Date.now()
    await b.run(Effect.flatMap(ProvisionerJobs, (j) => j.appendLogs(jobId, [line("from b")])))
    await eventually(() => ws.messages.length === 2)
    // A signal, not the 10-second fallback read.
    expect(Date.now() - t0).toBeLessThan(2000)
    await b.run(
      Effect.flatMap(
        ProvisionerJobs,
        (j) => Effect.zipRight(j.appendLogs(jobId, [line("last")]), j.complete(jobId, workerId))
      )
    )
    expect((await ws.closed).code).toBe(1000)
    expect(ws.messages.map((m) => JSON.parse(m).output)).toEqual(["before", "from b", "last"])
  })
})
