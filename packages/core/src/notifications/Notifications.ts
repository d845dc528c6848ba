/**
 * The Notifications service: what the notification routes do (docs/notifications.md).
 *
 * - Templates: every user reads the catalog; owners set a template's deployment-wide method
 *   (`notification_template` `update`), `""` going back to the default.
 * - Preferences: a user reads and sets their own (`notification_preference`, owned); owners
 *   anyone's. Reading someone else's without the grant answers 404.
 * - Settings: every user reads `notifier_paused`; changing it needs `update` on
 *   `deployment_config` (owners).
 * - Dispatch methods: every user.
 * - Custom notifications: any user who is not a service account sends one to themselves.
 * - Test notifications: owners (`update` on `deployment_config`), to themselves.
 */
import { Clock, Effect, Option } from "effect"
import { authorize, authorizeRead, authorizeVisible, CurrentActor } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import type { UserRecord } from "../users/User.js"
import { resolveUserRef } from "../users/UserRef.js"
import { NotificationRepo } from "./NotificationMessage.js"
import { defaultMethod, NotificationQueue } from "./NotificationQueue.js"
import {
  customTemplate,
  findTemplate,
  isNotificationMethod,
  notificationMethods,
  NotificationMethodsResponse,
  NotificationPreference,
  NotificationsSettings,
  systemTemplates,
  TemplateIds,
  toNotificationTemplate
} from "./NotificationTemplate.js"
import type { CustomNotificationRequest, UpdateNotificationsSettingsRequest } from "./Requests.js"

/** The `site_configs` key of the notifier's pause. */
export const NOTIFIER_PAUSED_KEY = "notifier_paused"

const templateObject = (id?: string) =>
  ({ type: "notification_template", ...(id === undefined ? {} : { id }) }) as const
const preferenceObject = (u: UserRecord) => ({ type: "notification_preference", ownerId: u.id, id: u.id }) as const
const userObject = (u: UserRecord) => ({ type: "user", id: u.id, ownerId: u.id }) as const

export class Notifications extends Effect.Service<Notifications>()("@workbay/core/Notifications", {
  effect: Effect.gen(function*() {
    const repo = yield* NotificationRepo
    const queue = yield* NotificationQueue
    const users = yield* UserRepo
    const settings = yield* Settings
    const ids = yield* IdGenerator

    const templatesOf = (list: ReadonlyArray<typeof customTemplate>) =>
      Effect.gen(function*() {
        yield* authorize("read", templateObject())
        const overrides = yield* repo.templateMethods
        return list.map((t) => toNotificationTemplate(t, overrides.get(t.id) ?? t.method ?? ""))
      })

    /** GET /notifications/templates/system. */
    const systemTemplateList = templatesOf(systemTemplates).pipe(span("Notifications.systemTemplates"))

    /** GET /notifications/templates/custom. */
    const customTemplateList = templatesOf([customTemplate]).pipe(span("Notifications.customTemplates"))

    /**
     * PUT /notifications/templates/{id}/method: `""` removes the override. Answers false when
     * nothing changed (304).
     */
    const updateTemplateMethod = (id: string, method: string) =>
      Effect.gen(function*() {
        const template = isUuid(id) ? findTemplate(id) : undefined
        if (template === undefined) return yield* NotFound.resource("Notification template")
        yield* authorize("update", templateObject(template.id))
        if (method !== "" && !isNotificationMethod(method)) {
          return yield* BadRequest.field(
            "method",
            `"${method}" is not a notification method: use one of ${
              notificationMethods.map((m) => `"${m}"`).join(", ")
            }, or "" for the default.`,
            "Invalid request to update notification template method"
          )
        }
        const before = (yield* repo.templateMethods).get(template.id) ?? ""
        if (before === method) return false
        yield* repo.setTemplateMethod(template.id, method === "" ? null : method as typeof notificationMethods[number])
        yield* auditResource(
          { type: "notification_template", id: template.id, target: template.name },
          { method: before },
          { method }
        )
        return true
      }).pipe(span("Notifications.updateTemplateMethod"))

    /** Resolves `{user}` (an id, a username or `me`); deleted users are not found. */
    const resolveUser = (ref: string) =>
      Effect.tap(resolveUserRef(users, ref), (u) => authorizeVisible("User", userObject(u)))

    const preferencesOf = (userId: string) =>
      Effect.map(
        repo.preferences(userId),
        (rows) =>
          rows.map((p) =>
            new NotificationPreference({ id: p.template_id, disabled: p.disabled, updated_at: p.updated_at }, true)
          )
      )

    /** GET /users/{user}/notifications/preferences: the preferences the user stored. */
    const getPreferences = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* resolveUser(ref)
        yield* authorizeRead("User", preferenceObject(user))
        return yield* preferencesOf(user.id)
      }).pipe(span("Notifications.getPreferences"))

    /** PUT /users/{user}/notifications/preferences: sets each template of the map; answers them all. */
    const updatePreferences = (ref: string, map: Readonly<Record<string, boolean>>) =>
      Effect.gen(function*() {
        const user = yield* resolveUser(ref)
        yield* authorize("update", preferenceObject(user))
        const problems: Array<Validation> = []
        const changes: Array<{ templateId: string; disabled: boolean }> = []
        for (const [id, disabled] of Object.entries(map)) {
          const template = isUuid(id) ? findTemplate(id) : undefined
          if (template === undefined) {
            problems.push(
              new Validation({ field: `template_disabled_map.${id}`, detail: "No notification template has this id." })
            )
          } else changes.push({ templateId: template.id, disabled })
        }
        if (problems.length > 0) {
          return yield* new BadRequest({
            message: "Invalid request to update notification preferences.",
            validations: problems
          })
        }
        const before = yield* repo.preferences(user.id)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* repo.setPreferences(user.id, changes, now)
        const after = yield* repo.preferences(user.id)
        const asMap = (rows: typeof before) => Object.fromEntries(rows.map((p) => [p.template_id, p.disabled]))
        yield* auditResource(
          { type: "user", id: user.id, target: user.username },
          { notification_preferences: asMap(before) },
          { notification_preferences: asMap(after) }
        )
        return after.map((p) =>
          new NotificationPreference({ id: p.template_id, disabled: p.disabled, updated_at: p.updated_at }, true)
        )
      }).pipe(span("Notifications.updatePreferences"))

    const paused = Effect.map(repo.siteConfig(NOTIFIER_PAUSED_KEY), (v) => Option.getOrUndefined(v) === "true")

    /** GET /notifications/settings. */
    const getSettings = paused.pipe(
      Effect.map((notifier_paused) => new NotificationsSettings({ notifier_paused }, true)),
      span("Notifications.getSettings")
    )

    /** PUT /notifications/settings: Some of the settings, or None when nothing changed (304). */
    const updateSettings = (input: typeof UpdateNotificationsSettingsRequest.Type) =>
      Effect.gen(function*() {
        yield* authorize("update", { type: "deployment_config" })
        const before = yield* paused
        if (before === input.notifier_paused) return Option.none<NotificationsSettings>()
        yield* repo.setSiteConfig(NOTIFIER_PAUSED_KEY, String(input.notifier_paused))
        yield* auditResource(
          { type: "notifications_settings", id: "00000000-0000-0000-0000-000000000000", target: "" },
          { notifier_paused: before },
          { notifier_paused: input.notifier_paused }
        )
        return Option.some(new NotificationsSettings({ notifier_paused: input.notifier_paused }, true))
      }).pipe(span("Notifications.updateSettings"))

    /** GET /notifications/dispatch-methods. */
    const dispatchMethods = Effect.succeed(
      new NotificationMethodsResponse({ available: [...notificationMethods], default: defaultMethod(settings) }, true)
    )

    /** POST /notifications/custom: enqueues the custom template for the caller. */
    const sendCustom = (input: typeof CustomNotificationRequest.Type) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const title = input.content.title.trim()
        const message = input.content.message.trim()
        if (title === "" && message === "") {
          return yield* new BadRequest({
            message: "Invalid request body",
            detail: "Provide a non-empty title or message.",
            validations: [
              new Validation({ field: "content.title", detail: "A title or a message is required." }),
              new Validation({ field: "content.message", detail: "A title or a message is required." })
            ]
          })
        }
        if (actor.user.is_service_account) {
          return yield* new Forbidden({
            message: "Forbidden",
            detail: "System users cannot send custom notifications."
          })
        }
        yield* queue.enqueue({
          templateId: TemplateIds.customNotification,
          userId: actor.user.id,
          labels: { custom_title: title, custom_message: message },
          createdBy: "custom_notification"
        })
      }).pipe(span("Notifications.sendCustom"))

    /** POST /notifications/test: enqueues the test notification for the caller (owners). */
    const sendTest = Effect.gen(function*() {
      yield* authorize("update", { type: "deployment_config" })
      const actor = yield* CurrentActor
      // A nonce in the data, so that each test goes out (the same message is otherwise sent once a day).
      yield* queue.enqueue({
        templateId: TemplateIds.testNotification,
        userId: actor.user.id,
        labels: {},
        data: { test_notification_id: yield* ids.uuid },
        createdBy: "test_notification"
      })
    }).pipe(span("Notifications.sendTest"))

    return {
      systemTemplates: systemTemplateList,
      customTemplates: customTemplateList,
      updateTemplateMethod,
      getPreferences,
      updatePreferences,
      getSettings,
      updateSettings,
      paused,
      dispatchMethods,
      sendCustom,
      sendTest
    } as const
  })
}) {}
