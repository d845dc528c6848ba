import { type DialectTypes, WORKSPACE_LIST_RANK_UPDATE } from "../Schema.js"

/**
 * Migration 0012: the workspace list reads along an index in its sort order. The sort keys live
 * on the row: `list_rank` (0 when the latest build is a succeeded start, see
 * {@link WORKSPACE_LIST_RANK_UPDATE}) and `owner_username` (the owner's lower-cased username,
 * rewritten when the owner is renamed). `workspaces_list` serves every caller's page and
 * `workspaces_owner_list` a page of one owner (`owner:me`). The counts of undeleted workspaces,
 * in all and per owner (`workspaces:<owner id>`), are kept in `counters` in the same
 * transaction as each insert and deletion.
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspaces ADD COLUMN owner_username TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE workspaces ADD COLUMN list_rank INTEGER NOT NULL DEFAULT 1`,
  `UPDATE workspaces SET owner_username = coalesce((SELECT lower(u.username) FROM users u WHERE u.id = workspaces.owner_id), '')`,
  WORKSPACE_LIST_RANK_UPDATE,
  `CREATE INDEX workspaces_list ON workspaces (deleted, list_rank, owner_username, lower(name), id)`,
  `CREATE INDEX workspaces_owner_list ON workspaces (owner_id, deleted, list_rank, owner_username, lower(name), id)`,
  `INSERT INTO counters (name, value) SELECT 'workspaces', count(*) FROM workspaces WHERE deleted = FALSE`,
  `INSERT INTO counters (name, value) SELECT 'workspaces:' || owner_id, count(*) FROM workspaces WHERE deleted = FALSE GROUP BY owner_id`
]
