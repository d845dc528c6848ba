import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0046: a task's log snapshot (docs/tasks.md, "Log snapshots"), the copy of its AI agent's
 * conversation the agent uploads (`POST /workspaceagents/me/tasks/{task}/log-snapshot`), one per task
 * (the latest upload replaces the previous), read by the task's logs once the agent is gone.
 * `log_snapshot` is the stored envelope `{format, data}` as JSON text (at most 64 KiB of payload).
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE task_log_snapshots (
    task_id TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    log_snapshot TEXT NOT NULL,
    created_at ${ts} NOT NULL
  )`
]
