/**
 * A test-only route that follows a job's logs (`followJobLogs`): the described system has no
 * `/organizations/{organization}/provisionerjobs/{job}/logs`, so only tests mount it.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  type NewProvisionerJobLog,
  NotFound,
  ProvisionerJobLog,
  ProvisionerJobs,
  toProvisionerJobLog
} from "@workbay/core"
import { Authentication } from "@workbay/http"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { implement } from "../../src/Handlers.js"
import { followJobLogs, LogsQuery } from "../../src/provisioners/FollowLogs.js"
import { WebSocketUpgradeSchema } from "../../src/WebSocket.js"

export class JobLogsTestApi extends HttpApiGroup.make("jobLogsTest")
  .add(
    HttpApiEndpoint.get("logs", "/organizations/:organization/provisionerjobs/:job/logs")
      .setPath(Schema.Struct({ organization: Schema.String, job: Schema.UUID }))
      .setUrlParams(LogsQuery)
      .addSuccess(Schema.Array(ProvisionerJobLog))
      .addSuccess(WebSocketUpgradeSchema)
      .addError(NotFound)
  )
  .middleware(Authentication)
  .prefix("/api/v2")
{}

export const JobLogsTestHttp = implement(HttpApi.make("test").add(JobLogsTestApi), "jobLogsTest", {
  logs: ({ path, urlParams }) =>
    urlParams.follow !== undefined
      ? followJobLogs(path.job, urlParams.after)
      : Effect.flatMap(ProvisionerJobs, (jobs) =>
        Effect.zipRight(
          jobs.get(path.job),
          Effect.map(jobs.logsAfter(path.job, urlParams.after ?? 0), (ls) => ls.map(toProvisionerJobLog))
        ))
})

export const line = (output: string): NewProvisionerJobLog => ({
  created_at: new Date("2025-06-01T08:00:00Z"),
  log_source: "provisioner",
  log_level: "info",
  stage: "Planning",
  output
})

/** A running job and its worker's id. */
export const runningJob = Effect.gen(function*() {
  const jobs = yield* ProvisionerJobs
  const job = yield* jobs.enqueue({
    organization_id: randomUUID(),
    initiator_id: randomUUID(),
    provisioner: "terraform",
    type: "template_version_import",
    file_id: randomUUID(),
    input: { template_version_id: randomUUID() },
    tags: {}
  })
  const worker = { id: randomUUID(), name: "w", provisioners: ["terraform"], tags: { scope: "organization" } }
  yield* jobs.acquire(worker)
  return { jobId: job.id, workerId: worker.id }
})
