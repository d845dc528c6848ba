/**
 * The request bodies and queries of the notifications area's routes (`/notifications/...`, a
 * user's notification preferences, the inbox). The routes in `http/src/notifications/` declare
 * them; the services take their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { isUuid } from "../Ids.js"
import { optionalOr, optionalParam, uuid, wireName } from "../Requests.js"
import { inboxReadStatuses } from "./InboxNotification.js"

/** codersdk `UpdateNotificationTemplateMethod`: `""` (or absent) goes back to the deployment default. */
export class UpdateNotificationTemplateMethodRequest
  extends Schema.Class<UpdateNotificationTemplateMethodRequest>("UpdateNotificationTemplateMethod")({
    method: optionalOr(
      Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." })),
      () => ""
    )
  }, wireName("UpdateNotificationTemplateMethod"))
{}

/** codersdk `UpdateUserNotificationPreferences`: template id to disabled. */
export class UpdateUserNotificationPreferencesRequest
  extends Schema.Class<UpdateUserNotificationPreferencesRequest>("UpdateUserNotificationPreferences")({
    template_disabled_map: Schema.Record({
      key: Schema.String,
      value: Schema.Boolean.annotations({ message: () => ({ message: "Must be true or false.", override: true }) })
    })
  }, wireName("UpdateUserNotificationPreferences"))
{}

/** codersdk `NotificationsSettings` as a request. */
export class UpdateNotificationsSettingsRequest
  extends Schema.Class<UpdateNotificationsSettingsRequest>("UpdateNotificationsSettings")({
    notifier_paused: Schema.Boolean.annotations({
      message: () => ({ message: "Must be true or false.", override: true })
    })
  }, wireName("NotificationsSettings"))
{}

const Text = Schema.String.pipe(Schema.maxLength(4096, { message: () => "Must be at most 4096 characters." }))

/** codersdk `CustomNotificationContent`. */
export class CustomNotificationContent extends Schema.Class<CustomNotificationContent>("CustomNotificationContent")({
  title: optionalOr(Text, () => ""),
  message: optionalOr(Text, () => "")
}, wireName("CustomNotificationContent")) {}

/** codersdk `CustomNotificationRequest`: POST /notifications/custom. */
export class CustomNotificationRequest extends Schema.Class<CustomNotificationRequest>("CustomNotificationRequest")({
  content: CustomNotificationContent
}, wireName("CustomNotificationRequest")) {}

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

/** The query of GET /notifications/inbox: filters, and the `starting_before` cursor. */
export const ListInboxNotificationsQuery = Schema.Struct({
  targets: optionalParam(UuidList),
  templates: optionalParam(UuidList),
  read_status: optionalParam(ReadStatus),
  starting_before: optionalParam(uuid("starting_before"))
})

/** The query of GET /notifications/inbox/watch: filters, and the format of the messages. */
export const WatchInboxNotificationsQuery = Schema.Struct({
  targets: optionalParam(UuidList),
  templates: optionalParam(UuidList),
  read_status: optionalParam(ReadStatus),
  format: optionalParam(Format)
})

/** PUT /notifications/inbox/{id}/read-status. */
export class UpdateInboxNotificationReadStatusRequest
  extends Schema.Class<UpdateInboxNotificationReadStatusRequest>("UpdateInboxNotificationReadStatusRequest")({
    is_read: Schema.Boolean
  }, wireName("UpdateInboxNotificationReadStatusRequest"))
{}
