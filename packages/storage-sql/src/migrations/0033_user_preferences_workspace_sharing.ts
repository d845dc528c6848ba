import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0033: each user's preference settings (`GET/PUT /users/{user}/preferences`), a JSON
 * object holding only the settings the user changed (the rest take their defaults when read); and
 * whose workspaces an organization lets be shared (`shareable_workspace_owners`: `everyone`,
 * `service_accounts` or `none`; docs/workspaces.md, Sharing).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE users ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}'`,
  `ALTER TABLE organizations ADD COLUMN shareable_workspace_owners TEXT NOT NULL DEFAULT 'everyone'`
]
