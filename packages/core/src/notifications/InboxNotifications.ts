/**
 * The per-user inbox: the notifier's `inbox` method stores a notification here (`deliver`, the
 * `InboxDelivery` port), its user lists them, marks them read or unread, and watches new ones
 * live. See docs/inbox.md.
 *
 * Authorization: the `inbox_notification` resource kind of the one evaluator; every user holds
 * `inbox_notification: *` on what they own. The routes work on the caller's own inbox only: a
 * notification of another user answers 404, whoever asks (as the unread count of the answer is
 * the caller's). A token whose scopes or allow-list lack the kind answers 403.
 *
 * Not audited: the described system keeps inbox notifications out of its audit log (they are not
 * among its auditable resources); the read state is the user's own bookkeeping.
 *
 * Live watch: one reader per watched user in each process. It subscribes to the user's PubSub
 * channel (`inboxChannel`), whose signal is a new notification's id (`deliver` publishes it after
 * the row is stored, so on Postgres every replica's reader hears it through LISTEN/NOTIFY), reads
 * that notification and the unread count once, and hands the event to every watcher of the user
 * in one loop; each watcher applies its own filters and format, and the JSON of each format is
 * made once per event. A signal lost while a Postgres listening connection was down is not
 * replayed (as the described system's watch): a client re-lists after reconnecting.
 */
import { Clock, Duration, Effect, Layer, Option, Queue, RcMap, type Scope } from "effect"
import { authorize, authorizeRead, CurrentActor } from "../Actor.js"
import { compileEncoderSync } from "../Encoding.js"
import { NotFound } from "../Errors.js"
import { lazily } from "../Lazily.js"
import { PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { wireMaker } from "../Wire.js"
import { InboxDelivery, type InboxDeliveryInput } from "./InboxDelivery.js"
import {
  GetInboxNotificationResponse,
  inboxChannel,
  type InboxFilter,
  InboxNotification,
  InboxNotificationAction,
  type InboxNotificationRecord,
  InboxNotificationRepo,
  inboxObject,
  ListInboxNotificationsResponse,
  UpdateInboxNotificationReadStatusResponse
} from "./InboxNotification.js"
import { toPlainText } from "./Render.js"
import type { ListInboxNotificationsQuery, WatchInboxNotificationsQuery } from "./Requests.js"

/** The page size of `GET /notifications/inbox`, as the described system (it takes no `limit`). */
export const INBOX_PAGE_SIZE = 25

/** How long a user's reader stays after their last watcher left (a reconnecting client finds it). */
const READER_IDLE = Duration.seconds(5)

export type InboxFormat = "markdown" | "plaintext"

/** A new notification as the watchers of its user receive it (the JSON of each format made once). */
export interface InboxEvent {
  readonly record: InboxNotificationRecord
  readonly unreadCount: number
  /**
   * The watch message `{notification, unread_count}` in `format`: its JSON as UTF-8 bytes, made
   * once per format and shared by every socket (one buffer, not a copy per socket).
   */
  readonly message: (format: InboxFormat) => Uint8Array
}

/** A watcher: called synchronously, inside the reader's loop, with each new notification of its user. */
export type InboxListener = (event: InboxEvent) => void

/** The caller's inbox, watchable: `listen` adds a listener until the scope closes. */
export interface InboxFollow {
  readonly listen: (listener: InboxListener) => Effect.Effect<void, never, Scope.Scope>
}

const makeWire = wireMaker(InboxNotification)
const makeAction = wireMaker(InboxNotificationAction)

/** The wire record of a stored notification, title and content in `format`. */
export const inboxWire = (n: InboxNotificationRecord, format: InboxFormat = "markdown"): InboxNotification =>
  makeWire({
    id: n.id,
    user_id: n.user_id,
    template_id: n.template_id,
    targets: n.targets,
    title: format === "plaintext" ? toPlainText(n.title) : n.title,
    content: format === "plaintext" ? toPlainText(n.content) : n.content,
    icon: n.icon,
    actions: n.actions.map((a) => makeAction({ label: a.label, url: a.url })),
    read_at: n.read_at,
    created_at: n.created_at
  })

const encodeWatchMessage = lazily(() => compileEncoderSync(GetInboxNotificationResponse))
const makeWatchMessage = wireMaker(GetInboxNotificationResponse)

/** Whether a notification passes a watcher's filters (targets: all of them; templates: any; read status). */
export const matchesWatch = (n: InboxNotificationRecord, w: typeof WatchInboxNotificationsQuery.Type): boolean => {
  if (w.targets !== undefined && w.targets.length > 0) {
    const lower = new Set(n.targets.map((t) => t.toLowerCase()))
    if (!w.targets.every((t) => lower.has(t.toLowerCase()))) return false
  }
  if (w.templates !== undefined && w.templates.length > 0) {
    const t = n.template_id.toLowerCase()
    if (!w.templates.some((x) => x.toLowerCase() === t)) return false
  }
  if (w.read_status === "read" && n.read_at === null) return false
  if (w.read_status === "unread" && n.read_at !== null) return false
  return true
}

const deliverTo = (listener: InboxListener, event: InboxEvent) => {
  try {
    listener(event)
  } catch {
    // A watcher's own failure (a socket closing under it) loses that event for it alone.
  }
}

interface Reader {
  readonly listeners: Set<InboxListener>
  /** The latest events (at most RECENT_EVENTS), for a watcher that joins after its socket opened. */
  readonly recent: Array<InboxEvent & { readonly seq: number }>
}

/** Events a reader keeps for watchers still joining (between their check and their socket's session). */
const RECENT_EVENTS = 64

/** Past this many records waiting for their reader (signals lost), the waiting ones are dropped (they are read back instead). */
const MAX_JUST_STORED = 10_000

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export class InboxNotifications extends Effect.Service<InboxNotifications>()("@workbay/core/InboxNotifications", {
  scoped: Effect.gen(function*() {
    const repo = yield* InboxNotificationRepo
    const pubsub = yield* PubSub

    const me = Effect.map(CurrentActor, (a) => a.user.id)
    /** Numbers the events of every reader of this process, so a watcher knows which came after its check. */
    let seq = 0
    /** Users with a reader in this process. */
    const watched = new Set<string>()
    /** Notifications this process just stored for a watched user, by id, until their reader takes them. */
    const justStored = new Map<string, { readonly record: InboxNotificationRecord; readonly unreadCount: number }>()

    /**
     * Stores a rendered notification in its user's inbox, once per id (a retried send stores
     * nothing more and signals nothing), then signals the user's watchers on every replica.
     */
    const deliver = (input: InboxDeliveryInput) =>
      Effect.gen(function*() {
        const record: InboxNotificationRecord = {
          id: input.id.toLowerCase(),
          user_id: input.userId,
          template_id: input.templateId.toLowerCase(),
          targets: [...new Set(input.targets.map((t) => t.toLowerCase()))],
          title: input.title,
          content: input.content,
          icon: input.icon,
          actions: input.actions.map((a) => ({ label: a.label, url: a.url })),
          read_at: null,
          created_at: input.createdAt
        }
        const unreadCount = yield* repo.insert(record)
        if (unreadCount === undefined) return
        const id = input.id.toLowerCase()
        // A reader of this user in this process takes the record from here instead of reading it back.
        if (watched.has(input.userId)) {
          if (justStored.size >= MAX_JUST_STORED) justStored.clear()
          justStored.set(id, { record: { ...record, id }, unreadCount })
        }
        yield* pubsub.publish(inboxChannel(input.userId), id)
      }).pipe(span("InboxNotifications.deliver"))

    /** A page of the caller's inbox (newest first, INBOX_PAGE_SIZE at most) and their unread count. */
    const list = (input: typeof ListInboxNotificationsQuery.Type) =>
      Effect.gen(function*() {
        const userId = yield* me
        yield* authorizeRead("Inbox", inboxObject(userId))
        let before: InboxFilter["before"]
        if (input.starting_before !== undefined) {
          // An id that is not one of the caller's notifications starts at the newest, as the described system.
          const last = yield* repo.find(userId, input.starting_before)
          if (Option.isSome(last)) before = { createdAt: last.value.created_at, id: last.value.id }
        }
        const rows = yield* repo.list({
          userId,
          targets: input.targets ?? [],
          templates: input.templates ?? [],
          readStatus: input.read_status ?? "all",
          before,
          limit: INBOX_PAGE_SIZE
        })
        const unread = yield* repo.unreadCount(userId)
        return new ListInboxNotificationsResponse({
          notifications: rows.map((r) => inboxWire(r)),
          unread_count: unread
        }, true)
      }).pipe(span("InboxNotifications.list"))

    /** Marks every unread notification of the caller read. */
    const markAllRead = Effect.gen(function*() {
      const userId = yield* me
      yield* authorize("update", inboxObject(userId))
      yield* repo.markAllRead(userId, yield* now)
    }).pipe(span("InboxNotifications.markAllRead"))

    /** Marks the caller's notification `id` read or unread; another user's (or no) notification answers 404. */
    const setReadStatus = (id: string, read: boolean) =>
      Effect.gen(function*() {
        const userId = yield* me
        yield* authorizeRead("Inbox notification", inboxObject(userId, id))
        yield* authorize("update", inboxObject(userId, id))
        const updated = yield* repo.setReadAt(userId, id, read ? yield* now : null)
        if (Option.isNone(updated)) return yield* Effect.fail(NotFound.resource("Inbox notification"))
        const unread = yield* repo.unreadCount(userId)
        return new UpdateInboxNotificationReadStatusResponse({
          notification: inboxWire(updated.value),
          unread_count: unread
        }, true)
      }).pipe(span("InboxNotifications.setReadStatus"))

    /** The reader of one user's inbox in this process: its subscription, one read per signal, its listeners. */
    const reader = (userId: string) =>
      Effect.gen(function*() {
        const state: Reader = { listeners: new Set(), recent: [] }
        const signals = yield* pubsub.subscribe(inboxChannel(userId))
        watched.add(userId)
        yield* Effect.addFinalizer(() => Effect.sync(() => void watched.delete(userId)))
        /** The notification and the unread count it left: from this process's delivery, else read back (another replica's). */
        const load = (id: string) =>
          Effect.gen(function*() {
            const local = justStored.get(id)
            if (local !== undefined) {
              justStored.delete(id)
              return Option.some(local)
            }
            const found = yield* repo.find(userId, id)
            if (Option.isNone(found)) return Option.none()
            return Option.some({ record: found.value, unreadCount: yield* repo.unreadCount(userId) })
          })
        const read = (id: string) =>
          Effect.gen(function*() {
            const loaded = yield* load(id)
            if (Option.isNone(loaded)) return
            const { record, unreadCount } = loaded.value
            const made = new Map<InboxFormat, Uint8Array>()
            const event: InboxEvent & { readonly seq: number } = {
              seq: ++seq,
              record,
              unreadCount,
              message: (format) => {
                let bytes = made.get(format)
                if (bytes === undefined) {
                  const message = makeWatchMessage({
                    notification: inboxWire(record, format),
                    unread_count: unreadCount
                  })
                  bytes = Buffer.from(JSON.stringify(encodeWatchMessage(message)), "utf8")
                  made.set(format, bytes)
                }
                return bytes
              }
            }
            state.recent.push(event)
            if (state.recent.length > RECENT_EVENTS) state.recent.shift()
            for (const listener of state.listeners) deliverTo(listener, event)
          }).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("Could not read a new inbox notification", cause)),
            span("InboxNotifications.read")
          )
        yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
          const first = yield* Queue.take(signals)
          const rest = yield* Queue.takeAll(signals)
          // The resync message (a reopened Postgres connection) carries no id: nothing to read.
          for (const id of [first, ...rest]) if (id !== "") yield* read(id)
        })))
        return state
      })

    const readers = yield* RcMap.make({ lookup: reader, idleTimeToLive: READER_IDLE })

    /**
     * Checks that the caller may read their inbox (403 for a token without the kind), subscribes
     * (the user's reader in this process), then answers how to follow it: `listen(f)` calls `f`
     * with each new notification of the caller stored after this check, in this process or
     * another, until the scope closes; those that came between the check and `listen` (a socket
     * being upgraded) first. `f` must not block.
     */
    const follow = Effect.gen(function*() {
      const userId = yield* me
      yield* authorizeRead("Inbox", inboxObject(userId))
      // The subscription is in place once the reader is made; it outlives this scope by READER_IDLE.
      const since = yield* Effect.scoped(Effect.map(RcMap.get(readers, userId), () => seq))
      return {
        listen: (listener: InboxListener) =>
          Effect.flatMap(RcMap.get(readers, userId), (state) =>
            Effect.acquireRelease(
              Effect.sync(() => {
                for (const event of state.recent) if (event.seq > since) deliverTo(listener, event)
                state.listeners.add(listener)
              }),
              () => Effect.sync(() => void state.listeners.delete(listener))
            ))
      } satisfies InboxFollow
    }).pipe(span("InboxNotifications.follow"))

    return { deliver, list, markAllRead, setReadStatus, follow } as const
  })
}) {}

/** The `InboxDelivery` port on the inbox service: what the notifier's `inbox` method calls. */
export const InboxDeliveryLive: Layer.Layer<InboxDelivery, never, InboxNotifications> = Layer.effect(
  InboxDelivery,
  Effect.map(InboxNotifications, (inbox) => InboxDelivery.of({ deliver: inbox.deliver }))
)
