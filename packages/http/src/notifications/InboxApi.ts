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
  inboxReadStatuses,
  isUuid,
  ListInboxNotificationsResponse,
  UpdateInboxNotificationReadStatusResponse
} from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import { BadRequest, Forbidden, NoContent, NotFound, optionalParam, uuid, wireName } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

/** `targets`, `templates`: comma-separated ids (the dispatcher splits them); one validation for the parameter. */
const UuidList = Schema.Array(Schema.String).pipe(
  Schema.filter((ids) => {
    const bad = ids.filter((id) => !isUuid(id))
    return bad.length === 0 ||
      `Must be a comma-separated list of UUIDs; not a UUID: ${
        bad.slice(0, 5).map((b) => `"${b.slice(0, 64)}"`).join(", ")
      }.`
  })
)

const ReadStatus = Schema.Literal(...inboxReadStatuses).annotations({
  message: () => ({ message: "Must be one of 'all', 'read', 'unread'.", override: true })
})

const Format = Schema.Literal("markdown", "plaintext").annotations({
  message: () => ({ message: "Must be 'markdown' or 'plaintext'.", override: true })
})

export class UpdateInboxNotificationReadStatusRequest
  extends Schema.Class<UpdateInboxNotificationReadStatusRequest>("UpdateInboxNotificationReadStatusRequest")({
    is_read: Schema.Boolean
  }, wireName("UpdateInboxNotificationReadStatusRequest"))
{}

const InboxPath = Schema.Struct({ id: uuid("Inbox notification id") })

export class InboxApi extends HttpApiGroup.make("inbox")
  .add(
    HttpApiEndpoint.get("list", "/notifications/inbox")
      .setUrlParams(Schema.Struct({
        targets: optionalParam(UuidList),
        templates: optionalParam(UuidList),
        read_status: optionalParam(ReadStatus),
        starting_before: optionalParam(uuid("starting_before"))
      }))
      .addSuccess(ListInboxNotificationsResponse)
  )
  .add(
    HttpApiEndpoint.get("watch", "/notifications/inbox/watch")
      .setUrlParams(Schema.Struct({
        targets: optionalParam(UuidList),
        templates: optionalParam(UuidList),
        read_status: optionalParam(ReadStatus),
        format: optionalParam(Format)
      }))
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
