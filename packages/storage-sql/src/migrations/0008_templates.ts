import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0008: templates and their versions. A template's ACL is two JSON objects (user id or
 * group id to role), as the described system stores them. A version keeps what its import job
 * found (parameters, variables, resources per transition, external auth, presets) as one JSON
 * document, written once when the import succeeds. Dry runs keep their inputs and resources.
 * Names: unique per organization (templates, case-insensitive, among the undeleted) and per
 * template (versions).
 */
export const migration = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE templates (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    deleted ${bool} NOT NULL DEFAULT FALSE,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    provisioner TEXT NOT NULL,
    active_version_id TEXT NOT NULL,
    created_by TEXT NOT NULL,
    default_ttl_ms BIGINT NOT NULL DEFAULT 0,
    activity_bump_ms BIGINT NOT NULL DEFAULT 3600000,
    autostop_requirement_days_of_week INTEGER NOT NULL DEFAULT 0,
    autostop_requirement_weeks INTEGER NOT NULL DEFAULT 1,
    autostart_requirement_days_of_week INTEGER NOT NULL DEFAULT 127,
    allow_user_cancel_workspace_jobs ${bool} NOT NULL DEFAULT TRUE,
    allow_user_autostart ${bool} NOT NULL DEFAULT TRUE,
    allow_user_autostop ${bool} NOT NULL DEFAULT TRUE,
    failure_ttl_ms BIGINT NOT NULL DEFAULT 0,
    time_til_dormant_ms BIGINT NOT NULL DEFAULT 0,
    time_til_dormant_autodelete_ms BIGINT NOT NULL DEFAULT 0,
    require_active_version ${bool} NOT NULL DEFAULT FALSE,
    max_port_share_level TEXT NOT NULL DEFAULT 'owner',
    deprecated TEXT NOT NULL DEFAULT '',
    use_classic_parameter_flow ${bool} NOT NULL DEFAULT FALSE,
    cors_behavior TEXT NOT NULL DEFAULT 'simple',
    user_acl TEXT NOT NULL DEFAULT '{}',
    group_acl TEXT NOT NULL DEFAULT '{}'
  )`,
  `CREATE UNIQUE INDEX templates_organization_name ON templates (organization_id, lower(name)) WHERE deleted = FALSE`,
  `CREATE TABLE template_versions (
    id TEXT PRIMARY KEY,
    template_id TEXT REFERENCES templates (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    name TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    readme TEXT NOT NULL DEFAULT '',
    job_id TEXT NOT NULL REFERENCES provisioner_jobs (id),
    created_by TEXT NOT NULL,
    archived ${bool} NOT NULL DEFAULT FALSE,
    file_id TEXT NOT NULL,
    provisioner TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '{}',
    user_variable_values TEXT NOT NULL DEFAULT '[]',
    import_result TEXT
  )`,
  `CREATE UNIQUE INDEX template_versions_template_name ON template_versions (template_id, lower(name))`,
  `CREATE INDEX template_versions_template_created ON template_versions (template_id, created_at, id)`,
  `CREATE UNIQUE INDEX template_versions_job ON template_versions (job_id)`,
  `CREATE TABLE template_version_dry_runs (
    job_id TEXT PRIMARY KEY REFERENCES provisioner_jobs (id) ON DELETE CASCADE,
    template_version_id TEXT NOT NULL REFERENCES template_versions (id) ON DELETE CASCADE,
    workspace_name TEXT NOT NULL DEFAULT '',
    rich_parameter_values TEXT NOT NULL DEFAULT '[]',
    user_variable_values TEXT NOT NULL DEFAULT '[]',
    resources TEXT
  )`
]
