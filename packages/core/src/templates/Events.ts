/**
 * What the templates area tells its listeners (core `Events.ts`): notifications subscribes
 * (notifications/Listener.ts); the area does not know who hears of it.
 */
import { Data } from "effect"
import type { TemplateRecord } from "./Template.js"

/** A template version's import (its job `jobId`) failed with `error`. */
export class TemplateVersionImportFailed extends Data.TaggedClass("TemplateVersionImportFailed")<{
  readonly jobId: string
  readonly error: string
}> {}

/** A template's autodelete time changed and these dormant workspaces got (new) deletion times. */
export class DormantWorkspacesRedated extends Data.TaggedClass("DormantWorkspacesRedated")<{
  readonly workspaceIds: ReadonlyArray<string>
  readonly autodeleteMs: number
}> {}

/** A template was deprecated with `message`. */
export class TemplateDeprecated extends Data.TaggedClass("TemplateDeprecated")<{
  readonly template: TemplateRecord
  readonly message: string
}> {}

/** A template was deleted by the user `initiatorId` (`initiator` is their username). */
export class TemplateDeleted extends Data.TaggedClass("TemplateDeleted")<{
  readonly template: TemplateRecord
  readonly initiatorId: string
  readonly initiator: string
}> {}

export type TemplateEvent =
  | TemplateVersionImportFailed
  | DormantWorkspacesRedated
  | TemplateDeprecated
  | TemplateDeleted
