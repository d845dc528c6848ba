import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0037: failed sign-in attempts per account (docs/authentication.md, Failed sign-ins),
 * keyed by the kind and the normalized email (`password:<email>`, `otp:<email>`), so unknown
 * accounts are counted alike and every replica on the database sees one count.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE login_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_attempt_at ${ts} NOT NULL,
    blocked_until ${ts}
  )`,
  `CREATE INDEX login_failures_last_attempt ON login_failures (last_attempt_at)`
]
