import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0050: provisioner hosts (docs/provisioner-daemons.md, "Hosts and their capacity"):
 * the latest capacity report of each host external daemons run workspaces on, one row per host
 * of an organization; and the host each daemon row serves.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE provisioner_hosts (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '{}',
    provisioners TEXT NOT NULL DEFAULT '[]',
    version TEXT NOT NULL DEFAULT '',
    cpus BIGINT NOT NULL,
    cpus_promised DOUBLE PRECISION NOT NULL,
    memory_bytes BIGINT NOT NULL,
    memory_promised_bytes BIGINT NOT NULL,
    containers BIGINT NOT NULL,
    disk_free_bytes BIGINT,
    first_seen_at ${ts} NOT NULL,
    reported_at ${ts} NOT NULL,
    PRIMARY KEY (organization_id, name)
  )`,
  `ALTER TABLE provisioner_daemons ADD COLUMN host TEXT`
]
