import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0021: notifications (docs/notifications.md). The templates live in code; stored are a
 * template's deployment-wide method override (`notification_template_methods`), users' preferences
 * (`notification_preferences`), the queue (`notification_messages`: leased oldest first along
 * `notification_messages_due`, a message once a day at most by `dedupe_hash`), and `site_configs`,
 * a small key/value store of deployment settings (`notifier_paused`; appearance later).
 */
export const migration = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE site_configs (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`,
  `CREATE TABLE notification_template_methods (
    template_id TEXT PRIMARY KEY,
    method TEXT NOT NULL
  )`,
  `CREATE TABLE notification_preferences (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    template_id TEXT NOT NULL,
    disabled ${bool} NOT NULL DEFAULT FALSE,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    PRIMARY KEY (user_id, template_id)
  )`,
  `CREATE TABLE notification_messages (
    id TEXT PRIMARY KEY,
    template_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    status_reason TEXT NOT NULL DEFAULT '',
    created_by TEXT NOT NULL,
    payload TEXT NOT NULL,
    targets TEXT NOT NULL DEFAULT '[]',
    attempt_count INTEGER NOT NULL DEFAULT 0,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    leased_until ${ts},
    next_retry_after ${ts},
    sent_at ${ts},
    dedupe_hash TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX notification_messages_dedupe ON notification_messages (dedupe_hash)`,
  `CREATE INDEX notification_messages_due ON notification_messages (created_at)
    WHERE status IN ('pending', 'leased', 'temporary_failure')`,
  `CREATE INDEX notification_messages_user ON notification_messages (user_id, created_at)`
]
