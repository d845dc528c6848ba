/**
 * OAuth2 applications: the administrators' routes (`/oauth2-provider/apps` and their secrets)
 * and dynamic client registration with its management (RFC 7591, RFC 7592). Secrets and
 * registration access tokens are shown once and stored as SHA-256 hashes.
 */
import { Clock, Effect, Option } from "effect"
import { authorize, authorizeRead } from "../Actor.js"
import { auditAdditional, auditResource } from "../Audit.js"
import { LicenseRepo } from "../enterprise/License.js"
import { BadRequest, Forbidden, NotFound, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { hashSecret, randomString, sameHash } from "../Platform.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import {
  OAuth2AppEndpoints,
  type OAuth2AppRecord,
  type OAuth2AppSecretRecord,
  OAuth2ClientConfiguration,
  OAuth2ClientRegistrationResponse,
  OAuth2Error,
  OAuth2ProviderApp,
  OAuth2ProviderAppSecret,
  OAuth2ProviderAppSecretFull,
  OAuth2Repo,
  OAuth2Unauthorized
} from "./OAuth2App.js"
import { dynamicRegistrationEnabled } from "./OAuth2Settings.js"
import type {
  ListOAuth2AppsQuery,
  OAuth2ClientRegistrationRequest,
  OAuth2ClientUpdateRequest,
  PostOAuth2ProviderAppRequest
} from "./Requests.js"
import { redirectUriProblem, validateRegistration } from "./Rules.js"
import { formatScope, parseScope } from "./Scopes.js"

/** The access URL without a trailing slash: the issuer and the base of every endpoint. */
export const issuerOf = (accessUrl: string) => accessUrl.replace(/\/+$/, "")

/** A new client secret: `wbs_` and 40 random characters; the list shows its first 6. */
export const newClientSecret = () => {
  const secret = `wbs_${randomString(40)}`
  return { secret, hashed: hashSecret(secret), display: `${secret.slice(0, 10)}${"*".repeat(8)}` }
}

/** How audit entries name an app and a secret. */
export const appResource = (app: Pick<OAuth2AppRecord, "id" | "name" | "icon">) => ({
  type: "oauth2_provider_app",
  id: app.id,
  target: app.name,
  icon: app.icon
})
const secretResource = (secret: Pick<OAuth2AppSecretRecord, "id" | "display_secret">) => ({
  type: "oauth2_provider_app_secret",
  id: secret.id,
  target: secret.display_secret
})

/** What a diff shows of an app: no hashes. */
const auditable = (app: OAuth2AppRecord) => ({
  name: app.name,
  icon: app.icon,
  callback_url: app.callback_url,
  redirect_uris: app.redirect_uris,
  token_endpoint_auth_method: app.token_endpoint_auth_method,
  grant_types: app.grant_types,
  response_types: app.response_types,
  dynamically_registered: app.dynamically_registered
})

const APP_NAME = /^[a-zA-Z0-9]+(?:[ ._-][a-zA-Z0-9]+)*$/

const registrationError = (error: string, description: string) =>
  new OAuth2Error({ error, error_description: description })

/** RFC 7592: the 401 of a missing, wrong or stale registration access token (and of an unknown client). */
const invalidToken = (description: string) =>
  new OAuth2Unauthorized({
    error: "invalid_token",
    error_description: description,
    challenge: "Bearer error=\"invalid_token\""
  })

export class OAuth2Apps extends Effect.Service<OAuth2Apps>()("@workbay/core/OAuth2Apps", {
  effect: Effect.gen(function*() {
    const repo = yield* OAuth2Repo
    const siteConfigs = yield* LicenseRepo
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const settings = yield* Settings
    const issuer = issuerOf(settings.accessUrl)
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const endpoints = new OAuth2AppEndpoints({
      authorization: `${issuer}/oauth2/authorize`,
      token: `${issuer}/oauth2/tokens`,
      token_revoke: `${issuer}/oauth2/revoke`,
      device_authorization: ""
    }, true)

    const toApp = (app: OAuth2AppRecord) =>
      new OAuth2ProviderApp(
        { id: app.id, name: app.name, callback_url: app.callback_url, icon: app.icon, endpoints },
        true
      )

    const toSecret = (s: OAuth2AppSecretRecord) =>
      new OAuth2ProviderAppSecret(
        { id: s.id, last_used_at: s.last_used_at, client_secret_truncated: s.display_secret },
        true
      )

    const validateInput = (input: typeof PostOAuth2ProviderAppRequest.Type) => {
      const problems: Array<Validation> = []
      if (input.name === "" || input.name.length > 64 || !APP_NAME.test(input.name)) {
        problems.push(
          new Validation({
            field: "name",
            detail: "Name must be 1 to 64 letters or digits, words separated by one space, '.', '_' or '-'."
          })
        )
      }
      const callbackProblem = input.callback_url === "" ? "is required" : redirectUriProblem(input.callback_url)
      if (callbackProblem !== undefined) {
        problems.push(new Validation({ field: "callback_url", detail: `Callback URL ${callbackProblem}.` }))
      }
      return problems.length > 0
        ? Effect.fail(new BadRequest({ message: "Validation failed.", validations: problems }))
        : Effect.void
    }

    /** The app `{app}` names (404 when there is none or the caller may not read apps). */
    const findApp = (id: string) =>
      Effect.gen(function*() {
        yield* authorizeRead("OAuth2 app", { type: "oauth2_app", id: isUuid(id) ? id.toLowerCase() : id })
        const found = isUuid(id) ? yield* repo.findApp(id.toLowerCase()) : Option.none()
        if (Option.isNone(found)) return yield* NotFound.resource("OAuth2 app")
        return found.value
      })

    const list = (filter: typeof ListOAuth2AppsQuery.Type) =>
      Effect.gen(function*() {
        yield* authorizeRead("OAuth2 app", { type: "oauth2_app" })
        const apps = yield* repo.listApps({ userId: filter.user_id?.toLowerCase() })
        return apps.map(toApp)
      }).pipe(span("OAuth2Apps.list"))

    const get = (id: string) => Effect.map(findApp(id), toApp).pipe(span("OAuth2Apps.get"))

    const create = (input: typeof PostOAuth2ProviderAppRequest.Type) =>
      Effect.gen(function*() {
        yield* authorize("create", { type: "oauth2_app" })
        yield* validateInput(input)
        const at = yield* now
        const app: OAuth2AppRecord = {
          id: yield* ids.uuid,
          name: input.name,
          icon: input.icon ?? "",
          callback_url: input.callback_url,
          redirect_uris: [input.callback_url],
          token_endpoint_auth_method: "client_secret_basic",
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          metadata: {},
          dynamically_registered: false,
          hashed_registration_token: null,
          created_at: at,
          updated_at: at
        }
        yield* repo.insertApp(app)
        yield* auditResource(appResource(app), undefined, auditable(app))
        return toApp(app)
      }).pipe(span("OAuth2Apps.create"))

    const update = (id: string, input: typeof PostOAuth2ProviderAppRequest.Type) =>
      Effect.gen(function*() {
        const app = yield* findApp(id)
        yield* authorize("update", { type: "oauth2_app", id: app.id })
        yield* validateInput(input)
        const next: OAuth2AppRecord = {
          ...app,
          name: input.name,
          icon: input.icon ?? "",
          callback_url: input.callback_url,
          redirect_uris: app.dynamically_registered ? app.redirect_uris : [input.callback_url],
          updated_at: yield* now
        }
        yield* repo.updateApp(next)
        yield* auditResource(appResource(next), auditable(app), auditable(next))
        return toApp(next)
      }).pipe(span("OAuth2Apps.update"))

    const remove = (id: string) =>
      Effect.gen(function*() {
        const app = yield* findApp(id)
        yield* authorize("delete", { type: "oauth2_app", id: app.id })
        yield* repo.deleteApp(app.id)
        yield* auditResource(appResource(app), auditable(app), undefined)
      }).pipe(span("OAuth2Apps.delete"))

    const listSecrets = (id: string) =>
      Effect.gen(function*() {
        const app = yield* findApp(id)
        yield* authorizeRead("OAuth2 app secret", { type: "oauth2_app_secret" })
        return (yield* repo.listSecrets(app.id)).map(toSecret)
      }).pipe(span("OAuth2Apps.listSecrets"))

    const insertSecret = (appId: string) =>
      Effect.gen(function*() {
        const made = newClientSecret()
        const record: OAuth2AppSecretRecord = {
          id: yield* ids.uuid,
          app_id: appId,
          hashed_secret: made.hashed,
          display_secret: made.display,
          created_at: yield* now,
          last_used_at: null
        }
        yield* repo.insertSecret(record)
        return { record, secret: made.secret }
      })

    const createSecret = (id: string) =>
      Effect.gen(function*() {
        const app = yield* findApp(id)
        yield* authorize("create", { type: "oauth2_app_secret" })
        const { record, secret } = yield* insertSecret(app.id)
        yield* auditResource(secretResource(record), undefined, { app_id: app.id, hashed_secret: record.hashed_secret })
        return new OAuth2ProviderAppSecretFull({ id: record.id, client_secret_full: secret }, true)
      }).pipe(span("OAuth2Apps.createSecret"))

    const deleteSecret = (id: string, secretId: string) =>
      Effect.gen(function*() {
        const app = yield* findApp(id)
        yield* authorize("delete", { type: "oauth2_app_secret" })
        const secrets = yield* repo.listSecrets(app.id)
        const secret = secrets.find((s) => s.id === secretId.toLowerCase())
        if (secret === undefined) return yield* NotFound.resource("OAuth2 app secret")
        // The tokens issued while the client authenticated with this secret go with it (one transaction).
        const revoked = yield* repo.deleteSecret(app.id, secret.id)
        if (Option.isNone(revoked)) return yield* NotFound.resource("OAuth2 app secret")
        yield* auditResource(secretResource(secret), { app_id: app.id, hashed_secret: secret.hashed_secret }, undefined)
        if (revoked.value > 0) yield* auditAdditional({ oauth2_tokens_revoked: revoked.value })
      }).pipe(span("OAuth2Apps.deleteSecret"))

    // --- Dynamic registration (RFC 7591) and its management (RFC 7592) ---

    const registrationClientUri = (clientId: string) => `${issuer}/oauth2/clients/${clientId}`

    const clientFields = (app: OAuth2AppRecord) => {
      const m = app.metadata
      const out: Record<string, unknown> = {
        client_id: app.id,
        client_id_issued_at: Math.floor(app.created_at.getTime() / 1000),
        redirect_uris: app.redirect_uris,
        client_name: app.name,
        grant_types: app.grant_types,
        response_types: app.response_types,
        token_endpoint_auth_method: app.token_endpoint_auth_method,
        registration_client_uri: registrationClientUri(app.id)
      }
      for (
        const key of [
          "client_uri",
          "logo_uri",
          "tos_uri",
          "policy_uri",
          "jwks_uri",
          "software_id",
          "software_version",
          "scope"
        ] as const
      ) {
        const v = m[key]
        if (v !== undefined && v !== "") out[key] = v
      }
      if (m.jwks !== undefined && m.jwks !== null) out.jwks = m.jwks
      if (m.contacts !== undefined && m.contacts.length > 0) out.contacts = m.contacts
      return out
    }

    const validRegistration = (req: typeof OAuth2ClientRegistrationRequest.Type) => {
      const checked = validateRegistration(req)
      if ("ok" in checked) return Effect.succeed(checked.ok)
      const { description, error, field } = checked.problem
      return Effect.fail(
        new OAuth2Error({
          error,
          error_description: description,
          validations: field === undefined ? undefined : [new Validation({ field, detail: description })]
        })
      )
    }

    const metadataOf = (req: typeof OAuth2ClientRegistrationRequest.Type) => ({
      client_uri: req.client_uri,
      logo_uri: req.logo_uri,
      tos_uri: req.tos_uri,
      policy_uri: req.policy_uri,
      jwks_uri: req.jwks_uri,
      jwks: req.jwks ?? undefined,
      software_id: req.software_id,
      software_version: req.software_version,
      scope: req.scope === undefined ? undefined : formatScope(parseScope(req.scope)),
      contacts: req.contacts
    })

    const register = (req: typeof OAuth2ClientRegistrationRequest.Type) =>
      Effect.gen(function*() {
        // An owner may close self-registration (GET/PUT /oauth2-provider/settings); registered clients go on.
        if (!(yield* Effect.provideService(dynamicRegistrationEnabled, LicenseRepo, siteConfigs))) {
          return yield* new Forbidden({
            message: "Dynamic client registration is disabled.",
            detail: "An owner turns it on with PUT /api/v2/oauth2-provider/settings; an owner can also create the app."
          })
        }
        const valid = yield* validRegistration(req)
        const at = yield* now
        const token = `wbra_${randomString(40)}`
        const app: OAuth2AppRecord = {
          id: yield* ids.uuid,
          name: valid.client_name.slice(0, 64),
          icon: req.logo_uri ?? "",
          callback_url: valid.redirect_uris[0]!,
          redirect_uris: valid.redirect_uris,
          token_endpoint_auth_method: valid.token_endpoint_auth_method,
          grant_types: valid.grant_types,
          response_types: valid.response_types,
          metadata: metadataOf(req),
          dynamically_registered: true,
          hashed_registration_token: hashSecret(token),
          created_at: at,
          updated_at: at
        }
        const secret = yield* tx.atomic(Effect.gen(function*() {
          yield* repo.insertApp(app)
          // A public client (auth method none) gets no secret.
          return app.token_endpoint_auth_method === "none" ? undefined : yield* insertSecret(app.id)
        }))
        yield* auditResource(appResource(app), undefined, auditable(app))
        return new OAuth2ClientRegistrationResponse(
          {
            ...clientFields(app),
            ...(secret !== undefined ? { client_secret: secret.secret, client_secret_expires_at: 0 } : {}),
            registration_access_token: token
          } as ConstructorParameters<typeof OAuth2ClientRegistrationResponse>[0],
          true
        )
      }).pipe(span("OAuth2Apps.register"))

    /** The registered client `clientId` when `authorization` carries its registration access token; else 401. */
    const registeredClient = (clientId: string, authorization: string | undefined) =>
      Effect.gen(function*() {
        const m = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization)
        if (m === null) {
          return yield* invalidToken("Send the registration access token as \"Authorization: Bearer <token>\".")
        }
        const found = isUuid(clientId) ? yield* repo.findApp(clientId.toLowerCase()) : Option.none()
        const app = Option.getOrUndefined(found)
        if (
          app === undefined || app.hashed_registration_token === null ||
          !sameHash(app.hashed_registration_token, hashSecret(m[1]!))
        ) {
          return yield* invalidToken("The registration access token is not valid for this client.")
        }
        return app
      })

    const getClient = (clientId: string, authorization: string | undefined) =>
      Effect.map(
        registeredClient(clientId, authorization),
        (app) =>
          new OAuth2ClientConfiguration(
            clientFields(app) as ConstructorParameters<typeof OAuth2ClientConfiguration>[0],
            true
          )
      ).pipe(
        span("OAuth2Apps.getClient")
      )

    const updateClient = (
      clientId: string,
      authorization: string | undefined,
      req: typeof OAuth2ClientUpdateRequest.Type
    ) =>
      Effect.gen(function*() {
        const app = yield* registeredClient(clientId, authorization)
        if (req.client_id !== undefined && req.client_id !== "" && req.client_id.toLowerCase() !== app.id) {
          return yield* registrationError(
            "invalid_client_metadata",
            "client_id does not match the client being updated."
          )
        }
        const valid = yield* validRegistration(req)
        if ((valid.token_endpoint_auth_method === "none") !== (app.token_endpoint_auth_method === "none")) {
          return yield* registrationError(
            "invalid_client_metadata",
            "A client cannot change between public (none) and confidential authentication."
          )
        }
        const next: OAuth2AppRecord = {
          ...app,
          name: valid.client_name.slice(0, 64),
          icon: req.logo_uri ?? "",
          callback_url: valid.redirect_uris[0]!,
          redirect_uris: valid.redirect_uris,
          token_endpoint_auth_method: valid.token_endpoint_auth_method,
          grant_types: valid.grant_types,
          response_types: valid.response_types,
          metadata: metadataOf(req),
          updated_at: yield* now
        }
        yield* repo.updateApp(next)
        yield* auditResource(appResource(next), auditable(app), auditable(next))
        return new OAuth2ClientConfiguration(
          clientFields(next) as ConstructorParameters<typeof OAuth2ClientConfiguration>[0],
          true
        )
      }).pipe(span("OAuth2Apps.updateClient"))

    const deleteClient = (clientId: string, authorization: string | undefined) =>
      Effect.gen(function*() {
        const app = yield* registeredClient(clientId, authorization)
        yield* repo.deleteApp(app.id)
        yield* auditResource(appResource(app), auditable(app), undefined)
      }).pipe(span("OAuth2Apps.deleteClient"))

    return {
      list,
      get,
      create,
      update,
      delete: remove,
      listSecrets,
      createSecret,
      deleteSecret,
      register,
      getClient,
      updateClient,
      deleteClient,
      toApp
    } as const
  })
}) {}
