import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0022: the per-user inbox (docs/inbox.md). `id` is the notification message's id (a
 * retried send stores nothing more); `targets` and `actions` are JSON text. Every page of a
 * user's inbox reads along an index that starts with the user and ends with `(created_at DESC,
 * id DESC)`: all, unread, read, per template (and per template unread), and per target through
 * `inbox_notification_targets` (one row per notification and target). The unread count is a
 * kept count in `counters` (`inbox_unread:<user id>`).
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE inbox_notifications (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    template_id TEXT NOT NULL,
    targets TEXT NOT NULL DEFAULT '[]',
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    icon TEXT NOT NULL DEFAULT '',
    actions TEXT NOT NULL DEFAULT '[]',
    read_at ${ts},
    created_at ${ts} NOT NULL
  )`,
  `CREATE INDEX inbox_notifications_user_created ON inbox_notifications (user_id, created_at DESC, id DESC)`,
  `CREATE INDEX inbox_notifications_user_unread ON inbox_notifications (user_id, created_at DESC, id DESC) WHERE read_at IS NULL`,
  `CREATE INDEX inbox_notifications_user_read ON inbox_notifications (user_id, created_at DESC, id DESC) WHERE read_at IS NOT NULL`,
  `CREATE INDEX inbox_notifications_user_template ON inbox_notifications (user_id, template_id, created_at DESC, id DESC)`,
  `CREATE INDEX inbox_notifications_user_template_unread ON inbox_notifications (user_id, template_id, created_at DESC, id DESC)
    WHERE read_at IS NULL`,
  `CREATE TABLE inbox_notification_targets (
    notification_id TEXT NOT NULL REFERENCES inbox_notifications (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    PRIMARY KEY (notification_id, target_id)
  )`,
  `CREATE INDEX inbox_notification_targets_user_target ON inbox_notification_targets (user_id, target_id, created_at DESC, notification_id DESC)`
]
