/**
 * Following a provisioner job's logs over a WebSocket, for the routes that offer it
 * (`GET /templateversions/{id}/logs?follow`, `GET /workspacebuilds/{id}/logs?follow`).
 * The route authorizes the caller and finds the job; this answers the upgrade.
 */
import {
  type JobLogsQuery,
  lazily,
  ProvisionerJobLog,
  type ProvisionerJobRecord,
  ProvisionerJobs,
  TemplateVersions,
  toProvisionerJobLog
} from "@workbay/core"
import { Effect, Schema, Stream } from "effect"
import { streamSession, upgradeWebSocket } from "../WebSocket.js"

/**
 * The query of a logs route: `follow` (present, with any value or none, means follow, as in
 * the described system) and `after` (a log id; only later lines).
 */
export const LogsQuery = Schema.Struct({
  follow: Schema.optional(Schema.String),
  after: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative()).annotations({
      message: () => ({ message: "Must be an integer.", override: true })
    })
  )
})

const encodeLog = lazily(() => Schema.encodeSync(ProvisionerJobLog))

/**
 * The job's log lines after `after` as a WebSocket: each line one text message, the JSON of a
 * `ProvisionerJobLog`; closed with 1000 once the job is finished and its last line sent.
 * 404 (before the upgrade) when the job does not exist.
 */
export const followJobLogs = (jobId: string, after = 0) =>
  Effect.gen(function*() {
    const jobs = yield* ProvisionerJobs
    yield* jobs.get(jobId)
    const lines = jobs.followLogs(jobId, after).pipe(
      Stream.map((log) => JSON.stringify(encodeLog(toProvisionerJobLog(log))))
    )
    return yield* upgradeWebSocket(streamSession(lines, (e) => e.message))
  })

/** A job's log lines for `JobLogsQuery`: the list, or with `follow=true` the WebSocket that streams them until the job ends. */
export const jobLogs = <E, R>(
  job: Effect.Effect<ProvisionerJobRecord, E, R>,
  params: typeof JobLogsQuery.Type
) =>
  Effect.gen(function*() {
    const found = yield* job
    if (params.follow === true) return yield* followJobLogs(found.id, params.after)
    return yield* Effect.flatMap(TemplateVersions, (tv) => tv.logs(found, params))
  })
