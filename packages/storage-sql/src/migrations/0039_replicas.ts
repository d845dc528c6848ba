import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0039: the replicas of the deployment and where each is reached (`replicas`, as the
 * described system's), and the replica that holds each agent's connection
 * (`workspace_agents.last_connected_replica_id`), so a request for an agent is relayed to it
 * (docs/agents.md, "Several replicas").
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE replicas (
    id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    relay_address TEXT NOT NULL,
    region_id INTEGER NOT NULL DEFAULT 0,
    version TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    database_latency BIGINT NOT NULL DEFAULT 0,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE INDEX replicas_updated_at ON replicas (updated_at)`,
  `ALTER TABLE workspace_agents ADD COLUMN last_connected_replica_id TEXT`
]
