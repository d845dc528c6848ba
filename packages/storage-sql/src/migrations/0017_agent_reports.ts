import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0017: what an agent reports over its connection (docs/agents.md, "The agent
 * connection"). On the agent: whether its connection is open (`connected`, so the sweep of overdue
 * connections walks only open ones through `workspace_agents_open`), the directory it expanded,
 * its subsystems, the results of its scripts (JSON, by script id) and the metadata items its
 * template declares (JSON). Its metadata values, one
 * row per key. Its usage stats, one row per report, read by time for the deployment stats and
 * deleted after their retention through `workspace_agent_stats_created`.
 */
export const migration = ({ timestamp: ts, boolean: bool, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspace_agents ADD COLUMN connected ${bool} NOT NULL DEFAULT FALSE`,
  `ALTER TABLE workspace_agents ADD COLUMN expanded_directory TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE workspace_agents ADD COLUMN subsystems TEXT NOT NULL DEFAULT '[]'`,
  `ALTER TABLE workspace_agents ADD COLUMN script_results TEXT NOT NULL DEFAULT '{}'`,
  `ALTER TABLE workspace_agents ADD COLUMN metadata TEXT NOT NULL DEFAULT '[]'`,
  `ALTER TABLE workspace_agents ADD COLUMN app_health TEXT NOT NULL DEFAULT '{}'`,
  `CREATE INDEX workspace_agents_open ON workspace_agents (last_connected_at) WHERE connected = TRUE`,
  `CREATE TABLE workspace_agent_metadata (
    agent_id TEXT NOT NULL REFERENCES workspace_agents (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    collected_at ${ts} NOT NULL,
    age BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (agent_id, key)
  )`,
  `CREATE TABLE workspace_agent_stats (
    id ${serialKey},
    created_at ${ts} NOT NULL,
    agent_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    connections_by_proto TEXT NOT NULL DEFAULT '{}',
    connection_count BIGINT NOT NULL DEFAULT 0,
    connection_median_latency_ms DOUBLE PRECISION NOT NULL DEFAULT 0,
    rx_packets BIGINT NOT NULL DEFAULT 0,
    rx_bytes BIGINT NOT NULL DEFAULT 0,
    tx_packets BIGINT NOT NULL DEFAULT 0,
    tx_bytes BIGINT NOT NULL DEFAULT 0,
    session_count_vscode BIGINT NOT NULL DEFAULT 0,
    session_count_jetbrains BIGINT NOT NULL DEFAULT 0,
    session_count_reconnecting_pty BIGINT NOT NULL DEFAULT 0,
    session_count_ssh BIGINT NOT NULL DEFAULT 0
  )`,
  `CREATE INDEX workspace_agent_stats_created ON workspace_agent_stats (created_at)`,
  `CREATE INDEX workspace_agent_stats_agent ON workspace_agent_stats (agent_id, created_at)`
]
