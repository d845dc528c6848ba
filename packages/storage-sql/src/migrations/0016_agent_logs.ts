import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0016: agent logs, log sources and app statuses. Lines are read by (agent, id) along
 * `workspace_agent_logs_agent` and purged by age along `workspace_agent_logs_created`. An
 * agent's declared log sources and its apps' latest statuses (bounded: see APP_STATUSES_KEPT) are
 * JSON on its row, read with it; a workspace's newest app status is JSON on the workspace's row.
 */
export const migration = ({ timestamp: ts, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE workspace_agent_logs (
    id ${serialKey},
    agent_id TEXT NOT NULL REFERENCES workspace_agents (id) ON DELETE CASCADE,
    created_at ${ts} NOT NULL,
    level TEXT NOT NULL,
    output TEXT NOT NULL,
    log_source_id TEXT NOT NULL
  )`,
  `CREATE INDEX workspace_agent_logs_agent ON workspace_agent_logs (agent_id, id)`,
  `CREATE INDEX workspace_agent_logs_created ON workspace_agent_logs (created_at)`,
  `ALTER TABLE workspace_agents ADD COLUMN log_sources TEXT NOT NULL DEFAULT '[]'`,
  `ALTER TABLE workspace_agents ADD COLUMN app_statuses TEXT NOT NULL DEFAULT '{}'`,
  `ALTER TABLE workspaces ADD COLUMN latest_app_status TEXT`
]
