/** The JSON Schemas of the OAuth2 response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  nullable,
  object,
  omitted,
  optional,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // codersdk's OAuth2 types (codersdk/oauth2.go; RFC 7591, 7592, 8414, 9728, 6749 5.1).
  OAuth2ProviderApp: object({
    id: uuid,
    name: string,
    callback_url: string,
    icon: string,
    endpoints: object({ authorization: string, token: string, device_authorization: string }, [
      "authorization",
      "token",
      "device_authorization"
    ])
  }, ["id", "name", "callback_url", "icon", "endpoints"]),
  OAuth2ProviderAppSecret: object({ id: uuid, last_used_at: nullable(dateTime), client_secret_truncated: string }, [
    "id",
    "last_used_at",
    "client_secret_truncated"
  ]),
  OAuth2ProviderAppSecretFull: object({ id: uuid, client_secret_full: string }, ["id", "client_secret_full"]),
  OAuth2ProviderSettings: object({ dynamic_client_registration_enabled: boolean }, [
    "dynamic_client_registration_enabled"
  ]),
  OAuth2ClientRegistrationResponse: object({
    client_id: string,
    client_secret: omitted(string),
    client_id_issued_at: omitted(integer),
    client_secret_expires_at: omitted(integer),
    redirect_uris: omitted(arrayOf(string)),
    client_name: omitted(string),
    client_uri: omitted(string),
    logo_uri: omitted(string),
    tos_uri: omitted(string),
    policy_uri: omitted(string),
    jwks_uri: omitted(string),
    jwks: omitted({ type: "object" }),
    software_id: omitted(string),
    software_version: omitted(string),
    grant_types: arrayOf(string),
    response_types: arrayOf(string),
    token_endpoint_auth_method: string,
    scope: omitted(string),
    contacts: omitted(arrayOf(string)),
    registration_access_token: string,
    registration_client_uri: string
  }, [
    "client_id",
    "grant_types",
    "response_types",
    "token_endpoint_auth_method",
    "registration_access_token",
    "registration_client_uri"
  ]),
  OAuth2ClientConfiguration: object({
    client_id: string,
    client_id_issued_at: integer,
    client_secret_expires_at: omitted(integer),
    redirect_uris: omitted(arrayOf(string)),
    client_name: omitted(string),
    client_uri: omitted(string),
    logo_uri: omitted(string),
    tos_uri: omitted(string),
    policy_uri: omitted(string),
    jwks_uri: omitted(string),
    jwks: omitted({ type: "object" }),
    software_id: omitted(string),
    software_version: omitted(string),
    grant_types: arrayOf(string),
    response_types: arrayOf(string),
    token_endpoint_auth_method: string,
    scope: omitted(string),
    contacts: omitted(arrayOf(string)),
    registration_access_token: omitted(string),
    registration_client_uri: string
  }, [
    "client_id",
    "client_id_issued_at",
    "grant_types",
    "response_types",
    "token_endpoint_auth_method",
    "registration_client_uri"
  ]),
  OAuth2AuthorizationServerMetadata: object({
    issuer: string,
    authorization_endpoint: string,
    token_endpoint: string,
    registration_endpoint: omitted(string),
    revocation_endpoint: omitted(string),
    response_types_supported: arrayOf(string),
    grant_types_supported: omitted(arrayOf(string)),
    code_challenge_methods_supported: omitted(arrayOf(string)),
    scopes_supported: omitted(arrayOf(string)),
    token_endpoint_auth_methods_supported: omitted(arrayOf(string))
  }, ["issuer", "authorization_endpoint", "token_endpoint", "response_types_supported"]),
  OAuth2ProtectedResourceMetadata: object({
    resource: string,
    authorization_servers: arrayOf(string),
    scopes_supported: omitted(arrayOf(string)),
    bearer_methods_supported: omitted(arrayOf(string))
  }, ["resource", "authorization_servers"]),
  OAuth2TokenResponse: object({
    access_token: string,
    token_type: string,
    expires_in: omitted(integer),
    refresh_token: omitted(string),
    scope: omitted(string),
    expiry: optional(dateTime)
  })
}
