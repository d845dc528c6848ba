/**
 * Watching a workspace: the workspace's wire record at once, then again whenever it changes.
 *
 * Signals (see docs/workspaces.md "Watching"): a watcher listens on three PubSub channels,
 *
 * - the workspace's channel (`workspaceChannel`), signalled by whoever changes the workspace
 *   row or queues a build (`publishWorkspaceChange`: WorkspaceBuilds.create, renames,
 *   favorites, the build executor when it stores resources and agents, the schedule routes);
 * - the batch channel (`WORKSPACE_BATCH_CHANNEL`), whose messages name many workspaces changed at
 *   once (the activity bumps of agents' stats, `publishWorkspaceChanges`): only those naming
 *   this workspace wake its reader;
 * - the job channel of the workspace's latest build (`jobLogsChannel`), which ProvisionerJobs
 *   already signals on every move of the job (acquired, completed, canceling, canceled, failed
 *   as hung); its `logs` signals are ignored.
 *
 * When the latest build changes (a new build was queued) the watcher moves to the new build's
 * job channel. So the job moves need no lookup of the workspace, and a publisher that forgets
 * a signal costs at most the slow re-read (`WATCH_FALLBACK`).
 *
 * One reader per workspace in each process: every watcher of a workspace shares one
 * set of subscriptions and one re-read per batch of signals (signals arriving while a read runs
 * are served by the next one). A watcher is a plain listener of the reader: when the record's
 * JSON changed, the reader calls every listener in one loop with the same change object (its JSON
 * encoded once), so a change costs one read and one pass over the listeners, with no fiber or
 * queue per watcher. The record does not depend on who reads it; each watcher's right to read
 * the workspace is checked when it starts watching (404 otherwise), as in the described system.
 */
import { Duration, Effect, Exit, Option, Queue, RcMap, Scope, Stream } from "effect"
import { extendInPlace } from "../ContextOverlay.js"
import { compileEncoderSync } from "../Encoding.js"
import { lazily } from "../Lazily.js"
import { JOB_SIGNAL_LOGS, jobLogsChannel } from "../provisioners/ProvisionerJobs.js"
import { hexId, messageNames, PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { WORKSPACE_BATCH_CHANNEL, workspaceChannel } from "../WorkspaceChannel.js"
import { WorkspaceRepo } from "./Workspace.js"
import { Workspaces } from "./Workspaces.js"
import { Workspace } from "./WorkspaceWire.js"

export { publishWorkspaceChange, WORKSPACE_SIGNAL_CHANGED, workspaceChannel } from "../WorkspaceChannel.js"

/** How often a watched workspace is re-read without a signal (a lost signal costs at most this). */
export const WATCH_FALLBACK: Duration.Duration = Duration.seconds(10)

/** How long a workspace's reader stays after its last watcher left (a reconnecting client finds it). */
const READER_IDLE = Duration.seconds(5)

/** One change as watchers receive it: the record and its JSON (encoded once for every watcher). */
export interface WorkspaceChange {
  readonly workspace: Workspace
  readonly json: string
}

/** A watcher: called synchronously with each change of the record (and the latest at once). */
export type WorkspaceListener = (change: WorkspaceChange) => void

/** A workspace the caller may watch: `listen` adds a listener until the scope closes. */
export interface WorkspaceFollow {
  readonly listen: (listener: WorkspaceListener) => Effect.Effect<void, never, Scope.Scope>
}

interface Reader {
  last: WorkspaceChange | undefined
  readonly listeners: Set<WorkspaceListener>
}

/** Calls one listener; a listener that throws loses that change, never the other watchers'. */
const deliver = (listener: WorkspaceListener, change: WorkspaceChange) => {
  try {
    listener(change)
  } catch {
    // A watcher's own failure (e.g. a socket closing under it) is its own affair.
  }
}

const encodeWorkspace = lazily(() => compileEncoderSync(Workspace))

export class WorkspaceWatch extends Effect.Service<WorkspaceWatch>()("@workbay/core/WorkspaceWatch", {
  scoped: Effect.gen(function*() {
    const pubsub = yield* PubSub
    const repo = yield* WorkspaceRepo
    const workspaces = yield* Workspaces

    /** The shared reader of one workspace: its latest record (none until the first read) and its listeners. */
    const reader = (workspaceId: string) =>
      Effect.gen(function*() {
        const state: Reader = { last: undefined, listeners: new Set() }
        const wake = yield* Queue.sliding<void>(1)
        const forward = (signals: Queue.Dequeue<string>, relevant: (m: string) => boolean) =>
          Queue.take(signals).pipe(
            Effect.flatMap((m) => relevant(m) ? Queue.offer(wake, undefined) : Effect.void),
            Effect.forever
          )
        // Subscribe first, then read: no change made in between is missed.
        yield* Effect.forkScoped(forward(yield* pubsub.subscribe(workspaceChannel(workspaceId)), () => true))
        const hex = hexId(workspaceId)
        yield* Effect.forkScoped(
          forward(yield* pubsub.subscribe(WORKSPACE_BATCH_CHANNEL), (m) => messageNames(m, hex))
        )
        let job: { readonly id: string; readonly scope: Scope.CloseableScope } | undefined
        const followJob = (jobId: string) =>
          Effect.gen(function*() {
            if (job?.id === jobId) return
            if (job !== undefined) yield* Scope.close(job.scope, Exit.void)
            const scope = yield* Scope.make()
            const signals = yield* extendInPlace(pubsub.subscribe(jobLogsChannel(jobId)), scope)
            yield* Effect.forkIn(forward(signals, (m) => m !== JOB_SIGNAL_LOGS), scope)
            job = { id: jobId, scope }
          })
        yield* Effect.addFinalizer(() => job === undefined ? Effect.void : Scope.close(job.scope, Exit.void))

        const read = Effect.gen(function*() {
          const found = yield* repo.findById(workspaceId)
          if (Option.isNone(found)) return
          const [workspace] = yield* workspaces.toWires([found.value])
          if (workspace === undefined) return
          // Follow the new build's job before publishing, so none of its moves is missed.
          yield* followJob(workspace.latest_build.job.id)
          const json = JSON.stringify(encodeWorkspace(workspace))
          if (state.last?.json === json) return
          const change: WorkspaceChange = { workspace, json }
          state.last = change
          for (const listener of state.listeners) deliver(listener, change)
        }).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("Could not read a watched workspace", cause)),
          span("WorkspaceWatch.read")
        )

        yield* read
        yield* Effect.forkScoped(
          Effect.forever(Effect.zipRight(
            Effect.zipRight(Effect.timeoutOption(Queue.take(wake), WATCH_FALLBACK), Queue.takeAll(wake)),
            read
          ))
        )
        return state
      })

    const readers = yield* RcMap.make({ lookup: reader, idleTimeToLive: READER_IDLE })

    /** Adds `listener` to the reader of workspace `key` until the scope closes; it gets the latest record at once. */
    const listen = (key: string, listener: WorkspaceListener) =>
      Effect.flatMap(RcMap.get(readers, key), (state) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            state.listeners.add(listener)
            if (state.last !== undefined) deliver(listener, state.last)
          }),
          () => Effect.sync(() => state.listeners.delete(listener))
        ))

    /**
     * Checks that the caller may read workspace `id` (404 otherwise, a deleted workspace
     * included), then answers how to follow it: `listen(f)` calls `f` with its record at once
     * and again with each change, synchronously, until the scope closes. `f` must not block:
     * it runs inside the reader's loop over every watcher.
     */
    const follow = (id: string) =>
      Effect.map(workspaces.get(id), (first): WorkspaceFollow => ({
        listen: (listener) => listen(first.id, listener)
      })).pipe(span("WorkspaceWatch.follow"))

    /**
     * The workspace `id` as it changes, as a stream: its record first, then each change. A slow
     * consumer skips to the latest record (a sliding buffer). Checks access as `follow` does,
     * before any stream is made; the stream never fails and ends only when its consumer stops.
     */
    const watch = (id: string) =>
      Effect.map(follow(id), (f) =>
        Stream.asyncScoped<WorkspaceChange>(
          (emit) => f.listen((change) => void emit.single(change)),
          { bufferSize: 16, strategy: "sliding" }
        ))

    return { follow, watch } as const
  })
}) {}
