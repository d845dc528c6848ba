import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0005: every user's tokens by login type, newest first, for the token list's
 * `include_all` (the described system lists all tokens unpaged); sessions, usually most
 * of the keys, are never read for it.
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `CREATE INDEX api_keys_login_type ON api_keys (login_type, created_at)`
]
