import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0009: provisioner daemons (the workers that run jobs). One row per worker name (a
 * restarted worker takes its row); `organization_id` NULL for the built-in workers, which serve
 * every organization. Status is derived from `last_seen_at` and `current_job_id`.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE provisioner_daemons (
    id TEXT PRIMARY KEY,
    organization_id TEXT,
    name TEXT NOT NULL,
    provisioners TEXT NOT NULL DEFAULT '[]',
    tags TEXT NOT NULL DEFAULT '{}',
    created_at ${ts} NOT NULL,
    last_seen_at ${ts},
    version TEXT NOT NULL DEFAULT '',
    api_version TEXT NOT NULL DEFAULT '',
    key_name TEXT NOT NULL DEFAULT '',
    current_job_id TEXT,
    previous_job_id TEXT
  )`,
  `CREATE UNIQUE INDEX provisioner_daemons_name ON provisioner_daemons (name)`,
  `CREATE INDEX provisioner_daemons_organization ON provisioner_daemons (organization_id, created_at)`
]
