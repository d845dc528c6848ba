/**
 * AI task routes: create a task (and its workspace), list and read tasks, change the prompt of a
 * paused task, send input to its agent, read its conversation, pause, resume and delete it.
 * Paths, bodies and answers as the described system's `/api/v2/tasks`; see docs/tasks.md.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  CreateTaskRequest,
  ListTasksQuery,
  Task,
  TaskBuildResponse,
  TaskLogSnapshotQuery,
  TaskLogSnapshotRequest,
  TaskLogsResponse,
  TaskSendRequest,
  TasksListResponse,
  UpdateTaskInputRequest
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"

const TaskPath = Schema.Struct({ user: Schema.String, task: Schema.String.pipe(Schema.maxLength(256)) })

export class TasksApi extends HttpApiGroup.make("tasks")
  .add(
    HttpApiEndpoint.get("list", "/tasks")
      .setUrlParams(ListTasksQuery)
      .addSuccess(TasksListResponse)
  )
  .add(
    HttpApiEndpoint.post("create", "/tasks/:user").annotate(Audited, audit("task"))
      .setPath(Schema.Struct({ user: Schema.String }))
      .setPayload(CreateTaskRequest)
      .addSuccess(Task, { status: 201 })
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("get", "/tasks/:user/:task").setPath(TaskPath).addSuccess(Task))
  .add(
    HttpApiEndpoint.del("delete", "/tasks/:user/:task").annotate(Audited, audit("task"))
      .setPath(TaskPath)
      .addSuccess(HttpApiSchema.Empty(202))
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.patch("updateInput", "/tasks/:user/:task/input").annotate(Audited, audit("task"))
      .setPath(TaskPath)
      .setPayload(UpdateTaskInputRequest)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.post("send", "/tasks/:user/:task/send").annotate(Audited, audit("task", { action: "write" }))
      .setPath(TaskPath)
      .setPayload(TaskSendRequest)
      .addSuccess(NoContent)
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("logs", "/tasks/:user/:task/logs").setPath(TaskPath).addSuccess(TaskLogsResponse))
  .add(
    HttpApiEndpoint.post("pause", "/tasks/:user/:task/pause").annotate(Audited, audit("task", { action: "write" }))
      .setPath(TaskPath)
      .addSuccess(TaskBuildResponse, { status: 202 })
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.post("resume", "/tasks/:user/:task/resume").annotate(Audited, audit("task", { action: "write" }))
      .setPath(TaskPath)
      .addSuccess(TaskBuildResponse, { status: 202 })
      .addError(Conflict)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/**
 * What a task's agent calls with its own token: the upload of its AI agent's conversation (an
 * agent report, not a user's action: not audited, as the other agent reports).
 */
export class TaskAgentApi extends HttpApiGroup.make("taskAgent")
  .add(
    HttpApiEndpoint.post("logSnapshot", "/workspaceagents/me/tasks/:task/log-snapshot").annotate(Audited, false)
      .setPath(Schema.Struct({ task: uuid("Task id") }))
      .setUrlParams(TaskLogSnapshotQuery)
      .setPayload(TaskLogSnapshotRequest)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(NotFound)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}
