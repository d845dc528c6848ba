import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0047: the scope granted to each authorization code and refresh token (space-separated,
 * docs/oauth2.md "Scopes"); what was issued before carried `all`.
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE oauth2_provider_app_codes ADD COLUMN scope TEXT NOT NULL DEFAULT 'all'`,
  `ALTER TABLE oauth2_provider_app_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'all'`
]
