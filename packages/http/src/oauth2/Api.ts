/**
 * OAuth2 routes (docs/oauth2.md): the administrators' app routes (`/oauth2-provider/apps`), the
 * authorization server (`/oauth2/...`: authorize with its sign-in, register and manage clients,
 * tokens, revoke) and discovery (`/.well-known/oauth-...`). The last two families are declared
 * under `/api/v2` and served at the root too (the dispatcher's root form).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import * as Core from "@workbay/core"
import {
  OAuth2AuthorizationServerMetadata,
  OAuth2ClientConfiguration,
  OAuth2ClientRegistrationResponse,
  OAuth2ProtectedResourceMetadata,
  OAuth2ProviderApp,
  OAuth2ProviderAppSecret,
  OAuth2ProviderAppSecretFull,
  OAuth2TokenResponse
} from "@workbay/core"
import { Schema, SchemaAST } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  EmptyOk,
  Forbidden,
  NoContent,
  NotFound,
  optional,
  optionalParam,
  uuid,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"

/** An HTML page (the authorization endpoint's sign-in, consent and error pages), with its status. */
export const HTML_CONTENT_TYPE = "text/html; charset=utf-8"
const html = (status: number) =>
  HttpApiSchema.Uint8Array({ contentType: HTML_CONTENT_TYPE }).annotations(HttpApiSchema.annotations({ status }))

const errorWire = Schema.Struct({
  error: Schema.String,
  error_description: Schema.String,
  validations: Schema.optional(Schema.Array(Core.Validation))
})

/** An OAuth2 error as the API declares it: `{error, error_description}` on the wire (and the validations of a registration). */
const oauth2Wire = <A extends { readonly error: string; readonly error_description: string }>(
  cls: Schema.Schema<A, any, never> & { new(props: any): A },
  props: (e: typeof errorWire.Type) => ConstructorParameters<typeof cls>[0]
) =>
  Schema.transform(errorWire, Schema.typeSchema(cls), {
    strict: false,
    decode: (e) => new cls(props(e)),
    encode: (e) => {
      const validations = (e as { readonly validations?: ReadonlyArray<Core.Validation> | undefined }).validations
      return validations === undefined
        ? { error: e.error, error_description: e.error_description }
        : { error: e.error, error_description: e.error_description, validations }
    }
  }).annotations({
    ...HttpApiSchema.annotations({ status: HttpApiSchema.getStatusErrorAST(cls.ast) }),
    identifier: String(cls.ast.annotations[SchemaAST.IdentifierAnnotationId] ?? "OAuth2Error")
  })

export const OAuth2Error = oauth2Wire(Core.OAuth2Error, (e) => e)
export const OAuth2Unauthorized = oauth2Wire(
  Core.OAuth2Unauthorized,
  (e) => ({ error: e.error, error_description: e.error_description, challenge: "" })
)

const AppPath = Schema.Struct({ app: uuid("OAuth2 app id") })
const SecretPath = Schema.Struct({ app: uuid("OAuth2 app id"), secretID: uuid("OAuth2 app secret id") })

const Name = Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." }))
const Url = Schema.String.pipe(Schema.maxLength(2048, { message: () => "Must be at most 2048 characters." }))

/** codersdk `PostOAuth2ProviderAppRequest` (and `PutOAuth2ProviderAppRequest`, the same fields). */
export class PostOAuth2ProviderAppRequest
  extends Schema.Class<PostOAuth2ProviderAppRequest>("PostOAuth2ProviderAppRequest")({
    name: Name,
    callback_url: Url,
    icon: optional(Url)
  }, wireName("PostOAuth2ProviderAppRequest"))
{}

export class OAuth2AppsApi extends HttpApiGroup.make("oauth2Apps")
  .add(
    HttpApiEndpoint.get("list", "/oauth2-provider/apps")
      .setUrlParams(Schema.Struct({ user_id: optionalParam(uuid("user_id")) }))
      .addSuccess(Schema.Array(OAuth2ProviderApp))
  )
  .add(
    HttpApiEndpoint.post("create", "/oauth2-provider/apps").annotate(Audited, audit("oauth2_provider_app"))
      .setPayload(PostOAuth2ProviderAppRequest)
      .addSuccess(OAuth2ProviderApp, { status: 201 })
  )
  .add(HttpApiEndpoint.get("get", "/oauth2-provider/apps/:app").setPath(AppPath).addSuccess(OAuth2ProviderApp))
  .add(
    HttpApiEndpoint.put("update", "/oauth2-provider/apps/:app").annotate(Audited, audit("oauth2_provider_app"))
      .setPath(AppPath)
      .setPayload(PostOAuth2ProviderAppRequest)
      .addSuccess(OAuth2ProviderApp)
  )
  .add(
    HttpApiEndpoint.del("delete", "/oauth2-provider/apps/:app").annotate(Audited, audit("oauth2_provider_app"))
      .setPath(AppPath)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.get("listSecrets", "/oauth2-provider/apps/:app/secrets")
      .setPath(AppPath)
      .addSuccess(Schema.Array(OAuth2ProviderAppSecret))
  )
  .add(
    HttpApiEndpoint.post("createSecret", "/oauth2-provider/apps/:app/secrets").annotate(
      Audited,
      audit("oauth2_provider_app_secret")
    )
      .setPath(AppPath)
      .addSuccess(OAuth2ProviderAppSecretFull, { status: 201 })
  )
  .add(
    HttpApiEndpoint.del("deleteSecret", "/oauth2-provider/apps/:app/secrets/:secretID")
      .annotate(Audited, audit("oauth2_provider_app_secret"))
      .setPath(SecretPath)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

const Text = Schema.String
/** A form body (`application/x-www-form-urlencoded`), as the OpenAPI document shows it. */
const formEncoding = <S extends Schema.Schema<any, any, never>>(schema: S): S =>
  HttpApiSchema.withEncoding(schema as Schema.Schema<any, Readonly<Record<string, string | undefined>>, never>, {
    kind: "UrlParams"
  }) as unknown as S

/** The query of the authorization endpoint; each part is checked by the service (errors per RFC 6749 4.1.2.1). */
export const AuthorizeQuery = Schema.Struct({
  client_id: Schema.optional(Text),
  state: Schema.optional(Text),
  response_type: Schema.optional(Text),
  redirect_uri: Schema.optional(Text),
  scope: Schema.optional(Text),
  code_challenge: Schema.optional(Text),
  code_challenge_method: Schema.optional(Text)
})

/** The consent form: its CSRF token and the user's choice (`allow`, the default, or `deny`). */
export const ConsentForm = Schema.Struct({ csrf_token: Schema.optional(Text), decision: Schema.optional(Text) }).pipe(
  formEncoding
)

/** The sign-in form of the authorization page. */
export const SignInForm = Schema.Struct({ email: Schema.optional(Text), password: Schema.optional(Text) }).pipe(
  formEncoding
)

/** RFC 6749 4.1.3 and 6: a token request's form fields (every check is the service's, answered as 5.2). */
export const TokenForm = Schema.Struct({
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
export const RevokeForm = Schema.Struct({
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

const ClientPath = Schema.Struct({ client_id: Schema.String })

export class OAuth2Api extends HttpApiGroup.make("oauth2")
  .add(
    HttpApiEndpoint.get("authorizePage", "/oauth2/authorize")
      .setUrlParams(AuthorizeQuery)
      .addSuccess(html(200))
      .addSuccess(html(302))
      .addSuccess(html(400))
  )
  .add(
    HttpApiEndpoint.post("authorize", "/oauth2/authorize")
      .annotate(Audited, audit("oauth2_provider_app_code_token"))
      .setUrlParams(AuthorizeQuery)
      .setPayload(ConsentForm)
      .addSuccess(HttpApiSchema.Empty(302))
      .addError(BadRequest)
      .addError(Forbidden)
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("signIn", "/oauth2/sign-in")
      .annotate(Audited, audit("api_key", { action: "login", anonymous: true }))
      .setUrlParams(AuthorizeQuery)
      .setPayload(SignInForm)
      .addSuccess(html(303))
      .addSuccess(html(400))
      .addSuccess(html(401))
      .addError(Forbidden)
  )
  .add(
    HttpApiEndpoint.post("register", "/oauth2/register")
      .annotate(Audited, audit("oauth2_provider_app", { action: "register", anonymous: true }))
      .setPayload(OAuth2ClientRegistrationRequest)
      .addSuccess(OAuth2ClientRegistrationResponse, { status: 201 })
      .addError(OAuth2Error)
  )
  .add(
    HttpApiEndpoint.get("getClient", "/oauth2/clients/:client_id")
      .setPath(ClientPath)
      .addSuccess(OAuth2ClientConfiguration)
      .addError(OAuth2Unauthorized)
  )
  .add(
    HttpApiEndpoint.put("updateClient", "/oauth2/clients/:client_id")
      .annotate(Audited, audit("oauth2_provider_app", { anonymous: true }))
      .setPath(ClientPath)
      .setPayload(OAuth2ClientUpdateRequest)
      .addSuccess(OAuth2ClientConfiguration)
      .addError(OAuth2Error)
      .addError(OAuth2Unauthorized)
  )
  .add(
    HttpApiEndpoint.del("deleteClient", "/oauth2/clients/:client_id")
      .annotate(Audited, audit("oauth2_provider_app", { anonymous: true }))
      .setPath(ClientPath)
      .addSuccess(NoContent)
      .addError(OAuth2Unauthorized)
  )
  .add(
    HttpApiEndpoint.post("token", "/oauth2/tokens")
      .annotate(Audited, audit("api_key", { anonymous: true }))
      .setPayload(TokenForm)
      .addSuccess(OAuth2TokenResponse)
      .addError(OAuth2Error)
      .addError(OAuth2Unauthorized)
  )
  .add(
    HttpApiEndpoint.del("revokeApp", "/oauth2/tokens")
      .annotate(Audited, audit("api_key"))
      .setUrlParams(Schema.Struct({ client_id: Schema.String }))
      .addSuccess(NoContent)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("revoke", "/oauth2/revoke")
      .annotate(Audited, audit("api_key", { action: "delete", anonymous: true }))
      .setPayload(RevokeForm)
      .addSuccess(EmptyOk)
      .addError(OAuth2Error)
      .addError(OAuth2Unauthorized)
  )
  .prefix("/api/v2")
{}

export class OAuth2DiscoveryApi extends HttpApiGroup.make("oauth2Discovery")
  .add(
    HttpApiEndpoint.get("authorizationServer", "/.well-known/oauth-authorization-server")
      .addSuccess(OAuth2AuthorizationServerMetadata)
  )
  .add(
    HttpApiEndpoint.get("protectedResource", "/.well-known/oauth-protected-resource")
      .addSuccess(OAuth2ProtectedResourceMetadata)
  )
  .prefix("/api/v2")
{}
