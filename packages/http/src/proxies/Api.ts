/**
 * Workspace proxy routes (docs/workspace-proxies.md): the administrators' `/workspaceproxies`,
 * `/regions`, and the proxy's own registration (`/workspaceproxies/me/...`), authenticated by the
 * proxy's token in `Coder-External-Proxy-Session-Token` instead of a user's session.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  RegionsResponse,
  RegisterWorkspaceProxyResponse,
  ResponseBody,
  UpdateWorkspaceProxyResponse,
  usernamePattern,
  WorkspaceProxiesResponse,
  WorkspaceProxy
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NoContent,
  NotFound,
  optional,
  Unauthorized,
  uuid,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

/** A proxy's name: the rules of usernames (1-32 alphanumerics with single inner hyphens). */
const ProxyName = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Name is required." }),
  Schema.maxLength(32, { message: () => "Name must be at most 32 characters." }),
  Schema.pattern(usernamePattern, {
    message: () => "Name must be alphanumeric with single hyphens, not starting or ending with a hyphen."
  })
)
/** A new name, or empty to keep the current one. */
const NameOrEmpty = Schema.Union(Schema.Literal(""), ProxyName)
  .annotations({
    message: () => ({ message: "Name must be 1-32 alphanumerics with single inner hyphens, or empty.", override: true })
  })

/** `{workspaceproxy}`: a proxy id or name. */
const ProxyPath = Schema.Struct({ workspaceproxy: Text(64) })

/** codersdk `CreateWorkspaceProxyRequest`. */
export class CreateWorkspaceProxyRequest
  extends Schema.Class<CreateWorkspaceProxyRequest>("CreateWorkspaceProxyRequest")({
    name: ProxyName,
    display_name: optional(Text(128)),
    icon: optional(Text(2048))
  }, wireName("CreateWorkspaceProxyRequest"))
{}

/** codersdk `PatchWorkspaceProxy`. `id` is accepted for the client's sake; the path names the proxy. */
export class PatchWorkspaceProxy extends Schema.Class<PatchWorkspaceProxy>("PatchWorkspaceProxy")({
  id: optional(Schema.Union(Schema.Literal(""), uuid("id"))),
  name: optional(NameOrEmpty),
  display_name: optional(Text(128)),
  icon: optional(Text(2048)),
  regenerate_token: optional(Schema.Boolean)
}, wireName("PatchWorkspaceProxy")) {}

/** wsproxysdk `RegisterWorkspaceProxyRequest`. */
export class RegisterWorkspaceProxyRequest
  extends Schema.Class<RegisterWorkspaceProxyRequest>("RegisterWorkspaceProxyRequest")({
    access_url: Text(2048),
    wildcard_hostname: optional(Text(512)),
    derp_enabled: optional(Schema.Boolean),
    derp_only: optional(Schema.Boolean),
    replica_id: uuid("replica_id"),
    replica_hostname: optional(Text(512)),
    replica_error: optional(Text(4096)),
    replica_relay_address: optional(Text(2048)),
    version: optional(Text(128))
  }, wireName("RegisterWorkspaceProxyRequest"))
{}

/** wsproxysdk `DeregisterWorkspaceProxyRequest`. */
export class DeregisterWorkspaceProxyRequest
  extends Schema.Class<DeregisterWorkspaceProxyRequest>("DeregisterWorkspaceProxyRequest")({
    replica_id: uuid("replica_id")
  }, wireName("DeregisterWorkspaceProxyRequest"))
{}

export class WorkspaceProxiesApi extends HttpApiGroup.make("workspaceProxies")
  .add(HttpApiEndpoint.get("list", "/workspaceproxies").addSuccess(WorkspaceProxiesResponse))
  .add(
    HttpApiEndpoint.post("create", "/workspaceproxies").annotate(Audited, audit("workspace_proxy"))
      .setPayload(CreateWorkspaceProxyRequest)
      .addSuccess(UpdateWorkspaceProxyResponse, { status: 201 })
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("get", "/workspaceproxies/:workspaceproxy").setPath(ProxyPath).addSuccess(WorkspaceProxy))
  .add(
    HttpApiEndpoint.patch("update", "/workspaceproxies/:workspaceproxy").annotate(Audited, audit("workspace_proxy"))
      .setPath(ProxyPath)
      .setPayload(PatchWorkspaceProxy)
      .addSuccess(UpdateWorkspaceProxyResponse)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.del("delete", "/workspaceproxies/:workspaceproxy").annotate(Audited, audit("workspace_proxy"))
      .setPath(ProxyPath)
      .addSuccess(ResponseBody)
  )
  .add(HttpApiEndpoint.get("regions", "/regions").addSuccess(RegionsResponse))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/**
 * The routes a proxy calls with its own token. Not audited, as in the described system: no user
 * acts, and the health checker records what follows.
 */
export class WorkspaceProxyMeApi extends HttpApiGroup.make("workspaceProxyMe")
  .add(
    HttpApiEndpoint.post("register", "/workspaceproxies/me/register").annotate(Audited, false)
      .setPayload(RegisterWorkspaceProxyRequest)
      .addSuccess(RegisterWorkspaceProxyResponse, { status: 201 })
  )
  .add(
    HttpApiEndpoint.post("deregister", "/workspaceproxies/me/deregister").annotate(Audited, false)
      .setPayload(DeregisterWorkspaceProxyRequest)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Unauthorized)
  .prefix("/api/v2")
{}
