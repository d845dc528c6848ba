/**
 * The PubSub port: small signals between the processes that share one database ("a job has new
 * log lines", "this job finished"). Storage provides it: one process (SQLite) in memory,
 * several replicas on Postgres through LISTEN/NOTIFY.
 *
 * Messages are signals, not data. A subscriber that receives one reads what changed from the
 * database, so a message is a few bytes (at most MAX_PUBSUB_MESSAGE_BYTES, Postgres' NOTIFY
 * payload limit) and a lost or coalesced one costs only latency: subscribers that must not miss
 * a change also re-read on a slow timer. To miss nothing, subscribe first, then read the
 * database, then act on each signal.
 */
import { Context, Effect, Layer, Queue, type Runtime, type Scope } from "effect"
import { acquireReleaseInPlace } from "./ContextOverlay.js"
import { whileWork } from "./WhileWork.js"

/** Channel names: lower-case letters, digits and `_`, at most 48 (Postgres identifiers, room for a deployment prefix). */
export const PUBSUB_CHANNEL_PATTERN = /^[a-z][a-z0-9_]{0,47}$/

/** The largest message, in UTF-8 bytes: Postgres refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_PUBSUB_MESSAGE_BYTES = 7999

/**
 * The message every subscriber receives when messages may have been lost (on Postgres, after
 * the listening connection was reopened): re-read what you follow.
 */
export const PUBSUB_RESYNC = ""

/** Messages a subscriber may have waiting; past it the oldest are dropped (signals, see above). */
export const PUBSUB_SUBSCRIBER_CAPACITY = 1024

/** An id as channels and batch messages name it: its 32 hex digits, lower case, no dashes. */
export const hexId = (id: string): string => id.replaceAll("-", "").toLowerCase()

/**
 * The messages of a batch channel naming `ids` (each as {@link hexId}, space-separated): as few
 * as fit MAX_PUBSUB_MESSAGE_BYTES (242 ids a message), none for no ids. A batch of changes is
 * then one publish however many it names (more only past 242).
 */
export const idMessages = (ids: Iterable<string>): Array<string> => {
  const perMessage = Math.floor((MAX_PUBSUB_MESSAGE_BYTES + 1) / 33)
  const hex = [...new Set([...ids].map(hexId))]
  const messages: Array<string> = []
  for (let i = 0; i < hex.length; i += perMessage) messages.push(hex.slice(i, i + perMessage).join(" "))
  return messages
}

/** Whether a batch channel's `message` names the id whose {@link hexId} is `hex` (a resync names every one). */
export const messageNames = (message: string, hex: string): boolean =>
  message === PUBSUB_RESYNC || message.includes(hex)

export interface PubSubShape {
  /**
   * Sends `message` to every subscriber of `channel`, in this process and (Postgres) in the
   * others. Never fails: a message that cannot be sent is logged and dropped. On Postgres a
   * publish inside a transaction is delivered when it commits.
   */
  readonly publish: (channel: string, message: string) => Effect.Effect<void>
  /**
   * Subscribes to `channel` for the life of the scope. When the effect completes the
   * subscription is in place: every message published afterwards reaches the queue.
   */
  readonly subscribe: (channel: string) => Effect.Effect<Queue.Dequeue<string>, never, Scope.Scope>
  /**
   * `subscribe` without a queue: `receive` is called with each message as it is delivered (at
   * once, synchronously: it must not block or throw), for the life of the scope. What a
   * long-lived follower uses to hold no fiber between messages (see `onSignals`).
   */
  readonly listen: (channel: string, receive: (message: string) => void) => Effect.Effect<void, never, Scope.Scope>
}

export class PubSub extends Context.Tag("@workbay/core/PubSub")<PubSub, PubSubShape>() {
  /** One process: subscribers in this process only. A fresh instance each time the layer is built. */
  static readonly memory: Layer.Layer<PubSub> = Layer.sync(PubSub, () => makeMemoryPubSub())
}

const encoder = new TextEncoder()

/** Dies (a programming error) unless `channel` is a valid channel name. */
export const checkChannel = (channel: string): Effect.Effect<void> =>
  PUBSUB_CHANNEL_PATTERN.test(channel)
    ? Effect.void
    : Effect.dieMessage(
      `Invalid PubSub channel "${channel.slice(0, 80)}": use a-z, 0-9 and '_', starting with a letter, at most 48.`
    )

/** Dies (a programming error) when `message` is over MAX_PUBSUB_MESSAGE_BYTES. */
export const checkMessage = (message: string): Effect.Effect<void> => {
  // Only a long string can be over: a UTF-16 unit is at most 3 UTF-8 bytes.
  const bytes = message.length * 3 <= MAX_PUBSUB_MESSAGE_BYTES ? 0 : encoder.encode(message).length
  return bytes > MAX_PUBSUB_MESSAGE_BYTES
    ? Effect.dieMessage(
      `PubSub message of ${bytes} bytes is over the ${MAX_PUBSUB_MESSAGE_BYTES}-byte limit: send a signal and read the data from the database.`
    )
    : Effect.void
}

/**
 * Receivers by channel: the fan-out both implementations share (Postgres feeds it from its
 * listening connection). A receiver is a function called with each message.
 */
export interface Subscribers {
  /** Calls every receiver of `channel` with `message`. */
  readonly deliver: (channel: string, message: string) => void
  /** Adds a receiver; answers whether the channel had none before. */
  readonly add: (channel: string, receive: (message: string) => void) => boolean
  /** Removes a receiver; answers whether the channel has none left. */
  readonly remove: (channel: string, receive: (message: string) => void) => boolean
  readonly channels: () => ReadonlyArray<string>
  /** Whether `channel` has a receiver. */
  readonly has: (channel: string) => boolean
}

export const makeSubscribers = (): Subscribers => {
  const byChannel = new Map<string, Set<(message: string) => void>>()
  return {
    deliver: (channel, message) => {
      const receivers = byChannel.get(channel)
      if (receivers === undefined) return
      for (const receive of [...receivers]) receive(message)
    },
    add: (channel, receive) => {
      let receivers = byChannel.get(channel)
      const first = receivers === undefined
      if (receivers === undefined) byChannel.set(channel, receivers = new Set())
      receivers.add(receive)
      return first
    },
    remove: (channel, receive) => {
      const receivers = byChannel.get(channel)
      if (receivers === undefined) return false
      receivers.delete(receive)
      if (receivers.size > 0) return false
      byChannel.delete(channel)
      return true
    },
    channels: () => [...byChannel.keys()],
    has: (channel) => byChannel.has(channel)
  }
}

/**
 * A queue subscription made of `listen`: each message offered to a sliding queue of
 * PUBSUB_SUBSCRIBER_CAPACITY (the oldest dropped when full), shut down with the scope.
 */
export const subscribeWithListen = (
  listen: PubSubShape["listen"]
): PubSubShape["subscribe"] =>
(channel) =>
  Effect.gen(function*() {
    const queue = yield* acquireReleaseInPlace(Queue.sliding<string>(PUBSUB_SUBSCRIBER_CAPACITY), Queue.shutdown)
    // A sliding queue takes every offer at once, dropping its oldest message when full
    // (Queue.unsafeOffer would skip the strategy and drop the new one).
    yield* listen(channel, (message) => void Effect.runSync(Queue.offer(queue, message)))
    return queue
  })

const makeMemoryPubSub = (): PubSubShape => {
  const subscribers = makeSubscribers()
  const listen: PubSubShape["listen"] = (channel, receive) =>
    Effect.zipRight(
      checkChannel(channel),
      acquireReleaseInPlace(
        Effect.sync(() => void subscribers.add(channel, receive)),
        () => Effect.sync(() => void subscribers.remove(channel, receive))
      )
    )
  return {
    publish: (channel, message) =>
      Effect.zipRight(
        Effect.zipRight(checkChannel(channel), checkMessage(message)),
        Effect.sync(() => subscribers.deliver(channel, message))
      ),
    subscribe: subscribeWithListen(listen),
    listen
  }
}

/**
 * Follows `channel` for the life of the scope with no fiber between messages: after each burst of
 * messages `handle` runs (given them, in order) on a fiber of its own that ends with it, one run at a
 * time; messages that come meanwhile make one more run after it. For the followers that live as
 * long as a connection (an agent's), where a fiber waiting on a queue costs memory the whole time.
 * `handle` runs with the caller's services and fiber refs; closing the scope interrupts a run.
 * When this completes the channel is followed (as `subscribe`).
 */
export const onSignals = <R>(
  pubsub: PubSubShape,
  channel: string,
  handle: (messages: ReadonlyArray<string>) => Effect.Effect<void, never, R>,
  /**
   * What the runs run on: a service's own runtime, taken once when it was made, is shared by all
   * its followers (each runtime taken here keeps a copy of the fiber's refs, some 600 bytes).
   * Default: the caller's.
   */
  runtime?: Runtime.Runtime<R>
): Effect.Effect<void, never, Scope.Scope | R> =>
  Effect.gen(function*() {
    let waiting: Array<string> = []
    const runs = yield* whileWork(
      Effect.suspend(() => {
        const messages = waiting
        waiting = []
        return handle(messages)
      }),
      runtime
    )
    yield* pubsub.listen(channel, (message) => {
      // Signals: past the capacity the oldest waiting one goes, as a subscriber's queue drops it.
      if (waiting.length >= PUBSUB_SUBSCRIBER_CAPACITY) waiting.shift()
      waiting.push(message)
      runs.wake()
    })
  })
