import { JOB_STATUS_SQL } from "@workbay/core"
import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0007: the provisioner job queue and its logs. A job's status is a stored
 * generated column over its timestamps (the rule of `jobStatus` in core), for filters.
 * Indexes: the pending jobs by (provisioner, created_at), partial, so a claim reads only
 * pending entries however many jobs finished; the started, unfinished jobs by updated_at for
 * the hang detector; an organization's jobs newest first for listings.
 */
export const migration = ({ timestamp: ts, boolean: bool, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE provisioner_jobs (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    started_at ${ts},
    canceled_at ${ts},
    completed_at ${ts},
    error TEXT NOT NULL DEFAULT '',
    error_code TEXT NOT NULL DEFAULT '',
    organization_id TEXT NOT NULL,
    initiator_id TEXT NOT NULL,
    provisioner TEXT NOT NULL,
    type TEXT NOT NULL,
    file_id TEXT NOT NULL,
    input TEXT NOT NULL DEFAULT '{}',
    tags TEXT NOT NULL DEFAULT '{}',
    worker_id TEXT,
    worker_name TEXT NOT NULL DEFAULT '',
    logs_length BIGINT NOT NULL DEFAULT 0,
    logs_overflowed ${bool} NOT NULL DEFAULT FALSE,
    job_status TEXT GENERATED ALWAYS AS (${JOB_STATUS_SQL}) STORED
  )`,
  `CREATE INDEX provisioner_jobs_pending ON provisioner_jobs (provisioner, created_at)
    WHERE started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL`,
  `CREATE INDEX provisioner_jobs_running ON provisioner_jobs (updated_at)
    WHERE started_at IS NOT NULL AND completed_at IS NULL`,
  `CREATE INDEX provisioner_jobs_organization ON provisioner_jobs (organization_id, created_at)`,
  `CREATE TABLE provisioner_job_logs (
    id ${serialKey},
    job_id TEXT NOT NULL REFERENCES provisioner_jobs (id) ON DELETE CASCADE,
    created_at ${ts} NOT NULL,
    log_source TEXT NOT NULL,
    log_level TEXT NOT NULL,
    stage TEXT NOT NULL DEFAULT '',
    output TEXT NOT NULL DEFAULT ''
  )`,
  `CREATE INDEX provisioner_job_logs_job_id ON provisioner_job_logs (job_id, id)`
]
