/**
 * The per-user inbox: list the caller's notifications (filters and the `starting_before`
 * cursor), mark them all read, set one's read status, and watch new ones (a WebSocket). Paths,
 * queries and answers as the described system's `/api/v2/notifications/inbox`; see docs/inbox.md.
 *
 * Not audited, as the described system (inbox notifications are none of its audit resource
 * types): the read state is the user's own bookkeeping.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  ListInboxNotificationsQuery,
  ListInboxNotificationsResponse,
  UpdateInboxNotificationReadStatusRequest,
  UpdateInboxNotificationReadStatusResponse,
  WatchInboxNotificationsQuery
} from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import { BadRequest, Forbidden, NoContent, NotFound, uuid } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const InboxPath = Schema.Struct({ id: uuid("Inbox notification id") })

export class InboxApi extends HttpApiGroup.make("inbox")
  .add(
    HttpApiEndpoint.get("list", "/notifications/inbox")
      .setUrlParams(ListInboxNotificationsQuery)
      .addSuccess(ListInboxNotificationsResponse)
  )
  .add(
    HttpApiEndpoint.get("watch", "/notifications/inbox/watch")
      .setUrlParams(WatchInboxNotificationsQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    HttpApiEndpoint.put("markAllRead", "/notifications/inbox/mark-all-as-read").annotate(Audited, false)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.put("setReadStatus", "/notifications/inbox/:id/read-status").annotate(Audited, false)
      .setPath(InboxPath)
      .setPayload(UpdateInboxNotificationReadStatusRequest)
      .addSuccess(UpdateInboxNotificationReadStatusResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
