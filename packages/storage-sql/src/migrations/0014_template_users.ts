import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0014: a template's `active_user_count` (the distinct owners of its undeleted
 * workspaces) is kept, so reading a template costs the same with 100 or 100,000 workspaces. In
 * `counters`: `template_owner:<template>:<owner>`, that owner's undeleted workspaces of the
 * template, and `template_users:<template>`, how many of those are above zero; both move in the
 * same transaction as each workspace insert, deletion and undeletion (`bumpCounts`).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `INSERT INTO counters (name, value) SELECT 'template_owner:' || template_id || ':' || owner_id, count(*)
     FROM workspaces WHERE deleted = FALSE GROUP BY template_id, owner_id`,
  `INSERT INTO counters (name, value) SELECT 'template_users:' || template_id, count(DISTINCT owner_id)
     FROM workspaces WHERE deleted = FALSE GROUP BY template_id`
]
