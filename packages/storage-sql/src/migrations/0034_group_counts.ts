import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0034: each organization's number of groups besides its Everyone group is kept in
 * `counters` (`groups:<organization id>`), moved by the group repository in the same transaction
 * as every group insert and delete, so the paginated groups listing counts in one row read
 * (docs/groups.md).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `INSERT INTO counters (name, value) SELECT 'groups:' || organization_id, count(*) FROM groups
    WHERE id <> organization_id GROUP BY organization_id`
]
