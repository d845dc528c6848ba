import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0051: placement on provisioner hosts (docs/provisioner-daemons.md, "Placement"): the
 * host a job must run on (set when it is placed or pinned, or by the daemon that claims it), and
 * what its placement counted against that host until the host's reports show it.
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE provisioner_jobs ADD COLUMN host TEXT`,
  `ALTER TABLE provisioner_jobs ADD COLUMN placed_memory_bytes BIGINT NOT NULL DEFAULT 0`,
  `ALTER TABLE provisioner_jobs ADD COLUMN placed_cpus DOUBLE PRECISION NOT NULL DEFAULT 0`,
  `CREATE INDEX provisioner_jobs_placed ON provisioner_jobs (organization_id, host) WHERE host IS NOT NULL`
]
