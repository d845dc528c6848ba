import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0011: what the workspace routes read. A build may be an orphan delete (the
 * provisioner is skipped). Listings: a workspace's favorites-first page walks
 * `workspaces_owner_favorite` for the requester's favorites; builds are read newest first per
 * workspace through `workspace_builds_number`; a job's build through `workspace_builds_job`.
 */
export const migration = ({ boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspace_builds ADD COLUMN orphan ${bool} NOT NULL DEFAULT FALSE`,
  `CREATE INDEX workspaces_owner_favorite ON workspaces (owner_id, favorite) WHERE deleted = FALSE`,
  `CREATE INDEX workspaces_undeleted_name ON workspaces (deleted, lower(name))`,
  `CREATE INDEX workspace_builds_created ON workspace_builds (workspace_id, created_at)`
]
