import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0020: app sessions, so that a path-based app's open is written to the connection log
 * once per session (docs/agents.md, "Web apps"), whatever replica serves its requests. A session is
 * keyed by the SHA-256 of its agent, app, user, ip, user agent and status (`key_hash`: the user agent
 * can be long); `id` changes when a request comes after the session went idle, which tells the
 * caller a new session started. Idle ones are deleted along `workspace_app_sessions_updated`.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE workspace_app_sessions (
    key_hash TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    agent_id TEXT NOT NULL REFERENCES workspace_agents (id) ON DELETE CASCADE,
    started_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE INDEX workspace_app_sessions_updated ON workspace_app_sessions (updated_at)`
]
