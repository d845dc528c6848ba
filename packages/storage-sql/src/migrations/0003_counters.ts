import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0003: kept counts. `users` is the number of live users and `users_active`
 * the live active ones; the user repository changes them in the same transaction as
 * every insert, deletion and status change, so listing users counts in one row read.
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
  )`,
  `INSERT INTO counters (name, value) SELECT 'users', count(*) FROM users WHERE deleted = FALSE`,
  `INSERT INTO counters (name, value) SELECT 'users_active', count(*) FROM users WHERE deleted = FALSE AND status = 'active'`
]
