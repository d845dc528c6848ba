/** Handlers of the tasks group. */
import { CurrentAgent, Tasks } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

const withTasks = <A, E, R>(f: (t: Tasks) => Effect.Effect<A, E, R>) => Effect.flatMap(Tasks, f)

export const TasksHttp = implement(WorkbayApi, "tasks", {
  list: ({ urlParams }) => withTasks((t) => t.list(urlParams)),
  create: ({ path, payload }) => withTasks((t) => t.create(path.user, payload)),
  get: ({ path }) => withTasks((t) => t.get(path.user, path.task)),
  delete: ({ path }) => withTasks((t) => t.remove(path.user, path.task)),
  updateInput: ({ path, payload }) => withTasks((t) => t.updateInput(path.user, path.task, payload.input)),
  send: ({ path, payload }) => withTasks((t) => t.send(path.user, path.task, payload.input)),
  logs: ({ path }) => withTasks((t) => t.logs(path.user, path.task)),
  pause: ({ path }) => withTasks((t) => t.pause(path.user, path.task)),
  resume: ({ path }) => withTasks((t) => t.resume(path.user, path.task))
})

export const TaskAgentHttp = implement(WorkbayApi, "taskAgent", {
  logSnapshot: ({ path, payload, urlParams }) =>
    Effect.flatMap(
      CurrentAgent,
      (session) => withTasks((t) => t.uploadLogSnapshot(session, path.task, urlParams, payload))
    )
})
