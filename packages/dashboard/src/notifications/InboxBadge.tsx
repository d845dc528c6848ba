import { useQueryClient } from "@tanstack/react-query"
import { useEffect } from "react"
import { NavLink } from "react-router"
import "./badge.css"
import { watchInbox } from "./api.ts"
import { addToInbox, setInbox, useInbox } from "./inbox.ts"
import { notificationKeys } from "./queries.ts"

/**
 * The frame's link to the inbox with the unread count ("Inbox, 2 unread" to assistive
 * technology), live: the inbox's watch puts each new notification into the cached inbox.
 */
export const InboxBadge = () => {
  const inbox = useInbox()
  const queryClient = useQueryClient()
  useEffect(
    () =>
      watchInbox(
        (m) => setInbox(queryClient, (d) => addToInbox(d, m.notification, m.unread_count)),
        () => void queryClient.invalidateQueries({ queryKey: notificationKeys.inbox })
      ),
    [queryClient]
  )
  const unread = inbox.data?.pages[0]?.unread_count ?? 0
  const count = unread > 99 ? "99+" : String(unread)
  return (
    // The name holds the visible text ("Inbox 2", as axe asks), with what the count is.
    <NavLink to="/inbox" className="inbox-badge" aria-label={`Inbox, ${count} unread`}>
      Inbox{unread > 0
        ? (
          <>
            {" "}
            <span className="count">{count}</span>
          </>
        )
        : null}
    </NavLink>
  )
}
