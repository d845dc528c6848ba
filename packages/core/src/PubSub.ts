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
import { Context, Effect, Layer, Queue, type Scope } from "effect"

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
 * Subscribers by channel, each with its own sliding queue: the fan-out both implementations
 * share (Postgres feeds it from its listening connection).
 */
export interface Subscribers {
  /** Offers `message` to every subscriber of `channel`. */
  readonly deliver: (channel: string, message: string) => void
  /** Adds a subscriber; `first` tells whether the channel had none before. */
  readonly add: (channel: string) => Effect.Effect<{ readonly queue: Queue.Queue<string>; readonly first: boolean }>
  /** Removes a subscriber and shuts its queue down; answers whether the channel has none left. */
  readonly remove: (channel: string, queue: Queue.Queue<string>) => Effect.Effect<boolean>
  readonly channels: () => ReadonlyArray<string>
  /** Whether `channel` has a subscriber. */
  readonly has: (channel: string) => boolean
}

export const makeSubscribers = (): Subscribers => {
  const byChannel = new Map<string, Set<Queue.Queue<string>>>()
  return {
    deliver: (channel, message) => {
      const queues = byChannel.get(channel)
      if (queues === undefined) return
      // A sliding queue takes every offer at once, dropping its oldest message when full
      // (Queue.unsafeOffer would skip the strategy and drop the new one).
      for (const q of queues) Effect.runSync(Queue.offer(q, message))
    },
    add: (channel) =>
      Effect.map(Queue.sliding<string>(PUBSUB_SUBSCRIBER_CAPACITY), (queue) => {
        let queues = byChannel.get(channel)
        const first = queues === undefined
        if (queues === undefined) byChannel.set(channel, queues = new Set())
        queues.add(queue)
        return { queue, first }
      }),
    remove: (channel, queue) =>
      Effect.map(Queue.shutdown(queue), () => {
        const queues = byChannel.get(channel)
        if (queues === undefined) return false
        queues.delete(queue)
        if (queues.size > 0) return false
        byChannel.delete(channel)
        return true
      }),
    channels: () => [...byChannel.keys()],
    has: (channel) => byChannel.has(channel)
  }
}

const makeMemoryPubSub = (): PubSubShape => {
  const subscribers = makeSubscribers()
  return {
    publish: (channel, message) =>
      Effect.zipRight(
        Effect.zipRight(checkChannel(channel), checkMessage(message)),
        Effect.sync(() => subscribers.deliver(channel, message))
      ),
    subscribe: (channel) =>
      Effect.zipRight(
        checkChannel(channel),
        Effect.acquireRelease(Effect.map(subscribers.add(channel), (s) => s.queue), (queue) =>
          subscribers.remove(channel, queue))
      )
  }
}
