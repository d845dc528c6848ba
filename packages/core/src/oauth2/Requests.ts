/**
 * The request bodies and queries of the OAuth2 routes: the administrators' apps
 * (`/oauth2-provider/apps`) and the authorization server (`/oauth2/...`: authorize with its
 * sign-in and consent forms, client registration, tokens, revocation). The routes in
 * `http/src/oauth2/` declare them; the services take their decoded types (`typeof X.Type`).
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { optional, optionalParam, uuid, wireName } from "../Requests.js"

const Name = Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." }))
const Url = Schema.String.pipe(Schema.maxLength(2048, { message: () => "Must be at most 2048 characters." }))

/** The query of GET /oauth2-provider/apps: the apps a user has granted (owners: every app without it). */
export const ListOAuth2AppsQuery = Schema.Struct({ user_id: optionalParam(uuid("user_id")) })

/** codersdk `PostOAuth2ProviderAppRequest` (and `PutOAuth2ProviderAppRequest`, the same fields). */
export class PostOAuth2ProviderAppRequest
  extends Schema.Class<PostOAuth2ProviderAppRequest>("PostOAuth2ProviderAppRequest")({
    name: Name,
    callback_url: Url,
    icon: optional(Url)
  }, wireName("PostOAuth2ProviderAppRequest"))
{}

const Text = Schema.String
/** A form body (`application/x-www-form-urlencoded`), as the OpenAPI document shows it. */
const formEncoding = <S extends Schema.Schema<any, any, never>>(schema: S): S =>
  HttpApiSchema.withEncoding(schema as Schema.Schema<any, Readonly<Record<string, string | undefined>>, never>, {
    kind: "UrlParams"
  }) as unknown as S

/** The query of the authorization endpoint; each part is checked by the service (errors per RFC 6749 4.1.2.1). */
export const OAuth2AuthorizeQuery = Schema.Struct({
  client_id: Schema.optional(Text),
  state: Schema.optional(Text),
  response_type: Schema.optional(Text),
  redirect_uri: Schema.optional(Text),
  scope: Schema.optional(Text),
  code_challenge: Schema.optional(Text),
  code_challenge_method: Schema.optional(Text)
})

/** The field of the consent form that says one scope was left checked: `grant:<scope name>`. */
export const CONSENT_GRANT_PREFIX = "grant:"

/**
 * The consent form: its CSRF token, the user's choice (`allow`, the default, or `deny`) and the
 * scopes left checked (one field each, `grant:<scope>`: a form field given twice keeps its last
 * value); `scope_choice` says the form offered the choice (without it, the whole requested scope
 * is granted).
 */
export const OAuth2ConsentRequest = Schema.Struct({
  csrf_token: Schema.optional(Text),
  decision: Schema.optional(Text),
  scope_choice: Schema.optional(Text)
  // Each value may be absent in the type: optional fields beside an index signature must fit it
  // (the published declarations are checked with exactOptionalPropertyTypes).
}, Schema.Record({ key: Schema.String, value: Schema.UndefinedOr(Text) })).pipe(
  formEncoding
)

/** The sign-in form of the authorization page. */
export const OAuth2SignInRequest = Schema.Struct({ email: Schema.optional(Text), password: Schema.optional(Text) })
  .pipe(
    formEncoding
  )

/** RFC 6749 4.1.3 and 6: a token request's form fields (every check is the service's, answered as 5.2). */
export const OAuth2TokenRequest = Schema.Struct({
  grant_type: Schema.optional(Text),
  code: Schema.optional(Text),
  redirect_uri: Schema.optional(Text),
  client_id: Schema.optional(Text),
  client_secret: Schema.optional(Text),
  code_verifier: Schema.optional(Text),
  refresh_token: Schema.optional(Text),
  scope: Schema.optional(Text),
  resource: Schema.optional(Text)
}).pipe(formEncoding)

/** RFC 7009 2.1. */
export const OAuth2RevokeRequest = Schema.Struct({
  client_id: Schema.optional(Text),
  client_secret: Schema.optional(Text),
  token: Schema.optional(Text),
  token_type_hint: Schema.optional(Text)
}).pipe(formEncoding)

/** codersdk `OAuth2ClientRegistrationRequest` (RFC 7591 2). */
export class OAuth2ClientRegistrationRequest
  extends Schema.Class<OAuth2ClientRegistrationRequest>("OAuth2ClientRegistrationRequest")({
    redirect_uris: optional(Schema.Array(Url)),
    client_name: optional(Text),
    client_uri: optional(Url),
    logo_uri: optional(Url),
    tos_uri: optional(Url),
    policy_uri: optional(Url),
    jwks_uri: optional(Url),
    jwks: optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
    software_id: optional(Text),
    software_version: optional(Text),
    software_statement: optional(Text),
    grant_types: optional(Schema.Array(Text)),
    response_types: optional(Schema.Array(Text)),
    token_endpoint_auth_method: optional(Text),
    scope: optional(Text),
    contacts: optional(Schema.Array(Text))
  }, wireName("OAuth2ClientRegistrationRequest"))
{}

/** RFC 7592 2.2: the update repeats the registration, with the client's id. */
export class OAuth2ClientUpdateRequest
  extends OAuth2ClientRegistrationRequest.extend<OAuth2ClientUpdateRequest>("OAuth2ClientUpdateRequest")({
    client_id: optional(Text)
  })
{}

/** The query of DELETE /oauth2/tokens: the app whose tokens the caller revokes. */
export const RevokeOAuth2AppQuery = Schema.Struct({ client_id: Schema.String })
