import type { DialectTypes } from "../Schema.js"

/** Migration 0001: users, organizations, memberships, API keys, git SSH keys, login conversions. */
export const migration = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
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
