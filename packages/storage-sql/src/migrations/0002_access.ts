import { type DialectTypes, NIL_UUID } from "../Schema.js"

/**
 * Migration 0002: groups (each organization's Everyone group is a row whose id is the
 * organization's id; its members are the organization's members, so it has no
 * group_members rows), group AI budgets, the audit log and the connection log.
 * `member_count` is kept by the repositories in the same transaction as every
 * membership change, so a group's size costs one row read at any size.
 */
export const migration = ({ timestamp: ts }: DialectTypes): ReadonlyArray<string> => [
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
