import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0026: usage insights (docs/insights.md). Hourly rollups per user and template of the
 * raw usage rows, keyed by `hour` (whole hours since 1970-01-01 UTC, the same integer on both
 * dialects, so reports bucket with integer arithmetic): minutes of use by kind and the hour's
 * median connection latency (`insights_usage_hourly`), and app opens with their seconds
 * (`insights_app_usage_hourly`); reports read them by hour along their primary keys. The rollup's watermark and last pass
 * (`insights_rollup_state`, one row). Users' recorded status changes (`user_status_changes`, read
 * by time) and the last recorded status of each user (`user_status_latest`), which the rollup diffs
 * against `users`.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE insights_usage_hourly (
    hour BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    usage_mins INTEGER NOT NULL DEFAULT 0,
    ssh_mins INTEGER NOT NULL DEFAULT 0,
    vscode_mins INTEGER NOT NULL DEFAULT 0,
    jetbrains_mins INTEGER NOT NULL DEFAULT 0,
    reconnecting_pty_mins INTEGER NOT NULL DEFAULT 0,
    latency_ms DOUBLE PRECISION,
    PRIMARY KEY (hour, user_id, template_id)
  )`,
  `CREATE INDEX insights_usage_hourly_template ON insights_usage_hourly (template_id, hour)`,
  `CREATE TABLE insights_app_usage_hourly (
    hour BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    seconds BIGINT NOT NULL DEFAULT 0,
    times_used BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (hour, user_id, template_id, slug)
  )`,
  // The same sums per UTC day (`day`: whole days since 1970-01-01), refolded from the day's hours
  // whenever one of them is, so long ranges read a row per user, template and day.
  `CREATE TABLE insights_usage_daily (
    day BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    usage_mins INTEGER NOT NULL DEFAULT 0,
    ssh_mins INTEGER NOT NULL DEFAULT 0,
    vscode_mins INTEGER NOT NULL DEFAULT 0,
    jetbrains_mins INTEGER NOT NULL DEFAULT 0,
    reconnecting_pty_mins INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, user_id, template_id)
  )`,
  `CREATE TABLE insights_app_usage_daily (
    day BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    seconds BIGINT NOT NULL DEFAULT 0,
    times_used BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, user_id, template_id, slug)
  )`,
  `CREATE TABLE insights_rollup_state (
    id INTEGER PRIMARY KEY,
    watermark ${ts} NOT NULL,
    ran_at ${ts} NOT NULL
  )`,
  `CREATE TABLE user_status_changes (
    user_id TEXT NOT NULL,
    status TEXT NOT NULL,
    changed_at ${ts} NOT NULL
  )`,
  `CREATE INDEX user_status_changes_time ON user_status_changes (changed_at)`,
  `CREATE TABLE user_status_latest (
    user_id TEXT PRIMARY KEY,
    status TEXT NOT NULL
  )`
]
