/**
 * What the workspaces area tells its listeners (core `Events.ts`): notifications subscribes
 * (notifications/Listener.ts); the area does not know who hears of it.
 */
import { Data } from "effect"
import type { TemplateRecord } from "../templates/Template.js"
import type { TemplateVersionRecord } from "../templates/TemplateVersion.js"
import type { WorkspaceRecord } from "./Workspace.js"
import type { WorkspaceBuildRecord } from "./WorkspaceBuild.js"

/** A workspace was created (POST .../workspaces), with its template's and version's names. */
export class WorkspaceCreated extends Data.TaggedClass("WorkspaceCreated")<{
  readonly workspace: WorkspaceRecord
  readonly templateName: string
  readonly versionName: string
}> {}

/** A workspace build ended: `error` is set when it failed. */
export class WorkspaceBuildEnded extends Data.TaggedClass("WorkspaceBuildEnded")<{
  readonly workspace: WorkspaceRecord
  readonly build: WorkspaceBuildRecord
  readonly error: string | undefined
}> {}

/** A start build was refused for quota: what it would cost a day, and what remains of the budget. */
export class WorkspaceOutOfQuota extends Data.TaggedClass("WorkspaceOutOfQuota")<{
  readonly workspace: WorkspaceRecord
  readonly cost: number
  readonly remaining: number
}> {}

/** Someone built a workspace with another template version than its last build's. */
export class WorkspaceManuallyUpdated extends Data.TaggedClass("WorkspaceManuallyUpdated")<{
  readonly workspace: WorkspaceRecord
  readonly template: TemplateRecord
  readonly version: TemplateVersionRecord
  readonly initiatorId: string
}> {}

/** An autostart moved the workspace to the template's active version. */
export class WorkspaceAutoUpdated extends Data.TaggedClass("WorkspaceAutoUpdated")<{
  readonly workspace: WorkspaceRecord
  readonly version: TemplateVersionRecord
}> {}

/** The lifecycle executor marked a workspace dormant; it is deleted `timeTilDeleteMs` later (0: never). */
export class WorkspaceDormant extends Data.TaggedClass("WorkspaceDormant")<{
  readonly workspace: WorkspaceRecord
  readonly timeTilDeleteMs: number
}> {}

/**
 * The prebuilds reconciler found a preset of a template's active version hard-limited: its latest
 * creations failed `failureHardLimit` times in a row, so it creates no more prebuilt workspaces of
 * it. Published once per preset (the reconciler keeps which it has told of in the database).
 */
export class PrebuildPresetHardLimited extends Data.TaggedClass("PrebuildPresetHardLimited")<{
  readonly template: TemplateRecord
  readonly version: TemplateVersionRecord
  readonly presetId: string
  readonly presetName: string
}> {}

export type WorkspaceEvent =
  | WorkspaceCreated
  | WorkspaceBuildEnded
  | WorkspaceOutOfQuota
  | WorkspaceManuallyUpdated
  | WorkspaceAutoUpdated
  | WorkspaceDormant
  | PrebuildPresetHardLimited
