/**
 * The in-process wake-up of idle provisioner workers: `ProvisionerJobs.enqueue` notifies, each
 * worker holds a subscription and waits on it between polls. Other processes' workers find the
 * job by polling (every `pollInterval`, default 1 s).
 */
import { Effect, PubSub } from "effect"

export class JobSignal extends Effect.Service<JobSignal>()("@workbay/core/JobSignal", {
  effect: Effect.map(PubSub.sliding<void>(16), (pubsub) => ({
    /** Tells every idle worker of this process that a job was queued. */
    notify: Effect.asVoid(PubSub.publish(pubsub, undefined)),
    /** A queue that receives a signal per notify (old ones dropped past 16), for the current scope. */
    subscribe: PubSub.subscribe(pubsub)
  }))
}) {}
