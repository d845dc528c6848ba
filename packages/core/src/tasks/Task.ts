/**
 * AI tasks: the stored record (a prompt and the workspace that runs it), how authorization names
 * a task, and the repository port. Rules live in the Tasks service; the wire record in
 * TaskWire.ts. See docs/tasks.md.
 */
import { Context, Effect, Layer, Option } from "effect"
import type { AuthzObject } from "../Rbac.js"
import type { UniqueViolation } from "../Repositories.js"
import { TaskPrompts } from "../workspaces/WorkspaceBuildExecutor.js"

/** A stored task. */
export interface TaskRecord {
  readonly id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly organization_id: string
  readonly owner_id: string
  /** Unique per owner among undeleted tasks (case-insensitive). */
  readonly name: string
  readonly display_name: string
  /** The prompt the task was created with (or changed to while paused): the AI agent's input. */
  readonly prompt: string
  readonly template_id: string
  readonly template_version_id: string
  /** The slug of the version's AI task app, kept from creation. */
  readonly app_slug: string
  readonly template_version_preset_id: string | null
  /** The task's workspace; written with the task, so `null` only for a row written another way. */
  readonly workspace_id: string | null
  /** True once its workspace is deleted (set in the same transaction as the workspace's). */
  readonly deleted: boolean
}

/** What may change on a task (fields left `undefined` stay). */
export type TaskPatch = Partial<Pick<TaskRecord, "prompt" | "display_name" | "workspace_id" | "updated_at" | "deleted">>

/** Whose tasks a caller may list: every task, those of some organizations, and always their own. */
export interface TaskVisibility {
  readonly all: boolean
  readonly organizationIds: ReadonlyArray<string>
  readonly userId: string
}

/** A listing of undeleted tasks, newest first. Absent filters match every task. */
export interface TaskFilter {
  readonly visibility: TaskVisibility
  readonly ownerIds?: ReadonlyArray<string> | undefined
  readonly organizationIds?: ReadonlyArray<string> | undefined
  readonly limit: number
  readonly offset: number
}

export class TaskRepo extends Context.Tag("@workbay/core/TaskRepo")<TaskRepo, {
  /** Fails with `UniqueViolation` when the owner has an undeleted task of that name. */
  readonly insert: (task: TaskRecord) => Effect.Effect<void, UniqueViolation>
  /** The task, deleted or not. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<TaskRecord>>
  /** The owner's undeleted task of that name (case-insensitive). */
  readonly findByOwnerAndName: (ownerId: string, name: string) => Effect.Effect<Option.Option<TaskRecord>>
  /** None when there is no task `id`. */
  readonly update: (id: string, patch: TaskPatch) => Effect.Effect<Option.Option<TaskRecord>>
  /** A page of matching undeleted tasks, newest first, and how many match in all. */
  readonly list: (
    filter: TaskFilter
  ) => Effect.Effect<{ readonly tasks: ReadonlyArray<TaskRecord>; readonly count: number }>
}>() {}

/** How authorization names a task: its organization and its owner. */
export const taskObject = (t: Pick<TaskRecord, "id" | "organization_id" | "owner_id">): AuthzObject => ({
  type: "task",
  id: t.id,
  orgId: t.organization_id,
  ownerId: t.owner_id
})

/** How audit entries name a task. */
export const taskResource = (t: TaskRecord) => ({
  type: "task",
  id: t.id,
  target: t.name,
  organizationId: t.organization_id
})

/** The fields of a task its audit entries diff. */
export const auditedTask = (t: TaskRecord) => ({
  name: t.name,
  display_name: t.display_name,
  prompt: t.prompt,
  owner_id: t.owner_id,
  organization_id: t.organization_id,
  template_version_id: t.template_version_id,
  workspace_id: t.workspace_id,
  deleted: t.deleted
})

/** The tasks' prompts, as the workspace builds of task workspaces read them (workspaces' `TaskPrompts`). */
export const taskPromptsLayer: Layer.Layer<TaskPrompts, never, TaskRepo> = Layer.effect(
  TaskPrompts,
  Effect.map(TaskRepo, (tasks) =>
    TaskPrompts.of({
      find: (taskId) => Effect.map(tasks.findById(taskId), Option.map((t) => ({ id: t.id, prompt: t.prompt })))
    }))
)
