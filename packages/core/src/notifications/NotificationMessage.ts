/**
 * The notification queue's records and the repository port of the notifications area: queued
 * messages, the deployment's per-template method overrides, users' preferences and the small
 * key/value store of deployment settings (`site_configs`, where `notifier_paused` lives).
 */
import { Context, type Effect, type Option } from "effect"
import type { NotificationMethod } from "./NotificationTemplate.js"

/**
 * A message's state (the described system's `notification_message_status`): `pending` until a
 * notifier leases it, `leased` while one sends it, then `sent`, or `temporary_failure` (leased
 * again after `next_retry_after`) until the attempts run out: `permanent_failure`.
 */
export type NotificationMessageStatus = "pending" | "leased" | "sent" | "temporary_failure" | "permanent_failure"

/** What a message carries for its templates (the described system's payload, version 1.2). */
export interface NotificationPayload {
  readonly _version: string
  readonly notification_name: string
  readonly notification_template_id: string
  readonly user_id: string
  readonly user_email: string
  readonly user_name: string
  readonly user_username: string
  readonly labels: Readonly<Record<string, string>>
  readonly data: Readonly<Record<string, unknown>> | null
  readonly targets: ReadonlyArray<string> | null
}

export interface NotificationMessageRecord {
  readonly id: string
  readonly template_id: string
  readonly user_id: string
  readonly method: NotificationMethod
  readonly status: NotificationMessageStatus
  readonly status_reason: string
  readonly created_by: string
  readonly payload: NotificationPayload
  readonly targets: ReadonlyArray<string>
  /** Attempts that ended (a failure or the success). */
  readonly attempt_count: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly leased_until: Date | null
  readonly next_retry_after: Date | null
  readonly sent_at: Date | null
  /**
   * SHA-256 of template, user, method, payload, targets and day: the same message is enqueued
   * once a day at most (a unique index drops the second).
   */
  readonly dedupe_hash: string
}

export type NewNotificationMessage = Omit<
  NotificationMessageRecord,
  "status" | "status_reason" | "attempt_count" | "updated_at" | "leased_until" | "next_retry_after" | "sent_at"
>

/** A stored preference: `disabled` for one user and template. */
export interface NotificationPreferenceRecord {
  readonly user_id: string
  readonly template_id: string
  readonly disabled: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

/** The lease of one fetch. */
export interface LeaseRequest {
  readonly now: Date
  /** When the lease ends (now + lease period): a message still leased then is leased again. */
  readonly leasedUntil: Date
  readonly count: number
  /** Messages that already failed this many times are not leased again. */
  readonly maxAttempts: number
}

export class NotificationRepo extends Context.Tag("@workbay/core/NotificationRepo")<NotificationRepo, {
  /** The deployment's method override per template id (templates without one are absent). */
  readonly templateMethods: Effect.Effect<ReadonlyMap<string, NotificationMethod>>
  /** Sets (or with `null` removes) a template's method override. */
  readonly setTemplateMethod: (templateId: string, method: NotificationMethod | null) => Effect.Effect<void>

  /** A user's stored preferences, by template id. */
  readonly preferences: (userId: string) => Effect.Effect<ReadonlyArray<NotificationPreferenceRecord>>
  /**
   * Stores `disabled` for each template of `changes` (one statement per template, created or
   * changed); answers how many rows changed.
   */
  readonly setPreferences: (
    userId: string,
    changes: ReadonlyArray<{ readonly templateId: string; readonly disabled: boolean }>,
    now: Date
  ) => Effect.Effect<number>

  /** A deployment setting of `site_configs`. */
  readonly siteConfig: (key: string) => Effect.Effect<Option.Option<string>>
  readonly setSiteConfig: (key: string, value: string) => Effect.Effect<void>

  /** Stores a pending message; false when its dedupe hash is already there (nothing stored). */
  readonly enqueue: (message: NewNotificationMessage) => Effect.Effect<boolean>
  /**
   * Leases up to `count` messages that are pending, due for a retry, or whose lease ran out,
   * oldest first, in one statement (on Postgres `FOR UPDATE SKIP LOCKED`, so notifiers of
   * several processes never lease one message twice).
   */
  readonly lease: (request: LeaseRequest) => Effect.Effect<ReadonlyArray<NotificationMessageRecord>>
  /**
   * Marks a leased message sent. False when it was no longer leased until `leasedUntil` by this
   * lease. With `payload`, the stored payload is replaced (the notifier drops secrets it carried).
   */
  readonly markSent: (id: string, leasedUntil: Date, now: Date, payload?: NotificationPayload) => Effect.Effect<boolean>
  /**
   * Marks a leased message failed: `temporary_failure` with `retryAfter`, or `permanent_failure`
   * when `retryAfter` is null; the attempt counts either way.
   */
  readonly markFailed: (
    id: string,
    leasedUntil: Date,
    reason: string,
    retryAfter: Date | null,
    now: Date,
    payload?: NotificationPayload
  ) => Effect.Effect<boolean>
  /**
   * Hands leased messages back (a notifier stopping before it sent them): `pending` again, without
   * lease, their attempts unchanged. Only messages still leased until `leasedUntil` are touched.
   */
  readonly release: (ids: ReadonlyArray<string>, leasedUntil: Date, now: Date) => Effect.Effect<number>
  readonly findMessage: (id: string) => Effect.Effect<Option.Option<NotificationMessageRecord>>
  /** A user's messages, oldest first (tests, diagnostics). */
  readonly messagesOf: (userId: string) => Effect.Effect<ReadonlyArray<NotificationMessageRecord>>
}>() {}

/** Labels that carry a secret (a one-time passcode): kept only until the message is sent or failed for good. */
const SECRET_LABEL = /passcode|password|secret|token/i

/** `payload` without its secret labels (their values replaced), or undefined when it has none. */
export const withoutSecretLabels = (payload: NotificationPayload): NotificationPayload | undefined => {
  const secret = Object.keys(payload.labels).filter((k) => SECRET_LABEL.test(k))
  if (secret.length === 0) return undefined
  return { ...payload, labels: { ...payload.labels, ...Object.fromEntries(secret.map((k) => [k, "[REDACTED]"])) } }
}
