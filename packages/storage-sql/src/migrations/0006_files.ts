import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0006: uploaded files (archives template versions are built from). One row per
 * creator and sha256 of the bytes, so the same upload by the same user answers the same id.
 */
export const migration = ({ timestamp: ts, binary }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE files (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    mimetype TEXT NOT NULL,
    data ${binary} NOT NULL
  )`,
  `CREATE UNIQUE INDEX files_hash_created_by_key ON files (hash, created_by)`
]
