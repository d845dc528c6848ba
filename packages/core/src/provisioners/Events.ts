/**
 * What the provisioners area tells its listeners (core `Events.ts`): notifications subscribes
 * (notifications/Listener.ts); the area does not know who hears of it.
 */
import { Data } from "effect"

/** The hang detector failed these provisioner jobs with `error`. */
export class ProvisionerJobsHung extends Data.TaggedClass("ProvisionerJobsHung")<{
  readonly jobIds: ReadonlyArray<string>
  readonly error: string
}> {}

export type ProvisionerEvent = ProvisionerJobsHung
