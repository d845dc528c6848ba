import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0027: licenses (docs/enterprise.md). One row per uploaded license: the JWT as
 * uploaded, its `uuid` (the license's `jti` when it is one), and `exp`, the end of its grace
 * period, along which the entitlements read the unexpired ones. The appearance lives in
 * `site_configs` (migration 0021).
 */
export const migration = ({ timestamp: ts, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE licenses (
    id ${serialKey},
    uuid TEXT NOT NULL,
    uploaded_at ${ts} NOT NULL,
    jwt TEXT NOT NULL,
    exp ${ts} NOT NULL
  )`,
  `CREATE UNIQUE INDEX licenses_uuid ON licenses (uuid)`,
  `CREATE INDEX licenses_exp ON licenses (exp)`
]
