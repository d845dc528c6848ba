/**
 * Inbox notifications: the stored record (one notification in one user's inbox), its repository
 * port, its wire records (the described system's `InboxNotification`,
 * `ListInboxNotificationsResponse`, `GetInboxNotificationResponse`,
 * `UpdateInboxNotificationReadStatusResponse`), how authorization names it and the PubSub channel
 * of a user's inbox. Rules live in `InboxNotifications`; see docs/inbox.md.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { AuthzObject } from "../Rbac.js"
import type { InboxAction } from "./InboxDelivery.js"

/** A stored inbox notification. */
export interface InboxNotificationRecord {
  /** The notification message's id (a retried send stores it once). */
  readonly id: string
  readonly user_id: string
  readonly template_id: string
  readonly targets: ReadonlyArray<string>
  /** Markdown, as rendered by the notifier. */
  readonly title: string
  readonly content: string
  readonly icon: string
  readonly actions: ReadonlyArray<InboxAction>
  readonly read_at: Date | null
  readonly created_at: Date
}

/** `read_status` of a listing or a watch. */
export const inboxReadStatuses = ["all", "read", "unread"] as const
export type InboxReadStatus = (typeof inboxReadStatuses)[number]

/** A page of one user's inbox, newest first. Empty lists mean "no filter". */
export interface InboxFilter {
  readonly userId: string
  /** Notifications whose targets contain every one of these. */
  readonly targets: ReadonlyArray<string>
  /** Notifications of any of these templates. */
  readonly templates: ReadonlyArray<string>
  readonly readStatus: InboxReadStatus
  /** Only notifications older than this one, by `(created_at, id)`. */
  readonly before?: { readonly createdAt: Date; readonly id: string } | undefined
  readonly limit: number
}

export class InboxNotificationRepo extends Context.Tag("@workbay/core/InboxNotificationRepo")<InboxNotificationRepo, {
  /**
   * Stores the notification unless one with its id exists. The user's unread count moves with
   * it; answers that count as this insert left it, or `undefined` when nothing was stored (a
   * retried send).
   */
  readonly insert: (n: InboxNotificationRecord) => Effect.Effect<number | undefined>
  /** The notification `id` of user `userId`. */
  readonly find: (userId: string, id: string) => Effect.Effect<Option.Option<InboxNotificationRecord>>
  readonly list: (filter: InboxFilter) => Effect.Effect<ReadonlyArray<InboxNotificationRecord>>
  /** How many of the user's notifications are unread (a kept count: one row read). */
  readonly unreadCount: (userId: string) => Effect.Effect<number>
  /**
   * Sets the read state of the user's notification `id` (`readAt`, or unread when null); a
   * notification already in that state keeps its `read_at`. None when the user has no such one.
   */
  readonly setReadAt: (
    userId: string,
    id: string,
    readAt: Date | null
  ) => Effect.Effect<Option.Option<InboxNotificationRecord>>
  /** Marks every unread notification of the user read at `readAt`. */
  readonly markAllRead: (userId: string, readAt: Date) => Effect.Effect<void>
}>() {}

/** How authorization names a user's inbox notification (or, without `id`, their inbox). */
export const inboxObject = (userId: string, id?: string): AuthzObject =>
  id === undefined
    ? { type: "inbox_notification", ownerId: userId }
    : { type: "inbox_notification", id, ownerId: userId }

/** The PubSub channel of a user's inbox: its signal is the new notification's id. */
export const inboxChannel = (userId: string): string => `inbox_${userId.replaceAll("-", "").toLowerCase()}`

export class InboxNotificationAction extends Schema.Class<InboxNotificationAction>("InboxNotificationAction")({
  label: Schema.String,
  url: Schema.String
}) {}

export class InboxNotification extends Schema.Class<InboxNotification>("InboxNotification")({
  id: Schema.UUID,
  user_id: Schema.UUID,
  template_id: Schema.UUID,
  targets: Schema.Array(Schema.UUID),
  title: Schema.String,
  content: Schema.String,
  icon: Schema.String,
  actions: Schema.Array(InboxNotificationAction),
  read_at: Schema.NullOr(Schema.Date),
  created_at: Schema.Date
}) {}

export class ListInboxNotificationsResponse
  extends Schema.Class<ListInboxNotificationsResponse>("ListInboxNotificationsResponse")({
    notifications: Schema.Array(InboxNotification),
    unread_count: Schema.Int
  })
{}

/** One message of the watch: a new notification and the user's unread count. */
export class GetInboxNotificationResponse
  extends Schema.Class<GetInboxNotificationResponse>("GetInboxNotificationResponse")({
    notification: InboxNotification,
    unread_count: Schema.Int
  })
{}

export class UpdateInboxNotificationReadStatusResponse
  extends Schema.Class<UpdateInboxNotificationReadStatusResponse>("UpdateInboxNotificationReadStatusResponse")({
    notification: InboxNotification,
    unread_count: Schema.Int
  })
{}
