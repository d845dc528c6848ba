/** API keys (session tokens and long-lived tokens). */
import { Schema } from "effect"
import { resourceKinds } from "../Rbac.js"

export const ApiKeyLoginType = Schema.Literal("github", "oidc", "password", "token", "oauth2_provider_app")
export type ApiKeyLoginType = typeof ApiKeyLoginType.Type

export const ApiKeyScope = Schema.Literal("all", "application_connect")
export type ApiKeyScope = typeof ApiKeyScope.Type

export class AllowListEntry extends Schema.Class<AllowListEntry>("APIAllowListTarget")({
  id: Schema.String,
  // Named, so that a message about a whole entry says `type: RBACResource` instead of listing
  // every kind; a failing entry or type is reported once per item, in a few words.
  type: Schema.Literal(...resourceKinds).annotations({
    identifier: "RBACResource",
    message: () => ({
      message: "Type must be \"*\" or a resource kind such as workspace (see the kinds in GET /auth/scopes).",
      override: true
    })
  })
}) {}

/** The wire form of an API key. The secret is never part of it. */
export class ApiKey extends Schema.Class<ApiKey>("APIKey")({
  allow_list: Schema.Array(AllowListEntry),
  created_at: Schema.Date,
  expires_at: Schema.Date,
  id: Schema.String,
  last_used: Schema.Date,
  lifetime_seconds: Schema.Int,
  login_type: ApiKeyLoginType,
  scope: ApiKeyScope,
  scopes: Schema.Array(Schema.String),
  token_name: Schema.String,
  updated_at: Schema.Date,
  user_id: Schema.UUID
}) {}

/**
 * A key in the token list: the key and its owner's username, as the described system answers
 * `GET /users/{user}/keys/tokens` (it sends `""` for an owner it cannot find; keys here always
 * have one, as they go with their user).
 */
export class ApiKeyWithOwner extends ApiKey.extend<ApiKeyWithOwner>("APIKeyWithOwner")({
  username: Schema.String
}) {}

/** The stored key: the wire fields plus the hash of the secret. */
export interface ApiKeyRecord {
  readonly id: string
  readonly hashed_secret: string
  readonly user_id: string
  readonly login_type: ApiKeyLoginType
  readonly token_name: string
  readonly scopes: ReadonlyArray<string>
  readonly allow_list: ReadonlyArray<AllowListEntry>
  readonly lifetime_seconds: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly expires_at: Date
  readonly last_used: Date
}

const apiKeyFields = (k: ApiKeyRecord): Schema.Struct.Type<typeof ApiKey.fields> => ({
  allow_list: k.allow_list,
  created_at: k.created_at,
  expires_at: k.expires_at,
  id: k.id,
  last_used: k.last_used,
  lifetime_seconds: k.lifetime_seconds,
  login_type: k.login_type,
  scope: k.scopes.includes("application_connect") && !k.scopes.includes("all") ? "application_connect" : "all",
  scopes: k.scopes,
  token_name: k.token_name,
  updated_at: k.updated_at,
  user_id: k.user_id
})

export const toApiKey = (k: ApiKeyRecord): ApiKey => new ApiKey(apiKeyFields(k), true)

export const toApiKeyWithOwner = (k: ApiKeyRecord, username: string): ApiKeyWithOwner =>
  new ApiKeyWithOwner({ ...apiKeyFields(k), username }, true)

export const TokenName = Schema.String.pipe(
  Schema.maxLength(64, { message: () => "Token name must be at most 64 characters." }),
  Schema.pattern(/^$|^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, {
    message: () => "Token name may contain letters, digits, '-', '_' and '.', starting with a letter or digit."
  })
)
