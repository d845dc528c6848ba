import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0035: custom organization roles (docs/authorization.md, Custom roles), unique by
 * organization and name; `org_permissions` is a JSON array of `{negate, resource_type, action}`.
 * Members hold them by name in `organization_members.roles`, like the built-in roles.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE custom_roles (
    id TEXT NOT NULL UNIQUE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    org_permissions TEXT NOT NULL DEFAULT '[]',
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    PRIMARY KEY (organization_id, name)
  )`
]
