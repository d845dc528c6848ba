/**
 * What the agents area tells its listeners (core `Events.ts`): notifications subscribes
 * (notifications/Listener.ts); the area does not know who hears of it.
 */
import { Data } from "effect"
import type { WorkspaceRecord } from "../workspaces/Workspace.js"

/** An app of a task's workspace reported a new state (`working`, `idle`, `complete`, ...). */
export class TaskAppStateChanged extends Data.TaggedClass("TaskAppStateChanged")<{
  readonly workspace: WorkspaceRecord
  readonly state: string
}> {}

export type AgentEvent = TaskAppStateChanged
