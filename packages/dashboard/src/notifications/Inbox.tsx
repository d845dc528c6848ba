import { useMutation, useQueryClient } from "@tanstack/react-query"
import { ErrorMessage } from "../ui/Form.tsx"
import { Markdown } from "../ui/Markdown.tsx"
import { Time } from "../ui/Time.tsx"
import { inboxApi, type InboxNotification } from "./api.ts"
import { mapInbox, setInbox, useInbox } from "./inbox.ts"
import { notificationKeys } from "./queries.ts"
import "./styles.css"

/** An action's address when it is one a link may carry (http(s) or a path), else none. */
const safeUrl = (url: string) => {
  try {
    const u = new URL(url, location.origin)
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined
  } catch {
    return undefined
  }
}

/** A title as plain words (for names of controls): the markdown's markers left out. */
const plain = (markdown: string) => markdown.replace(/[*_`#>[\]]|\(\S*?\)/g, "").trim()

/**
 * The inbox (`GET /notifications/inbox`, 25 a page, newest first; older ones by
 * `starting_before`): each notification's title and content as markdown, its actions as links,
 * unread ones marked as such; mark one as read (`PUT .../{id}/read-status`) or all
 * (`PUT .../mark-all-as-read`). New ones arrive live through the frame's watch.
 */
export const InboxPage = () => {
  const inbox = useInbox()
  const queryClient = useQueryClient()
  const markRead = useMutation({
    mutationFn: (n: InboxNotification) => inboxApi.setRead(n.id, true),
    onSuccess: ({ notification, unread_count }) =>
      setInbox(queryClient, (d) => mapInbox(d, (n) => n.id === notification.id ? notification : n, unread_count))
  })
  const markAll = useMutation({
    mutationFn: inboxApi.markAllRead,
    onSuccess: () => {
      const now = new Date().toISOString()
      setInbox(queryClient, (d) => mapInbox(d, (n) => n.read_at === null ? { ...n, read_at: now } : n, 0))
      // The exact read times, in the background.
      void queryClient.invalidateQueries({ queryKey: notificationKeys.inbox })
    }
  })
  const notifications = inbox.data?.pages.flatMap((p) => p.notifications) ?? []
  const unread = inbox.data?.pages[0]?.unread_count ?? 0
  return (
    <section className="inbox" aria-labelledby="inbox-title">
      <div className="inbox-head">
        <h1 id="inbox-title">Inbox</h1>
        <p role="status" aria-label="Unread notifications">{unread === 0 ? "All read" : `${unread} unread`}</p>
        <button type="button" onClick={() => markAll.mutate()} disabled={unread === 0 || markAll.isPending}>
          Mark all as read
        </button>
      </div>
      <ErrorMessage error={inbox.error ?? markRead.error ?? markAll.error} />
      {inbox.isPending
        ? <p role="status">Loading…</p>
        : notifications.length === 0
        ? <p className="empty">No notifications yet.</p>
        : (
          <ul className="notifications" aria-label="Notifications">
            {notifications.map((n) => {
              const isUnread = n.read_at === null
              const titleId = `notification-${n.id}`
              return (
                <li key={n.id} className={isUnread ? "unread" : "read"} aria-labelledby={titleId}>
                  <article>
                    <header>
                      <h2 id={titleId}>
                        {isUnread ? <span className="visually-hidden">Unread:</span> : null}
                        <Markdown inline>{n.title}</Markdown>
                      </h2>
                      <Time value={n.created_at} />
                    </header>
                    <div className="content">
                      <Markdown>{n.content}</Markdown>
                    </div>
                    <div className="notification-actions">
                      {n.actions.map((a) => {
                        const href = safeUrl(a.url)
                        return href === undefined
                          ? <span key={a.label + a.url}>{a.label}</span>
                          : <a key={a.label + a.url} href={href}>{a.label}</a>
                      })}
                      {isUnread
                        ? (
                          <button
                            type="button"
                            className="secondary"
                            disabled={markRead.isPending && markRead.variables?.id === n.id}
                            onClick={() => markRead.mutate(n)}
                          >
                            Mark <span className="visually-hidden">“{plain(n.title)}”{" "}</span>as read
                          </button>
                        )
                        : <span className="read-mark">Read</span>}
                    </div>
                  </article>
                </li>
              )
            })}
          </ul>
        )}
      {inbox.hasNextPage
        ? (
          <div className="pager">
            <button
              type="button"
              className="secondary"
              onClick={() => void inbox.fetchNextPage()}
              disabled={inbox.isFetchingNextPage}
            >
              Older notifications
            </button>
          </div>
        )
        : null}
    </section>
  )
}
