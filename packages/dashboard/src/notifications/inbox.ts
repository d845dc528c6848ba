/**
 * The signed-in user's inbox in the query cache: the pages of `GET /notifications/inbox` (one
 * infinite query, shared by the badge of the frame and the inbox page), kept current by the
 * watch (a new notification goes on top of the first page with the new unread count) and by
 * the answers of marking read, so nothing is fetched again for either.
 */
import { type InfiniteData, type QueryClient, useInfiniteQuery } from "@tanstack/react-query"
import type { InboxNotification, InboxPage } from "./api.ts"
import { inboxQuery, notificationKeys } from "./queries.ts"

export type InboxData = InfiniteData<InboxPage, string | undefined>

export const useInbox = () => useInfiniteQuery(inboxQuery)

/** The inbox's data with `f` applied to every notification and the unread count set. */
export const mapInbox = (
  data: InboxData | undefined,
  f: (n: InboxNotification) => InboxNotification,
  unread: number
): InboxData | undefined =>
  data === undefined ? undefined : {
    ...data,
    pages: data.pages.map((p, i) => ({
      notifications: p.notifications.map(f),
      unread_count: i === 0 ? unread : p.unread_count
    }))
  }

/** A new notification (from the watch) on top of the first page, once. */
export const addToInbox = (
  data: InboxData | undefined,
  notification: InboxNotification,
  unread: number
): InboxData | undefined => {
  if (data === undefined || data.pages.length === 0) return data
  const known = data.pages.some((p) => p.notifications.some((n) => n.id === notification.id))
  const [first, ...rest] = data.pages
  return {
    ...data,
    pages: [
      {
        notifications: known ? first!.notifications : [notification, ...first!.notifications],
        unread_count: unread
      },
      ...rest
    ]
  }
}

export const setInbox = (
  queryClient: QueryClient,
  f: (data: InboxData | undefined) => InboxData | undefined
) => queryClient.setQueryData<InboxData>(notificationKeys.inbox, f)
