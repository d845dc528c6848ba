/**
 * Notification routes: the template catalog and its deployment-wide method overrides, users'
 * preferences, the notifier's settings, the dispatch methods, and custom and test
 * notifications (docs/notifications.md). The inbox routes are `InboxApi.ts`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  CustomNotificationRequest,
  NotificationMethodsResponse,
  NotificationPreference,
  NotificationsSettings,
  NotificationTemplate,
  UpdateNotificationsSettingsRequest,
  UpdateNotificationTemplateMethodRequest,
  UpdateUserNotificationPreferencesRequest
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, EmptyOk, Forbidden, NoContent, NotFound, UserPath, uuid } from "../Common.js"
import { Authentication } from "../Security.js"

const TemplatePath = Schema.Struct({ notification_template: uuid("Notification template id") })

export class NotificationsApi extends HttpApiGroup.make("notifications")
  .add(
    HttpApiEndpoint.get("systemTemplates", "/notifications/templates/system").addSuccess(
      Schema.Array(NotificationTemplate)
    )
  )
  .add(
    HttpApiEndpoint.get("customTemplates", "/notifications/templates/custom").addSuccess(
      Schema.Array(NotificationTemplate)
    )
  )
  .add(
    HttpApiEndpoint.put("updateTemplateMethod", "/notifications/templates/:notification_template/method")
      .annotate(Audited, audit("notification_template"))
      .setPath(TemplatePath)
      .setPayload(UpdateNotificationTemplateMethodRequest)
      .addSuccess(EmptyOk)
      // Nothing would change: no body, as the described system answers.
      .addSuccess(HttpApiSchema.Empty(304))
  )
  .add(
    HttpApiEndpoint.get("getPreferences", "/users/:user/notifications/preferences")
      .setPath(UserPath)
      .addSuccess(Schema.Array(NotificationPreference))
  )
  .add(
    HttpApiEndpoint.put("updatePreferences", "/users/:user/notifications/preferences").annotate(Audited, audit("user"))
      .setPath(UserPath)
      .setPayload(UpdateUserNotificationPreferencesRequest)
      .addSuccess(Schema.Array(NotificationPreference))
  )
  .add(HttpApiEndpoint.get("getSettings", "/notifications/settings").addSuccess(NotificationsSettings))
  .add(
    HttpApiEndpoint.put("updateSettings", "/notifications/settings").annotate(Audited, audit("notifications_settings"))
      .setPayload(UpdateNotificationsSettingsRequest)
      .addSuccess(NotificationsSettings)
      .addSuccess(HttpApiSchema.Empty(304))
  )
  .add(
    HttpApiEndpoint.get("dispatchMethods", "/notifications/dispatch-methods").addSuccess(NotificationMethodsResponse)
  )
  .add(
    // Enqueues a message; no resource changes (the described system does not audit it).
    HttpApiEndpoint.post("sendCustom", "/notifications/custom").annotate(Audited, false)
      .setPayload(CustomNotificationRequest)
      .addSuccess(NoContent)
  )
  .add(HttpApiEndpoint.post("sendTest", "/notifications/test").annotate(Audited, false).addSuccess(EmptyOk))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
