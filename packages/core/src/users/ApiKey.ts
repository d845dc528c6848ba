/** API keys (session tokens and long-lived tokens). */
import { Schema } from "effect"
import { AllowListEntry, ApiKeyLoginType, type ApiKeyRecord } from "../Identity.js"
import { wireMaker } from "../Wire.js"

export { AllowListEntry, ApiKeyLoginType, type ApiKeyRecord } from "../Identity.js"

export const ApiKeyScope = Schema.Literal("all", "application_connect")
export type ApiKeyScope = typeof ApiKeyScope.Type

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

/** A new key, its secret shown this once (`POST /users/{user}/keys`, `.../keys/tokens`). */
export const GenerateApiKeyResponse = Schema.Struct({ key: Schema.String })

/** POST /users/login: the new session's key. */
export class LoginResponse extends Schema.Class<LoginResponse>("LoginWithPasswordResponse")({
  session_token: Schema.String
}) {}

/** GET /users/{user}/keys/tokens/tokenconfig: the longest lifetime the user's tokens may have, in nanoseconds. */
export const TokenConfig = Schema.Struct({ max_token_lifetime: Schema.Number })

/** GET /auth/scopes: the scopes a token may be created with. */
export const ExternalApiKeyScopes = Schema.Struct({ external: Schema.Array(Schema.String) })

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

const makeApiKey = wireMaker(ApiKey)
const makeApiKeyWithOwner = wireMaker(ApiKeyWithOwner)

export const toApiKey = (k: ApiKeyRecord): ApiKey => makeApiKey(apiKeyFields(k))

export const toApiKeyWithOwner = (k: ApiKeyRecord, username: string): ApiKeyWithOwner => {
  // The owner's key first: a spread copy that then adds a key is V8's slow path (about 1 us on Node 20).
  const props: Schema.Struct.Type<typeof ApiKeyWithOwner.fields> = { username, ...apiKeyFields(k) }
  return makeApiKeyWithOwner(props)
}

export const TokenName = Schema.String.pipe(
  Schema.maxLength(64, { message: () => "Token name must be at most 64 characters." }),
  Schema.pattern(/^$|^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, {
    message: () => "Token name may contain letters, digits, '-', '_' and '.', starting with a letter or digit."
  })
)
