/**
 * Watching one agent until it connects (`GET /workspaces/{workspace}/agent-connection-watch`):
 * the workspace's latest build as it moves, the agent as it changes, and the log lines of the
 * build's job, until the agent is connected (a final `connected` message) or can no longer come
 * (a final `error`). Built on the workspace watch (workspaces/Watch.ts: one reader per
 * workspace, PubSub signals) and the job log follower (ProvisionerJobs.followLogs). See
 * docs/agents.md "Watching an agent connect".
 */
import { Effect, Exit, Queue, Schema, Scope, Stream } from "effect"
import { NotFound } from "../Errors.js"
import { ProvisionerJobLog, toProvisionerJobLog } from "../templates/ProvisionerJob.js"
import { ProvisionerJobs } from "../templates/ProvisionerJobs.js"
import { span } from "../Tracing.js"
import { WorkspaceWatch } from "../workspaces/Watch.js"
import { Workspaces } from "../workspaces/Workspaces.js"
import type { Workspace } from "../workspaces/WorkspaceWire.js"

/** Build statuses after which a start build's agents are all there: an agent missing then never comes. */
const SETTLED = new Set(["running", "failed", "canceled", "deleted", "deleting"])

type Json = Record<string, any>

/** The agent named `name` in a build (its JSON form), if any. */
const agentIn = (build: Json, name: string): Json | undefined => {
  for (const resource of (build.resources ?? []) as Array<Json>) {
    for (const agent of (resource.agents ?? []) as Array<Json>) if (agent.name === name) return agent
  }
  return undefined
}

/** Whether the agent can no longer appear in the workspace's latest build as it stands. */
const neverComes = (build: { readonly transition?: unknown; readonly status?: unknown }) =>
  build.status === "deleted" || build.status === "deleting" ||
  (build.transition === "start" && SETTLED.has(build.status as string))

const encodeLog = Schema.encodeSync(ProvisionerJobLog)

const END = Symbol("end")

export class ConnectionWatch extends Effect.Service<ConnectionWatch>()("@workbay/core/ConnectionWatch", {
  effect: Effect.gen(function*() {
    const watch = yield* WorkspaceWatch
    const workspaces = yield* Workspaces
    const jobs = yield* ProvisionerJobs

    const missing = (name: string) => `The workspace's latest build has no agent named "${name}".`

    /**
     * The messages (JSON text) about agent `agentName` of workspace `workspaceId`, in order:
     * `{type: "build", build}` when the latest build moves, `{type: "agent", agent}` when the
     * agent changes, `{type: "log", log}` for each log line of the latest build's job, and last
     * `{type: "connected", agent}` or `{type: "error", message}`. The caller must be able to read
     * the workspace (404 otherwise, before any stream is made); 404 too when the latest build is
     * settled without such an agent.
     */
    const agentConnection = (workspaceId: string, agentName: string) =>
      Effect.gen(function*() {
        const first: Workspace = yield* workspaces.get(workspaceId)
        if (
          neverComes(first.latest_build) &&
          first.latest_build.resources.every((r) => !(r.agents ?? []).some((a) => a.name === agentName))
        ) {
          return yield* Effect.fail(new NotFound({ message: "Workspace agent not found.", detail: missing(agentName) }))
        }
        const changes = yield* watch.watch(first.id)
        return Stream.unwrapScoped(Effect.gen(function*() {
          const out = yield* Queue.bounded<string | typeof END>(256)
          let lastBuild: string | undefined
          let lastAgent: string | undefined
          let done = false
          let job: { readonly id: string; readonly scope: Scope.CloseableScope } | undefined
          yield* Effect.addFinalizer(() => job === undefined ? Effect.void : Scope.close(job.scope, Exit.void))

          const finish = (message: Json) =>
            Effect.gen(function*() {
              done = true
              yield* Queue.offer(out, JSON.stringify(message))
              yield* Queue.offer(out, END)
            })

          const followJob = (jobId: string) =>
            Effect.gen(function*() {
              if (job?.id === jobId) return
              if (job !== undefined) yield* Scope.close(job.scope, Exit.void)
              const scope = yield* Scope.make()
              job = { id: jobId, scope }
              yield* Effect.forkIn(
                Stream.runForEach(
                  jobs.followLogs(jobId),
                  (log) =>
                    Queue.offer(out, `{"type":"log","log":${JSON.stringify(encodeLog(toProvisionerJobLog(log)))}}`)
                ).pipe(Effect.ignore),
                scope
              )
            })

          const onChange = (json: string) =>
            Effect.gen(function*() {
              if (done) return
              const build = (JSON.parse(json) as Json).latest_build as Json
              const { resources: _, ...state } = build
              const buildKey = JSON.stringify(state)
              if (buildKey !== lastBuild) {
                lastBuild = buildKey
                yield* Queue.offer(out, `{"type":"build","build":${JSON.stringify(build)}}`)
              }
              yield* followJob(build.job.id)
              const agent = agentIn(build, agentName)
              if (agent === undefined) {
                if (neverComes(build)) yield* finish({ type: "error", message: missing(agentName) })
                return
              }
              const agentKey = JSON.stringify(agent)
              if (agentKey !== lastAgent) {
                lastAgent = agentKey
                yield* Queue.offer(out, `{"type":"agent","agent":${agentKey}}`)
              }
              if (agent.status === "connected") yield* finish({ type: "connected", agent })
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
