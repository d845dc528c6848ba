import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0028: workspace proxies (docs/workspace-proxies.md). Names are unique among live
 * proxies (case-insensitive); a deleted proxy keeps its row. `token_hashed_secret` is the SHA-256
 * of the token's secret part. The health checker writes `status`, `status_report` (JSON text
 * `{errors, warnings}`) and `status_checked_at`. The primary proxy's display name and icon sit in
 * `site_configs`.
 */
export const migration = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE workspace_proxies (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL DEFAULT '',
    wildcard_hostname TEXT NOT NULL DEFAULT '',
    derp_enabled ${bool} NOT NULL DEFAULT TRUE,
    derp_only ${bool} NOT NULL DEFAULT FALSE,
    version TEXT NOT NULL DEFAULT '',
    deleted ${bool} NOT NULL DEFAULT FALSE,
    token_hashed_secret TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    status TEXT NOT NULL DEFAULT 'unregistered',
    status_report TEXT NOT NULL DEFAULT '{"errors":[],"warnings":[]}',
    status_checked_at ${ts} NOT NULL
  )`,
  `CREATE UNIQUE INDEX workspace_proxies_lower_name ON workspace_proxies (lower(name)) WHERE deleted = FALSE`
]
