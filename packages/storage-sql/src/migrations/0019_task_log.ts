import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0019: a task's conversation (docs/tasks.md, "The conversation"), one row per entry of
 * a workspace, read and trimmed by (workspace, id) along `task_log_entries_workspace`; `bytes` is the
 * content's UTF-8 length, summed by the trim that keeps the newest entries under a byte budget.
 */
export const migration = ({ timestamp: ts, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE task_log_entries (
    id ${serialKey},
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    content TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    created_at ${ts} NOT NULL
  )`,
  `CREATE INDEX task_log_entries_workspace ON task_log_entries (workspace_id, id)`
]
