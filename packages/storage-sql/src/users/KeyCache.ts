/**
 * The read of every authenticated request, kept in memory for a few seconds: an API key with its
 * user and the user's memberships (`ApiKeyRepo.findWithUser`). A request whose key was read in
 * the last {@link KEY_CACHE_TTL_MS} answers without a statement; the caller (core's `Auth`)
 * still checks the secret's hash, the expiry and the user's status on what it is given, so no rule
 * is skipped, only the read.
 *
 * What changes the cached rows drops them, here and on every other replica: each repository
 * statement that changes a key (deleted, expired), a user (any column: the record is what
 * `GET /users/me` answers and what authorization reads) or a membership (added, removed, its
 * roles) calls {@link KeyCacheShape.changed} with the users it touched. That drops their entries
 * at once, again when the fiber's transaction ends (a read by another fiber before the commit is
 * not kept), and on the other replicas through the PubSub (`KEYS_CHANGED_CHANNEL`; on Postgres
 * delivered at the commit). A read that was under way when a change arrived is not kept. A
 * resync (the listening connection was lost) drops everything.
 *
 * Bounds: {@link KEY_CACHE_SIZE} entries, the oldest dropped first; an entry lives
 * {@link KEY_CACHE_TTL_MS} at most, and a key within that time of its expiry is always read
 * (another replica may have slid a session's expiry since). A key not found is not kept, so
 * guessed ids fill nothing. This replica's own touch (`last_used`, once a minute a key) drops
 * its entry here only.
 */
import { hexId, idMessages, PubSub, PUBSUB_RESYNC } from "@workbay/core"
import type { ApiKeyRepo } from "@workbay/core"
import { Context, Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { afterTransaction } from "../Transaction.js"

/** How long a read is kept at most. */
export const KEY_CACHE_TTL_MS = 10_000

/** Entries kept at most (about 2 KB each). */
export const KEY_CACHE_SIZE = 4096

/**
 * The channel whose messages name users whose keys, record or memberships changed: the sending
 * cache's own mark, then the users' hex ids (`idMessages`). A cache skips its own messages (it
 * dropped their entries already).
 */
export const KEYS_CHANGED_CHANNEL = "auth_keys_changed"

/** A key with its user and memberships, as `ApiKeyRepo.findWithUser` reads it. */
export type KeyWithUser = Option.Option.Value<Effect.Effect.Success<ReturnType<ApiKeyRepo["Type"]["findWithUser"]>>>

export interface KeyCacheShape {
  /** `read` (the key `id`'s read) through the cache: a kept entry, else `read`, kept when found. */
  readonly through: (
    id: string,
    read: Effect.Effect<Option.Option<KeyWithUser>>
  ) => Effect.Effect<Option.Option<KeyWithUser>>
  /** `userIds`' keys, records or memberships changed (or may have): their entries go, everywhere. */
  readonly changed: (userIds: Iterable<string>) => Effect.Effect<void>
  /** `effect`, after which (however it ends) user `id`'s entries go ({@link changed}): for a pipe. */
  readonly changing: (id: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Key `id` was touched by this replica: its entry goes, here only. */
  readonly touched: (id: string) => void
  /** The entries kept (tests and metrics). */
  readonly size: () => number
}

export class KeyCache extends Context.Tag("@workbay/storage-sql/KeyCache")<KeyCache, KeyCacheShape>() {}

interface Entry {
  readonly value: KeyWithUser
  /** When the read began (ms). */
  readonly at: number
  readonly userHex: string
}

export const make = Effect.gen(function*() {
  const pubsub = yield* PubSub
  const clock = yield* Effect.clock
  const entries = new Map<string, Entry>()
  const mark = randomBytes(4).toString("hex")
  /** Moves on every change: a read that began before one is not kept. */
  let generation = 0

  const drop = (message: string) => {
    generation++
    if (message === PUBSUB_RESYNC) return entries.clear()
    const named = new Set(message.split(" "))
    for (const [id, entry] of entries) if (named.has(entry.userHex)) entries.delete(id)
  }
  yield* pubsub.listen(KEYS_CHANGED_CHANNEL, (message) => {
    if (message === PUBSUB_RESYNC) return drop(message)
    if (!message.startsWith(mark)) drop(message.slice(message.indexOf(" ") + 1))
  })

  const fresh = (entry: Entry, now: number) =>
    now - entry.at < KEY_CACHE_TTL_MS && entry.value.key.expires_at.getTime() - now > KEY_CACHE_TTL_MS

  const through: KeyCacheShape["through"] = (id, read) => Effect.suspend(() => lookup(id, read))

  const lookup: KeyCacheShape["through"] = (id, read) => {
    const now = clock.unsafeCurrentTimeMillis()
    const entry = entries.get(id)
    if (entry !== undefined) {
      if (fresh(entry, now)) return Effect.succeed(Option.some(entry.value))
      entries.delete(id)
    }
    const seen = generation
    return Effect.map(read, (found) => {
      if (generation === seen && Option.isSome(found)) {
        const kept: Entry = { value: found.value, at: now, userHex: hexId(found.value.user.id) }
        if (fresh(kept, now)) {
          if (entries.size >= KEY_CACHE_SIZE) entries.delete(entries.keys().next().value!)
          entries.set(id, kept)
        }
      }
      return found
    })
  }

  const changed: KeyCacheShape["changed"] = (userIds) => {
    const ids = [...new Set(userIds)]
    if (ids.length === 0) return Effect.void
    const here = () => drop(ids.map(hexId).join(" "))
    return Effect.zipRight(
      Effect.zipRight(Effect.sync(here), afterTransaction(here)),
      Effect.forEach(idMessages(ids), (m) => pubsub.publish(KEYS_CHANGED_CHANNEL, `${mark} ${m}`), { discard: true })
    )
  }

  return KeyCache.of({
    through,
    changed,
    changing: (id) => (effect) => Effect.ensuring(effect, changed([id])),
    touched: (id) => void entries.delete(id),
    size: () => entries.size
  })
})

/** The cache of this process, listening for the other replicas' changes for the life of the layer. */
export const layer: Layer.Layer<KeyCache, never, PubSub> = Layer.scoped(KeyCache, make)
