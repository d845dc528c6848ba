/**
 * The wire records of AI tasks (the described system's `Task`, `TasksListResponse`,
 * `TaskLogsResponse`, `PauseTaskResponse` and `ResumeTaskResponse`).
 */
import { Schema } from "effect"
import { NullUuid } from "../Ids.js"
import { WorkspaceAgentHealth } from "../templates/TemplateVersionWire.js"
import { omitEmpty } from "../Wire.js"
import { workspaceStatuses } from "../workspaces/WorkspaceBuild.js"
import { WorkspaceBuild } from "../workspaces/WorkspaceWire.js"

/** A task's status, derived from its workspace (see TaskStatus.ts). */
export const taskStatuses = ["pending", "initializing", "active", "paused", "unknown", "error"] as const
export type TaskStatus = (typeof taskStatuses)[number]

/** What the AI agent says it is doing (its app's latest status; `failure` reads `failed`). */
export const taskStates = ["working", "idle", "complete", "failed"] as const
export type TaskState = (typeof taskStates)[number]

export const agentLifecycles = [
  "created",
  "starting",
  "start_timeout",
  "start_error",
  "ready",
  "shutting_down",
  "shutdown_timeout",
  "shutdown_error",
  "off"
] as const

export class TaskStateEntry extends Schema.Class<TaskStateEntry>("TaskStateEntry")({
  timestamp: Schema.Date,
  state: Schema.Literal(...taskStates),
  message: Schema.String,
  uri: Schema.String
}) {}

export class Task extends Schema.Class<Task>("Task")({
  id: Schema.UUID,
  organization_id: Schema.UUID,
  owner_id: Schema.UUID,
  owner_name: Schema.String,
  owner_avatar_url: omitEmpty(Schema.String),
  name: Schema.String,
  display_name: Schema.String,
  template_id: Schema.UUID,
  template_version_id: Schema.UUID,
  template_name: Schema.String,
  template_display_name: Schema.String,
  template_icon: Schema.String,
  workspace_id: NullUuid,
  workspace_name: Schema.String,
  workspace_status: omitEmpty(Schema.Literal(...workspaceStatuses)),
  workspace_build_number: omitEmpty(Schema.Int),
  workspace_agent_id: NullUuid,
  workspace_agent_lifecycle: Schema.NullOr(Schema.Literal(...agentLifecycles)),
  workspace_agent_health: Schema.NullOr(WorkspaceAgentHealth),
  workspace_app_id: NullUuid,
  initial_prompt: Schema.String,
  status: Schema.Literal(...taskStatuses),
  current_state: Schema.NullOr(TaskStateEntry),
  created_at: Schema.Date,
  updated_at: Schema.Date
}) {}

export class TasksListResponse extends Schema.Class<TasksListResponse>("TasksListResponse")({
  tasks: Schema.Array(Task),
  count: Schema.Int
}) {}

/** The answer of pause and resume: the build they queued. */
export class TaskBuildResponse extends Schema.Class<TaskBuildResponse>("PauseTaskResponse")({
  workspace_build: WorkspaceBuild
}) {}

export class TaskLogEntryWire extends Schema.Class<TaskLogEntryWire>("TaskLogEntry")({
  id: Schema.Int,
  content: Schema.String,
  type: Schema.Literal("input", "output"),
  time: Schema.Date
}) {}

export class TaskLogsResponse extends Schema.Class<TaskLogsResponse>("TaskLogsResponse")({
  logs: Schema.Array(TaskLogEntryWire),
  snapshot: omitEmpty(Schema.Boolean),
  snapshot_at: omitEmpty(Schema.Date)
}) {}
