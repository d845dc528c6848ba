/**
 * Domain events: an area says what happened (`Events.publish(new WorkspaceBuildEnded(...))`) and
 * the listeners (notifications, and any other area above it in the dependency order) subscribe,
 * so an area never names who hears of it (docs/architecture.md, "Dependency order").
 *
 * Each area declares its events in its own `Events.ts`, as `Data.TaggedClass`es. A listener runs
 * at once, in the publisher's fiber (inside its transaction, if any), with the services it was
 * built with; it never fails the publisher: a failure is logged and the publisher goes on.
 */
import { Context, Effect, Layer } from "effect"

/** An event of an area: a tagged value (`Data.TaggedClass`). */
export interface DomainEvent {
  readonly _tag: string
}

/** What a listener does with an event; events it does not know it ignores. */
export type Listener = (event: DomainEvent) => Effect.Effect<void>

export interface EventsShape {
  /** Runs every listener on `event`, one after the other; never fails. */
  readonly publish: (event: DomainEvent) => Effect.Effect<void>
  /** Adds a listener (a listener's layer calls it once, when it is built). */
  readonly subscribe: (listener: Listener) => Effect.Effect<void>
}

export class Events extends Context.Tag("@workbay/core/Events")<Events, EventsShape>() {
  /** One bus per runtime, with no listener until a listener's layer subscribes. */
  static readonly layer: Layer.Layer<Events> = Layer.sync(Events, () => {
    const listeners: Array<Listener> = []
    return Events.of({
      publish: (event) =>
        Effect.forEach(listeners, (listener) =>
          listener(event).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning(`Listener of ${event._tag} failed`, cause))
          ), { discard: true }),
      subscribe: (listener) => Effect.sync(() => void listeners.push(listener))
    })
  })
}

/** `Events.publish`, as one call. */
export const publish = (event: DomainEvent): Effect.Effect<void, never, Events> =>
  Effect.flatMap(Events, (events) => events.publish(event))
