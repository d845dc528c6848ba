import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0038: secrets at rest that are read back, encrypted with the deployment's keys
 * (docs/external-auth.md, "Tokens at rest"). Beside each such column, the digest of the key that
 * sealed it (`*_key_id`, NULL: stored as given). External auth links' tokens; the token of each
 * external agent (`workspace_agents.auth_token`, NULL for agents whose token is not kept, as the
 * provisioner was handed it), so that its credentials answer the same token for the build. The
 * keys a deployment has used (`dbcrypt_keys`, as the described system's): the active digests
 * with a sealed test value, and the revoked ones.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE external_auth_links ADD COLUMN oauth_access_token_key_id TEXT`,
  `ALTER TABLE external_auth_links ADD COLUMN oauth_refresh_token_key_id TEXT`,
  `ALTER TABLE workspace_agents ADD COLUMN auth_token TEXT`,
  `ALTER TABLE workspace_agents ADD COLUMN auth_token_key_id TEXT`,
  `CREATE TABLE dbcrypt_keys (
    number INTEGER PRIMARY KEY,
    active_key_digest TEXT UNIQUE,
    revoked_key_digest TEXT UNIQUE,
    created_at ${ts} NOT NULL,
    revoked_at ${ts},
    test TEXT NOT NULL
  )`
]
