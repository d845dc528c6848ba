/** Handlers of the notifications group. */
import { Notifications } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { notModified, orNotModified } from "../RequestContext.js"

export const NotificationsHttp = implement(WorkbayApi, "notifications", {
  systemTemplates: () => Effect.flatMap(Notifications, (n) => n.systemTemplates),
  customTemplates: () => Effect.flatMap(Notifications, (n) => n.customTemplates),
  updateTemplateMethod: ({ path, payload }) =>
    Effect.flatMap(Notifications, (n) => n.updateTemplateMethod(path.notification_template, payload.method)).pipe(
      Effect.flatMap((changed) => (changed ? Effect.void : notModified))
    ),
  getPreferences: ({ path }) => Effect.flatMap(Notifications, (n) => n.getPreferences(path.user)),
  updatePreferences: ({ path, payload }) =>
    Effect.flatMap(Notifications, (n) => n.updatePreferences(path.user, payload.template_disabled_map)),
  getSettings: () => Effect.flatMap(Notifications, (n) => n.getSettings),
  updateSettings: ({ payload }) => orNotModified(Effect.flatMap(Notifications, (n) => n.updateSettings(payload))),
  dispatchMethods: () => Effect.flatMap(Notifications, (n) => n.dispatchMethods),
  sendCustom: ({ payload }) => Effect.flatMap(Notifications, (n) => n.sendCustom(payload)),
  sendTest: () => Effect.flatMap(Notifications, (n) => n.sendTest)
})
