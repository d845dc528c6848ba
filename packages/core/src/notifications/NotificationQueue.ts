/**
 * The notification queue's front door: `NotificationQueue.enqueue` stores pending messages for
 * one user and one template, one per delivery method. The areas call it when something happens
 * (an account suspended, a workspace deleted...); the notifier (Notifier.ts) sends them.
 *
 * Which methods: the template's deployment-wide override, else the deployment default
 * (`notifications.method`, `smtp` by default), plus `inbox` when the inbox is on (as the
 * described system enqueues one message per method). A method that is not configured (smtp
 * without a smarthost and a from address, webhook without an endpoint) is skipped: nothing
 * could send it. A template the user turned off (or one off by default that they did not turn
 * on) enqueues nothing. The same message (template, user, method, payload, targets) is stored
 * once a day at most (`dedupe_hash`).
 *
 * A stored message wakes the notifiers: a signal on `NOTIFIER_WAKE_CHANNEL` (PubSub; on Postgres
 * a NOTIFY, delivered to every replica when the enqueuing transaction commits), so the message
 * goes out at once instead of at the next periodic fetch.
 */
import { Clock, Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { IdGenerator } from "../Ids.js"
import { PubSub } from "../PubSub.js"
import { Settings, type SettingsShape } from "../Settings.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import type { NotificationPayload } from "./NotificationMessage.js"
import { NotificationRepo } from "./NotificationMessage.js"
import {
  findTemplate,
  isNotificationMethod,
  type NotificationMethod,
  type TemplateDefinition
} from "./NotificationTemplate.js"

/** What the areas enqueue. */
export interface EnqueueInput {
  readonly templateId: string
  /** The recipient. */
  readonly userId: string
  readonly labels: Readonly<Record<string, string>>
  readonly data?: Readonly<Record<string, unknown>> | undefined
  /** Ids the notification is about (the workspace, the template...), for the inbox's filter. */
  readonly targets?: ReadonlyArray<string> | undefined
  /** Who or what enqueued it (`"users"`, `"lifecycle"`, a user id...), kept with the message. */
  readonly createdBy: string
}

/** The PubSub channel on which a stored message wakes every replica's notifier (Notifier.ts). */
export const NOTIFIER_WAKE_CHANNEL = "notifier_wake"

/** The version of the payload's shape, as the described system's. */
export const PAYLOAD_VERSION = "1.2"

/** Whether `method` can be sent with the deployment's settings. */
export const methodConfigured = (method: NotificationMethod, settings: SettingsShape): boolean => {
  switch (method) {
    case "smtp":
      return settings.emailSmarthost !== "" && settings.emailFrom !== ""
    case "webhook":
      return settings.notificationsWebhookEndpoint !== ""
    case "inbox":
      return settings.notificationsInboxEnabled
  }
}

/** The deployment's default method: `notifications.method` when it names one, else smtp. */
export const defaultMethod = (settings: SettingsShape): NotificationMethod =>
  isNotificationMethod(settings.notificationsMethod) ? settings.notificationsMethod : "smtp"

/**
 * The methods a message of a template goes out by: its override or the default, and the inbox
 * (unless `withInbox` is false: a one-time passcode stays out of it).
 */
export const methodsFor = (
  override: NotificationMethod | undefined,
  settings: SettingsShape,
  withInbox = true
): ReadonlyArray<NotificationMethod> => {
  const main = override ?? defaultMethod(settings)
  const all: Array<NotificationMethod> = [main]
  if (withInbox && settings.notificationsInboxEnabled && main !== "inbox") all.push("inbox")
  return all.filter((m) => methodConfigured(m, settings))
}

const dedupeHash = (
  templateId: string,
  userId: string,
  method: string,
  payload: NotificationPayload,
  targets: ReadonlyArray<string>,
  now: Date
) =>
  createHash("sha256")
    .update(JSON.stringify([templateId, userId, method, payload, targets, now.toISOString().slice(0, 10)]))
    .digest("hex")

export class NotificationQueue extends Effect.Service<NotificationQueue>()("@workbay/core/NotificationQueue", {
  effect: Effect.gen(function*() {
    const repo = yield* NotificationRepo
    const users = yield* UserRepo
    const settings = yield* Settings
    const ids = yield* IdGenerator
    const pubsub = yield* PubSub

    /** Whether the user gets `template` (their preference, else its default). */
    const wanted = (userId: string, template: TemplateDefinition) =>
      Effect.map(repo.preferences(userId), (prefs) => {
        const pref = prefs.find((p) => p.template_id === template.id)
        return pref === undefined ? template.enabledByDefault : !pref.disabled
      })

    /**
     * Enqueues the message by every method the template goes out by; answers the ids of the
     * messages stored (none when the user turned the template off, no method is configured, the
     * user is gone, or the same message was enqueued today already).
     */
    const enqueue = (input: EnqueueInput): Effect.Effect<ReadonlyArray<string>> =>
      Effect.gen(function*() {
        const template = findTemplate(input.templateId)
        if (template === undefined) {
          return yield* Effect.dieMessage(`Unknown notification template ${input.templateId}.`)
        }
        const user = Option.getOrUndefined(yield* users.findById(input.userId))
        if (user === undefined || user.deleted) return []
        if (template.required !== true && !(yield* wanted(user.id, template))) return []
        const overrides = yield* repo.templateMethods
        const methods = methodsFor(overrides.get(template.id) ?? template.method, settings, template.inbox !== false)
        if (methods.length === 0) return []
        const targets = input.targets ?? []
        const payload: NotificationPayload = {
          _version: PAYLOAD_VERSION,
          notification_name: template.name,
          notification_template_id: template.id,
          user_id: user.id,
          user_email: user.email,
          user_name: user.name,
          user_username: user.username,
          labels: input.labels,
          data: input.data ?? null,
          targets: targets.length === 0 ? null : targets
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        const stored: Array<string> = []
        for (const method of methods) {
          const id = yield* ids.uuid
          const fresh = yield* repo.enqueue({
            id,
            template_id: template.id,
            user_id: user.id,
            method,
            created_by: input.createdBy,
            payload,
            targets,
            created_at: now,
            dedupe_hash: dedupeHash(template.id, user.id, method, payload, targets, now)
          })
          if (fresh) stored.push(id)
        }
        // One signal for the messages of this call; the notifiers coalesce bursts.
        if (stored.length > 0) yield* pubsub.publish(NOTIFIER_WAKE_CHANNEL, "")
        return stored
      }).pipe(span("NotificationQueue.enqueue"))

    /**
     * `enqueue` for events of the areas: a failure is logged, never the event's failure (a
     * suspended account stays suspended when its notification cannot be stored).
     */
    const notify = (input: EnqueueInput): Effect.Effect<void> =>
      enqueue(input).pipe(
        Effect.asVoid,
        Effect.catchAllCause((cause) =>
          Effect.logWarning(`Notification ${input.templateId} for ${input.userId} not enqueued`, cause)
        )
      )

    /** The active users holding one of `roles` (site roles), each once. */
    const usersWithRoles = (roles: ReadonlyArray<string>) =>
      Effect.map(
        Effect.forEach(roles, (role) => users.list({ role, status: "active", limit: 1000, offset: 0 })),
        (pages) => [...new Map(pages.flatMap((p) => p.users).map((u) => [u.id, u])).values()]
      )

    /**
     * `notify` for every holder of `roles` (as the described system tells its user admins about
     * accounts, its template admins about templates), but `except` (the user the event is about).
     */
    const notifyRoles = (
      roles: ReadonlyArray<string>,
      input: Omit<EnqueueInput, "userId">,
      except?: string
    ): Effect.Effect<void> =>
      usersWithRoles(roles).pipe(
        Effect.flatMap((found) =>
          Effect.forEach(found.filter((u) => u.id !== except), (u) => notify({ ...input, userId: u.id }), {
            discard: true
          })
        ),
        Effect.catchAllCause((cause) => Effect.logWarning(`Notification ${input.templateId} not enqueued`, cause))
      )

    return { enqueue, notify, notifyRoles } as const
  })
}) {}
