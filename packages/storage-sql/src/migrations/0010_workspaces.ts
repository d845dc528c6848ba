import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0010: workspaces and their builds. A workspace's name is unique per owner among the
 * undeleted (case-insensitive); its sharing list is two JSON objects (user id or group id to
 * role), as templates'. A build is numbered per workspace from 1 and keeps the provisioner's
 * opaque state as bytes; its parameter values are rows. Resources and agents belong to the
 * provisioner job that made them (builds and, later, anything else that provisions); an agent's
 * apps and scripts are JSON until the agents issue gives them their own tables. Port shares are
 * keyed by workspace, agent name and port.
 */
export const migration = ({ timestamp: ts, boolean: bool, binary }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    owner_id TEXT NOT NULL REFERENCES users (id),
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    template_id TEXT NOT NULL REFERENCES templates (id),
    deleted ${bool} NOT NULL DEFAULT FALSE,
    name TEXT NOT NULL,
    autostart_schedule TEXT NOT NULL DEFAULT '',
    ttl_ms BIGINT,
    last_used_at ${ts} NOT NULL,
    dormant_at ${ts},
    deleting_at ${ts},
    next_start_at ${ts},
    automatic_updates TEXT NOT NULL DEFAULT 'never',
    favorite ${bool} NOT NULL DEFAULT FALSE,
    user_acl TEXT NOT NULL DEFAULT '{}',
    group_acl TEXT NOT NULL DEFAULT '{}'
  )`,
  `CREATE UNIQUE INDEX workspaces_owner_name ON workspaces (owner_id, lower(name)) WHERE deleted = FALSE`,
  `CREATE INDEX workspaces_organization ON workspaces (organization_id)`,
  `CREATE INDEX workspaces_template ON workspaces (template_id)`,
  `CREATE TABLE workspace_builds (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    template_version_id TEXT NOT NULL REFERENCES template_versions (id),
    template_version_preset_id TEXT,
    build_number INTEGER NOT NULL,
    transition TEXT NOT NULL,
    initiator_id TEXT NOT NULL,
    job_id TEXT NOT NULL REFERENCES provisioner_jobs (id),
    provisioner_state ${binary},
    deadline ${ts},
    max_deadline ${ts},
    reason TEXT NOT NULL DEFAULT 'initiator',
    daily_cost INTEGER NOT NULL DEFAULT 0,
    has_ai_task ${bool} NOT NULL DEFAULT FALSE,
    has_external_agent ${bool} NOT NULL DEFAULT FALSE
  )`,
  `CREATE UNIQUE INDEX workspace_builds_number ON workspace_builds (workspace_id, build_number)`,
  `CREATE UNIQUE INDEX workspace_builds_job ON workspace_builds (job_id)`,
  `CREATE TABLE workspace_build_parameters (
    workspace_build_id TEXT NOT NULL REFERENCES workspace_builds (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (workspace_build_id, name)
  )`,
  `CREATE TABLE workspace_resources (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    job_id TEXT NOT NULL REFERENCES provisioner_jobs (id) ON DELETE CASCADE,
    transition TEXT NOT NULL,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    hide ${bool} NOT NULL DEFAULT FALSE,
    icon TEXT NOT NULL DEFAULT '',
    daily_cost INTEGER NOT NULL DEFAULT 0,
    metadata TEXT NOT NULL DEFAULT '[]'
  )`,
  `CREATE INDEX workspace_resources_job ON workspace_resources (job_id)`,
  `CREATE TABLE workspace_agents (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    resource_id TEXT NOT NULL REFERENCES workspace_resources (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    external ${bool} NOT NULL DEFAULT FALSE,
    auth_token_hash TEXT NOT NULL,
    operating_system TEXT NOT NULL DEFAULT '',
    architecture TEXT NOT NULL DEFAULT '',
    directory TEXT NOT NULL DEFAULT '',
    environment_variables TEXT NOT NULL DEFAULT '{}',
    connection_timeout_seconds INTEGER NOT NULL DEFAULT 0,
    troubleshooting_url TEXT NOT NULL DEFAULT '',
    startup_script_behavior TEXT NOT NULL DEFAULT 'non-blocking',
    display_apps TEXT NOT NULL DEFAULT '{}',
    apps TEXT NOT NULL DEFAULT '[]',
    scripts TEXT NOT NULL DEFAULT '[]',
    lifecycle_state TEXT NOT NULL DEFAULT 'created',
    first_connected_at ${ts},
    last_connected_at ${ts},
    disconnected_at ${ts},
    started_at ${ts},
    ready_at ${ts},
    version TEXT NOT NULL DEFAULT '',
    api_version TEXT NOT NULL DEFAULT '',
    logs_length BIGINT NOT NULL DEFAULT 0,
    logs_overflowed ${bool} NOT NULL DEFAULT FALSE
  )`,
  `CREATE INDEX workspace_agents_resource ON workspace_agents (resource_id)`,
  `CREATE UNIQUE INDEX workspace_agents_token ON workspace_agents (auth_token_hash)`,
  `CREATE TABLE workspace_port_shares (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    agent_name TEXT NOT NULL,
    port INTEGER NOT NULL,
    share_level TEXT NOT NULL,
    protocol TEXT NOT NULL,
    PRIMARY KEY (workspace_id, agent_name, port)
  )`
]
