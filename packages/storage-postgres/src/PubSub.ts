/**
 * The PubSub port on Postgres: LISTEN/NOTIFY, so that replicas on one database signal each other.
 *
 * Publishing is `SELECT pg_notify(channel, message)` on the storage's own client: inside a
 * transaction the message leaves when it commits, as Postgres defines NOTIFY. Listening holds
 * one dedicated connection per replica (not one of the pool's), opened at the first
 * subscription; a channel is LISTENed once however many subscribers it has here, and
 * UNLISTENed when its last one leaves. When that connection drops, it is opened again (backing
 * off up to 30 s) and every channel listened again; messages sent meanwhile are lost, so each
 * subscriber then receives PUBSUB_RESYNC (re-read what you follow). Messages are signals of at
 * most 7999 bytes (Postgres' payload limit); data is read from the database.
 */
import { SqlClient } from "@effect/sql"
import { checkChannel, checkMessage, makeSubscribers, PubSub, PUBSUB_RESYNC, type PubSubShape } from "@workbay/core"
import { Duration, Effect, Either, Layer, Runtime } from "effect"
import pg from "pg"

export interface PostgresPubSubOptions {
  /** The connection URL of the listening connection (the storage's URL). */
  readonly url: string
  /**
   * Prepended to every channel name. Channels are per database, not per schema: deployments
   * that share a database in separate schemas use separate prefixes.
   */
  readonly prefix?: string | undefined
}

const MAX_BACKOFF = Duration.toMillis("30 seconds")

/** A Postgres identifier, quoted (names are already checked to be `[a-z0-9_]`). */
const quoted = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`

export const make = (options: PostgresPubSubOptions) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const runtime = yield* Effect.runtime<never>()
    const runFork = Runtime.runFork(runtime)
    const prefix = options.prefix ?? ""
    const subscribers = makeSubscribers()
    const lock = yield* Effect.makeSemaphore(1)
    let client: pg.Client | undefined
    let closed = false
    let retry: ReturnType<typeof setTimeout> | undefined
    let backoff = 500

    const query = (c: pg.Client, text: string) =>
      Effect.tryPromise({ try: () => c.query(text), catch: (cause) => cause })

    const onNotification = (msg: pg.Notification) => {
      if (msg.channel.startsWith(prefix)) subscribers.deliver(msg.channel.slice(prefix.length), msg.payload ?? "")
    }

    /** The connection dropped: forget it and, while anyone listens, open another. */
    const lost = (c: pg.Client, reason: unknown) => {
      if (c !== client) return
      client = undefined
      c.end().catch(() => undefined)
      runFork(Effect.logWarning("PubSub: the Postgres listening connection was lost", reason))
      scheduleReconnect()
    }

    const scheduleReconnect = () => {
      if (closed || retry !== undefined || subscribers.channels().length === 0) return
      retry = setTimeout(() => {
        retry = undefined
        runFork(
          lock.withPermits(1)(
            client !== undefined || closed || subscribers.channels().length === 0
              ? Effect.void
              : Effect.matchEffect(connect, {
                onFailure: (cause) => {
                  backoff = Math.min(backoff * 2, MAX_BACKOFF)
                  scheduleReconnect()
                  return Effect.logWarning("PubSub: could not reopen the Postgres listening connection", cause)
                },
                onSuccess: () => {
                  backoff = 500
                  // Whatever was sent while the connection was down is lost: tell every subscriber.
                  for (const channel of subscribers.channels()) subscribers.deliver(channel, PUBSUB_RESYNC)
                  return Effect.void
                }
              })
          )
        )
      }, backoff)
      retry.unref?.()
    }

    /** Opens the listening connection and LISTENs every channel that has subscribers. Under the lock. */
    const connect = Effect.gen(function*() {
      const c = new pg.Client({
        connectionString: options.url,
        application_name: "workbay-pubsub",
        keepAlive: true,
        connectionTimeoutMillis: 10_000
      })
      c.on("notification", onNotification)
      c.on("error", (error) => lost(c, error))
      c.on("end", () => lost(c, "connection ended"))
      yield* Effect.tryPromise({ try: () => c.connect(), catch: (cause) => cause }).pipe(
        Effect.tapError(() => Effect.promise(() => c.end().catch(() => undefined)))
      )
      const channels = subscribers.channels()
      if (channels.length > 0) {
        yield* query(c, channels.map((ch) => `LISTEN ${quoted(prefix + ch)}`).join("; ")).pipe(
          Effect.tapError(() => Effect.promise(() => c.end().catch(() => undefined)))
        )
      }
      client = c
      return c
    })

    yield* Effect.addFinalizer(() =>
      lock.withPermits(1)(Effect.suspend(() => {
        closed = true
        if (retry !== undefined) clearTimeout(retry)
        const c = client
        client = undefined
        return c === undefined ? Effect.void : Effect.promise(() => c.end().catch(() => undefined))
      }))
    )

    const publish: PubSubShape["publish"] = (channel, message) =>
      Effect.zipRight(
        Effect.zipRight(checkChannel(channel), checkMessage(message)),
        sql`SELECT pg_notify(${prefix + channel}, ${message})`.pipe(
          Effect.asVoid,
          Effect.catchAllCause((cause) => Effect.logWarning(`PubSub: could not publish on ${channel}`, cause))
        )
      )

    const subscribe: PubSubShape["subscribe"] = (channel) =>
      Effect.zipRight(
        checkChannel(channel),
        Effect.acquireRelease(
          lock.withPermits(1)(Effect.gen(function*() {
            const { queue, first } = yield* subscribers.add(channel)
            // A new connection listens to every channel, this one included.
            const listening = client === undefined
              ? connect
              : first
              ? query(client, `LISTEN ${quoted(prefix + channel)}`)
              : Effect.void
            const result = yield* Effect.either(listening)
            if (Either.isLeft(result)) {
              yield* subscribers.remove(channel, queue)
              return yield* Effect.die(result.left)
            }
            return queue
          })),
          (queue) =>
            lock.withPermits(1)(Effect.gen(function*() {
              const last = yield* subscribers.remove(channel, queue)
              if (last && client !== undefined) {
                yield* Effect.ignore(query(client, `UNLISTEN ${quoted(prefix + channel)}`))
              }
            }))
        )
      )

    return { publish, subscribe } satisfies PubSubShape
  })

/** The PubSub port on LISTEN/NOTIFY, publishing through the provided `SqlClient`. */
export const layer = (options: PostgresPubSubOptions): Layer.Layer<PubSub, never, SqlClient.SqlClient> =>
  Layer.scoped(PubSub, make(options))
