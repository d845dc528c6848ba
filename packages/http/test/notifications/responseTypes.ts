/** The JSON Schemas of the notifications and the inbox response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  nullable,
  object,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // The described system's codersdk.InboxNotification and the inbox answers (docs/reference/api/notifications.md).
  InboxNotification: object({
    id: uuid,
    user_id: uuid,
    template_id: uuid,
    targets: arrayOf(uuid),
    title: string,
    content: string,
    icon: string,
    actions: arrayOf(object({ label: string, url: string }, ["label", "url"])),
    read_at: nullable(dateTime),
    created_at: dateTime
  }, ["id", "user_id", "template_id", "targets", "title", "content", "icon", "actions", "read_at", "created_at"]),
  ListInboxNotificationsResponse: object({ notifications: arrayOf(ref("InboxNotification")), unread_count: integer }, [
    "notifications",
    "unread_count"
  ]),
  GetInboxNotificationResponse: object({ notification: ref("InboxNotification"), unread_count: integer }, [
    "notification",
    "unread_count"
  ]),
  UpdateInboxNotificationReadStatusResponse: object({ notification: ref("InboxNotification"), unread_count: integer }, [
    "notification",
    "unread_count"
  ]),
  NotificationTemplate: {
    ...object({
      id: uuid,
      name: string,
      title_template: string,
      body_template: string,
      actions: string,
      group: string,
      method: string,
      kind: string,
      enabled_by_default: boolean
    }, ["id", "name", "title_template", "body_template", "actions", "group", "method", "kind", "enabled_by_default"]),
    additionalProperties: false
  },
  NotificationPreference: {
    ...object({ id: uuid, disabled: boolean, updated_at: dateTime }, ["id", "disabled", "updated_at"]),
    additionalProperties: false
  },
  NotificationMethodsResponse: {
    ...object({ available: arrayOf(string), default: string }, ["available", "default"]),
    additionalProperties: false
  },
  NotificationsSettings: { ...object({ notifier_paused: boolean }, ["notifier_paused"]), additionalProperties: false }
}
