/**
 * Handlers of the inbox group. The watch checks access before the upgrade, then each socket is a
 * listener of its user's one reader (`InboxNotifications.follow`): a new notification that
 * passes the socket's filters is sent as `{notification, unread_count}` in the socket's format,
 * its JSON made once per format for every watcher.
 */
import { InboxNotifications, matchesWatch } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { followSession, upgradeWebSocket } from "../WebSocket.js"

const withInbox = <A, E, R>(f: (i: InboxNotifications) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(InboxNotifications, f)

export const InboxHttp = implement(WorkbayApi, "inbox", {
  list: ({ urlParams }) => withInbox((i) => i.list(urlParams)),
  watch: ({ urlParams }) =>
    withInbox((i) =>
      Effect.flatMap(i.follow, (inbox) => {
        const format = urlParams.format ?? "markdown"
        return upgradeWebSocket(followSession((send) =>
          inbox.listen((event) => {
            if (matchesWatch(event.record, urlParams)) send(event.message(format))
          })
        ))
      })
    ),
  markAllRead: () => withInbox((i) => i.markAllRead),
  setReadStatus: ({ path, payload }) => withInbox((i) => i.setReadStatus(path.id, payload.is_read))
})
