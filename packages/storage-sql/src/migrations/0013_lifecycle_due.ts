import { type DialectTypes, LIFECYCLE_AT_ONCE, LIFECYCLE_RECHECK } from "../Schema.js"

/**
 * Migration 0013: the lifecycle executor reads only the workspaces due. `lifecycle_due_at` is
 * when the executor must next look at a workspace: the `lifecycleDueAt` of its state when the
 * executor last looked (NULL: no rule can fire until something changes), or the epoch ("at
 * once", {@link LIFECYCLE_RECHECK}) after a write to an input of the rules; `lifecycle_version`
 * counts those writes, so the executor stores its answer only if none came since it read the
 * workspace. `workspaces_lifecycle_due` holds the undeleted workspaces with a due time, in its
 * order: a tick reads `lifecycle_due_at <= tick` along it (`deleted` leads the key so that
 * SQLite's planner, without statistics, prefers it to `workspaces_undeleted_name`). Existing and
 * new workspaces start due at once: the first tick looks at each and stores its time.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspaces ADD COLUMN lifecycle_due_at ${ts} DEFAULT '${LIFECYCLE_AT_ONCE}'`,
  `ALTER TABLE workspaces ADD COLUMN lifecycle_version BIGINT NOT NULL DEFAULT 0`,
  `CREATE INDEX workspaces_lifecycle_due ON workspaces (deleted, lifecycle_due_at) WHERE deleted = FALSE AND lifecycle_due_at IS NOT NULL`
]
