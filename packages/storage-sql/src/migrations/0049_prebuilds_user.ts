import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0049: prebuilt workspaces (docs/prebuilds.md). Users get `is_system`, and the
 * described system's prebuilds user (its fixed id) is inserted as one: login type `none`, no
 * password, not listed, not counted (the kept user counts do not move).
 */
export const migration = ({ boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE users ADD COLUMN is_system ${bool} NOT NULL DEFAULT FALSE`,
  `INSERT INTO users (id, email, username, name, login_type, status, rbac_roles, hashed_password,
    created_at, updated_at, last_seen_at, is_system)
    VALUES ('c42fdf75-3097-471c-8c33-fb52454d81c0', 'prebuilds@system', 'prebuilds', 'Prebuilds', 'none', 'active',
    '[]', NULL, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', TRUE)`
]
