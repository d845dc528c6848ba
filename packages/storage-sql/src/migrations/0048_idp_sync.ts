import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0048: IdP sync (docs/sign-in.md). `idp_sync_settings` holds one JSON row per scope
 * (`organization`, `group:<organization id>`, `role:<organization id>`); `oidc_claim_fields` and
 * `oidc_claim_values` what each user's last OpenID Connect sign-in showed (names, and string
 * values), bounded per sign-in, which the settings' forms offer.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE idp_sync_settings (
    scope TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE TABLE oidc_claim_fields (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    PRIMARY KEY (user_id, field)
  )`,
  `CREATE INDEX oidc_claim_fields_field ON oidc_claim_fields (field)`,
  `CREATE TABLE oidc_claim_values (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (user_id, field, value)
  )`,
  `CREATE INDEX oidc_claim_values_field ON oidc_claim_values (field, value)`
]
