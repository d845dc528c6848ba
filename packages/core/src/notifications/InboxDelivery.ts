/**
 * The inbox method's port: how the notifier (`Notifier`, the `inbox` method) hands a rendered
 * notification to the per-user inbox (`InboxNotifications`). It is a port so that the two halves
 * of the notifications area meet in one place; docs/notifications.md.
 */
import { Context, type Effect } from "effect"

/** An action button of a notification: a label and the link it opens (absolute, on the access URL). */
export interface InboxAction {
  readonly label: string
  readonly url: string
}

/** A rendered notification for one user's inbox. */
export interface InboxDeliveryInput {
  /** The notification message's id; the inbox notification takes it, so a retried send stores it once. */
  readonly id: string
  readonly userId: string
  readonly templateId: string
  /** Ids the notification is about (the workspace, the template...), matched by the inbox's `targets` filter. */
  readonly targets: ReadonlyArray<string>
  /** Rendered title and body, in markdown. */
  readonly title: string
  readonly content: string
  readonly icon: string
  readonly actions: ReadonlyArray<InboxAction>
  readonly createdAt: Date
}

export class InboxDelivery extends Context.Tag("@workbay/core/InboxDelivery")<InboxDelivery, {
  /** Stores the notification (once per id) and tells the user's watchers, on every replica. */
  readonly deliver: (input: InboxDeliveryInput) => Effect.Effect<void>
}>() {}
