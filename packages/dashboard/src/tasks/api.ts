/** The tasks area's calls: the list, a new task from a prompt, one task and its logs; send, pause, resume, a new prompt, delete. */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type Task = Schemas["Task"]
export type TaskLog = Schemas["TaskLogEntry"]

export const tasksApi = {
  tasks: () => unwrap(client.GET("/api/v2/tasks", { params: { query: { limit: "50" } } })),
  create: (body: { input: string; template_version_id: string }) =>
    unwrap(client.POST("/api/v2/tasks/{user}", { params: { path: { user: "me" } }, body })),
  task: (user: string, task: string) =>
    unwrap(client.GET("/api/v2/tasks/{user}/{task}", { params: { path: { user, task } } })),
  logs: (user: string, task: string) =>
    unwrap(client.GET("/api/v2/tasks/{user}/{task}/logs", { params: { path: { user, task } } })),
  send: (user: string, task: string, input: string) =>
    unwrap(client.POST("/api/v2/tasks/{user}/{task}/send", { params: { path: { user, task } }, body: { input } })),
  pause: (user: string, task: string) =>
    unwrap(client.POST("/api/v2/tasks/{user}/{task}/pause", { params: { path: { user, task } } })),
  resume: (user: string, task: string) =>
    unwrap(client.POST("/api/v2/tasks/{user}/{task}/resume", { params: { path: { user, task } } })),
  updateInput: (user: string, task: string, input: string) =>
    unwrap(client.PATCH("/api/v2/tasks/{user}/{task}/input", { params: { path: { user, task } }, body: { input } })),
  remove: (user: string, task: string) =>
    unwrap(client.DELETE("/api/v2/tasks/{user}/{task}", { params: { path: { user, task } } }))
}

const STATUS: Record<Task["status"], string> = {
  pending: "Pending",
  initializing: "Initializing",
  active: "Active",
  paused: "Paused",
  unknown: "Unknown",
  error: "Error"
}

export const statusText = (s: Task["status"]) => STATUS[s] ?? s

const STATE: Record<NonNullable<Task["current_state"]>["state"], string> = {
  working: "Working",
  idle: "Idle",
  complete: "Complete",
  failed: "Failed"
}

/** The agent's last report: "Working: Reading the code", or "No report yet". */
export const stateText = (t: Task) =>
  t.current_state === null
    ? "No report yet"
    : `${STATE[t.current_state.state] ?? t.current_state.state}${
      t.current_state.message === "" ? "" : `: ${t.current_state.message}`
    }`
