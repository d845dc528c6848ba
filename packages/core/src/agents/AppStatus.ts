/**
 * App statuses: what an agent says one of its apps is doing (`working`, `idle`, `complete`,
 * `failure`; an AI agent's progress, say). Each status is kept on its app (the Agent record's
 * `apps[].statuses`, newest first, the newest APP_STATUSES_KEPT of each app) and becomes its
 * workspace's `latest_app_status`; the workspace's watchers are signalled.
 */
import { Clock, Context, Effect, Option } from "effect"
import { BadRequest, ResponseBody, Validation } from "../Errors.js"
import { Events } from "../Events.js"
import { IdGenerator } from "../Ids.js"
import { PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { WorkspaceRepo } from "../workspaces/Workspace.js"
import type { AppStatusRecord } from "../workspaces/WorkspaceBuild.js"
import { CurrentAgent } from "./AgentAuth.js"
import { TaskAppStateChanged } from "./Events.js"
import type { AppStatusRequest } from "./Requests.js"

/** Statuses kept per app on the Agent record; older ones are dropped. */
export const APP_STATUSES_KEPT = 50

/** The longest status message (the described system's limit). */
export const MAX_APP_STATUS_MESSAGE = 160

export class AppStatusRepo extends Context.Tag("@workbay/core/AppStatusRepo")<AppStatusRepo, {
  /**
   * In one transaction: puts the status first in its app's list on the agent (keeping the newest
   * `keep`) and makes it the workspace's latest.
   */
  readonly record: (status: AppStatusRecord, keep: number) => Effect.Effect<void>
}>() {}

export class AppStatuses extends Effect.Service<AppStatuses>()("@workbay/core/AppStatuses", {
  effect: Effect.gen(function*() {
    const repo = yield* AppStatusRepo
    const ids = yield* IdGenerator
    const pubsub = yield* PubSub
    const workspaces = yield* WorkspaceRepo
    const events = yield* Events

    /** PATCH /workspaceagents/me/app-status: records a status of one of the calling agent's apps. */
    const report = (input: typeof AppStatusRequest.Type) =>
      Effect.gen(function*() {
        const { agent, workspace } = yield* CurrentAgent
        const problems: Array<Validation> = []
        const app = agent.apps.find((a) => a.slug === input.app_slug)
        if (app === undefined) {
          problems.push(new Validation({ field: "app_slug", detail: `The agent has no app "${input.app_slug}".` }))
        }
        if (input.message.length > MAX_APP_STATUS_MESSAGE) {
          problems.push(new Validation({ field: "message", detail: `At most ${MAX_APP_STATUS_MESSAGE} characters.` }))
        }
        if (problems.length > 0 || app === undefined) {
          return yield* new BadRequest({ message: "Invalid app status.", validations: problems })
        }
        // A task's workspace: its owner hears of a new state (read before it is replaced).
        const previous = workspace.task_id == null
          ? undefined
          : Option.getOrUndefined(yield* workspaces.findById(workspace.id))?.latest_app_status?.state
        yield* repo.record({
          id: yield* ids.uuid,
          created_at: new Date(yield* Clock.currentTimeMillis),
          workspace_id: workspace.id,
          agent_id: agent.id,
          app_id: app.id,
          state: input.state,
          message: input.message,
          uri: input.uri,
          icon: input.icon,
          needs_user_attention: input.needs_user_attention
        }, APP_STATUSES_KEPT)
        if (workspace.task_id != null && previous !== input.state) {
          yield* events.publish(new TaskAppStateChanged({ workspace, state: input.state }))
        }
        // Watchers of the workspace (on every replica) re-read it: its latest_app_status moved.
        yield* Effect.provideService(publishWorkspaceChange(workspace.id), PubSub, pubsub)
        return new ResponseBody({ message: "App status recorded." }, true)
      }).pipe(span("AppStatuses.report"))

    return { report } as const
  })
}) {}
