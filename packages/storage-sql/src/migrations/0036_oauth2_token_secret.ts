import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0036: a refresh token records the client secret its client authenticated with when
 * the pair was issued (null for public clients and for pairs issued before), so deleting the
 * secret deletes what it issued (docs/oauth2.md).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE oauth2_provider_app_tokens ADD COLUMN app_secret_id TEXT`,
  `CREATE INDEX oauth2_provider_app_tokens_secret ON oauth2_provider_app_tokens (app_secret_id)`
]
