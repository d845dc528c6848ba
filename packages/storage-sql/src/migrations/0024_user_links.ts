import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0024: user links (docs/sign-in.md). One row per user and outside login type; the
 * provider's id of the identity is unique per login type. `claims` and `synced_group_ids` are
 * JSON text; no provider token is stored. Login conversions are found by their state string
 * (its primary key) and deleted when used.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE user_links (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    login_type TEXT NOT NULL,
    linked_id TEXT NOT NULL,
    claims TEXT NOT NULL DEFAULT '{}',
    synced_group_ids TEXT NOT NULL DEFAULT '[]',
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    PRIMARY KEY (user_id, login_type)
  )`,
  `CREATE UNIQUE INDEX user_links_linked_id ON user_links (login_type, linked_id)`
]
