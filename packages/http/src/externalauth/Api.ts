/**
 * External auth routes (the described system's Git group, `docs/reference/api/git.md`): the
 * caller's links to the deployment's external auth providers, the web flow's callback, the
 * device flow and unlinking; and what a workspace agent asks with its own token
 * (`/workspaceagents/me/external-auth`, and the removed `/gitauth`, answered the same way as the
 * described system still does). See docs/external-auth.md.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  AgentExternalAuthResponse,
  DeleteExternalAuthResponse,
  ExternalAuthDevice,
  ExternalAuthWire,
  ListUserExternalAuthResponse,
  ProviderUnavailable as CoreProviderUnavailable
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden, NoContent, NotFound, optionalParam, wire } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"

/** 502: the provider could not be reached, or answered something unusable. */
export const ProviderUnavailable = wire(CoreProviderUnavailable)

const ProviderPath = Schema.Struct({
  externalauth: Schema.String.pipe(Schema.minLength(1, { message: () => "The provider id is required." }))
})

const text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `At most ${max} characters.` }))

/** The callback's query: the provider's `code` and `state` (or `error`), or, to start, a `redirect` path. */
export const CallbackQuery = Schema.Struct({
  code: optionalParam(text(4096)),
  state: optionalParam(text(1024)),
  error: optionalParam(text(256)),
  error_description: optionalParam(text(1024)),
  redirect: optionalParam(text(2048))
})

export class ExternalAuthDeviceExchange extends Schema.Class<ExternalAuthDeviceExchange>("ExternalAuthDeviceExchange")({
  device_code: text(1024).pipe(Schema.minLength(1, { message: () => "The device code is required." }))
}) {}

/** `listen` is on when present at all (`?listen`, `?listen=true`), as the described system reads it; `false` or `0` turn it off. */
const ListenParam = Schema.transform(Schema.String, Schema.Boolean, {
  strict: true,
  decode: (s) => s !== "false" && s !== "0",
  encode: (b) => (b ? "true" : "false")
})

/** What an agent asks: `match` (a URL; `url` for older agents) or `id`, and `listen`. */
export const AgentExternalAuthQuery = Schema.Struct({
  match: optionalParam(text(2048)),
  url: optionalParam(text(2048)),
  id: optionalParam(text(256)),
  listen: Schema.optional(ListenParam)
})

/** The caller's links and the providers. */
export class ExternalAuthApi extends HttpApiGroup.make("externalAuth")
  .add(HttpApiEndpoint.get("list", "/external-auth").addSuccess(ListUserExternalAuthResponse))
  .add(HttpApiEndpoint.get("get", "/external-auth/:externalauth").setPath(ProviderPath).addSuccess(ExternalAuthWire))
  .add(
    HttpApiEndpoint.del("unlink", "/external-auth/:externalauth")
      .annotate(Audited, audit("external_auth_link"))
      .setPath(ProviderPath)
      .addSuccess(DeleteExternalAuthResponse)
  )
  .add(
    // Links the provider (a change, though a GET: the provider sends the browser back here).
    HttpApiEndpoint.get("callback", "/external-auth/:externalauth/callback")
      .annotate(Audited, audit("external_auth_link", { action: "create" }))
      .setPath(ProviderPath)
      .setUrlParams(CallbackQuery)
      .addSuccess(HttpApiSchema.Empty(307))
  )
  .add(
    HttpApiEndpoint.get("device", "/external-auth/:externalauth/device").setPath(ProviderPath).addSuccess(
      ExternalAuthDevice
    )
  )
  .add(
    HttpApiEndpoint.post("deviceExchange", "/external-auth/:externalauth/device")
      .annotate(Audited, audit("external_auth_link", { action: "create" }))
      .setPath(ProviderPath)
      .setPayload(ExternalAuthDeviceExchange)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(ProviderUnavailable)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/** The agent's question, with its own token. */
export class AgentExternalAuthApi extends HttpApiGroup.make("agentExternalAuth")
  .add(
    HttpApiEndpoint.get("externalAuth", "/workspaceagents/me/external-auth")
      .setUrlParams(AgentExternalAuthQuery)
      .addSuccess(AgentExternalAuthResponse)
  )
  .add(
    // Removed in the described system's API, yet still served there as external-auth: older agents call it.
    HttpApiEndpoint.get("gitAuth", "/workspaceagents/me/gitauth")
      .setUrlParams(AgentExternalAuthQuery)
      .addSuccess(AgentExternalAuthResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(ProviderUnavailable)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}
