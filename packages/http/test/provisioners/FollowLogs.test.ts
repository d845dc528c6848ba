/**
 * Following a provisioner job's logs over a WebSocket (`followJobLogs`), with a real `ws`
 * client on a real port. The described system follows logs on the template version and build
 * routes (next steps); it has no `/provisionerjobs/{job}/logs`, so this file mounts the helper
 * on a test-only group at that path.
 */
import { ProvisionerJobs } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WEBSOCKET_HIGH_WATER_BYTES } from "../../src/WebSocket.js"
import { bootstrapOwner, type Client, UNKNOWN_ID } from "../support.js"
import { connect, eventually, refusal, startWsServer, type WsTestServer } from "../websocket.js"
import { JobLogsTestApi, JobLogsTestHttp, line, runningJob } from "./jobLogs.js"

let srv: WsTestServer
let owner: Client
let auth: Record<string, string>

beforeAll(async () => {
  srv = await startWsServer([JobLogsTestApi], [JobLogsTestHttp])
  owner = (await bootstrapOwner(srv as any)).client
  auth = { "Service-Session-Token": owner.token! }
})
afterAll(() => srv?.close())

const logsUrl = (jobId: string, query = "follow") =>
  `${srv.wsUrl}/api/v2/organizations/default/provisionerjobs/${jobId}/logs?${query}`
const outputs = (messages: ReadonlyArray<string>) => messages.map((m) => JSON.parse(m).output)

describe("following a job's logs", () => {
  it("sends the stored lines, then new ones, one JSON ProvisionerJobLog per message; 1000 when the job completes", async () => {
    const { jobId, workerId } = await srv.run(runningJob)
    await srv.run(Effect.flatMap(ProvisionerJobs, (j) => j.appendLogs(jobId, [line("one"), line("two")])))
    const ws = await connect(logsUrl(jobId), auth)
    await eventually(() => ws.messages.length === 2)
    await srv.run(Effect.flatMap(ProvisionerJobs, (j) => j.appendLogs(jobId, [line("three")])))
    await eventually(() => ws.messages.length === 3)
    await srv.run(
      Effect.flatMap(
        ProvisionerJobs,
        (j) => Effect.zipRight(j.appendLogs(jobId, [line("four")]), j.complete(jobId, workerId))
      )
    )
    expect(await ws.closed).toEqual({ code: 1000, reason: "" })
    expect(outputs(ws.messages)).toEqual(["one", "two", "three", "four"])
    const first = JSON.parse(ws.messages[0]!)
    expect(Object.keys(first).sort()).toEqual(["created_at", "id", "log_level", "log_source", "output", "stage"])
    expect(first).toMatchObject({
      created_at: "2025-06-01T08:00:00.000Z",
      log_source: "provisioner",
      log_level: "info",
      stage: "Planning"
    })

    // `after`: only later lines; a finished job's follow sends them and closes.
    const again = await connect(logsUrl(jobId, `follow=true&after=${first.id}`), auth)
    expect((await again.closed).code).toBe(1000)
    expect(outputs(again.messages)).toEqual(["two", "three", "four"])
    // Without follow, the same route answers the JSON list.
    const list = await owner.get(`/organizations/default/provisionerjobs/${jobId}/logs?after=${first.id}`)
    expect(list.body.map((l: { output: string }) => l.output)).toEqual(["two", "three", "four"])
  })

  it("refuses before the upgrade: 401 without credentials, 404 for an unknown job, 400 for a bad after", async () => {
    const { jobId } = await srv.run(runningJob)
    const anonymous = await refusal(connect(logsUrl(jobId)))
    expect(anonymous.status).toBe(401)
    const unknown = await refusal(connect(logsUrl(UNKNOWN_ID), auth))
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe("Provisioner job not found.")
    const bad = await refusal(connect(logsUrl(jobId, "follow&after=abc"), auth))
    expect(bad.status).toBe(400)
    expect(bad.body.validations).toEqual([{ field: "after", detail: "Must be an integer." }])
    expect((await owner.get(`/organizations/default/provisionerjobs/${jobId}/logs?follow`)).status).toBe(426)
  })

  it("a slow client gets every line in order: the sender waits for it instead of buffering", async () => {
    const { jobId, workerId } = await srv.run(runningJob)
    const ws = await connect(logsUrl(jobId), auth)
    const raw = (ws.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket
    raw.pause()
    const batches = 16
    const perBatch = 500
    const padding = "x".repeat(400)
    for (let b = 0; b < batches; b++) {
      await srv.run(
        Effect.flatMap(ProvisionerJobs, (j) =>
          j.appendLogs(
            jobId,
            Array.from({ length: perBatch }, (_, i) => line(`${b * perBatch + i} ${padding}`)),
            64 << 20
          ))
      )
    }
    await srv.run(Effect.flatMap(ProvisionerJobs, (j) => j.complete(jobId, workerId)))
    await new Promise((r) => setTimeout(r, 300))
    expect(ws.messages.length).toBeLessThan(batches * perBatch)
    // About 3.7 MB of lines; what the server holds for this reader stays near the high-water mark.
    expect(srv.handler.webSockets.bufferedBytes()).toBeLessThan(WEBSOCKET_HIGH_WATER_BYTES + 64 * 1024)
    raw.resume()
    expect((await ws.closed).code).toBe(1000)
    expect(ws.messages.map((m) => Number(JSON.parse(m).output.split(" ")[0]))).toEqual(
      Array.from({ length: batches * perBatch }, (_, i) => i)
    )
  })

  it("a client that leaves ends its follow", async () => {
    const { jobId } = await srv.run(runningJob)
    // The previous test's socket may still be finishing its closing handshake.
    await eventually(() => srv.handler.webSockets.size() === 0)
    const ws = await connect(logsUrl(jobId), auth)
    await eventually(() => srv.handler.webSockets.size() === 1)
    ws.socket.close()
    expect((await ws.closed).code).toBe(1005)
    await eventually(() => srv.handler.webSockets.size() === 0)
  })
})
