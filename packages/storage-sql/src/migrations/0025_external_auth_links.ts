import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0025: users' links to external auth providers (docs/external-auth.md). One row per
 * provider and user; the tokens are the provider's (handed to the user's workspace agents, so
 * kept as issued, never logged); `oauth_expiry` is NULL for a token that does not expire;
 * `oauth_extra` is JSON text or NULL. Listing a user's links reads `external_auth_links_user`.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE external_auth_links (
    provider_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    oauth_access_token TEXT NOT NULL,
    oauth_refresh_token TEXT NOT NULL DEFAULT '',
    oauth_expiry ${ts},
    oauth_extra TEXT,
    oauth_refresh_failure_reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (provider_id, user_id)
  )`,
  `CREATE INDEX external_auth_links_user ON external_auth_links (user_id, provider_id)`
]
