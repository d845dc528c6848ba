import { JOB_STATUS_SQL } from "@workbay/core"

/**
 * The DDL of every table, written once. The two dialects differ only in the
 * column types for timestamps, booleans and bytes, which are passed in.
 */
export interface DialectTypes {
  /** Timestamp column type: TEXT (ISO 8601, UTC) on SQLite, TIMESTAMPTZ on Postgres. */
  readonly timestamp: string
  /** Boolean column type: INTEGER (0/1) on SQLite, BOOLEAN on Postgres. */
  readonly boolean: string
  /** Bytes column type: BLOB on SQLite, BYTEA on Postgres. */
  readonly binary: string
  /** A growing integer primary key: INTEGER PRIMARY KEY AUTOINCREMENT on SQLite, BIGSERIAL PRIMARY KEY on Postgres. */
  readonly serialKey: string
}

export const sqliteTypes: DialectTypes = {
  timestamp: "TEXT",
  boolean: "INTEGER",
  binary: "BLOB",
  serialKey: "INTEGER PRIMARY KEY AUTOINCREMENT"
}
export const postgresTypes: DialectTypes = {
  timestamp: "TIMESTAMPTZ",
  boolean: "BOOLEAN",
  binary: "BYTEA",
  serialKey: "BIGSERIAL PRIMARY KEY"
}

/** Migration 0001: users, organizations, memberships, API keys, git SSH keys, login conversions. */
export const migration0001 = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    username TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    avatar_url TEXT NOT NULL DEFAULT '',
    login_type TEXT NOT NULL,
    status TEXT NOT NULL,
    rbac_roles TEXT NOT NULL DEFAULT '[]',
    is_service_account ${bool} NOT NULL DEFAULT FALSE,
    hashed_password TEXT,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    last_seen_at ${ts} NOT NULL,
    deleted ${bool} NOT NULL DEFAULT FALSE,
    appearance TEXT NOT NULL DEFAULT '{}',
    quiet_hours_schedule TEXT NOT NULL DEFAULT '',
    hashed_one_time_passcode TEXT,
    one_time_passcode_expires_at ${ts}
  )`,
  `CREATE UNIQUE INDEX users_username_key ON users (lower(username)) WHERE deleted = FALSE`,
  `CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE deleted = FALSE`,
  `CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    is_default ${bool} NOT NULL DEFAULT FALSE,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE UNIQUE INDEX organizations_name_key ON organizations (lower(name))`,
  `CREATE UNIQUE INDEX organizations_single_default ON organizations (is_default) WHERE is_default = TRUE`,
  `CREATE TABLE organization_members (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    roles TEXT NOT NULL DEFAULT '[]',
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    PRIMARY KEY (organization_id, user_id)
  )`,
  `CREATE INDEX organization_members_user_id ON organization_members (user_id)`,
  `CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    hashed_secret TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    login_type TEXT NOT NULL,
    token_name TEXT NOT NULL DEFAULT '',
    scopes TEXT NOT NULL DEFAULT '["all"]',
    allow_list TEXT NOT NULL DEFAULT '[]',
    lifetime_seconds BIGINT NOT NULL,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    expires_at ${ts} NOT NULL,
    last_used ${ts} NOT NULL
  )`,
  `CREATE INDEX api_keys_user_id ON api_keys (user_id, created_at)`,
  `CREATE UNIQUE INDEX api_keys_token_name_key ON api_keys (user_id, token_name) WHERE login_type = 'token'`,
  `CREATE TABLE gitsshkeys (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    private_key TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE TABLE login_conversions (
    state_string TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    to_type TEXT NOT NULL,
    expires_at ${ts} NOT NULL,
    created_at ${ts} NOT NULL
  )`
]

/** The nil UUID: the organization of entries that belong to none, the id of an unknown resource. */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000"

/**
 * Migration 0002: groups (each organization's Everyone group is a row whose id is the
 * organization's id; its members are the organization's members, so it has no
 * group_members rows), group AI budgets, the audit log and the connection log.
 * `member_count` is kept by the repositories in the same transaction as every
 * membership change, so a group's size costs one row read at any size.
 */
export const migration0002 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE groups (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    avatar_url TEXT NOT NULL DEFAULT '',
    quota_allowance BIGINT NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT 'user',
    member_count BIGINT NOT NULL DEFAULT 0,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE UNIQUE INDEX groups_name_key ON groups (organization_id, lower(name))`,
  `CREATE TABLE group_members (
    group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at ${ts} NOT NULL,
    PRIMARY KEY (group_id, user_id)
  )`,
  `CREATE INDEX group_members_user_id ON group_members (user_id)`,
  `CREATE TABLE group_ai_budgets (
    group_id TEXT PRIMARY KEY REFERENCES groups (id) ON DELETE CASCADE,
    spend_limit_micros BIGINT NOT NULL,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  // Everyone groups of the organizations that exist already.
  `INSERT INTO groups (id, organization_id, name, display_name, avatar_url, quota_allowance, source, member_count, created_at, updated_at)
    SELECT o.id, o.id, 'Everyone', '', '', 0, 'user',
      (SELECT count(*) FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = o.id AND u.deleted = FALSE),
      o.created_at, o.created_at
    FROM organizations o`,
  `CREATE TABLE audit_logs (
    id TEXT PRIMARY KEY,
    time ${ts} NOT NULL,
    user_id TEXT NOT NULL DEFAULT '${NIL_UUID}',
    organization_id TEXT NOT NULL DEFAULT '${NIL_UUID}',
    ip TEXT NOT NULL DEFAULT '',
    user_agent TEXT NOT NULL DEFAULT '',
    request_id TEXT NOT NULL DEFAULT '',
    action TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_id TEXT NOT NULL DEFAULT '${NIL_UUID}',
    resource_target TEXT NOT NULL DEFAULT '',
    resource_icon TEXT NOT NULL DEFAULT '',
    diff TEXT NOT NULL DEFAULT '{}',
    status_code INTEGER NOT NULL,
    additional_fields TEXT NOT NULL DEFAULT '{}',
    description TEXT NOT NULL DEFAULT '',
    build_reason TEXT NOT NULL DEFAULT ''
  )`,
  `CREATE INDEX audit_logs_time ON audit_logs (time, id)`,
  `CREATE INDEX audit_logs_user_time ON audit_logs (user_id, time)`,
  `CREATE INDEX audit_logs_resource ON audit_logs (resource_id, time)`,
  `CREATE INDEX audit_logs_organization_time ON audit_logs (organization_id, time)`,
  `CREATE INDEX audit_logs_request_id ON audit_logs (request_id)`,
  `CREATE TABLE connection_logs (
    id TEXT PRIMARY KEY,
    connect_time ${ts} NOT NULL,
    organization_id TEXT NOT NULL,
    workspace_owner_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    workspace_name TEXT NOT NULL,
    agent_name TEXT NOT NULL,
    type TEXT NOT NULL,
    ip TEXT NOT NULL DEFAULT '',
    code INTEGER,
    user_agent TEXT NOT NULL DEFAULT '',
    user_id TEXT,
    slug_or_port TEXT NOT NULL DEFAULT '',
    connection_id TEXT,
    disconnect_time ${ts},
    disconnect_reason TEXT NOT NULL DEFAULT ''
  )`,
  `CREATE INDEX connection_logs_connect_time ON connection_logs (connect_time, id)`,
  `CREATE INDEX connection_logs_owner_time ON connection_logs (workspace_owner_id, connect_time)`,
  `CREATE INDEX connection_logs_organization_time ON connection_logs (organization_id, connect_time)`,
  `CREATE UNIQUE INDEX connection_logs_connection_key ON connection_logs (connection_id, workspace_id, agent_name)`
]

/**
 * Migration 0003: kept counts. `users` is the number of live users and `users_active`
 * the live active ones; the user repository changes them in the same transaction as
 * every insert, deletion and status change, so listing users counts in one row read.
 */
export const migration0003 = (_types: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
  )`,
  `INSERT INTO counters (name, value) SELECT 'users', count(*) FROM users WHERE deleted = FALSE`,
  `INSERT INTO counters (name, value) SELECT 'users_active', count(*) FROM users WHERE deleted = FALSE AND status = 'active'`
]

/**
 * Migration 0004: audit entries about API keys name the key's owner in `resource_id`,
 * as the described system does (a UUID; key ids are not). Earlier entries held the key
 * id: they get the owner of the key when it still exists, else the entry's user (who
 * made, used or removed the key).
 */
export const migration0004 = (_types: DialectTypes): ReadonlyArray<string> => [
  `UPDATE audit_logs
    SET resource_id = COALESCE((SELECT k.user_id FROM api_keys k WHERE k.id = audit_logs.resource_id), audit_logs.user_id)
    WHERE resource_type = 'api_key' AND length(resource_id) <> 36`
]

/**
 * Migration 0005: every user's tokens by login type, newest first, for the token list's
 * `include_all` (the described system lists all tokens unpaged); sessions, usually most
 * of the keys, are never read for it.
 */
export const migration0005 = (_types: DialectTypes): ReadonlyArray<string> => [
  `CREATE INDEX api_keys_login_type ON api_keys (login_type, created_at)`
]

/**
 * Migration 0006: uploaded files (archives template versions are built from). One row per
 * creator and sha256 of the bytes, so the same upload by the same user answers the same id.
 */
export const migration0006 = ({ timestamp: ts, binary }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE files (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    mimetype TEXT NOT NULL,
    data ${binary} NOT NULL
  )`,
  `CREATE UNIQUE INDEX files_hash_created_by_key ON files (hash, created_by)`
]

/**
 * Migration 0007: the provisioner job queue and its logs. A job's status is a stored
 * generated column over its timestamps (the rule of `jobStatus` in core), for filters.
 * Indexes: the pending jobs by (provisioner, created_at), partial, so a claim reads only
 * pending entries however many jobs finished; the started, unfinished jobs by updated_at for
 * the hang detector; an organization's jobs newest first for listings.
 */
export const migration0007 = ({ timestamp: ts, boolean: bool, serialKey }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0008: templates and their versions. A template's ACL is two JSON objects (user id or
 * group id to role), as the described system stores them. A version keeps what its import job
 * found (parameters, variables, resources per transition, external auth, presets) as one JSON
 * document, written once when the import succeeds. Dry runs keep their inputs and resources.
 * Names: unique per organization (templates, case-insensitive, among the undeleted) and per
 * template (versions).
 */
export const migration0008 = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0009: provisioner daemons (the workers that run jobs). One row per worker name (a
 * restarted worker takes its row); `organization_id` NULL for the built-in workers, which serve
 * every organization. Status is derived from `last_seen_at` and `current_job_id`.
 */
export const migration0009 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0010: workspaces and their builds. A workspace's name is unique per owner among the
 * undeleted (case-insensitive); its sharing list is two JSON objects (user id or group id to
 * role), as templates'. A build is numbered per workspace from 1 and keeps the provisioner's
 * opaque state as bytes; its parameter values are rows. Resources and agents belong to the
 * provisioner job that made them (builds and, later, anything else that provisions); an agent's
 * apps and scripts are JSON until the agents issue gives them their own tables. Port shares are
 * keyed by workspace, agent name and port.
 */
export const migration0010 = ({ timestamp: ts, boolean: bool, binary }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0011: what the workspace routes read. A build may be an orphan delete (the
 * provisioner is skipped). Listings: a workspace's favorites-first page walks
 * `workspaces_owner_favorite` for the requester's favorites; builds are read newest first per
 * workspace through `workspace_builds_number`; a job's build through `workspace_builds_job`.
 */
export const migration0011 = ({ boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspace_builds ADD COLUMN orphan ${bool} NOT NULL DEFAULT FALSE`,
  `CREATE INDEX workspaces_owner_favorite ON workspaces (owner_id, favorite) WHERE deleted = FALSE`,
  `CREATE INDEX workspaces_undeleted_name ON workspaces (deleted, lower(name))`,
  `CREATE INDEX workspace_builds_created ON workspace_builds (workspace_id, created_at)`
]

/**
 * The latest build of each workspace counts as running (`list_rank` 0) when it is a start whose
 * job succeeded; anything else is 1. The repositories recompute it with this statement (followed by
 * a WHERE picking the workspaces) whenever a build is inserted or a
 * job's status moves to an end.
 */
export const WORKSPACE_LIST_RANK_UPDATE = `UPDATE workspaces SET list_rank = CASE WHEN EXISTS (
      SELECT 1 FROM workspace_builds b JOIN provisioner_jobs j ON j.id = b.job_id
      WHERE b.workspace_id = workspaces.id AND b.transition = 'start' AND j.job_status = 'succeeded'
        AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = workspaces.id)
    ) THEN 0 ELSE 1 END`

/** A workspace's status from its latest build (`b`) transition and job (`j`), in SQL (as `buildStatus`). */
export const WORKSPACE_STATUS_SQL = `CASE
    WHEN j.job_status = 'pending' THEN 'pending'
    WHEN j.job_status = 'running' THEN CASE b.transition WHEN 'start' THEN 'starting' WHEN 'stop' THEN 'stopping' ELSE 'deleting' END
    WHEN j.job_status = 'succeeded' THEN CASE b.transition WHEN 'start' THEN 'running' WHEN 'stop' THEN 'stopped' ELSE 'deleted' END
    ELSE j.job_status
  END`

/**
 * SET clause keeping `workspaces.latest_build_status` (migration 0032): the status of the
 * workspace's latest build, NULL without builds. The repositories add it to every write that
 * inserts a build or moves a workspace build's job (claimed, cancel asked, ended, hung), in the
 * same transaction, so the status gauges count the rows' column instead of joining every
 * workspace to its latest build. The newest build is read backwards along `workspace_builds_number`.
 */
export const LATEST_BUILD_STATUS_SET = `latest_build_status = (
    SELECT ${WORKSPACE_STATUS_SQL} FROM workspace_builds b JOIN provisioner_jobs j ON j.id = b.job_id
    WHERE b.workspace_id = workspaces.id ORDER BY b.build_number DESC LIMIT 1)`

/**
 * Migration 0012: the workspace list reads along an index in its sort order. The sort keys live
 * on the row: `list_rank` (0 when the latest build is a succeeded start, see
 * {@link WORKSPACE_LIST_RANK_UPDATE}) and `owner_username` (the owner's lower-cased username,
 * rewritten when the owner is renamed). `workspaces_list` serves every caller's page and
 * `workspaces_owner_list` a page of one owner (`owner:me`). The counts of undeleted workspaces,
 * in all and per owner (`workspaces:<owner id>`), are kept in `counters` in the same
 * transaction as each insert and deletion.
 */
export const migration0012 = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspaces ADD COLUMN owner_username TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE workspaces ADD COLUMN list_rank INTEGER NOT NULL DEFAULT 1`,
  `UPDATE workspaces SET owner_username = coalesce((SELECT lower(u.username) FROM users u WHERE u.id = workspaces.owner_id), '')`,
  WORKSPACE_LIST_RANK_UPDATE,
  `CREATE INDEX workspaces_list ON workspaces (deleted, list_rank, owner_username, lower(name), id)`,
  `CREATE INDEX workspaces_owner_list ON workspaces (owner_id, deleted, list_rank, owner_username, lower(name), id)`,
  `INSERT INTO counters (name, value) SELECT 'workspaces', count(*) FROM workspaces WHERE deleted = FALSE`,
  `INSERT INTO counters (name, value) SELECT 'workspaces:' || owner_id, count(*) FROM workspaces WHERE deleted = FALSE GROUP BY owner_id`
]

/** "At once": the `lifecycle_due_at` of a workspace the next lifecycle tick must look at. */
export const LIFECYCLE_AT_ONCE = "1970-01-01T00:00:00.000Z"

/**
 * SET clause of every write to what the lifecycle rules read (see migration 0013): the
 * workspace is due at once, and a look in flight (which read `lifecycle_version` before) stores
 * nothing.
 */
export const LIFECYCLE_RECHECK = `lifecycle_due_at = '${LIFECYCLE_AT_ONCE}', lifecycle_version = lifecycle_version + 1`

/**
 * Migration 0013: the lifecycle executor reads only the workspaces due. `lifecycle_due_at` is
 * when the executor must next look at a workspace: the `lifecycleDueAt` of its state when the
 * executor last looked (NULL: no rule can fire until something changes), or the epoch ("at
 * once", {@link LIFECYCLE_RECHECK}) after a write to an input of the rules; `lifecycle_version`
 * counts those writes, so the executor stores its answer only if none came since it read the
 * workspace. `workspaces_lifecycle_due` holds the undeleted workspaces with a due time, in its
 * order: a tick reads `lifecycle_due_at <= tick` along it (`deleted` leads the key so that
 * SQLite's planner, without statistics, prefers it to `workspaces_undeleted_name`). Existing and
 * new workspaces start due at once: the first tick looks at each and stores its time.
 */
export const migration0013 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspaces ADD COLUMN lifecycle_due_at ${ts} DEFAULT '${LIFECYCLE_AT_ONCE}'`,
  `ALTER TABLE workspaces ADD COLUMN lifecycle_version BIGINT NOT NULL DEFAULT 0`,
  `CREATE INDEX workspaces_lifecycle_due ON workspaces (deleted, lifecycle_due_at) WHERE deleted = FALSE AND lifecycle_due_at IS NOT NULL`
]

/**
 * Migration 0014: a template's `active_user_count` (the distinct owners of its undeleted
 * workspaces) is kept, so reading a template costs the same with 100 or 100,000 workspaces. In
 * `counters`: `template_owner:<template>:<owner>`, that owner's undeleted workspaces of the
 * template, and `template_users:<template>`, how many of those are above zero; both move in the
 * same transaction as each workspace insert, deletion and undeletion (`bumpCounts`).
 */
export const migration0014 = (_types: DialectTypes): ReadonlyArray<string> => [
  `INSERT INTO counters (name, value) SELECT 'template_owner:' || template_id || ':' || owner_id, count(*)
     FROM workspaces WHERE deleted = FALSE GROUP BY template_id, owner_id`,
  `INSERT INTO counters (name, value) SELECT 'template_users:' || template_id, count(DISTINCT owner_id)
     FROM workspaces WHERE deleted = FALSE GROUP BY template_id`
]

/**
 * 0015: agents' cloud instance ids, for the instance identity routes (a signed document names the
 * instance; the route finds its agents by this index).
 */
export const migration0015 = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspace_agents ADD COLUMN instance_id TEXT NOT NULL DEFAULT ''`,
  `CREATE INDEX workspace_agents_instance ON workspace_agents (instance_id)`
]

/**
 * Migration 0016: agent logs, log sources and app statuses. Lines are read by (agent, id) along
 * `workspace_agent_logs_agent` and purged by age along `workspace_agent_logs_created`. An
 * agent's declared log sources and its apps' latest statuses (bounded: see APP_STATUSES_KEPT) are
 * JSON on its row, read with it; a workspace's newest app status is JSON on the workspace's row.
 */
export const migration0016 = ({ timestamp: ts, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE workspace_agent_logs (
    id ${serialKey},
    agent_id TEXT NOT NULL REFERENCES workspace_agents (id) ON DELETE CASCADE,
    created_at ${ts} NOT NULL,
    level TEXT NOT NULL,
    output TEXT NOT NULL,
    log_source_id TEXT NOT NULL
  )`,
  `CREATE INDEX workspace_agent_logs_agent ON workspace_agent_logs (agent_id, id)`,
  `CREATE INDEX workspace_agent_logs_created ON workspace_agent_logs (created_at)`,
  `ALTER TABLE workspace_agents ADD COLUMN log_sources TEXT NOT NULL DEFAULT '[]'`,
  `ALTER TABLE workspace_agents ADD COLUMN app_statuses TEXT NOT NULL DEFAULT '{}'`,
  `ALTER TABLE workspaces ADD COLUMN latest_app_status TEXT`
]

/**
 * Migration 0017: what an agent reports over its connection (docs/agents.md, "The agent
 * connection"). On the agent: whether its connection is open (`connected`, so the sweep of overdue
 * connections walks only open ones through `workspace_agents_open`), the directory it expanded,
 * its subsystems, the results of its scripts (JSON, by script id) and the metadata items its
 * template declares (JSON). Its metadata values, one
 * row per key. Its usage stats, one row per report, read by time for the deployment stats and
 * deleted after their retention through `workspace_agent_stats_created`.
 */
export const migration0017 = ({ timestamp: ts, boolean: bool, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspace_agents ADD COLUMN connected ${bool} NOT NULL DEFAULT FALSE`,
  `ALTER TABLE workspace_agents ADD COLUMN expanded_directory TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE workspace_agents ADD COLUMN subsystems TEXT NOT NULL DEFAULT '[]'`,
  `ALTER TABLE workspace_agents ADD COLUMN script_results TEXT NOT NULL DEFAULT '{}'`,
  `ALTER TABLE workspace_agents ADD COLUMN metadata TEXT NOT NULL DEFAULT '[]'`,
  `ALTER TABLE workspace_agents ADD COLUMN app_health TEXT NOT NULL DEFAULT '{}'`,
  `CREATE INDEX workspace_agents_open ON workspace_agents (last_connected_at) WHERE connected = TRUE`,
  `CREATE TABLE workspace_agent_metadata (
    agent_id TEXT NOT NULL REFERENCES workspace_agents (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    collected_at ${ts} NOT NULL,
    age BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (agent_id, key)
  )`,
  `CREATE TABLE workspace_agent_stats (
    id ${serialKey},
    created_at ${ts} NOT NULL,
    agent_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    connections_by_proto TEXT NOT NULL DEFAULT '{}',
    connection_count BIGINT NOT NULL DEFAULT 0,
    connection_median_latency_ms DOUBLE PRECISION NOT NULL DEFAULT 0,
    rx_packets BIGINT NOT NULL DEFAULT 0,
    rx_bytes BIGINT NOT NULL DEFAULT 0,
    tx_packets BIGINT NOT NULL DEFAULT 0,
    tx_bytes BIGINT NOT NULL DEFAULT 0,
    session_count_vscode BIGINT NOT NULL DEFAULT 0,
    session_count_jetbrains BIGINT NOT NULL DEFAULT 0,
    session_count_reconnecting_pty BIGINT NOT NULL DEFAULT 0,
    session_count_ssh BIGINT NOT NULL DEFAULT 0
  )`,
  `CREATE INDEX workspace_agent_stats_created ON workspace_agent_stats (created_at)`,
  `CREATE INDEX workspace_agent_stats_agent ON workspace_agent_stats (agent_id, created_at)`
]

/**
 * Migration 0018: AI tasks (docs/tasks.md). A task is a prompt and the workspace that runs it;
 * its `deleted` follows its workspace's (set in the same transaction as the workspace's), so the
 * task leaves listings once the delete build has run. Names are unique per owner among undeleted
 * tasks. Listings read one owner's (or one organization's) newest tasks along
 * `tasks_owner_created` (`tasks_organization_created`, `tasks_created`), a page at a time.
 * A workspace names its task in `task_id`. `app_slug` is the version's AI task app, kept from creation.
 */
export const migration0018 = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    owner_id TEXT NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    prompt TEXT NOT NULL DEFAULT '',
    template_id TEXT NOT NULL REFERENCES templates (id),
    template_version_id TEXT NOT NULL REFERENCES template_versions (id),
    app_slug TEXT NOT NULL DEFAULT '',
    template_version_preset_id TEXT,
    workspace_id TEXT REFERENCES workspaces (id) ON DELETE CASCADE,
    deleted ${bool} NOT NULL DEFAULT FALSE
  )`,
  `CREATE UNIQUE INDEX tasks_owner_name ON tasks (owner_id, lower(name)) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_owner_created ON tasks (owner_id, created_at DESC, id DESC) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_organization_created ON tasks (organization_id, created_at DESC, id DESC) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_created ON tasks (created_at DESC, id DESC) WHERE deleted = FALSE`,
  `CREATE INDEX tasks_workspace ON tasks (workspace_id)`,
  `ALTER TABLE workspaces ADD COLUMN task_id TEXT`
]

/**
 * Migration 0019: a task's conversation (docs/tasks.md, "The conversation"), one row per entry of
 * a workspace, read and trimmed by (workspace, id) along `task_log_entries_workspace`; `bytes` is the
 * content's UTF-8 length, summed by the trim that keeps the newest entries under a byte budget.
 */
export const migration0019 = ({ timestamp: ts, serialKey }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE task_log_entries (
    id ${serialKey},
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    content TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    created_at ${ts} NOT NULL
  )`,
  `CREATE INDEX task_log_entries_workspace ON task_log_entries (workspace_id, id)`
]

/**
 * Migration 0020: app sessions, so that a path-based app's open is written to the connection log
 * once per session (docs/agents.md, "Web apps"), whatever replica serves its requests. A session is
 * keyed by the SHA-256 of its agent, app, user, ip, user agent and status (`key_hash`: the user agent
 * can be long); `id` changes when a request comes after the session went idle, which tells the
 * caller a new session started. Idle ones are deleted along `workspace_app_sessions_updated`.
 */
export const migration0020 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE workspace_app_sessions (
    key_hash TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    agent_id TEXT NOT NULL REFERENCES workspace_agents (id) ON DELETE CASCADE,
    started_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE INDEX workspace_app_sessions_updated ON workspace_app_sessions (updated_at)`
]

/**
 * Migration 0021: notifications (docs/notifications.md). The templates live in code; stored are a
 * template's deployment-wide method override (`notification_template_methods`), users' preferences
 * (`notification_preferences`), the queue (`notification_messages`: leased oldest first along
 * `notification_messages_due`, a message once a day at most by `dedupe_hash`), and `site_configs`,
 * a small key/value store of deployment settings (`notifier_paused`; appearance later).
 */
export const migration0021 = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE site_configs (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`,
  `CREATE TABLE notification_template_methods (
    template_id TEXT PRIMARY KEY,
    method TEXT NOT NULL
  )`,
  `CREATE TABLE notification_preferences (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    template_id TEXT NOT NULL,
    disabled ${bool} NOT NULL DEFAULT FALSE,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    PRIMARY KEY (user_id, template_id)
  )`,
  `CREATE TABLE notification_messages (
    id TEXT PRIMARY KEY,
    template_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    status_reason TEXT NOT NULL DEFAULT '',
    created_by TEXT NOT NULL,
    payload TEXT NOT NULL,
    targets TEXT NOT NULL DEFAULT '[]',
    attempt_count INTEGER NOT NULL DEFAULT 0,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    leased_until ${ts},
    next_retry_after ${ts},
    sent_at ${ts},
    dedupe_hash TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX notification_messages_dedupe ON notification_messages (dedupe_hash)`,
  `CREATE INDEX notification_messages_due ON notification_messages (created_at)
    WHERE status IN ('pending', 'leased', 'temporary_failure')`,
  `CREATE INDEX notification_messages_user ON notification_messages (user_id, created_at)`
]

/**
 * Migration 0022: the per-user inbox (docs/inbox.md). `id` is the notification message's id (a
 * retried send stores nothing more); `targets` and `actions` are JSON text. Every page of a
 * user's inbox reads along an index that starts with the user and ends with `(created_at DESC,
 * id DESC)`: all, unread, read, per template (and per template unread), and per target through
 * `inbox_notification_targets` (one row per notification and target). The unread count is a
 * kept count in `counters` (`inbox_unread:<user id>`).
 */
export const migration0022 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE inbox_notifications (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    template_id TEXT NOT NULL,
    targets TEXT NOT NULL DEFAULT '[]',
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    icon TEXT NOT NULL DEFAULT '',
    actions TEXT NOT NULL DEFAULT '[]',
    read_at ${ts},
    created_at ${ts} NOT NULL
  )`,
  `CREATE INDEX inbox_notifications_user_created ON inbox_notifications (user_id, created_at DESC, id DESC)`,
  `CREATE INDEX inbox_notifications_user_unread ON inbox_notifications (user_id, created_at DESC, id DESC) WHERE read_at IS NULL`,
  `CREATE INDEX inbox_notifications_user_read ON inbox_notifications (user_id, created_at DESC, id DESC) WHERE read_at IS NOT NULL`,
  `CREATE INDEX inbox_notifications_user_template ON inbox_notifications (user_id, template_id, created_at DESC, id DESC)`,
  `CREATE INDEX inbox_notifications_user_template_unread ON inbox_notifications (user_id, template_id, created_at DESC, id DESC)
    WHERE read_at IS NULL`,
  `CREATE TABLE inbox_notification_targets (
    notification_id TEXT NOT NULL REFERENCES inbox_notifications (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    PRIMARY KEY (notification_id, target_id)
  )`,
  `CREATE INDEX inbox_notification_targets_user_target ON inbox_notification_targets (user_id, target_id, created_at DESC, notification_id DESC)`
]

/**
 * Migration 0023: the OAuth2 authorization server (docs/oauth2.md). Apps made by hand or
 * registered (RFC 7591; `metadata` is the rest of their registration as JSON text), their client
 * secrets, authorization codes and refresh tokens. Secrets, codes, tokens and registration access
 * tokens are SHA-256 hashes; a token's access token is the API key `api_key_id`, deleted with it.
 */
export const migration0023 = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE oauth2_provider_apps (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    icon TEXT NOT NULL DEFAULT '',
    callback_url TEXT NOT NULL,
    redirect_uris TEXT NOT NULL DEFAULT '[]',
    token_endpoint_auth_method TEXT NOT NULL,
    grant_types TEXT NOT NULL DEFAULT '[]',
    response_types TEXT NOT NULL DEFAULT '[]',
    metadata TEXT NOT NULL DEFAULT '{}',
    dynamically_registered ${bool} NOT NULL DEFAULT FALSE,
    hashed_registration_token TEXT,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE INDEX oauth2_provider_apps_name ON oauth2_provider_apps (name, id)`,
  `CREATE TABLE oauth2_provider_app_secrets (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES oauth2_provider_apps (id) ON DELETE CASCADE,
    hashed_secret TEXT NOT NULL,
    display_secret TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    last_used_at ${ts}
  )`,
  `CREATE UNIQUE INDEX oauth2_provider_app_secrets_hash ON oauth2_provider_app_secrets (hashed_secret)`,
  `CREATE INDEX oauth2_provider_app_secrets_app ON oauth2_provider_app_secrets (app_id, created_at)`,
  `CREATE TABLE oauth2_provider_app_codes (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES oauth2_provider_apps (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hashed_code TEXT NOT NULL,
    redirect_uri TEXT NOT NULL DEFAULT '',
    code_challenge TEXT NOT NULL DEFAULT '',
    code_challenge_method TEXT NOT NULL DEFAULT '',
    created_at ${ts} NOT NULL,
    expires_at ${ts} NOT NULL,
    used_at ${ts}
  )`,
  `CREATE UNIQUE INDEX oauth2_provider_app_codes_hash ON oauth2_provider_app_codes (hashed_code)`,
  `CREATE INDEX oauth2_provider_app_codes_app_user ON oauth2_provider_app_codes (app_id, user_id)`,
  `CREATE TABLE oauth2_provider_app_tokens (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES oauth2_provider_apps (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id TEXT NOT NULL,
    api_key_id TEXT NOT NULL,
    hashed_refresh_token TEXT NOT NULL,
    created_at ${ts} NOT NULL,
    expires_at ${ts} NOT NULL,
    used_at ${ts}
  )`,
  `CREATE UNIQUE INDEX oauth2_provider_app_tokens_refresh ON oauth2_provider_app_tokens (hashed_refresh_token)`,
  `CREATE INDEX oauth2_provider_app_tokens_family ON oauth2_provider_app_tokens (family_id)`,
  `CREATE INDEX oauth2_provider_app_tokens_api_key ON oauth2_provider_app_tokens (api_key_id)`,
  `CREATE INDEX oauth2_provider_app_tokens_app_user ON oauth2_provider_app_tokens (app_id, user_id)`,
  `CREATE INDEX oauth2_provider_app_tokens_user ON oauth2_provider_app_tokens (user_id, app_id)`
]

/**
 * Migration 0024: user links (docs/sign-in.md). One row per user and outside login type; the
 * provider's id of the identity is unique per login type. `claims` and `synced_group_ids` are
 * JSON text; no provider token is stored. Login conversions are found by their state string
 * (its primary key) and deleted when used.
 */
export const migration0024 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE user_links (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    login_type TEXT NOT NULL,
    linked_id TEXT NOT NULL,
    claims TEXT NOT NULL DEFAULT '{}',
    synced_group_ids TEXT NOT NULL DEFAULT '[]',
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    PRIMARY KEY (user_id, login_type)
  )`,
  `CREATE UNIQUE INDEX user_links_linked_id ON user_links (login_type, linked_id)`
]

/**
 * Migration 0025: users' links to external auth providers (docs/external-auth.md). One row per
 * provider and user; the tokens are the provider's (handed to the user's workspace agents, so
 * kept as issued, never logged); `oauth_expiry` is NULL for a token that does not expire;
 * `oauth_extra` is JSON text or NULL. Listing a user's links reads `external_auth_links_user`.
 */
export const migration0025 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE external_auth_links (
    provider_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    oauth_access_token TEXT NOT NULL,
    oauth_refresh_token TEXT NOT NULL DEFAULT '',
    oauth_expiry ${ts},
    oauth_extra TEXT,
    oauth_refresh_failure_reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (provider_id, user_id)
  )`,
  `CREATE INDEX external_auth_links_user ON external_auth_links (user_id, provider_id)`
]

/**
 * Migration 0026: usage insights (docs/insights.md). Hourly rollups per user and template of the
 * raw usage rows, keyed by `hour` (whole hours since 1970-01-01 UTC, the same integer on both
 * dialects, so reports bucket with integer arithmetic): minutes of use by kind and the hour's
 * median connection latency (`insights_usage_hourly`), and app opens with their seconds
 * (`insights_app_usage_hourly`); reports read them by hour along their primary keys. The rollup's watermark and last pass
 * (`insights_rollup_state`, one row). Users' recorded status changes (`user_status_changes`, read
 * by time) and the last recorded status of each user (`user_status_latest`), which the rollup diffs
 * against `users`.
 */
export const migration0026 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE insights_usage_hourly (
    hour BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    usage_mins INTEGER NOT NULL DEFAULT 0,
    ssh_mins INTEGER NOT NULL DEFAULT 0,
    vscode_mins INTEGER NOT NULL DEFAULT 0,
    jetbrains_mins INTEGER NOT NULL DEFAULT 0,
    reconnecting_pty_mins INTEGER NOT NULL DEFAULT 0,
    latency_ms DOUBLE PRECISION,
    PRIMARY KEY (hour, user_id, template_id)
  )`,
  `CREATE INDEX insights_usage_hourly_template ON insights_usage_hourly (template_id, hour)`,
  `CREATE TABLE insights_app_usage_hourly (
    hour BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    seconds BIGINT NOT NULL DEFAULT 0,
    times_used BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (hour, user_id, template_id, slug)
  )`,
  // The same sums per UTC day (`day`: whole days since 1970-01-01), refolded from the day's hours
  // whenever one of them is, so long ranges read a row per user, template and day.
  `CREATE TABLE insights_usage_daily (
    day BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    usage_mins INTEGER NOT NULL DEFAULT 0,
    ssh_mins INTEGER NOT NULL DEFAULT 0,
    vscode_mins INTEGER NOT NULL DEFAULT 0,
    jetbrains_mins INTEGER NOT NULL DEFAULT 0,
    reconnecting_pty_mins INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, user_id, template_id)
  )`,
  `CREATE TABLE insights_app_usage_daily (
    day BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    template_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    icon TEXT NOT NULL DEFAULT '',
    seconds BIGINT NOT NULL DEFAULT 0,
    times_used BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, user_id, template_id, slug)
  )`,
  `CREATE TABLE insights_rollup_state (
    id INTEGER PRIMARY KEY,
    watermark ${ts} NOT NULL,
    ran_at ${ts} NOT NULL
  )`,
  `CREATE TABLE user_status_changes (
    user_id TEXT NOT NULL,
    status TEXT NOT NULL,
    changed_at ${ts} NOT NULL
  )`,
  `CREATE INDEX user_status_changes_time ON user_status_changes (changed_at)`,
  `CREATE TABLE user_status_latest (
    user_id TEXT PRIMARY KEY,
    status TEXT NOT NULL
  )`
]

/**
 * Migration 0027: licenses (docs/enterprise.md). One row per uploaded license: the JWT as
 * uploaded, its `uuid` (the license's `jti` when it is one), and `exp`, the end of its grace
 * period, along which the entitlements read the unexpired ones. The appearance lives in
 * `site_configs` (migration 0021).
 */
export const migration0027 = ({ timestamp: ts, serialKey }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0028: workspace proxies (docs/workspace-proxies.md). Names are unique among live
 * proxies (case-insensitive); a deleted proxy keeps its row. `token_hashed_secret` is the SHA-256
 * of the token's secret part. The health checker writes `status`, `status_report` (JSON text
 * `{errors, warnings}`) and `status_checked_at`. The primary proxy's display name and icon sit in
 * `site_configs`.
 */
export const migration0028 = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0029: builds by creation time, for the parameter usage of template insights (the
 * latest build of each workspace among those created in a range; docs/insights.md).
 */
export const migration0029 = (_types: DialectTypes): ReadonlyArray<string> => [
  `CREATE INDEX workspace_builds_created_at ON workspace_builds (created_at)`
]

/**
 * Migration 0030: provisioner keys (docs/provisioner-daemons.md): a name unique in its
 * organization (case-insensitive), the secret's SHA-256 only, unique so that a daemon's key is
 * found by its hash; and the key each external daemon row connected with.
 */
export const migration0030 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE provisioner_keys (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    hashed_secret TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '{}',
    created_at ${ts} NOT NULL
  )`,
  `CREATE UNIQUE INDEX provisioner_keys_organization_name ON provisioner_keys (organization_id, lower(name))`,
  `CREATE UNIQUE INDEX provisioner_keys_hashed_secret ON provisioner_keys (hashed_secret)`,
  `ALTER TABLE provisioner_daemons ADD COLUMN key_id TEXT`
]

/**
 * Migration 0031: the durations of each template's newest successful builds (at most 100 kept
 * per template, by the build's creation time), written as a build's job succeeds, so that the
 * templates' `build_time_stats` read at most 100 rows a template instead of every build of its
 * last 30 days (docs/templates.md). Filled here from the builds there are.
 */
export const migration0031 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0032: each workspace keeps its latest build's status (`LATEST_BUILD_STATUS_SET`), so
 * the workspaces-by-status gauges read one index of the workspaces (O(workspaces) index entries,
 * no join) instead of joining every workspace to its latest build and job (docs/operations.md).
 */
export const migration0032 = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspaces ADD COLUMN latest_build_status TEXT`,
  `UPDATE workspaces SET ${LATEST_BUILD_STATUS_SET}`,
  `CREATE INDEX workspaces_latest_build_status ON workspaces (deleted, latest_build_status)`
]

/**
 * Migration 0033: each user's preference settings (`GET/PUT /users/{user}/preferences`), a JSON
 * object holding only the settings the user changed (the rest take their defaults when read); and
 * whose workspaces an organization lets be shared (`shareable_workspace_owners`: `everyone`,
 * `service_accounts` or `none`; docs/workspaces.md, Sharing).
 */
export const migration0033 = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE users ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}'`,
  `ALTER TABLE organizations ADD COLUMN shareable_workspace_owners TEXT NOT NULL DEFAULT 'everyone'`
]

/**
 * Migration 0034: each organization's number of groups besides its Everyone group is kept in
 * `counters` (`groups:<organization id>`), moved by the group repository in the same transaction
 * as every group insert and delete, so the paginated groups listing counts in one row read
 * (docs/groups.md).
 */
export const migration0034 = (_types: DialectTypes): ReadonlyArray<string> => [
  `INSERT INTO counters (name, value) SELECT 'groups:' || organization_id, count(*) FROM groups
    WHERE id <> organization_id GROUP BY organization_id`
]

/**
 * Migration 0035: custom organization roles (docs/authorization.md, Custom roles), unique by
 * organization and name; `org_permissions` is a JSON array of `{negate, resource_type, action}`.
 * Members hold them by name in `organization_members.roles`, like the built-in roles.
 */
export const migration0035 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE custom_roles (
    id TEXT NOT NULL UNIQUE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    org_permissions TEXT NOT NULL DEFAULT '[]',
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL,
    PRIMARY KEY (organization_id, name)
  )`
]

/**
 * Migration 0036: a refresh token records the client secret its client authenticated with when
 * the pair was issued (null for public clients and for pairs issued before), so deleting the
 * secret deletes what it issued (docs/oauth2.md).
 */
export const migration0036 = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE oauth2_provider_app_tokens ADD COLUMN app_secret_id TEXT`,
  `CREATE INDEX oauth2_provider_app_tokens_secret ON oauth2_provider_app_tokens (app_secret_id)`
]

/**
 * Migration 0037: failed sign-in attempts per account (docs/authentication.md, Failed sign-ins),
 * keyed by the kind and the normalized email (`password:<email>`, `otp:<email>`), so unknown
 * accounts are counted alike and every replica on the database sees one count.
 */
export const migration0037 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE login_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_attempt_at ${ts} NOT NULL,
    blocked_until ${ts}
  )`,
  `CREATE INDEX login_failures_last_attempt ON login_failures (last_attempt_at)`
]

/**
 * Migration 0038: secrets at rest that are read back, encrypted with the deployment's keys
 * (docs/external-auth.md, "Tokens at rest"). Beside each such column, the digest of the key that
 * sealed it (`*_key_id`, NULL: stored as given). External auth links' tokens; the token of each
 * external agent (`workspace_agents.auth_token`, NULL for agents whose token is not kept, as the
 * provisioner was handed it), so that its credentials answer the same token for the build. The
 * keys a deployment has used (`dbcrypt_keys`, as the described system's): the active digests
 * with a sealed test value, and the revoked ones.
 */
export const migration0038 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE external_auth_links ADD COLUMN oauth_access_token_key_id TEXT`,
  `ALTER TABLE external_auth_links ADD COLUMN oauth_refresh_token_key_id TEXT`,
  `ALTER TABLE workspace_agents ADD COLUMN auth_token TEXT`,
  `ALTER TABLE workspace_agents ADD COLUMN auth_token_key_id TEXT`,
  `CREATE TABLE dbcrypt_keys (
    number INTEGER PRIMARY KEY,
    active_key_digest TEXT UNIQUE,
    revoked_key_digest TEXT UNIQUE,
    created_at ${ts} NOT NULL,
    revoked_at ${ts},
    test TEXT NOT NULL
  )`
]

/**
 * Migration 0039: the replicas of the deployment and where each is reached (`replicas`, as the
 * described system's), and the replica that holds each agent's connection
 * (`workspace_agents.last_connected_replica_id`), so a request for an agent is relayed to it
 * (docs/agents.md, "Several replicas").
 */
export const migration0039 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE replicas (
    id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    relay_address TEXT NOT NULL,
    region_id INTEGER NOT NULL DEFAULT 0,
    version TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    database_latency BIGINT NOT NULL DEFAULT 0,
    created_at ${ts} NOT NULL,
    updated_at ${ts} NOT NULL
  )`,
  `CREATE INDEX replicas_updated_at ON replicas (updated_at)`,
  `ALTER TABLE workspace_agents ADD COLUMN last_connected_replica_id TEXT`
]

/** Migration 0045: each agent's latest round trip (microseconds) to the replica holding its connection. */
export const migration0045 = (): ReadonlyArray<string> => [
  `ALTER TABLE workspace_agents ADD COLUMN latency_us BIGINT`
]

/**
 * Migration 0046: a task's log snapshot (docs/tasks.md, "Log snapshots"), the copy of its AI agent's
 * conversation the agent uploads (`POST /workspaceagents/me/tasks/{task}/log-snapshot`), one per task
 * (the latest upload replaces the previous), read by the task's logs once the agent is gone.
 * `log_snapshot` is the stored envelope `{format, data}` as JSON text (at most 64 KiB of payload).
 */
export const migration0046 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
  `CREATE TABLE task_log_snapshots (
    task_id TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    log_snapshot TEXT NOT NULL,
    created_at ${ts} NOT NULL
  )`
]

/**
 * Migration 0047: the scope granted to each authorization code and refresh token (space-separated,
 * docs/oauth2.md "Scopes"); what was issued before carried `all`.
 */
export const migration0047 = (): ReadonlyArray<string> => [
  `ALTER TABLE oauth2_provider_app_codes ADD COLUMN scope TEXT NOT NULL DEFAULT 'all'`,
  `ALTER TABLE oauth2_provider_app_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'all'`
]

/**
 * Migration 0048: IdP sync (docs/sign-in.md). `idp_sync_settings` holds one JSON row per scope
 * (`organization`, `group:<organization id>`, `role:<organization id>`); `oidc_claim_fields` and
 * `oidc_claim_values` what each user's last OpenID Connect sign-in showed (names, and string
 * values), bounded per sign-in, which the settings' forms offer.
 */
export const migration0048 = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
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

/**
 * Migration 0049: prebuilt workspaces (docs/prebuilds.md). Users get `is_system`, and the
 * described system's prebuilds user (its fixed id) is inserted as one: login type `none`, no
 * password, not listed, not counted (the kept user counts do not move).
 */
export const migration0049 = ({ boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE users ADD COLUMN is_system ${bool} NOT NULL DEFAULT FALSE`,
  `INSERT INTO users (id, email, username, name, login_type, status, rbac_roles, hashed_password,
    created_at, updated_at, last_seen_at, is_system)
    VALUES ('c42fdf75-3097-471c-8c33-fb52454d81c0', 'prebuilds@system', 'prebuilds', 'Prebuilds', 'none', 'active',
    '[]', NULL, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', TRUE)`
]
