/**
 * The notifications area's query keys and queries: the signed-in user's inbox (one infinite query
 * of its pages, which inbox.ts keeps current), their preferences, and the deployment's side.
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query"
import { INBOX_PAGE_SIZE, inboxApi as api } from "./api.ts"

export const notificationKeys = {
  inbox: ["inbox"] as const,
  systemTemplates: ["notification-templates"] as const,
  /** The signed-in user's. */
  preferences: ["notification-preferences"] as const,
  settings: ["notifications-settings"] as const,
  dispatchMethods: ["notification-methods"] as const
}

/** The inbox's pages, 25 each, the next one starting before the last notification shown. */
export const inboxQuery = infiniteQueryOptions({
  queryKey: notificationKeys.inbox,
  queryFn: ({ pageParam }) => api.list(pageParam),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last) => last.notifications.length < INBOX_PAGE_SIZE ? undefined : last.notifications.at(-1)?.id
})

export const systemTemplatesQuery = queryOptions({
  queryKey: notificationKeys.systemTemplates,
  queryFn: api.systemTemplates
})

export const myPreferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: () => api.preferences("me")
})

export const notificationSettingsQuery = queryOptions({ queryKey: notificationKeys.settings, queryFn: api.settings })

export const dispatchMethodsQuery = queryOptions({
  queryKey: notificationKeys.dispatchMethods,
  queryFn: api.dispatchMethods
})
