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
