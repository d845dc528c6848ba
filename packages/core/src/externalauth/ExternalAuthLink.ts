/**
 * A user's link to an external auth provider: the provider's OAuth2 tokens, kept so that the
 * user's workspace agents can be handed them (`GET /workspaceagents/me/external-auth`). Tokens
 * are stored as the provider issued them (they must be given back), never logged, and never in
 * an audit diff (see {@link auditedLink}). Also the wire forms of the external auth routes.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import { omitEmpty } from "../Wire.js"

export interface ExternalAuthLinkRecord {
  readonly provider_id: string
  readonly user_id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly oauth_access_token: string
  /** Empty when the provider gave none, or once a refresh with it failed. */
  readonly oauth_refresh_token: string
  /** Null: the token does not expire (GitHub OAuth apps). */
  readonly oauth_expiry: Date | null
  /** The `extra_token_keys` fields of the token answer, or null. */
  readonly oauth_extra: Readonly<Record<string, unknown>> | null
  /** Why the last refresh failed (the refresh token was dropped then); empty otherwise. */
  readonly oauth_refresh_failure_reason: string
}

/** What an audit entry records of a link: never a token. */
export const auditedLink = (l: ExternalAuthLinkRecord) => ({
  provider_id: l.provider_id,
  user_id: l.user_id,
  created_at: l.created_at,
  updated_at: l.updated_at,
  expires_at: l.oauth_expiry,
  has_refresh_token: l.oauth_refresh_token !== ""
})

/** The links of users to providers. */
export class ExternalAuthLinkRepo extends Context.Tag("@workbay/core/ExternalAuthLinkRepo")<ExternalAuthLinkRepo, {
  readonly find: (providerId: string, userId: string) => Effect.Effect<Option.Option<ExternalAuthLinkRecord>>
  /** The user's links, by provider id. */
  readonly listByUser: (userId: string) => Effect.Effect<ReadonlyArray<ExternalAuthLinkRecord>>
  /** Inserts the link, or replaces the tokens of the existing one (keeping its `created_at`); answers the stored link. */
  readonly upsert: (link: ExternalAuthLinkRecord) => Effect.Effect<ExternalAuthLinkRecord>
  /**
   * Replaces the tokens of the link while its refresh token is still `expectedRefreshToken` (a
   * concurrent refresh that won keeps its own); answers the stored link, or none when it changed
   * or is gone.
   */
  readonly updateTokens: (
    link: ExternalAuthLinkRecord,
    expectedRefreshToken: string
  ) => Effect.Effect<Option.Option<ExternalAuthLinkRecord>>
  /** Deletes the link; false when there was none. */
  readonly delete: (providerId: string, userId: string) => Effect.Effect<boolean>
}>() {}

// ---------------------------------------------------------------------------
// Wire forms (the described system's codersdk types)

/** `ExternalAuthLink`: a link as its user sees it (no token). */
export class ExternalAuthLinkWire extends Schema.Class<ExternalAuthLinkWire>("ExternalAuthLink")({
  provider_id: Schema.String,
  created_at: Schema.Date,
  updated_at: Schema.Date,
  has_refresh_token: Schema.Boolean,
  /** The zero time (`0001-01-01T00:00:00Z`) when the token does not expire. */
  expires: Schema.Date,
  authenticated: Schema.Boolean,
  validate_error: Schema.String
}) {}

/** `ExternalAuthLinkProvider`: a configured provider, without its secrets. */
export class ExternalAuthLinkProvider extends Schema.Class<ExternalAuthLinkProvider>("ExternalAuthLinkProvider")({
  id: Schema.String,
  type: Schema.String,
  device: Schema.Boolean,
  display_name: Schema.String,
  display_icon: Schema.String,
  allow_refresh: Schema.Boolean,
  allow_validate: Schema.Boolean,
  supports_revocation: Schema.Boolean,
  code_challenge_methods_supported: Schema.Array(Schema.String)
}) {}

/** `ListUserExternalAuthResponse`. */
export class ListUserExternalAuthResponse
  extends Schema.Class<ListUserExternalAuthResponse>("ListUserExternalAuthResponse")({
    providers: Schema.Array(ExternalAuthLinkProvider),
    links: Schema.Array(ExternalAuthLinkWire)
  })
{}

/** `ExternalAuthUser`: the provider's account (GitHub's user). */
export class ExternalAuthUser extends Schema.Class<ExternalAuthUser>("ExternalAuthUser")({
  id: Schema.Number,
  login: Schema.String,
  avatar_url: Schema.String,
  profile_url: Schema.String,
  name: Schema.String
}) {}

export class ExternalAuthAppInstallation
  extends Schema.Class<ExternalAuthAppInstallation>("ExternalAuthAppInstallation")({
    id: Schema.Number,
    account: ExternalAuthUser,
    configure_url: Schema.String
  })
{}

/** `ExternalAuth`: one provider for the caller: linked and valid, its account, its app installations. */
export class ExternalAuthWire extends Schema.Class<ExternalAuthWire>("ExternalAuth")({
  authenticated: Schema.Boolean,
  device: Schema.Boolean,
  display_name: Schema.String,
  user: Schema.NullOr(ExternalAuthUser),
  app_installable: Schema.Boolean,
  installations: Schema.Array(ExternalAuthAppInstallation),
  app_install_url: Schema.String
}) {}

/** `ExternalAuthDevice`: the start of a device flow (RFC 8628). */
export class ExternalAuthDevice extends Schema.Class<ExternalAuthDevice>("ExternalAuthDevice")({
  device_code: Schema.String,
  user_code: Schema.String,
  verification_uri: Schema.String,
  expires_in: Schema.Number,
  interval: Schema.Number
}) {}

/** `DeleteExternalAuthByIDResponse`. */
export class DeleteExternalAuthResponse
  extends Schema.Class<DeleteExternalAuthResponse>("DeleteExternalAuthByIDResponse")({
    token_revoked: Schema.Boolean,
    token_revocation_error: omitEmpty(Schema.String)
  })
{}

/**
 * The agent's `ExternalAuthResponse`: the owner's token (and, for Git over HTTPS, a username and
 * password), or only `url`, where the owner links the provider. Every field is always sent.
 */
export class AgentExternalAuthResponse extends Schema.Class<AgentExternalAuthResponse>("ExternalAuthResponse")({
  access_token: Schema.String,
  token_extra: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  url: Schema.String,
  type: Schema.String,
  username: Schema.String,
  password: Schema.String
}) {}

export { ProviderUnavailable } from "../Errors.js"
