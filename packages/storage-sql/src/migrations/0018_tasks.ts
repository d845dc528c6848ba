import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0018: AI tasks (docs/tasks.md). A task is a prompt and the workspace that runs it;
 * its `deleted` follows its workspace's (set in the same transaction as the workspace's), so the
 * task leaves listings once the delete build has run. Names are unique per owner among undeleted
 * tasks. Listings read one owner's (or one organization's) newest tasks along
 * `tasks_owner_created` (`tasks_organization_created`, `tasks_created`), a page at a time.
 * A workspace names its task in `task_id`. `app_slug` is the version's AI task app, kept from creation.
 */
export const migration = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    owner_id TEXT NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    prompt TEXT NOT NULL DEFAULT '',
    template_id TEXT NOT NULL REFERENCES templates (id),
    template_version_id TEXT NOT NULL REFERENCES template_versions (id),
    app_slug TEXT NOT NULL DEFAULT '',
    template_version_preset_id TEXT,
    workspace_id TEXT REFERENCES workspaces (id) ON DELETE CASCADE,
    deleted ${bool} NOT NULL DEFAULT FALSE
  )`,
  `CREATE UNIQUE INDEX tasks_owner_name ON tasks (owner_id, lower(name)) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_owner_created ON tasks (owner_id, created_at DESC, id DESC) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_organization_created ON tasks (organization_id, created_at DESC, id DESC) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_created ON tasks (created_at DESC, id DESC) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_workspace ON tasks (workspace_id)`,
  `ALTER TABLE workspaces ADD COLUMN task_id TEXT`
]
