import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0029: builds by creation time, for the parameter usage of template insights (the
 * latest build of each workspace among those created in a range; docs/insights.md).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `CREATE INDEX workspace_builds_created_at ON workspace_builds (created_at)`
]
