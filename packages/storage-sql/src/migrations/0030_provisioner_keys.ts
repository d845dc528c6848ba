import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0030: provisioner keys (docs/provisioner-daemons.md): a name unique in its
 * organization (case-insensitive), the secret's SHA-256 only, unique so that a daemon's key is
 * found by its hash; and the key each external daemon row connected with.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE provisioner_keys (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    hashed_secret TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '{}',
    created_at ${ts} NOT NULL
  )`,
  `CREATE UNIQUE INDEX provisioner_keys_organization_name ON provisioner_keys (organization_id, lower(name))`,
  `CREATE UNIQUE INDEX provisioner_keys_hashed_secret ON provisioner_keys (hashed_secret)`,
  `ALTER TABLE provisioner_daemons ADD COLUMN key_id TEXT`
]
