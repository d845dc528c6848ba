/**
 * External auth routes (the described system's Git group, `docs/reference/api/git.md`): the
 * caller's links to the deployment's external auth providers, the web flow's callback, the
 * device flow and unlinking; and what a workspace agent asks with its own token
 * (`/workspaceagents/me/external-auth`, and the removed `/gitauth`, answered the same way as the
 * described system still does). See docs/external-auth.md.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  AgentExternalAuthQuery,
  AgentExternalAuthResponse,
  DeleteExternalAuthResponse,
  ExternalAuthCallbackQuery,
  ExternalAuthDevice,
  ExternalAuthDeviceExchangeRequest,
  ExternalAuthWire,
  ListUserExternalAuthResponse,
  ProviderUnavailable as CoreProviderUnavailable
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden, NoContent, NotFound, wire } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"

/** 502: the provider could not be reached, or answered something unusable. */
export const ProviderUnavailable = wire(CoreProviderUnavailable)

const ProviderPath = Schema.Struct({
  externalauth: Schema.String.pipe(Schema.minLength(1, { message: () => "The provider id is required." }))
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
      .setUrlParams(ExternalAuthCallbackQuery)
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
      .setPayload(ExternalAuthDeviceExchangeRequest)
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
