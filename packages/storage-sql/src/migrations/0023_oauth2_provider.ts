import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0023: the OAuth2 authorization server (docs/oauth2.md). Apps made by hand or
 * registered (RFC 7591; `metadata` is the rest of their registration as JSON text), their client
 * secrets, authorization codes and refresh tokens. Secrets, codes, tokens and registration access
 * tokens are SHA-256 hashes; a token's access token is the API key `api_key_id`, deleted with it.
 */
export const migration = ({ timestamp: ts, boolean: bool }: DialectTypes): ReadonlyArray<string> => [
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
