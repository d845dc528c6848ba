import type { DialectTypes } from "../Schema.js"

/**
 * 0015: agents' cloud instance ids, for the instance identity routes (a signed document names the
 * instance; the route finds its agents by this index).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspace_agents ADD COLUMN instance_id TEXT NOT NULL DEFAULT ''`,
  `CREATE INDEX workspace_agents_instance ON workspace_agents (instance_id)`
]
