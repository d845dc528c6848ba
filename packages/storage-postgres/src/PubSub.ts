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
import {
  acquireReleaseInPlace,
  checkChannel,
  checkMessage,
  makeSubscribers,
  PubSub,
  PUBSUB_RESYNC,
  type PubSubShape,
  subscribeWithListen
} from "@workbay/core"
import { Deferred, Duration, Effect, Either, Layer, Runtime } from "effect"
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
    /** The channels LISTENed on the current connection. */
    const listened = new Set<string>()
    /** Channels whose first subscriber came or last one left since the last sync. */
    const marked = new Set<string>()
    /** First subscribers waiting for their channel's LISTEN. */
    const waiters = new Map<string, Array<Deferred.Deferred<void, unknown>>>()
    let syncing = false

    const query = (c: pg.Client, text: string) =>
      Effect.tryPromise({ try: () => c.query(text), catch: (cause) => cause })

    const onNotification = (msg: pg.Notification) => {
      if (msg.channel.startsWith(prefix)) subscribers.deliver(msg.channel.slice(prefix.length), msg.payload ?? "")
    }

    /** The connection dropped: forget it and, while anyone listens, open another. */
    const lost = (c: pg.Client, reason: unknown) => {
      if (c !== client) return
      client = undefined
      listened.clear()
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
      listened.clear()
      for (const ch of channels) listened.add(ch)
      return c
    })

    yield* Effect.addFinalizer(() =>
      lock.withPermits(1)(Effect.suspend(() => {
        closed = true
        sync()
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

    // LISTEN and UNLISTEN, coalesced: a channel's first subscriber and its last one's leaving mark
    // it; one query then brings every marked channel to what its subscribers want. Thousands of
    // agents connecting (or a replica closing their sessions at shutdown) cost a few queries, not a
    // round trip each under the lock. A first subscriber waits for its LISTEN; a leaving one does not.

    const syncOnce = Effect.gen(function*() {
      const batch = [...marked]
      marked.clear()
      const waiting = batch.flatMap((ch) => {
        const ws = waiters.get(ch) ?? []
        waiters.delete(ch)
        return ws
      })
      const result = yield* Effect.either(Effect.gen(function*() {
        if (client === undefined) {
          if (subscribers.channels().length === 0) return
          // A new connection listens to every channel that has subscribers.
          yield* connect
          return
        }
        const listen = batch.filter((ch) => subscribers.has(ch) && !listened.has(ch))
        const unlisten = batch.filter((ch) => !subscribers.has(ch) && listened.has(ch))
        if (listen.length + unlisten.length === 0) return
        yield* query(
          client,
          [
            ...listen.map((ch) => `LISTEN ${quoted(prefix + ch)}`),
            ...unlisten.map((ch) => `UNLISTEN ${quoted(prefix + ch)}`)
          ]
            .join("; ")
        )
        for (const ch of listen) listened.add(ch)
        for (const ch of unlisten) listened.delete(ch)
      }))
      for (const w of waiting) {
        yield* Either.isLeft(result) ? Deferred.fail(w, result.left) : Deferred.succeed(w, undefined)
      }
    })

    /** Runs the syncs until nothing is marked (one at a time, under the lock with reconnections). */
    const sync = () => {
      if (closed) {
        // Closing: no connection is opened again; whoever waits goes on (nothing more arrives).
        marked.clear()
        for (const ws of waiters.values()) for (const w of ws) Effect.runSync(Deferred.succeed(w, undefined))
        waiters.clear()
        return
      }
      if (syncing) return
      syncing = true
      runFork(
        lock.withPermits(1)(Effect.suspend(function loop(): Effect.Effect<void> {
          return marked.size === 0 ? Effect.void : Effect.zipRight(syncOnce, Effect.suspend(loop))
        })).pipe(Effect.ensuring(Effect.sync(() => {
          syncing = false
          if (marked.size > 0) sync()
        })))
      )
    }

    const listen: PubSubShape["listen"] = (channel, receive) =>
      Effect.zipRight(
        checkChannel(channel),
        acquireReleaseInPlace(
          Effect.gen(function*() {
            const first = subscribers.add(channel, receive)
            if (!first && listened.has(channel) && client !== undefined) return
            const listening = yield* Deferred.make<void, unknown>()
            waiters.set(channel, [...(waiters.get(channel) ?? []), listening])
            marked.add(channel)
            sync()
            const result = yield* Effect.either(Deferred.await(listening))
            if (Either.isLeft(result)) {
              subscribers.remove(channel, receive)
              return yield* Effect.die(result.left)
            }
          }),
          () =>
            Effect.sync(() => {
              if (!subscribers.remove(channel, receive)) return
              marked.add(channel)
              sync()
            })
        )
      )

    return { publish, subscribe: subscribeWithListen(listen), listen } satisfies PubSubShape
  })

/** The PubSub port on LISTEN/NOTIFY, publishing through the provided `SqlClient`. */
export const layer = (options: PostgresPubSubOptions): Layer.Layer<PubSub, never, SqlClient.SqlClient> =>
  Layer.scoped(PubSub, make(options))
