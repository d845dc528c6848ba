import { type DialectTypes, LATEST_BUILD_STATUS_SET } from "../Schema.js"

/**
 * Migration 0032: each workspace keeps its latest build's status (`LATEST_BUILD_STATUS_SET`), so
 * the workspaces-by-status gauges read one index of the workspaces (O(workspaces) index entries,
 * no join) instead of joining every workspace to its latest build and job (docs/operations.md).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspaces ADD COLUMN latest_build_status TEXT`,
  `UPDATE workspaces SET ${LATEST_BUILD_STATUS_SET}`,
  `CREATE INDEX workspaces_latest_build_status ON workspaces (deleted, latest_build_status)`
]
