/**
 * The request bodies and queries of the tasks area's routes (`/tasks/...`). The routes in
 * `http/src/tasks/` declare them; the services take their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { NonNegativeIntParam, optional, optionalParam, uuid, wireName } from "../Requests.js"
import { WorkspaceName } from "../workspaces/Workspace.js"

/** The longest prompt or input (64 KiB of text). */
const MAX_INPUT = 65_536

const Input = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Input is required." }),
  Schema.maxLength(MAX_INPUT, { message: () => `Must be at most ${MAX_INPUT} characters.` })
)

/** POST /tasks/{user}: the prompt, the template version (and preset) to run it, and the workspace's name. */
export class CreateTaskRequest extends Schema.Class<CreateTaskRequest>("CreateTaskRequest")({
  input: Input,
  template_version_id: uuid("Template version id"),
  template_version_preset_id: optional(uuid("Template version preset id")),
  // Empty means "not given" (a name is generated), as the described system's omitempty name.
  name: optional(Schema.Union(Schema.Literal(""), WorkspaceName)),
  display_name: optional(Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." })))
}, wireName("CreateTaskRequest")) {}

/** PATCH /tasks/{user}/{task}/input: a paused task's new prompt. */
export class UpdateTaskInputRequest extends Schema.Class<UpdateTaskInputRequest>("UpdateTaskInputRequest")({
  input: Input
}, wireName("UpdateTaskInputRequest")) {}

/** POST /tasks/{user}/{task}/send: input for the task's agent. */
export class TaskSendRequest extends Schema.Class<TaskSendRequest>("TaskSendRequest")({
  input: Input
}, wireName("TaskSendRequest")) {}

/** The query of GET /tasks: a search (`owner`, `organization`, `status`) and a page. */
export const ListTasksQuery = Schema.Struct({
  q: optionalParam(Schema.String.pipe(Schema.maxLength(4096))),
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam)
})

/** The most a log snapshot's body may hold, as JSON (the described system's 64 KiB). */
export const MAX_TASK_LOG_SNAPSHOT_BYTES = 64 * 1024

/** One message of an AgentAPI conversation (`agentapisdk.Message`): the user's input or the agent's output. */
export const AgentApiMessage = Schema.Struct({
  id: Schema.Int.pipe(Schema.nonNegative({ message: () => "Must be a non-negative integer." })),
  role: Schema.Literal("user", "agent"),
  content: Schema.String,
  time: Schema.Date
})

/**
 * POST /workspaceagents/me/tasks/{task}/log-snapshot?format=agentapi: the AI agent's conversation as
 * AgentAPI's `GET /messages` answers it (`agentapisdk.GetMessagesResponse`).
 */
export class TaskLogSnapshotRequest extends Schema.Class<TaskLogSnapshotRequest>("TaskLogSnapshotRequest")({
  messages: Schema.Array(AgentApiMessage)
}) {}

/** The query of the log snapshot route: its format, of which `agentapi` is the only one (as the described system). */
export const TaskLogSnapshotQuery = Schema.Struct({
  format: Schema.Literal("agentapi").annotations({
    message: () => "Only \"agentapi\" format is currently supported."
  })
})
