/**
 * OAuth2 routes (docs/oauth2.md): the administrators' app routes (`/oauth2-provider/apps`), the
 * authorization server (`/oauth2/...`: authorize with its sign-in, register and manage clients,
 * tokens, revoke) and discovery (`/.well-known/oauth-...`). The last two families are declared
 * under `/api/v2` and served at the root too (the dispatcher's root form).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import * as Core from "@workbay/core"
import {
  ListOAuth2AppsQuery,
  OAuth2AuthorizationServerMetadata,
  OAuth2AuthorizeQuery,
  OAuth2ClientConfiguration,
  OAuth2ClientRegistrationRequest,
  OAuth2ClientRegistrationResponse,
  OAuth2ClientUpdateRequest,
  OAuth2ConsentRequest,
  OAuth2ProtectedResourceMetadata,
  OAuth2ProviderApp,
  OAuth2ProviderAppSecret,
  OAuth2ProviderAppSecretFull,
  OAuth2ProviderSettings,
  OAuth2RevokeRequest,
  OAuth2SignInRequest,
  OAuth2TokenRequest,
  OAuth2TokenResponse,
  PostOAuth2ProviderAppRequest,
  RevokeOAuth2AppQuery
} from "@workbay/core"
import { Schema, SchemaAST } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, EmptyOk, Forbidden, NoContent, NotFound, uuid } from "../Common.js"
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

export class OAuth2AppsApi extends HttpApiGroup.make("oauth2Apps")
  .add(
    HttpApiEndpoint.get("list", "/oauth2-provider/apps")
      .setUrlParams(ListOAuth2AppsQuery)
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
  .add(HttpApiEndpoint.get("getSettings", "/oauth2-provider/settings").addSuccess(OAuth2ProviderSettings))
  .add(
    HttpApiEndpoint.put("updateSettings", "/oauth2-provider/settings")
      .annotate(Audited, audit("oauth2_provider_settings"))
      .setPayload(OAuth2ProviderSettings)
      .addSuccess(OAuth2ProviderSettings)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

const ClientPath = Schema.Struct({ client_id: Schema.String })

export class OAuth2Api extends HttpApiGroup.make("oauth2")
  .add(
    HttpApiEndpoint.get("authorizePage", "/oauth2/authorize")
      .setUrlParams(OAuth2AuthorizeQuery)
      .addSuccess(html(200))
      .addSuccess(html(302))
      .addSuccess(html(400))
  )
  .add(
    HttpApiEndpoint.post("authorize", "/oauth2/authorize")
      .annotate(Audited, audit("oauth2_provider_app_code_token"))
      .setUrlParams(OAuth2AuthorizeQuery)
      .setPayload(OAuth2ConsentRequest)
      .addSuccess(HttpApiSchema.Empty(302))
      .addError(BadRequest)
      .addError(Forbidden)
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("signIn", "/oauth2/sign-in")
      .annotate(Audited, audit("api_key", { action: "login", anonymous: true }))
      .setUrlParams(OAuth2AuthorizeQuery)
      .setPayload(OAuth2SignInRequest)
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
      .addError(Forbidden)
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
      .setPayload(OAuth2TokenRequest)
      .addSuccess(OAuth2TokenResponse)
      .addError(OAuth2Error)
      .addError(OAuth2Unauthorized)
  )
  .add(
    HttpApiEndpoint.del("revokeApp", "/oauth2/tokens")
      .annotate(Audited, audit("api_key"))
      .setUrlParams(RevokeOAuth2AppQuery)
      .addSuccess(NoContent)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("revoke", "/oauth2/revoke")
      .annotate(Audited, audit("api_key", { action: "delete", anonymous: true }))
      .setPayload(OAuth2RevokeRequest)
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
