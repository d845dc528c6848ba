/**
 * The inbox's calls: a page of notifications (25, newest first, the next page by
 * `starting_before`), marking read (one, all), the watch of new ones, and each user's
 * notification preferences against the system templates.
 */
import { client, type Schemas, unwrap, webSocketUrl } from "../api/client.ts"

export type InboxNotification = Schemas["InboxNotification"]
export type InboxPage = Schemas["ListInboxNotificationsResponse"]

/** The service's page size of `GET /notifications/inbox` (it takes no limit). */
export const INBOX_PAGE_SIZE = 25

export const inboxApi = {
  list: (startingBefore?: string) =>
    unwrap(client.GET("/api/v2/notifications/inbox", {
      params: { query: startingBefore === undefined ? {} : { starting_before: startingBefore } }
    })),
  setRead: (id: string, isRead: boolean) =>
    unwrap(client.PUT("/api/v2/notifications/inbox/{id}/read-status", {
      params: { path: { id } },
      body: { is_read: isRead }
    })),
  markAllRead: () => unwrap(client.PUT("/api/v2/notifications/inbox/mark-all-as-read")),
  systemTemplates: () => unwrap(client.GET("/api/v2/notifications/templates/system")),
  preferences: (user: string) =>
    unwrap(client.GET("/api/v2/users/{user}/notifications/preferences", { params: { path: { user } } })),
  updatePreferences: (user: string, disabled: Record<string, boolean>) =>
    unwrap(client.PUT("/api/v2/users/{user}/notifications/preferences", {
      params: { path: { user } },
      body: { template_disabled_map: disabled }
    })),
  // The deployment's side (administrators): the notifier's pause, each template's method, a test.
  settings: () => unwrap(client.GET("/api/v2/notifications/settings")),
  updateSettings: (notifierPaused: boolean) =>
    unwrap(client.PUT("/api/v2/notifications/settings", { body: { notifier_paused: notifierPaused } })),
  dispatchMethods: () => unwrap(client.GET("/api/v2/notifications/dispatch-methods")),
  updateMethod: (template: string, method: string) =>
    unwrap(client.PUT("/api/v2/notifications/templates/{notification_template}/method", {
      params: { path: { notification_template: template } },
      body: { method }
    })),
  sendTest: () => unwrap(client.POST("/api/v2/notifications/test"))
}

/** A frame of the inbox's watch: a new notification and the unread count after it. */
export interface InboxWatchMessage {
  readonly notification: InboxNotification
  readonly unread_count: number
}

/**
 * Follows `GET /notifications/inbox/watch`: `onMessage` gets each frame (JSON, as text or as
 * binary UTF-8). When the socket drops, it opens again after a pause and calls `onReconnect`
 * (what was missed meanwhile is read again by the caller). Returns the function that stops.
 */
export const watchInbox = (onMessage: (m: InboxWatchMessage) => void, onReconnect: () => void) => {
  let stopped = false
  let socket: WebSocket | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  const decoder = new TextDecoder()
  const open = (again: boolean) => {
    const s = new WebSocket(webSocketUrl("/notifications/inbox/watch?format=markdown"))
    socket = s
    s.binaryType = "arraybuffer"
    s.onopen = () => {
      if (stopped) s.close()
      else if (again) onReconnect()
    }
    s.onmessage = (event) => {
      const text = typeof event.data === "string" ? event.data : decoder.decode(event.data as ArrayBuffer)
      onMessage(JSON.parse(text) as InboxWatchMessage)
    }
    s.onclose = () => {
      if (!stopped) retry = setTimeout(() => open(true), 3_000)
    }
  }
  open(false)
  return () => {
    stopped = true
    clearTimeout(retry)
    // Closing a socket still connecting is reported as an error by browsers: close it once open.
    if (socket !== undefined && socket.readyState !== WebSocket.CONNECTING) socket.close()
  }
}
