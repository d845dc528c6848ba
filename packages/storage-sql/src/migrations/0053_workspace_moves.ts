import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0053: moves of stopped workspaces between provisioner hosts (docs/provisioner-daemons.md,
 * "Moving a workspace"): the hosts, the three jobs, the hashes of the link tokens, the replica the
 * links meet on and the volumes as the new host verified them.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE workspace_moves (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    from_host TEXT NOT NULL,
    to_host TEXT NOT NULL,
    initiator_id TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    export_job_id TEXT NOT NULL,
    import_job_id TEXT NOT NULL,
    cleanup_job_id TEXT,
    export_token_hash TEXT NOT NULL DEFAULT '',
    import_token_hash TEXT NOT NULL DEFAULT '',
    relay_replica TEXT NOT NULL DEFAULT '',
    volumes TEXT NOT NULL DEFAULT '[]'
  )`,
  `CREATE INDEX workspace_moves_workspace ON workspace_moves (workspace_id, created_at)`
]
