/** Handlers of the workspace schedules group. */
import { WorkspaceSchedules } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

const withSchedules = <A, E, R>(f: (s: WorkspaceSchedules) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(WorkspaceSchedules, f)

export const WorkspaceSchedulesHttp = implement(WorkbayApi, "workspaceSchedules", {
  setAutostart: ({ path, payload }) => withSchedules((s) => s.setAutostart(path.workspace, payload.schedule)),
  setTtl: ({ path, payload }) => withSchedules((s) => s.setTtl(path.workspace, payload.ttl_ms)),
  extend: ({ path, payload }) => withSchedules((s) => s.extend(path.workspace, payload.deadline)),
  setAutomaticUpdates: ({ path, payload }) =>
    withSchedules((s) => s.setAutomaticUpdates(path.workspace, payload.automatic_updates)),
  setDormant: ({ path, payload }) => withSchedules((s) => s.setDormant(path.workspace, payload.dormant)),
  reportUsage: ({ path, payload }) => withSchedules((s) => s.reportUsage(path.workspace, payload ?? {})),
  resolveAutostart: ({ path }) => withSchedules((s) => s.resolveAutostart(path.workspace))
})
