/**
 * OAuth2 provider records: applications (made by hand or registered dynamically, RFC 7591), their
 * client secrets, authorization codes and refresh tokens, with the wire forms the described
 * system answers and the repository port. Secrets, codes and tokens are stored as SHA-256 hashes.
 */
import { HttpApiSchema } from "@effect/platform"
import { Context, type Effect, type Option, Schema } from "effect"
import { Validation } from "../Errors.js"
import { omitEmpty } from "../Wire.js"

/** Grant types a client may register (RFC 6749); only the first two are served. */
export const GrantTypes = ["authorization_code", "refresh_token", "client_credentials", "implicit", "password"] as const
export const SupportedGrantTypes = ["authorization_code", "refresh_token"] as const
export const ResponseTypes = ["code", "token"] as const
export const SupportedResponseTypes = ["code"] as const
export const TokenEndpointAuthMethods = ["client_secret_basic", "client_secret_post", "none"] as const
export type TokenEndpointAuthMethod = (typeof TokenEndpointAuthMethods)[number]

/** The RFC 7591 metadata kept beside an app's own columns (one JSON column). */
export interface ClientMetadata {
  readonly client_uri?: string | undefined
  readonly logo_uri?: string | undefined
  readonly tos_uri?: string | undefined
  readonly policy_uri?: string | undefined
  readonly jwks_uri?: string | undefined
  readonly jwks?: unknown
  readonly software_id?: string | undefined
  readonly software_version?: string | undefined
  readonly scope?: string | undefined
  readonly contacts?: ReadonlyArray<string> | undefined
}

/** A stored application. */
export interface OAuth2AppRecord {
  readonly id: string
  readonly name: string
  readonly icon: string
  /** The callback of an app made by hand; the first redirect URI of a registered one. */
  readonly callback_url: string
  readonly redirect_uris: ReadonlyArray<string>
  readonly token_endpoint_auth_method: TokenEndpointAuthMethod
  readonly grant_types: ReadonlyArray<string>
  readonly response_types: ReadonlyArray<string>
  readonly metadata: ClientMetadata
  readonly dynamically_registered: boolean
  /** SHA-256 of the registration access token (RFC 7592); null for apps made by hand. */
  readonly hashed_registration_token: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

export interface OAuth2AppSecretRecord {
  readonly id: string
  readonly app_id: string
  readonly hashed_secret: string
  /** What the list shows of the secret: its prefix, the rest masked. */
  readonly display_secret: string
  readonly created_at: Date
  readonly last_used_at: Date | null
}

export interface OAuth2CodeRecord {
  readonly id: string
  readonly app_id: string
  readonly user_id: string
  readonly hashed_code: string
  /** The redirect URI the authorization request named ("" when it named none). */
  readonly redirect_uri: string
  readonly code_challenge: string
  readonly code_challenge_method: string
  /** The granted scope, space-separated (migration 0047; `all` for codes issued before). */
  readonly scope: string
  readonly created_at: Date
  readonly expires_at: Date
  /** Set when redeemed: a second redemption revokes what the first issued. */
  readonly used_at: Date | null
}

/** One refresh token; its access token is the API key `api_key_id`. */
export interface OAuth2TokenRecord {
  readonly id: string
  readonly app_id: string
  readonly user_id: string
  /** The grant this token descends from (the code's id): revoked together on reuse. */
  readonly family_id: string
  readonly api_key_id: string
  /**
   * The client secret the client authenticated with when this pair was issued: deleting the
   * secret deletes the pair. Null for a public client (and for pairs issued before migration 0036).
   */
  readonly app_secret_id: string | null
  readonly hashed_refresh_token: string
  /** The scope of this pair, space-separated: its access key's scopes (migration 0047; `all` before). */
  readonly scope: string
  readonly created_at: Date
  readonly expires_at: Date
  /** Set when exchanged for a new pair (rotation). */
  readonly used_at: Date | null
}

/** codersdk `OAuth2AppEndpoints`. */
export class OAuth2AppEndpoints extends Schema.Class<OAuth2AppEndpoints>("OAuth2AppEndpoints")({
  authorization: Schema.String,
  token: Schema.String,
  token_revoke: Schema.String,
  device_authorization: Schema.String
}) {}

/** codersdk `OAuth2ProviderApp`. */
export class OAuth2ProviderApp extends Schema.Class<OAuth2ProviderApp>("OAuth2ProviderApp")({
  id: Schema.UUID,
  name: Schema.String,
  callback_url: Schema.String,
  icon: Schema.String,
  endpoints: OAuth2AppEndpoints
}) {}

/** codersdk `OAuth2ProviderAppSecret`: the list form, never the secret. */
export class OAuth2ProviderAppSecret extends Schema.Class<OAuth2ProviderAppSecret>("OAuth2ProviderAppSecret")({
  id: Schema.UUID,
  last_used_at: Schema.NullOr(Schema.Date),
  client_secret_truncated: Schema.String
}) {}

/** codersdk `OAuth2ProviderAppSecretFull`: the one answer that shows a secret. */
export class OAuth2ProviderAppSecretFull
  extends Schema.Class<OAuth2ProviderAppSecretFull>("OAuth2ProviderAppSecretFull")({
    id: Schema.UUID,
    client_secret_full: Schema.String
  })
{}

const clientFields = {
  client_id: Schema.String,
  client_id_issued_at: Schema.Int,
  client_secret_expires_at: omitEmpty(Schema.Int),
  redirect_uris: omitEmpty(Schema.Array(Schema.String)),
  client_name: omitEmpty(Schema.String),
  client_uri: omitEmpty(Schema.String),
  logo_uri: omitEmpty(Schema.String),
  tos_uri: omitEmpty(Schema.String),
  policy_uri: omitEmpty(Schema.String),
  jwks_uri: omitEmpty(Schema.String),
  jwks: omitEmpty(Schema.Unknown),
  software_id: omitEmpty(Schema.String),
  software_version: omitEmpty(Schema.String),
  grant_types: Schema.Array(Schema.String),
  response_types: Schema.Array(Schema.String),
  token_endpoint_auth_method: Schema.String,
  scope: omitEmpty(Schema.String),
  contacts: omitEmpty(Schema.Array(Schema.String)),
  registration_client_uri: Schema.String
}

/** codersdk `OAuth2ClientConfiguration` (RFC 7592 read answer). The token is never shown again. */
export class OAuth2ClientConfiguration extends Schema.Class<OAuth2ClientConfiguration>("OAuth2ClientConfiguration")({
  ...clientFields,
  registration_access_token: omitEmpty(Schema.String)
}) {}

/** codersdk `OAuth2ClientRegistrationResponse` (RFC 7591): the secret and the token, shown once. */
export class OAuth2ClientRegistrationResponse
  extends Schema.Class<OAuth2ClientRegistrationResponse>("OAuth2ClientRegistrationResponse")({
    ...clientFields,
    client_id_issued_at: omitEmpty(Schema.Int),
    client_secret: omitEmpty(Schema.String),
    registration_access_token: Schema.String
  })
{}

/** codersdk `OAuth2AuthorizationServerMetadata` (RFC 8414). */
export class OAuth2AuthorizationServerMetadata
  extends Schema.Class<OAuth2AuthorizationServerMetadata>("OAuth2AuthorizationServerMetadata")({
    issuer: Schema.String,
    authorization_endpoint: Schema.String,
    token_endpoint: Schema.String,
    registration_endpoint: Schema.String,
    revocation_endpoint: Schema.String,
    response_types_supported: Schema.Array(Schema.String),
    grant_types_supported: Schema.Array(Schema.String),
    code_challenge_methods_supported: Schema.Array(Schema.String),
    scopes_supported: Schema.Array(Schema.String),
    token_endpoint_auth_methods_supported: Schema.Array(Schema.String)
  })
{}

/** codersdk `OAuth2ProtectedResourceMetadata` (RFC 9728). */
export class OAuth2ProtectedResourceMetadata
  extends Schema.Class<OAuth2ProtectedResourceMetadata>("OAuth2ProtectedResourceMetadata")({
    resource: Schema.String,
    authorization_servers: Schema.Array(Schema.String),
    scopes_supported: Schema.Array(Schema.String),
    bearer_methods_supported: Schema.Array(Schema.String)
  })
{}

/** codersdk `OAuth2TokenResponse` (RFC 6749 5.1). */
export class OAuth2TokenResponse extends Schema.Class<OAuth2TokenResponse>("OAuth2TokenResponse")({
  access_token: Schema.String,
  token_type: Schema.String,
  expires_in: Schema.Int,
  expiry: Schema.Date,
  refresh_token: Schema.String,
  scope: omitEmpty(Schema.String)
}) {}

/**
 * codersdk `OAuth2ProviderSettings` (`GET/PUT /oauth2-provider/settings`): whether clients may
 * register themselves (RFC 7591). Optional in a `PUT` (omitted: unchanged); always in the answer.
 */
export class OAuth2ProviderSettings extends Schema.Class<OAuth2ProviderSettings>("OAuth2ProviderSettings")({
  dynamic_client_registration_enabled: Schema.optional(Schema.Boolean)
}) {}

const errorFields = {
  error: Schema.String,
  error_description: Schema.String
}

/**
 * An OAuth2 protocol error (RFC 6749 5.2, RFC 7591 3.2.2): answered as `{error,
 * error_description}`, not as the Response object, with `Cache-Control: no-store`. A registration
 * refused for a field's value also names it in `validations` (an extension member), one per field.
 */
export class OAuth2Error extends Schema.TaggedError<OAuth2Error>()(
  "OAuth2Error",
  { ...errorFields, validations: Schema.optional(Schema.Array(Validation)) },
  HttpApiSchema.annotations({ status: 400 })
) {
  static of(error: string, description: string) {
    return new OAuth2Error({ error, error_description: description })
  }
}

/** A 401 OAuth2 error (`invalid_client`, `invalid_token`) with its `WWW-Authenticate` challenge. */
export class OAuth2Unauthorized extends Schema.TaggedError<OAuth2Unauthorized>()(
  "OAuth2Unauthorized",
  { ...errorFields, challenge: Schema.String },
  HttpApiSchema.annotations({ status: 401 })
) {}

/** What an app listing filters on. */
export interface OAuth2AppFilter {
  /** Only apps this user holds tokens of. */
  readonly userId?: string | undefined
}

export class OAuth2Repo extends Context.Tag("@workbay/core/OAuth2Repo")<OAuth2Repo, {
  readonly insertApp: (app: OAuth2AppRecord) => Effect.Effect<void>
  readonly findApp: (id: string) => Effect.Effect<Option.Option<OAuth2AppRecord>>
  readonly listApps: (filter: OAuth2AppFilter) => Effect.Effect<ReadonlyArray<OAuth2AppRecord>>
  readonly updateApp: (app: OAuth2AppRecord) => Effect.Effect<boolean>
  /** Deletes the app with its secrets, codes, tokens and their API keys. */
  readonly deleteApp: (id: string) => Effect.Effect<boolean>

  readonly insertSecret: (secret: OAuth2AppSecretRecord) => Effect.Effect<void>
  readonly listSecrets: (appId: string) => Effect.Effect<ReadonlyArray<OAuth2AppSecretRecord>>
  readonly findSecret: (appId: string, hashedSecret: string) => Effect.Effect<Option.Option<OAuth2AppSecretRecord>>
  readonly touchSecret: (id: string, at: Date) => Effect.Effect<void>
  /**
   * Deletes the secret with the tokens issued while the client authenticated with it, and their
   * access keys, in one transaction; how many usable (not yet rotated) tokens went, or none when
   * the app has no such secret.
   */
  readonly deleteSecret: (appId: string, id: string) => Effect.Effect<Option.Option<number>>

  readonly insertCode: (code: OAuth2CodeRecord) => Effect.Effect<void>
  /** Marks the code used (only if it was not); the code when this call redeemed it. */
  readonly redeemCode: (hashedCode: string, at: Date) => Effect.Effect<Option.Option<OAuth2CodeRecord>>
  readonly findCode: (hashedCode: string) => Effect.Effect<Option.Option<OAuth2CodeRecord>>

  readonly insertToken: (token: OAuth2TokenRecord) => Effect.Effect<void>
  readonly findTokenByRefresh: (hashedRefreshToken: string) => Effect.Effect<Option.Option<OAuth2TokenRecord>>
  readonly findTokenByApiKey: (apiKeyId: string) => Effect.Effect<Option.Option<OAuth2TokenRecord>>
  /** Marks the token used (only if it was not) and deletes its access key; whether this call did. */
  readonly rotateToken: (id: string, at: Date) => Effect.Effect<boolean>
  /** Deletes every token of a grant and their API keys; how many tokens. */
  readonly revokeFamily: (familyId: string) => Effect.Effect<number>
  /** Deletes a user's codes and tokens (with their API keys) of one app. */
  readonly revokeUserApp: (appId: string, userId: string) => Effect.Effect<number>
}>() {}
