/**
 * Following a provisioner job: its log lines live from the logs route's WebSocket
 * (`GET /workspacebuilds/{id}/logs?follow=true`, `GET /templateversions/{id}/logs?follow=true`:
 * each message one ProvisionerJobLog, closed with 1000 once the job ended), then its outcome.
 */
import { type Schemas, unwrap } from "@workbay/client"
import type { Client } from "./Client.js"
import { CliError } from "./Errors.js"

type ProvisionerJobLog = Schemas["ProvisionerJobLog"]

/** Writes job logs: a `==> stage` line when the stage changes, then each line's output. */
export const logPrinter = (out: NodeJS.WritableStream) => {
  let stage: string | undefined
  return (log: ProvisionerJobLog) => {
    if (typeof log.stage === "string" && log.stage !== "" && log.stage !== stage) {
      stage = log.stage
      out.write(`==> ${stage}\n`)
    }
    if (typeof log.output === "string" && log.output !== "") {
      out.write(`${log.log_level === "error" ? "error: " : ""}${log.output}\n`)
    }
  }
}

/** Follows the logs route `path` until the service closes it, handing each line to `onLog`. */
export const followLogs = async (
  client: Client,
  path: string,
  onLog: (log: ProvisionerJobLog) => void
): Promise<void> => {
  const ws = await client.socket(path, { follow: true })
  await new Promise<void>((resolve, reject) => {
    ws.on("message", (data) => {
      try {
        // Each message is one ProvisionerJobLog, as the logs route's own answer (GET .../logs).
        onLog(JSON.parse(data.toString()) as ProvisionerJobLog)
      } catch {
        // not a log line: ignored
      }
    })
    ws.on("close", (code, reason) => {
      if (code === 1000 || code === 1005) resolve()
      else reject(new CliError(`The log stream closed (${code}${reason.length > 0 ? `: ${reason.toString()}` : ""}).`))
    })
    ws.on("error", reject)
    ws.resume()
  })
}

const UNFINISHED: ReadonlyArray<string> = ["pending", "running", "canceling"]

/**
 * Reads until the job of what `read` answers (a build, a template version) has finished: the
 * stream closes once the job's last line is sent, so this is one read but for a slow commit (a
 * few seconds at most).
 */
export const untilFinished = async <A extends { readonly job: { readonly status: string } }>(
  read: () => Promise<A>
): Promise<A> => {
  const until = Date.now() + 30_000
  for (;;) {
    const value = await read()
    if (!UNFINISHED.includes(value.job.status) || Date.now() > until) return value
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** A finished job's outcome: nothing when it succeeded, else a CliError with its error. */
export const checkJob = (job: Schemas["ProvisionerJob"], what: string) => {
  const status: string = job.status
  if (status === "succeeded") return
  throw new CliError(
    `${what} ${status === "canceled" ? "was canceled" : status === "failed" ? "failed" : `ended ${status}`}.`,
    1,
    job.error !== undefined && job.error !== "" ? job.error : undefined
  )
}

/**
 * Follows the workspace build `buildId` (its logs on `out`) until it ended: the build; a failed
 * or canceled build fails with the job's error.
 */
export const waitForBuild = async (
  client: Client,
  buildId: string,
  out: NodeJS.WritableStream
): Promise<Schemas["WorkspaceBuild"]> => {
  await followLogs(client, `/workspacebuilds/${buildId}/logs`, logPrinter(out))
  const build = await untilFinished(() =>
    unwrap(
      client.rest.GET("/api/v2/workspacebuilds/{workspacebuild}", { params: { path: { workspacebuild: buildId } } })
    )
  )
  checkJob(build.job, `The ${build.transition} build`)
  return build
}
