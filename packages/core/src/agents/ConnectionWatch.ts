/**
 * Watching a workspace's agent come up (`GET /workspaces/{workspace}/agent-connection-watch`),
 * with the described system's frames (`workspacesdk.ConnectionWatchEvent`): the latest build's
 * transition and job status as they move, the job's log lines while it runs, and the agent's id
 * and lifecycle once the build is a succeeded start, until the client leaves or a watch error
 * ends it. Built on the workspace watch (workspaces/Watch.ts: one reader per workspace, PubSub
 * signals) and the job log follower (ProvisionerJobs.followLogs). See docs/agents.md "Watching an
 * agent connect".
 */
import { Effect, Exit, Queue, Schema, Scope, Stream } from "effect"
import { lazily } from "../Lazily.js"
import { ProvisionerJobLog, toProvisionerJobLog } from "../provisioners/ProvisionerJob.js"
import { ProvisionerJobs } from "../provisioners/ProvisionerJobs.js"
import { span } from "../Tracing.js"
import { WorkspaceWatch } from "../workspaces/Watch.js"
import { Workspaces } from "../workspaces/Workspaces.js"

/** The described system's watch error codes (`workspacesdk.WatchErrorCode`). */
export const WatchErrorCode = {
  tooManyAgents: 1,
  nameNotFound: 2,
  noAgents: 3,
  serverShutdown: 4,
  database: 5,
  internal: 6
} as const

/** A watch error frame's body (`workspacesdk.WatchError`); the server closes with 1000 after it. */
export interface WatchError {
  readonly code: number
  readonly retryable: boolean
  readonly message: string
  readonly details?: string
}

type Json = Record<string, any>

/** Every agent of a build (its JSON form), in resource order. */
const agentsIn = (build: Json): Array<Json> =>
  ((build.resources ?? []) as Array<Json>).flatMap((resource) => (resource.agents ?? []) as Array<Json>)

const encodeLog = lazily(() => Schema.encodeSync(ProvisionerJobLog))

/** One frame: `error` is always there (null but in an error frame), as the Go struct sends it. */
const frame = (
  fields: {
    readonly build_update?: Json
    readonly agent_update?: Json
    readonly job_log?: Json
    readonly error?: WatchError
  }
) => JSON.stringify({ error: null, ...fields })

const END = Symbol("end")

export class ConnectionWatch extends Effect.Service<ConnectionWatch>()("@workbay/core/ConnectionWatch", {
  effect: Effect.gen(function*() {
    const watch = yield* WorkspaceWatch
    const workspaces = yield* Workspaces
    const jobs = yield* ProvisionerJobs

    /**
     * The frames (JSON text) about workspace `workspaceId` and its agent `agentName` (the only
     * agent when no name is given), in order of events:
     * - `{error: null, build_update: {transition, job_status}}` at once, then whenever the latest
     *   build's number, transition or job status changes;
     * - `{error: null, job_log: ProvisionerJobLog}` for each log line of the latest build's job,
     *   when that job had not succeeded when the watch first saw it;
     * - `{error: null, agent_update: {id, lifecycle}}` after each build update of a succeeded start
     *   build, and whenever the agent's lifecycle changes in one;
     * - `{error: {code, retryable, message}}` last, when a succeeded start build has no agent (3),
     *   several and no name was given (1), or none of that name (2).
     * The caller must be able to read the workspace (404 otherwise, before any stream is made).
     */
    const agentConnection = (workspaceId: string, agentName: string | undefined) =>
      Effect.gen(function*() {
        const first = yield* workspaces.get(workspaceId)
        const changes = yield* watch.watch(first.id)
        return Stream.unwrapScoped(Effect.gen(function*() {
          const out = yield* Queue.bounded<string | typeof END>(256)
          let lastBuild: { readonly number: number; readonly transition: string; readonly status: string } | undefined
          let lastAgent: string | undefined
          let done = false
          let job: { readonly id: string; readonly scope: Scope.CloseableScope } | undefined
          yield* Effect.addFinalizer(() => job === undefined ? Effect.void : Scope.close(job.scope, Exit.void))

          const fail = (error: WatchError) =>
            Effect.gen(function*() {
              done = true
              yield* Queue.offer(out, frame({ error }))
              yield* Queue.offer(out, END)
            })

          // A new job's lines are followed from its start unless it had already succeeded (the
          // described system's rule: no lines for a build that is not being waited for).
          const followJob = (jobId: string, status: string) =>
            Effect.gen(function*() {
              if (job?.id === jobId) return
              if (job !== undefined) yield* Scope.close(job.scope, Exit.void)
              const scope = yield* Scope.make()
              job = { id: jobId, scope }
              if (status === "succeeded") return
              yield* Effect.forkIn(
                Stream.runForEach(
                  jobs.followLogs(jobId),
                  (log) =>
                    done ? Effect.void : Queue.offer(out, frame({ job_log: encodeLog(toProvisionerJobLog(log)) }))
                ).pipe(Effect.ignore),
                scope
              )
            })

          /** The agent update of a succeeded start build (or the error that ends the watch). */
          const agentUpdate = (build: Json, always: boolean) =>
            Effect.gen(function*() {
              const agents = agentsIn(build)
              if (agents.length === 0) {
                return yield* fail({
                  code: WatchErrorCode.noAgents,
                  retryable: false,
                  message: "no agents found for workspace"
                })
              }
              if (agents.length > 1 && agentName === undefined) {
                return yield* fail({
                  code: WatchErrorCode.tooManyAgents,
                  retryable: false,
                  message: "more than one agent on workspace and target not specified"
                })
              }
              const agent = agentName === undefined ? agents[0] : agents.find((a) => a.name === agentName)
              if (agent === undefined) {
                return yield* fail({
                  code: WatchErrorCode.nameNotFound,
                  retryable: false,
                  message: "target agent not found by name"
                })
              }
              const update = { lifecycle: agent.lifecycle_state, id: agent.id }
              const key = JSON.stringify(update)
              if (!always && key === lastAgent) return
              lastAgent = key
              yield* Queue.offer(out, frame({ agent_update: update }))
            })

          const onChange = (json: string) =>
            Effect.gen(function*() {
              if (done) return
              const build = (JSON.parse(json) as Json).latest_build as Json
              const now = {
                number: build.build_number as number,
                transition: build.transition as string,
                status: build.job.status as string
              }
              yield* followJob(build.job.id, now.status)
              const moved = lastBuild === undefined || now.number !== lastBuild.number ||
                now.transition !== lastBuild.transition ||
                now.status !== lastBuild.status
              lastBuild = now
              if (moved) {
                yield* Queue.offer(out, frame({ build_update: { transition: now.transition, job_status: now.status } }))
              }
              if (now.transition === "start" && now.status === "succeeded") {
                yield* agentUpdate(build, moved)
              }
            })

          yield* Effect.forkScoped(Stream.runForEach(changes, (change) => onChange(change.json)))
          return Stream.fromQueue(out).pipe(
            Stream.takeWhile((m): m is string => m !== END),
            Stream.map((m) => m as string)
          )
        }))
      }).pipe(span("ConnectionWatch.agentConnection"))

    return { agentConnection } as const
  })
}) {}
