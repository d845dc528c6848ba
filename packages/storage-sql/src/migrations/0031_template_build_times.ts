import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0031: the durations of each template's newest successful builds (at most 100 kept
 * per template, by the build's creation time), written as a build's job succeeds, so that the
 * templates' `build_time_stats` read at most 100 rows a template instead of every build of its
 * last 30 days (docs/templates.md). Filled here from the builds there are.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE template_build_times (
    build_id TEXT PRIMARY KEY,
    template_id TEXT NOT NULL,
    build_created_at ${ts} NOT NULL,
    transition TEXT NOT NULL,
    started_at ${ts} NOT NULL,
    completed_at ${ts} NOT NULL
  )`,
  `CREATE INDEX template_build_times_template ON template_build_times (template_id, build_created_at)`,
  `INSERT INTO template_build_times (build_id, template_id, build_created_at, transition, started_at, completed_at)
    SELECT id, template_id, created_at, transition, started_at, completed_at FROM (
      SELECT b.id AS id, v.template_id AS template_id, b.created_at AS created_at, b.transition AS transition,
        j.started_at AS started_at, j.completed_at AS completed_at,
        ROW_NUMBER() OVER (PARTITION BY v.template_id ORDER BY b.created_at DESC, b.id DESC) AS rn
      FROM workspace_builds b JOIN template_versions v ON v.id = b.template_version_id JOIN provisioner_jobs j ON j.id = b.job_id
      WHERE j.completed_at IS NOT NULL AND j.started_at IS NOT NULL AND j.canceled_at IS NULL AND (j.error IS NULL OR j.error = '')
    ) x WHERE rn <= 100`
]
